"""Numba kernels of the quadrant-join counter (totals only).

The method is Evgeny Kluev's (``EvgenyKluev/N-Queens-Count-Sol``, MIT,
2022): split the board into four corner quadrants, enumerate once every
partial placement of a quadrant, join north and south quadrant placements
into half-boards, and count the pairs of an east and a west half-board that
share no diagonal.  :mod:`parqueens.join` holds the plan (configurations,
work units, weights); this module holds the kernels.  The code is ours;
see :mod:`parqueens.join` for what differs from Kluev's.

Coordinates
-----------
Board size ``n``, ``h = n // 2``, ``w = 2h - 1``, ``sh = n - h``.  The four
``h x h`` corner quadrants (for odd ``n`` the middle row and column lie
between them) are read in *local* coordinates counted from the board's
corner: north rows ``i = r``, south rows ``i = n - 1 - r``, west columns
``j = c``, east columns ``j = n - 1 - c``.  Row and column sets are ``h``-bit
masks in local coordinates (bit ``i`` for local row ``i``).  A quadrant
placement's diagonals are the ``w``-bit masks ``S`` (bit ``i + j``) and
``T`` (bit ``i - j + h - 1``; bit ``h - 1`` is the quadrant's own long
diagonal), and ``rS``, ``rT`` their reversals over ``w`` bits.  On the board
(``D1 = r + c``, ``D2 = r - c + n - 1``) a half-board made of a north
placement ``x`` and a south placement ``y`` has, with ``U1 = S_x | rT_y << sh``
and ``U2 = T_x | rS_y << sh``: west ``D1 = U1``, ``D2 = U2 << sh``; east
``D1 = U2 << sh``, ``D2 = U1``.  ``x`` and ``y`` attack each other exactly
when ``S_x & rT_y << sh`` or ``T_x & rS_y << sh`` is not 0.

Words
-----
An east and a west half-board can share only the diagonals ``sh..sh+w-1``
of each family.  A half-board's *plain word* has bit ``k`` for
``D1 = sh + k`` and bit ``w + k`` for ``D2 = sh + k`` (``2w <= 38`` bits for
``n <= 21``); an east and a west half-board form a solution exactly when
their words are disjoint.  The kernels use the word in its configuration's
*layout* (:func:`arrange`, chosen by :mod:`parqueens.join.configs`): the
``real`` bits that a word can have set at ``0..real-1``, the sieve's key
bits on top of them (the best highest), the bits no word has set and the
long diagonals of even n (set in west words only, where they decide the
weight, see :mod:`parqueens.join`) at 40 and above.  A table entry in a
*role* (north-east, north-west, south-east, south-west) is stored as two
``uint64``: its word part (the word of a half-board is the OR of its two
parts) and ``ab``, its ``U1`` part in the low 32 bits and its ``U2`` part in
the high ones, so that two entries of one half attack each other exactly
when their ``ab`` meet.

Half-boards
-----------
A north entry is joined with a range of south ones (or the reverse) by
:data:`join_row`: eight at a time on processors with AVX-512 (one compare
and one compress of the words kept), one by one elsewhere.

Counting disjoint pairs
-----------------------
See :mod:`parqueens.join.match`: the bit-sliced matcher and its sieve.

All masks are ``uint64`` (or ``uint32`` in the stored tables) and every
literal is cast: numba turns mixed ``int64``/``uint64`` arithmetic into
floating point.  No recursion; ``nogil=True`` throughout, so threads of one
process count units at once and share the read-only tables.
"""

import numpy as np
from numba import njit

from ..search.kernels import ONE as _ONE
from ..search.kernels import ZERO as _ZERO
from ..search.kernels import popcount
from .keys import rekey_sides
from .match import count_sides, workspace
from .simd import LANES, wand, wkeep, wload, wor, wsplat, wxor

# ---------------------------------------------------------------- constants


#: Roles of a quadrant table entry.
NE, NW, SE, SW = 0, 1, 2, 3


__all__ = [
    "KIND_CENTER",
    "KIND_EVEN",
    "KIND_PAIR",
    "arrange",
    "count_units",
    "join_row",
    "join_row_in",
    "plan",
    "quadrant_table",
    "role_counts",
    "role_tables",
    "rowsets_of",
    "subsets",
]

# ---------------------------------------------------------------- quadrant tables


@njit(cache=True, nogil=True)
def quadrant_table(h):
    """Every partial placement of an ``h x h`` quadrant (any number of queens,
    at most one per row and column, no two on a diagonal), by an iterative
    bitmask backtracker run twice (count, then fill).

    Returns ``(off, n0, S, T, rS, rT)``: the placements sorted by key
    ``rows << h | cols`` (local masks), those of key ``k`` at
    ``off[k]:off[k + 1]`` (uint32, ``4**h + 1``), the ones without a queen on
    the quadrant's long diagonal (``T`` bit ``h - 1``) first, ``n0[k]`` of them;
    their diagonal masks ``S``, ``T`` and reversals ``rS``, ``rT`` (uint32).
    """
    empty = np.int64(1) << h
    full = empty - 1
    w = 2 * h - 1
    cand = np.zeros(h + 1, np.int64)
    cols = np.zeros(h + 1, np.int64)
    ld = np.zeros(h + 1, np.int64)
    rd = np.zeros(h + 1, np.int64)
    rows = np.zeros(h + 1, np.int64)
    dS = np.zeros(h + 1, np.int64)
    dT = np.zeros(h + 1, np.int64)
    drS = np.zeros(h + 1, np.int64)
    drT = np.zeros(h + 1, np.int64)
    nkeys = np.int64(1) << (2 * h)
    off = np.zeros(nkeys + 1, np.uint32)
    n0 = np.zeros(nkeys, np.uint32)
    pos0 = np.zeros(nkeys, np.uint32)
    pos1 = np.zeros(nkeys, np.uint32)
    S = np.zeros(0, np.uint32)
    T = np.zeros(0, np.uint32)
    rS = np.zeros(0, np.uint32)
    rT = np.zeros(0, np.uint32)
    for phase in range(2):
        if phase == 1:
            for k in range(nkeys):
                off[k + 1] += off[k]
                pos0[k] = off[k]
                pos1[k] = off[k] + n0[k]
            total = off[nkeys]
            S = np.zeros(total, np.uint32)
            T = np.zeros(total, np.uint32)
            rS = np.zeros(total, np.uint32)
            rT = np.zeros(total, np.uint32)
        r = 0
        cand[0] = full | empty
        while r >= 0:
            if cand[r] == 0:
                r -= 1
                continue
            bit = cand[r] & -cand[r]
            cand[r] ^= bit
            q = 0 if bit == empty else bit
            c = cols[r] | q
            rw = rows[r]
            s = dS[r]
            t = dT[r]
            rs = drS[r]
            rt = drT[r]
            if q != 0:
                j = 0
                while (q >> j) != 1:
                    j += 1
                rw |= np.int64(1) << r
                s |= np.int64(1) << (r + j)
                t |= np.int64(1) << (r - j + h - 1)
                rs |= np.int64(1) << (w - 1 - r - j)
                rt |= np.int64(1) << (h - 1 - r + j)
            if r == h - 1:
                key = (rw << h) | c
                on_long = (t >> (h - 1)) & 1
                if phase == 0:
                    off[key + 1] += 1
                    if on_long == 0:
                        n0[key] += 1
                else:
                    if on_long == 0:
                        p = pos0[key]
                        pos0[key] += 1
                    else:
                        p = pos1[key]
                        pos1[key] += 1
                    S[p] = s
                    T[p] = t
                    rS[p] = rs
                    rT[p] = rt
                continue
            cols[r + 1] = c
            ld[r + 1] = ((ld[r] | q) << 1) & full
            rd[r + 1] = (rd[r] | q) >> 1
            rows[r + 1] = rw
            dS[r + 1] = s
            dT[r + 1] = t
            drS[r + 1] = rs
            drT[r + 1] = rt
            cand[r + 1] = (full & ~(c | ld[r + 1] | rd[r + 1])) | empty
            r += 1
    return off, n0, S, T, rS, rT


@njit(cache=True, nogil=True)
def arrange(raw, layout):
    """A word in a configuration's layout: ``layout[i, v]`` is where the bits
    ``v`` of byte ``i`` of the plain word go (see :mod:`parqueens.join`)."""
    out = _ZERO
    for i in range(layout.shape[0]):
        out |= layout[i, (raw >> np.uint64(8 * i)) & np.uint64(255)]
    return out


@njit(cache=True, nogil=True)
def _role_pass(n, h, table, fixed, diagonal_symmetry, layout, start, mid, ab, word):
    """One pass over the quadrant table for :func:`_role_tables`: with
    ``ab`` empty, count the entries each role keeps into ``start``
    (``start[role, k + 1]`` the count of key ``k``); else write them and
    their offsets (``start`` already holding the role's first offsets).
    The four roles of an entry come from one load of it."""
    off, n0, S, T, rS, rT = table
    sh = np.uint64(n - h)
    w = np.uint64(2 * h - 1)
    mask = (_ONE << w) - _ONE
    nkeys = off.shape[0] - 1
    fill = ab.shape[0] > 0
    f_ne, f_nw, f_se, f_sw = fixed[NE], fixed[NW], fixed[SE], fixed[SW]
    p_ne = np.int64(start[NE, 0])
    p_nw = np.int64(start[NW, 0])
    p_se = np.int64(start[SE, 0])
    p_sw = np.int64(start[SW, 0])
    for k in range(nkeys):
        lo = np.int64(off[k])
        hi = np.int64(off[k + 1])
        m = lo + np.int64(n0[k]) if diagonal_symmetry else hi
        if fill:
            start[NE, k], start[NW, k], start[SE, k], start[SW, k] = p_ne, p_nw, p_se, p_sw
        for x in range(lo, hi):
            if x == m and fill:
                mid[NE, k], mid[NW, k], mid[SE, k], mid[SW, k] = p_ne, p_nw, p_se, p_sw
            s = np.uint64(S[x])
            t = np.uint64(T[x])
            rt = np.uint64(rT[x])
            rs = np.uint64(rS[x]) << sh
            north = s | (t << np.uint64(32))
            south = (rt << sh) | (rs << np.uint64(32))
            east = not diagonal_symmetry or x < m  # east: no queen on the long diagonal
            k_ne = east and north & f_ne == _ZERO
            k_nw = north & f_nw == _ZERO
            k_se = east and south & f_se == _ZERO
            k_sw = south & f_sw == _ZERO
            if not fill:
                start[NE, k + 1] += k_ne
                start[NW, k + 1] += k_nw
                start[SE, k + 1] += k_se
                start[SW, k + 1] += k_sw
                continue
            # Without branches (the filters are unpredictable): each role's
            # region has a spare word at its end for the last entries dropped.
            ab[p_ne] = north
            word[p_ne] = arrange(t | ((s >> sh) << w), layout)
            p_ne += k_ne
            ab[p_nw] = north
            word[p_nw] = arrange((s >> sh) | (t << w), layout)
            p_nw += k_nw
            ab[p_se] = south
            word[p_se] = arrange((rs & mask) | (rt << w), layout)
            p_se += k_se
            ab[p_sw] = south
            word[p_sw] = arrange(rt | ((rs & mask) << w), layout)
            p_sw += k_sw
        if fill and m >= hi:
            mid[NE, k], mid[NW, k], mid[SE, k], mid[SW, k] = p_ne, p_nw, p_se, p_sw


@njit(cache=True, nogil=True)
def role_counts(n, h, table, fixed, diagonal_symmetry):
    """The ``start`` array of :func:`_role_tables` alone (for a plan)."""
    nkeys = table[0].shape[0] - 1
    start = np.zeros((4, nkeys + 1), np.int32)
    empty = np.zeros(0, np.uint64)
    layout = np.zeros((0, 256), np.uint64)
    _role_pass(n, h, table, fixed, diagonal_symmetry, layout, start, start, empty, empty)
    p = 0
    for role in range(4):
        for k in range(nkeys + 1):
            p += np.int64(start[role, k])
            start[role, k] = p
        p += 1  # a spare word after each role (see _role_pass)
    return start


@njit(cache=True, nogil=True)
def role_tables(n, h, table, fixed, diagonal_symmetry, layout):
    """The quadrant placements in each role that a configuration allows.

    ``fixed``: uint64, shape ``(4,)``: per role, the ``ab`` bits of the
    diagonals of the queens placed first (odd n); an entry meeting them is
    dropped.  ``diagonal_symmetry`` (even n, the longest diagonals'
    symmetry): keep only the east entries without a queen on the quadrant's
    long diagonal, and put the west ones on it after the others.
    ``layout``: the configuration's word layout (:func:`arrange`).  Returns
    ``(start, mid, ab, word)``: per role and key, the entries at
    ``start[role, k]:start[role, k + 1]`` of the flat arrays ``ab`` and
    ``word`` (uint64), with ``diagonal_symmetry`` those on the long diagonal
    from ``mid[role, k]`` on (else ``mid`` is the end); ``start`` and ``mid``
    are int32 (half the memory; at most 4 x 7.5 million entries).
    """
    start = role_counts(n, h, table, fixed, diagonal_symmetry)
    nkeys = start.shape[1] - 1
    mid = np.empty((4, nkeys), np.int32)
    total = np.int64(start[3, nkeys]) + 1
    ab = np.empty(total, np.uint64)
    word = np.empty(total, np.uint64)
    _role_pass(n, h, table, fixed, diagonal_symmetry, layout, start, mid, ab, word)
    return start, mid, ab, word


# ---------------------------------------------------------------- half-boards


@njit(cache=True, nogil=True, inline="always")
def _join_scalar(out, cnt, ax, wx, ab, word, y0, y1):
    """The words ``wx | word[y]`` of the entries ``y0 <= y < y1`` that the
    entry ``(ax, wx)`` does not attack (``ax & ab[y] == 0``), written from
    ``out[cnt]`` on; returns the count after them.  Writes ``out[cnt]``
    for each entry, kept by advancing: no branch to mispredict."""
    for y in range(y0, y1):
        out[cnt] = wx | word[y]
        cnt += np.int64((ax & ab[y]) == _ZERO)
    return cnt


@njit(cache=True, nogil=True, inline="always")
def _join_vector(out, cnt, ax, wx, ab, word, y0, y1):
    """:func:`_join_scalar` on 8 entries at once (AVX-512's compress: the
    words kept packed by one instruction; n = 22's half-boards made 2.6
    times faster), the last ``< 8`` one by one.  It writes up
    to ``out[cnt + y1 - y0 - 1]``, as the scalar loop may.  Inlined (as
    :func:`_join_scalar`): a call per row cost what the vectors saved."""
    va = wsplat(ax)
    vx = wsplat(wx)
    y = y0
    while y + LANES <= y1:
        cnt += wkeep(out, cnt, wor(wload(word, y), vx), wand(wload(ab, y), va))
        y += LANES
    return _join_scalar(out, cnt, ax, wx, ab, word, y, y1)


#: Joining a north entry with a range of south ones (or the reverse): the
#: half-boards of both joins, :func:`_join` and :mod:`.pieces`.
join_row = _join_vector if LANES == 8 else _join_scalar


@njit(cache=True, nogil=True, inline="always")
def _join_scalar_in(out, cnt, ax, wx, ab, word, y0, y1, pm, pv):
    """:func:`_join_scalar` keeping only the words ``w`` with
    ``w & pm == pv`` (a class of the words' top bits)."""
    for y in range(y0, y1):
        w = wx | word[y]
        out[cnt] = w
        cnt += np.int64(((ax & ab[y]) | ((w & pm) ^ pv)) == _ZERO)
    return cnt


@njit(cache=True, nogil=True, inline="always")
def _join_vector_in(out, cnt, ax, wx, ab, word, y0, y1, pm, pv):
    """:func:`_join_vector` keeping only the words ``w`` with
    ``w & pm == pv``: one more AND, XOR and OR a vector."""
    va = wsplat(ax)
    vx = wsplat(wx)
    vm = wsplat(pm)
    vv = wsplat(pv)
    y = y0
    while y + LANES <= y1:
        w = wor(wload(word, y), vx)
        cnt += wkeep(out, cnt, w, wor(wand(wload(ab, y), va), wxor(wand(w, vm), vv)))
        y += LANES
    return _join_scalar_in(out, cnt, ax, wx, ab, word, y, y1, pm, pv)


#: :data:`join_row` keeping one class of the words' top bits.
join_row_in = _join_vector_in if LANES == 8 else _join_scalar_in


@njit(cache=True, nogil=True)
def _join(ab, word, x0, x1, y0, y1, out, cnt):
    """Append to ``out`` the words of the pairs of entries ``x0:x1`` (north)
    and ``y0:y1`` (south) that do not attack each other; the shorter range
    outside.  Writes every pair and advances only past the good ones
    (no branch to mispredict): ``out`` needs one spare word."""
    if x1 - x0 > y1 - y0:
        x0, x1, y0, y1 = y0, y1, x0, x1
    for x in range(x0, x1):
        cnt = join_row(out, cnt, ab[x], word[x], ab, word, y0, y1)
    return cnt


@njit(cache=True, nogil=True)
def _half_boards(roles, south, north, south_cols, rows, klass, ncells, out, cnt):
    """Join north cell ``i`` with south cell ``i`` for ``i < ncells``: the
    north cells' entries at ``north[i, 0]:north[i, 1]`` (off the long
    diagonal) and ``north[i, 1]:north[i, 2]`` (on it), the south cells those
    of rows ``rows`` (already shifted: ``b << h``) and columns
    ``south_cols[i]`` in role ``south``.  ``klass`` selects the parts: bit 1
    the north entries on the long diagonal, bit 0 the south ones (0: the
    entries off it)."""
    start, mid, ab, word = roles
    for i in range(ncells):
        ks = rows | south_cols[i]
        if klass & 1:
            y0 = np.int64(mid[south, ks])
            y1 = np.int64(start[south, ks + 1])
        else:
            y0 = np.int64(start[south, ks])
            y1 = np.int64(mid[south, ks])
        if y0 == y1:
            continue
        x0 = north[i, (klass >> 1) & 1]
        x1 = north[i, ((klass >> 1) & 1) + 1]
        if x0 < x1:
            cnt = _join(ab, word, x0, x1, y0, y1, out, cnt)
    return cnt


# ---------------------------------------------------------------- work units

#: ``cfg`` fields (int64 array) of a configuration, see :mod:`parqueens.join`.
CFG_ROWS_N, CFG_ROWS_S, CFG_COLS_E, CFG_COLS_W, CFG_KIND, CFG_REAL = range(6)
#: Configuration kinds: even n; the centre queen (odd n); two middle queens.
KIND_EVEN, KIND_CENTER, KIND_PAIR = 0, 1, 2


@njit(cache=True, nogil=True)
def rowsets_of(h, cfg, a, subs, subs_at, bs, weights):
    """The row sets of unit ``a``: their south rows ``b`` in ``bs`` and the
    weights of their four classes in ``weights`` (rows), the configuration's
    symmetries folded in (see :mod:`parqueens.join`); returns how many."""
    rows_s = cfg[CFG_ROWS_S]
    kind = cfg[CFG_KIND]
    full = (1 << h) - 1
    kb = popcount(np.uint64(cfg[CFG_COLS_E])) - popcount(np.uint64(a))
    count = 0
    if kb < 0:
        return 0
    for si in range(subs_at[kb], subs_at[kb + 1]):
        b = subs[si]
        if b & ~rows_s:
            continue
        up = 1
        east_west = 1
        if kind != KIND_PAIR:
            # Upside down, (a, b) is (b, a); east-west, (~a, ~b).
            if b < a:
                continue
            up = 2 if b > a else 1
            same = ~(a ^ b) & full
            if same != 0:
                east_west = 2 if a & (same & -same) else 0
        bs[count] = b
        if kind == KIND_EVEN:
            weights[count, 0] = up * east_west
            weights[count, 1] = 2 * up
            weights[count, 2] = 2 * up
            weights[count, 3] = 4 * up
        else:
            weights[count, 0] = up * east_west if kind == KIND_CENTER else 8
            weights[count, 1:] = 0
        if weights[count].max() == 0:
            continue
        count += 1
    return count


@njit(cache=True, nogil=True)
def _north_cells(h, rows, cols, start, role, subs, subs_at, keys, chosen):
    """The non-empty cells of a role with rows ``rows`` and ``|rows|``
    columns among ``cols``: their keys and column sets; returns how many."""
    k = popcount(np.uint64(rows))
    count = 0
    for si in range(subs_at[k], subs_at[k + 1]):
        c = subs[si]
        if c & ~cols:
            continue
        key = (rows << h) | c
        if start[role, key] < start[role, key + 1]:
            keys[count] = key
            chosen[count] = c
            count += 1
    return count


@njit(cache=True, nogil=True)
def _unit_sizes(h, cfg, a, start, subs, subs_at, scratch):
    """Pairs to test per row set of unit ``a``, from the cell sizes in
    ``start`` (role tables, or their counts alone for a plan): ``(most east,
    most west, sum east, sum west, sum of east * west, row sets)`` over the
    unit's row sets.  ``scratch``: from :func:`_scratch`."""
    keys, cols, bs, weights, e_keys, e_cols = scratch
    cols_e = cfg[CFG_COLS_E]
    cols_w = cfg[CFG_COLS_W]
    ne = _north_cells(h, a, cols_e, start, NE, subs, subs_at, e_keys, e_cols)
    nw = _north_cells(h, cfg[CFG_ROWS_N] ^ a, cols_w, start, NW, subs, subs_at, keys, cols)
    # Per north cell: its size, and its south cell's columns (in e_keys, keys).
    for i in range(ne):
        size = np.int64(start[NE, e_keys[i] + 1]) - np.int64(start[NE, e_keys[i]])
        e_keys[i] = size
        e_cols[i] = cols_e ^ e_cols[i]
    for i in range(nw):
        size = np.int64(start[NW, keys[i] + 1]) - np.int64(start[NW, keys[i]])
        keys[i] = size
        cols[i] = cols_w ^ cols[i]
    nr = rowsets_of(h, cfg, a, subs, subs_at, bs, weights)
    most_e = 0
    most_w = 0
    sum_e = 0.0
    sum_w = 0.0
    sum_ew = 0.0
    for e in range(nr):
        b = bs[e] << h
        bw = (cfg[CFG_ROWS_S] ^ bs[e]) << h
        te = 0
        for i in range(ne):
            ks = b | e_cols[i]
            te += e_keys[i] * (np.int64(start[SE, ks + 1]) - np.int64(start[SE, ks]))
        tw = 0
        for i in range(nw):
            ks = bw | cols[i]
            tw += keys[i] * (np.int64(start[SW, ks + 1]) - np.int64(start[SW, ks]))
        most_e = max(most_e, te)
        most_w = max(most_w, tw)
        sum_e += te
        sum_w += tw
        sum_ew += float(te) * float(tw)
    return most_e, most_w, sum_e, sum_w, sum_ew, nr


@njit(cache=True, nogil=True)
def _scratch(h):
    """Buffers of :func:`_unit_sizes`."""
    size = 1 << h
    return (
        np.empty(size, np.int64),
        np.empty(size, np.int64),
        np.empty(size, np.int64),
        np.empty((size, 4), np.int64),
        np.empty(size, np.int64),
        np.empty(size, np.int64),
    )


@njit(cache=True, nogil=True)
def plan(h, cfg, start):
    """Per unit ``a`` (every ``h``-bit mask) of a configuration, from the
    cell sizes in ``start``: the pairs of quadrant placements to test, east
    and west (sums over its row sets), the sum of their products and the
    number of row sets.  Returns float64 arrays ``(east, west, product,
    rowsets)``, shape ``(2**h,)``."""
    subs, subs_at = subsets(h)
    size = 1 << h
    east = np.zeros(size)
    west = np.zeros(size)
    product = np.zeros(size)
    rowsets = np.zeros(size)
    scratch = _scratch(h)
    for a in range(size):
        _, _, east[a], west[a], product[a], rowsets[a] = _unit_sizes(
            h, cfg, a, start, subs, subs_at, scratch
        )
    return east, west, product, rowsets


@njit(cache=True, nogil=True)
def subsets(h):
    """All ``h``-bit masks by popcount (then value), and where each
    popcount starts: ``(subs, at)``, int64."""
    size = 1 << h
    at = np.zeros(h + 2, np.int64)
    for x in range(size):
        at[popcount(np.uint64(x)) + 1] += 1
    for k in range(h + 1):
        at[k + 1] += at[k]
    fill = at.copy()
    subs = np.empty(size, np.int64)
    for x in range(size):
        k = popcount(np.uint64(x))
        subs[fill[k]] = x
        fill[k] += 1
    return subs, at


@njit(cache=True, nogil=True)
def _north_ranges(start, mid, role, keys, cols, count, all_cols):
    """For north cells (keys, column sets): their entries' ranges
    ``(start, mid, end)`` and the columns left for their south cells."""
    ranges = np.empty((max(count, 1), 3), np.int64)
    south = np.empty(max(count, 1), np.int64)
    for i in range(count):
        ranges[i, 0] = start[role, keys[i]]
        ranges[i, 1] = mid[role, keys[i]]
        ranges[i, 2] = start[role, keys[i] + 1]
        south[i] = all_cols ^ cols[i]
    return ranges, south


@njit(cache=True, nogil=True)
def _count_unit(n, h, cfg, a, roles, subs, subs_at, P, Q, ws, stop):
    """The weighted count of unit ``a`` of a configuration (see
    :mod:`parqueens.join`), or -1 if ``stop[0]`` was set meanwhile (read
    before each row set)."""
    start, mid = roles[0], roles[1]
    cols_e = cfg[CFG_COLS_E]
    cols_w = cfg[CFG_COLS_W]
    real = cfg[CFG_REAL]
    size = 1 << h
    keys = np.empty(size, np.int64)
    cols = np.empty(size, np.int64)
    # The north cells, once per unit: their entries' ranges and the columns
    # their south cells have.
    ne = _north_cells(h, a, cols_e, start, NE, subs, subs_at, keys, cols)
    north_e, south_e = _north_ranges(start, mid, NE, keys, cols, ne, cols_e)
    nw = _north_cells(h, cfg[CFG_ROWS_N] ^ a, cols_w, start, NW, subs, subs_at, keys, cols)
    north_w, south_w = _north_ranges(start, mid, NW, keys, cols, nw, cols_w)
    bs = np.empty(size, np.int64)
    weights = np.empty((size, 4), np.int64)
    nr = rowsets_of(h, cfg, a, subs, subs_at, bs, weights)
    qb = np.zeros(5, np.int64)
    tables = np.empty((7, 256), np.uint64)
    total = 0
    for e in range(nr):
        if stop[0] != 0:
            return -1
        b = bs[e]
        n_p = _half_boards(roles, SE, north_e, south_e, b << h, 0, ne, P, 0)
        if n_p == 0:
            continue
        bw = (cfg[CFG_ROWS_S] ^ b) << h
        cnt = 0
        for c in range(4):
            qb[c] = cnt
            if weights[e, c] != 0:
                cnt = _half_boards(roles, SW, north_w, south_w, bw, c, nw, Q, cnt)
        qb[4] = cnt
        if cnt > 0:
            rekey_sides(P, n_p, Q, cnt, real, tables)
            total += count_sides(P, n_p, Q, qb, weights[e], real, ws)
    return total


@njit(cache=True, nogil=True)
def count_units(n, h, cfg, units, roles, stop, out):
    """Count units ``units`` (their north east rows ``a``) of one
    configuration into ``out`` (int64); stops early, leaving -1, once
    ``stop[0]`` is set.  Sizes the buffers for the largest row set first."""
    subs, subs_at = subsets(h)
    scratch = _scratch(h)
    most_e = 0
    most_w = 0
    for u in range(units.shape[0]):
        me, mw, _, _, _, _ = _unit_sizes(h, cfg, units[u], roles[0], subs, subs_at, scratch)
        most_e = max(most_e, me)
        most_w = max(most_w, mw)
    P, Q, ws = workspace(most_e, most_w)
    out[:] = -1
    for u in range(units.shape[0]):
        if stop[0] != 0:
            return
        out[u] = _count_unit(n, h, cfg, units[u], roles, subs, subs_at, P, Q, ws, stop)
