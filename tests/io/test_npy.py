"""npy: the files numpy loads, the dtypes, the header, bad files named."""

import numpy as np
import pytest

from parqueens.construction import construct
from parqueens.io import read_solutions
from parqueens.io.npy import NPY_HEADER_SIZE, npy_dtype

from io_helpers import SOLS6, write


def test_npy_loads_with_numpy(tmp_path):
    path = tmp_path / "sols.npy"
    write(path, "npy", SOLS6)
    arr = np.load(path)
    assert arr.dtype == np.uint8 and arr.shape == (4, 6)
    assert arr.tolist() == [list(s) for s in SOLS6]
    with open(path, "rb") as f:
        assert f.read(6) == b"\x93NUMPY"
        f.seek(0)
        assert len(f.read()) == NPY_HEADER_SIZE + 24


def test_npy_empty(tmp_path):
    path = tmp_path / "empty.npy"
    w = write(path, "npy", [], n=8)
    assert w.count == 0
    arr = np.load(path)
    assert arr.dtype == np.uint8 and arr.shape == (0, 8)
    assert list(read_solutions(path)) == []


def test_npy_dtypes(tmp_path):
    assert npy_dtype(255) == np.uint8
    assert npy_dtype(256) == np.uint16
    assert npy_dtype(65536) == np.uint32
    path = tmp_path / "wide.npy"
    q = construct(300)
    write(path, "npy", [q], n=300)
    arr = np.load(path)
    assert arr.dtype == np.uint16 and arr.shape == (1, 300)
    assert np.array_equal(arr[0], q)


def test_read_bad_npy(tmp_path):
    path = tmp_path / "a.npy"
    np.save(path, np.array([[0, 1], [2, 0]], dtype=np.int8))
    assert list(read_solutions(path)) == [(0, 1), (2, 0)]  # verify finds column 2
    np.save(path, np.zeros(3, dtype=np.uint8))
    with pytest.raises(ValueError, match="shape"):
        read_solutions(path)
    np.save(path, np.zeros((2, 2)))
    with pytest.raises(ValueError, match="integer dtype"):
        read_solutions(path)
