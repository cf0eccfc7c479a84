"""Validation of user input, shared by the library and the command line.

Each function raises ``TypeError`` (wrong type; booleans are not integers) or
``ValueError`` (wrong value) with a one-line message that the command line
prints (exit code 2).  A message names an argument as a caller of the library
writes it (``method="d4"``, ``force=True``, ``split_depth``), which the
command line says as its option
(:func:`parqueens.cli.output.command_line_words`).  Each rule is written here
once: the command line's argument types call these same functions.  No imports beyond the
standard library and :mod:`parqueens.names`, so that usage errors answer
before numba is loaded.  Which method counts a size and the checks of a
whole count are :mod:`parqueens.methods`'.
"""

import numbers
import re
import sys
from typing import Any

from .names import (
    BACKEND_ALIASES,
    BACKENDS,
    COLORS,
    FORMATS,
    MAX_N,
    METHODS,
    TEXT_FORMATS,
    ZERO_BASED_FORMATS,
)

__all__ = [
    "MAX_JOBS",
    "check_int",
    "check_positive",
    "check_share",
    "check_seconds",
    "parse_share",
    "check_recheck",
    "check_method",
    "check_backend",
    "check_color",
    "read_scheduler_file",
    "SCHEDULER_PROTOCOLS",
    "check_scheduler",
    "check_format",
    "check_one_based",
    "check_labels",
    "check_destination",
    "check_jobs",
    "check_split_depth",
    "check_unique_fixed",
    "check_n",
    "parse_fixed",
    "check_fixed",
    "fixed_conflict",
    "parse_range",
    "check_columns",
    "check_row",
    "check_rows",
]


#: The most jobs a run may ask for (far more than any machine's cores; the
#: runs use no more than they can keep busy, see :mod:`parqueens.run.backends`).
MAX_JOBS = 4096
#: The most parts a count's units may be cut into (:func:`check_part`).
MAX_PARTS = 1_000_000


def check_int(value: Any, name: str) -> int:
    """``value`` as an int; ``TypeError`` unless it is an integer (not a bool;
    NumPy integers are integers)."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{name} must be an integer, got {value!r}")
    return int(value)


def check_positive(value, name):
    """``value`` as an int in ``1..2**63 - 1`` (the kernels' int64 counters);
    ``TypeError``/``ValueError`` otherwise."""
    value = check_int(value, name)
    if not 1 <= value < 2**63:
        raise ValueError(f"{name} must be a positive integer below 2**63, got {value}")
    return value


def check_share(value, name):
    """``value`` as a float in ``0..1`` (a share, e.g. of units);
    ``TypeError``/``ValueError`` otherwise."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError(f"{name} must be a number from 0 to 1, got {type(value).__name__}")
    if not 0 <= value <= 1:
        raise ValueError(f"{name} must be a number from 0 to 1, got {value:g}")
    return float(value)


def check_seconds(value, name):
    """``value`` as a float of seconds, finite and at least 0;
    ``TypeError``/``ValueError`` otherwise."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be a number of seconds, got {type(value).__name__}")
    if not 0 <= value < float("inf"):
        raise ValueError(f"{name} must be a finite number of seconds, at least 0, got {value!r}")
    return float(value)


# A decimal number in ASCII digits (float() would take other scripts' digits).
_NUMBER = re.compile(r"\s*[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?\s*", re.ASCII)


def parse_share(text):
    """A share typed as text (``0.25``, ``1``, ``5e-2``), for
    :func:`check_share`; ``ValueError`` unless it is a decimal number in
    ASCII digits."""
    if not _NUMBER.fullmatch(text):
        raise ValueError(f"the share must be a number from 0 to 1, got {text!r}")
    return float(text)


def check_recheck(recheck, checkpoint):
    """``recheck`` (None, or a share: :func:`check_share`), refused without
    a checkpoint to compare with."""
    if recheck is None:
        return None
    recheck = check_share(recheck, "recheck")
    if checkpoint is None:
        raise ValueError("recheck compares with a checkpoint: give one (checkpoint=FILE)")
    return recheck


def check_method(method):
    """``method`` if it is one of :data:`parqueens.names.METHODS` or None."""
    if method is not None and method not in METHODS:
        raise ValueError(f"unknown method {method!r}; choose from {', '.join(METHODS)}")
    return method


def check_backend(backend):
    """The backend's name in :data:`parqueens.names.BACKENDS` (aliases such
    as joblib's ``"threading"`` accepted); ``ValueError`` for others."""
    if isinstance(backend, str) and backend in BACKENDS:
        return backend
    if (backend is None or isinstance(backend, str)) and backend in BACKEND_ALIASES:
        return BACKEND_ALIASES[backend]
    raise ValueError(f"unknown backend {backend!r}; choose from {', '.join(BACKENDS)}")


def check_color(color):
    """``color`` as one of :data:`parqueens.names.COLORS`; ``ValueError`` else."""
    if isinstance(color, str) and color in COLORS:
        return color
    raise ValueError(f"unknown color choice {color!r}; choose from {', '.join(COLORS)}")


def read_scheduler_file(path):
    """The scheduler address that a Dask scheduler file holds (the JSON that
    ``dask scheduler --scheduler-file``, dask-mpi and dask-jobqueue write,
    with its ``"address"``), checked as :func:`check_scheduler`.  Raises
    ``OSError`` if the file cannot be read, ``ValueError`` if it is not one."""
    import json

    with open(path, encoding="utf-8") as f:
        text = f.read()
    try:
        address = json.loads(text)["address"]
    except (ValueError, KeyError, TypeError):
        raise ValueError(
            f'{path} is not a Dask scheduler file (JSON with the scheduler\'s "address", '
            "as `dask scheduler --scheduler-file` writes it)"
        ) from None
    return check_scheduler(address)


#: The protocols of Dask's addresses (its comm backends); ``inproc`` is a
#: scheduler of the same process (the library's), the others a network's.
SCHEDULER_PROTOCOLS = ("tcp", "tls", "ws", "wss", "ucx", "inproc")

# HOST:PORT, the host a name, an IPv4 address or an IPv6 one in brackets.
_HOST_PORT = re.compile(r"(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9_.-]+)(?::([0-9]*))?")


def check_scheduler(address):
    """The address of a Dask scheduler, stripped of surrounding blanks:
    ``PROTOCOL://HOST:PORT`` with a protocol of :data:`SCHEDULER_PROTOCOLS`
    (``tcp://10.0.0.5:8786``, as ``dask scheduler`` prints it), or
    ``HOST:PORT`` (Dask's default protocol, tcp); the host a name, an IPv4
    address or an IPv6 one in brackets (``tcp://[::1]:8786``), the port
    1..65535.  ``inproc://...`` is taken as it is.

    Whether a scheduler answers there is not checked here (see
    :func:`parqueens.run.backends.dask_client`).  ``TypeError`` for a non-str,
    ``ValueError`` (one line, with the form to give) otherwise.
    """
    if not isinstance(address, str):
        raise TypeError(f"the scheduler address must be a str, got {type(address).__name__}")
    text = address.strip()
    if not text:
        raise ValueError(
            "the scheduler needs an address such as tcp://HOST:8786 (leave it out to start a "
            "local cluster)"
        )
    form = "give PROTOCOL://HOST:PORT, e.g. tcp://10.0.0.5:8786 as `dask scheduler` prints it"
    protocol, sep, rest = text.rpartition("://")
    if sep and protocol not in SCHEDULER_PROTOCOLS:
        raise ValueError(
            f"{protocol!r} in {text!r} is not a protocol of Dask addresses (they are "
            f"{', '.join(SCHEDULER_PROTOCOLS)}): {form}"
        )
    if protocol == "inproc" and rest:
        return text
    m = _HOST_PORT.fullmatch(rest)
    if m is None:
        raise ValueError(f"{text!r} is not the address of a Dask scheduler: {form}")
    if not m.group(2):
        raise ValueError(
            f"the scheduler address {text!r} has no port: give {protocol or 'tcp'}://"
            f"{m.group(1)}:PORT (a scheduler listens on 8786 unless told otherwise)"
        )
    if not 1 <= int(m.group(2)) <= 65535:
        raise ValueError(
            f"the port of the scheduler address {text!r} must be 1 to 65535, got {m.group(2)}"
        )
    return text


def check_format(fmt, allowed=FORMATS):
    """``fmt`` if it is a str among ``allowed`` (``TypeError``/``ValueError``)."""
    if not isinstance(fmt, str):
        raise TypeError(f"format must be a str, got {type(fmt).__name__}")
    if fmt not in allowed:
        raise ValueError(f"unknown format {fmt!r}; choose from {', '.join(allowed)}")
    return fmt


def check_one_based(fmt, one_based):
    """``one_based`` as a bool; ``ValueError`` for npy, whose arrays are
    0-based (numpy indexes from 0).  The numbers of perm and jsonl and the
    labels of pictures count from 1 with it; board, matrix and leetcode
    hold no numbers, so it changes nothing there (and is accepted, as the
    command line's --fixed squares count from 1 with it too)."""
    if one_based and fmt in ZERO_BASED_FORMATS:
        raise ValueError(
            f"{fmt} arrays are 0-based, as numpy indexes them: one-based numbering "
            f"(one_based=True) does not apply"
        )
    return bool(one_based)


def check_labels(fmt, labels):
    """``labels`` as a bool; ``ValueError`` for a format other than svg,
    the only one that draws labels."""
    if labels and fmt != "svg":
        raise ValueError(f"labels (labels=True) are drawn in svg pictures, not in {fmt}")
    return bool(labels)


def check_destination(fmt, to_file):
    """``ValueError`` for binary output (npy) to standard output."""
    if fmt not in TEXT_FORMATS and not to_file:
        raise ValueError(f"{fmt} output needs a file (path=FILE), not standard output")


def check_jobs(jobs):
    """``jobs`` as given to a run: None, or a non-zero integer within
    ``-MAX_JOBS..MAX_JOBS`` (negative counts back from the cores, as in
    joblib).  What a run then uses is decided by
    :func:`parqueens.run.backends.plan_jobs`."""
    if jobs is None:
        return None
    jobs = check_int(jobs, "jobs")
    if jobs == 0:
        raise ValueError("jobs must not be 0 (1: no parallelism, -1: all cores)")
    if abs(jobs) > MAX_JOBS:
        raise ValueError(f"jobs must be between -{MAX_JOBS} and {MAX_JOBS}, got {jobs}")
    return jobs


def check_part(part):
    """A part of a count's units: ``"I/K"`` or ``(I, K)``, part ``I`` of
    ``K``, ``1 <= I <= K``; returns ``(I, K)`` (ints).  Raises ValueError
    (TypeError for another type)."""
    if isinstance(part, str):
        match = re.fullmatch(r"([0-9]+)/([0-9]+)", part)
        if not match:
            raise ValueError(f"part must be I/K, part I of K (such as 2/8), got {part!r}")
        part = (int(match[1]), int(match[2]))
    if not isinstance(part, (tuple, list)) or len(part) != 2:
        raise TypeError(f"part must be I/K or a pair (I, K), got {part!r}")
    i, k = (check_int(x, "part") for x in part)
    if not 1 <= k <= MAX_PARTS or not 1 <= i <= k:
        raise ValueError(f"part I/K needs 1 <= I <= K <= {MAX_PARTS:,}, got {i}/{k}")
    return i, k


def check_split_depth(depth, n, method, lowest=1):
    """A split depth for board size ``n``: ``lowest..n`` (``lowest`` is the
    method's smallest, see :func:`parqueens.methods.min_depth`)."""
    depth = check_int(depth, "split depth")
    if not lowest <= depth <= n:
        raise ValueError(
            f"split depth must be {lowest}..{n} for n = {n} and method {method}, got {depth}"
        )
    return depth


def check_unique_fixed(unique, fixed):
    """``ValueError`` if symmetry classes are asked for with fixed queens."""
    if unique and fixed:
        raise ValueError(
            "unique=True cannot be combined with fixed queens: "
            "fixing a queen breaks the symmetry that defines the classes"
        )


def check_n(n: Any, *, name: str = "n", low: int = 0, high: int | None = MAX_N) -> int:
    """Validate a board size; returns it as an int.

    Raises ``TypeError`` for a non-integer and ``ValueError`` outside
    ``low..high`` (the default limit, 64, is the width of the kernels'
    ``uint64`` row masks; None for no limit).
    """
    n = check_int(n, name)
    if n < low:
        raise ValueError(f"{name} must be >= {low}, got {n}")
    if high is not None and n > high:
        if high == MAX_N:
            raise ValueError(
                f"{name} = {n} is too large: the kernels hold a row in a 64-bit "
                f"mask, so {name} <= {high} (construct gives a solution of any size)"
            )
        raise ValueError(f"{name} = {n} is too large: at most {high} here")
    return n


# ASCII digits only, as for the board size (\d would take full-width ones).
_FIXED_ITEM = re.compile(r"^\s*(-?[0-9]+)\s*:\s*(-?[0-9]+)\s*$")


def parse_fixed(text):
    """Parse ``"ROW:COL,ROW:COL..."`` (0-based) into a list of ``(row, col)``.

    Raises ``ValueError`` for malformed text.  Ranges are checked by
    :func:`check_fixed`.
    """
    if text is None:
        return []
    out = []
    for item in text.split(","):
        m = _FIXED_ITEM.match(item)
        if not m:
            raise ValueError(f"fixed queens must look like ROW:COL[,ROW:COL...], got {item!r}")
        out.append((int(m.group(1)), int(m.group(2))))
    return out


def check_fixed(n: int, fixed: Any, one_based: bool = False) -> tuple[tuple[int, int], ...]:
    """Validate fixed queens for board size ``n``.

    ``fixed``: iterable of ``(row, col)`` pairs of ints, 0-based (counted
    from 1 with ``one_based``, as the messages then count too).  Returns
    them 0-based as a sorted tuple.  Raises ``ValueError`` for a square off the
    board or two queens in one row, ``TypeError`` for non-integers.  Queens
    that attack each other are allowed here (there is simply no solution);
    see :func:`fixed_conflict`.
    """
    if fixed is None:
        return ()
    out = []
    rows = set()
    off = 1 if one_based else 0
    for item in fixed:
        try:
            r, c = item
        except (TypeError, ValueError):
            raise TypeError(f"a fixed queen must be a (row, col) pair, got {item!r}") from None
        r = check_int(r, "fixed queen row")
        c = check_int(c, "fixed queen column")
        if not (off <= r < n + off and off <= c < n + off):
            where = (
                f"rows and columns are {off}..{n - 1 + off} for n = {n}"
                if n
                else "a board of size 0 has no squares"
            )
            raise ValueError(f"fixed queen {r}:{c} is off the board ({where})")
        r, c = r - off, c - off
        if (r, c) in out:
            continue  # the same queen given twice
        if r in rows:
            raise ValueError(f"two fixed queens in row {r + off}: a row holds one queen")
        rows.add(r)
        out.append((r, c))
    return tuple(sorted(out))


def fixed_conflict(fixed, one_based=False):
    """Why the fixed queens (0-based ``(row, col)`` pairs) admit no solution
    (two attack each other), or None; squares named from 1 with ``one_based``."""
    o = 1 if one_based else 0
    for i, (r1, c1) in enumerate(fixed):
        for r2, c2 in fixed[:i]:
            if c1 == c2:
                return f"fixed queens {r2 + o}:{c2 + o} and {r1 + o}:{c1 + o} share column {c1 + o}"
            if abs(r1 - r2) == abs(c1 - c2):
                return f"fixed queens {r2 + o}:{c2 + o} and {r1 + o}:{c1 + o} share a diagonal"
    return None


# ASCII digits only, as for the board size (\d would take other scripts' digits).
_RANGE_ITEM = re.compile(r"^\s*([0-9]+)\s*(?:-\s*([0-9]+)\s*)?$", re.ASCII)


def parse_range(text, high=MAX_N):
    """Parse board sizes like ``"1-18"``, ``"8"`` or ``"4,6,8-12"``.

    Returns a sorted list of distinct ints.  Raises ``ValueError`` for
    malformed text, a descending range (``5-3``) or a size above ``high``.
    """
    out = set()
    for item in text.split(","):
        m = _RANGE_ITEM.match(item)
        if not m:
            got = repr(item.strip())
            if not item.strip():  # `table ,`, `table 4,`: said as given
                got = repr(text) + (" (a size missing beside a comma)" if "," in text else "")
            raise ValueError(f"a range looks like 1-18, 8 or 4,6,8-12; got {got}")
        lo = int(m.group(1))
        hi = int(m.group(2)) if m.group(2) is not None else lo
        if hi < lo:
            raise ValueError(f"range {lo}-{hi} runs backwards; write {hi}-{lo}")
        check_n(hi, high=high)
        out.update(range(lo, hi + 1))
    return sorted(out)


# ---------------------------------------------------------------- rows of queens
# A row of queens is ``queens[row] = col``: a sequence of int or a 1-D
# integer numpy array.  numpy is not imported here: an array exists only if
# its caller imported it.


def _is_array(value):
    numpy = sys.modules.get("numpy")
    return numpy is not None and isinstance(value, numpy.ndarray)


def check_columns(queens: Any) -> Any:
    """The columns of a row of queens, not yet checked against a board.

    Returns a 1-D ``numpy.ndarray`` of an integer dtype as it is (an empty
    one of any dtype), else a list of int.  Raises ``TypeError`` for a
    string, something not iterable, or entries that are not integers
    (booleans, floats; NumPy integers are integers), ``ValueError`` unless
    it is one-dimensional."""
    if isinstance(queens, (str, bytes)):
        raise TypeError("queens must be a sequence of int, got a string")
    if _is_array(queens):
        if queens.ndim != 1:
            raise ValueError(f"queens must be one-dimensional, got shape {queens.shape}")
        if queens.size and queens.dtype.kind not in "iu":
            raise TypeError(f"queens must have an integer dtype, got {queens.dtype}")
        return queens
    try:
        columns = list(queens)
    except TypeError:
        raise TypeError(f"queens must be a sequence of int, got {type(queens).__name__}") from None
    for c in columns:
        if isinstance(c, bool) or not isinstance(c, numbers.Integral):
            if isinstance(c, (list, tuple, range)) or (_is_array(c) and getattr(c, "ndim", 0)):
                raise ValueError("queens must be one-dimensional, got nested sequences")
            raise TypeError(f"queens must contain only integers, got {type(c).__name__}")
    return [int(c) for c in columns]


def check_row(queens: Any, n: int | None = None) -> list[int]:
    """A row of queens on an n-board (n from its length if None), as a
    list of int: :func:`check_columns`, then ``ValueError`` unless it has
    length n and its columns lie in ``range(n)``.  It need not be a
    solution (queens may attack each other)."""
    columns = check_columns(queens)
    if _is_array(columns):
        columns = columns.tolist()
    if n is None:
        n = len(columns)
    if len(columns) != n:
        raise ValueError(f"expected a solution of length {n}, got length {len(columns)}")
    if any(not 0 <= c < n for c in columns):
        raise ValueError(f"columns must lie in 0..{n - 1}")
    return columns


def check_rows(rows, n):
    """Rows of queens of an n-board, each as :func:`check_row` checks it.

    A numpy array of an integer dtype, shape ``(count, n)``, is returned as
    it is (an empty one as ``int64``); any other iterable of rows as a list
    of lists of int (without importing numpy, unless it is empty and not a
    list or tuple).  Raises ``TypeError``/``ValueError`` as
    :func:`check_row`, and for an array of another shape or dtype."""
    if not _is_array(rows):
        checked = [check_row(q, n) for q in rows]
        if checked or isinstance(rows, (list, tuple)):
            return checked
    import numpy as np

    a = np.asarray(rows)
    if a.ndim != 2 or a.shape[1] != n:
        raise ValueError(f"expected an array of shape (count, {n}), got shape {a.shape}")
    if a.size == 0:
        return a.astype(np.int64)
    if a.dtype.kind not in "iu":
        raise TypeError(f"solutions must have an integer dtype, got {a.dtype}")
    if a.min() < 0 or a.max() >= n:
        raise ValueError(f"columns must lie in 0..{n - 1}")
    return a
