"""Slow, independent reference code for the tests: brute force over
permutations, and the D4 symmetries written out on coordinates.

The published counts are copied here with their source, so that the tests
never depend on anything outside the repository.
"""

import functools
import types
from itertools import permutations

#: OEIS A000170, number of solutions, n = 0..18 (n = 0: one empty placement).
A000170 = [
    1,
    1,
    0,
    0,
    2,
    10,
    4,
    40,
    92,
    352,
    724,
    2680,
    14200,
    73712,
    365596,
    2279184,
    14772512,
    95815104,
    666090624,
]

#: OEIS A002562, fundamental solutions (distinct up to rotation and
#: reflection), n = 0..18 (n = 0 by the same convention).
A002562 = [
    1,
    1,
    0,
    0,
    1,
    2,
    1,
    6,
    12,
    46,
    92,
    341,
    1787,
    9233,
    45752,
    285053,
    1846955,
    11977939,
    83263591,
]


def _no_shared_diagonal(queens):
    """No two queens (column queens[r] in row r) on one diagonal."""
    n = len(queens)
    return all(abs(queens[i] - queens[j]) != i - j for i in range(n) for j in range(i))


def is_solution(queens):
    return sorted(queens) == list(range(len(queens))) and _no_shared_diagonal(queens)


@functools.cache  # n = 10 takes seconds: once per session
def solutions(n):
    """All solutions, in lexicographic order, by checking every permutation
    (a tuple: shared by every caller)."""
    # A permutation has one queen per row and column: only diagonals to check.
    return tuple(p for p in permutations(range(n)) if _no_shared_diagonal(p))


def _squares(queens):
    return {(r, c) for r, c in enumerate(queens)}


def _to_perm(squares, n):
    perm = [None] * n
    for r, c in squares:
        perm[r] = c
    return tuple(perm)


def images(queens):
    """The 8 images, by mapping coordinates through rotations and reflections."""
    n = len(queens)
    sq = _squares(queens)
    rot = lambda s: {(c, n - 1 - r) for r, c in s}  # noqa: E731  clockwise quarter turn
    refl = lambda s: {(r, n - 1 - c) for r, c in s}  # noqa: E731
    out = []
    s = sq
    for _ in range(4):
        out.append(_to_perm(s, n))
        out.append(_to_perm(refl(s), n))
        s = rot(s)
    return out


@functools.cache
def classes(n):
    """Symmetry classes of the solutions: {canonical form: orbit size}
    (read-only: shared by every caller)."""
    out = {}
    for p in solutions(n):
        imgs = set(images(p))
        out[min(imgs)] = len(imgs)
    return types.MappingProxyType(out)


def first_attack(queens):
    """Why ``queens`` is not a solution, as parqueens.verify words it, by
    looking at every pair: the first row that conflicts with an earlier
    one, and with which (a shared column first, then each diagonal)."""
    n = len(queens)
    for r2, c2 in enumerate(queens):
        if not 0 <= c2 < n:
            return f"the queen of row {r2} is off the board (column {c2})"
        earlier = list(enumerate(queens[:r2]))
        for key in (0, 1, -1):
            for r1, c1 in earlier:
                if key == 0 and c1 == c2:
                    return f"the queens of rows {r1} and {r2} share column {c2}"
                if key and r1 + key * c1 == r2 + key * c2:
                    return (
                        f"the queens of rows {r1} and {r2} (columns {c1} and {c2}) share a diagonal"
                    )
    return None
