"""The counting kernel's compiled variants against each other and the oracle.

:func:`parqueens.search.kernels._count` is compiled in variants chosen by argument
types: with or without the per-row table of banned squares, with or without
recording the solutions (leaves), with or without the node counter, and
the listing (:func:`parqueens.search.kernels.list_solutions`, writing every solution).  Each
must find the same solutions as brute force over all permutations.
"""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from parqueens.run.runner import run_count
from parqueens.search.kernels import (
    WORK_SIZE,
    _count,
    bans_beyond,
    count_batch,
    full_mask,
    list_solutions,
    place_queens,
)
from parqueens.symmetry import canonical, orbit_size

from naive import A000170, A002562, solutions


def _oracle(n, allowed):
    """Solutions with the row-r queen in allowed[r], and their canonical ones
    by stabiliser size (as the kernel's by_stab)."""
    found = [s for s in solutions(n) if all(int(allowed[r]) >> c & 1 for r, c in enumerate(s))]
    by_stab = [0, 0, 0, 0]
    for s in found:
        if canonical(s) == s:
            by_stab[{8: 0, 4: 1, 2: 2, 1: 3}[orbit_size(s)]] += 1
    return len(found), by_stab


def _check_listing(n, allowed):
    """The listing kernel writes the oracle's solutions in lexicographic
    order, says complete when they fill its buffer exactly, and stops, saying
    so, when one more does not fit."""
    found = sorted(
        s for s in solutions(n) if all(int(allowed[r]) >> c & 1 for r, c in enumerate(s))
    )
    banned_options = [True] + ([None] if not bans_beyond(n, allowed) else [])
    for banned in banned_options:
        for room in {len(found), len(found) + 3, max(len(found) - 1, 0)}:
            out = np.zeros((room, n), np.uint8)
            got, complete = list_solutions(n, allowed, banned, out, np.zeros(WORK_SIZE, np.uint64))
            assert got == min(room, len(found))
            assert complete == (room >= len(found))
            assert [tuple(int(c) for c in row) for row in out[:got]] == found[:got]


def _count_all_ways(n, allowed):
    """The count of every variant that applies, as a set, and the classes."""
    counts = set()
    classes = []
    banned_options = [True] + ([None] if not bans_beyond(n, allowed) else [])
    for banned in banned_options:
        for record in (False, True):
            for nodes in (False, True):
                W = np.zeros(WORK_SIZE, np.uint64)
                by_stab = np.zeros(4, np.uint64)
                leaves = np.empty((3, n), np.uint64) if record else None  # flushed often
                counted = np.zeros(1, np.uint64) if nodes else None
                s = _count(
                    n,
                    allowed,
                    banned,
                    -1,
                    -1,
                    np.uint64(0),
                    leaves,
                    np.empty(3, np.bool_),
                    by_stab,
                    counted,
                    None,
                    W,
                )
                counts.add(int(s))
                if record:
                    classes.append([int(x) for x in by_stab])
                if nodes:
                    # a solution's rows, and the last-row queen of each other one
                    # (solutions share the nodes of their common rows)
                    assert int(counted[0]) >= (n - 1 + int(s) - 1 if s else 0)
    return counts, classes


_masks = st.integers(5, 9).flatmap(
    lambda n: st.tuples(st.just(n), st.lists(st.integers(1, (1 << n) - 1), min_size=n, max_size=n))
)


@settings(max_examples=40)
@given(_masks)
def test_any_masks_every_variant(case):
    # Arbitrary per-row masks: the kernel with its table of banned squares.
    n, rows = case
    allowed = np.array(rows, dtype=np.uint64)
    total, by_stab = _oracle(n, allowed)
    counts, classes = _count_all_ways(n, allowed)
    assert counts == {total}
    assert all(c == by_stab for c in classes)
    _check_listing(n, allowed)


@settings(max_examples=40)
@given(
    st.integers(4, 9).flatmap(
        lambda n: st.tuples(
            st.just(n),
            st.lists(st.integers(0, n - 1), min_size=1, max_size=n - 3),
            st.lists(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1)), max_size=2),
        )
    )
)
def test_queens_every_variant(case):
    # Masks made by queens: a prefix (leading rows, placed before the search)
    # and fixed queens anywhere (rows of one square in the middle).
    n, prefix, fixed = case
    placed = np.full(n, -1, np.int16)
    for r, c in fixed:
        placed[r] = c
    for r, c in enumerate(prefix):
        placed[r] = c
    allowed = np.full(n, full_mask(n), np.uint64)
    if not place_queens(n, allowed, placed) or not np.all(allowed != 0):
        allowed[0] = 0  # conflicting queens: no solution
    total, by_stab = _oracle(n, allowed)
    counts, classes = _count_all_ways(n, allowed)
    if not fixed or all(r < len(prefix) for r, _ in fixed):
        assert not bans_beyond(n, allowed) or allowed[0] == 0
    assert counts == {total}
    assert all(c == by_stab for c in classes)
    _check_listing(n, allowed)


def test_batch_skips_empty_units_and_counts_nodes_on_request():
    n = 8
    allowed = np.full((3, n), full_mask(n), np.uint64)
    allowed[1, 0] = 0
    args = (n, allowed, np.zeros(3, np.int64), np.zeros((3, 3), np.int64))
    solutions_, by_stab = count_batch(*args, None)
    counted = np.zeros(3, np.uint64)
    again, _ = count_batch(*args, counted)
    assert list(solutions_) == list(again) == [92, 0, 92]
    assert counted[0] == counted[2] > 92 * 8 and counted[1] == 0
    assert not by_stab.any()


def test_every_method_and_variant_n4_to_10():
    # (larger boards add no variant: every method counts n = 11..13 against
    # OEIS in test_runner.py, d4 and mirror agree on n = 14 and 15 there)
    for n in range(4, 11):
        seen = set()
        for method in ("d4", "mirror", "plain"):
            for nodes in (False, True):
                r = run_count(n, unique=True, method=method, jobs=1, nodes=nodes)
                seen.add((r.total, r.fundamental, tuple(r.orbits.items())))
                assert (r.nodes is not None) == nodes
        assert len(seen) == 1, (n, seen)
        total, fundamental, _ = seen.pop()
        assert (total, fundamental) == (A000170[n], A002562[n])


def test_wide_boards_with_fixed_queens():
    # n > 31 and the full 64-bit width (no bit off the board): the rows left
    # free by a known solution, completed by brute force over their columns.
    import itertools
    import random

    from parqueens import count
    from parqueens.construction import construct, is_solution

    rnd = random.Random(5)
    for n in (33, 47, 63, 64):
        q = [int(c) for c in construct(n)]
        free = sorted(rnd.sample(range(n), 6))
        fixed = [(r, q[r]) for r in range(n) if r not in free]
        brute = 0
        for cols in itertools.permutations([q[r] for r in free]):
            s = list(q)
            for r, c in zip(free, cols, strict=False):
                s[r] = c
            brute += is_solution(s)
        assert count(n, fixed=fixed, jobs=1) == brute >= 1


_AS_PYTHON = """
import numpy as np
import parqueens
from parqueens.join import match, rowsets
from parqueens.search.kernels import AS_PYTHON

visits = []
shared = match._match_any
match._match_any = lambda *args: visits.append(1) or shared(*args)
counts = rowsets.count_units(10, rowsets.plan_units(10), np.zeros(1, np.uint8))
print(AS_PYTHON, len(visits) > 0, sum(counts), parqueens.count(10, method="d4"),
      parqueens.count(10), *map(len, parqueens.solutions(6)), parqueens.count_unique(9).fundamental)
"""


def test_the_kernels_run_as_python_where_numba_is_disabled():
    """NUMBA_DISABLE_JIT=1 (to step through a kernel in a debugger): the
    intrinsics (vectors of lanes, trailing zeros) have Python bodies, so the
    join's row sets, the search and the listing count as compiled."""
    import subprocess
    import sys

    from cli_helpers import cli_env

    env = cli_env() | {"NUMBA_DISABLE_JIT": "1"}
    r = subprocess.run(
        [sys.executable, "-c", _AS_PYTHON], capture_output=True, text=True, env=env, timeout=120
    )
    assert r.returncode == 0, r.stderr
    assert r.stdout.split() == ["True", "True", "724", "724", "724", "6", "6", "6", "6", "46"], (
        r.stdout
    )
