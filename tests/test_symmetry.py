"""D4 helpers against coordinates mapped by hand."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from parqueens.symmetry import SYMMETRIES, canonical, orbit, orbit_size, stabilizer, transform

from naive import images, solutions

Q8 = (0, 4, 7, 5, 2, 6, 1, 3)


def test_conventions_n8():
    # rot90 clockwise: the queen at (r, c) goes to (c, n-1-r)
    r90 = transform(Q8, "rot90")
    assert all(r90[c] == 7 - r for r, c in enumerate(Q8))
    assert transform(Q8, "mirror") == tuple(7 - c for c in Q8)
    assert transform(Q8, "flip") == Q8[::-1]
    assert transform(Q8, "rot180") == tuple(7 - c for c in Q8[::-1])
    inv = [0] * 8
    for r, c in enumerate(Q8):
        inv[c] = r
    assert transform(Q8, "transpose") == tuple(inv)
    assert transform(transform(Q8, 1), 1) == transform(Q8, 2)
    assert transform(transform(Q8, 1), 3) == Q8


@pytest.mark.parametrize("n", range(1, 9))
def test_orbit_matches_coordinate_images(n):
    for s in solutions(n):
        assert set(orbit(s)) == set(images(s))
        assert canonical(s) == min(images(s))


def test_n8_orbits():
    sizes = sorted(orbit_size(s) for s in {canonical(s) for s in solutions(8)})
    assert sizes == [4] + [8] * 11
    sym = next(s for s in solutions(8) if orbit_size(s) == 4)
    assert set(stabilizer(sym)) == {"identity", "rot180"}


perms = st.integers(1, 9).flatmap(lambda n: st.permutations(list(range(n))))


@given(perms)
def test_canonical_idempotent_and_orbit_sizes(p):
    c = canonical(p)
    assert canonical(c) == c
    assert c in orbit(p)
    assert orbit_size(p) in (1, 2, 4, 8)
    assert orbit_size(p) * len(stabilizer(p)) == 8


@given(perms, st.integers(0, 7), st.integers(0, 7))
def test_group_closure(p, g, h):
    assert canonical(transform(transform(p, g), h)) == canonical(p)


@pytest.mark.parametrize(
    "bad, exc, words",
    [
        ((0, 0), ValueError, "queens must be a permutation of range"),
        ((1, 2), ValueError, "columns must lie in 0..1"),
        ([[0]], ValueError, "queens must be one-dimensional"),
        # as the README says: booleans are not integers (numpy read them as 1 and 0)
        ((True, False), TypeError, "queens must contain only integers, got bool"),
        ((1.0, 0.0), TypeError, "queens must contain only integers, got float"),
        ("10", TypeError, "queens must be a sequence of int, got a string"),
    ],
)
def test_rejects_non_permutations(bad, exc, words):
    for f in (canonical, orbit, orbit_size, lambda q: transform(q, 1)):
        with pytest.raises(exc, match=words):
            f(bad)


def test_rejects_unknown_symmetry():
    with pytest.raises(ValueError):
        transform(Q8, 8)
    with pytest.raises(ValueError):
        transform(Q8, "spin")
    for not_an_index in (True, 1.0):  # as the README says: booleans are not integers
        with pytest.raises(TypeError):
            transform(Q8, not_an_index)
    assert len(SYMMETRIES) == 8


@given(st.permutations(list(range(9))) | st.permutations(list(range(6))))
def test_kernel_image_rows_and_canonical_test(perm):
    # The search's canonical test reads images row by row without building
    # them; it must agree with transform() and canonical().
    import numpy as np

    from parqueens.symmetry import _image_row, canonical_stabilizer

    n = len(perm)
    q = np.array(perm, dtype=np.int64)
    inv = np.argsort(q)
    for g in range(8):
        assert [_image_row(n, g, q, inv, i) for i in range(n)] == list(transform(perm, g))
    stab = canonical_stabilizer(n, q, inv)
    assert (stab > 0) == (canonical(perm) == tuple(perm))
    if stab:
        assert stab == 8 // orbit_size(perm)
