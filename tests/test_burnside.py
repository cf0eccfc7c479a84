"""Solutions fixed by the rotations, and the classes from a total (Burnside)."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import parqueens
from parqueens.join.burnside import (
    MAX_SYMMETRIC_N,
    _count_half_turn,
    _count_quarter_turn,
    count_half_turn,
    count_quarter_turn,
    orbits_from_counts,
)
from parqueens.oeis import KNOWN

from naive import A032522, A033148, fixed_solutions, images, solutions, turn

# Published values served within about a second (A032522 n = 25: 1.1 s;
# 26 and 27 take 6 and 12 s, checked once: docs/performance.md);
# every A033148 term up to the largest board served takes less than that.
PUBLISHED_P = range(0, 26)


@pytest.mark.parametrize("n", range(0, 13))
def test_half_turn_brute_force(n):
    assert count_half_turn(n) == len(fixed_solutions(n, 2))


@pytest.mark.parametrize("n", range(0, 13))
def test_quarter_turn_brute_force(n):
    assert count_quarter_turn(n) == len(fixed_solutions(n, 1))


@pytest.mark.parametrize("n", range(0, 9))
def test_oracle_is_naive_solutions_turned(n):
    """The oracle of fixed solutions is exactly the brute-force solutions
    that equal their turned image (and turn gives images of the solution)."""
    sols = solutions(n)
    for s in sols:
        assert {turn(s, k) for k in range(4)} <= set(images(s))
    for times in (1, 2):
        assert fixed_solutions(n, times) == tuple(s for s in sols if turn(s, times) == s)


@pytest.mark.parametrize("n", PUBLISHED_P)
def test_half_turn_oeis_a032522(n):
    assert count_half_turn(n) == A032522[n]


@pytest.mark.parametrize("n", range(0, MAX_SYMMETRIC_N + 1))
def test_quarter_turn_oeis_a033148(n):
    assert count_quarter_turn(n) == A033148[n]


@pytest.mark.parametrize("n", range(4, 15))
def test_mirror_halves_count_alike(n):
    """The first queens placed (half turn: the row above the middle; quarter
    turn: row 0) count as many in the right half as in the left (the
    doubling in count_half_turn and count_quarter_turn)."""
    left = (1 << (n // 2)) - 1
    right = ((1 << n) - 1) & ~left & ~(1 << (n // 2) if n % 2 else 0)
    left, right = np.uint64(left), np.uint64(right)
    assert _count_half_turn(n, left) == _count_half_turn(n, right)
    if n % 4 in (0, 1):
        assert _count_quarter_turn(n, left) == _count_quarter_turn(n, right)


@pytest.mark.parametrize("n", range(0, 14))
def test_orbits_agree_with_d4_classification(n):
    want = parqueens.count_unique(n)
    got = orbits_from_counts(n, want.total, count_half_turn(n), count_quarter_turn(n))
    assert got == want.orbits
    assert sum(got.values()) == want.fundamental


@pytest.mark.parametrize("n", sorted(KNOWN))
def test_published_counts_give_a002562(n):
    """Burnside's formula on the published A000170, A032522 and A033148
    gives the published A002562 (n = 0..27)."""
    total, fundamental = KNOWN[n]
    orbits = orbits_from_counts(n, total, A032522[n], A033148[n])
    assert sum(orbits.values()) == fundamental
    assert sum(size * k for size, k in orbits.items()) == total


@pytest.mark.parametrize(
    "n, total, p, r",
    [
        (8, 91, 4, 0),  # a remainder in (Q - P) / 8
        (8, 92, 6, 0),  # in (P - R) / 4
        (12, 14200, 80, 6),  # R / 2 is fine, (P - R) / 4 is not
        (12, 14200, 78, 6),  # R / 2 is fine, (P - R) / 4 too, (Q - P) / 8 is not
        (8, 4, 12, 0),  # more fixed by the half turn than solutions
        (6, 4, 4, 4),  # fixed by the quarter turn with n = 2 mod 4
        (7, 40, 8, 16),  # more fixed by the quarter turn than the half turn
        (1, 1, 1, 0),  # the single queen is fixed by everything
        (0, 2, 2, 2),
    ],
)
def test_wrong_counts_are_an_internal_error(n, total, p, r):
    with pytest.raises(RuntimeError, match=rf"n = {n}\b.*{total}.*{p}.*{r}"):
        orbits_from_counts(n, total, p, r)


@given(
    a=st.integers(0, 10**30),
    b=st.integers(0, 10**20),
    c=st.integers(0, 10**10),
    n=st.integers(2, 100),
    wrong=st.integers(1, 7),
)
def test_orbits_round_trip(a, b, c, n, wrong):
    """Counts made from classes give those classes back (exact, beyond any
    float); a total off by less than an orbit of 8 is refused."""
    if n % 4 in (2, 3):
        c = 0
    q, p, r = 8 * a + 4 * b + 2 * c, 4 * b + 2 * c, 2 * c
    assert orbits_from_counts(n, q, p, r) == {8: a, 4: b, 2: c, 1: 0}
    with pytest.raises(RuntimeError):
        orbits_from_counts(n, q + wrong, p, r)


@pytest.mark.parametrize("bad", [-1, MAX_SYMMETRIC_N + 1, 8.0, "8", True, None])
@pytest.mark.parametrize("count", [count_half_turn, count_quarter_turn])
def test_invalid_n_raises(count, bad):
    kind = ValueError if isinstance(bad, int) and not isinstance(bad, bool) else TypeError
    with pytest.raises(kind):
        count(bad)


@pytest.mark.parametrize(
    "args, kind, words",
    [
        ((8, -92, 4, 0), ValueError, "total must be >= 0"),
        ((8, 92, -4, 0), ValueError, "half_turn must be >= 0"),
        ((8, 92, 4, 1.0), TypeError, "quarter_turn must be an integer"),
        ((True, 92, 4, 0), TypeError, "n must be an integer"),
        ((-1, 92, 4, 0), ValueError, "n must be >= 0"),
    ],
)
def test_orbits_from_counts_checks_its_arguments(args, kind, words):
    with pytest.raises(kind, match=words):
        orbits_from_counts(*args)
