"""The oracle itself (tests/naive.py): its solutions are the permutations
that no diagonal attacks, and as many as OEIS lists."""

import pytest

import naive


@pytest.mark.parametrize("n", range(0, 9))
def test_solutions_are_the_permutations_without_a_shared_diagonal(n):
    assert naive.solutions(n) == naive.permutation_solutions(n)


@pytest.mark.parametrize("n", range(0, 11))
def test_solutions_match_oeis(n):
    sols = naive.solutions(n)
    assert len(sols) == len(set(sols)) == naive.A000170[n]
    assert len(naive.classes(n)) == naive.A002562[n]
    assert all(naive.is_solution(s) for s in sols) and list(sols) == sorted(sols)
