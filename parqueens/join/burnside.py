"""Fundamental counts from a total: the solutions fixed by the rotations, and
Burnside's lemma.

The symmetries of the square (the dihedral group D4, see
:mod:`parqueens.symmetry`) act on the solutions of a board of size ``n``.  By
Burnside's lemma the number of orbits (classes, OEIS A002562) is the mean
number of solutions fixed by a symmetry::

    classes = (Q + P + 2 R) / 8

where ``Q`` is the total (OEIS A000170, fixed by the identity), ``P`` the
solutions fixed by the half turn (OEIS A032522) and ``R`` those fixed by
each quarter turn (OEIS A033148); for ``n >= 2`` no reflection fixes a
solution (it would put two queens on one line).  The orbits of a solution
fixed by the quarter turn have 2 solutions, of one fixed by the half turn
only 4, of the others 8, so that ``R / 2`` classes have 2 solutions,
``(P - R) / 4`` have 4 and ``(Q - P) / 8`` have 8.  ``P`` and ``R`` come from
small searches over symmetric placements, which place each queen together
with its images, so that a total counted by any method (the join, which does
not classify) gives the classes cheaply.

The kernels follow :mod:`parqueens.search.kernels`' conventions (row 0 at the top,
column ``c`` is bit ``1 << c``, ``uint64`` masks, every literal cast), but the
diagonals are kept *absolute*: the square ``(r, c)`` lies on the diagonal
``r + c`` of one family and ``r - c + n - 1`` of the other, bits of a mask of
``2n - 1`` bits, so boards up to :data:`MAX_SYMMETRIC_N` fit a ``uint64``.  A
placement closed under the half turn has closed masks: the half turn maps
the column ``c`` to ``n - 1 - c`` and the diagonal ``k`` of either family to
``2n - 2 - k``, so a square is free exactly when its image is, and testing the
queen tests its image too.
"""

import numpy as np
from numba import njit

from ..checks import check_n
from ..names import ORBIT_SIZES
from ..search.kernels import ONE as _ONE
from ..search.kernels import ZERO as _ZERO
from ..search.kernels import popcount, trailing_zeros

__all__ = ["MAX_SYMMETRIC_N", "count_half_turn", "count_quarter_turn", "orbits_from_counts"]


#: Largest board served: the absolute diagonals of a board of size ``n`` are
#: ``2n - 1`` bits of a ``uint64``.  (Far beyond any total parqueens can
#: count: the join goes to about n = 27.)
MAX_SYMMETRIC_N = 32


@njit(cache=True, nogil=True)
def _bit(i):
    return _ONE << np.uint64(i)


@njit(cache=True, nogil=True)
def _free_pair(n, r, board, cols, d1, d2):
    """The columns where the queen of row ``r`` (``r < n // 2``) and its
    image under the half turn can stand, the masks being closed under it:
    the queen's own square free, and not ``c = r`` or ``c = n - 1 - r``,
    where the queen and its image would share a diagonal."""
    return (
        board
        & ~cols
        & ~(d1 >> np.uint64(r))
        & ~(d2 >> np.uint64(n - 1 - r))
        & ~(_bit(r) | _bit(n - 1 - r))
    )


@njit(cache=True, nogil=True)
def _count_half_turn(n, first):
    """Solutions fixed by the half turn whose queen in the row above the
    middle (row ``n // 2 - 1``) is in ``first`` (a ``uint64`` column mask);
    requires ``n >= 2``.

    The queens of rows ``r`` and ``n - 1 - r`` are placed together, ``(r, c)``
    with ``(n - 1 - r, n - 1 - c)``, from the middle out: ``r = n // 2 - 1``
    down to 0 (the middle pairs, close together, prune each other most: a
    third of the nodes of the top-down order at n = 24).  The middle row of
    an odd board holds the centre queen, placed first.  The masks stay
    closed under the half turn (see the module docstring), so the free
    columns of a pair are those of its upper queen (:func:`_free_pair`).
    The last pair's free columns are counted, not placed.
    """
    half = n // 2
    board = (_ONE << np.uint64(n)) - _ONE
    cols = np.empty(half, np.uint64)
    d1 = np.empty(half, np.uint64)  # diagonals r + c
    d2 = np.empty(half, np.uint64)  # diagonals r - c + n - 1
    free = np.empty(half, np.uint64)
    cols[0] = _ZERO
    d1[0] = _ZERO
    d2[0] = _ZERO
    if n % 2 == 1:  # the centre queen (half, half)
        cols[0] = _bit(half)
        d1[0] = _bit(n - 1)
        d2[0] = _bit(n - 1)
    last = half - 1
    free[0] = first & _free_pair(n, half - 1, board, cols[0], d1[0], d2[0])
    count = 0
    k = 0  # the level: row half - 1 - k
    while k >= 0:
        f = free[k]
        if f == _ZERO:
            k -= 1
            continue
        if k == last:
            count += popcount(f)
            k -= 1
            continue
        bit = f & (~f + _ONE)
        free[k] = f ^ bit
        c = np.int64(trailing_zeros(bit))
        r = half - 1 - k
        a = r + c
        b = r - c + n - 1
        cols[k + 1] = cols[k] | bit | _bit(n - 1 - c)
        d1[k + 1] = d1[k] | _bit(a) | _bit(2 * n - 2 - a)
        d2[k + 1] = d2[k] | _bit(b) | _bit(2 * n - 2 - b)
        k += 1
        free[k] = _free_pair(n, r - 1, board, cols[k], d1[k], d2[k])
    return count


@njit(cache=True, nogil=True)
def _free_orbit(n, r, board, used, diag):
    """The columns ``c`` where the queen of the free row ``r`` (``r < n / 2``)
    and its images under the quarter turn can stand, ``used`` and ``diag``
    being closed under it: ``c`` free, its diagonals ``r + c`` and
    ``n - 1 + c - r`` free, and not ``c = r`` or ``c = n - 1 - r``."""
    return (
        board
        & ~used
        & ~(diag >> np.uint64(r))
        & ~(diag >> np.uint64(n - 1 - r))
        & ~(_bit(r) | _bit(n - 1 - r))
    )


@njit(cache=True, nogil=True)
def _count_quarter_turn(n, first):
    """Solutions fixed by the quarter turn whose row-0 queen is in
    ``first`` (a ``uint64`` column mask); requires ``n >= 4`` and
    ``n % 4`` in (0, 1).

    Each queen ``(r, c)`` comes with its images ``(c, n-1-r)``,
    ``(n-1-r, n-1-c)`` and ``(n-1-c, r)``: four rows ``{r, c, n-1-r, n-1-c}``
    whose columns are the same four numbers, so one mask ``used`` holds the
    rows and the columns taken.  The quarter turn swaps the two diagonal
    families, so one mask ``diag`` holds the diagonals of both (closed under
    ``k -> 2n - 2 - k``); the four queens use ``r + c``, ``n - 1 + c - r`` and
    their images.  Each level places the lowest free row ``r`` (``r < n / 2``)
    with a column ``c`` other than ``r`` and ``n - 1 - r`` (the orbit would hit
    row ``r`` twice); the odd board's centre queen is placed first.  The
    last level's free columns are counted, not placed.
    """
    depth = n // 4
    board = (_ONE << np.uint64(n)) - _ONE
    used = np.empty(depth, np.uint64)
    diag = np.empty(depth, np.uint64)
    free = np.empty(depth, np.uint64)
    row = np.empty(depth, np.int64)
    used[0] = _ZERO
    diag[0] = _ZERO
    if n % 4 == 1:  # the centre queen
        used[0] = _bit(n // 2)
        diag[0] = _bit(n - 1)
    row[0] = 0
    free[0] = first & _free_orbit(n, 0, board, used[0], diag[0])
    count = 0
    k = 0
    while k >= 0:
        f = free[k]
        if f == _ZERO:
            k -= 1
            continue
        if k == depth - 1:
            count += popcount(f)
            k -= 1
            continue
        bit = f & (~f + _ONE)
        free[k] = f ^ bit
        c = np.int64(trailing_zeros(bit))
        r = row[k]
        a = r + c
        b = n - 1 + c - r
        used[k + 1] = used[k] | bit | _bit(n - 1 - c) | _bit(r) | _bit(n - 1 - r)
        diag[k + 1] = diag[k] | _bit(a) | _bit(2 * n - 2 - a) | _bit(b) | _bit(2 * n - 2 - b)
        k += 1
        r = np.int64(trailing_zeros(~used[k]))
        row[k] = r
        free[k] = _free_orbit(n, r, board, used[k], diag[k])
    return count


def _left_half(n):
    """The columns left of the middle: the mirror image (left-right) of a
    symmetric solution is symmetric, and the queen of the kernel's first row
    is never in the middle column (the centre queen's), so the left half
    counts half."""
    return (_ONE << np.uint64(n // 2)) - _ONE


def count_half_turn(n):
    """Number of solutions fixed by the half turn (OEIS A032522).

    A queen at ``(r, c)`` implies one at ``(n - 1 - r, n - 1 - c)``.  Searched
    with the queens placed in pairs (:func:`_count_half_turn`), the first
    pair's queen in the left half, doubled by the mirror symmetry.  One
    core, measured here: 2 ms at n = 19, 20 ms at n = 21, 0.7 s at n = 24,
    17 s at n = 27, 25 minutes at n = 30 (about 3.5 times more per row).

    Parameters
    ----------
    n : int
        Board size, ``0 .. MAX_SYMMETRIC_N`` (32).  n = 0 and 1 give 1 (the
        empty placement, the single queen).

    Returns
    -------
    int

    Raises
    ------
    TypeError, ValueError
        For a non-integer or a size outside ``0 .. MAX_SYMMETRIC_N``.
    """
    n = check_n(n, high=MAX_SYMMETRIC_N)
    if n <= 1:
        return 1
    return 2 * int(_count_half_turn(n, _left_half(n)))


def count_quarter_turn(n):
    """Number of solutions fixed by the quarter turn (OEIS A033148).

    A queen at ``(r, c)`` implies one at ``(c, n - 1 - r)`` (and so at all
    four rotations of its square).  Nonzero only for n = 0 or 1 mod 4
    (Ahrens, 1910); searched by orbits of four queens
    (:func:`_count_quarter_turn`), over the row-0 queens of the left half,
    doubled by the mirror symmetry.

    Parameters
    ----------
    n : int
        Board size, ``0 .. MAX_SYMMETRIC_N`` (32).  n = 0 and 1 give 1.

    Returns
    -------
    int

    Raises
    ------
    TypeError, ValueError
        For a non-integer or a size outside ``0 .. MAX_SYMMETRIC_N``.
    """
    n = check_n(n, high=MAX_SYMMETRIC_N)
    if n <= 1:
        return 1
    if n % 4 not in (0, 1):
        return 0
    return 2 * int(_count_quarter_turn(n, _left_half(n)))


def orbits_from_counts(n, total, half_turn, quarter_turn):
    """The symmetry classes by orbit size, from the counts of solutions
    fixed by the rotations (Burnside's lemma; see the module docstring).

    Parameters
    ----------
    n : int
        Board size, ``>= 0``.
    total : int
        All solutions, Q (OEIS A000170).
    half_turn : int
        Solutions fixed by the half turn, P (:func:`count_half_turn`).
    quarter_turn : int
        Solutions fixed by the quarter turn, R (:func:`count_quarter_turn`).

    Returns
    -------
    dict
        ``{8: (Q - P) / 8, 4: (P - R) / 4, 2: R / 2, 1: 0}`` (orbit size ->
        classes, as :attr:`parqueens.run.runner.CountResult.orbits`); for n <= 1
        the single solution is fixed by every symmetry: ``{8: 0, 4: 0, 2: 0,
        1: 1}``.  The classes (OEIS A002562) are the sum of the values.

    Raises
    ------
    TypeError, ValueError
        For a non-integer or negative argument.
    RuntimeError
        If the counts are not those of a board: a remainder in a division,
        a negative number of classes, solutions fixed by the quarter turn
        for n = 2 or 3 mod 4, or for n <= 1 anything but one solution fixed
        by all.  One of the counts is wrong (an internal error).
    """
    n = check_n(n, high=None)
    q = check_n(total, name="total", high=None)
    p = check_n(half_turn, name="half_turn", high=None)
    r = check_n(quarter_turn, name="quarter_turn", high=None)
    if n <= 1:
        ok = q == p == r == 1
        orbits = (0, 0, 0, q)
    else:
        ok = (r == 0 or n % 4 in (0, 1)) and q >= p >= r
        ok = ok and (q - p) % 8 == 0 and (p - r) % 4 == 0 and r % 2 == 0
        orbits = ((q - p) // 8, (p - r) // 4, r // 2, 0)
    if not ok:
        raise RuntimeError(
            f"internal error: the counts of n = {n} are inconsistent (total {q}, "
            f"fixed by the half turn {p}, by the quarter turn {r}): one of them is wrong"
        )
    return dict(zip(ORBIT_SIZES, orbits, strict=True))
