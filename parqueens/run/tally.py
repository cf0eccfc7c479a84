"""The exact merge of work units' results into counts and classes.

A work unit's result (:class:`UnitResult`) is its solutions found, its
canonical classes by stabiliser size and the queens it placed; a
:class:`Tally` merges the results of one board size as Python integers, so
totals never overflow (a single unit's count is a ``uint64``, which no
search can fill: 2**64 solutions at a billion a second take 585 years).
:func:`classes` turns a complete tally into the classes by orbit size: the
ones the search units found, or for the join Burnside's lemma on its total
(:mod:`parqueens.join.burnside`).  Used by a run, a resume and ``status``.
"""

from dataclasses import dataclass, field

from ..names import ORBIT_SIZES, WEIGHTS
from .method import get_method

__all__ = ["UnitResult", "Tally", "tally_stored", "classes", "check_turns", "fixed_by_turns"]


@dataclass
class UnitResult:
    """Result of one work unit: its solutions (its share of the total before
    the method's weight; for ``d4`` its classes weighed by their orbit
    sizes), canonical classes by stabiliser size (``by_stab[k]`` for
    ``2**k``), the queens placed (0: not counted; a counted unit places at
    least its prefix), and ``worker``, the process that computed it
    (``HOST/PID``, or None)."""

    solutions: int
    by_stab: tuple = field(default=(0, 0, 0, 0))
    nodes: int = 0
    worker: str | None = None


class Tally:
    """The exact merge of the unit results of one board size and method
    (Python ints, never overflowing): for a run, a resume and ``status``.

    Attributes: ``classes`` (canonical classes by stabiliser, indexed like
    ``by_stab``), ``nodes`` (queens placed), ``counted`` (every unit's nodes
    were counted), ``units`` (results added).
    """

    def __init__(self, method):
        self.method = method
        self.weight = WEIGHTS[method]
        self.solutions = 0
        self.nodes = 0
        self.counted = True
        self.units = 0
        self.classes = [0, 0, 0, 0]

    def add(self, res):
        """Add one :class:`UnitResult`."""
        self.solutions += res.solutions
        self.nodes += res.nodes
        self.counted = self.counted and res.nodes > 0
        self.units += 1
        for k in range(4):
            self.classes[k] += res.by_stab[k]

    @property
    def orbits(self):
        """``{orbit size: classes}`` (see :data:`parqueens.names.ORBIT_SIZES`)."""
        return dict(zip(ORBIT_SIZES, self.classes, strict=True))

    @property
    def fundamental(self):
        """Canonical classes found (meaningful for ``d4``, or with ``unique``)."""
        return sum(self.classes)

    @property
    def total(self):
        """The solutions, weighted by method (a ``d4`` unit's solutions are
        its classes weighed by their orbit sizes: checked against them by
        :func:`classes`)."""
        return self.weight * self.solutions


def tally_stored(method, stored):
    """A :class:`Tally` of units read from a checkpoint: ``stored`` maps unit
    ids to ``(solutions, by_stab, nodes)`` (see
    :meth:`parqueens.run.store.RunStore.begin_run`)."""
    tally = Tally(method)
    for res in stored.values():
        tally.add(UnitResult(*res))
    return tally


def classes(method, n, tally, checkpoint=None, whole=True):
    """The symmetry classes of a complete count of board size n, by orbit
    size (see :attr:`CountResult.orbits`): for ``join``, from the total and
    the solutions fixed by the rotations, by Burnside's lemma
    (:func:`parqueens.join.burnside.orbits_from_counts`); else from the classes
    the units found (``tally``, a :class:`Tally`), checked against the
    total (which the units store apart from their classes) and, for a
    ``whole`` board (no fixed queens), against the solutions fixed by the
    half and quarter turns, counted apart (:func:`check_turns`).

    Counts that do not add up raise RuntimeError (an internal error: a
    wrong count detected, never printed), or where ``tally`` holds units
    read from ``checkpoint`` (a :class:`parqueens.run.store.RunStore`), a
    :class:`parqueens.run.store.ResultMismatch` naming the file: a stored result
    is wrong."""
    try:
        if get_method(method).classes_by_burnside:
            from ..join.burnside import count_half_turn, count_quarter_turn, orbits_from_counts

            p, r = count_half_turn(n), count_quarter_turn(n)
            return orbits_from_counts(n, tally.total, p, r)
        if sum(size * c for size, c in tally.orbits.items()) != tally.total:
            raise RuntimeError(f"internal error: orbit sizes of n = {n} do not add up to the total")
        if whole:
            check_turns(n, tally.orbits)
        return tally.orbits
    except RuntimeError as exc:
        if checkpoint is None:
            raise
        raise checkpoint.wrong_result(n, str(exc).removeprefix("internal error: ")) from None


def check_turns(n, orbits):
    """Check classes found by a search (``{orbit size: classes}``) against
    the solutions fixed by the half and quarter turns counted apart
    (:mod:`parqueens.join.burnside`, milliseconds): the classes of 4 and 2
    members follow from those.  Boards past
    :data:`parqueens.join.burnside.MAX_SYMMETRIC_N` are not checked.
    Raises RuntimeError (an internal error) if they differ."""
    from ..join.burnside import MAX_SYMMETRIC_N, count_half_turn, count_quarter_turn

    if not 4 <= n <= MAX_SYMMETRIC_N:
        return
    p, r = count_half_turn(n), count_quarter_turn(n)
    if fixed_by_turns(orbits) != (p, r):
        raise RuntimeError(
            f"internal error: the classes of n = {n} are inconsistent with the "
            f"{p} solutions fixed by the half turn and {r} by the quarter turn"
        )


def fixed_by_turns(orbits):
    """``(half_turn, quarter_turn)``: the solutions fixed by the half turn and
    by the quarter turn, from the classes by orbit size (a class of 2 is
    fixed by both, of 4 by the half turn only; n <= 1: the one solution)."""
    return 4 * orbits[4] + 2 * orbits[2] + orbits[1], 2 * orbits[2] + orbits[1]
