"""The eight symmetries of the square (the dihedral group D4), in plain Python.

This module is the one home of their numbering and of the map of a square
under each of them.  Rows are counted from the top, columns from the left
(``m = n - 1``); symmetry ``g`` maps the square ``(r, c)`` to:

====  ==================  ===================
  g    name                (r, c) ->
====  ==================  ===================
  0    identity            (r, c)
  1    rot90 (clockwise)   (c, m - r)
  2    rot180              (m - r, m - c)
  3    rot270              (m - c, r)
  4    mirror (left-right) (r, m - c)
  5    flip (up-down)      (m - r, c)
  6    transpose           (c, r)
  7    antitranspose       (m - c, m - r)
====  ==================  ===================

No imports: :mod:`parqueens.search.small` finds the symmetry classes of small boards
with :func:`images` before numba or numpy are loaded, and
:mod:`parqueens.symmetry` compiles :func:`map_square` with numba for its
kernels and public helpers.
"""

__all__ = ["SYMMETRIES", "map_square", "images"]


#: Names of the eight symmetries, indexed by ``g``.
SYMMETRIES = (
    "identity",
    "rot90",
    "rot180",
    "rot270",
    "mirror",
    "flip",
    "transpose",
    "antitranspose",
)


def map_square(n, g, r, c):
    """The image ``(row, col)`` of the square ``(r, c)`` of an n-board under
    symmetry ``g`` (0..7, see the module table; ints, not checked).  Plain
    Python that numba also compiles (:mod:`parqueens.symmetry`)."""
    m = n - 1
    if g == 0:
        return r, c
    if g == 1:
        return c, m - r
    if g == 2:
        return m - r, m - c
    if g == 3:
        return m - c, r
    if g == 4:
        return r, m - c
    if g == 5:
        return m - r, c
    if g == 6:
        return c, r
    return m - c, m - r


def images(queens):
    """The 8 images of the permutation ``queens`` (a sequence of int,
    ``queens[row] = col``, not checked) under the symmetries, indexed by
    ``g``: a list of 8 tuples, with repeats when ``queens`` is symmetric."""
    n = len(queens)
    out = []
    for g in range(8):
        image = [0] * n
        for r, c in enumerate(queens):
            r2, c2 = map_square(n, g, r, c)
            image[r2] = c2
        out.append(tuple(image))
    return out
