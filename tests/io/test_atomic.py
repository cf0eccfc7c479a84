"""AtomicFile: temporary file, background sync, publish or abort."""

import errno
import os

import numpy as np
import pytest

from parqueens.io import SolutionWriter, read_solutions
from parqueens.io.atomic import AtomicFile, check_output_path, write_text_atomically

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


def _enospc(*args, **kwargs):
    raise OSError(errno.ENOSPC, "No space left on device")


def test_published_complete_with_the_usual_permissions(tmp_path):
    target = check_output_path(tmp_path / "out.bin", force=False)
    old = os.umask(0o027)
    try:
        with AtomicFile(target) as f:
            f.write(b"x" * 10)
            f.write_at_start(b"ab")  # a header rewritten once its content is known
            (part,) = leftovers(tmp_path)
            assert part.startswith(".out.bin.") and part.endswith(".part")
            assert not os.path.exists(target)  # nothing under the name before publish
    finally:
        os.umask(old)
    assert f.closed and leftovers(tmp_path) == ["out.bin"]
    assert (tmp_path / "out.bin").read_bytes() == b"abxxxxxxxx"
    assert os.stat(target).st_mode & 0o777 == 0o640


def test_abort_and_exceptions_leave_nothing(tmp_path):
    target = check_output_path(tmp_path / "out.bin", force=False)
    f = AtomicFile(target)
    f.write(b"data")
    f.abort()
    f.abort()  # a no-op, as is a publish after it
    f.publish()
    assert f.closed and leftovers(tmp_path) == []
    with pytest.raises(KeyError):
        with AtomicFile(target) as f:
            f.write(b"data")
            raise KeyError("boom")
    assert leftovers(tmp_path) == []


def test_a_file_appearing_meanwhile_is_kept_unless_forced(tmp_path):
    target = check_output_path(tmp_path / "out.bin", force=False)
    with pytest.raises(FileExistsError, match="appeared while writing") as info:
        with AtomicFile(target) as f:
            f.write(b"new")
            (tmp_path / "out.bin").write_bytes(b"theirs")
    assert info.value.filename == target
    assert leftovers(tmp_path) == ["out.bin"] and (tmp_path / "out.bin").read_bytes() == b"theirs"
    with AtomicFile(target, force=True) as f:
        f.write(b"new")
    assert (tmp_path / "out.bin").read_bytes() == b"new"


def test_write_errors_name_the_output_and_remove_the_part(tmp_path):
    target = check_output_path(tmp_path / "out.bin", force=False)
    f = AtomicFile(target)
    f.file.write = _enospc
    with pytest.raises(OSError) as info:
        f.write(b"data")
    assert (info.value.errno, info.value.filename) == (errno.ENOSPC, target)
    assert f.closed and leftovers(tmp_path) == []


def test_write_text_atomically(tmp_path):
    path = tmp_path / "t.md"
    write_text_atomically(path, "| n |\n|---|\n")
    assert path.read_text() == "| n |\n|---|\n"
    with pytest.raises(FileExistsError, match="use force=True to overwrite"):
        write_text_atomically(path, "other\n")
    write_text_atomically(path, "\u00e9\n", force=True)  # UTF-8
    assert path.read_bytes() == b"\xc3\xa9\n" and leftovers(tmp_path) == ["t.md"]


def test_output_path_checks(tmp_path):
    with pytest.raises(ValueError, match="^the output path is empty$"):
        check_output_path("", force=True)
    os.mkfifo(tmp_path / "fifo")
    with pytest.raises(OSError, match="not a regular file"):
        check_output_path(tmp_path / "fifo", force=True)
    # a symbolic link is followed: its target is what gets replaced
    (tmp_path / "real.txt").write_text("old")
    os.symlink(tmp_path / "real.txt", tmp_path / "link.txt")
    assert check_output_path(tmp_path / "link.txt", force=True) == str(tmp_path / "real.txt")
