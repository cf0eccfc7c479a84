"""The join past n = 21: tables per row set, wider words, units of row
sets, sampled estimates and the memory bound.

The row-set kernels serve every board size, so that they are checked here
against A000170 and, unit by unit, against the narrow tables on the sizes
both serve; at n = 23 and 24, where nothing else here counts, row sets are
counted in two block layouts that must agree."""

import collections
import json
import re

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from parqueens.join import rowsets
from parqueens.join.configs import JoinUnit, configs
from parqueens.join.kernels import rowsets_of, subsets
from parqueens.join.match import CHUNK_BITS, CHUNKS_MAX, PREFIX_MAX
from parqueens.join.pieces import PREFIX_WORDS, SE, SW, _prefix_bits, pieces, south_table
from parqueens.join.south import SouthTables
from parqueens.join.units import (
    count_join_units,
    join_estimate,
    join_memory,
    join_sampled_estimate,
    join_units,
)
from parqueens.names import JOIN_MAX_N
from parqueens.run.backends import RunInterrupted
from parqueens.run.runner import run_count
from parqueens.run.store import RunStore

from cli_helpers import assert_one_line_error
from naive import A000170


def _count(n, units):
    return rowsets.count_units(n, units, np.zeros(1, np.uint8))


@pytest.mark.parametrize("n", range(4, 15))
def test_rowset_totals_match_oeis(n):
    assert sum(_count(n, rowsets.plan_units(n))) == A000170[n]


@pytest.mark.parametrize("n", [15, 16])
def test_rowset_totals_of_odd_and_even_boards(n):
    assert sum(_count(n, rowsets.plan_units(n))) == A000170[n]


@pytest.mark.parametrize("n", [13, 14, 15, 16])
def test_rowset_units_match_the_narrow_tables_unit_by_unit(n):
    """Each (configuration, north rows) counts alike by the narrow tables and
    by the tables per row set, its slices summed."""
    narrow = {(u.config, u.rows): c for u, c in zip(join_units(n), _narrow(n), strict=True)}
    wide = collections.Counter()
    units = rowsets.plan_units(n)
    for u, c in zip(units, _count(n, units), strict=True):
        wide[u.config, u.rows] += c
    assert {k: v for k, v in narrow.items() if v} == {k: v for k, v in wide.items() if v}


def _narrow(n):
    return count_join_units(n, join_units(n))


def _pieces_brute_force(h, rows):
    """Placements of an h x h quadrant on exactly ``rows``, pair by pair:
    per column set, the sorted list of their diagonal masks (S, T, rS, rT)
    as :func:`pieces` defines them (queen ``(r, j)``: bits ``r + j``,
    ``r - j + h - 1``, ``2h - 2 - r - j``, ``h - 1 - r + j``)."""
    import itertools

    order = [r for r in range(h) if rows >> r & 1]
    out = collections.defaultdict(list)
    for cols in itertools.permutations(range(h), len(order)):
        squares = list(zip(order, cols, strict=True))
        if all(
            abs(r1 - r2) != abs(c1 - c2)
            for (r1, c1), (r2, c2) in itertools.combinations(squares, 2)
        ):
            masks = [sum(1 << f(r, j) for r, j in squares) for f in _diagonals(h)]
            out[sum(1 << c for c in cols)].append(tuple(masks))
    return {c: sorted(v) for c, v in out.items()}


def _diagonals(h):
    return (
        lambda r, j: r + j,
        lambda r, j: r - j + h - 1,
        lambda r, j: 2 * h - 2 - r - j,
        lambda r, j: h - 1 - r + j,
    )


@pytest.mark.parametrize(
    "h, rows",
    [(4, 0b1011), (5, 0b10110), (6, 0b111111), (6, 0), (7, 0b1010101), (5, 0b100), (8, 0b11011011)],
)
def test_pieces_are_every_placement_of_their_rows(h, rows):
    off, n0, S, T, rS, rT = pieces(h, rows)
    got = {
        c: sorted((int(S[x]), int(T[x]), int(rS[x]), int(rT[x])) for x in range(off[c], off[c + 1]))
        for c in range(1 << h)
        if off[c + 1] > off[c]
    }
    assert got == _pieces_brute_force(h, rows)
    # those off the long diagonal first
    for c in range(1 << h):
        for x in range(off[c], off[c + 1]):
            assert bool(T[x] >> (h - 1) & 1) == (x >= off[c] + n0[c])


def test_slices_of_a_unit_sum_to_the_unit():
    n = 16
    unit = join_units(n)[0]
    whole = _count(n, [JoinUnit(n, unit.config, unit.rows, (0, 1 << 16))])[0]
    parts = [JoinUnit(n, unit.config, unit.rows, (lo, lo + 3)) for lo in range(0, 1 << 8, 3)]
    assert sum(_count(n, parts)) == whole == count_join_units(n, [unit])[0] > 0


def _row_set(n, unit, e, limit, stride=1, clock=None, prefix_words=PREFIX_WORDS):
    stop = np.zeros(1, np.uint8)
    clock = np.zeros(2, np.uint64) if clock is None else clock
    return rowsets._count_unit(
        unit, (e, e + 1), stride, stop, clock, SouthTables(), limit, prefix_words
    )


@pytest.mark.parametrize("n", [18, 19])
def test_blocks_of_any_size_count_alike(n):
    """Half-boards made in blocks of 1,024 words (every east block against
    every west block, made again each time) count as one block does."""
    units = rowsets.plan_units(n)
    rng = np.random.default_rng(n)
    for i in rng.choice(len(units) // 4, 4, replace=False):
        unit = units[int(i)]
        e = unit.rowsets[0] if unit.rowsets else 0
        assert _row_set(n, unit, e, 1024) == _row_set(n, unit, e, rowsets.LIMIT)


@pytest.mark.parametrize("n", [18, 19])
def test_classes_of_the_top_key_bits_count_alike(n):
    """A row set cut into 2**k classes of its top key bits (each east class
    against the west words disjoint from it), k from 1 to PREFIX_MAX, in
    blocks of any size, counts as the row set whole does."""
    units = rowsets.plan_units(n)
    rng = np.random.default_rng(n + 100)
    tried = 0
    for i in rng.permutation(len(units) // 4):
        unit = units[int(i)]
        e = unit.rowsets[0] if unit.rowsets else 0
        whole = _row_set(n, unit, e, rowsets.LIMIT)
        if whole == 0:
            continue
        tried += 1
        if tried > 3:
            break
        for words in (1, 64, 4096):
            assert _row_set(n, unit, e, rowsets.LIMIT, prefix_words=words) == whole
        assert _row_set(n, unit, e, 1024, prefix_words=16) == whole


def test_classes_of_the_top_key_bits_by_the_sides_words():
    # 16 rows a sampled word; classes of about PREFIX_WORDS words at most.
    assert _prefix_bits(1000, 5000, True, 1 << 22, PREFIX_WORDS, 52) == 0
    assert _prefix_bits(PREFIX_WORDS // 16, 10, True, 1 << 22, PREFIX_WORDS, 52) == 0
    assert _prefix_bits(PREFIX_WORDS // 16 + 1, 10, True, 1 << 22, PREFIX_WORDS, 52) == 1
    assert _prefix_bits(10, PREFIX_WORDS * 4, True, 1 << 22, PREFIX_WORDS, 52) == 6
    # a sample stopped at the block's limit: the sides hold at least 16 blocks
    assert _prefix_bits(1 << 22, 10, False, 1 << 22, PREFIX_WORDS, 52) == 6
    assert _prefix_bits(1 << 40, 10, True, 1 << 22, PREFIX_WORDS, 52) == PREFIX_MAX
    assert _prefix_bits(1 << 40, 10, True, 1 << 22, PREFIX_WORDS, 10) == 5


def _cheap_rowsets(n, count, seed, pool=None):
    """The ``count`` cheapest (by the model) of ``pool`` (default ``count``)
    random row sets of n among the cheaper half."""
    units = rowsets.plan_units(n)
    rng = np.random.default_rng(seed)
    h = n // 2
    sizes = rowsets._sizes(h)
    from parqueens.join.pieces import rowset_work

    picked = []
    per = np.empty(1 << h)
    while len(picked) < (pool or count):
        unit = units[int(rng.integers(len(units) // 2, len(units)))]
        config = next(c for c in configs(n) if c.name == unit.config)
        nr = rowset_work(h, config.cfg, unit.rows, sizes, per)
        lo, hi = unit.rowsets or (0, nr)
        e = lo + int(np.argmin(per[lo:hi]))
        picked.append((float(per[e]), len(picked), unit, e))
    return [(unit, e) for _, _, unit, e in sorted(picked)[:count]]


# n = 24: the two cheapest of eight (the first two drawn took 6 s in blocks of
# 4,096 words, these 0.6 s: still 6 times their time in one block, many blocks)
@pytest.mark.parametrize("n, pool", [(23, None), (24, 8)])
def test_sampled_rowsets_agree_in_two_layouts(n, pool):
    """Where nothing else here counts: random row sets counted with their
    half-boards in one block and in blocks of 4,096 words agree, and count
    solutions (a row set of n = 23 or 24 holds some)."""
    for unit, e in _cheap_rowsets(n, 2, seed=n, pool=pool):
        one = _row_set(n, unit, e, rowsets.LIMIT)
        assert one == _row_set(n, unit, e, 4096) and one > 0
        assert _row_set(n, unit, e, 4096, prefix_words=256) == one


def test_words_of_28_fit_the_matcher():
    assert JOIN_MAX_N == 28
    for n in (22, 23, 24, 27, 28):
        for config in configs(n)[:3]:
            real = int(config.cfg[5])
            assert real <= CHUNK_BITS * CHUNKS_MAX
            assert config.layout.shape[0] == (2 * (2 * (n // 2) - 1) + 7) // 8


def test_units_past_21():
    ids = [u.id for u in join_units(23)]
    assert len(ids) == len(set(ids)) > 100_000
    even = join_units(22)
    assert [u.id for u in even] == [u.id for u in join_units(22)]  # the same plan every time
    assert 4000 <= len(even) <= 8000
    assert any(u.rowsets for u in even) and any(u.id.count("/") == 4 for u in even)
    total = sum(u.work for u in even)
    assert max(u.work for u in even) < total / 1000


def test_units_are_bounded_in_time_but_not_in_number(monkeypatch):
    # A unit holds at most UNIT_SECONDS of modelled time, down to one row
    # set, unless that would take more than MAX_UNITS units.
    rowsets._sizes(11)  # cached before the plans below
    whole = rowsets.plan_units(22)
    total = sum(u.work for u in whole)
    limit = rowsets.work_seconds(total, 22) / 20_000  # far below a share of 1/CUT
    monkeypatch.setattr(rowsets, "UNIT_SECONDS", limit)
    timed = rowsets.plan_units(22)
    assert 15_000 < len(timed) and sum(u.work for u in timed) == pytest.approx(total)
    for u in timed:
        if rowsets.work_seconds(u.work, 22) > 1.01 * limit:  # only a single row set
            assert u.rowsets and u.rowsets[1] - u.rowsets[0] == 1
    monkeypatch.setattr(rowsets, "MAX_UNITS", 8000)
    capped = rowsets.plan_units(22)
    assert len(whole) < len(capped) <= 1.2 * 8000
    assert max(u.work for u in capped) <= 2 * total / 8000


def test_slices_cover_each_unit_once():
    n = 22
    h = n // 2
    by_rows = collections.defaultdict(list)
    for u in join_units(n):
        by_rows[u.config, u.rows].append(u.rowsets)
    subs, at = subsets(h)
    bs = np.empty(1 << h, np.int64)
    weights = np.empty((1 << h, 4), np.int64)
    cfg = configs(n)[0].cfg
    for (_, a), slices in by_rows.items():
        nr = rowsets_of(h, cfg, a, subs, at, bs, weights)
        if slices == [()]:
            continue
        slices.sort()
        assert slices[0][0] == 0 and slices[-1][1] == nr
        assert all(x[1] == y[0] for x, y in zip(slices, slices[1:], strict=False))


def test_units_sharing_south_rows_run_together():
    """Within a configuration, the units whose north-east rows hold as many
    queens come one after the other (their south tables are the same), the
    classes by their work, the units largest first within one; none lost."""
    units = rowsets.plan_units(22)
    classes = [u.rows.bit_count() for u in units]
    runs = [k for i, k in enumerate(classes) if i == 0 or classes[i - 1] != k]
    assert len(runs) == len(set(runs)) > 5
    work = {k: sum(u.work for u in units if u.rows.bit_count() == k) for k in runs}
    assert [work[k] for k in runs] == sorted(work.values(), reverse=True)
    for k in runs:
        mine = [u.work for u in units if u.rows.bit_count() == k]
        assert mine == sorted(mine, reverse=True)
    assert len({u.id for u in units}) == len(units) == 5131


@settings(max_examples=25, deadline=None)
@given(
    gets=st.lists(st.tuples(st.sampled_from([SE, SW]), st.integers(0, 63)), max_size=40),
    budget=st.integers(0, 200_000),
)
def test_south_tables_are_kept_least_recently_used_first_out(gets, budget):
    """The kept tables never pass their budget; a table is made again only
    where a model LRU of the same budget has let it go; every table equals
    the one made directly."""
    n = 12
    config = configs(n)[0]
    tables = SouthTables(budget)
    model, held, made = collections.OrderedDict(), 0, 0
    for which, rows in gets:
        table = tables.get(n, config, which, rows)
        direct = south_table(
            n, n // 2, rows, which, config.fixed_wide, config.diagonal_symmetry, config.layout
        )
        end = direct[0][-1]  # the spare entry after them is not written
        for part, (mine, theirs) in enumerate(zip(table, direct, strict=True)):
            assert (mine[: end if part > 1 else None] == theirs[: end if part > 1 else None]).all()
        size = sum(a.nbytes for a in direct)
        if (which, rows) in model:
            model.move_to_end((which, rows))
            continue
        made += 1
        if size <= budget:
            model[which, rows] = size
            held += size
            while held > budget:
                held -= model.popitem(last=False)[1]
    assert tables.made == made and tables.held == held <= budget


def test_south_tables_of_one_size_at_a_time_and_let_go_after_a_run(monkeypatch):
    """A table of another board size lets the kept ones go; a join run in
    this process clears the process's tables at its end."""
    from parqueens.join import south
    from parqueens.join.south import process_tables
    from parqueens.run.chunks import iter_chunks

    # A store of this test's own: no other test's run in this process meets it.
    monkeypatch.setattr(south, "_PROCESS", SouthTables())

    tables = SouthTables()
    tables.get(12, configs(12)[0], SE, 7)
    assert tables.held > 0
    tables.get(13, configs(13)[0], SW, 7)
    assert tables.held == sum(a.nbytes for a in tables.get(13, configs(13)[0], SW, 7))
    units = rowsets.plan_units(12)
    rowsets.count_units(12, units, np.zeros(1, np.uint8))
    assert process_tables().held > 0
    done = [r for chunk in iter_chunks(join_units(12), jobs=1) for r in chunk]
    assert len(done) == len(join_units(12)) and process_tables().held == 0


def test_units_count_alike_with_south_tables_kept_or_not():
    """n = 16 unit by unit, the south tables kept by the process (made about
    once each) or made for every row set."""
    units = rowsets.plan_units(16)
    stop = np.zeros(1, np.uint8)
    kept, none = SouthTables(), SouthTables(budget=0)
    counts = rowsets.count_units(16, units, stop, kept)
    assert counts == rowsets.count_units(16, units, stop, none)
    assert sum(counts) == A000170[16]
    assert none.served == 0 and kept.made * 8 < none.made == kept.made + kept.served


def test_memory_bound_past_21():
    for n in range(22, 24):
        assert join_memory(n, jobs=2) <= 2 * 2**30
    for n in range(24, 28):
        assert join_memory(n, jobs=2) <= 4 * 2**30
    assert join_memory(28, jobs=1) <= 4 * 2**30  # a one-thread worker of n = 28
    assert join_memory(22, jobs=2) < join_memory(22, jobs=4)


def test_memory_model_holds_a_pair_of_row_sets_whose_rows_complete_each_other():
    # A unit's north-east and north-west rows complete each other, as do a
    # row set's south-east and south-west rows: two such pairs are held.
    sizes = rowsets._sizes(11)
    full = (1 << 11) - 1
    pair = max(sizes[x] + sizes[full ^ x] for x in range(1 << 11))
    assert sizes.max() <= pair <= 1.01 * sizes.max()  # a large row set's complement is small
    base = rowsets.BASE_BYTES + rowsets._CACHE_SLACK * rowsets.CACHE_BYTES
    per_thread = rowsets.rowset_memory(22, 2) - rowsets.rowset_memory(22, 1)
    assert per_thread >= (2 * 24 + 16) * pair and rowsets.rowset_memory(22, 1) > base


def test_a_sample_scales_the_visits_and_blocks_it_left_out():
    # Counted exactly, the visits' cycles as a count spends them are those
    # spent; in a sample (stride 4) of a row set in several east blocks of
    # 1,024 words, more: the buckets and the east blocks it left out.
    units = rowsets.plan_units(22)
    unit = units[0]
    e = unit.rowsets[0]
    whole = np.zeros(2, np.uint64)
    count = _row_set(22, unit, e, 1 << 22, 1, whole)
    assert whole[0] == whole[1] > 0
    assert _row_set(22, unit, e, 1024) == count > 0
    sampled = np.zeros(2, np.uint64)
    assert 0 < _row_set(22, unit, e, 1024, 4, sampled) < count
    assert sampled[0] > 2 * sampled[1] > 0


def test_the_matching_is_timed_apart():
    """A sampled row set's matching, counted by the processor's cycles, is
    a share of its time: more than nothing, less than the whole."""
    units = rowsets.plan_units(22)
    stop = np.zeros(1, np.uint8)
    spent, matching, tables = rowsets._time_rowset(units[0], 0, 1, stop)
    assert 0 < matching < spent and 0 < tables < spent


def test_south_keys_are_the_distinct_tables_a_count_makes():
    # The estimate costs each distinct south table once: as many as a
    # process that keeps them all makes, counting the same units.
    from parqueens.join.south import SouthTables

    plan = rowsets.plan_units(22)
    units = [u for u in plan if u.rows == plan[-7].rows][:3]
    keys = rowsets.south_keys(22, units)
    assert len(keys) == len(set((c.name, w, r) for c, w, r in keys))
    kept = SouthTables(budget=2**40)
    rowsets.count_units(22, units, np.zeros(1, np.uint8), kept)
    assert kept.made == len(keys) and kept.seconds > 0


def test_sampled_estimate_has_a_range():
    e = join_sampled_estimate(22, jobs=2, seconds=0.5)
    assert 0 < e["low"] <= e["seconds"] <= e["high"]
    assert e["samples"] >= rowsets.MIN_SAMPLES and 0 < e["largest"] < 0.001
    # about 2 to 3 core-hours on this project's machine; any machine within 20x
    assert 3600 / 8 < e["core_seconds"] < 3600 * 60


def test_a_sampled_estimate_refuses_units_it_cannot_measure():
    """Units of another size, none, or not units at all, and seconds that
    are no duration, are refused in one line before anything is measured."""
    units = rowsets.plan_units(22)
    for bad, error in [
        ([JoinUnit(23, u.config, u.rows, u.rowsets) for u in units[:3]], ValueError),
        ([], ValueError),
        ([1, 2], TypeError),
    ]:
        with pytest.raises(error) as exc:
            join_sampled_estimate(22, 2, units=bad, seconds=0)
        assert "\n" not in str(exc.value)
    for seconds, error in [(-1, ValueError), (float("nan"), ValueError), ("x", TypeError)]:
        with pytest.raises(error, match="seconds"):
            join_sampled_estimate(22, 2, units=units, seconds=seconds)


def test_the_join_functions_check_units_and_stop_alike(monkeypatch):
    """Below n = 22 and past it: an iterator of units is read once and
    counts as its list; no units is nothing to estimate; a stop that is no
    flag array is refused in one line, before any kernel sees it."""
    import parqueens.join.units as join_units_module

    # the cores free are measured at each estimate: the same for both here
    monkeypatch.setattr(join_units_module, "_free_cores", lambda: 2.0)
    units = join_units(16)
    assert join_estimate(16, 2, units=iter(units)) == join_estimate(16, 2, units=units)
    assert count_join_units(16, iter(units[:3])) == count_join_units(16, units[:3])
    assert count_join_units(16, []) == []
    for n in (16, 22):
        with pytest.raises(ValueError, match="nothing to estimate"):
            join_estimate(n, units=[])
    with pytest.raises(TypeError, match="iterable of JoinUnit, got NoneType"):
        count_join_units(22, None)
    bad_stops = [1, [0], np.zeros(0, np.uint8), np.zeros(1, np.int64), np.zeros((1, 1), np.uint8)]
    bad_stops += [np.zeros(4, np.uint8)[::2], np.zeros(1, np.uint8)]
    bad_stops[-1].flags.writeable = False
    for stop in bad_stops:
        with pytest.raises(TypeError, match="stop must be") as exc:
            count_join_units(16, units[:2], stop=stop)
        assert "\n" not in str(exc.value)
        with pytest.raises(TypeError, match="stop must be"):
            join_sampled_estimate(22, units=rowsets.plan_units(22)[:9], seconds=0, stop=stop)


def test_units_made_by_hand_are_checked_field_by_field():
    """Rows or row sets that are no integers, or row sets out of order, of
    another size or below 22: refused in one line, never a negative count."""
    import dataclasses

    u22, u16 = rowsets.plan_units(22)[0], join_units(16)[0]
    for n, unit, error in [
        (22, dataclasses.replace(u22, rowsets=(-5, 3)), ValueError),
        (22, dataclasses.replace(u22, rowsets=(3, 3)), ValueError),
        (22, dataclasses.replace(u22, rowsets=(1, 2, 3)), ValueError),
        (22, dataclasses.replace(u22, rowsets=(0.0, 55.0)), TypeError),
        (22, dataclasses.replace(u22, rowsets=("a", "b")), TypeError),
        (22, dataclasses.replace(u22, rows=1.0), TypeError),
        (22, dataclasses.replace(u22, rows=None), TypeError),
        (16, dataclasses.replace(u16, rows=True), TypeError),
        (16, dataclasses.replace(u16, rowsets=(0, 1)), ValueError),
    ]:
        with pytest.raises(error) as exc:
            count_join_units(n, [unit])
        assert "\n" not in str(exc.value)
    assert count_join_units(16, [dataclasses.replace(u16, rows=np.int64(u16.rows))]) == (
        count_join_units(16, [u16])
    )


def test_a_sampled_estimate_stopped_before_a_sample_is_none():
    e = join_sampled_estimate(22, 2, units=rowsets.plan_units(22), stop=np.ones(1, np.uint8))
    assert e["samples"] == 0 and np.isnan(e["seconds"]) and np.isnan(e["core_seconds"])


def test_an_estimates_range_stays_positive_with_few_far_samples():
    """Six samples, one 100 times the others (as at n = 26): the mean minus
    two standard errors is negative; the resampled range is not, and holds
    the mean; equal samples have no width."""
    values = np.array([1.0, 1.2, 0.9, 1.1, 1.0, 100.0])
    assert values.mean() - 2 * values.std(ddof=1) / np.sqrt(6) < 0
    low, high = rowsets._mean_range(values, seed=1)
    assert 0.9 < low < values.mean() < high <= 100.0
    assert rowsets._mean_range(np.full(5, 3.0), seed=1) == (3.0, 3.0)


def test_estimate_on_the_command_line(cli, monkeypatch):
    # the suite's time: the default is 5 s and 6 row sets at least
    monkeypatch.setattr(rowsets, "SAMPLE_SECONDS", 0.2)
    monkeypatch.setattr(rowsets, "MIN_SAMPLES", 3)
    # n = 22: the smallest size estimated by a sample (23 planned 114,272 units for 2 s)
    r = cli("count", 22, "--estimate", "--jobs", 1000)
    assert r.returncode == 0, r.stderr
    assert "estimate for n = 22: about" in r.stdout and " to " in r.stdout
    drawn = r"\d+ row sets drawn from its 5,131 units, counted here in \d+ s: [\d,.]+ core-hours"
    assert re.search(drawn, r.stdout)
    # the time on the cores asked for first, with its range; then the time here
    lead = r"estimate for n = 22: about [^,]+ on 1,000 cores like these, [^,]+ to "
    assert re.match(lead, r.stdout)
    assert re.search(r"; here about [^,]+ on [\d,]+ jobs?, [^,]+ to [^;]+; its largest ", r.stdout)
    r = cli("count", 22, "--estimate", "--json")
    assert r.returncode == 0, r.stderr
    e = json.loads(r.stdout)
    assert e["method"] == "join" and e["low"] <= e["estimate_seconds"] <= e["high"]


def test_join_refused_past_28(cli):
    r = cli("count", 29, "--method", "join")
    assert_one_line_error(r)
    assert "the join counts n = 4..28, not n = 29" in r.stderr


def test_checkpoint_of_22_interrupted_and_resumed(tmp_path, monkeypatch):
    """n = 22 on a small slice of its units (two row sets of six units):
    stored, interrupted after the first chunk, resumed, exact."""
    import parqueens.join.units as join
    import parqueens.run.runner as runner

    n = 22
    small = [JoinUnit(n, u.config, u.rows, (0, 2)) for u in join_units(n)[100:106]]
    expected = sum(_count(n, small))
    monkeypatch.setattr(join, "join_units", lambda size: list(small))
    # Burnside's classes check a complete count only: not this slice of one
    monkeypatch.setattr(runner, "classes", lambda *args, **kwargs: None)
    path = tmp_path / "22.db"
    real_add = RunStore.add
    calls = []

    def add_then_interrupt(self, size, results, seconds):
        real_add(self, size, results, seconds)
        calls.append(len(results))
        raise KeyboardInterrupt

    with monkeypatch.context() as m:
        m.setattr(RunStore, "add", add_then_interrupt)
        with pytest.raises(RunInterrupted):
            run_count(n, jobs=1, checkpoint=path)
    again = run_count(n, jobs=1, checkpoint=path, recheck=1.0)
    assert again.total == expected > 0
    assert again.resumed == sum(calls) > 0 and again.rechecked == sum(calls)


def test_a_row_sets_own_keys_serve_all_its_blocks():
    """The largest row set of n = 22's first unit (about 100,000 east and
    300,000 west words) in blocks of 40,000 words: its key bits are chosen
    from the first blocks and rewrite the later ones; the count is that of
    one block."""
    unit = join_units(22)[0]
    config = next(c for c in configs(22) if c.name == unit.config)
    per = np.empty(1 << 11)
    from parqueens.join.pieces import rowset_work

    nr = rowset_work(11, config.cfg, unit.rows, rowsets._sizes(11), per)
    e = int(np.argmax(per[:nr]))
    assert _row_set(22, unit, e, 40_000) == _row_set(22, unit, e, rowsets.LIMIT) > 0


def test_chunks_of_a_long_count_hold_seconds():
    """n = 22's units go out in chunks of at most about CHUNK_SECONDS of
    modelled work (at 1/32 of the work a chunk, 2 jobs ran 3 minutes before
    a Ctrl-C kept anything), all of them once, in order."""
    from parqueens.run.chunks import _chunks

    units = rowsets.plan_units(22)
    chunks = list(_chunks(units, 2))
    assert [u for c in chunks for u in c] == units
    largest = max(rowsets.work_seconds(u.work, 22) for u in units)
    seconds = [rowsets.work_seconds(sum(u.work for u in c), 22) for c in chunks]
    assert max(seconds) <= rowsets.CHUNK_SECONDS + largest
    assert len(chunks) >= sum(seconds) / (rowsets.CHUNK_SECONDS + largest) > 200


@settings(max_examples=60, deadline=None)
@given(
    length=st.integers(0, 70),
    start=st.integers(0, 9),
    at=st.integers(0, 5),
    density=st.sampled_from([0.02, 0.1, 0.3]),
    seed=st.integers(0, 2**32 - 1),
)
def test_a_row_joins_alike_by_vectors_and_one_by_one(length, start, at, density, seed):
    """The join of one entry with a range of others (``join_row``: eight at
    once by AVX-512's compress where numba compiles for it) writes the same
    words, in the same order, as the one-by-one loop, whatever the range's
    length and the share of entries kept."""
    from parqueens.join.kernels import _join_scalar, join_row

    rng = np.random.default_rng(seed)
    size = start + length
    ab = np.where(rng.random(size) < density, 0, rng.integers(1, 2**20, size)).astype(np.uint64)
    word = rng.integers(0, 2**63, size, dtype=np.uint64)
    ax, wx = np.uint64(rng.integers(0, 2**20)), np.uint64(rng.integers(0, 2**63))
    outs = [np.zeros(at + length + 8, np.uint64) for _ in range(2)]
    ends = [
        f(out, at, ax, wx, ab, word, start, size)
        for f, out in zip((join_row, _join_scalar), outs, strict=True)
    ]
    keep = (ab[start:] & ax) == 0
    assert ends[0] == ends[1] == at + int(keep.sum())
    assert (outs[0][at : ends[0]] == outs[1][at : ends[1]]).all()
    assert (outs[0][at : ends[0]] == (word[start:][keep] | wx)).all()
    # nothing past the range's room (the vectors store 8 words at a time)
    assert not outs[0][at + length :].any()


def test_the_estimate_checked_on_whole_units():
    # scripts/check_estimate.py on a few units of n = 22: each unit counted
    # whole, its time set beside the estimate's share of it.
    import importlib.util
    from pathlib import Path

    path = Path(__file__).parent.parent / "scripts" / "check_estimate.py"
    spec = importlib.util.spec_from_file_location("check_estimate", path)
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    each = []
    units, e, rows = script.check(22, 3, 0.3, seed=5, each=lambda *row: each.append(row))
    assert len(units) == 5131 and len(rows) == 3 and e["samples"] >= rowsets.MIN_SAMPLES
    assert each == rows  # each unit given as it was counted
    for unit, estimated, measured in rows:
        assert unit in units and estimated > 0 and measured > 0
    # a ratio far off on any machine means the estimate or the check is broken
    ratio = sum(r[2] for r in rows) / sum(r[1] for r in rows)
    assert 0.1 < ratio < 10


def test_an_estimate_measures_until_its_range_is_within_two_times():
    tight, wide = [1.0, 1.1, 0.9, 1.0, 1.05, 0.95], [1.0, 25.0, 1.0, 0.5, 3.0, 12.0]
    assert rowsets._measuring(tight[:5], 1, 100.0, 5.0)  # fewer than MIN_SAMPLES
    assert rowsets._measuring(tight, 1, 1.0, 5.0)  # within its seconds
    assert not rowsets._measuring(tight, 1, 6.0, 5.0)  # past them, the range within 2x
    assert rowsets._measuring(wide, 1, 6.0, 5.0)  # past them, the range wider
    assert not rowsets._measuring(wide, 1, rowsets.MAX_SAMPLE_SECONDS, 5.0)  # at most this
    assert not rowsets._measuring(wide, 1, 0.1, 0.0)  # seconds 0: the least


def test_an_estimate_keeps_freed_memory_while_it_samples():
    # Each sampled row set makes its buffers afresh: inside, glibc keeps a
    # large freed block for the next (its pages touched once); outside,
    # such a block goes back to the system at once, as before.
    import platform

    import psutil

    if platform.libc_ver()[0] != "glibc":
        pytest.skip("glibc's malloc only")

    def returned():
        block = np.ones(8 << 20)  # 64 MiB, touched
        before = psutil.Process().memory_info().rss
        del block
        return before - psutil.Process().memory_info().rss

    assert returned() > 32 << 20
    with rowsets._freed_memory_kept():
        assert returned() < 8 << 20
        assert returned() < 8 << 20
    assert returned() > 32 << 20
