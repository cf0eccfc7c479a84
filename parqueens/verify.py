"""Checking lists of solutions, block by block: validity, duplicates and
canonical form, with numba kernels on whole blocks (a short list, in Python:
see :data:`DIRECT_ROWS`).

:func:`check_blocks` takes the solutions as 2-D integer arrays (one
solution per row, ``block[i, row] = col``), as
:meth:`parqueens.io.reading.SolutionReader.blocks` reads them from a file.  Per
block, a kernel checks each row for being a placement without attacks (a
permutation with distinct diagonals), whether the rows so far are in strictly
increasing lexicographic order, and with ``unique`` whether each is the
canonical form of its class.  Duplicates: a list that is strictly increasing
(what parqueens writes) has none; otherwise the valid rows, kept in one
compact array, are hashed, sorted by hash, and rows with equal hashes
compared.  Memory: the rows in the dtype of an npy file
(:func:`parqueens.io.npy.npy_dtype`: ``uint8`` up to n = 255) plus 16 bytes
per row while sorting, about one to two times a ``.npy`` file's size.
"""

import itertools
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from .io.npy import npy_dtype
from .search import small

__all__ = ["DIRECT_ROWS", "VerifyReport", "why_invalid", "check_blocks"]


#: At most this many solutions, in one block, are checked in Python: a short
#: list is answered before numba would have loaded its kernels.
DIRECT_ROWS = 2048


#: The problem of a list without solutions where none is accepted
#: (``allow_empty`` False).
EMPTY = "no solution in the input (allow_empty=True accepts an empty list)"


@dataclass
class VerifyReport:
    """What :func:`check_blocks` found.

    Attributes
    ----------
    n : int or None
        Board size (None: no solution and none given).
    count : int
        Solutions read.
    invalid : int
        Rows that are not placements without attacks.
    duplicates : int
        Valid rows equal to an earlier valid row.
    not_canonical : int
        With ``unique``: valid first occurrences not in canonical form.
    distinct : int
        Valid first occurrences (canonical ones with ``unique``).
    first_problem : str or None
        The first row with a problem, in input order: ``"solution I [..] is
        not a valid placement: WHY"`` (which two queens attack each other,
        or the row off the board), ``"... is a duplicate"`` or ``"... is
        not in canonical form"`` (I counted from 1), or :data:`EMPTY`.
    allow_empty : bool
        A list without solutions passes (a report that compares none with
        the expected number); False: it is a problem (:data:`EMPTY`), as on
        the command line, where a producer that failed wrote nothing.
    """

    n: int | None = None
    count: int = 0
    invalid: int = 0
    duplicates: int = 0
    not_canonical: int = 0
    distinct: int = 0
    first_problem: str | None = None
    unique: bool = False
    empty_lines: int = 0
    expected: int | None = None
    allow_empty: bool = True

    @property
    def empty_refused(self) -> bool:
        """No solution read, which ``allow_empty`` does not accept (with
        :meth:`compare`, the expected number decides instead)."""
        return not self.allow_empty and self.count == 0 and self.expected is None

    def note_empty_lines(self, lines: Sequence[int], more: int = 0) -> None:
        """Record the empty lines a reader skipped among solutions of n > 0
        columns (``lines``: the first line numbers, ``more``: how many
        beyond): a line blanked out would otherwise pass as one solution
        fewer.  They make the report not :attr:`ok`."""
        if lines:
            self.empty_lines = len(lines) + more
            self.first_problem = self.first_problem or (
                f"line {lines[0]} is empty (not a solution of n = {self.n})"
            )

    def compare(self, expected: int) -> None:
        """Record the number the list should hold (``--complete``: all the
        solutions, or all the classes with ``unique``)."""
        self.expected = expected

    @property
    def ok(self) -> bool:
        """All well: no invalid, duplicate, non-canonical (with ``unique``)
        row or empty line, and with :meth:`compare` exactly the expected
        number of distinct rows."""
        clean = not (self.invalid or self.duplicates or self.not_canonical or self.empty_lines)
        clean = clean and not self.empty_refused
        return clean and (self.expected is None or self.distinct == self.expected)

    def as_dict(self, file: str | None = None) -> dict[str, Any]:
        """The report as a JSON-ready dict (what ``verify --json`` prints),
        naming the list ``file`` (None: unnamed)."""
        d: dict[str, Any] = {
            "file": file,
            "n": self.n,
            "solutions": self.count,
            "invalid": self.invalid,
            "duplicates": self.duplicates,
            "empty_lines": self.empty_lines,
        }
        if self.unique:
            d["not_canonical"] = self.not_canonical
        if self.expected is not None:
            d["expected"] = self.expected
            d["distinct"] = self.distinct
        first = self.first_problem or (EMPTY if self.empty_refused else None)
        return d | {"ok": self.ok, "first_problem": first}

    def summary(self, file: str) -> str:
        """The report in one line, e.g. ``s8.perm: 92 solutions of n = 8,
        all valid, no duplicates, complete: all 92 solutions``."""
        k = self.count
        if self.empty_refused and not self.empty_lines:
            return f"{file}: {EMPTY}"
        parts = [f"{file}: {k} solution{'' if k == 1 else 's'}"]
        parts[0] += f" of n = {self.n}" if self.n is not None else ""
        parts.append("all valid" if not self.invalid else f"{self.invalid} INVALID")
        d = self.duplicates
        parts.append("no duplicates" if not d else f"{d} DUPLICATE{'S' * (d > 1)}")
        if self.unique:
            c = self.not_canonical
            parts.append("all canonical" if not c else f"{c} NOT CANONICAL")
        if self.empty_lines:
            parts.append(f"{self.empty_lines} EMPTY LINE{'S' * (self.empty_lines > 1)}")
        if self.expected is not None:
            want = self.expected
            what = "classes" if self.unique else "solutions"
            if want == 1:
                what = "class" if self.unique else "solution"
            if self.distinct != want:
                parts.append(f"INCOMPLETE: {self.distinct} distinct of {want} {what}")
            elif self.ok:
                parts.append(f"complete: all {want} {what}")
            else:
                parts.append(f"all {want} {what} present")
        return ", ".join(parts)


def _scan_direct(
    block: np.ndarray,
    prev: np.ndarray,
    has_prev: bool,
    unique: bool,
    valid: np.ndarray,
    canon: np.ndarray,
) -> bool:
    """:func:`parqueens.search.kernels.scan_solutions` in Python, for a small list."""
    increasing = True
    before = prev.tolist() if has_prev else None
    for i, row in enumerate(block.tolist()):
        n = len(row)
        valid[i] = ok = (
            all(0 <= c < n for c in row)
            and len(set(row)) == n
            and len({r + c for r, c in enumerate(row)}) == n
            and len({r - c for r, c in enumerate(row)}) == n
        )
        if unique and ok:
            canon[i] = small.canonical(row) == tuple(row)
        increasing = increasing and (before is None or row > before)
        before = row
    return increasing


def _repeats_direct(rows: np.ndarray, valid: np.ndarray) -> np.ndarray:
    """``repeat[i]``: valid row ``i`` equals an earlier valid row (a set)."""
    seen: set[tuple[int, ...]] = set()
    repeat = np.zeros(len(valid), np.bool_)
    for i in np.flatnonzero(valid).tolist():
        key = tuple(rows[i].tolist())
        repeat[i] = key in seen
        seen.add(key)
    return repeat


def why_invalid(
    queens: Sequence[int],
    n: int | None = None,
    one_based: bool = False,
    bad_row: tuple[int, int | list[int]] | None = None,
) -> str | None:
    """Why ``queens`` (sequence of int, ``queens[row] = col``) is not a
    valid placement: the first two queens, row by row, that attack each
    other, or a column off the board; None if it is valid.

    ``bad_row``: ``(row, columns)`` of a board line without exactly one
    queen or ``(row, column)`` of a column off the board (as
    :attr:`parqueens.io.reading.TextReader.bad_rows` records them, the row
    then holding n), described first.  Rows and columns are counted from 1 with
    ``one_based``."""
    n = len(queens) if n is None else n
    off = 1 if one_based else 0
    if bad_row is not None:
        r, found = bad_row
        if not isinstance(found, list):  # a column off the board
            return f"the queen of row {r + off} is off the board (column {found + off})"
        if not found:
            return f"row {r + off} has no queen"
        shown = [str(c + off) for c in found]
        cols = ", ".join(shown[:-1]) + " and " + shown[-1]
        return f"row {r + off} has {len(found)} queens (columns {cols})"
    seen: dict[tuple[int, int], int] = {}
    for r, c in enumerate(queens):
        if not 0 <= c < n:
            return f"the queen of row {r + off} is off the board (column {c + off})"
        if (0, c) in seen:
            return f"the queens of rows {seen[0, c] + off} and {r + off} share column {c + off}"
        for key in ((1, r + c), (2, r - c)):
            if key in seen:
                r0 = seen[key]
                return (
                    f"the queens of rows {r0 + off} and {r + off} (columns "
                    f"{queens[r0] + off} and {c + off}) share a diagonal"
                )
        for key in ((0, c), (1, r + c), (2, r - c)):
            seen[key] = r
    return None


def check_blocks(
    blocks: Iterable[npt.ArrayLike],
    n: int | None = None,
    unique: bool = False,
    rows: npt.ArrayLike | None = None,
    *,
    bad_rows: dict[int, tuple[int, int | list[int]]] | None = None,
    one_based: bool = False,
    allow_empty: bool = True,
) -> VerifyReport:
    """Check a list of solutions given as blocks.

    Parameters
    ----------
    blocks : iterable of numpy.ndarray
        Integer arrays of shape ``(k, n)``, columns in ``0..n-1`` (as
        :meth:`parqueens.io.reading.SolutionReader.blocks` gives them), in
        input order.
    n : int or None
        The board size, if known (for a report of an empty list).
    unique : bool
        Also check that each solution is the canonical form of its class.
    rows : numpy.ndarray or None
        All the solutions at once, if they are at hand (a memory-mapped
        ``.npy`` file: :attr:`parqueens.io.reading.SolutionReader.array`), so
        that no copy of them is kept for finding duplicates.
    bad_rows : dict or None
        Solution index -> ``(row, columns)`` of its board line without
        exactly one queen (:attr:`parqueens.io.reading.TextReader.bad_rows`),
        for the description of the first problem.
    one_based : bool
        Describe the first problem with columns (and rows) counted from 1.
    allow_empty : bool
        Whether a list without solutions passes (see :class:`VerifyReport`).

    Returns
    -------
    VerifyReport

    Raises
    ------
    ValueError
        If the blocks' widths differ.
    """
    report = VerifyReport(n=n, unique=bool(unique), allow_empty=bool(allow_empty))
    rest = iter(blocks)
    head = list(itertools.islice(rest, 2))
    direct = len(head) == 1 and len(np.asarray(head[0])) <= DIRECT_ROWS
    scan: Callable[..., bool]
    find_repeats: Callable[[np.ndarray, np.ndarray], np.ndarray]
    if direct:
        scan, find_repeats = _scan_direct, _repeats_direct
    else:
        from .search.kernels import scan_solutions as scan

        find_repeats = _find_repeats
    valid, canon, kept, first, increasing = _scan_blocks(
        itertools.chain(head, rest), report, unique, scan, keep=rows is None
    )
    if valid is None or canon is None:  # no rows
        return report
    repeat = np.zeros(1, np.bool_)  # a strictly increasing list has no duplicates
    if not increasing:
        # Duplicates: valid rows only, each against the earlier ones.
        every = np.asarray(rows) if rows is not None else np.concatenate(kept)
        del kept
        repeat = find_repeats(every, valid)
        odd = valid & ~repeat & ~canon
        first.pop("odd", None)
        for problem, mask in (("duplicate", repeat), ("odd", odd)):
            if mask.any():
                i = int(np.flatnonzero(mask)[0])
                first[problem] = (i, np.asarray(every[i]).tolist())
    report.invalid = report.count - int(np.count_nonzero(valid))
    report.duplicates = int(np.count_nonzero(repeat))
    report.not_canonical = int(np.count_nonzero(valid & ~repeat & ~canon)) if unique else 0
    report.distinct = report.count - report.invalid - report.duplicates - report.not_canonical
    if first and report.n is not None:
        report.first_problem = _first_problem(first, report.n, one_based, bad_rows)
    return report


_Scan = tuple[
    np.ndarray | None,
    np.ndarray | None,
    list[np.ndarray],
    dict[str, tuple[int, list[int]]],
    bool,
]


def _scan_blocks(
    blocks: Iterable[npt.ArrayLike],
    report: VerifyReport,
    unique: bool,
    scan: Callable[..., bool],
    keep: bool,
) -> _Scan:
    """One pass over the blocks with ``scan`` (the kernel, or its Python
    twin for a short list), counting the rows and setting the board size in
    ``report``.  Returns ``(valid, canon, kept, first, increasing)``: per
    row, whether it is a placement without attacks and (with ``unique``)
    canonical, bool arrays (``canon`` a single True without ``unique``,
    which broadcasts); with ``keep``, a compact copy of the blocks, for
    finding duplicates; ``{problem: (index, row)}``, the first row seen
    ``"invalid"`` and the first valid one not canonical (``"odd"``); and
    whether the rows are strictly increasing.  Raises ``ValueError`` if the
    blocks' widths differ."""
    kept: list[np.ndarray] = []
    valid_parts: list[np.ndarray] = []
    canon_parts: list[np.ndarray] = []
    first: dict[
        str, tuple[int, list[int]]
    ] = {}  # problem -> (index, row) of its first row seen in the scan
    prev: np.ndarray | None = None
    increasing = True
    for part in blocks:
        block = np.asarray(part)
        if report.n is None:
            report.n = block.shape[1]
        if block.shape[1] != report.n:
            raise ValueError(f"solutions of {block.shape[1]} columns after ones of {report.n}")
        if len(block) == 0:
            continue
        valid = np.empty(len(block), np.bool_)
        canon = np.ones(len(block), np.bool_)
        has_prev = prev is not None
        increasing &= scan(block, prev if has_prev else block[0], has_prev, unique, valid, canon)
        prev = block[-1].copy()
        for problem, mask in (("invalid", ~valid), ("odd", valid & ~canon)):
            if problem not in first and mask.any():
                i = int(np.flatnonzero(mask)[0])
                first[problem] = (report.count + i, block[i].tolist())
        if keep:  # text: a compact copy, smaller than the text
            kept.append(block.astype(npy_dtype(report.n)))
        valid_parts.append(valid)
        if unique:  # else all True: not kept
            canon_parts.append(canon)
        report.count += len(block)
    if not report.count:
        return None, None, kept, first, increasing
    valid = np.concatenate(valid_parts)
    del valid_parts
    canon = np.concatenate(canon_parts) if unique else np.ones(1, np.bool_)  # broadcast
    return valid, canon, kept, first, increasing


def _first_problem(
    first: dict[str, tuple[int, list[int]]],
    n: int,
    one_based: bool,
    bad_rows: dict[int, tuple[int, int | list[int]]] | None,
) -> str:
    """The sentence of :attr:`VerifyReport.first_problem` for the earliest
    row of ``first`` (``{problem: (index, row)}``, problems ``"invalid"``,
    ``"duplicate"``, ``"odd"``: not canonical)."""
    what = {
        "invalid": "is not a valid placement",
        "duplicate": "is a duplicate",
        "odd": "is not in canonical form",
    }
    problem, (i, queens) = min(first.items(), key=lambda item: item[1][0])
    off = 1 if one_based else 0
    shown = ", ".join(str(c + off) if 0 <= c < n else "?" for c in queens)
    text = f"solution {i + 1} [{shown}] {what[problem]}"
    if problem == "invalid":
        bad = (bad_rows or {}).get(i)
        why = why_invalid(queens, n, one_based, bad)
        text += f": {why}"
    return text


def _find_repeats(rows: np.ndarray, valid: np.ndarray) -> np.ndarray:
    """``repeat[i]``: valid row ``i`` equals an earlier valid row."""
    from .search.kernels import repeated_rows, row_hashes

    hashes = row_hashes(rows)
    where = np.flatnonzero(valid)
    repeat: np.ndarray = repeated_rows(
        rows, hashes, where[np.argsort(hashes[where], kind="stable")]
    )
    return repeat
