"""Shared by the tests of parqueens.io (and of verify's input): solutions of
n = 6, writing them, a folder's files, a file's bytes, standard input, .npy
files that hold no solutions."""

import io
import os

import numpy as np

from parqueens.io import SolutionWriter

import naive

SOLS6 = [(1, 3, 5, 0, 2, 4), (2, 5, 1, 4, 0, 3), (3, 0, 4, 1, 5, 2), (4, 2, 0, 5, 3, 1)]


def write(path, fmt, sols, n=6, **kw):
    with SolutionWriter(path, fmt, n, **kw) as w:
        for s in sols:
            w.write(s)
    return w


def leftovers(folder):
    return sorted(os.listdir(folder))


def file_bytes(tmp_path, fmt, sols, n):
    """The bytes of a file of ``sols`` in format ``fmt``."""
    path = tmp_path / f"in.{fmt}"
    with SolutionWriter(path, fmt, n, force=True) as w:
        for s in sols:
            w.write(s)
    return path.read_bytes()


def fake_stdin(monkeypatch, data):
    """``data`` as this process's standard input."""
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(data)))


def bad_npy_files():
    """name -> bytes of files that are not usable .npy files of solutions."""
    good = io.BytesIO()
    np.save(good, np.array(naive.solutions(8), dtype=np.uint8))
    good = good.getvalue()
    files = {
        "text.npy": b"1 3 0 2\n",
        "empty.npy": b"",
        "trunc.npy": good[:300],
        "magic_only.npy": good[:8],
        "header_cut.npy": good[:40],
        "version.npy": good[:6] + b"\x07\x00" + good[8:],
        "header.npy": good[:10] + b"{'descr': 3}".ljust(118) + good[128:],
    }
    arrays = {
        "object.npy": np.array([[1, 0]], dtype=object),
        "float.npy": np.zeros((2, 2)),
        "flat.npy": np.zeros(3, dtype=np.uint8),
        "bool.npy": np.ones((1, 1), dtype=bool),
    }
    for name, a in arrays.items():
        buf = io.BytesIO()
        np.save(buf, a, allow_pickle=True)
        files[name] = buf.getvalue()
    zipped = io.BytesIO()
    np.savez(zipped, a=np.zeros((1, 1), dtype=np.uint8))
    files["zip.npy"] = zipped.getvalue()
    return files


BAD_NPY = sorted(bad_npy_files())
