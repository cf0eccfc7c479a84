"""A row set's own key bits, for the matcher's sieve (:mod:`parqueens.join.match`).

The sieve sorts both sides of a row set by ``K`` key bits and lets a word
visit only the buckets whose key it does not meet.  The layout's key bits
(:func:`parqueens.join.configs.configs`) are the best on average over all
row sets; one whose sides hold enough pairs (:data:`REKEY_PAIRS`) chooses
its own (:func:`key_tables`: greedily, on a sample of 256 words a side,
each next bit the one that separates the most sampled pairs the bits
before it let through), and its words are rewritten so that those bits
lead (:func:`rekey`, a table lookup per byte of a word).  Masks are
``uint64``, every literal cast, as in :mod:`parqueens.join.match`.
"""

import numpy as np
from numba import njit

from ..search.kernels import ALL as _ALL
from ..search.kernels import ONE as _ONE
from ..search.kernels import ZERO as _ZERO
from .match import KMAX
from .simd import vadd, vand, vload, vpopcount, vsplat, vstore, vsum, vxor

#: A row set chooses its own key bits (:func:`key_tables`) where its pairs
#: are at least this many times its words (rewriting a word costs about
#: what its share of the matching saves there), from a sample of
#: ``_SAMPLE`` words a side.
REKEY_PAIRS = 1 << 14
_SAMPLE = 256

__all__ = ["REKEY_PAIRS", "key_tables", "rekey", "rekey_sides"]


@njit(cache=True, nogil=True)
def _bit_sets(words, n, real, out):
    """For each of the ``real`` low bits, the 256-bit set (4 words) of the
    samples that have it, ``out[b, :]``: 256 words of ``words[:n]``, evenly
    spaced (all of them, and fewer samples, when ``n < 256``)."""
    out[:real, :] = 0
    step = max(1, n // _SAMPLE)
    s = 0
    for i in range(0, n, step):
        if s == _SAMPLE:
            break
        v = words[i]
        for b in range(real):
            if (v >> np.uint64(b)) & _ONE:
                out[b, s >> 6] |= _ONE << np.uint64(s & 63)
        s += 1


@njit(cache=True, nogil=True)
def key_tables(P, n_p, Q, n_q, real, tables, stride=1, bits=KMAX):
    """Choose the sieve's key bits for a row set from its words, moved on
    top of the ``real`` bits, the best highest, the other real bits below
    them in their order.  Two words are disjoint exactly when their images
    are, so any choice keeps the count; a good one prunes more: the layout's
    key bits are the best on average over all row sets, a row set's own
    can prune far more (at n = 22, 1.0 to 3.2 times fewer visits).

    The choice is greedy on a sample of 256 east and 256 west words: each
    next bit is the one that separates the most sampled pairs that the bits
    chosen before let through (both words have it).  ``P[:n_p]``,
    ``Q[:n_q]``: the east and west words; ``bits``: how many bits are
    chosen (those of the sieve's key, and of the classes of a large row
    set: :func:`parqueens.join.pieces.count_rowsets`).  ``tables``: uint64, shape
    ``(8, 256)``, filled for :func:`rekey` (byte ``i`` of a word to its
    image).  Returns False (tables untouched) where the layout's order is
    kept: too few pairs for the choice to pay (:data:`REKEY_PAIRS`), or the
    same choice.
    """
    if n_p * n_q * stride < REKEY_PAIRS * (n_p + n_q):
        return False
    has_p = np.empty((64, 4), np.uint64)
    has_q = np.empty(64 * 4, np.uint64)
    _bit_sets(P, n_p, real, has_p)
    _bit_sets(Q, n_q, real, has_q.reshape((64, 4)))
    # The east samples of each bit, as offsets into alive, where
    # alive[4 i : 4 i + 4] holds the sampled west words that east sample i
    # still meets.
    four = np.uint64(4)
    at = np.empty((64, _SAMPLE), np.uint64)
    count = np.zeros(64, np.int64)
    for b in range(real):
        for i in range(_SAMPLE):
            if (has_p[b, i >> 6] >> np.uint64(i & 63)) & _ONE:
                at[b, count[b]] = np.uint64(i) * four
                count[b] += 1
    alive = np.empty(_SAMPLE * 4, np.uint64)
    alive[:] = _ALL
    nk = min(bits, real - 1)
    where = np.full(real, -1, np.int64)
    for k in range(nk):
        best = -1
        best_cut = np.uint64(0)
        for b in range(real):
            if where[b] >= 0:
                continue
            q = vload(has_q, np.uint64(b) * four)
            cut = vsplat(_ZERO)
            for j in range(count[b]):
                cut = vadd(cut, vpopcount(vand(vload(alive, at[b, j]), q)))
            c = vsum(cut)
            if best < 0 or c > best_cut:
                best_cut = c
                best = b
        where[best] = real - 1 - k
        keep = vxor(vload(has_q, np.uint64(best) * four), vsplat(_ALL))
        for j in range(count[best]):
            vstore(alive, at[best, j], vand(vload(alive, at[best, j]), keep))
    pos = 0
    for b in range(real):
        if where[b] < 0:
            where[b] = pos
            pos += 1
    same = True
    for b in range(real):
        if where[b] != b:
            same = False
    if same:
        return False
    for i in range(tables.shape[0]):
        for v in range(256):
            x = _ZERO
            for t in range(8):
                b = 8 * i + t
                if (v >> t) & 1:
                    if b < real:
                        x |= _ONE << np.uint64(where[b])
                    else:
                        x |= _ONE << np.uint64(b)
            tables[i, v] = x
    return True


@njit(cache=True, nogil=True)
def rekey(words, lo, hi, tables, real=56):
    """``words[lo:hi]`` replaced, in place, by their images under the
    tables of :func:`key_tables` for words of ``real`` bits: the bytes
    that hold real bits looked up (5 at least, 7 at most), the bits above
    them kept (the tables keep every bit from ``real`` on: the same image
    as a lookup of all 7 bytes, for 5 of the 7 lookups at n = 20 to 23)."""
    t = tables.reshape(-1)
    nb = min(7, max(5, (real + 7) // 8))
    byte = np.uint64(255)
    high = ~((_ONE << np.uint64(8 * nb)) - _ONE)
    for i in range(lo, hi):
        v = words[i]
        x = (
            (v & high)
            | t[v & byte]
            | t[np.uint64(256) + ((v >> np.uint64(8)) & byte)]
            | t[np.uint64(512) + ((v >> np.uint64(16)) & byte)]
            | t[np.uint64(768) + ((v >> np.uint64(24)) & byte)]
            | t[np.uint64(1024) + ((v >> np.uint64(32)) & byte)]
        )
        # The same for the whole call: predicted.
        if nb > 5:
            x |= t[np.uint64(1280) + ((v >> np.uint64(40)) & byte)]
        if nb > 6:
            x |= t[np.uint64(1536) + ((v >> np.uint64(48)) & byte)]
        words[i] = x


@njit(cache=True, nogil=True)
def rekey_sides(P, n_p, Q, n_q, real, tables, stride=1):
    """:func:`key_tables` for ``P[:n_p]`` and ``Q[:n_q]``, and where it
    chooses other key bits, both sides rewritten by :func:`rekey`.  Returns
    whether they were (the later blocks of the same row set must be, with
    the same tables)."""
    if not key_tables(P, n_p, Q, n_q, real, tables, stride):
        return False
    rekey(P, 0, n_p, tables, real)
    rekey(Q, 0, n_q, tables, real)
    return True
