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


#: OEIS A032522, solutions fixed by the half turn (point symmetric), n = 0..32
#: (n = 0: the empty placement).  The terms n = 1..32 as the OEIS lists them,
#: read from the OEIS data mirrored in github.com/fallk/integers
#: (OEISOutputPart*/Lib.cs, class A032522); the oeis.org page itself was not
#: at hand.  Through n = 27 each term agrees with A000170 and A002562 by
#: A002562's formula a(n) = (A000170(n) + A032522(n) + 2 A033148(n)) / 8
#: (tested in test_burnside.py).
A032522 = [
    1,
    1,
    0,
    0,
    2,
    2,
    4,
    8,
    4,
    16,
    12,
    48,
    80,
    136,
    420,
    1240,
    3000,
    8152,
    18104,
    44184,
    144620,
    375664,
    1250692,
    3581240,
    11675080,
    34132592,
    115718268,
    320403024,
    1250901440,
    3600075088,
    14589438024,
    43266334696,
    181254386312,
]

#: OEIS A033148, solutions fixed by the quarter turn (rotationally
#: symmetric), n = 0..32 (n = 0: the empty placement), from
#: https://oeis.org/A033148 (terms n = 1..63 there; 0 unless n = 0 or 1 mod 4).
A033148 = [
    1,
    1,
    0,
    0,
    2,
    2,
    0,
    0,
    0,
    0,
    0,
    0,
    8,
    8,
    0,
    0,
    64,
    128,
    0,
    0,
    480,
    704,
    0,
    0,
    3328,
    3264,
    0,
    0,
    32896,
    43776,
    0,
    0,
    406784,
]


def _no_shared_diagonal(queens):
    """No two queens (column queens[r] in row r) on one diagonal."""
    n = len(queens)
    return all(abs(queens[i] - queens[j]) != i - j for i in range(n) for j in range(i))


def is_solution(queens):
    return sorted(queens) == list(range(len(queens))) and _no_shared_diagonal(queens)


def permutation_solutions(n):
    """All solutions, in lexicographic order, by checking every permutation:
    the definition itself (n = 10 takes half a minute; ``solutions`` is
    checked against it on the smaller boards)."""
    # A permutation has one queen per row and column: only diagonals to check.
    return tuple(p for p in permutations(range(n)) if _no_shared_diagonal(p))


@functools.cache
def solutions(n):
    """All solutions, in lexicographic order (a tuple: shared by every
    caller): the permutations of ``permutation_solutions``, built row by
    row, each column in increasing order, a partial one dropped as soon as
    its last queen shares a diagonal with an earlier one (every permutation
    that starts with it shares that diagonal too)."""
    found = []

    def extend(queens):
        if len(queens) == n:
            found.append(tuple(queens))
            return
        row = len(queens)
        for c in range(n):
            if c not in queens and all(abs(c - q) != row - r for r, q in enumerate(queens)):
                extend(queens + [c])

    extend([])
    return tuple(found)


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


def turn(queens, times=1):
    """The solution turned clockwise by ``times`` quarter turns, square by
    square: ``(r, c) -> (c, n - 1 - r)``."""
    n = len(queens)
    squares = _squares(queens)
    for _ in range(times % 4):
        squares = {(c, n - 1 - r) for r, c in squares}
    return _to_perm(squares, n)


def _placement_ok(squares):
    """No two queens on one row, column or diagonal."""
    k = len(squares)
    return all(
        len({f(r, c) for r, c in squares}) == k
        for f in (lambda r, c: r, lambda r, c: c, lambda r, c: r + c, lambda r, c: r - c)
    )


@functools.cache
def fixed_solutions(n, times):
    """All solutions fixed by ``times`` quarter turns (2: the half turn, 1:
    the quarter turn), sorted: unions of orbits of squares under the turn,
    the lowest free row's square first, every placement checked pair by pair
    (a tuple: shared by every caller)."""

    def orbit(square):
        out = {square}
        while True:
            r, c = square
            for _ in range(times):
                r, c = c, n - 1 - r
            square = (r, c)
            if square in out:
                return out
            out.add(square)

    found = []

    def extend(squares):
        rows = {r for r, _ in squares}
        free = [r for r in range(n) if r not in rows]
        if not free:
            found.append(_to_perm(squares, n))
            return
        for c in range(n):
            more = squares | orbit((free[0], c))
            if _placement_ok(more):
                extend(more)

    extend(frozenset())
    return tuple(sorted(found))
