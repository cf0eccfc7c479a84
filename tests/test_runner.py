"""Counts against OEIS, the brute-force oracle, and each other."""

import joblib
import pytest

import parqueens
from parqueens.backends import plan_jobs
from parqueens.runner import run_count

from naive import A000170, A002562, classes, solutions

METHODS = ["d4", "mirror", "plain"]


@pytest.mark.parametrize("n", range(0, 16))
def test_total_matches_oeis_a000170(n):
    assert parqueens.count(n, jobs=1) == A000170[n]


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("n", range(0, 14))
def test_every_method_matches_oeis(method, n):
    r = run_count(n, unique=True, method=method, jobs=1)
    assert r.total == A000170[n]
    assert r.fundamental == A002562[n]


@pytest.mark.parametrize("n", [14, 15])
def test_methods_agree_on_larger_n(n):
    totals = {m: parqueens.count(n, method=m, jobs=1) for m in ["d4", "mirror"]}
    assert totals == {"d4": A000170[n], "mirror": A000170[n]}


@pytest.mark.parametrize("n", range(0, 10))
def test_brute_force_oracle(n):
    brute = classes(n)
    r = parqueens.count_unique(n, jobs=1)
    assert r.total == len(solutions(n)) == sum(brute.values())
    assert r.fundamental == len(brute)
    for size in (8, 4, 2, 1):
        assert r.orbits[size] == sum(1 for s in brute.values() if s == size)


def test_orbit_breakdown_n8():
    r = parqueens.count_unique(8, jobs=1)
    assert r.orbits == {8: 11, 4: 1, 2: 0, 1: 0}


@pytest.mark.parametrize("n", range(1, 16))
def test_orbit_identity(n):
    r = parqueens.count_unique(n, jobs=1)
    o = r.orbits
    assert r.total == 8 * o[8] + 4 * o[4] + 2 * o[2] + o[1]
    assert r.fundamental == o[8] + o[4] + o[2] + o[1]
    if n > 1:
        assert o[1] == 0


@pytest.mark.parametrize("method", METHODS)
def test_same_result_for_any_jobs_and_depth(method):
    n = 11
    results = set()
    cores = joblib.cpu_count()
    for jobs in (1, 2, 4):
        for depth in (2, 3, 5):
            r = run_count(n, unique=True, method=method, jobs=jobs, split_depth=depth)
            assert r.jobs == min(jobs, cores) and r.split_depth == depth
            results.add((r.total, r.fundamental, tuple(r.orbits.items())))
    assert results == {(2680, 341, ((8, 329), (4, 12), (2, 0), (1, 0)))}


def test_n16_once_in_parallel():
    r = run_count(16, unique=True, jobs=2)
    assert (r.total, r.fundamental) == (A000170[16], A002562[16])
    assert r.orbits == {8: 1846189, 4: 734, 2: 32, 1: 0}
    assert r.units >= 64 * 2 and r.jobs == 2


def test_no_state_leaks_between_calls():
    assert [parqueens.count(4, jobs=1), parqueens.count(1, jobs=1), parqueens.count(4, jobs=1)] == [
        2,
        1,
        2,
    ]
    assert [parqueens.count(10, jobs=2), parqueens.count(6, jobs=2)] == [724, 4]


def test_auto_depth_gives_many_units_per_job():
    import joblib

    cores = joblib.cpu_count()
    for jobs in (1, 2, 8, 1000):
        r = run_count(13, jobs=jobs)
        # the jobs that ran: no more than the cores; the split sized on them
        assert r.jobs == min(jobs, cores)
        assert r.units >= 64 * r.jobs
    assert run_count(13, jobs=1000).units == run_count(13, jobs=cores).units
    # small boards run in-process by default
    assert run_count(10).jobs == 1
    # no more jobs than work units
    assert run_count(5, jobs=2, split_depth=1).jobs == 2
    assert run_count(4, method="plain", jobs=2, split_depth=1).units == 4


def test_nodes_full_tree_n8():
    # every placement of the full tree of n = 8 (no look-ahead pruning could
    # make it larger); the pruned search visits fewer, but at least one per
    # solution row
    r = run_count(8, method="plain", jobs=1, split_depth=1, nodes=True)
    assert 8 * 92 <= r.nodes <= 2056
    assert run_count(8, method="plain", jobs=1, split_depth=1).nodes is None


@pytest.mark.parametrize("bad", [-1, 65, 8.5, "8", True, None])
def test_invalid_n_raises(bad):
    with pytest.raises((ValueError, TypeError)):
        parqueens.count(bad)


def test_invalid_arguments():
    with pytest.raises(ValueError, match="jobs must not be 0"):
        parqueens.count(8, jobs=0)
    with pytest.raises(ValueError, match="leaves no core"):
        plan_jobs(-1000)
    with pytest.raises(ValueError, match="unknown method"):
        parqueens.count(8, method="fast")
    with pytest.raises(ValueError, match="split depth"):
        parqueens.count(8, split_depth=9)
    with pytest.raises(ValueError, match="split depth"):
        parqueens.count(8, method="d4", split_depth=0)
    with pytest.raises(TypeError):
        parqueens.count(8, jobs=1.5)
    from parqueens.runner import run_count

    with pytest.raises(ValueError, match="unknown backend"):
        run_count(8, backend="foo")
    assert run_count(9, backend="loky", jobs=1).total == run_count(9, backend="threads").total


def test_negative_jobs_like_joblib():
    import joblib

    cores = joblib.cpu_count()
    assert plan_jobs(-1) == cores
    assert plan_jobs(None) == cores
    assert plan_jobs(None, n=14) == 1  # small boards: in this thread
    assert plan_jobs(3) == min(3, cores)
    assert plan_jobs(1) == 1
    with pytest.raises(ValueError, match="between -4096 and 4096"):
        plan_jobs(5000)
