"""Listing solutions (parqueens.run.listing) against the brute-force oracle."""

import joblib
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import parqueens
from parqueens import symmetry
from parqueens.construction import is_solution
from parqueens.run.listing import first_solution, iter_blocks, planned_count, solutions
from parqueens.run.runner import run_count

import naive

brute = naive.solutions  # cached once per session


def brute_classes(n):
    """The canonical forms of the symmetry classes, sorted."""
    return sorted(naive.classes(n))


def listed(n, **kw):
    return list(solutions(n, **kw))


def from_blocks(n, **kw):
    return [tuple(row) for block in iter_blocks(n, **kw) for row in block.tolist()]


# ---------------------------------------------------------------- all solutions


def test_n4_exact():
    assert listed(4, jobs=1) == [(1, 3, 0, 2), (2, 0, 3, 1)]


def test_n6_exact():
    assert listed(6, jobs=1) == [
        (1, 3, 5, 0, 2, 4),
        (2, 5, 1, 4, 0, 3),
        (3, 0, 4, 1, 5, 2),
        (4, 2, 0, 5, 3, 1),
    ]


def test_n8_92_distinct_valid_sorted():
    sols = listed(8, jobs=1)
    assert len(sols) == 92
    assert len(set(sols)) == 92
    assert all(is_solution(s) for s in sols)
    assert all(isinstance(s, tuple) and all(type(c) is int for c in s) for s in sols)
    assert all(a < b for a, b in zip(sols, sols[1:], strict=False))  # strictly increasing


@pytest.mark.parametrize("n", range(0, 11))
def test_matches_brute_force_and_count(n):
    sols = listed(n, jobs=1)
    assert sols == list(brute(n))
    assert len(sols) == parqueens.count(n, jobs=1) == naive.A000170[n]


def test_blocks_are_uint8_rows():
    blocks = list(iter_blocks(8, jobs=1))
    assert blocks and all(
        b.dtype.name == "uint8" and b.ndim == 2 and b.shape[1] == 8 and len(b) > 0 for b in blocks
    )
    assert sum(len(b) for b in blocks) == 92


# ---------------------------------------------------------------- unique


def test_unique_n8_orbits_cover_all():
    canon = listed(8, unique=True, jobs=1)
    assert len(canon) == 12
    assert all(symmetry.canonical(c) == c for c in canon)
    covered = [s for c in canon for s in symmetry.orbit(c)]
    assert len(covered) == 92  # the orbits are disjoint
    assert sorted(covered) == listed(8, jobs=1)


@pytest.mark.parametrize("n", range(0, 11))
def test_unique_matches_brute_force_classes(n):
    canon = listed(n, unique=True, jobs=1)
    assert canon == brute_classes(n)
    assert len(canon) == naive.A002562[n]


# ---------------------------------------------------------------- jobs and split depth


@pytest.mark.parametrize("n", [9, 10])
def test_jobs_1_and_2_identical(n):
    assert listed(n, jobs=2) == listed(n, jobs=1) == list(brute(n))


def test_jobs_1_and_2_identical_unique():
    assert listed(10, unique=True, jobs=2) == listed(10, unique=True, jobs=1) == brute_classes(10)


@pytest.mark.parametrize("n", [6, 8, 9])
def test_split_depth_does_not_change_the_list(n):
    want = list(brute(n))
    for depth in range(1, n + 1):
        assert from_blocks(n, jobs=1, split_depth=depth) == want, depth


@pytest.mark.parametrize("n", [8, 9])
def test_split_depth_does_not_change_the_unique_list(n):
    want = brute_classes(n)
    for depth in range(2, n + 1):  # d4 needs two rows
        assert from_blocks(n, unique=True, jobs=1, split_depth=depth) == want, depth


def test_split_depth_with_jobs_2():
    assert from_blocks(9, jobs=2, split_depth=5) == list(brute(9))


# ---------------------------------------------------------------- limit


@pytest.mark.parametrize("k", [1, 2, 3, 10, 63, 64, 65, 91, 92])
def test_limit_prefix(k):
    assert listed(8, jobs=1, limit=k) == list(brute(8))[:k]


@pytest.mark.parametrize("k", [1, 5, 100, 723])
def test_limit_prefix_jobs_2(k):
    assert listed(10, jobs=2, limit=k) == list(brute(10))[:k]


def test_limit_prefix_unique():
    for k in (1, 5, 11, 12):
        assert listed(8, unique=True, jobs=1, limit=k) == brute_classes(8)[:k]


@pytest.mark.parametrize("n", [0, 1, 2, 4, 8])
def test_limit_larger_than_count(n):
    assert listed(n, jobs=1, limit=10**6) == list(brute(n))
    assert listed(n, jobs=1, limit=len(brute(n)) + 1) == list(brute(n))


def test_limit_per_block_total():
    blocks = list(iter_blocks(10, jobs=1, limit=100))
    assert sum(len(b) for b in blocks) == 100


# ---------------------------------------------------------------- first_solution


def test_first_solution():
    assert first_solution(8) == (0, 4, 7, 5, 2, 6, 1, 3)
    assert first_solution(1) == (0,)
    assert first_solution(2) is None
    assert first_solution(3) is None
    assert first_solution(0) == ()


@pytest.mark.parametrize("n", range(4, 11))
def test_first_solution_is_first_of_list(n):
    assert first_solution(n) == brute(n)[0]


def test_first_solution_fixed():
    assert first_solution(8, fixed=[(0, 1)]) == next(s for s in brute(8) if s[0] == 1)
    assert first_solution(8, fixed=[(0, 0), (1, 1)]) is None


# ---------------------------------------------------------------- fixed queens


@st.composite
def board_and_fixed(draw):
    n = draw(st.integers(1, 8))
    rows = draw(st.lists(st.integers(0, n - 1), unique=True, max_size=min(n, 4)))
    fixed = [(r, draw(st.integers(0, n - 1))) for r in rows]
    return n, fixed


@settings(max_examples=60, suppress_health_check=[HealthCheck.too_slow])
@given(board_and_fixed())
def test_fixed_queens_property(case):
    n, fixed = case
    want = [s for s in brute(n) if all(s[r] == c for r, c in fixed)]
    got = list(solutions(n, fixed=fixed, jobs=1))
    assert got == want
    assert parqueens.count(n, fixed=fixed, jobs=1) == len(got) == len(want)
    assert all(is_solution(s) for s in got)
    assert all(s[r] == c for s in got for r, c in fixed)
    assert first_solution(n, fixed=fixed) == (want[0] if want else None)


def test_fixed_conflicting_gives_nothing():
    assert listed(8, fixed=[(0, 0), (1, 1)], jobs=1) == []
    assert listed(8, fixed=[(0, 0), (5, 0)], jobs=1) == []
    assert parqueens.count(8, fixed=[(0, 0), (1, 1)], jobs=1) == 0


def test_fixed_order_does_not_matter():
    a = listed(8, fixed=[(3, 0), (0, 2)], jobs=1)
    b = listed(8, fixed=[(0, 2), (3, 0)], jobs=1)
    assert a == b == [s for s in brute(8) if s[0] == 2 and s[3] == 0]


def test_fixed_full_solution():
    sol = brute(8)[17]
    assert listed(8, fixed=list(enumerate(sol)), jobs=1) == [sol]


def test_fixed_with_jobs_2_and_limit():
    want = [s for s in brute(10) if s[2] == 5]
    assert listed(10, fixed=[(2, 5)], jobs=2) == want
    assert listed(10, fixed=[(2, 5)], jobs=1, limit=3) == want[:3]


# ---------------------------------------------------------------- invalid input


@pytest.mark.parametrize(
    "kwargs,exc",
    [
        (dict(n=8, fixed=[(8, 0)]), ValueError),
        (dict(n=8, fixed=[(0, 8)]), ValueError),
        (dict(n=8, fixed=[(-1, 0)]), ValueError),
        (dict(n=8, fixed=[(0, 0), (0, 3)]), ValueError),
        (dict(n=8, fixed=[(0, 0), (0, 1)]), ValueError),
        (dict(n=8, unique=True, fixed=[(0, 0)]), ValueError),
        (dict(n=8, limit=0), ValueError),
        (dict(n=8, limit=-3), ValueError),
        (dict(n=8, limit=2.5), TypeError),
        (dict(n=-1), ValueError),
        (dict(n=65), ValueError),
        (dict(n=True), TypeError),
        (dict(n=8.0), TypeError),
        (dict(n="8"), TypeError),
        (dict(n=8, fixed=[(0, 1.5)]), TypeError),
        (dict(n=8, fixed=[(0, 1, 2)]), TypeError),
        (dict(n=8, jobs=0), ValueError),
    ],
)
def test_invalid_arguments(kwargs, exc):
    with pytest.raises(exc):
        list(solutions(**kwargs))
    with pytest.raises(exc):
        list(iter_blocks(**kwargs))


@pytest.mark.parametrize(
    "kwargs",
    [
        dict(n=8, fixed=[(0, 0), (1, 1)], limit=0),  # limit checked even if there is a conflict
        dict(n=8, unique=True, fixed=[(0, 0), (1, 1)]),
        dict(n=2, limit=0),
    ],
)
def test_invalid_arguments_checked_before_shortcuts(kwargs):
    with pytest.raises(ValueError):
        list(solutions(**kwargs))


@pytest.mark.parametrize("depth", [0, 9, -1])
def test_invalid_split_depth(depth):
    with pytest.raises(ValueError):
        list(iter_blocks(8, split_depth=depth))


def test_invalid_split_depth_unique():
    with pytest.raises(ValueError):  # d4 pre-places at least two rows
        list(iter_blocks(8, unique=True, split_depth=1))


@pytest.mark.parametrize("n,exc", [(-1, ValueError), (True, TypeError), (65, ValueError)])
def test_first_solution_invalid(n, exc):
    with pytest.raises(exc):
        first_solution(n)


def test_first_solution_invalid_fixed():
    with pytest.raises(ValueError):
        first_solution(8, fixed=[(9, 0)])
    with pytest.raises(ValueError):
        first_solution(8, fixed=[(1, 0), (1, 2)])


# ---------------------------------------------------------------- planned count


def test_planned_count_estimates_large_boards():
    # Knuth's estimate: no count run, and near the real number.
    count, exact = planned_count(15)
    assert not exact and abs(count - naive.A000170[15]) < 0.2 * naive.A000170[15]
    count, exact = planned_count(15, unique=True)
    assert not exact and abs(count - naive.A002562[15]) < 0.2 * naive.A002562[15]
    assert planned_count(15, limit=1000) == (1000, False)


def test_planned_count_counts_small_boards_and_when_space_is_short():
    assert planned_count(12) == (naive.A000170[12], True)
    assert planned_count(12, unique=True, limit=5) == (5, True)
    asked = []

    def fits(k):
        asked.append(k)
        return k < naive.A000170[15]  # the estimate fits, twice it not

    assert planned_count(15, fits=fits) == (naive.A000170[15], True)
    assert asked and asked[0] >= 1.6 * naive.A000170[15]
    assert planned_count(15, fits=lambda k: True)[1] is False
    # not even half the estimate fits: refused on the estimate, not counted
    count, exact = planned_count(15, fits=lambda k: k < naive.A000170[15] // 4)
    assert not exact and abs(count - naive.A000170[15]) < 0.2 * naive.A000170[15]
    # fixed queens leaving few rows: counted
    fixed = [(r, c) for r, c in enumerate((0, 4, 7, 5, 2, 6, 1, 3))]
    assert planned_count(16, fixed=fixed) == (run_count(16, fixed=fixed).total, True)


def test_threads_search_a_bounded_window_ahead(monkeypatch):
    # A consumer that stops taking blocks holds the search back: no more than
    # two chunks per thread are searched ahead (memory stays bounded).
    import time

    from parqueens.run import listing

    calls = []
    real = listing._enumerate_units

    def counted(*args):
        calls.append(1)
        return real(*args)

    monkeypatch.setattr(listing, "_enumerate_units", counted)
    blocks = iter_blocks(14, jobs=2, split_depth=3)  # 43 chunks of 16 units
    next(blocks)
    time.sleep(0.5)  # ample for all of them, if nothing held them back
    assert 2 <= len(calls) <= 2 * 2 + 1
    blocks.close()
    assert sum(len(b) for b in iter_blocks(14, jobs=2, split_depth=3)) == naive.A000170[14]
    assert len(calls) > 40


def test_units_with_more_solutions_than_a_buffer_are_split(monkeypatch):
    # A unit that finds more solutions than _UNIT_ROWS is searched again as
    # its children, in order: the list is the same, whatever the buffer.
    from parqueens.run import listing

    expected = {n: from_blocks(n, jobs=1) for n in (9, 10)}
    fixed = [(9, 3)]
    expected_fixed = from_blocks(10, fixed=fixed, jobs=1, split_depth=1)
    monkeypatch.setattr(listing, "_UNIT_ROWS", 4)
    for n in (9, 10):
        assert from_blocks(n, jobs=1, split_depth=1) == expected[n] == list(brute(n))
        assert from_blocks(n, jobs=2, split_depth=2, limit=37) == expected[n][:37]
    assert from_blocks(10, fixed=fixed, jobs=2, split_depth=1) == expected_fixed
    assert expected_fixed == [s for s in brute(10) if s[9] == 3]


def test_fixed_bottom_rows_list_as_fast_as_they_count():
    # 18 free rows above 12 fixed ones: the listing splits as the count does
    # (it built some 10**6 units of 13 free rows before, 5.5 s against 0.8 s).
    from parqueens import construct

    q = construct(30)
    fixed = [(r, int(q[r])) for r in range(18, 30)]
    assert listing_depth_for(30, fixed) <= 6
    assert len(from_blocks(30, fixed=fixed, jobs=2)) == run_count(30, fixed=fixed, jobs=2).total


def listing_depth_for(n, fixed):
    from parqueens.run.listing import _listing_depth

    return _listing_depth(n, "plain", fixed, 2)


def test_spill_file_folder_and_a_full_disk(tmp_path, monkeypatch):
    # The mirror's temporary file goes where it is told (the CLI: beside the
    # output), and a full disk there is named, not a bare ENOSPC.
    import errno
    import io
    import tempfile

    from parqueens.run import listing

    folders = []
    real = tempfile.TemporaryFile

    def recorded(*args, dir=None, **kw):
        folders.append(dir)
        return real(*args, dir=dir, **kw)

    monkeypatch.setattr(listing.tempfile, "TemporaryFile", recorded)
    assert len(from_blocks(12, jobs=1, spill_dir=str(tmp_path))) == naive.A000170[12]
    assert str(tmp_path) in folders  # (numba writes its cache through TemporaryFile too)

    class Full(io.BytesIO):
        def write(self, data):
            raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(listing.tempfile, "TemporaryFile", lambda *a, **k: Full())
    with pytest.raises(OSError) as info:
        from_blocks(12, jobs=1, spill_dir=str(tmp_path))
    assert info.value.errno == errno.ENOSPC and info.value.filename == str(tmp_path)
    assert "temporary file of the mirrored half" in str(info.value)


def test_listing_threads_bounded(monkeypatch):
    """A listing with --jobs 1000 must not start 1000 threads."""
    import parqueens.run.listing as listing

    seen = []
    real = listing.ThreadPoolExecutor

    def pool(workers, **kw):
        seen.append(workers)
        return real(workers, **kw)

    monkeypatch.setattr(listing, "ThreadPoolExecutor", pool)
    assert sum(len(b) for b in listing.iter_blocks(10, jobs=1000, split_depth=3)) == 724
    cores = joblib.cpu_count()
    assert seen == ([cores] if cores > 1 else [])  # one core: searched in this thread
