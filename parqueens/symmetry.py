"""The symmetries of the square (the dihedral group D4) acting on solutions.

A solution is a permutation ``queens`` with ``queens[row] = col``.  The eight
symmetries are numbered ``g = 0..7`` as :mod:`parqueens.dihedral` tables
them (0 the identity, 1..3 the quarter turns clockwise, 4 the left-right
mirror, 5 the up-down flip, 6 the transpose, 7 the antitranspose), with the
names of :data:`SYMMETRIES`.

The *canonical form* of a solution is the lexicographically smallest
permutation in its orbit.  The *orbit size* is 8 divided by the size of the
stabiliser; for n > 1 it is 8, 4 (symmetric under a half turn only) or 2
(symmetric under a quarter turn), since no solution is fixed by a reflection
(OEIS A002562 counts the orbits).  The numba functions here are shared by the
search kernels (canonical check at the leaves) and the public helpers.
"""

from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt
from numba import njit

from .checks import check_row
from .dihedral import SYMMETRIES, map_square

__all__ = ["SYMMETRIES", "canonical", "orbit", "orbit_size", "stabilizer", "transform"]

# The map of a square, compiled: its one definition is in dihedral.py.
_map_square = njit(cache=True, nogil=True)(map_square)


@njit(cache=True, nogil=True)
def _image(n: int, queens: Any, g: int, out: Any) -> None:
    """Write the image of the permutation ``queens`` under ``g`` into ``out``."""
    for r in range(n):
        r2, c2 = _map_square(n, g, r, queens[r])
        out[r2] = c2


@njit(cache=True, nogil=True)
def _first_of_image(n: int, g: int, queens: Any, inv: Any) -> Any:
    """Row-0 column of the image under ``g``, from the border queens only
    (:func:`parqueens.dihedral.map_square` solved for the image's row 0).

    ``inv`` is the inverse permutation (``inv[col] = row``); only ``inv[0]``
    and ``inv[n - 1]`` are read.
    """
    m = n - 1
    if g == 0:
        return queens[0]
    if g == 1:
        return m - inv[0]
    if g == 2:
        return m - queens[m]
    if g == 3:
        return inv[m]
    if g == 4:
        return m - queens[0]
    if g == 5:
        return queens[m]
    if g == 6:
        return inv[0]
    return m - inv[m]


@njit(cache=True, nogil=True)
def _image_row(n: int, g: int, queens: Any, inv: Any, i: int) -> Any:
    """Column of row ``i`` of the image under ``g`` (``inv[col] = row``):
    :func:`parqueens.dihedral.map_square` solved for the image's row ``i``,
    without building the image."""
    m = n - 1
    if g == 0:
        return queens[i]
    if g == 1:
        return m - inv[i]
    if g == 2:
        return m - queens[m - i]
    if g == 3:
        return inv[m - i]
    if g == 4:
        return m - queens[i]
    if g == 5:
        return queens[m - i]
    if g == 6:
        return inv[i]
    return m - inv[m - i]


@njit(cache=True, nogil=True)
def canonical_stabilizer(n: int, queens: Any, inv: Any, ties_only: bool = False) -> int:
    """Size of the stabiliser of ``queens`` if it is canonical, else 0: the
    search kernels' test at the leaves (numba; ``queens`` and its inverse
    ``inv``, ``inv[col] = row``, int64 arrays of shape ``(n,)``).

    Only the images whose first entry ties with ``queens[0]`` are compared,
    row by row until they differ (usually within two rows); the others are
    decided from the border queens in O(1).  With ``ties_only``, images
    with a smaller first entry are ignored: the D4 search's masks have
    already ranked them below ``queens`` (see
    :func:`parqueens.search.units.d4_order`), so only ties are compared.
    """
    stab = 1
    q0 = queens[0]
    for g in range(1, 8):
        f = _first_of_image(n, g, queens, inv)
        if f > q0:
            continue
        if f < q0:
            if ties_only:
                continue
            return 0
        cmp = 0
        for r in range(1, n):
            c = _image_row(n, g, queens, inv, r)
            if c != queens[r]:
                cmp = -1 if c < queens[r] else 1
                break
        if cmp < 0:
            return 0
        if cmp == 0:
            stab += 1
    return stab


def _as_perm(queens: Sequence[int] | npt.NDArray[Any]) -> npt.NDArray[np.int64]:
    """``queens`` (a row of queens, :func:`parqueens.checks.check_row`) as
    an int64 array; ``ValueError`` unless it is a permutation of ``range(n)``."""
    q = np.array(check_row(queens), dtype=np.int64)
    if len(set(q.tolist())) != q.shape[0]:
        raise ValueError("queens must be a permutation of range(n)")
    return q


def transform(queens: Sequence[int] | npt.NDArray[Any], g: int | str) -> tuple[int, ...]:
    """Apply symmetry ``g`` (0..7, see the module table) to a permutation.

    Parameters
    ----------
    queens : sequence of int, length n
        A permutation, ``queens[row] = col`` (it need not be a solution).
    g : int
        Index of the symmetry, 0..7, or its name from :data:`SYMMETRIES`.

    Returns
    -------
    tuple of int
        The image, again as ``queens[row] = col``.

    Raises
    ------
    TypeError
        If ``queens`` has entries that are not integers (booleans
        included), or ``g`` is neither an integer nor a name.
    ValueError
        If ``queens`` is not a permutation or ``g`` is not a symmetry.
    """
    if isinstance(g, str):
        if g not in SYMMETRIES:
            raise ValueError(f"unknown symmetry {g!r}; choose from {', '.join(SYMMETRIES)}")
        g = SYMMETRIES.index(g)
    if isinstance(g, bool) or not isinstance(g, (int, np.integer)):
        raise TypeError(f"symmetry index must be an integer or a name, got {g!r}")
    if not 0 <= g < 8:
        raise ValueError(f"symmetry index must be 0..7, got {g!r}")
    q = _as_perm(queens)
    out = np.empty_like(q)
    _image(q.shape[0], q, int(g), out)
    return tuple(int(c) for c in out)


def orbit(queens: Sequence[int] | npt.NDArray[Any]) -> list[tuple[int, ...]]:
    """The distinct images of ``queens`` under D4, sorted lexicographically.

    Returns a list of tuples; its length is the orbit size (1, 2, 4 or 8).
    Raises ``ValueError`` if ``queens`` is not a permutation, ``TypeError``
    if its entries are not integers (booleans included).
    """
    q = _as_perm(queens)
    return sorted({transform(q, g) for g in range(8)})


def canonical(queens: Sequence[int] | npt.NDArray[Any]) -> tuple[int, ...]:
    """The canonical form: the lexicographically smallest image under D4.

    ``queens``: sequence of int, a permutation.  Returns a tuple of int.
    Raises as :func:`orbit`.
    """
    return orbit(queens)[0]


def orbit_size(queens: Sequence[int] | npt.NDArray[Any]) -> int:
    """Number of distinct images of ``queens`` under D4: 1, 2, 4 or 8."""
    return len(orbit(queens))


def stabilizer(queens: Sequence[int] | npt.NDArray[Any]) -> tuple[str, ...]:
    """The symmetries that fix ``queens``, as a tuple of names."""
    q = _as_perm(queens)
    t = tuple(int(c) for c in q)
    return tuple(SYMMETRIES[g] for g in range(8) if transform(q, g) == t)
