"""Validation of user input, shared by the library and the command line.

Each function raises ``TypeError`` (wrong type; booleans are not integers) or
``ValueError`` (wrong value) with a one-line message that the command line
prints as it is (exit code 2).
"""

import re

import numpy as np

from .kernels import MAX_N


def check_int(value, name):
    """``value`` as an int; ``TypeError`` unless it is an integer (not a bool)."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise TypeError(f"{name} must be an integer, got {value!r}")
    return int(value)


def check_unique_fixed(unique, fixed):
    """``ValueError`` if symmetry classes are asked for with fixed queens."""
    if unique and fixed:
        raise ValueError("unique (--unique) cannot be combined with fixed queens: fixing a "
                         "queen breaks the symmetry that defines the classes")


def check_n(n, *, name="n", low=0, high=MAX_N):
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
            raise ValueError(f"{name} = {n} is too large: the kernels hold a row in a 64-bit "
                             f"mask, so {name} <= {high}")
        raise ValueError(f"{name} = {n} is too large: at most {high} here")
    return n


def resolve_jobs(jobs):
    """Number of worker processes for ``jobs``.

    ``None`` means ``joblib.cpu_count()`` (which respects CPU affinity and
    container quotas); a negative value counts back from it like joblib
    (-1 = all cores, -2 = all but one).  Raises ``ValueError`` for 0 or a
    value that leaves no core, ``TypeError`` for a non-integer.  joblib is
    imported only to count the cores (a run of one job does without it).
    """
    if jobs is not None:
        jobs = check_int(jobs, "jobs")
        if jobs == 0:
            raise ValueError("jobs must not be 0 (use 1 for no parallelism, -1 for all cores)")
        if jobs > 0:
            return jobs
    import joblib
    cpus = joblib.cpu_count()
    if jobs is None:
        return cpus
    if jobs < 0:
        resolved = cpus + 1 + jobs
        if resolved < 1:
            raise ValueError(f"jobs = {jobs} leaves no core on this machine ({cpus} cores)")
        return resolved
    return jobs


_FIXED_ITEM = re.compile(r"^\s*(-?\d+)\s*:\s*(-?\d+)\s*$")


def parse_fixed(text):
    """Parse ``"ROW:COL,ROW:COL..."`` (0-based) into a list of ``(row, col)``.

    Raises ``ValueError`` for malformed text.  Ranges are checked by
    :func:`check_fixed`.
    """
    if text is None:
        return []
    items = [t for t in text.split(",")]
    out = []
    for item in items:
        m = _FIXED_ITEM.match(item)
        if not m:
            raise ValueError(f"fixed queens must look like ROW:COL[,ROW:COL...], got {item!r}")
        out.append((int(m.group(1)), int(m.group(2))))
    return out


def check_fixed(n, fixed):
    """Validate fixed queens for board size ``n``.

    ``fixed``: iterable of ``(row, col)`` pairs of ints, 0-based.  Returns
    them as a sorted tuple.  Raises ``ValueError`` for a square off the
    board or two queens in one row, ``TypeError`` for non-integers.  Queens
    that attack each other are allowed here (there is simply no solution);
    see :func:`fixed_conflict`.
    """
    if fixed is None:
        return ()
    out = []
    rows = set()
    for item in fixed:
        try:
            r, c = item
        except (TypeError, ValueError):
            raise TypeError(f"a fixed queen must be a (row, col) pair, got {item!r}") from None
        r = check_int(r, "fixed queen row")
        c = check_int(c, "fixed queen column")
        if not (0 <= r < n and 0 <= c < n):
            where = (f"rows and columns are 0..{n - 1} for n = {n}" if n else
                     "a board of size 0 has no squares")
            raise ValueError(f"fixed queen {r}:{c} is off the board ({where})")
        if (r, c) in out:
            continue  # the same queen given twice
        if r in rows:
            raise ValueError(f"two fixed queens in row {r}: a row holds one queen")
        rows.add(r)
        out.append((r, c))
    return tuple(sorted(out))


def fixed_conflict(fixed):
    """Why the fixed queens admit no solution (two attack each other), or None."""
    for i, (r1, c1) in enumerate(fixed):
        for r2, c2 in fixed[:i]:
            if c1 == c2:
                return f"fixed queens {r2}:{c2} and {r1}:{c1} share column {c1}"
            if abs(r1 - r2) == abs(c1 - c2):
                return f"fixed queens {r2}:{c2} and {r1}:{c1} share a diagonal"
    return None


_RANGE_ITEM = re.compile(r"^\s*(\d+)\s*(?:-\s*(\d+)\s*)?$")


def parse_range(text, high=MAX_N):
    """Parse board sizes like ``"1-18"``, ``"8"`` or ``"4,6,8-12"``.

    Returns a sorted list of distinct ints.  Raises ``ValueError`` for
    malformed text, a descending range (``5-3``) or a size above ``high``.
    """
    out = set()
    for item in text.split(","):
        m = _RANGE_ITEM.match(item)
        if not m:
            raise ValueError(f"a range looks like 1-18, 8 or 4,6,8-12; got {item.strip()!r}")
        lo = int(m.group(1))
        hi = int(m.group(2)) if m.group(2) is not None else lo
        if hi < lo:
            raise ValueError(f"range {lo}-{hi} runs backwards; write {hi}-{lo}")
        if hi > high:
            raise ValueError(f"n = {hi} is too large: the kernels hold a row in a 64-bit "
                             f"mask, so n <= {high}")
        out.update(range(lo, hi + 1))
    return sorted(out)
