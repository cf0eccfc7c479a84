"""Work units (parqueens.search.units): how many, which weights, stable ids, correct
constraints; fixed queens prune the units while they are built (listings and
counts agree, the split depth grows past the fixed rows, nothing is built
only to be thrown away)."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import parqueens
from parqueens import construct, run_count
from parqueens.run.chunks import run_chunk, search_specs
from parqueens.search import units as units_module
from parqueens.search.units import auto_depth, d4_order, iter_units, make_units

from naive import A000170, classes, solutions


def _prefixes(n, depth):
    return {s[:depth] for s in _all_partials(n, depth)}


def _all_partials(n, depth):
    from itertools import permutations

    for p in permutations(range(n), depth):
        if all(abs(p[i] - p[j]) != i - j for i in range(depth) for j in range(i)):
            yield p


@pytest.mark.parametrize("n,depth", [(6, 1), (7, 2), (8, 3), (9, 2)])
def test_plain_units_are_all_prefixes(n, depth):
    units = make_units(n, "plain", depth)
    assert {u.prefix for u in units} == _prefixes(n, depth)
    assert all(u.weight == 1 for u in units)


@pytest.mark.parametrize("n,depth", [(8, 1), (8, 2), (9, 1), (9, 3)])
def test_mirror_units_cover_left_half(n, depth):
    units = make_units(n, "mirror", depth)
    mid = n // 2
    expected = {
        p
        for p in _prefixes(n, depth)
        if p[0] < mid or (n % 2 and p[0] == mid and (depth < 2 or p[1] < mid))
    }
    assert {u.prefix for u in units} == expected
    assert all(u.weight == 2 for u in units)


def test_unit_counts_n8():
    assert len(make_units(8, "plain", 1)) == 8
    assert len(make_units(8, "mirror", 1)) == 4
    assert len(make_units(8, "plain", 2)) == 42  # 8*8 minus columns and diagonals


@pytest.mark.parametrize("method", ["plain", "mirror", "d4"])
def test_ids_stable_and_unique(method):
    a = make_units(10, method, 3)
    b = make_units(10, method, 3)
    assert [u.id for u in a] == [u.id for u in b]
    assert len({u.id for u in a}) == len(a)
    assert a[0].id.startswith(f"{method}/10/")
    if method == "d4":  # narrow last rows are split by their queen
        split = [u for u in a if u.last is not None]
        assert split and all(u.id.endswith(f";9:{u.last}") for u in split)


@pytest.mark.parametrize("method", ["plain", "mirror"])
def test_each_unit_counts_its_own_solutions(method):
    n = 8
    sols = solutions(n)
    for unit in make_units(n, method, 2):
        (res,) = run_chunk([unit], unique=False)
        assert res.solutions == sum(1 for s in sols if s[:2] == unit.prefix)


def test_d4_units_find_each_class_once():
    n = 9
    results = run_chunk(make_units(n, "d4", 3), unique=True)
    weighted = sum(8 * r.by_stab[0] + 4 * r.by_stab[1] + 2 * r.by_stab[2] for r in results)
    assert weighted == A000170[n]


def _d4_orbits(n, depth, order=None, lexicographic=False):
    specs = [
        spec for _, spec in iter_units(n, "d4", depth, lexicographic=lexicographic, order=order)
    ]
    _, by_stab, nodes = search_specs(n, specs, nodes=True)
    by_stab = by_stab.sum(axis=0)
    return {8: int(by_stab[0]), 4: int(by_stab[1]), 2: int(by_stab[2])}, int(nodes.sum())


def _naive_orbits(n):
    sizes = list(classes(n).values())
    return {k: sizes.count(k) for k in (8, 4, 2)}


@pytest.mark.parametrize("n", range(4, 11))
def test_d4_orders(n):
    h = (n - 1) // 2
    fast = d4_order(n)
    assert sorted(fast) == list(range(h + 1)) and fast[-1] == 0
    assert d4_order(n, lexicographic=True) == tuple(range(h + 1))
    expected = _naive_orbits(n)
    assert _d4_orbits(n, 1)[0] == expected
    assert _d4_orbits(n, 2, lexicographic=True)[0] == expected


@settings(max_examples=40)
@given(st.integers(4, 10), st.randoms(use_true_random=False), st.integers(2, 3))
def test_d4_any_ranking_counts_each_class_once(n, rnd, depth):
    # The representative depends on the ranking of border distances; the
    # classes found and their orbit sizes must not.
    order = list(range((n - 1) // 2 + 1))
    rnd.shuffle(order)
    assert _d4_orbits(n, depth, order=tuple(order))[0] == _naive_orbits(n)


def test_d4_counting_order_visits_fewer_nodes():
    # The reason for the counting order (measured 0.70 at n = 12, 0.73 at 15).
    fast = _d4_orbits(12, 2)[1]
    lex = _d4_orbits(12, 2, lexicographic=True)[1]
    assert fast < 0.8 * lex


def test_d4_lexicographic_finds_canonical_forms():
    from parqueens.run.listing import solutions as list_solutions

    n = 9
    listed = [tuple(int(c) for c in q) for q in list_solutions(n, unique=True)]
    assert listed == sorted(classes(n))


def test_auto_depth():
    assert auto_depth(16, "mirror", 1) == 3
    assert auto_depth(16, "d4", 2) >= 2
    assert auto_depth(5, "plain", 64) == 2  # stops at n - 3 for small boards


@pytest.mark.parametrize("bad", [("x", 2), ("d4", 0), ("plain", 0), ("plain", 9)])
def test_make_units_rejects(bad):
    method, depth = bad
    with pytest.raises(ValueError):
        make_units(8, method, depth)


def test_work_shares_follow_the_nodes():
    from parqueens.search.units import work_shares

    units = make_units(14, "d4", 2)
    shares = work_shares(units)
    assert len(shares) == len(units) and abs(shares.sum() - 1) < 1e-9
    nodes = [r.nodes for r in run_chunk(units, unique=False, nodes=True)]
    k = len(units) // 8  # the largest come first
    assert abs(shares[:k].sum() - sum(nodes[:k]) / sum(nodes)) < 0.1
    assert shares[:k].sum() > 2 * k / len(units)  # far from counting units
    assert work_shares([]).size == 0
    from parqueens.search.units import WorkUnit

    no_room = [WorkUnit(8, "plain", (0, 0)), WorkUnit(8, "plain", (1, 1))]
    assert list(work_shares(no_room)) == [0.5, 0.5]


@st.composite
def fixed_boards(draw):
    """A board size and fixed queens taken from a known solution (so at least
    one completion exists), many rows, sometimes with one queen moved."""
    n = draw(st.integers(8, 24))
    queens = construct(n)
    rows = draw(st.lists(st.integers(0, n - 1), min_size=n // 2, max_size=n - 1, unique=True))
    fixed = [(r, int(queens[r])) for r in rows]
    if draw(st.booleans()):
        i = draw(st.integers(0, len(fixed) - 1))
        fixed[i] = (fixed[i][0], draw(st.integers(0, n - 1)))
    return n, fixed


@given(fixed_boards())
def test_listing_agrees_with_count(board):
    n, fixed = board
    listed = list(parqueens.solutions(n, fixed=fixed, jobs=1))
    assert len(listed) == run_count(n, fixed=fixed, jobs=1).total
    assert listed == sorted(listed)
    for q in listed:
        assert all(q[r] == c for r, c in fixed)
        assert len(set(q)) == n
        assert len({r + c for r, c in enumerate(q)}) == len({r - c for r, c in enumerate(q)}) == n


def test_depth_grows_past_fixed_rows():
    # Two fixed queens at the top used to leave one unit (one core busy).
    r = run_count(16, fixed=[(0, 0), (1, 2)], jobs=2)
    assert r.units >= 128 and r.split_depth > 2 and r.jobs == 2
    assert r.total == run_count(16, fixed=[(0, 0), (1, 2)], jobs=1, split_depth=4).total


def test_units_with_fixed_queens_are_built_pruned(monkeypatch):
    # Half the rows of n = 30 fixed, split 12 rows deep: the prefixes the fixed
    # queens exclude are never built (all of them would be about 10**11); the
    # masks are made only for prefixes the fixed queens allow.
    queens = construct(30)
    fixed = [(r, int(queens[r])) for r in range(0, 30, 2)]
    built = []
    real = units_module.unit_masks

    def counted(unit, *args, **kw):
        built.append(unit.prefix)
        return real(unit, *args, **kw)

    monkeypatch.setattr(units_module, "unit_masks", counted)
    units = make_units(30, "plain", 12, tuple(fixed))
    assert units and all(u.prefix[r] == c for u in units for r, c in fixed if r < 12)
    assert len(built) <= 2 * len(units)  # some are still empty further down
