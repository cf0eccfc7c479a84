"""`parqueens construct`: one solution of any size, on stdout or in a file,
checked by an independent test of the placement."""

import numpy as np

import naive
from cli_helpers import assert_one_line_error


def test_construct_1000(cli):
    r = cli("construct", 1000)
    assert (r.returncode, r.stderr) == (0, "")
    [line] = r.stdout.splitlines()
    queens = [int(c) for c in line.split()]
    assert len(queens) == 1000 and naive.is_solution(queens)


def test_construct_million_npy(cli, tmp_path):
    r = cli("construct", 1000000, "-o", "c.npy", cwd=tmp_path)
    assert (r.returncode, r.stdout) == (0, ""), r.stderr
    a = np.load(tmp_path / "c.npy", allow_pickle=False)
    assert a.shape == (1, 1000000) and a.dtype.kind == "u"
    # a permutation (sorted), no two queens on a diagonal (distinct sums and differences)
    rows = np.arange(1000000, dtype=np.int64)
    cols = a[0].astype(np.int64)
    assert np.array_equal(np.sort(cols), rows)
    for diagonals in (rows + cols, rows - cols):
        d = np.sort(diagonals)
        assert np.all(d[1:] != d[:-1])
    assert [p.name for p in tmp_path.iterdir()] == ["c.npy"]


def test_construct_too_big_for_memory(cli):
    r = cli("construct", 10**20)
    assert_one_line_error(r)
    assert "PiB of memory" in r.stderr  # 10**20 rows: a size for people, not 10**12 GiB
