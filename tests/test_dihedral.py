"""The numbering and the maps of the symmetries of the square
(:mod:`parqueens.dihedral`) against rotations and reflections made by hand,
and the numba-compiled map (:func:`parqueens.symmetry.transform`) against
the plain one."""

from hypothesis import given
from hypothesis import strategies as st

from parqueens.dihedral import SYMMETRIES, images, map_square
from parqueens.symmetry import transform

from naive import images as naive_images

perms = st.integers(1, 9).flatmap(lambda n: st.permutations(list(range(n))))


def _quarter_turn(queens):
    """Clockwise: the queen at (r, c) goes to (c, n - 1 - r)."""
    n = len(queens)
    out = [0] * n
    for r, c in enumerate(queens):
        out[c] = n - 1 - r
    return tuple(out)


def _mirror(queens):
    """Left-right: the queen at (r, c) goes to (r, n - 1 - c)."""
    return tuple(len(queens) - 1 - c for c in queens)


@given(perms)
def test_images_are_numbered_as_the_table_says(queens):
    q = tuple(queens)
    r1 = _quarter_turn(q)
    r2 = _quarter_turn(r1)
    r3 = _quarter_turn(r2)
    by_name = {
        "identity": q,
        "rot90": r1,
        "rot180": r2,
        "rot270": r3,
        "mirror": _mirror(q),
        "flip": _mirror(r2),
        "transpose": _mirror(r1),
        "antitranspose": _mirror(r3),
    }
    assert images(q) == [by_name[name] for name in SYMMETRIES]
    assert set(images(q)) == set(naive_images(q))


@given(perms)
def test_compiled_map_agrees_with_the_plain_one(queens):
    assert [transform(queens, g) for g in range(8)] == images(queens)


def test_map_of_a_corner_square():
    # (0, 1) on a 5-board: the table's (r, c) -> ... with m = 4
    assert [map_square(5, g, 0, 1) for g in range(8)] == [
        (0, 1),
        (1, 4),
        (4, 3),
        (3, 0),
        (0, 3),
        (4, 1),
        (1, 0),
        (3, 4),
    ]
