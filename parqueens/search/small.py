"""Small boards at once: a pure-Python search, without numba, numpy or joblib.

Loading the numba kernels takes longer (about 0.3 s) than searching a board
of up to :data:`DIRECT_N` rows in Python (milliseconds), so a count or a
listing that asks for nothing more (no checkpoint, no node count, no method
or split depth named, no parallel jobs) is answered here: see
:func:`serves`.  The search is the classic bitmask backtracker (Somers,
Richards) with Python ints, lowest column first, so solutions come in
lexicographic order; the symmetry classes are found by comparing each
solution with its 8 images (:func:`parqueens.dihedral.images`).  Boards
below 3 rows, which have no work units, are always solved here (through the
work units' plan when a checkpoint records them).
"""

from ..dihedral import images

__all__ = ["DIRECT_N", "serves", "solutions", "fixed_rows", "canonical", "orbit_size"]


#: Boards up to this many rows to search are solved here (n = 10: 724
#: solutions, about 30 ms).
DIRECT_N = 10


def serves(n, fixed=(), *, method=None, split_depth=None, nodes=False):
    """Whether a search of n is answered by this module: a small board (at
    most :data:`DIRECT_N` rows to search) and nothing asked of the search
    (no method named, no split depth, no node count).  Arguments as
    :func:`parqueens.run.runner.run_count` takes them, checked; what the run
    asks of its machinery (jobs, a checkpoint, a backend) the plan decides
    (:func:`parqueens.run.plan.plan_run`)."""
    plain = method is None and split_depth is None and not nodes
    return plain and n - len(fixed) <= DIRECT_N


def solutions(n, fixed=(), unique=False):
    """All solutions containing the ``fixed`` queens (0-based ``(row,
    col)``, checked), in lexicographic order, as tuples; with ``unique``
    only the canonical forms.  n = 0 has one, the empty placement."""
    if n == 0:
        return [()]
    full = (1 << n) - 1
    allowed = fixed_rows(n, fixed)  # the fixed queens prune every row at once
    out = []
    queens = [0] * n
    cols, ld, rd, free = [0] * n, [0] * n, [0] * n, [0] * n
    free[0] = allowed[0]
    row = 0
    while row >= 0:
        if not free[row]:
            row -= 1
            continue
        bit = free[row] & -free[row]  # the lowest column first
        free[row] ^= bit
        queens[row] = bit.bit_length() - 1
        if row == n - 1:
            q = tuple(queens)
            if not unique or canonical(q) == q:
                out.append(q)
            continue
        cols[row + 1] = cols[row] | bit
        ld[row + 1] = ((ld[row] | bit) << 1) & full
        rd[row + 1] = (rd[row] | bit) >> 1
        row += 1
        free[row] = allowed[row] & ~(cols[row] | ld[row] | rd[row])
    return out


def fixed_rows(n, fixed):
    """Per row, the columns (an int mask) that the fixed queens leave a queen
    of that row: its own column in a fixed queen's row, else the squares no
    fixed queen attacks."""
    full = (1 << n) - 1
    rows = [full] * n
    for fr, fc in fixed:
        for r in range(n):
            d = abs(r - fr)
            if d == 0:
                rows[r] &= 1 << fc
            else:
                rows[r] &= ~((1 << fc) | (1 << (fc + d)) | ((1 << (fc - d)) if fc >= d else 0))
        rows = [m & full for m in rows]
    return rows


def canonical(q: tuple[int, ...] | list[int]) -> tuple[int, ...]:
    """The canonical form of ``q``: the smallest of its images."""
    return min(images(q))


def orbit_size(q):
    """The number of distinct images of ``q`` (8, 4, 2 or 1)."""
    return len(set(images(q)))
