"""AtomicFile: temporary file, background sync, publish or abort."""

import errno
import os

import numpy as np
import pytest

from parqueens.formats import (
    SolutionWriter,
    read_solutions,
)
from parqueens.io.atomic import AtomicFile

from io_helpers import SOLS6, leftovers


def test_background_syncs_while_writing(tmp_path, monkeypatch):
    # Every sync_bytes the data written so far is synced in a helper thread;
    # the file is the same, and the final fsync still happens.
    synced = []
    monkeypatch.setattr(AtomicFile, "sync_bytes", 1000)
    monkeypatch.setattr(os, "fdatasync", lambda fd: synced.append(os.fstat(fd).st_size))
    rows = np.array([SOLS6[i % len(SOLS6)] for i in range(600)])
    with SolutionWriter(tmp_path / "s.perm", "perm", 6) as w:
        for i in range(0, 600, 50):
            w.write_many(rows[i : i + 50])
    assert synced and all(size > 0 for size in synced)
    assert list(read_solutions(tmp_path / "s.perm")) == [tuple(r) for r in rows.tolist()]


def test_background_sync_error_discards_the_output(tmp_path, monkeypatch):
    def eio(fd):
        raise OSError(errno.EIO, "I/O error")

    monkeypatch.setattr(AtomicFile, "sync_bytes", 1000)
    monkeypatch.setattr(os, "fdatasync", eio)
    rows = np.array([SOLS6[i % len(SOLS6)] for i in range(600)])
    with pytest.raises(OSError) as info:
        with SolutionWriter(tmp_path / "s.npy", "npy", 6) as w:
            for i in range(0, 600, 100):
                w.write_many(rows[i : i + 100])
    assert info.value.errno == errno.EIO
    assert leftovers(tmp_path) == []
