"""Work units: independent pieces of the search tree, with their constraints.

A work unit is plain data: the board size ``n``, the method, a *prefix* (the
columns of the queens of rows ``0..k-1``), the user's fixed queens, and a
weight.  Its id is stable (the same unit has the same id in every run), so a
finished unit can be stored and skipped on resume.  :func:`unit_masks` turns a
unit into the look-ahead masks that :mod:`parqueens.search.kernels` searches.

Methods
-------
``plain``
    No symmetry: every prefix of depth k, weight 1.
``mirror``
    The left-right reflection: the row-0 queen in the left half, weight 2;
    for odd n also the middle column with the row-1 queen in the left half,
    weight 2 (Somers 2002; Richards 1997).  Searches half the tree.
``d4``
    The whole symmetry group of the square, by a canonical search
    (Takaken's method, with a different choice of representative; see
    Preußer & Engelhardt 2017 for the same idea as pre-placements).  The
    *distance* of a border queen is its distance from the nearest corner
    along its border, ``min(c, n-1-c)``; each of the four borders holds one
    queen (a corner queen is on two borders, at distance 0).  The eight
    images of a solution put each border on top, in both orientations.
    :func:`d4_order` ranks the distances; the representative of a class is
    its image whose top distance ranks first, ties broken by the
    lexicographic order of the rows.  A unit starts with the row-0 queen at
    column ``a <= (n-1)/2`` and allows on the other borders only distances
    ranked no better than ``a``'s: masks on the side columns (by row) and on
    the last row (by column); when that leaves the last row few squares, the
    unit is split by its last-row queen, whose diagonals then prune the
    whole search.  Only solutions with another border queen at
    distance ``a`` are then compared with their images (a third at n = 16), and
    each class is counted once, by its orbit size 8, 4 or 2.

    The order matters for speed, not for the result.  Ranking small
    distances first (Takaken) finds the lexicographically smallest member
    (the canonical form); the listing uses it
    (``lexicographic=True``).  Counting ranks large distances first: the
    units of small distances then exclude the side columns from the middle
    rows, where the tree is widest, and the search visits about 0.74 of
    Takaken's nodes at n = 16, 17 (a third of the mirror method's).  Needs
    n >= 4 and no fixed queens; otherwise ``plain`` is used.
"""

from dataclasses import dataclass, field, replace

import numpy as np

from ..checks import check_method, check_split_depth
from ..methods import min_depth
from ..names import WEIGHTS
from .kernels import LEAF_CANONICAL, LEAF_COUNT, LEAF_D4, full_mask, place_queens
from .small import fixed_rows as _fixed_rows

__all__ = [
    "WorkUnit",
    "UnitSpec",
    "unit_masks",
    "d4_order",
    "iter_units",
    "make_units",
    "children",
    "SHARES_UP_TO",
    "work_shares",
    "auto_depth",
    "choose_depth",
    "kernel_args",
]


@dataclass(frozen=True)
class WorkUnit:
    """One independent piece of a search.

    Attributes
    ----------
    n : int
        Board size.
    method : str
        ``"plain"``, ``"mirror"`` or ``"d4"``.
    prefix : tuple of int
        Columns of the queens of rows ``0..len(prefix)-1``.
    weight : int
        Multiplier of the solutions the unit finds (1 or 2); for ``d4`` the
        weight is each class's orbit size, found by the search, and this is 1.
    fixed : tuple of (int, int)
        Queens the user fixed, as sorted ``(row, col)`` pairs.
    lexicographic : bool
        ``d4`` only: find each class's canonical form (the lexicographically
        smallest member), for listing; otherwise the representative that is
        fastest to search (see :func:`d4_order`).
    last : int or None
        ``d4`` counting only: the column of a queen pre-placed in the last
        row, for units whose last row has few squares left (see
        :func:`iter_units`).
    size : float or None
        log2 of the estimated size of the unit's search, set by
        :func:`make_units` (not part of the unit's identity).
    """

    n: int
    method: str
    prefix: tuple
    weight: int = 1
    fixed: tuple = ()
    lexicographic: bool = False
    last: int | None = None
    size: float | None = field(default=None, compare=False, repr=False)

    @property
    def id(self):
        """Stable text id, e.g. ``"d4/16/3.0.5"``, or ``"d4/16/1.3.5;15:2"``
        with a queen pre-placed in the last row (row 15, column 2)."""
        text = f"{self.method}/{self.n}/" + ".".join(str(c) for c in self.prefix)
        if self.last is not None:
            text += f";{self.n - 1}:{self.last}"
        return text


@dataclass
class UnitSpec:
    """What the kernel needs to search a unit (see :mod:`parqueens.search.kernels`).

    ``allowed``: ``numpy.ndarray`` of ``uint64``, shape ``(n,)``;
    ``leaf_mode``: :data:`parqueens.search.kernels.LEAF_COUNT`, ``LEAF_CANONICAL``
    or ``LEAF_D4``; ``tie_row_a``, ``tie_row_b``, ``tie_cols``:
    which solutions the D4 test looks at (-1, -1, 0: none can tie, set
    once per unit); ``ok``: False if the unit's queens conflict (it holds
    no solution).  See :func:`parqueens.search.kernels.count_batch`, whose kernel
    (``_count``) says how the ties are tested.
    """

    allowed: np.ndarray
    leaf_mode: int = LEAF_COUNT
    tie_row_a: int = -1
    tie_row_b: int = -1
    tie_cols: int = 0
    ok: bool = True


def unit_masks(unit, unique=False, order=None):
    """The kernel inputs of a unit, as a :class:`UnitSpec`.

    ``unique``: for ``plain``/``mirror``, also test every solution for being
    canonical (``d4`` always classifies its solutions).  ``order``: ``d4``
    only, a ranking of the border distances other than :func:`d4_order`'s
    (any permutation of ``0..(n-1)//2`` gives the same counts; for tests).
    """
    n = unit.n
    full = int(full_mask(n))
    spec = UnitSpec(
        np.full(n, full, dtype=np.uint64), leaf_mode=LEAF_CANONICAL if unique else LEAF_COUNT
    )
    allowed = spec.allowed
    prefix = unit.prefix
    mid = (n - 1) // 2
    if unit.method == "mirror" and n % 2 == 1 and prefix and prefix[0] == mid and n > 1:
        allowed[1] &= np.uint64((1 << mid) - 1)
    elif unit.method == "d4":
        _d4_masks(unit, spec, order or d4_order(n, unit.lexicographic), full)
    placed = np.full(n, -1, dtype=np.int16)
    for r, c in unit.fixed:
        placed[r] = c
    for r, c in enumerate(prefix):
        if placed[r] >= 0 and placed[r] != c:
            spec.ok = False
            return spec
        placed[r] = c
    if unit.last is not None:
        if placed[n - 1] >= 0 and placed[n - 1] != unit.last:
            spec.ok = False
            return spec
        placed[n - 1] = unit.last
    spec.ok = bool(place_queens(n, allowed, placed)) and bool(np.all(allowed != 0))
    if spec.tie_row_a >= 0 and spec.ok:
        # Decided once per unit: if its masks leave no square where another
        # border queen ties with row 0's, no solution needs the test.
        side = 1 | 1 << (n - 1)
        if not (
            int(allowed[spec.tie_row_a]) & side
            or int(allowed[spec.tie_row_b]) & side
            or int(allowed[n - 1]) & spec.tie_cols
        ):
            spec.tie_row_a = spec.tie_row_b = -1
            spec.tie_cols = 0
    return spec


def d4_order(n, lexicographic=False):
    """The ranking of border distances that picks each class's representative.

    Parameters
    ----------
    n : int
        Board size, ``n >= 4``.
    lexicographic : bool
        Rank small distances first, so that the representative is the
        canonical form (Takaken's order).

    Returns
    -------
    tuple of int
        The distances ``0..(n-1)//2``, best ranked first.  The representative
        of a class is its image whose row-0 queen's distance ranks first.
        Without ``lexicographic``: the largest distances first, for odd n
        the middle column after 2, then 1 and 0 (corner queens).  This order
        was the cheapest of all orders for n = 12..15 (every order's node
        count was computed); ranking the middle column of an odd board lower
        pays because its units cannot use the mirror on the first row.
    """
    h = (n - 1) // 2
    if lexicographic:
        return tuple(range(h + 1))
    if n % 2 == 0:
        return tuple(range(h, -1, -1))
    return tuple(range(h - 1, 1, -1)) + (h, 1, 0)


def _d4_masks(unit, spec, order, full):
    """Fill in a ``d4`` unit's masks and tie test (see the module text);
    ``full``: the mask of all n columns."""
    n = unit.n
    allowed = spec.allowed
    a = unit.prefix[0]
    ranked_below = set(order[order.index(a) :])
    side = (1 << (n - 1)) | 1
    for r in range(1, n - 1):
        if min(r, n - 1 - r) not in ranked_below:
            allowed[r] &= np.uint64(full & ~side)
    last = 0
    for c in range(n):
        if min(c, n - 1 - c) in ranked_below:
            last |= 1 << c
    allowed[n - 1] &= np.uint64(last)
    if a == 0:
        # Corner queen: the transposition always ties; the smaller of the two
        # has its row-1 queen left of the column-1 queen's row (Takaken's
        # BOUND1), so rows 2..b1-1 exclude column 1.  No other image ties,
        # and no such solution is symmetric: each counts as an orbit of 8
        # (leaf mode 2 with no tie to test).
        allowed[2 : unit.prefix[1]] &= np.uint64(full & ~2)
        spec.leaf_mode = LEAF_D4
        return
    if 2 * a == n - 1:
        # Middle column: the mirror image always ties, and is larger exactly
        # when the row-1 queen is in the left half.
        allowed[1] &= np.uint64((1 << a) - 1)
    spec.leaf_mode = LEAF_D4
    spec.tie_row_a, spec.tie_row_b = a, n - 1 - a
    spec.tie_cols = (1 << a) | (1 << (n - 1 - a))


def _first_row_choices(n, method, order):
    """(row-0 prefixes, weight) pairs that a method starts from."""
    weight = WEIGHTS[method]
    if method == "plain":
        return [((c,), weight) for c in range(n)]
    if method == "mirror":
        out = [((c,), weight) for c in range(n // 2)]
        if n % 2 == 1:
            out.append(((n // 2,), weight))
        return out
    # d4: a runs to the middle.  A corner queen (a = 0) needs the row-1
    # column; ranked last, it would need a queen in every corner, which no
    # solution has (n > 1).
    out = []
    if order[-1] != 0:
        out = [((0, b1), weight) for b1 in range(2, n)]
    out += [((a,), weight) for a in range(1, (n - 1) // 2 + 1)]
    return out


def iter_units(n, method, depth, fixed=(), lexicographic=False, order=None):
    """The consistent work units of a method, lazily, in lexicographic order
    of their prefixes (the order in which their solutions are listed).

    Same parameters as :func:`make_units`, unchecked; ``lexicographic``: see
    :class:`WorkUnit`; ``order``: see :func:`unit_masks` (then depth >= 2).
    Yields ``(WorkUnit, UnitSpec)`` pairs.  A counting ``d4`` unit whose
    last row has at most ``(n - 4) // 2`` squares left is replaced by one
    unit per last-row queen (:attr:`WorkUnit.last`).
    """
    fixed = tuple(sorted(fixed))
    split_last = 0
    if method == "d4":
        order = order or d4_order(n, lexicographic)
        if not lexicographic:
            split_last = (n - 4) // 2
    rows = _fixed_rows(n, fixed)
    for start, weight in _first_row_choices(n, method, order):
        for prefix in _extend(n, start, depth, rows):
            unit = WorkUnit(n, method, prefix, weight, fixed, lexicographic)
            spec = unit_masks(unit, order=order)
            if not spec.ok:
                continue
            last_row = int(spec.allowed[n - 1])
            if last_row.bit_count() > split_last or last_row.bit_count() == 1:
                yield unit, spec
                continue
            # The d4 masks leave this unit's last row few squares (small a):
            # one unit per last-row queen then prunes from the first rows on,
            # which at n = 17 saves 3 % of the nodes and 5 % of the time.
            for c in range(n):
                if last_row >> c & 1:
                    sub = WorkUnit(n, method, prefix, weight, fixed, lexicographic, last=c)
                    sub_spec = unit_masks(sub, order=order)
                    if sub_spec.ok:
                        yield sub, sub_spec


def make_units(n, method, depth, fixed=()):
    """All work units of a method at a split depth, largest first.

    Parameters
    ----------
    n : int
        Board size, ``4 <= n <= MAX_N`` for ``d4``, ``3 <= n`` otherwise.
    method : str
        One of :data:`METHODS`.
    depth : int
        Rows pre-placed per unit, ``min_depth(method) <= depth <= n``.
    fixed : tuple of (int, int)
        Fixed queens (``plain`` only).

    Returns
    -------
    list of WorkUnit
        Only units whose prefix is consistent; ordered by a size estimate,
        largest first, ties by prefix.

    Raises
    ------
    ValueError
        For an unknown method or a depth out of range (n is trusted: checked at the door).
    """
    check_method(method)  # n is checked at the door (parqueens.methods.check_count)
    check_split_depth(depth, n, method, min_depth(method))
    units = [
        replace(unit, size=_size_estimate(spec.allowed))
        for unit, spec in iter_units(n, method, depth, fixed)
    ]
    units.sort(key=lambda u: (-u.size, u.prefix))
    return units


def _extend(n, start, depth, rows):
    """Non-attacking prefixes of length ``depth`` that begin with ``start``,
    in lexicographic order, with the queen of each row ``r`` within the
    columns ``rows[r]`` (an int mask: the squares fixed queens leave, see
    :func:`parqueens.search.small.fixed_rows`), so that no prefix is built only to be
    thrown away."""
    full = (1 << n) - 1
    cols = ld = rd = 0
    for r, c in enumerate(start):
        bit = 1 << c
        if (cols | ld | rd) & bit or not rows[r] & bit:
            return
        cols, ld, rd = cols | bit, ((ld | bit) << 1) & full, (rd | bit) >> 1
    stack = [(start, cols, ld, rd)]
    while stack:
        prefix, cols, ld, rd = stack.pop()
        if len(prefix) >= depth:
            yield prefix
            continue
        free = rows[len(prefix)] & ~(cols | ld | rd)
        for c in range(free.bit_length() - 1, -1, -1):  # popped from column 0 up
            bit = 1 << c
            if free & bit:
                stack.append((prefix + (c,), cols | bit, ((ld | bit) << 1) & full, (rd | bit) >> 1))


def children(unit):
    """The units one row deeper than a ``plain`` unit, in lexicographic order:
    its prefix extended by each square of the next row that the prefix and
    the fixed queens leave (a list of :class:`WorkUnit`; empty for a unit of
    another method, whose prefixes follow other rules)."""
    if unit.method != "plain" or unit.last is not None:
        return []
    rows = _fixed_rows(unit.n, unit.fixed)
    depth = len(unit.prefix) + 1
    return [
        WorkUnit(unit.n, unit.method, prefix, unit.weight, unit.fixed, unit.lexicographic)
        for prefix in _extend(unit.n, unit.prefix, depth, rows)
    ]


#: Above this many units (a deep split depth), :func:`work_shares` counts
#: units: they are then small, their set-up outweighs their search, and
#: counting them tells the time left better (and ``status`` need not build
#: them all again).
SHARES_UP_TO = 20000


def work_shares(units):
    """Each unit's estimated share of the whole search.

    ``units``: a list of :class:`WorkUnit` (or of
    :class:`parqueens.join.JoinUnit`, whose ``work`` gives their share).
    Returns a ``numpy.ndarray`` of
    ``float64``, one per unit, summing to 1 (empty for no units).  From the
    product of the free squares per row (see :func:`make_units`); at
    n = 17 the shares of the first 14, 30 and 60 of 229 d4 units came to
    0.40, 0.70 and 0.96 against 0.40, 0.69 and 0.93 of the nodes, where
    counting units would say 0.06, 0.13 and 0.26.  Beyond
    :data:`SHARES_UP_TO` units, or if no unit has room, each unit gets the
    same share.  Used for the time left.
    """
    units = list(units)
    if not units:
        return np.zeros(0)
    if len(units) > SHARES_UP_TO:
        return np.full(len(units), 1.0 / len(units))
    sizes = np.array(
        [u.size if u.size is not None else _size_estimate(unit_masks(u).allowed) for u in units]
    )
    if not np.isfinite(sizes.max()):
        return np.full(len(units), 1.0 / len(units))
    weights = np.exp2(sizes - sizes.max())
    return weights / weights.sum()


def _size_estimate(allowed):
    # log of the product of the free squares per row: a cheap upper bound
    # of the subtree, good enough to dispatch large units first.
    with np.errstate(divide="ignore"):  # a row with no room: -inf, size 0
        return float(np.sum(np.log2(np.bitwise_count(allowed).astype(np.float64))))


def auto_depth(n, method, jobs, fixed=()):
    """Split depth giving many more units than jobs (at least 64 per job).

    Units differ a lot in size, so a surplus keeps every worker busy to the
    end; the depth stops growing at n - 3 for small boards.  Fixed queens
    are counted in: their rows do not branch, so the depth grows past them.
    """
    target = max(128, 64 * jobs)
    depth = min_depth(method)
    while depth < n - 3 and _count_units(n, method, depth, fixed) < target:
        depth += 1
    return depth


def _count_units(n, method, depth, fixed=()):
    return sum(1 for _ in iter_units(n, method, depth, fixed))


# ---------------------------------------------------------------- the plan


def choose_depth(n, method, jobs, split_depth=None, fixed=()):
    """The split depth of a count: ``split_depth`` checked against the
    method's range, or :func:`auto_depth` for ``jobs`` jobs and the fixed
    queens if None."""
    if split_depth is None:
        return auto_depth(n, method, jobs, fixed)
    return check_split_depth(split_depth, n, method, min_depth(method))


def kernel_args(n, specs):
    """The arrays of :func:`parqueens.search.kernels.count_batch` for a list of
    :class:`UnitSpec` of board size n: ``(allowed, leaf_mode, ties)``,
    uint64 of shape ``(len(specs), n)``, int64 ``(len(specs),)`` and int64
    ``(len(specs), 3)``.  A spec that is not ``ok`` gets an empty row 0,
    which the kernel skips."""
    allowed = np.zeros((len(specs), n), dtype=np.uint64)
    leaf_mode = np.zeros(len(specs), dtype=np.int64)
    ties = np.zeros((len(specs), 3), dtype=np.int64)
    for i, spec in enumerate(specs):
        if spec.ok:
            allowed[i] = spec.allowed
        leaf_mode[i] = spec.leaf_mode
        ties[i] = spec.tie_row_a, spec.tie_row_b, spec.tie_cols
    return allowed, leaf_mode, ties
