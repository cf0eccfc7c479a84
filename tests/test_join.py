"""The quadrant-join counter: totals against OEIS A000170, and every work
unit against the plain search kernel restricted to the unit's row sets.

The unit oracle re-derives a unit's row sets and weights from the rules in
:mod:`parqueens.join` (not from its code) and counts each row set's
solutions with :func:`parqueens.search.kernels.count_batch`, one allowed-columns
mask per row: the east half for the rows of the set, the west half for
the others.
"""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from parqueens.join.units import (
    JoinUnit,
    count_join,
    count_join_units,
    join_estimate,
    join_memory,
    join_units,
)
from parqueens.methods import join_serves as serves
from parqueens.names import JOIN_MAX_N, JOIN_MIN_N
from parqueens.search.kernels import count_batch

from naive import A000170


@pytest.mark.parametrize("n", range(JOIN_MIN_N, 16))
def test_totals_match_oeis(n):
    assert count_join(n) == A000170[n]


def test_two_threads_give_the_total():
    assert count_join(14, jobs=2) == A000170[14]


def test_range():
    assert serves(JOIN_MIN_N) and serves(JOIN_MAX_N)
    assert not serves(JOIN_MIN_N - 1) and not serves(JOIN_MAX_N + 1)
    for n in (JOIN_MIN_N - 1, JOIN_MAX_N + 1):
        with pytest.raises(ValueError):
            join_units(n)
    with pytest.raises(TypeError):
        join_units(12.0)


@pytest.mark.parametrize("n", [12, 13])
def test_unit_ids_are_stable_and_unique(n):
    first = join_units(n)
    second = join_units(n)
    assert [u.id for u in first] == [u.id for u in second]
    assert len({u.id for u in first}) == len(first)
    assert all(u.id.startswith(f"join/{n}/") for u in first)
    assert first[0].work >= first[-1].work > 0


def test_foreign_units_are_refused():
    unit = join_units(10)[0]
    with pytest.raises(ValueError, match="not a join unit"):
        count_join_units(12, [unit])
    with pytest.raises(ValueError, match="not a join unit"):
        count_join_units(10, [JoinUnit(10, "c", 0)])
    with pytest.raises(ValueError, match="not a join unit"):
        count_join_units(10, [JoinUnit(10, "e", 1 << 5)])


def test_stop_flag_returns_early():
    units = join_units(15)
    stop = np.ones(1, np.uint8)
    assert count_join_units(15, units, stop) == [0] * len(units)


# ---------------------------------------------------------------- the unit oracle


def _lowbit(x):
    return x & -x


def _rowsets(n, unit):
    """``(east rows, weight, fixed queens, removed row)`` of a unit's row
    sets, from the rules of :mod:`parqueens.join`; the even-n weight is the
    pair ``(up, east_west)``."""
    h = n // 2
    full = (1 << h) - 1
    a = unit.rows
    if unit.config == "e":
        queens, gone_row, east_count = (), None, h
    elif unit.config == "c":
        queens, gone_row, east_count = ((h, h),), None, h
    else:
        dc, dr = map(int, unit.config.split("."))
        queens, gone_row, east_count = ((h, h + dc), (h + dr, h)), h + dr, h - 1
    out = []
    for b in range(1 << h):
        if bin(a).count("1") + bin(b).count("1") != east_count:
            continue
        rows = {i for i in range(h) if a >> i & 1} | {n - 1 - i for i in range(h) if b >> i & 1}
        if gone_row in rows:
            continue
        if unit.config == "dc.dr" or len(queens) == 2:
            out.append((rows, 8, queens))
            continue
        if b < a:
            continue
        up = 2 if b > a else 1
        same = ~(a ^ b) & full
        east_west = 1 if same == 0 else (2 if a & _lowbit(same) else 0)
        out.append((rows, (up, east_west) if unit.config == "e" else up * east_west, queens))
    return out


def _masks(n, rows, queens, east_avoid=(), west_avoid=()):
    """Allowed columns per row: the placed queens' squares, the east half for
    ``rows``, the west half for the others (the middle column excluded for
    odd n), without the squares listed per row in ``east_avoid`` /
    ``west_avoid`` (functions of the row)."""
    h = n // 2
    west = (1 << h) - 1
    east = ((1 << n) - 1) ^ ((1 << (n - h)) - 1)
    allowed = np.zeros(n, np.uint64)
    placed = dict(queens)
    for r in range(n):
        if r in placed:
            allowed[r] = 1 << placed[r]
            continue
        mask = east if r in rows else west
        for square in east_avoid if r in rows else west_avoid:
            mask &= ~(1 << square(r))
        allowed[r] = mask & ~sum(1 << c for c in placed.values())
    return allowed


def _main(r):
    return r


def _anti_of(n):
    return lambda r: n - 1 - r


def _oracle(n, units):
    """Each unit's weighted count, by the plain kernel on every row set."""
    anti = _anti_of(n)
    masks, plan = [], []
    for u in units:
        terms = []
        for rows, weight, queens in _rowsets(n, u):
            if u.config == "e":
                # No east queen on a long diagonal; then by the west's
                # long-diagonal queens: 4X - 2Y_main - 2Y_anti + sec Y_both,
                # the counts X with no west restriction, Y_d without the
                # west squares of diagonal d.
                up, sec = weight
                avoid = (_main, anti)
                for west_avoid, coeff in (((), 4), ((_main,), -2), ((anti,), -2), (avoid, sec)):
                    terms.append((len(masks), up * coeff))
                    masks.append(_masks(n, rows, queens, avoid, west_avoid))
            else:
                terms.append((len(masks), weight))
                masks.append(_masks(n, rows, queens))
        plan.append(terms)
    allowed = np.array(masks, np.uint64).reshape(-1, n)
    counts, _ = count_batch(
        n, allowed, np.zeros(len(allowed), np.int64), np.zeros((len(allowed), 3), np.int64), None
    )
    return [sum(coeff * int(counts[i]) for i, coeff in terms) for terms in plan]


@pytest.mark.parametrize("n", [8, 9, 10, 11, 12])
def test_every_unit_matches_the_plain_kernel(n):
    units = join_units(n)
    assert count_join_units(n, units) == _oracle(n, units)


@settings(max_examples=15)
@given(n=st.sampled_from([13, 14, 15]), pick=st.integers(0, 10**6))
def test_random_units_match_the_plain_kernel(n, pick):
    units = join_units(n)
    unit = units[pick % len(units)]
    assert count_join_units(n, [unit]) == _oracle(n, [unit])


def test_memory_estimate_grows_and_fits_the_bound():
    sizes = [join_memory(n) for n in range(12, JOIN_MAX_N + 1)]
    assert all(m > 100 * 2**20 for m in sizes)
    assert join_memory(20) > join_memory(18) > join_memory(16)
    assert join_memory(18, jobs=2) > join_memory(18, jobs=1)
    assert join_memory(20, jobs=2) <= 2**30  # the bound of issue 21 through n = 20
    with pytest.raises(ValueError):
        join_memory(18, jobs=0)


def test_time_estimate(monkeypatch):
    import parqueens.join.units as join_units_module

    units = join_units(14)
    monkeypatch.setattr(join_units_module, "_free_cores", lambda: 2.0)
    one = join_estimate(14, 1, units)
    assert 0 < join_estimate(14, 2, units) < one < 10
    assert join_estimate(14) > one  # the plan made and timed too
    # two jobs on a machine whose other core is busy share one core
    monkeypatch.setattr(join_units_module, "_free_cores", lambda: 1.0)
    assert join_estimate(14, 2, units) == one


def test_the_package_names_what_its_units_module_exports():
    # parqueens.join lists join/units.py's names without importing it (its
    # kernels load on first use): the two lists must stay one.
    import parqueens.join
    import parqueens.join.units

    assert parqueens.join.__all__ == parqueens.join.units.__all__
    assert all(
        getattr(parqueens.join, n) is getattr(parqueens.join.units, n)
        for n in parqueens.join.__all__
    )
