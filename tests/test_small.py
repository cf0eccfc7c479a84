"""Small boards at once: the pure-Python path against the kernels for every
board it serves, and what a fresh process loads for it."""

import numpy as np
import pytest

from parqueens.run.listing import first_solution, iter_blocks
from parqueens.run.runner import run_count
from parqueens.search import small

from cli_helpers import fresh_main
from naive import A000170, A002562


@pytest.mark.parametrize("n", range(0, small.DIRECT_N + 1))
def test_direct_equals_kernels(n):
    direct = run_count(n, unique=True)
    kernel = run_count(n, unique=True, method="d4", jobs=1)  # a method named: the kernels
    assert direct.method == "plain" and direct.units == 0
    assert (direct.total, direct.fundamental) == (A000170[n], A002562[n])
    assert (direct.total, direct.orbits) == (kernel.total, kernel.orbits)
    for unique in (False, True):
        listed = [tuple(r) for b in iter_blocks(n, unique=unique) for r in b.tolist()]
        if n >= 3:  # a split depth: the kernels
            via_kernel = [
                tuple(r) for b in iter_blocks(n, unique=unique, split_depth=2) for r in b.tolist()
            ]
            assert listed == via_kernel
        assert listed == small.solutions(n, unique=unique)


def test_direct_with_fixed_queens():
    rng = np.random.default_rng(5)
    for _ in range(30):
        n = int(rng.integers(4, 15))
        rows = rng.choice(
            n, size=int(rng.integers(n - small.DIRECT_N if n > 10 else 1, n)), replace=False
        )
        fixed = sorted((int(r), int(rng.integers(n))) for r in rows)
        assert small.serves(n, fixed)
        direct = run_count(n, fixed=fixed)
        assert direct.total == run_count(n, fixed=fixed, split_depth=1).total
        assert small.solutions(n, fixed) == [
            tuple(r) for b in iter_blocks(n, fixed=fixed, split_depth=1) for r in b.tolist()
        ]
    assert first_solution(8) == (0, 4, 7, 5, 2, 6, 1, 3)


def test_serves_only_plain_small_runs(tmp_path):
    assert small.serves(10) and small.serves(12, [(0, 0), (1, 2)])
    assert not small.serves(11)
    for kw in ({"method": "d4"}, {"split_depth": 2}, {"nodes": True}):
        assert not small.serves(8, **kw)
    # what the run asks of its machinery, the plan decides
    from parqueens.run.plan import plan_run
    from parqueens.run.store import RunStore

    assert plan_run(8).direct
    with RunStore(tmp_path / "c.db", {}) as store:
        for kw in ({"jobs": 2}, {"checkpoint": store}, {"backend": "loky"}):
            assert not plan_run(8, **kw).direct, kw


def test_small_commands_load_no_numba(tmp_path):
    fixed = "10:2,11:0,12:6,13:8,14:10,15:12,16:14,17:16,18:18,19:4"
    argvs = [
        ["count", "8"],
        ["count", "9", "--unique"],
        ["solutions", "6"],
        ["first", "8"],
        ["count", "12", "--fixed", "0:0,1:2"],
        ["solutions", "20", "--fixed", fixed, "--format", "board", "--out", str(tmp_path / "b")],
        ["solutions", "9", "--unique", "--format", "jsonl", "--limit", "3"],
    ]
    codes, loaded, out = fresh_main(argvs, ("numba", "joblib", "psutil", "numpy", "tqdm"))
    assert codes == [0] * 7 and loaded == []
    boards = (tmp_path / "b").read_text().split("\n\n")
    assert len(boards) == 11 and boards[0].splitlines()[10] == "..Q................."
    assert out.splitlines()[:2] == ["92", "total 352"]


def test_direct_prunes_with_the_fixed_queens():
    # 10 of 20 rows fixed: served here; the fixed queens must prune the free
    # rows at once (a search that only fixed their own rows never ended).
    fixed = [
        (10, 2),
        (11, 0),
        (12, 6),
        (13, 8),
        (14, 10),
        (15, 12),
        (16, 14),
        (17, 16),
        (18, 18),
        (19, 4),
    ]
    assert small.serves(20, fixed)
    direct = small.solutions(20, fixed)
    assert len(direct) == 11 == run_count(20, fixed=fixed).total
    assert direct == [
        tuple(r) for b in iter_blocks(20, fixed=fixed, split_depth=3) for r in b.tolist()
    ]
