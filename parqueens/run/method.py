"""The counting methods by name: the one place a method is registered.

Each is an object of the interface :class:`parqueens.methods.Method` (the
searches: :mod:`parqueens.search.method`; the join:
:mod:`parqueens.join.method`); the plan picks one by name once
(:func:`get_method`), and the run asks it what to do.  Adding a method is
one object and its name here and in :data:`parqueens.names.METHODS`.
"""

from ..join.method import JOIN
from ..methods import Method
from ..search.method import D4, MIRROR, PLAIN

__all__ = [
    "REGISTRY",
    "get_method",
    "find_method",
    "units_method",
    "units_classified",
    "work_shares",
]

#: The methods by name, in the order of :data:`parqueens.names.METHODS`.
REGISTRY: dict[str, Method] = {m.name: m for m in (JOIN, D4, MIRROR, PLAIN)}


def get_method(name):
    """The method object of a (checked) method name."""
    return REGISTRY[name]


def find_method(name):
    """The method object of a name read from a file, or None if unknown."""
    return REGISTRY.get(name)


def units_method(units):
    """The method object of a list of work units (all of one method)."""
    return REGISTRY[units[0].method]


def work_shares(units):
    """Each unit's share of the work (a float array summing to 1; empty for
    no units), as its method weighs them (:meth:`parqueens.methods.Method.shares`)."""
    units = list(units)
    if not units:
        import numpy as np

        return np.zeros(0)
    return units_method(units).shares(units)


def units_classified(method, n, unique):
    """Whether the stored results of a count's work units serve a ``unique``
    count (the symmetry classes): always where the method classifies (d4
    records them; the join's come from Burnside's lemma, whatever its units
    hold), else only when ``unique``; below n = 4 no unit has a solution to
    classify.  ``method``: a name, as resolved
    (:func:`parqueens.methods.resolve_method`)."""
    return bool(unique) or get_method(method).classifies or n < 4
