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

What a method does in a run is one interface, :class:`Method`: the search
implements it in :mod:`parqueens.search.method`, the join in
:mod:`parqueens.join.method`, and :mod:`parqueens.run.method` registers them
by name; the run asks the method object, never tests a method's name.
"""

from .checks import (
    check_fixed,
    check_method,
    check_n,
    check_split_depth,
    check_unique_fixed,
)
from .names import JOIN_MAX_N, JOIN_MIN_N, METHODS

__all__ = [
    "Method",
    "check_method_fixed",
    "named_default",
    "join_serves",
    "resolve_method",
    "min_depth",
    "check_count",
]


class Method:
    """What a counting method does in a run: the interface that the search
    (:class:`parqueens.search.method.SearchMethod`) and the join
    (:class:`parqueens.join.method.JoinMethod`) implement, one object per
    method name, chosen once by the plan (:func:`parqueens.run.method.get_method`).

    Its traits say how the run treats it; its methods do the method's own
    work.  Plain attributes and no imports here: the implementations load
    their kernels when asked (:meth:`load_kernels`).
    """

    #: its name (one of :data:`parqueens.names.METHODS`), as units' ids begin
    name = ""
    #: a count is split at a depth of rows (``split_depth``) and places queens
    #: row by row (``nodes``): the searches; the join plans its own units
    splits = True
    #: its units' results serve a ``unique`` count whatever it asked (d4's
    #: classes; the join's classes by Burnside's lemma)
    classifies = False
    #: the classes come from the turns' counts by Burnside's lemma once every
    #: unit is in (the join), not from the units' own classes
    classes_by_burnside = False
    #: a unit's solutions are its classes weighed by their orbit sizes (d4)
    weighs_classes = False
    #: its memory bounds it on this machine (the join's tables), see :meth:`memory`
    needs_memory = False
    #: why it falls back to plain for small n (d4: its four borders), or ""
    small_n_reason = ""
    #: the least n it counts without falling back to plain
    min_n = 0

    def serves(self, n):
        """True if it counts board size ``n`` (checked: 0..MAX_N)."""
        raise NotImplementedError

    def split(self, n, jobs, split_depth=None, fixed=(), depth_jobs=None):
        """``(depth, units)``: the work units of a count of n (``depth`` 0
        where it does not split); ``depth_jobs``: the jobs a depth is chosen
        for, if not ``jobs``."""
        raise NotImplementedError

    def shares(self, units):
        """Each unit's share of the work, a float array summing to 1."""
        raise NotImplementedError

    def load_kernels(self, nodes=False):
        """Load (or compile, the first time) its kernels in this process."""
        raise NotImplementedError

    def count_chunk(self, units, unique, nodes=False, stop=None):
        """Count ``units`` in this thread: ``(solutions, by_stab, nodes)``
        per unit, as plain ints and tuples; ``stop`` as in
        :func:`parqueens.run.chunks.run_chunk` (results meaningless once set)."""
        raise NotImplementedError

    def chunk_share(self, units, target, least=0.0):
        """The share of the work a chunk of ``units`` holds at most, given
        the run's ``target``: smaller for a count of hours, so that an
        interruption keeps its chunks; at least ``least`` (modelled work)
        where the method models its units' work. ``(target, floor)``: the
        floor None where it sets none."""
        return target, None

    def release(self):
        """Free what this process kept for a run (tables)."""

    def memory(self, n, threads):
        """Bytes a process counting n on ``threads`` threads needs, or None
        where it needs little (:attr:`needs_memory`)."""
        return None

    def sampled(self, n):
        """True if its estimate of n counts a sample of its work rather
        than a model or Knuth's probes."""
        return False

    def unit_problem(self, classified, solutions, by_stab, nodes, weighed):
        """What makes a unit's stored columns disagree with each other (a
        str), or None; ``weighed``: the file stores a d4 unit's share, not
        what it found."""
        return None


def check_method_fixed(method, fixed):
    """``ValueError`` if a symmetry method or the join is asked for with
    fixed queens."""
    if fixed and method in ("d4", "mirror"):
        raise ValueError(
            f"method {method} cannot be used with fixed queens (they break the symmetry); use plain"
        )
    if fixed and method == "join":
        raise ValueError(
            "method join cannot be used with fixed queens (it joins whole half-boards); use plain"
        )


def named_default(method):
    """The method a run's identity names (:func:`parqueens.run.plan.run_identity`), as
    :func:`resolve_method` takes it: None where it names the default (the
    first of :data:`~parqueens.names.METHODS`, written for a run that named none)."""
    return None if method == METHODS[0] else method


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
