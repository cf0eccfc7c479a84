"""Fixed queens prune the work units while they are built: listings and counts
agree, the split depth grows past the fixed rows, and nothing is built only to
be thrown away."""

from hypothesis import given
from hypothesis import strategies as st

from parqueens import construct, run_count, solutions
from parqueens import units as units_module
from parqueens.units import make_units


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
    listed = list(solutions(n, fixed=fixed, jobs=1))
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
