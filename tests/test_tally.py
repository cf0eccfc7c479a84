"""The exact merge of units' results into counts and classes (parqueens.run.tally)."""

from parqueens import names
from parqueens.run.runner import run_count
from parqueens.run.tally import Tally, UnitResult

from naive import A000170, A002562


def test_tally_is_the_runs_arithmetic():
    # A d4 unit's solutions are its classes weighed by their orbits (checked
    # against them by classes()); mirror doubles; status and resume use it.
    t = Tally("d4")
    t.add(UnitResult(28, (3, 1, 0, 0), 7))
    assert (t.total, t.fundamental, t.orbits) == (28, 4, {8: 3, 4: 1, 2: 0, 1: 0})
    m = Tally("mirror")
    m.add(UnitResult(5, (0, 0, 0, 0), 0))
    assert m.total == 10 and not m.counted
    r = run_count(11, unique=True)
    assert (r.total, r.fundamental) == (A000170[11], A002562[11])
    assert sum(size * c for size, c in r.orbits.items()) == r.total
    assert tuple(r.orbits) == names.ORBIT_SIZES
