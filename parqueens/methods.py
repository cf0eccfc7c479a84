"""Which method counts a board size, and the arguments of a count.

A count is checked here once, at the library's door
(:func:`check_count`, called by :func:`parqueens.run.runner.run_count` and by
the command line before any work), and its method decided once
(:func:`resolve_method`): the command line and the library share these
rules.  Plain Python with no imports beyond :mod:`parqueens.checks` and
:mod:`parqueens.names`, so that usage errors answer before numba loads.

The methods (:data:`parqueens.names.METHODS`): ``join`` counts a total by
matching half-boards (:mod:`parqueens.join`; board sizes
:data:`~parqueens.names.JOIN_MIN_N` to :data:`~parqueens.names.JOIN_MAX_N`,
no fixed queens, split depth or node count); ``d4``, ``mirror`` and
``plain`` search whole boards row by row with the symmetry group of the
square, its left-right reflection, or none (:mod:`parqueens.search.units`).
"""

from .checks import (
    check_fixed,
    check_method,
    check_method_fixed,
    check_n,
    check_split_depth,
    check_unique_fixed,
)
from .names import JOIN_MAX_N, JOIN_MIN_N

__all__ = ["join_serves", "resolve_method", "units_classified", "min_depth", "check_count"]


def join_serves(n):
    """True if the join counts board size n."""
    return JOIN_MIN_N <= n <= JOIN_MAX_N


def resolve_method(method, n, fixed=(), unique=False, split_depth=None, nodes=False):
    """The method that counts board size n.

    ``method`` None (the default) is ``join`` where it serves (n from
    :data:`~parqueens.names.JOIN_MIN_N` to :data:`~parqueens.names.JOIN_MAX_N`)
    and nothing asks for a search (a ``split_depth``, ``nodes``); else
    ``d4``; and ``plain`` with fixed queens (they break the symmetry) or for
    n < 4 (``d4`` needs four borders).  ``unique`` with the join takes the
    classes from Burnside's lemma (:mod:`parqueens.join.burnside`).

    Raises ``ValueError`` for an unknown method, for ``d4``/``mirror``/``join``
    asked for together with fixed queens, ``unique`` with fixed queens
    (symmetry classes are not defined then), and ``join`` for a size it does
    not serve or with a split depth or node count.
    """
    check_method(method)
    if fixed:
        check_unique_fixed(unique, fixed)
        check_method_fixed(method, fixed)
        return "plain"
    if method is None:
        search = split_depth is not None or nodes
        method = "join" if join_serves(n) and not search else "d4"
    if method == "join":
        _check_join(n, split_depth, nodes)
    if method == "d4" and n < 4:
        return "plain"
    return method


def _check_join(n, split_depth, nodes):
    if not join_serves(n):
        raise ValueError(
            f"the join counts n = {JOIN_MIN_N}..{JOIN_MAX_N}, not n = {n}; "
            # d4 needs four borders: below 4 it would count by plain anyway
            f'use a search method (method="{"d4" if n >= 4 else "plain"}")'
        )
    if split_depth is not None:
        raise ValueError(
            "the join has no split depth (split_depth is for the search methods d4, "
            "mirror and plain)"
        )
    if nodes:
        raise ValueError(
            "the join places no queens row by row: nodes=True counts a search's nodes "
            '(method="d4")'
        )


def units_classified(method, n, unique):
    """Whether the stored results of a count's work units serve a ``unique``
    count (the symmetry classes): always with ``d4`` (its units record
    them) and ``join`` (its classes come from Burnside's lemma, whatever its
    units hold), with ``plain``/``mirror`` only when ``unique``; below n = 4
    no unit has a solution to classify.  ``method`` as resolved
    (:func:`resolve_method`)."""
    return bool(unique) or method in ("d4", "join") or n < 4


def min_depth(method, lexicographic=False):
    """The smallest split depth a search method can use (two rows for the
    lexicographic ``d4``, whose corner units fix the row-1 queen)."""
    return 2 if method == "d4" and lexicographic else 1


def check_count(n, method=None, unique=False, fixed=None, split_depth=None, nodes=False):
    """Check the arguments of a count (:func:`parqueens.run.runner.run_count`)
    before any work: returns ``(n, method, fixed)`` with the method resolved
    (:func:`resolve_method`) and the fixed queens as :func:`check_fixed`
    gives them.  Raises ``TypeError``/``ValueError``."""
    n = check_n(n)
    fixed = check_fixed(n, fixed)
    method = resolve_method(method, n, fixed, unique, split_depth, nodes)
    if split_depth is not None and n >= 3:  # smaller boards have no work units
        check_split_depth(split_depth, n, method, min_depth(method))
    return n, method, fixed
