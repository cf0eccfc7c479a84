"""The explicit construction and the O(n) check, against brute force."""

from itertools import permutations, product

import numpy as np
import pytest

from parqueens.construction import construct, is_solution

import naive


def _distinct(values):
    # sorted, no two neighbours equal (np.unique takes 20 times as long on 10**6 values)
    s = np.sort(values)
    return bool(np.all(s[1:] != s[:-1]))


def _valid(q):
    # independent of is_solution: sorting instead of bincount
    n = len(q)
    rows = np.arange(n)
    return np.array_equal(np.sort(q), rows) and _distinct(rows - q) and _distinct(rows + q)


def test_construct_every_n_to_2000():
    for n in [1, *range(4, 2001)]:
        q = construct(n)
        assert q.dtype == np.int64 and q.shape == (n,), n
        assert _valid(q), n
        assert is_solution(q), n


def test_construct_million():
    q = construct(10**6)
    assert q.shape == (10**6,) and _valid(q)


def test_construct_small_is_a_real_solution():
    for n in [1, 4, 5, 6, 7, 8]:
        assert tuple(construct(n).tolist()) in set(naive.solutions(n))


def test_construct_zero_is_empty():
    q = construct(0)
    assert q.shape == (0,) and q.dtype == np.int64


@pytest.mark.parametrize("n", [2, 3])
def test_construct_refuses_2_and_3(n):
    from parqueens import NoSolution

    # README: NoSolution is a ValueError, caught as one.
    with pytest.raises(ValueError, match=f"^no solution for n = {n}$") as caught:
        construct(n)
    assert type(caught.value) is NoSolution


@pytest.mark.parametrize(
    "bad, exc",
    [(-1, ValueError), (True, TypeError), (4.0, TypeError), ("8", TypeError), (None, TypeError)],
)
def test_construct_rejects_bad_n(bad, exc):
    with pytest.raises(exc):
        construct(bad)


def test_construct_accepts_numpy_int():
    assert is_solution(construct(np.int32(9)))


@pytest.mark.parametrize("n", range(0, 7))
def test_is_solution_matches_brute_force_on_all_permutations(n):
    for p in permutations(range(n)):
        assert is_solution(p) == naive.is_solution(p), p
        assert is_solution(np.array(p, dtype=np.int64)) == naive.is_solution(p), p


def test_is_solution_non_permutations_are_false():
    for p in product(range(-1, 5), repeat=4):
        expected = naive.is_solution(p)
        assert is_solution(p) == expected, p
        assert is_solution(list(p)) == expected, p


@pytest.mark.parametrize(
    "q",
    [
        (0, 0, 0, 0),  # same column
        (1, 3, 0, 0),  # repeated column
        (0, 1, 2, 3),  # all on one diagonal
        (3, 2, 1, 0),  # all on one anti-diagonal
        (1, 3, 0, 4),  # column out of range
        (-1, 1, 3, 0),  # negative column
        (2, 0, 1, 3),  # a permutation with a diagonal clash
        (0, 1),
        (0, 1, 2),
    ],
)
def test_is_solution_false(q):
    assert not is_solution(q)
    assert not is_solution(np.array(q))


def test_is_solution_true_and_dtypes():
    assert is_solution([])
    assert is_solution(())
    assert is_solution(np.array([], dtype=float))  # the empty placement
    assert is_solution([0])
    assert is_solution((1, 3, 0, 2))
    for dt in (np.uint8, np.int8, np.uint16, np.int32, np.uint64, np.int64):
        assert is_solution(np.array([2, 0, 3, 1], dtype=dt))
    assert is_solution([np.int64(1), np.uint8(3), 0, 2])
    assert is_solution(range(0))


def test_is_solution_large_values_are_false():
    assert not is_solution(np.array([2**64 - 1, 0, 3, 1], dtype=np.uint64))
    assert not is_solution([2**70, 0, 3, 1])
    assert not is_solution([-(2**70), 0, 3, 1])


@pytest.mark.parametrize(
    "bad, exc",
    [
        ([0.0, 1.0], TypeError),
        (np.array([1.0, 3.0, 0.0, 2.0]), TypeError),
        ([True, False], TypeError),
        (np.array([True]), TypeError),
        ("0123", TypeError),
        ([None], TypeError),
        ([[0]], ValueError),
        (np.zeros((2, 2), dtype=int), ValueError),
        (np.int64(3), TypeError),
        (np.array(3), ValueError),
        (None, TypeError),
    ],
)
def test_is_solution_bad_input_raises(bad, exc):
    with pytest.raises(exc):
        is_solution(bad)


def test_package_names_the_function_and_its_exception():
    # The module is parqueens.construction, so importing it binds no package
    # attribute over the function parqueens.construct.
    import parqueens
    import parqueens.construction  # noqa: F401
    from parqueens import NoSolution

    assert list(parqueens.construct(4)) == [1, 3, 0, 2]
    with pytest.raises(NoSolution):
        parqueens.construct(3)
    assert "NoSolution" in parqueens.__all__ and "NoSolution" in dir(parqueens)
