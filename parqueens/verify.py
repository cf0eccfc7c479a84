"""Checking lists of solutions, block by block: validity, duplicates and
canonical form, with numba kernels on whole blocks.

:func:`check_blocks` takes the solutions as 2-D integer arrays (one
solution per row, ``block[i, row] = col``), as
:meth:`parqueens.formats.SolutionReader.blocks` reads them from a file.  Per
block, a kernel checks each row for being a placement without attacks (a
permutation with distinct diagonals), whether the rows so far are in strictly
increasing lexicographic order, and with ``unique`` whether each is the
canonical form of its class.  Duplicates: a list that is strictly increasing
(what parqueens writes) has none; otherwise the valid rows, kept in one
compact array, are hashed, sorted by hash, and rows with equal hashes
compared.  Memory: the rows in ``uint8`` (``uint16``/``uint32`` for larger
boards) plus 16 bytes per row while sorting, about one to two times a
``.npy`` file's size.
"""

from dataclasses import dataclass

import numpy as np
from numba import njit

from .symmetry import _canonical_stabilizer


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
        not a valid placement"``, ``"... is a duplicate"`` or ``"... is not
        in canonical form"`` (I counted from 1).
    """

    n: int = None
    count: int = 0
    invalid: int = 0
    duplicates: int = 0
    not_canonical: int = 0
    distinct: int = 0
    first_problem: str = None


@njit(cache=True, nogil=True)
def _scan(block, prev, has_prev, unique, valid, canon):
    """Per row of ``block`` (int, shape ``(k, n)``, columns in ``0..n-1``):
    ``valid[i]``: a placement without attacks; ``canon[i]`` (with
    ``unique``): valid and canonical.  Returns whether the rows, after
    ``prev`` (the previous block's last row, if ``has_prev``), are strictly
    increasing."""
    k, n = block.shape
    col = np.zeros(n, np.bool_)
    up = np.zeros(2 * n, np.bool_)
    down = np.zeros(2 * n, np.bool_)
    queens = np.empty(n, np.int64)
    inv = np.empty(n, np.int64)
    increasing = True
    for i in range(k):
        col[:] = False
        up[:] = False
        down[:] = False
        ok = True
        for r in range(n):
            c = np.int64(block[i, r])
            if col[c] or up[r + c] or down[r - c + n]:
                ok = False
                break
            col[c] = True
            up[r + c] = True
            down[r - c + n] = True
        valid[i] = ok
        if unique and ok:
            for r in range(n):
                queens[r] = block[i, r]
                inv[queens[r]] = r
            canon[i] = _canonical_stabilizer(n, queens, inv, False) > 0
        if increasing and (i > 0 or has_prev):
            before = block[i - 1] if i > 0 else prev
            r = 0
            while r < n and block[i, r] == before[r]:
                r += 1
            increasing = r < n and block[i, r] > before[r]
    return increasing


@njit(cache=True, nogil=True)
def _hashes(rows):
    """A 64-bit hash per row (two multiplicative rounds per column)."""
    k, n = rows.shape
    out = np.empty(k, np.uint64)
    for i in range(k):
        h = np.uint64(0x9E3779B97F4A7C15)
        for r in range(n):
            h = (h ^ np.uint64(rows[i, r])) * np.uint64(0xBF58476D1CE4E5B9)
            h ^= h >> np.uint64(31)
        out[i] = h
    return out


@njit(cache=True, nogil=True)
def _repeats(rows, hashes, order):
    """``repeat[i]``: row ``i`` equals an earlier row (by index) among the
    rows ``order`` lists: sorted by ``hashes`` (one per row) stably, so
    equal rows meet within a run of equal hashes, earliest first."""
    k, n = rows.shape
    repeat = np.zeros(k, np.bool_)
    start = 0
    while start < len(order):
        end = start + 1
        while end < len(order) and hashes[order[end]] == hashes[order[start]]:
            end += 1
        for a in range(start + 1, end):
            for b in range(start, a):
                same = True
                for r in range(n):
                    if rows[order[a], r] != rows[order[b], r]:
                        same = False
                        break
                if same:
                    repeat[order[a]] = True
                    break
        start = end
    return repeat


def _compact(n):
    """The smallest unsigned dtype for columns of an n-board."""
    return np.uint8 if n <= 256 else np.uint16 if n <= 65536 else np.uint32


def check_blocks(blocks, n=None, unique=False, rows=None):
    """Check a list of solutions given as blocks.

    Parameters
    ----------
    blocks : iterable of numpy.ndarray
        Integer arrays of shape ``(k, n)``, columns in ``0..n-1`` (as
        :meth:`parqueens.formats.SolutionReader.blocks` gives them), in
        input order.
    n : int or None
        The board size, if known (for a report of an empty list).
    unique : bool
        Also check that each solution is the canonical form of its class.
    rows : numpy.ndarray or None
        All the solutions at once, if they are at hand (a memory-mapped
        ``.npy`` file: :attr:`parqueens.formats.SolutionReader.array`), so
        that no copy of them is kept for finding duplicates.

    Returns
    -------
    VerifyReport

    Raises
    ------
    ValueError
        If the blocks' widths differ.
    """
    report = VerifyReport(n=n)
    kept, valid_parts, canon_parts = [], [], []
    first = {}  # problem -> (index, row) of its first row seen in the scan
    prev, increasing = None, True
    for block in blocks:
        block = np.asarray(block)
        if report.n is None:
            report.n = block.shape[1]
        if block.shape[1] != report.n:
            raise ValueError(f"solutions of {block.shape[1]} columns after ones of {report.n}")
        if len(block) == 0:
            continue
        valid = np.empty(len(block), np.bool_)
        canon = np.ones(len(block), np.bool_)
        has_prev = prev is not None
        increasing &= _scan(block, prev if has_prev else block[0], has_prev, unique, valid, canon)
        prev = block[-1].copy()
        for problem, mask in (("invalid", ~valid), ("odd", valid & ~canon)):
            if problem not in first and mask.any():
                i = int(np.flatnonzero(mask)[0])
                first[problem] = (report.count + i, block[i].tolist())
        if rows is None:  # text: a compact copy, smaller than the text
            kept.append(block.astype(_compact(report.n)))
        valid_parts.append(valid)
        canon_parts.append(canon)
        report.count += len(block)
    if not report.count:
        return report
    valid = np.concatenate(valid_parts)
    canon = np.concatenate(canon_parts)
    repeat = np.zeros(report.count, np.bool_)
    if not increasing:
        # Duplicates: valid rows only, each against the earlier ones.
        rows = np.asarray(rows) if rows is not None else np.concatenate(kept)
        del kept
        repeat = _find_repeats(rows, valid)
        odd = valid & ~repeat & ~canon
        first.pop("odd", None)
        for problem, mask in (("duplicate", repeat), ("odd", odd)):
            if mask.any():
                i = int(np.flatnonzero(mask)[0])
                first[problem] = (i, np.asarray(rows[i]).tolist())
    report.invalid = report.count - int(valid.sum())
    report.duplicates = int(repeat.sum())
    report.not_canonical = int((valid & ~repeat & ~canon).sum())
    report.distinct = report.count - report.invalid - report.duplicates - report.not_canonical
    if first:
        what = {
            "invalid": "is not a valid placement",
            "duplicate": "is a duplicate",
            "odd": "is not in canonical form",
        }
        problem, (i, queens) = min(first.items(), key=lambda item: item[1][0])
        report.first_problem = f"solution {i + 1} {queens} {what[problem]}"
    return report


def _find_repeats(rows, valid):
    """``repeat[i]``: valid row ``i`` equals an earlier valid row."""
    hashes = _hashes(rows)
    where = np.flatnonzero(valid)
    return _repeats(rows, hashes, where[np.argsort(hashes[where], kind="stable")])
