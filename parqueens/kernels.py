"""Numba kernels: iterative bitmask backtracking over constrained placements.

Conventions (used everywhere in parqueens): row 0 is the top row, column ``c``
is bit ``1 << c`` of a ``uint64`` mask.  With the queens of rows ``0..r-1``
placed, ``cols`` holds their columns, ``ld`` the squares of row ``r`` that
they attack along the diagonals running down to higher columns and ``rd``
along those running down to lower columns (the classic Somers/Richards
bitmask backtracker).  The free squares of row ``r`` are
``allowed[r] & ~(cols | ld | rd)``.

``allowed[r]`` is the look-ahead mask of row ``r``: the squares a queen of
row ``r`` may use given everything decided before the search starts (a
pre-placed queen's own square, squares attacked by pre-placed queens of any
row, and the border bounds of the D4 method).  Pre-placed queens lower down
the board thus prune the upper rows at once.  ``must_row``/``must_mask``
adds one more prune: after row ``must_row`` the columns of ``must_mask`` must
all be occupied (used by the D4 method for the side columns).

All masks are ``numpy.uint64``; every literal is cast, because numba turns
mixed ``int64``/``uint64`` arithmetic into floating point.  The kernels are
private: :mod:`parqueens.units` builds their inputs and :mod:`parqueens.runner`
calls them.
"""

import numpy as np
from numba import njit
from numba.cpython.unsafe.numbers import trailing_zeros

from .symmetry import _canonical_stabilizer

#: Largest board size the ``uint64`` masks can hold.
MAX_N = 64

_ONE = np.uint64(1)
_ZERO = np.uint64(0)
_TWO = np.uint64(2)


@njit(cache=True, nogil=True)
def _full_mask(n):
    if n >= 64:
        return ~_ZERO
    return (_ONE << np.uint64(n)) - _ONE


@njit(cache=True, nogil=True)
def _place_queens(n, allowed, placed):
    """Restrict ``allowed`` (uint64, shape ``(n,)``) in place to pre-placed queens.

    ``placed``: int array, shape ``(n,)``, the column of the queen pre-placed
    in each row or -1.  Each pre-placed queen removes the squares it attacks
    from every other row, and its own row is reduced to its square.  Returns
    False if the pre-placed queens attack each other or a square that the
    masks already exclude (no solution then).
    """
    ok = True
    for r0 in range(n):
        c0 = placed[r0]
        if c0 < 0:
            continue
        for r in range(n):
            if r == r0:
                continue
            dist = r - r0 if r > r0 else r0 - r
            attack = _ONE << np.uint64(c0)
            if c0 + dist < n:
                attack |= _ONE << np.uint64(c0 + dist)
            if c0 - dist >= 0:
                attack |= _ONE << np.uint64(c0 - dist)
            allowed[r] &= ~attack
    for r in range(n):
        c = placed[r]
        if c >= 0:
            bit = _ONE << np.uint64(c)
            if allowed[r] & bit:
                allowed[r] = bit
            else:
                allowed[r] = _ZERO
                ok = False
    return ok


@njit(cache=True, nogil=True)
def _classify(n, leaves, count, by_stab, keep, ties_only):
    """Test recorded solutions for being canonical.

    ``leaves[i, r]`` is the bit of the row-``r`` queen of solution ``i``.
    Adds the canonical ones to ``by_stab`` (by stabiliser size) and marks
    them in ``keep`` (bool array, at least ``count`` long).  ``ties_only``:
    see :func:`parqueens.symmetry._canonical_stabilizer`.
    """
    queens = np.empty(n, np.int64)
    inv = np.empty(n, np.int64)
    for i in range(count):
        for r in range(n):
            c = trailing_zeros(leaves[i, r])
            queens[r] = c
            inv[c] = r
        stab = _canonical_stabilizer(n, queens, inv, ties_only)
        keep[i] = stab > 0
        if stab == 1:
            by_stab[0] += 1
        elif stab == 2:
            by_stab[1] += 1
        elif stab == 4:
            by_stab[2] += 1
        elif stab == 8:
            by_stab[3] += 1


@njit(cache=True, nogil=True)
def _search(n, allowed, must_row, must_mask, leaf_mode, tie_row_a, tie_row_b, tie_cols,
            by_stab, leaves, record, limit):
    """Count the solutions with the row-``r`` queen in ``allowed[r]``.

    Requires n >= 3.  ``leaf_mode`` says what happens at a solution:

    * 0: it is only counted;
    * 1: it is tested for being canonical, and ``by_stab[k]`` (uint64 array
      of 4) counts the canonical ones whose stabiliser has ``2**k`` elements;
    * 2: as 1, but the test runs only if another image can tie with the
      first row (the D4 method): if the last-row queen is in a column of
      ``tie_cols``, or a side-column queen stands in row ``tie_row_a`` or
      ``tie_row_b``.  Otherwise the solution is canonical with a trivial
      stabiliser, counted in ``by_stab[0]`` at once.  Only images that tie
      with the first row are compared: the masks rank the others below
      (see :func:`parqueens.units.d4_order`).

    The solutions to test are recorded in ``leaves`` (uint64, shape
    ``(capacity, n)``, one bit per row) and tested in batches when it is
    full, which keeps the hot loop small (testing them in place, or growing
    the buffer inside the loop, made the whole search 40 % slower).

    With ``record``, every solution is recorded instead, in lexicographic
    order, for the caller; the search stops soon after ``limit`` of them
    (0: no limit) or when ``leaves`` is full.

    Returns ``(solutions, nodes, overflow, recorded, full)``: ``nodes``
    counts every queen placed, ``overflow`` is True if ``solutions`` wrapped
    past 2**64 - 1; with ``record``, ``leaves[:recorded]`` holds the first
    solutions and ``full`` says that the buffer ran out before the search
    ended (search again with a larger one).
    """
    count = _ZERO
    nodes = _ZERO
    trivial = _ZERO
    overflow = False
    # A stack level is (free, cols, ld, rd, row), saved only for rows with
    # squares left to try: the last branch of a row needs no way back.
    S = np.zeros((n + 1) * 5, np.uint64)
    Q = np.zeros(n, np.uint64)
    capacity = leaves.shape[0]
    keep = np.empty(capacity, np.bool_)
    recorded = 0
    full = False
    stop_at = capacity if limit <= 0 or not record else min(limit, capacity)
    side_tie = _ZERO
    if tie_row_a >= 0:
        side_tie = _ONE | (_ONE << np.uint64(n - 1))
    else:
        tie_row_a = 0  # row 0 never holds a side-column queen here
        tie_row_b = 0
    depth = 0
    row = 0
    cols = _ZERO
    ld = _ZERO
    rd = _ZERO
    free = allowed[0]
    last_allowed = allowed[n - 1]
    while True:
        while free != _ZERO:
            bit = free & (~free + _ONE)
            free ^= bit
            nodes += _ONE
            ncols = cols | bit
            if must_row is not None:  # None: compiled without this check
                if row == must_row and (ncols & must_mask) != must_mask:
                    continue
            nld = (ld | bit) << _ONE
            nrd = (rd | bit) >> _ONE
            nfree = allowed[row + 1] & ~(ncols | nld | nrd)
            if row + 3 == n:
                # The last two rows inline: no push/pop for the deepest levels.
                while nfree != _ZERO:
                    bit2 = nfree & (~nfree + _ONE)
                    nfree ^= bit2
                    nodes += _ONE
                    bit3 = last_allowed & ~(ncols | bit2 | ((nld | bit2) << _ONE)
                                            | ((nrd | bit2) >> _ONE))
                    if bit3 == _ZERO:
                        continue
                    nodes += _ONE
                    count += _ONE
                    if count == _ZERO:
                        overflow = True
                    if leaf_mode != 0 or record:
                        Q[row] = bit
                        Q[row + 1] = bit2
                        Q[row + 2] = bit3
                        if record or leaf_mode == 1 or bit3 & tie_cols \
                                or (Q[tie_row_a] | Q[tie_row_b]) & side_tie:
                            if recorded == capacity:
                                if record:
                                    full = True
                                    continue
                                _classify(n, leaves, recorded, by_stab, keep, leaf_mode == 2)
                                recorded = 0
                            leaves[recorded, :] = Q
                            recorded += 1
                        else:
                            trivial += _ONE
                continue
            if nfree == _ZERO:
                continue
            # Look-ahead (as in m-queens): if the queens placed so far already
            # attack every allowed square of row + 2 or row + 3, stop here.
            if allowed[row + 2] & ~(ncols | (nld << _ONE) | (nrd >> _ONE)) == _ZERO:
                continue
            if allowed[row + 3] & ~(ncols | (nld << _TWO) | (nrd >> _TWO)) == _ZERO:
                continue
            if free != _ZERO:
                k = depth * 5
                S[k] = free
                S[k + 1] = cols
                S[k + 2] = ld
                S[k + 3] = rd
                S[k + 4] = np.uint64(row)
                depth += 1
            Q[row] = bit
            row += 1
            cols = ncols
            ld = nld
            rd = nrd
            free = nfree
        # The limit is checked when backtracking, off the hot path; a few
        # solutions past it may be recorded.
        if depth == 0 or (record and recorded >= stop_at):
            break
        depth -= 1
        k = depth * 5
        free = S[k]
        cols = S[k + 1]
        ld = S[k + 2]
        rd = S[k + 3]
        row = np.int64(S[k + 4])
    if not record:
        _classify(n, leaves, recorded, by_stab, keep, leaf_mode == 2)
        by_stab[0] += trivial
    return count, nodes, overflow, recorded, full


@njit(cache=True, nogil=True)
def _list_solutions(n, leaves, recorded, canonical_only):
    """Recorded solutions as columns: uint8 array of shape ``(k, n)``; with
    ``canonical_only`` only those in canonical form."""
    keep = np.ones(recorded, np.bool_)
    if canonical_only:
        _classify(n, leaves, recorded, np.zeros(4, np.uint64), keep, False)
    out = np.empty((int(np.sum(keep)), n), np.uint8)
    k = 0
    for i in range(recorded):
        if keep[i]:
            for r in range(n):
                out[k, r] = trailing_zeros(leaves[i, r])
            k += 1
    return out


@njit(cache=True, nogil=True)
def _search_batch(n, allowed, must_row, must_mask, leaf_mode, ties):
    """Run :func:`_search` on many units.

    ``allowed``: uint64, shape ``(units, n)``; ``must_row``: int64, shape
    ``(units,)`` (-1 for none); ``must_mask``: uint64, shape ``(units,)``;
    ``leaf_mode``: int64, shape ``(units,)``; ``ties``: int64, shape
    ``(units, 3)``: ``tie_row_a, tie_row_b, tie_cols`` of each unit.
    Returns ``(solutions, by_stab, nodes, overflow)`` with ``solutions`` and
    ``nodes`` uint64 of shape ``(units,)``, ``by_stab`` uint64 of shape
    ``(units, 4)`` and ``overflow`` a bool.
    """
    units = allowed.shape[0]
    solutions = np.zeros(units, np.uint64)
    nodes = np.zeros(units, np.uint64)
    by_stab = np.zeros((units, 4), np.uint64)
    leaves = np.empty((256, n), np.uint64)
    overflow = False
    for u in range(units):
        if allowed[u, 0] == _ZERO:
            continue
        if must_row[u] >= 0:
            c, k, o, _, _ = _search(n, allowed[u], must_row[u], must_mask[u], leaf_mode[u],
                                    ties[u, 0], ties[u, 1], np.uint64(ties[u, 2]),
                                    by_stab[u], leaves, False, 0)
        else:
            c, k, o, _, _ = _search(n, allowed[u], None, must_mask[u], leaf_mode[u],
                                    ties[u, 0], ties[u, 1], np.uint64(ties[u, 2]),
                                    by_stab[u], leaves, False, 0)
        solutions[u] = c
        nodes[u] = k
        overflow = overflow or o
    return solutions, by_stab, nodes, overflow


@njit(cache=True, nogil=True)
def _popcount(x):
    count = 0
    while x != _ZERO:
        x &= x - _ONE
        count += 1
    return count


@njit(cache=True, nogil=True)
def _knuth_estimate(n, allowed, probes, seed):
    """Estimate the nodes of the search tree by random probes (Knuth 1975).

    Each probe walks down one random path, choosing uniformly among the free
    squares of each row; the sum over the levels of the product of the
    branching factors seen is an unbiased estimate of the number of nodes
    (D. E. Knuth, "Estimating the efficiency of backtrack programs", Math.
    Comp. 29, 1975).  Returns the mean over ``probes`` probes, a float.
    """
    np.random.seed(seed)
    total = 0.0
    for _ in range(probes):
        cols = _ZERO
        ld = _ZERO
        rd = _ZERO
        weight = 1.0
        for row in range(n):
            free = allowed[row] & ~(cols | ld | rd)
            k = _popcount(free)
            if k == 0:
                break
            weight *= k
            total += weight
            pick = np.random.randint(0, k)
            for _ in range(pick):
                free &= free - _ONE
            bit = free & (~free + _ONE)
            cols |= bit
            ld = (ld | bit) << _ONE
            rd = (rd | bit) >> _ONE
    return total / probes
