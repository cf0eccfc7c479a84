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
the board thus prune the upper rows at once.

One search uses these inputs.  :func:`_count` (counting) keeps the
*occupied* squares instead, as m-queens does: the columns mask has every bit
off the board set, so a row is full when its occupied mask is all ones, and
what ``allowed`` bans is read from a per-row table.  Its variants (with or
without that table, the recording of solutions to classify, the node
counter, the writing of every solution) are chosen by argument types,
``None`` compiling a branch away.  :func:`list_solutions` (listing) is its variant
writing every solution's columns (the search tries the lowest free column
first, so they come in lexicographic order).

All masks are ``numpy.uint64``; every literal is cast, because numba turns
mixed ``int64``/``uint64`` arithmetic into floating point.  The kernels are
private; other modules call them through the entry points of ``__all__``,
each a plain function beside its kernel that documents the arguments (one
Python call per unit or chunk, none in a search), or :func:`popcount`, which
other kernels call (numba).  :mod:`parqueens.search.units` builds the inputs,
:mod:`parqueens.run.runner` and :mod:`parqueens.run.listing` run the searches
(:func:`count_batch`, :func:`list_solutions`, :func:`knuth_estimate`).  The
last section holds the kernels that check lists of solutions for
:mod:`parqueens.verify`.
"""

import logging

import numpy as np
from numba import config, njit
from numba.core import event
from numba.cpython.unsafe.numbers import trailing_zeros as _trailing_zeros

from ..names import MAX_N
from ..symmetry import canonical_stabilizer

#: True where numba runs the kernels as Python (NUMBA_DISABLE_JIT=1, to step
#: through them in a debugger): an intrinsic then needs a Python body.
AS_PYTHON = bool(getattr(config, "DISABLE_JIT", False))


def _python_trailing_zeros(x):
    """The index of the lowest bit set in ``x`` (a uint64 mask), 64 for 0."""
    x = int(x)
    return (x & -x).bit_length() - 1 if x else 64


trailing_zeros = _python_trailing_zeros if AS_PYTHON else _trailing_zeros

__all__ = [
    "ALL",
    "ONE",
    "ZERO",
    "AS_PYTHON",
    "LEAF_CANONICAL",
    "LEAF_COUNT",
    "LEAF_D4",
    "WORK_SIZE",
    "bans_beyond",
    "count_batch",
    "full_mask",
    "keep_canonical",
    "knuth_estimate",
    "list_solutions",
    "place_queens",
    "popcount",
    "repeated_rows",
    "row_hashes",
    "scan_solutions",
    "trailing_zeros",
]


class _CompileNotice(event.Listener):
    """Logs once per process (logger ``parqueens``, level WARNING) when numba
    starts compiling one of parqueens' kernels: it happens on their first
    use only (then they are loaded from numba's cache), and takes seconds,
    which a caller should see rather than think the call hangs.

    WARNING, not INFO: with no logging configured, Python's last-resort
    handler prints it on stderr (a script, a notebook cell), and a program
    that configures logging decides (the logging HOWTO: a library adds no
    handler of its own).  The command line shows it as a note."""

    said = False

    def on_start(self, ev):
        dispatcher = ev.data.get("dispatcher") if isinstance(ev.data, dict) else None
        module = getattr(getattr(dispatcher, "py_func", None), "__module__", "") or ""
        if not self.said and module.startswith("parqueens"):
            type(self).said = True
            logging.getLogger("parqueens").warning(
                "compiling the kernels for their first use (numba; cached for later "
                "runs, this takes up to a minute)"
            )

    def on_end(self, ev):
        pass


event.register("numba:compile", _CompileNotice())

#: What the counting kernel does with each solution of a unit (its leaf
#: mode): count it only; test it for being canonical (``unique`` with
#: ``plain``/``mirror``); the D4 method's test of the ties only.
LEAF_COUNT, LEAF_CANONICAL, LEAF_D4 = 0, 1, 2

#: The words 0, 1 and all ones, as numba's constants (the join's kernels use them too).
ZERO = np.uint64(0)
ONE = np.uint64(1)
ALL = ~ZERO
_TWO = np.uint64(2)


@njit(cache=True, nogil=True)
def _full_mask(n):
    if n >= 64:
        return ~ZERO
    return (ONE << np.uint64(n)) - ONE


def full_mask(n):
    """The mask of the n columns of a row (``numpy.uint64``, n bits set; n
    from 0 to 64)."""
    return _full_mask(n)


@njit(cache=True, nogil=True)
def _place_queens(n, allowed, placed):
    """The kernel of :func:`place_queens`."""
    ok = True
    for r0 in range(n):
        c0 = placed[r0]
        if c0 < 0:
            continue
        for r in range(n):
            if r == r0:
                continue
            dist = r - r0 if r > r0 else r0 - r
            attack = ONE << np.uint64(c0)
            if c0 + dist < n:
                attack |= ONE << np.uint64(c0 + dist)
            if c0 - dist >= 0:
                attack |= ONE << np.uint64(c0 - dist)
            allowed[r] &= ~attack
    for r in range(n):
        c = placed[r]
        if c >= 0:
            bit = ONE << np.uint64(c)
            if allowed[r] & bit:
                allowed[r] = bit
            else:
                allowed[r] = ZERO
                ok = False
    return ok


def place_queens(n, allowed, placed):
    """Restrict ``allowed`` (uint64, shape ``(n,)``) in place to pre-placed queens.

    ``placed``: int array, shape ``(n,)``, the column of the queen pre-placed
    in each row or -1.  Each pre-placed queen removes the squares it attacks
    from every other row, and its own row is reduced to its square.  Returns
    False if the pre-placed queens attack each other or a square that the
    masks already exclude (no solution then).
    """
    return _place_queens(n, allowed, placed)


@njit(cache=True, nogil=True)
def _classify(n, leaves, count, by_stab, keep, ties_only):
    """Test recorded solutions for being canonical.

    ``leaves[i, r]`` is the bit of the row-``r`` queen of solution ``i``.
    Adds the canonical ones to ``by_stab`` (by stabiliser size) and marks
    them in ``keep`` (bool array, at least ``count`` long).  ``ties_only``:
    see :func:`parqueens.symmetry.canonical_stabilizer`.
    """
    queens = np.empty(n, np.int64)
    inv = np.empty(n, np.int64)
    for i in range(count):
        for r in range(n):
            c = trailing_zeros(leaves[i, r])
            queens[r] = c
            inv[c] = r
        stab = canonical_stabilizer(n, queens, inv, ties_only)
        keep[i] = stab > 0
        if stab == 1:
            by_stab[0] += 1
        elif stab == 2:
            by_stab[1] += 1
        elif stab == 4:
            by_stab[2] += 1
        elif stab == 8:
            by_stab[3] += 1


#: The work array of :func:`_count`: a stack of 5 words per level (level 0
#: a sentinel), then the rows' banned squares and the queens placed, both
#: indexed by ``rest`` (rows left above the last three).
_LEVELS = MAX_N + 2
_B = 5 * _LEVELS
_Q = _B + MAX_N + 4
WORK_SIZE = _Q + MAX_N + 4
# Offsets of the rows below the current one in the banned-square table:
# W[_B + 3 + rest] bans row n - 3 - rest.
_NEXT = np.uint64(_B + 2)
_NEXT2 = np.uint64(_B + 1)
_NEXT3 = np.uint64(_B)
_QROW = np.uint64(_Q + 2)
_THREE = np.uint64(3)
_FOUR = np.uint64(4)
_FIVE = np.uint64(5)


@njit(cache=True, nogil=True)
def _count(n, allowed, banned, tie_a, tie_b, tie_cols, leaves, keep, by_stab, nodes, out, W):
    """Count the solutions with the row-``r`` queen in ``allowed[r]``.

    One work unit; requires n >= 3.  The search keeps the *occupied*
    squares, m-queens' way: ``c`` has every bit off the board set, so a row
    is full when ``banned | c | ld | rd`` is all ones, and the lowest free
    square is ``~posib & (posib + 1)``.  What the masks of ``allowed`` ban
    is read per row from a table (``W``, :data:`WORK_SIZE` ``uint64``
    words), indexed by ``rest``, the rows left above the last three: three
    loads per candidate, which measured faster than keeping them in
    registers (too few registers) or deriving the row from a popcount.
    ``banned``: None when the masks ban nothing beyond what the leading
    rows' queens attack (see :func:`bans_beyond`): the kernel is then
    compiled without the loads (7 % faster on such units), else True.
    Per candidate: the free squares of the next row, then the two-row
    look-ahead (rows + 2 and + 3, as m-queens); a stack level is written
    on every descent without a branch, and is kept only if the row has
    squares left (``d += posib != ALL``, m-queens' tail call).  The
    decisions that are per row are taken once per descent: the last two
    rows are placed inline when the look-ahead passes at row n - 3
    (``rest == 0``), so the hot loop never tests the row otherwise.
    Leading rows with one allowed square (the unit's prefix) are placed
    before the search, as one node each.

    ``leaves``: None to count only (the kernel compiled without any leaf
    work), or a uint64 buffer of shape ``(capacity, n)``: then each
    solution whose row ``tie_a`` or ``tie_b`` queen stands in a side
    column, or whose last-row queen is in ``tie_cols``, is recorded (one
    bit per row) and tested in batches by :func:`_classify` into
    ``by_stab`` (``ties_only`` when ``tie_a >= 0``); the others count as
    canonical with a trivial stabiliser (``by_stab[0]``).  ``tie_a < 0``
    with ``leaves``: every solution is recorded and fully tested.
    ``keep``: bool scratch, at least ``capacity`` long.

    ``nodes``: None (not counted: the kernel is compiled without the
    counter) or a uint64 array of 1 to which the queens placed are added:
    each candidate taken from a row's free squares, each last-row queen of
    a solution, each leading forced row.

    ``out``: None, or a uint8 buffer of shape ``(capacity, n)`` (the
    listing, with ``leaves`` None and ``tie_a < 0``): the columns of each
    solution are written to it (``out[i, row] = col``, in lexicographic
    order), and the search stops at the first solution that does not fit.

    Returns the number of solutions (``uint64``; it cannot wrap: 2**64
    solutions at a billion a second take 585 years); with ``out``, at most
    ``capacity + 1``: more than ``capacity`` says that ``out`` holds the
    first ``capacity`` solutions and that there are more.
    """
    board = _full_mask(n)
    top = n - 3
    row, c, dl, dr, ok = _leading_rows(n, allowed)
    if not ok:
        if nodes is not None:
            nodes[0] += np.uint64(row)
        return ZERO
    c |= ~board
    if leaves is not None:
        for r in range(row):
            W[_Q + 2 + top - r] = allowed[r]
    if out is not None:
        for r in range(row):
            W[_Q + 2 + top - r] = allowed[r]
    k = np.uint64(row)
    for r in range(row, n):
        W[_B + 3 + top - r] = ~allowed[r] & board
    blast = W[_B + 1]
    side = ALL
    ia = np.uint64(_Q + 2 + top)
    ib = ia
    if tie_a >= 0:
        side = ONE | (ONE << np.uint64(n - 1))
        ia = np.uint64(_Q + 2 + top - tie_a)
        ib = np.uint64(_Q + 2 + top - tie_b)
    capacity = 0 if leaves is None else leaves.shape[0]
    recorded = 0
    listed = 0
    room = 0 if out is None else out.shape[0]
    trivial = ZERO
    num = ZERO
    rest = np.uint64(top - row)
    posib = W[_NEXT3 + _THREE + rest] | c | dl | dr
    W[0] = ALL
    d = ONE
    W[6] = c
    W[7] = dl
    W[8] = dr
    W[9] = rest
    while True:
        while posib != ALL:
            bit = ~posib & (posib + ONE)
            posib |= bit
            if nodes is not None:
                k += ONE
            ndl = (bit | dl) << ONE
            ndr = (bit | dr) >> ONE
            nc = bit | c
            npos = nc | ndl | ndr
            if banned is not None:
                npos |= W[_NEXT + rest]
            if npos == ALL:
                continue
            if banned is None:
                if nc | (ndl << ONE) | (ndr >> ONE) == ALL:
                    continue
            elif W[_NEXT2 + rest] | nc | (ndl << ONE) | (ndr >> ONE) == ALL:
                continue
            if leaves is not None:
                W[_QROW + rest] = bit
            if out is not None:
                W[_QROW + rest] = bit
            if rest == ZERO:
                # Rows n - 2 and n - 1 inline: no stack levels for them.
                while npos != ALL:
                    b2 = ~npos & (npos + ONE)
                    npos |= b2
                    last = blast | nc | b2 | ((ndl | b2) << ONE) | ((ndr | b2) >> ONE)
                    if nodes is not None:
                        k += ONE + np.uint64(last != ALL)
                    # Without branches but for the solutions to record.
                    ok = np.uint64(last != ALL)
                    num += ok
                    if leaves is not None:
                        W[_Q + 1] = b2
                        tie = np.uint64(((W[ia] | W[ib]) & side | ~last & tie_cols) != ZERO)
                        trivial += ok & (tie ^ ONE)
                        if ok & tie:
                            if recorded == capacity:
                                _classify(n, leaves, recorded, by_stab, keep, tie_a >= 0)
                                recorded = 0
                            W[_Q] = ~last
                            for r in range(n):
                                leaves[recorded, r] = W[_Q + 2 + top - r]
                            recorded += 1
                    if out is not None:
                        if ok:
                            if listed == room:
                                if nodes is not None:
                                    nodes[0] += k
                                return num  # one more than fits
                            W[_Q + 1] = b2
                            W[_Q] = ~last
                            for r in range(n):
                                out[listed, r] = trailing_zeros(W[_Q + 2 + top - r])
                            listed += 1
                continue
            if banned is None:
                if nc | (ndl << _TWO) | (ndr >> _TWO) == ALL:
                    continue
            elif W[_NEXT3 + rest] | nc | (ndl << _TWO) | (ndr >> _TWO) == ALL:
                continue
            W[d * _FIVE] = posib
            d += np.uint64(posib != ALL)
            posib = npos
            c = nc
            dl = ndl
            dr = ndr
            rest -= ONE
            j = d * _FIVE
            W[j + ONE] = c
            W[j + _TWO] = dl
            W[j + _THREE] = dr
            W[j + _FOUR] = rest
        d -= ONE
        if d == ZERO:
            break
        j = d * _FIVE
        posib = W[j]
        c = W[j + ONE]
        dl = W[j + _TWO]
        dr = W[j + _THREE]
        rest = W[j + _FOUR]
    if leaves is not None:
        _classify(n, leaves, recorded, by_stab, keep, tie_a >= 0)
        by_stab[0] += trivial
    if nodes is not None:
        nodes[0] += k
    return num


@njit(cache=True, nogil=True)
def _list_solutions(n, allowed, banned, out, W):
    """The kernel of :func:`list_solutions`: :func:`_count` writing every
    solution."""
    found = _count(n, allowed, banned, -1, -1, ZERO, None, None, None, None, out, W)
    capacity = np.uint64(out.shape[0])
    if found > capacity:
        return out.shape[0], False
    return np.int64(found), True


def list_solutions(n, allowed, banned, out, work):
    """Write the solutions with the row-``r`` queen in ``allowed[r]``
    (uint64, shape ``(n,)``) to ``out`` (uint8, shape ``(capacity, n)``,
    ``out[i, row] = col``) in lexicographic order: the counting search
    (:func:`_count`) with every solution written.  Requires n >= 3.

    ``banned``: None if ``allowed`` bans no square beyond those its leading
    single-square rows attack (:func:`bans_beyond` False), else True.
    ``work``: uint64 scratch of :data:`WORK_SIZE` words, reused across calls.

    Returns ``(written, complete)``: ``out[:written]`` holds the first
    solutions, and ``complete`` says that they are all of them (False:
    ``out`` is full and there are more).
    """
    return _list_solutions(n, allowed, banned, out, work)


@njit(cache=True, nogil=True)
def _leading_rows(n, allowed):
    """The leading rows of ``allowed`` with a single square (at most n - 3
    of them), which :func:`_count` places instead of searching.

    Returns ``(row, cols, ld, rd, ok)``: the first row left to search and
    the masks with those queens placed; ``ok`` False if one of those rows
    is empty or attacked (then ``row`` is that row: the queens placed).
    """
    c = ZERO
    dl = ZERO
    dr = ZERO
    row = 0
    while row < n - 3:
        a = allowed[row]
        if a & (a - ONE) != ZERO:
            break
        if a == ZERO or a & (c | dl | dr) != ZERO:
            return row, c, dl, dr, False
        c |= a
        dl = (dl | a) << ONE
        dr = (dr | a) >> ONE
        row += 1
    return row, c, dl, dr, True


@njit(cache=True, nogil=True)
def _bans_beyond(n, allowed):
    """The kernel of :func:`bans_beyond`."""
    board = _full_mask(n)
    row, c, dl, dr, _ = _leading_rows(n, allowed)
    for r in range(row, n):
        if ~allowed[r] & board & ~(c | dl | dr) != ZERO:
            return True
        dl <<= ONE
        dr >>= ONE
    return False


def bans_beyond(n, allowed):
    """True if ``allowed`` (uint64, shape ``(n,)``) bans a square below its
    leading single-square rows that the queens of those rows do not attack:
    the searches then read the rows' bans from a table (see :func:`_count`)."""
    return _bans_beyond(n, allowed)


@njit(cache=True, nogil=True)
def _count_batch(n, allowed, leaf_mode, ties, nodes, stop=None):
    """The kernel of :func:`count_batch`: :func:`_count` per unit."""
    units = allowed.shape[0]
    solutions = np.zeros(units, np.uint64)
    by_stab = np.zeros((units, 4), np.uint64)
    leaves = np.empty((256, n), np.uint64)
    keep = np.empty(256, np.bool_)
    W = np.zeros(WORK_SIZE, np.uint64)
    for u in range(units):
        if allowed[u, 0] == ZERO:
            continue
        if stop is not None:
            if stop[0] != 0:
                break
        mode = leaf_mode[u]
        k = None if nodes is None else nodes[u : u + 1]
        banned = _bans_beyond(n, allowed[u])
        if mode == LEAF_COUNT or (mode == LEAF_D4 and ties[u, 0] < 0):
            if banned:
                s = _count(n, allowed[u], True, -1, -1, ZERO, None, keep, by_stab[u], k, None, W)
            else:
                s = _count(n, allowed[u], None, -1, -1, ZERO, None, keep, by_stab[u], k, None, W)
            if mode == LEAF_D4:  # no image can tie: each solution is its class's representative
                by_stab[u, 0] += s
        else:
            a = ties[u, 0] if mode == LEAF_D4 else -1
            b = ties[u, 1]
            c = np.uint64(ties[u, 2])
            if banned:
                s = _count(n, allowed[u], True, a, b, c, leaves, keep, by_stab[u], k, None, W)
            else:
                s = _count(n, allowed[u], None, a, b, c, leaves, keep, by_stab[u], k, None, W)
        solutions[u] = s
    return solutions, by_stab


def count_batch(n, allowed, leaf_mode, ties, nodes, stop=None):
    """Count the solutions of many work units, each by :func:`_count`.

    ``allowed``: uint64, shape ``(units, n)`` (a unit whose row 0 is empty
    is skipped); ``leaf_mode``: int64, shape ``(units,)``: :data:`LEAF_COUNT`,
    :data:`LEAF_CANONICAL` or :data:`LEAF_D4` (see
    :func:`parqueens.search.units.unit_masks`); ``ties``: int64,
    shape ``(units, 3)``: ``tie_row_a, tie_row_b, tie_cols``.  ``nodes``:
    None, or uint64 of shape ``(units,)`` to which each unit's queens
    placed are added.  ``stop``: None, or a uint8 array of 1 read before
    each unit: once another thread sets it, the remaining units are
    skipped (their counts left 0; the caller discards the batch).  Not in
    the hot loop: a check there cost 2 %.  Returns ``(solutions,
    by_stab)``: uint64 arrays of shapes ``(units,)`` and ``(units, 4)``.
    """
    return _count_batch(n, allowed, leaf_mode, ties, nodes, stop)


@njit(cache=True, nogil=True)
def _keep_canonical(n, out, count):
    """The kernel of :func:`keep_canonical`."""
    queens = np.empty(n, np.int64)
    inv = np.empty(n, np.int64)
    kept = 0
    for i in range(count):
        for r in range(n):
            c = np.int64(out[i, r])
            queens[r] = c
            inv[c] = r
        if canonical_stabilizer(n, queens, inv, False) > 0:
            out[kept, :] = out[i, :]
            kept += 1
    return kept


def keep_canonical(n, out, count):
    """Move the solutions of ``out[:count]`` (uint8, shape ``(k, n)``,
    ``out[i, row] = col``) that are in canonical form to its front, in
    order; returns how many there are (an int)."""
    return _keep_canonical(n, out, count)


@njit(cache=True, nogil=True)
def popcount(x):
    """The number of bits set in ``x`` (a uint64 mask): a numba function for
    other kernels (Kernighan's loop, one pass per bit set)."""
    count = 0
    while x != ZERO:
        x &= x - ONE
        count += 1
    return count


@njit(cache=True, nogil=True)
def _knuth_estimate(n, allowed, probes, seed):
    """The kernel of :func:`knuth_estimate`."""
    np.random.seed(seed)
    total = 0.0
    leaves = 0.0
    for _ in range(probes):
        cols = ZERO
        ld = ZERO
        rd = ZERO
        weight = 1.0
        for row in range(n):
            free = allowed[row] & ~(cols | ld | rd)
            k = popcount(free)
            if k == 0:
                break
            weight *= k
            total += weight
            if row == n - 1:
                leaves += weight
            pick = np.random.randint(0, k)
            for _ in range(pick):
                free &= free - ONE
            bit = free & (~free + ONE)
            cols |= bit
            ld = (ld | bit) << ONE
            rd = (rd | bit) >> ONE
    return total / probes, leaves / probes


def knuth_estimate(n, allowed, probes, seed):
    """Estimate the nodes and the solutions of the search tree with the
    row-``r`` queen in ``allowed[r]`` (uint64, shape ``(n,)``) by random
    probes (Knuth 1975), numpy's generator seeded with ``seed`` (an int).

    Each probe walks down one random path, choosing uniformly among the free
    squares of each row; the sum over the levels of the product of the
    branching factors seen is an unbiased estimate of the number of nodes,
    and that product at the last row (0 for a path that dies) one of the
    number of solutions (D. E. Knuth, "Estimating the efficiency of
    backtrack programs", Math. Comp. 29, 1975).  Returns the means over
    ``probes`` probes: ``(nodes, solutions)``, floats.
    """
    return _knuth_estimate(n, allowed, probes, seed)


# ---------------------------------------------------------------- checking lists


@njit(cache=True, nogil=True)
def _scan_solutions(block, prev, has_prev, unique, valid, canon):
    """The kernel of :func:`scan_solutions`."""
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
            if c < 0 or c >= n or col[c] or up[r + c] or down[r - c + n]:
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
            canon[i] = canonical_stabilizer(n, queens, inv, False) > 0
        if increasing and (i > 0 or has_prev):
            before = block[i - 1] if i > 0 else prev
            r = 0
            while r < n and block[i, r] == before[r]:
                r += 1
            increasing = r < n and block[i, r] > before[r]
    return increasing


def scan_solutions(block, prev, has_prev, unique, valid, canon):
    """Check solutions (for :mod:`parqueens.verify`).  Per row of
    ``block`` (int, shape ``(k, n)``; a column off the board is invalid),
    written to the bool arrays of shape ``(k,)``: ``valid[i]``, a placement
    without attacks; ``canon[i]`` (with ``unique``), valid and canonical.
    Returns whether the rows, after ``prev`` (the previous block's last
    row, if ``has_prev``), are strictly increasing."""
    return _scan_solutions(block, prev, has_prev, unique, valid, canon)


@njit(cache=True, nogil=True)
def _row_hashes(rows):
    """The kernel of :func:`row_hashes`."""
    k, n = rows.shape
    out = np.empty(k, np.uint64)
    for i in range(k):
        h = np.uint64(0x9E3779B97F4A7C15)
        for r in range(n):
            h = (h ^ np.uint64(rows[i, r])) * np.uint64(0xBF58476D1CE4E5B9)
            h ^= h >> np.uint64(31)
        out[i] = h
    return out


def row_hashes(rows):
    """A 64-bit hash per row of ``rows`` (int, shape ``(k, n)``; two
    multiplicative rounds per column): uint64, shape ``(k,)``."""
    return _row_hashes(rows)


@njit(cache=True, nogil=True)
def _repeated_rows(rows, hashes, order):
    """The kernel of :func:`repeated_rows`."""
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


def repeated_rows(rows, hashes, order):
    """``repeat[i]`` (bool, shape ``(k,)``): row ``i`` of ``rows`` (shape
    ``(k, n)``) equals an earlier row (by index) among the rows ``order``
    lists: sorted by ``hashes`` (one per row, :func:`row_hashes`) stably, so
    equal rows meet within a run of equal hashes, earliest first."""
    return _repeated_rows(rows, hashes, order)
