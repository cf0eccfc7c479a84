"""The join's matcher (:mod:`parqueens.join.match`): the weighted number of
disjoint pairs of an east and a west word, against a pair-by-pair count,
and a row set's own key bits (:func:`key_tables`, :func:`rekey`), which must
keep every count and put the bits that separate the most pairs on top."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from parqueens.join.keys import REKEY_PAIRS, key_tables, rekey, rekey_sides
from parqueens.join.match import (
    PAD_WORDS,
    SAMPLE_BUCKETS,
    _thin,
    count_sides,
    visit_cycles,
    workspace,
)


def _words(rng, count, real, share, above=False):
    """``count`` random words of ``real`` bits, each bit set with its
    ``share`` (a float or one per bit); ``above``: with noise in the two
    bits above them, as west words have their classes there (never met)."""
    bits = rng.random((count, real)) < share
    words = (bits * (1 << np.arange(real, dtype=np.uint64))).sum(axis=1, dtype=np.uint64)
    noise = rng.integers(0, 4 if above else 1, count, dtype=np.uint64)
    return words | (noise << np.uint64(real))


def _by_pairs(east, west, qb, weights, real):
    """The pair-by-pair count: east and west words that share no bit below
    ``real``, times the weight of the west word's class."""
    low = np.uint64((1 << real) - 1)
    total = 0
    for c in range(4):
        part = west[qb[c] : qb[c + 1]]
        if len(part) and weights[c]:
            meet = (east[:, None] & part[None, :] & low) == 0
            total += int(weights[c]) * int(meet.sum())
    return total


def _count(east, west, qb, weights, real):
    P, Q, ws = workspace(len(east), len(west))
    P[: len(east)] = east
    Q[: len(west)] = west
    return count_sides(P, len(east), Q, np.array(qb), np.array(weights), real, ws)


@pytest.mark.parametrize(
    ("real", "sizes", "weights"),
    [
        (30, (3000, 500, 700, 0, 1200), (4, 4, 4, 8)),  # east makes the tables
        (40, (700, 2500, 100, 3000, 0), (2, 0, 4, 8)),  # west classes larger
        (52, (2600, 2600, 10, 300, 1), (1, 2, 3, 4)),  # the widest words
        (24, (9000, 100, 50, 0, 60), (1, 2, 0, 8)),  # no key: one bucket cut into windows
        (36, (12000, 600, 500, 400, 0), (4, 4, 4, 8)),  # several windows of buckets
    ],
)
def test_counts_every_disjoint_pair(real, sizes, weights):
    rng = np.random.default_rng(real)
    east = _words(rng, sizes[0], real, 0.3)
    west = _words(rng, sum(sizes[1:]), real, 0.3, above=True)
    qb = np.cumsum((0,) + sizes[1:])
    expected = _by_pairs(east, west, qb, weights, real)
    assert _count(east, west, qb, weights, real) == expected > 0


def _planted(seed, real=40, count=40_000):
    """East and west words whose bit 7 is set in 90 % of them, bit 20 in
    none, the others in 35 %: enough pairs for a row set's own keys."""
    rng = np.random.default_rng(seed)
    share = np.full(real, 0.35)
    share[7], share[20] = 0.9, 0.0
    return _words(rng, count, real, share), _words(rng, count, real, share, above=True)


def test_more_key_bits_asked_keep_the_first_ones():
    # Greedy: asked for 16 bits (a row set's classes' and its key's), the
    # first 12 are those asked alone, in the same places; the next 4 below.
    real = 40
    east, west = _planted(2)
    few, more = np.zeros((7, 256), np.uint64), np.zeros((7, 256), np.uint64)
    assert key_tables(east, len(east), west, len(west), real, few, 1, 12)
    assert key_tables(east, len(east), west, len(west), real, more, 1, 16)

    def images(t):
        return [int(t[b // 8, 1 << (b % 8)]).bit_length() - 1 for b in range(real)]

    top12 = {b: p for b, p in enumerate(images(few)) if p >= real - 12}
    assert len(top12) == 12 and all(images(more)[b] == p for b, p in top12.items())
    assert sum(p >= real - 16 for p in images(more)) == 16
    assert images(few) != images(more)  # 12 bits alone leave the rest in order


def test_own_key_bits_keep_the_count_and_lead_with_the_best():
    real = 40
    east, west = _planted(1)
    assert len(east) * len(west) >= REKEY_PAIRS * (len(east) + len(west))
    tables = np.zeros((7, 256), np.uint64)
    assert key_tables(east, len(east), west, len(west), real, tables)
    # A permutation of the low bits: each bit to one bit, all of them met;
    # the bit most pairs share goes on top, a bit no word has is no key.
    images = [int(tables[b // 8, 1 << (b % 8)]) for b in range(56)]
    assert all(x and x & (x - 1) == 0 for x in images)
    assert sorted(images[:real]) == [1 << b for b in range(real)]
    assert images[real:] == [1 << b for b in range(real, 56)]
    assert images[7] == 1 << (real - 1) and images[20] < 1 << (real - 12)
    qb = (0, 15_000, 30_000, 35_000, 40_000)
    weights = (4, 2, 0, 8)
    before = _count(east, west, qb, weights, real)
    e2, w2 = east.copy(), west.copy()
    rekey(e2, 0, len(e2), tables)
    rekey(w2, 0, len(w2), tables)
    popcount = np.vectorize(lambda x: bin(int(x)).count("1"))
    assert (popcount(e2) == popcount(east)).all()
    assert _count(e2, w2, qb, weights, real) == before > 0


def _permutation_tables(where):
    """Rekey tables moving bit ``b`` to ``where[b]`` (bits past ``where``
    kept): byte ``i``'s value ``v`` to the image of its bits."""
    images = list(where) + list(range(len(where), 56))
    tables = np.zeros((7, 256), np.uint64)
    for i in range(7):
        for v in range(256):
            tables[i, v] = sum(1 << images[8 * i + t] for t in range(8) if v >> t & 1)
    return tables


@settings(max_examples=30, deadline=None)
@given(real=st.integers(14, 54), seed=st.integers(0, 2**32 - 1))
def test_rekey_looks_up_the_bytes_of_real_bits_alike(real, seed):
    """Looking up only the bytes that hold real bits (5 at least) gives the
    image of all seven, whatever the bits above them hold (the west words'
    classes, bits from 56 on): those bits are kept as they are."""
    rng = np.random.default_rng(seed)
    tables = _permutation_tables(rng.permutation(real))
    words = _words(rng, 2000, real, 0.35, above=True)
    words |= rng.integers(0, 256, len(words), dtype=np.uint64) << np.uint64(56)
    mine, seven = words.copy(), words.copy()
    rekey(mine, 0, len(mine), tables, real)
    rekey(seven, 0, len(seven), tables)
    assert (mine == seven).all()
    low = np.uint64((1 << real) - 1)
    assert ((mine & ~low) == (words & ~low)).all()
    popcount = np.vectorize(lambda x: bin(int(x)).count("1"))
    assert (popcount(mine & low) == popcount(words & low)).all()


def test_few_pairs_keep_the_layouts_keys():
    east, west = _planted(2, count=20_000)
    tables = np.zeros((7, 256), np.uint64)
    assert not key_tables(east, len(east), west, 100, 40, tables)
    assert not tables.any()
    # Sampled every 200th word a side, the same words stand for a row set
    # with enough pairs.
    assert key_tables(east, len(east), west, 100, 40, tables, 200)
    tables[:] = 0
    P, Q = east.copy(), west[:100].copy()
    assert not rekey_sides(P, len(P), Q, len(Q), 40, tables)
    assert (P == east).all() and (Q == west[:100]).all()


@settings(max_examples=40, deadline=None)
@given(
    real=st.integers(14, 44),
    east=st.integers(1, 4000),
    west=st.tuples(*[st.integers(0, 900)] * 4),
    share=st.floats(0.05, 0.5),
    seed=st.integers(0, 2**32 - 1),
)
def test_packed_buckets_count_every_disjoint_pair(real, east, west, share, seed):
    # Buckets follow each other without padding: a group holds the ends of
    # several, each visit masked to the lanes of the buckets a word may meet.
    # Sparse words make many small buckets, dense ones few.
    rng = np.random.default_rng(seed)
    e = _words(rng, east, real, share)
    w = _words(rng, sum(west), real, share, above=True)
    qb = np.cumsum((0,) + west)
    weights = (1, 2, 4, 8)
    assert _count(e, w, qb, weights, real) == _by_pairs(e, w, qb, weights, real)


@pytest.mark.parametrize(
    ("features", "lanes"),
    [("+avx2,+popcnt,-avx512f", 4), ("+avx2,+avx512f,+avx512vpopcntdq", 8), ("+avx512f", 4)],
)
def test_vector_lanes_follow_numbas_target(features, lanes):
    # Read when numba is configured (at import): a fresh interpreter.
    import os
    import subprocess
    import sys

    env = dict(os.environ, NUMBA_CPU_FEATURES=features)
    code = "from parqueens.join import match, simd; print(simd.LANES, match._GP)"
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    assert out.stdout.split() == [str(lanes), str(64 * lanes)], out.stderr


@pytest.mark.parametrize("real", [14, 30])
def test_counting_leaves_both_sides_as_they_were(real):
    # A west class larger than the east side makes the tables; its groups
    # read past its end (the next class's words, masked out) but write
    # nothing there: a row set's west words are counted against several
    # east blocks (padding written there once changed 512 of them).
    rng = np.random.default_rng(real)
    east = _words(rng, 1050, real, 0.3)
    qb = np.array((0, 1100, 1700, 1700, 1700))
    west = _words(rng, 1700, real, 0.3, above=True)
    weights = np.array((1, 2, 4, 8))
    P, Q, ws = workspace(len(east), len(west))
    P[: len(east)] = east
    Q[: len(west)] = west
    expected = _by_pairs(east, west, qb, weights, real)
    for _ in range(2):
        assert count_sides(P, len(east), Q, qb, weights, real, ws) == expected > 0
    assert (P[: len(east)] == east).all() and (Q[: len(west)] == west).all()


def test_vector_buffers_start_on_a_cache_line():
    """The sorted words, chunk tables, bit planes and lane masks are read
    as vectors of up to 64 bytes: each starts on a 64-byte boundary
    (numba's arrays on 32 only, where a vector read across two cache lines
    made the visits up to twice as slow), whatever the sizes asked for."""
    vectors = (0, 1, 2, 3, 10)
    for east, west in [(1, 1), (100, 3), (1000, 2000), (4097, 12345), (65536, 7)]:
        for _ in range(4):
            _, _, ws = workspace(east, west)
            assert [ws[k].ctypes.data % 64 for k in vectors] == [0] * len(vectors)
            assert len(ws[0]) == max(east, west) + PAD_WORDS


@pytest.mark.parametrize(("nb", "sub"), [(8, 4), (1024, 4), (1024, 1000), (4096, 16)])
def test_a_sample_keeps_whole_buckets(nb, sub):
    # The words of a kept bucket stay together (their set-up per window is
    # paid as in the count), the others' bounds are empty; at least SAMPLE_BUCKETS of
    # the buckets holding words are kept; the scale is those held over kept.
    rng = np.random.default_rng(nb + sub)
    sizes = rng.integers(0, 5, 4 * nb) * rng.integers(0, 2, 4 * nb)
    cq = np.concatenate(([0], np.cumsum(sizes))).astype(np.int64)
    items = np.arange(cq[-1], dtype=np.uint64)
    bounds = cq.copy()
    tables = np.concatenate(([0], np.cumsum(rng.integers(1, 9, nb)))).astype(np.int64)
    meets = np.empty(nb, np.int64)
    out, scale = _thin(items, cq, tables, nb, sub, 7, np.empty_like(items), meets)
    full = kept = 0
    at = 0
    for i in range(nb):
        lo, hi = 4 * i, 4 * i + 4
        had = bounds[hi] > bounds[lo]
        full += had
        if cq[hi] > cq[lo]:
            kept += 1
            for j in range(lo, hi):
                assert (out[cq[j] : cq[j + 1]] == items[bounds[j] : bounds[j + 1]]).all()
        assert cq[lo] == at and all(cq[j] <= cq[j + 1] for j in range(lo, hi))
        at = cq[hi]
    thinned = max(1, min(sub, full // SAMPLE_BUCKETS))
    assert kept == full if thinned == 1 else full / thinned / 2 <= kept < full
    # the pairs a bucket may meet: its words times the table words of the
    # buckets whose keys are disjoint from its own
    share = (
        [
            (bounds[4 * i + 4] - bounds[4 * i])
            * sum(int(tables[j + 1] - tables[j]) for j in range(nb) if i & j == 0)
            for i in range(nb)
        ]
        if nb <= 1024
        else None
    )
    if share is not None:
        held = sum(share[i] for i in range(nb) if cq[4 * i + 4] > cq[4 * i])
        assert scale == pytest.approx(sum(share) / held)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_sampled_count_scaled_is_near_the_count(seed):
    # A sample's pairs, scaled as its visits' cycles are, come near the
    # count's (the buckets are kept by a hash of their keys, none favoured).
    rng = np.random.default_rng(seed)
    real = 40
    east = _words(rng, 200_000, real, 0.3)
    west = _words(rng, 50_000, real, 0.3, above=True)
    qb = np.array((0, 50_000, 50_000, 50_000, 50_000))
    weights = np.array((1, 0, 0, 0))
    P, Q, ws = workspace(len(east), len(west))
    P[: len(east)] = east
    Q[: len(west)] = west
    expected = count_sides(P, len(east), Q, qb, weights, real, ws)
    whole = [int(c) for c in visit_cycles(ws)]
    assert whole[0] == whole[1] > 0
    sampled = count_sides(P, len(east), Q, qb, weights, real, ws, 4)
    scaled, spent = (int(c) - w for c, w in zip(visit_cycles(ws), whole, strict=True))
    assert 0 < spent < scaled
    assert 0.85 < sampled * scaled / spent / expected < 1.15
