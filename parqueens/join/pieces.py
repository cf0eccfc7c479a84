"""Numba kernels of the join past n = 21: quadrant tables per row set.

From n = 22 on the whole quadrant table no longer fits a process (1.1 GB of
placements at h = 11, 100 GB at h = 13; ``shared/design.md``), and the
diagonal words are wider than 40 bits.  The method stays Kluev's (see
:mod:`parqueens.join.units`); what changes is where the quadrant
placements come from and how many half-boards are held at once:

- :func:`pieces` enumerates only the placements of one row set (a queen on
  each of its local rows, none on the others), by an iterative backtracker
  whose free columns are decided per row from the placed diagonals;
- :func:`role` lays them out in one role (north-east, north-west,
  south-east, south-west) for a configuration: its filter by the queens
  placed first, the long-diagonal split of even n, the word in the
  configuration's layout (:func:`parqueens.join.kernels.arrange`);
- :func:`south_table` is the two of them for a south quarter, the same for
  every unit of a configuration (a process keeps them:
  :mod:`parqueens.join.south`);
- :func:`count_rowsets` counts a slice of a unit's row sets: the north
  tables once, the two south ones per row set handed in, the row set's key
  bits from a sample of its half-boards, the east and west half-boards made
  in blocks of at most ``limit`` words (:func:`_fill`, resumable), every
  east block matched with every west block by
  :func:`parqueens.join.match.count_sides`;
- :func:`rowset_sizes` estimates the placements of each row set (Knuth's
  estimator, seeded) for the plan's cost model.

Coordinates, words and roles are those of :mod:`parqueens.join.kernels`,
with one difference: the ``ab`` parts that tell whether a north and a south
placement attack each other hold ``S >> sh`` and ``T >> sh`` (north) against
``rT`` and ``rS`` (south), so that they fit 32 bits up to n = 28 (the
narrow tables keep ``rT << sh``, which needs ``3h <= 32``).  The queens
placed first are tested per role against two masks, ``fixed[role, 0]``
(the ``S`` / ``rT << sh`` family) and ``fixed[role, 1]`` (``T`` /
``rS << sh``).

All masks are ``int64`` in the backtracker (under 2**28) and ``uint64``
elsewhere; every literal is cast.  No recursion; ``nogil=True``.
"""

import numpy as np
from numba import njit

from ..search.kernels import ONE as _ONE
from ..search.kernels import ZERO as _ZERO
from ..search.kernels import popcount
from .kernels import (
    CFG_COLS_E,
    CFG_COLS_W,
    CFG_REAL,
    CFG_ROWS_N,
    CFG_ROWS_S,
    arrange,
    join_row,
    join_row_in,
    rowsets_of,
    subsets,
)
from .keys import key_tables, rekey
from .match import KMAX, PREFIX_MAX, count_sides, visit_cycles, workspace
from .simd import cycles

#: Roles (as in :mod:`parqueens.join.kernels`).
NE, NW, SE, SW = 0, 1, 2, 3
#: A row set whose larger side has more words than this (estimated from its
#: key's sample) is matched by classes of its top key bits
#: (:func:`count_rowsets`): n = 26 and 28, where a side of tens of millions
#: of words took blocks the sieve's 12 key bits could not fill.
PREFIX_WORDS = 1 << 20
#: A row set's key bits are chosen from every ``KEY_STRIDE``-th row of
#: its half-boards (:func:`count_rowsets`).
KEY_STRIDE = 16

__all__ = [
    "KEY_STRIDE",
    "PREFIX_WORDS",
    "count_rowsets",
    "cycle_count",
    "pieces",
    "role",
    "rowset_sizes",
    "rowset_work",
    "south_table",
    "unit_rowsets",
    "unit_work",
]


@njit(cache=True, nogil=True)
def pieces(h, rows):
    """Every placement of an ``h x h`` quadrant with a queen on each local row
    of ``rows`` (an ``h``-bit mask) and none on the others.

    Returns ``(off, n0, S, T, rS, rT)``: the placements sorted by their
    columns (mask ``c``) at ``off[c]:off[c + 1]`` (int64, ``2**h + 1``), the
    ``n0[c]`` without a queen on the quadrant's long diagonal first; their
    diagonal masks (uint32, see :mod:`parqueens.join.kernels`).  Two passes of
    one backtracker (count, fill); a row's free columns are
    ``~(cols | S >> r | rT >> (h - 1 - r))``.
    """
    size = np.int64(1) << h
    full = size - 1
    w = 2 * h - 1
    k = popcount(np.uint64(rows))
    order = np.zeros(max(k, 1), np.int64)
    d = 0
    for r in range(h):
        if (rows >> r) & 1:
            order[d] = r
            d += 1
    cand = np.zeros(k + 1, np.int64)
    cols = np.zeros(k + 1, np.int64)
    dS = np.zeros(k + 1, np.int64)
    dT = np.zeros(k + 1, np.int64)
    drS = np.zeros(k + 1, np.int64)
    drT = np.zeros(k + 1, np.int64)
    off = np.zeros(size + 1, np.int64)
    n0 = np.zeros(size, np.int64)
    pos0 = np.zeros(size, np.int64)
    pos1 = np.zeros(size, np.int64)
    S = np.zeros(0, np.uint32)
    T = np.zeros(0, np.uint32)
    rS = np.zeros(0, np.uint32)
    rT = np.zeros(0, np.uint32)
    for phase in range(2):
        if phase == 1:
            for c in range(size):
                off[c + 1] += off[c]
                pos0[c] = off[c]
                pos1[c] = off[c] + n0[c]
            total = off[size]
            S = np.zeros(total, np.uint32)
            T = np.zeros(total, np.uint32)
            rS = np.zeros(total, np.uint32)
            rT = np.zeros(total, np.uint32)
        if k == 0:  # the empty placement
            if phase == 0:
                off[1] += 1
                n0[0] += 1
            continue
        d = 0
        cand[0] = full
        while d >= 0:
            r = order[d]
            if d == k - 1:
                # The last row's queens in a loop of their own: a leaf costs
                # no trip through the stack (1.1 times faster on row sets
                # of h = 11).
                free = cand[d]
                while free != 0:
                    low = free & -free
                    free ^= low
                    j = popcount(np.uint64(low - 1))
                    c = cols[d] | low
                    t = dT[d] | (np.int64(1) << (r - j + h - 1))
                    on_long = (t >> (h - 1)) & 1
                    if phase == 0:
                        off[c + 1] += 1
                        n0[c] += 1 - on_long
                        continue
                    if on_long == 0:
                        p = pos0[c]
                        pos0[c] += 1
                    else:
                        p = pos1[c]
                        pos1[c] += 1
                    S[p] = dS[d] | (np.int64(1) << (r + j))
                    T[p] = t
                    rS[p] = drS[d] | (np.int64(1) << (w - 1 - r - j))
                    rT[p] = drT[d] | (np.int64(1) << (h - 1 - r + j))
                d -= 1
                continue
            if cand[d] == 0:
                d -= 1
                continue
            bit = cand[d] & -cand[d]
            cand[d] ^= bit
            j = popcount(np.uint64(bit - 1))
            c = cols[d] | bit
            s = dS[d] | (np.int64(1) << (r + j))
            t = dT[d] | (np.int64(1) << (r - j + h - 1))
            rs = drS[d] | (np.int64(1) << (w - 1 - r - j))
            rt = drT[d] | (np.int64(1) << (h - 1 - r + j))
            nxt = order[d + 1]
            cols[d + 1] = c
            dS[d + 1] = s
            dT[d + 1] = t
            drS[d + 1] = rs
            drT[d + 1] = rt
            cand[d + 1] = full & ~(c | (s >> nxt) | (rt >> (h - 1 - nxt)))
            d += 1
    return off, n0, S, T, rS, rT


@njit(cache=True, nogil=True)
def role(n, h, table, which, fixed, diagonal_symmetry, layout):
    """A row set's placements (from :func:`pieces`) in role ``which`` of a
    configuration.

    ``fixed``: uint64, shape ``(4, 2)``, the placed queens' diagonals per
    role (an entry meeting them is dropped); ``diagonal_symmetry`` (even n):
    the east roles keep only the entries off the quadrant's long diagonal,
    the west ones put those on it last.  Returns ``(start, mid, ab, word)``:
    the entries of columns ``c`` at ``start[c]:start[c + 1]`` of ``ab`` and
    ``word`` (uint64, one spare word at the end), those on the long diagonal
    from ``mid[c]`` on (int64 offsets).
    """
    off, n0, S, T, rS, rT = table
    size = off.shape[0] - 1
    sh = np.uint64(n - h)
    w = np.uint64(2 * h - 1)
    mask = (_ONE << w) - _ONE
    half = np.uint64(32)
    north = which == NE or which == NW
    east = which == NE or which == SE
    f1 = fixed[which, 0]
    f2 = fixed[which, 1]
    start = np.zeros(size + 1, np.int64)
    mid = np.zeros(size, np.int64)
    ab = np.empty(off[size] + 1, np.uint64)
    word = np.empty(off[size] + 1, np.uint64)
    p = np.int64(0)
    for c in range(size):
        start[c] = p
        lo = off[c]
        hi = off[c + 1]
        m = lo + n0[c] if diagonal_symmetry else hi
        if east and diagonal_symmetry:
            hi = m
        for x in range(lo, hi):
            if x == m:
                mid[c] = p
            s = np.uint64(S[x])
            t = np.uint64(T[x])
            rt = np.uint64(rT[x])
            rs = np.uint64(rS[x]) << sh
            if north:
                keep = (s & f1) | (t & f2) == _ZERO
                ab[p] = (s >> sh) | ((t >> sh) << half)
                if east:
                    word[p] = arrange(t | ((s >> sh) << w), layout)
                else:
                    word[p] = arrange((s >> sh) | (t << w), layout)
            else:
                keep = ((rt << sh) & f1) | (rs & f2) == _ZERO
                ab[p] = rt | (np.uint64(rS[x]) << half)
                if east:
                    word[p] = arrange((rs & mask) | (rt << w), layout)
                else:
                    word[p] = arrange(rt | ((rs & mask) << w), layout)
            # Written always, kept by advancing: no branch to mispredict.
            p += np.int64(keep)
        if m >= hi:
            mid[c] = p
    start[size] = p
    return start, mid, ab, word


@njit(cache=True, nogil=True)
def _cells(h, table, cols_side, k, out_ranges, out_south):
    """The non-empty cells of a north role table: column sets of ``k``
    columns among ``cols_side``; their ranges ``(start, mid, end)`` and the
    columns left for their south cells.  Returns how many."""
    start, mid = table[0], table[1]
    subs, at = subsets(h)
    count = 0
    for si in range(at[k], at[k + 1]):
        c = subs[si]
        if c & ~cols_side:
            continue
        if start[c] < start[c + 1]:
            out_ranges[count, 0] = start[c]
            out_ranges[count, 1] = mid[c]
            out_ranges[count, 2] = start[c + 1]
            out_south[count] = cols_side ^ c
            count += 1
    return count


@njit(cache=True, nogil=True)
def _fill(north, south, cells, weights, classes, state, out, qb, cap, stride, pm, pv):
    """Half-boards of a row set, resumable: the words of the north cells
    (``cells``: their ranges, south columns and number, of :func:`_cells`)
    joined with their south cells, class by class (class ``c``: bit 1 the
    north entries on the long diagonal, bit 0 the south ones), of the
    classes ``< classes`` with a weight, from ``state`` (class, cell, outer
    index, outer rows met) on, until ``out`` holds ``cap`` words (it has
    room for one more row of the shorter side).  ``stride`` > 1 makes only
    every ``stride``-th row of the shorter side (a sample).  Only the words
    ``w`` with ``w & pm == pv`` are kept (uint64; ``pm`` 0: all): a row
    whose own word has a bit of ``pm`` that ``pv`` lacks is passed over
    whole.  Writes the classes' starts into ``qb`` (5, the end last) and
    the place to go on from into ``state`` (its class ``classes`` once
    done); returns the words written."""
    ab_n, word_n = north[2], north[3]
    start_s, mid_s, ab_s, word_s = south
    ranges, south_cols, ncells = cells
    c = state[0]
    i = state[1]
    o = state[2]
    met = state[3]
    for cc in range(c + 1):
        qb[cc] = 0
    cnt = np.int64(0)
    full = False
    while c < classes:
        if weights[c] != 0:
            part = (c >> 1) & 1
            while i < ncells:
                x0 = ranges[i, part]
                x1 = ranges[i, part + 1]
                cs = south_cols[i]
                if c & 1:
                    y0 = mid_s[cs]
                    y1 = start_s[cs + 1]
                else:
                    y0 = start_s[cs]
                    y1 = mid_s[cs]
                if x0 < x1 and y0 < y1:
                    # The shorter range outside, as the narrow join does.
                    if x1 - x0 <= y1 - y0:
                        o0, o1, i0, i1 = x0, x1, y0, y1
                        ab_o, word_o, ab_i, word_i = ab_n, word_n, ab_s, word_s
                    else:
                        o0, o1, i0, i1 = y0, y1, x0, x1
                        ab_o, word_o, ab_i, word_i = ab_s, word_s, ab_n, word_n
                    while o0 + o < o1:
                        if cnt > 0 and cnt + (i1 - i0) > cap:
                            full = True
                            break
                        met += 1
                        if stride > 1 and (met - 1) % stride != 0:
                            o += 1
                            continue
                        wx = word_o[o0 + o]
                        if pm == _ZERO:
                            cnt = join_row(out, cnt, ab_o[o0 + o], wx, ab_i, word_i, i0, i1)
                        elif (wx & pm) & ~pv == _ZERO:  # else no word of the row is in the class
                            cnt = join_row_in(
                                out, cnt, ab_o[o0 + o], wx, ab_i, word_i, i0, i1, pm, pv
                            )
                        o += 1
                    if full:
                        break
                o = 0
                i += 1
            if full:
                break
        i = 0
        o = 0
        c += 1
        qb[c] = cnt
    for cc in range(c + 1, 5):
        qb[cc] = cnt
    state[0] = c
    state[1] = i
    state[2] = o
    state[3] = met
    return cnt


@njit(cache=True, nogil=True)
def south_table(n, h, rows, which, fixed, diagonal_symmetry, layout):
    """The placements of the south rows ``rows`` laid out in role ``which``
    (``SE`` or ``SW``) of a configuration: :func:`role` of :func:`pieces`.
    The same for every unit of the configuration: made once a process
    (:mod:`parqueens.join.south`)."""
    return role(n, h, pieces(h, rows), which, fixed, diagonal_symmetry, layout)


@njit(cache=True, nogil=True)
def unit_rowsets(h, cfg, a):
    """The south-east rows of unit ``a``'s row sets, in
    :func:`parqueens.join.kernels.rowsets_of`'s order (int64)."""
    subs, subs_at = subsets(h)
    size = np.int64(1) << h
    bs = np.empty(size, np.int64)
    weights = np.empty((size, 4), np.int64)
    nr = rowsets_of(h, cfg, a, subs, subs_at, bs, weights)
    return bs[:nr].copy()


@njit(cache=True, nogil=True)
def south_rows_used(h, cfg, units_a):
    """Which south-east rows the row sets of units ``units_a`` (int64: their
    north-east rows) of a configuration have: uint8 of ``2**h``, 1 where a
    row set has those rows (its south-east and south-west tables are then
    needed: :mod:`parqueens.join.south`)."""
    subs, subs_at = subsets(h)
    size = np.int64(1) << h
    bs = np.empty(size, np.int64)
    weights = np.empty((size, 4), np.int64)
    used = np.zeros(size, np.uint8)
    for a in units_a:
        nr = rowsets_of(h, cfg, a, subs, subs_at, bs, weights)
        for i in range(nr):
            used[bs[i]] = 1
    return used


@njit(cache=True, nogil=True)
def _rekeyed(table, words, tables, real):
    """A role table whose words are ``words`` (uint64, its words' length):
    its own rewritten into a row set's key bits (:func:`parqueens.join.keys.rekey`)."""
    words[:] = table[3]
    rekey(words, 0, words.shape[0], tables, real)
    return table[0], table[1], table[2], words


@njit(cache=True, nogil=True)
def _prefix_bits(n_e, n_w, whole, limit, prefix_words, real):
    """How many top key bits cut a row set's words into classes: enough
    that a class of the larger side holds about ``prefix_words`` words, at
    most :data:`PREFIX_MAX` and half the ``real`` bits.  ``n_e``, ``n_w``: the words of the key's
    sample (every ``KEY_STRIDE``-th row); ``whole``: whether it holds every
    such row (else it stopped at ``limit`` words, and the sides are at
    least that many times ``KEY_STRIDE``)."""
    words = KEY_STRIDE * max(n_e, n_w)
    if not whole:
        words = max(words, KEY_STRIDE * limit)
    k = 0
    while k < min(PREFIX_MAX, real // 2) and words > prefix_words << k:
        k += 1
    return k


@njit(cache=True, nogil=True)
def count_rowsets(
    n,
    h,
    cfg,
    a,
    lo,
    hi,
    fixed,
    diagonal_symmetry,
    layout,
    limit,
    stride,
    stop,
    clock,
    south,
    prefix_words=PREFIX_WORDS,
):
    """The weighted count of row sets ``lo:hi`` of unit ``a`` of a
    configuration (in :func:`parqueens.join.kernels.rowsets_of`'s order).

    The north tables (rows ``a`` north-east, the others north-west) are made
    once; the south ones come in ``south`` (a typed list: row set ``e``'s
    south-east table at ``2 (e - lo)``, its south-west one after it, as
    :func:`south_table` makes them; never changed).  Half-boards are made and matched in
    blocks of at most ``limit`` words a side.  A row set whose larger side
    has more than ``prefix_words`` words (from its key's sample) is cut
    into ``2**k`` classes of its ``k`` top key bits (:func:`_prefix_bits`,
    at most :data:`parqueens.join.match.PREFIX_MAX`): the east words of a
    class are made apart (a pass over the row set each, :func:`_fill`
    keeping one class), and meet only the west words disjoint from the
    class's bits, by the sieve on the key bits below them.  Where a side of
    tens of millions of words took blocks of ``limit``, the sieve's 12 bits
    met every east block with every west block: the classes add their
    bits to the sieve without larger blocks (n = 26's row sets 2.4 times
    faster, n = 28's about 5).  ``stride`` 1 counts exactly;
    a larger one does all the work of the count but the matching's visits,
    made by about one bucket in ``stride`` of the side streaming by
    (:func:`parqueens.join.match.count_pairs`' ``sub``), and where a
    class's east words take several blocks, matches one in ``stride`` of
    them (the first of each ``stride``): the timed samples of an estimate, whose
    counts mean nothing; ``clock`` (uint64, shape (2,)) gains the processor
    cycles of the visits and the blocks left out as a count would spend
    them (in a sample, scaled to all) and those spent on them here
    (:func:`visit_cycles`).
    Returns -1 if ``stop[0]`` was set meanwhile (read before each row set
    and each block).
    """
    if clock.shape[0] < 2:
        raise ValueError("count_rowsets: clock needs 2 entries")
    subs, subs_at = subsets(h)
    size = np.int64(1) << h
    bs = np.empty(size, np.int64)
    weights = np.empty((size, 4), np.int64)
    nr = rowsets_of(h, cfg, a, subs, subs_at, bs, weights)
    hi = min(hi, nr)
    cols_e = cfg[CFG_COLS_E]
    cols_w = cfg[CFG_COLS_W]
    rows_w = cfg[CFG_ROWS_N] ^ a
    real = cfg[CFG_REAL]
    ne_table = role(n, h, pieces(h, a), NE, fixed, diagonal_symmetry, layout)
    nw_table = role(n, h, pieces(h, rows_w), NW, fixed, diagonal_symmetry, layout)
    e_ranges = np.empty((size, 3), np.int64)
    e_south = np.empty(size, np.int64)
    w_ranges = np.empty((size, 3), np.int64)
    w_south = np.empty(size, np.int64)
    ne = _cells(h, ne_table, cols_e, popcount(np.uint64(a)), e_ranges, e_south)
    nw = _cells(h, nw_table, cols_w, popcount(np.uint64(rows_w)), w_ranges, w_south)
    if ne == 0 or nw == 0:
        return 0
    east = (e_ranges, e_south, ne)
    west = (w_ranges, w_south, nw)
    longest = 0
    for i in range(ne):
        longest = max(longest, e_ranges[i, 2] - e_ranges[i, 0])
    for i in range(nw):
        longest = max(longest, w_ranges[i, 2] - w_ranges[i, 0])
    P, Q, ws = workspace(limit + longest, limit + longest + 256)
    east_weights = np.array([1, 0, 0, 0], np.int64)
    es = np.zeros(4, np.int64)
    wst = np.zeros(4, np.int64)
    qe = np.zeros(5, np.int64)
    qb = np.zeros(5, np.int64)
    tables = np.empty((7, 256), np.uint64)
    # The north words in a row set's own key bits (a copy: the north tables
    # serve every row set of the unit).
    ne_words = np.empty_like(ne_table[3])
    nw_words = np.empty_like(nw_table[3])
    total = 0
    # A sample's cycles of the east blocks it did not match.
    extra = 0.0
    for e in range(lo, hi):
        if stop[0] != 0:
            return -1
        se_table = south[2 * (e - lo)]
        sw_table = south[2 * (e - lo) + 1]
        # The row set's key bits, chosen from a sample of its half-boards;
        # a bit permutation commutes with OR, so the quarters' words are
        # rewritten (far fewer than the half-boards they make), in copies.
        es[:] = 0
        wst[:] = 0
        n_s = _fill(
            ne_table, se_table, east, east_weights, 1, es, P, qe, limit, KEY_STRIDE, _ZERO, _ZERO
        )
        _fill(nw_table, sw_table, west, weights[e], 4, wst, Q, qb, limit, KEY_STRIDE, _ZERO, _ZERO)
        # Classes of the top k key bits (the best: chosen first): east class
        # pe's words, then the west words disjoint from pe's bits.
        k = _prefix_bits(n_s, qb[4], es[0] >= 1 and wst[0] >= 4, limit, prefix_words, real)
        north_e = ne_table
        north_w = nw_table
        if (
            n_s > 0
            and qb[4] > 0
            and key_tables(P, n_s, Q, qb[4], real, tables, KEY_STRIDE, KMAX + k)
        ):
            north_e = _rekeyed(ne_table, ne_words, tables, real)
            north_w = _rekeyed(nw_table, nw_words, tables, real)
            se_table = _rekeyed(se_table, np.empty_like(se_table[3]), tables, real)
            sw_table = _rekeyed(sw_table, np.empty_like(sw_table[3]), tables, real)
        top = real - k
        pmask = ((_ONE << np.uint64(k)) - _ONE) << np.uint64(top)
        for pe in range(1 << k):
            pv = np.uint64(pe) << np.uint64(top)
            es[:] = 0
            held = False  # the west words all in one block: made once a class
            blocks = 0
            words = 0
            matched = 0
            cost = 0.0
            while es[0] < 1:
                n_p = _fill(
                    north_e, se_table, east, east_weights, 1, es, P, qe, limit, 1, pmask, pv
                )
                if n_p == 0:
                    break
                blocks += 1
                words += n_p
                # A sample matches one east block in ``stride`` of a class: the
                # west blocks are made and matched again for each (n = 28: up
                # to half of a sample's time with its visits sampled).  The
                # others' cost is taken as the matched ones' per word.
                if (blocks - 1) % stride != 0:
                    continue
                matched += n_p
                before = visit_cycles(ws).copy()
                began = cycles()
                first = not held
                if first:
                    wst[:] = 0
                while True:
                    if stop[0] != 0:
                        return -1
                    if not held:
                        _fill(
                            north_w, sw_table, west, weights[e], 4, wst, Q, qb, limit, 1, pv, _ZERO
                        )
                        held = first and wst[0] == 4
                        first = False
                    if qb[4] > 0:
                        total += count_sides(P, n_p, Q, qb, weights[e], top, ws, stride)
                    if wst[0] == 4:
                        break
                after = visit_cycles(ws)
                cost += float(cycles() - began) + float(after[0] - before[0])
                cost -= float(after[1] - before[1])
            if matched < words:
                extra += cost * (words - matched) / matched
    spent = visit_cycles(ws)
    clock[0] += spent[0] + np.uint64(extra)
    clock[1] += spent[1]
    return total


@njit(cache=True, nogil=True)
def cycle_count():
    """The processor's cycle counter (uint64), read from Python: the whole
    of a call whose ``clock`` counts a part (:func:`count_rowsets`)."""
    return cycles()


@njit(cache=True, nogil=True)
def rowset_sizes(h, probes, seed):
    """Estimated placements of each row set of an ``h x h`` quadrant (float64,
    ``2**h``, by local row mask): Knuth's estimator, ``probes`` random paths a
    row set, each the product of the free columns met row by row (seeded:
    the same numbers every run, so that a plan is the same)."""
    np.random.seed(seed)
    size = np.int64(1) << h
    full = size - 1
    out = np.zeros(size)
    order = np.zeros(h, np.int64)
    for rows in range(size):
        k = 0
        for r in range(h):
            if (rows >> r) & 1:
                order[k] = r
                k += 1
        acc = 0.0
        for _ in range(probes):
            est = 1.0
            cols = np.int64(0)
            s = np.int64(0)
            rt = np.int64(0)
            for d in range(k):
                r = order[d]
                free = full & ~(cols | (s >> r) | (rt >> (h - 1 - r)))
                f = popcount(np.uint64(free))
                if f == 0:
                    est = 0.0
                    break
                est *= f
                pick = np.random.randint(0, f)
                bit = free & -free
                for _skip in range(pick):
                    free ^= bit
                    bit = free & -free
                j = popcount(np.uint64(bit - 1))
                cols |= bit
                s |= np.int64(1) << (r + j)
                rt |= np.int64(1) << (h - 1 - r + j)
            acc += est
        out[rows] = acc / probes
    return out


@njit(cache=True, nogil=True)
def _binomials(m):
    """``C(i, j)`` for ``i, j <= m`` (float64)."""
    out = np.zeros((m + 1, m + 1))
    for i in range(m + 1):
        out[i, 0] = 1.0
        for j in range(1, i + 1):
            out[i, j] = out[i - 1, j - 1] + out[i - 1, j]
    return out


@njit(cache=True, nogil=True)
def rowset_work(h, cfg, a, sizes, out):
    """The cost model of each row set of unit ``a`` into ``out`` (its
    estimated east and west half-boards ``E``, ``W`` from the row sets'
    sizes: ``E W / 256`` matched group visits, 64 per half-board made and
    ``10**4`` a row set); returns how many row sets."""
    subs, subs_at = subsets(h)
    size = np.int64(1) << h
    bs = np.empty(size, np.int64)
    weights = np.empty((size, 4), np.int64)
    nr = rowsets_of(h, cfg, a, subs, subs_at, bs, weights)
    binom = _binomials(h)
    cols_e = popcount(np.uint64(cfg[CFG_COLS_E]))
    cols_w = popcount(np.uint64(cfg[CFG_COLS_W]))
    rows_w = cfg[CFG_ROWS_N] ^ a
    ka = popcount(np.uint64(a))
    kw = popcount(np.uint64(rows_w))
    for e in range(nr):
        b = bs[e]
        bw = cfg[CFG_ROWS_S] ^ b
        kb = popcount(np.uint64(b))
        kbw = popcount(np.uint64(bw))
        east = sizes[a] * sizes[b] * binom[cols_e, ka] / (binom[h, ka] * binom[h, kb])
        west = sizes[rows_w] * sizes[bw] * binom[cols_w, kw] / (binom[h, kw] * binom[h, kbw])
        out[e] = east * west / 256.0 + 64.0 * (east + west) + 1e4
    return nr


@njit(cache=True, nogil=True)
def unit_work(h, cfg, sizes):
    """The cost model of every unit ``a`` of a configuration (the sum of
    :func:`rowset_work` over its row sets) and its row sets' count: float64
    and int64 arrays of ``2**h``."""
    size = np.int64(1) << h
    work = np.zeros(size)
    count = np.zeros(size, np.int64)
    out = np.empty(size)
    for a in range(size):
        nr = rowset_work(h, cfg, a, sizes, out)
        count[a] = nr
        work[a] = out[:nr].sum()
    return work, count
