"""Numba kernels of the quadrant join's matcher: how many pairs of an east and
a west half-board share no diagonal (see :mod:`parqueens.join.kernels` for
the words, and :mod:`parqueens.join.units` for the method, after Evgeny Kluev's
``EvgenyKluev/N-Queens-Count-Sol``, MIT, 2022; the code is ours).

The words of the side that makes the tables are cut into groups of
``64 * LANES`` (512 with AVX-512, else 256: :mod:`parqueens.join.simd`);
for each group and each chunk of 7 word bits (5 where the words streaming
by are few), ``_chunk_tables`` stores, for the 128 (32) values of the
chunk, the set (one bit a word) of the group's words disjoint from them
(transposed bit planes, ANDed by subsets: Kluev's precomputed chunks, his
of 5 bits and 256 words).  A word of the other side then meets a group in
one load, AND and popcount of a vector per chunk (``_match``).  A sieve
(:func:`count_pairs`) first sorts both sides by their ``K`` top real bits
(``K <= KMAX``, chosen per row set by a cost model), so that a word visits
only the groups holding buckets whose key it does not meet (the subsets
of its key's complement), and matches only the ``real - K`` bits below
the key (4 to 8 chunks).  The buckets follow each other without padding:
a group may hold the ends of several, and a visit ANDs a mask of the
lanes of the buckets the word may meet (one AND in registers; padding
each bucket to whole groups was 40 % of the visits at n = 22).  The groups of a few
keys' buckets have their tables made at once (a window of at most
``_WINDOW`` groups), and the words of each of the other side's buckets
visit the groups they may meet there in runs of up to ``_NBLK``, so that a
word's set-up (its chunk offsets) is paid once for several buckets'
groups.  :func:`count_sides` lets the larger side make the tables.

All masks are ``uint64`` and every literal is cast: numba turns mixed
``int64``/``uint64`` arithmetic into floating point.  ``nogil=True``: the
threads of one process match at once.  :func:`count_sides` and
:func:`workspace` are the entry points of :mod:`parqueens.join.kernels` and
:mod:`parqueens.join.pieces`.
"""

import numpy as np
from numba import njit, types
from numba.extending import overload

from ..search.kernels import ALL as _ALL
from ..search.kernels import ONE as _ONE
from ..search.kernels import ZERO as _ZERO
from .simd import (
    LANES,
    cycles,
    wadd,
    wand,
    wload,
    wload_at,
    wpopcount,
    wshl,
    wshr,
    wsplat,
    wstore,
    wsum,
    wxor,
)

#: Words of a group's vectors (LANES), log2 of it, and words of the side
#: making the tables per group (64 a vector word).
_GW = LANES
_GS = LANES.bit_length() - 1
_GP = 64 * LANES
#: Chunks of 7 word bits, 128 values each (5 chunks for the 29 to 35 bits
#: below the key of n = 20 to 24: 1.2 times faster than Kluev's chunks of
#: 5 bits, which need 7; 6 bits, 6
#: chunks, gained half as much, 8 bits lost to the tables' size).  At most
#: 8 chunks: 56 >= 52 real bits at n = 28.
CHUNK_BITS = 7
_NV = 1 << CHUNK_BITS
CHUNKS_MAX = 8
#: Words of one chunk's tables (the widest).
_CSZ = _NV * _GW
#: Chunks of 5 bits (Kluev's, 32 values) where the other side is small: a
#: group's tables then serve few visits (n = 18 and 19 were 10 to 25 %
#: slower with chunks of 7 bits alone); the words of
#: at most 40 real bits below the key (8 chunks).
NARROW_BITS = 5
WIDE_WORDS = 1 << 13
#: Groups whose tables are made at once (8,192 words: 1 MiB of tables at 8
#: chunks, in L2), and groups a word visits per call of the matcher.
_WINDOW = 8192 // _GP
_NBLK = 4
#: Words of the tables of a window (the workspace's, and the memory model's).
TABLE_WORDS = _WINDOW * CHUNKS_MAX * _CSZ
#: Words of room after a side sorted into buckets: the last group of the
#: last window reads up to a group past its words (masked out, never written).
PAD_WORDS = _GP + 1
#: Most key bits of the sieve: 12 where a row set has the words to fill
#: its buckets (n >= 24: 2 times faster than 8 on the same row sets; the
#: cost model keeps n = 22 near 8).
KMAX = 12
#: Most top key bits by which a large row set's words are cut into classes
#: before they meet the sieve (:func:`parqueens.join.pieces.count_rowsets`):
#: an east class meets only the west words disjoint from its bits.
PREFIX_MAX = 8
#: Cost of building one group's tables, and of sorting one word into its
#: bucket, in west-word visits (measured: a group's tables take 0.6 us, a
#: word's sorting 3 ns, a visit 2 ns).
_TABLE_COST = 300.0
_SORT_COST = 1.5
#: A word's set-up for a run of groups (its chunk offsets), in visits.
_ITEM_COST = 1.0
#: A sampled count (:func:`count_pairs`' ``sub``) keeps at least about
#: this many of the buckets holding words (with 8, three row sets of n = 28
#: were estimated 1.3 to 1.45 times what 32 said: a ratio over a few
#: buckets whose shares differ a thousandfold leans high).
SAMPLE_BUCKETS = 32


def _dp_order():
    src = np.zeros(_NV, np.uint64)
    bit = np.zeros(_NV, np.uint64)
    for v in range(1, _NV):
        low = v & -v
        src[v] = v ^ low
        bit[v] = low.bit_length() - 1
    return src, bit


# Chunk value v's table is the table of v without its lowest bit, ANDed
# with that bit's plane.
_DP_SRC, _DP_BIT = _dp_order()


__all__ = [
    "CHUNKS_MAX",
    "CHUNK_BITS",
    "NARROW_BITS",
    "PAD_WORDS",
    "WIDE_WORDS",
    "KMAX",
    "PREFIX_MAX",
    "TABLE_WORDS",
    "count_pairs",
    "count_sides",
    "visit_cycles",
    "workspace",
]


@njit(cache=True, nogil=True)
def _chunk_tables(pat, start, tab, tbase, planes, chunks, width):
    """The chunk tables of the ``_GP`` words ``pat[start:start + _GP]``:
    with ``w = width`` bits a chunk and ``G = _GW`` lanes,
    ``tab[tbase + (2**w c + v) * G : ... + G]`` is the set (bit ``64 l +
    i`` of lane ``l`` for word ``start + 64 l + i``) of the words disjoint
    from value ``v`` of chunk ``c`` (word bits ``w c .. w c + w - 1``).

    The inverted words are transposed into bit planes by ``G`` 64 x 64 bit
    matrix transposes at once (one per vector lane), then ANDed by subsets
    of each of the first ``chunks`` chunks.  ``planes``: uint64 scratch of
    ``64 G``.
    """
    for e in range(_GW):
        for p in range(64):
            planes[np.uint64(p * _GW + e)] = ~pat[np.uint64(start + e * 64 + p)]
    j = np.uint64(32)
    m = np.uint64(0x00000000FFFFFFFF)
    four = np.uint64(_GW)
    while j != _ZERO:
        mv = wsplat(m)
        k = _ZERO
        while k < np.uint64(64):
            a = wload(planes, k * four)
            b = wload(planes, (k + j) * four)
            t = wand(wxor(wshr(a, j), b), mv)
            wstore(planes, (k + j) * four, wxor(b, t))
            wstore(planes, k * four, wxor(a, wshl(t, j)))
            k = (k + j + _ONE) & ~j
        j >>= _ONE
        m ^= m << j
    ones = wsplat(_ALL)
    nv = 1 << width
    for c in range(chunks):
        base = np.uint64(tbase + c * nv * _GW)
        wstore(tab, base, ones)
        for v in range(1, nv):
            plane = (np.uint64(width * c) + _DP_BIT[v]) * four
            x = wand(wload(tab, base + _DP_SRC[v] * four), wload(planes, plane))
            wstore(tab, base + np.uint64(v * _GW), x)


def _match(tab, offs, masks, k0, items, i0, i1, ng, chunks, width):
    """The disjoint pairs of the words ``items[i0:i1]`` and the ``ng``
    groups whose tables start at ``tab[offs[k0 + g]]``, of the lanes set
    in their masks ``masks[(k0 + g) * _GW :][:_GW]``: per word and group, one
    load and AND of a vector per chunk (4 to 8 chunks: the words' bits below
    their key, of ``width`` bits), the AND of the mask, and a popcount added
    to a vector sum.  Literal ``ng``, ``chunks`` and ``width`` compile a loop of their
    own (see :func:`_match_run`), others a shared one."""
    # numba compiles _match_overload; only Python (NUMBA_DISABLE_JIT) runs this
    return _match_any(tab, offs, masks, k0, items, i0, i1, ng, chunks, width)


def _match_any(tab, offs, masks, k0, items, i0, i1, ng, chunks, width):
    # The shapes not compiled apart: the loop over the groups, the tests
    # on the chunks and the chunks' shifts at run time.
    w = np.uint64(width)
    vm = np.uint64(((1 << width) - 1) * _GW)
    cs = np.uint64((1 << width) * _GW)
    acc = wsplat(_ZERO)
    for it in range(i0, i1):
        r = items[it]
        o0 = (r << np.uint64(_GS)) & vm
        o1 = ((r >> (w - np.uint64(_GS))) & vm) + cs
        o2 = ((r >> (np.uint64(2) * w - np.uint64(_GS))) & vm) + np.uint64(2) * cs
        o3 = ((r >> (np.uint64(3) * w - np.uint64(_GS))) & vm) + np.uint64(3) * cs
        o4 = ((r >> (np.uint64(4) * w - np.uint64(_GS))) & vm) + np.uint64(4) * cs
        o5 = ((r >> (np.uint64(5) * w - np.uint64(_GS))) & vm) + np.uint64(5) * cs
        o6 = ((r >> (np.uint64(6) * w - np.uint64(_GS))) & vm) + np.uint64(6) * cs
        o7 = ((r >> (np.uint64(7) * w - np.uint64(_GS))) & vm) + np.uint64(7) * cs
        for g in range(ng):
            b = offs[k0 + g]
            x = wand(
                wand(wload(tab, b + o0), wload(tab, b + o1)),
                wand(wload(tab, b + o2), wload(tab, b + o3)),
            )
            # The same for the whole call: predicted.
            if chunks > 4:
                x = wand(x, wload(tab, b + o4))
            if chunks > 5:
                x = wand(x, wload(tab, b + o5))
            if chunks > 6:
                x = wand(x, wload(tab, b + o6))
            if chunks > 7:
                x = wand(x, wload(tab, b + o7))
            x = wand(x, wload(masks, np.uint64((k0 + g) * _GW)))
            acc = wadd(acc, wpopcount(x))
    return wsum(acc)


@overload(_match, prefer_literal=True)
def _match_overload(tab, offs, masks, k0, items, i0, i1, ng, chunks, width):
    literal = (isinstance(x, types.IntegerLiteral) for x in (ng, chunks, width))
    if not all(literal):
        return _match_any
    NG = ng.literal_value
    CH = chunks.literal_value
    W = width.literal_value
    VM = np.uint64(((1 << W) - 1) * _GW)
    CS = (1 << W) * _GW
    S1, S2, S3, S4, S5, S6 = (np.uint64(W * c - _GS) for c in range(1, 7))
    C1, C2, C3, C4, C5, C6 = (np.uint64(CS * c) for c in range(1, 7))

    def impl(tab, offs, masks, k0, items, i0, i1, ng, chunks, width):
        # The groups' offsets in registers for the whole run of words.
        b0 = offs[k0]
        b1 = offs[k0 + 1] if NG > 1 else _ZERO
        b2 = offs[k0 + 2] if NG > 2 else _ZERO
        b3 = offs[k0 + 3] if NG > 3 else _ZERO
        m0 = wload(masks, np.uint64(k0 * _GW))
        m1 = wload(masks, np.uint64((k0 + 1) * _GW)) if NG > 1 else m0
        m2 = wload(masks, np.uint64((k0 + 2) * _GW)) if NG > 2 else m0
        m3 = wload(masks, np.uint64((k0 + 3) * _GW)) if NG > 3 else m0
        acc = wsplat(_ZERO)
        # An unsigned index: no test for negative ones.
        for it in range(np.uint64(i0), np.uint64(i1)):
            r = items[it]
            o0 = (r << np.uint64(_GS)) & VM
            o1 = ((r >> S1) & VM) + C1
            o2 = ((r >> S2) & VM) + C2
            o3 = ((r >> S3) & VM) + C3
            o4 = ((r >> S4) & VM) + C4
            o5 = ((r >> S5) & VM) + C5
            o6 = ((r >> S6) & VM) + C6
            # NG and CH are constants: the loop and the tests vanish.
            for g in range(NG):
                b = b0 if g == 0 else (b1 if g == 1 else (b2 if g == 2 else b3))
                x = wand(
                    wand(wload_at(tab, b, o0), wload_at(tab, b, o1)),
                    wand(wload_at(tab, b, o2), wload_at(tab, b, o3)),
                )
                if CH > 4:
                    x = wand(x, wload_at(tab, b, o4))
                if CH > 5:
                    x = wand(x, wload_at(tab, b, o5))
                if CH > 6:
                    x = wand(x, wload_at(tab, b, o6))
                mk = m0 if g == 0 else (m1 if g == 1 else (m2 if g == 2 else m3))
                acc = wadd(acc, wpopcount(wand(x, mk)))
        return wsum(acc)

    return impl


@njit(cache=True, nogil=True)
def _match_run(tab, offs, masks, k0, items, i0, i1, ng, chunks, width):
    """:func:`_match`, its loop compiled apart for runs of 1 to 4 groups of
    the shapes of most visits: 4 or 5 chunks of 7 bits (large row sets of
    n = 20 to 25, whose words have 28 to 35 bits below their key), 6 or 7
    chunks of 5 bits (small row sets of n = 16 to 21).  The groups and
    chunks known when the loop is compiled make a word's visit of one
    group 1.8 times faster, of two 1.5 times (chunks of 5 bits).  Other
    shapes (n = 26 to 28's 6 chunks of 7 bits) share one loop: each shape
    compiled apart adds about 0.6 s to the first compile, and the six
    chunks' loop compiled apart gained nothing at n = 26."""
    if width == 7 and chunks == 5:
        if ng == 1:
            return _match(tab, offs, masks, k0, items, i0, i1, 1, 5, 7)
        if ng == 2:
            return _match(tab, offs, masks, k0, items, i0, i1, 2, 5, 7)
        if ng == 3:
            return _match(tab, offs, masks, k0, items, i0, i1, 3, 5, 7)
        if ng == 4:
            return _match(tab, offs, masks, k0, items, i0, i1, 4, 5, 7)
    if width == 7 and chunks == 4:
        if ng == 1:
            return _match(tab, offs, masks, k0, items, i0, i1, 1, 4, 7)
        if ng == 2:
            return _match(tab, offs, masks, k0, items, i0, i1, 2, 4, 7)
        if ng == 3:
            return _match(tab, offs, masks, k0, items, i0, i1, 3, 4, 7)
        if ng == 4:
            return _match(tab, offs, masks, k0, items, i0, i1, 4, 4, 7)
    if width == 5 and chunks == 6:
        if ng == 1:
            return _match(tab, offs, masks, k0, items, i0, i1, 1, 6, 5)
        if ng == 2:
            return _match(tab, offs, masks, k0, items, i0, i1, 2, 6, 5)
        if ng == 3:
            return _match(tab, offs, masks, k0, items, i0, i1, 3, 6, 5)
        if ng == 4:
            return _match(tab, offs, masks, k0, items, i0, i1, 4, 6, 5)
    if width == 5 and chunks == 7:
        if ng == 1:
            return _match(tab, offs, masks, k0, items, i0, i1, 1, 7, 5)
        if ng == 2:
            return _match(tab, offs, masks, k0, items, i0, i1, 2, 7, 5)
        if ng == 3:
            return _match(tab, offs, masks, k0, items, i0, i1, 3, 7, 5)
        if ng == 4:
            return _match(tab, offs, masks, k0, items, i0, i1, 4, 7, 5)
    return _match(tab, offs, masks, k0, items, i0, i1, ng, chunks, width)


@njit(cache=True, nogil=True)
def _key_bits(P, n_p, Q, qb, weights, real, kmax, hp, hq, cp, cq):
    """Histograms of the ``kmax``-bit keys (``hp`` east, ``hq[4 key + class]``
    west) and the number of key bits ``K <= kmax`` that the cost model
    prefers: per east bucket ``j``, its groups times (the table cost plus the
    west words whose key is disjoint from ``j``, summed over subsets), and
    for ``K > 0`` the sorting of every word."""
    shift = np.uint64(real - kmax)
    mask = np.uint64((1 << kmax) - 1)
    nbk = 1 << kmax
    hp[:nbk] = 0
    hq[: 4 * nbk] = 0
    for i in range(n_p):
        hp[(P[i] >> shift) & mask] += 1
    for c in range(4):
        for i in range(qb[c], qb[c + 1]):
            hq[np.int64((Q[i] >> shift) & mask) * 4 + c] += 1
    best = 0
    best_cost = 1e300
    for K in range(kmax + 1):
        nb = 1 << K
        down = kmax - K
        cp[:nb] = 0
        cq[:nb] = 0
        for j in range(nbk):
            cp[j >> down] += hp[j]
            cq[j >> down] += hq[4 * j] + hq[4 * j + 1] + hq[4 * j + 2] + hq[4 * j + 3]
        for bit in range(K):
            for m in range(nb):
                if (m >> bit) & 1:
                    cq[m] += cq[m ^ (1 << bit)]
        cost = 0.0 if K == 0 else _SORT_COST * (n_p + qb[4])
        for j in range(nb):
            groups = (cp[j] + _GP - 1) // _GP
            blocks = (groups + _NBLK - 1) // _NBLK
            met = cq[(nb - 1) ^ j]
            cost += groups * (_TABLE_COST + met) + blocks * met * _ITEM_COST
        if cost < best_cost:
            best_cost = cost
            best = K
    return best


@njit(cache=True, nogil=True)
def _sort_sides(P, n_p, Q, qb, real, K, kmax, ws):
    """Both sides sorted by their ``K`` key bits into ``ws``'s buffers:
    the table side's buckets one after the other, bucket ``j`` at
    ``cp[j]:cp[j + 1]`` (the last group reads up to ``_GP`` words past
    them: whatever they hold, no mask has their lanes); the other
    side by key and class, bucket ``j``'s class ``c`` at
    ``cq[4 j + c]:cq[4 j + c + 1]``.  ``hp``, ``hq``: the ``kmax``-bit
    histograms of :func:`_key_bits`.  Returns the two sorted arrays."""
    pbuf, qbuf, tab, planes, hp, hq, cp, cq, offs, clock, masks = ws
    nb = 1 << K
    if K == 0:
        cp[0] = 0
        cp[1] = n_p
        cq[:5] = qb[:5]
        return P, Q
    down = kmax - K
    shift = np.uint64(real - K)
    mask = np.uint64(nb - 1)
    cp[: nb + 1] = 0
    cq[: 4 * nb + 1] = 0
    for j in range(1 << kmax):
        cp[(j >> down) + 1] += hp[j]
        for c in range(4):
            cq[4 * (j >> down) + c + 1] += hq[4 * j + c]
    for j in range(nb):
        cp[j + 1] += cp[j]
    for j in range(4 * nb):
        cq[j + 1] += cq[j]
    hp[:nb] = cp[:nb]
    hq[: 4 * nb] = cq[: 4 * nb]
    for i in range(n_p):
        v = P[i]
        j = (v >> shift) & mask
        pbuf[hp[j]] = v
        hp[j] += 1
    for c in range(4):
        for i in range(qb[c], qb[c + 1]):
            v = Q[i]
            j = np.int64((v >> shift) & mask) * 4 + c
            qbuf[hq[j]] = v
            hq[j] += 1
    return pbuf, qbuf


@njit(cache=True, nogil=True)
def _thin(items, cq, cp, nb, sub, seed, out, meets):
    """The words of about one bucket in ``sub`` of ``items`` (sorted into
    ``nb`` buckets of 4 classes, their bounds ``cq[: 4 nb + 1]``, from 0),
    each bucket kept or not by a hash of its key and ``seed``, copied into
    ``out`` (may be ``items``), the bounds rewritten (the others' empty);
    one in fewer where that would keep under :data:`SAMPLE_BUCKETS` of the
    buckets that hold words.  Whole buckets, not every ``sub``-th word: a
    bucket's visits cost a set-up per window and run of groups besides its
    words' own (a word-by-word sample was 2 to 7 times slow at ``sub`` 32
    to 256).

    Returns ``(out, scale)``: the kept buckets' share of the visits is
    taken as their share of the pairs they may meet (a bucket's words times
    the table side's words in the buckets disjoint from its key, ``cp`` its
    bounds, summed over subsets in ``meets``), ``scale`` its inverse: a
    ratio estimate, where the buckets' own shares vary a thousandfold
    (keys of few bits meet most of the tables)."""
    full = 0
    for i in range(nb):
        if cq[4 * i + 4] > cq[4 * i]:
            full += 1
        meets[i] = cp[i + 1] - cp[i]
    bit = 1
    while bit < nb:
        for m in range(nb):
            if m & bit:
                meets[m] += meets[m ^ bit]
        bit <<= 1
    sub = max(1, min(sub, full // SAMPLE_BUCKETS))
    m = 0
    kept = 0
    whole = 0.0
    held = 0.0
    for i in range(nb):
        x = (np.uint64(i) + np.uint64(seed)) * np.uint64(0x9E3779B97F4A7C15)
        x ^= x >> np.uint64(29)
        x *= np.uint64(0xBF58476D1CE4E5B9)
        x ^= x >> np.uint64(32)
        keep = x % np.uint64(sub) == _ZERO
        share = float(cq[4 * i + 4] - cq[4 * i]) * float(meets[(nb - 1) ^ i])
        whole += share
        if keep:
            held += share
        for c in range(4):
            j = 4 * i + c
            lo = cq[j]
            hi = cq[j + 1]
            cq[j] = kept
            if keep:
                for k in range(lo, hi):
                    out[m] = items[k]
                    m += 1
                kept = m
    cq[4 * nb] = kept
    return out, whole / held if held > 0.0 else 0.0


@njit(cache=True, nogil=True)
def count_pairs(P, n_p, Q, qb, weights, real, ws, sub=1):
    """The weighted number of disjoint (east, west) word pairs.

    ``P[:n_p]``: east words (``P`` has room for ``PAD_WORDS`` more), which make the
    tables; ``Q``: west words, class ``c`` at ``qb[c]:qb[c + 1]``, each pair
    with one counting ``weights[c]``; ``real``: the words' bits that can be
    set, the key bits on top of them, the best highest; ``ws``: workspace
    (see :func:`workspace`).  ``sub`` > 1: a sample, not a count: every
    choice is made for the whole sides, then only the words of about one
    bucket in ``sub`` of the side streaming by visit the groups
    (:func:`_thin`), each bucket's visits as in the count, and the
    workspace's clock gains their cycles scaled to all the buckets (sides
    thinned before the choices, as estimates did, chose fewer key bits and
    narrower chunks and visited more groups a pair: 2 to 5 times slower).
    """
    pbuf, qbuf, tab, planes, hp, hq, cp, cq, offs, clock, masks = ws
    kmax = 0
    while kmax < min(KMAX, real - 1) and (n_p >> (kmax + 7)) > 0:
        kmax += 1
    K = 0
    # A sieve must save more visits than sorting costs: with all the visits
    # below that, not even its histograms pay.
    if kmax > 0 and (n_p + _GP - 1) // _GP * qb[4] > _SORT_COST * (n_p + qb[4]):
        K = _key_bits(P, n_p, Q, qb, weights, real, kmax, hp, hq, cp, cq)
    pat, items = _sort_sides(P, n_p, Q, qb, real, K, kmax, ws)
    scale = 1.0
    if sub > 1:
        items, scale = _thin(items, cq, cp, 1 << K, sub, n_p + qb[4], ws[1], hp)
    # The key's bits are disjoint bucket by bucket: only those below it are
    # matched (in 4 chunks at least, as _match does).
    width = CHUNK_BITS
    if qb[4] < WIDE_WORDS and real - K <= NARROW_BITS * CHUNKS_MAX:
        width = NARROW_BITS
    chunks = max(4, (real - K + width - 1) // width)
    tsz = chunks * (1 << width) * _GW
    # Windows: the buckets of a prefix of K1 key bits, few enough groups
    # for their tables at once (a bucket larger than a window is cut).
    K1 = 0
    while True:
        L = K - K1
        worst = 0
        for p in range(1 << K1):
            worst = max(worst, cp[(p + 1) << L] - cp[p << L])
        if worst <= _WINDOW * _GP or K1 == K:
            break
        K1 += 1
    # The cycles of the visits (the windows' time less their tables'): an
    # estimate scales them apart (a sample's visits are a share of them).
    began = cycles()
    total = 0
    for p in range(1 << K1):
        for g0 in range(cp[p << L], cp[(p + 1) << L], _WINDOW * _GP):
            g1 = min(cp[(p + 1) << L], g0 + _WINDOW * _GP)
            made = cycles()
            for k in range((g1 - g0 + _GP - 1) // _GP):
                _chunk_tables(pat, g0 + k * _GP, tab, k * tsz, planes, chunks, width)
            began += cycles() - made
            # The other side's buckets whose keys are disjoint from p in the
            # prefix (the subsets of its complement), and in the rest from
            # some bucket of the window: their words visit those groups.
            comp = ((1 << K1) - 1) ^ p
            ih = comp
            while True:
                for t in range(1 << L):
                    i = (ih << L) | t
                    if cq[4 * i + 4] > cq[4 * i]:
                        total += _visit(
                            tab,
                            offs,
                            masks,
                            items,
                            cp,
                            cq,
                            weights,
                            i,
                            p,
                            L,
                            t,
                            g0,
                            g1,
                            chunks,
                            width,
                        )
                if ih == 0:
                    break
                ih = (ih - 1) & comp
    spent = cycles() - began
    clock[0] += spent if sub == 1 else np.uint64(float(spent) * scale)
    clock[1] += spent
    return total


@njit(cache=True, nogil=True)
def _visit(tab, offs, masks, items, cp, cq, weights, i, p, L, t, g0, g1, chunks, width):
    """The weighted disjoint pairs of the words of bucket ``i`` (the last
    ``L`` bits of its key ``t``) and the window's groups ``g0:g1`` of the
    buckets ``p, s`` with ``s`` disjoint from ``t`` (their tables of
    ``chunks`` chunks of ``width`` bits in ``tab`` from ``g0`` on), in runs
    of at most ``_NBLK`` groups.  A group holding the ends of several
    buckets is listed once, its mask the lanes of those the words may meet
    (the buckets come in increasing order)."""
    tsz = chunks * (1 << width) * _GW
    m = 0
    last = -1
    ct = ((1 << L) - 1) ^ t
    s = 0
    while True:
        j = (p << L) | s
        a = max(g0, cp[j]) - g0
        e = min(g1, cp[j + 1]) - g0
        while a < e:
            k = a // _GP
            if k != last:
                offs[m] = np.uint64(k * tsz)
                masks[_GW * m : _GW * m + _GW] = _ZERO
                m += 1
                last = k
            # lanes a .. hi - 1, within one mask word (groups hold whole words)
            hi = min(e, (a | 63) + 1)
            nbits = hi - a
            bits = _ALL if nbits == 64 else ((_ONE << np.uint64(nbits)) - _ONE) << np.uint64(a & 63)
            masks[_GW * (m - 1) + ((a >> 6) & (_GW - 1))] |= bits
            a = hi
        if s == ct:
            break
        s = (s - ct) & ct
    total = 0
    k0 = 0
    while k0 < m:
        ng = min(_NBLK, m - k0)
        for c in range(4):
            lo = cq[4 * i + c]
            hi = cq[4 * i + c + 1]
            if weights[c] != 0 and lo < hi:
                count = _match_run(tab, offs, masks, k0, items, lo, hi, ng, chunks, width)
                total += weights[c] * np.int64(count)
        k0 += ng
    return total


@njit(cache=True, nogil=True)
def count_sides(P, n_p, Q, qb, weights, real, ws, sub=1):
    """:func:`count_pairs` with the larger side making the chunk tables: a
    west class with more words than the east side is matched on its own,
    its words as the tables and the east words streaming by; the other
    classes together as :func:`count_pairs` does.  The same count, for
    less time (n = 22: 1.27 times less matching):
    the larger side fills the sieve's buckets, and its groups are loaded
    once for more words.  ``Q`` needs room for ``PAD_WORDS`` after ``qb[4]``
    (a class made into tables reads past its end); neither side is
    changed.  ``sub``: as in :func:`count_pairs`."""
    swapped = 0
    for c in range(4):
        if weights[c] != 0 and qb[c + 1] - qb[c] > n_p:
            swapped |= 1 << c
    total = 0
    rest = weights.copy()
    others = False
    for c in range(4):
        if (swapped >> c) & 1:
            rest[c] = 0
        elif rest[c] != 0 and qb[c + 1] > qb[c]:
            others = True
    if others:
        total += count_pairs(P, n_p, Q, qb, rest, real, ws, sub)
    if swapped:
        ends = np.full(5, n_p, np.int64)
        ends[0] = 0
        one = np.zeros(4, np.int64)
        for c in range(3, -1, -1):
            if (swapped >> c) & 1:
                one[0] = weights[c]
                total += count_pairs(Q[qb[c] :], qb[c + 1] - qb[c], P, ends, one, real, ws, sub)
    return total


@njit(cache=True, nogil=True)
def visit_cycles(ws):
    """The processor cycles of the visits of workspace ``ws``'s matching,
    its tables' making left out (see :func:`count_pairs`): uint64, shape
    (2,), those a count would spend (in a sample, scaled to all its
    buckets) and those spent."""
    return ws[9]


@njit(cache=True, nogil=True)
def _aligned(size):
    """``size`` uint64 words from a 64-byte boundary.  numba aligns arrays to
    32 bytes only, and a vector of 8 words read across two cache lines costs
    two loads: the visits of a group whose tables started mid-line took 1.7
    to 2 times longer (n = 22's row sets)."""
    raw = np.empty(size + 8, np.uint64)
    skip = ((64 - (raw.ctypes.data & 63)) & 63) >> 3
    return raw[skip : skip + size]


@njit(cache=True, nogil=True)
def workspace(max_east, max_west):
    """Buffers of one thread for row sets of at most ``max_east`` east and
    ``max_west`` west pairs to join: ``(P, Q, ws)``.  Either side may make
    the chunk tables (:func:`count_sides`), so the sort buffers and both
    sides have room for the larger one and the reads past its end."""
    most = max(max_east, max_west)
    P = np.empty(max_east + PAD_WORDS, np.uint64)
    Q = np.empty(max_west + PAD_WORDS, np.uint64)
    ws = (
        _aligned(most + PAD_WORDS),
        _aligned(most + 1),
        _aligned(TABLE_WORDS),
        _aligned(64 * _GW),
        np.zeros(1 << KMAX, np.int64),
        np.zeros(4 << KMAX, np.int64),
        np.zeros((1 << KMAX) + 1, np.int64),
        np.zeros((4 << KMAX) + 1, np.int64),
        np.zeros(_WINDOW + 1, np.uint64),
        np.zeros(2, np.uint64),
        _aligned(_GW * (_WINDOW + 1)),
    )
    return P, Q, ws
