"""SolutionWriter: refusals before anything is written, atomic output
(complete or absent), standard output, any integer array."""

import errno
import os
import shutil
import types

import numpy as np
import pytest

from parqueens.construction import construct
from parqueens.io import NotEnoughSpace, SolutionWriter, estimate_size, read_solutions, render
from parqueens.io.svg import svg
from parqueens.names import FORMATS, READABLE_FORMATS
from parqueens.tempfiles import temp_prefix

from io_helpers import SOLS6, leftovers, write


@pytest.mark.parametrize("fmt", ["perm", "jsonl", "npy"])
def test_large_n(tmp_path, fmt):
    q = construct(100_000)
    path = tmp_path / f"big.{fmt}"
    with SolutionWriter(path, fmt, q.size) as w:
        w.write_many(np.stack([q, q[::-1]]))
    assert os.path.getsize(path) == estimate_size(fmt, q.size, 2)
    back = list(read_solutions(path))
    assert back[0] == tuple(q.tolist()) and back[1] == tuple(q[::-1].tolist())


def test_stdout(capsys):
    with SolutionWriter(None, "perm", 6) as w:
        w.write(SOLS6[0])
        w.write_many(np.array(SOLS6[1:]))
    assert capsys.readouterr().out == "".join(render(s, "perm") for s in SOLS6)
    with SolutionWriter("-", "board", 4) as w:
        w.write((1, 3, 0, 2))
        w.write((2, 0, 3, 1))
    assert capsys.readouterr().out == render((1, 3, 0, 2), "board") + "\n" + render(
        (2, 0, 3, 1), "board"
    )
    with pytest.raises(ValueError, match="npy"):
        SolutionWriter(None, "npy", 6)


def test_bad_arguments(tmp_path):
    p = tmp_path / "x"
    with pytest.raises(ValueError, match="unknown format"):
        SolutionWriter(p, "csv", 6)
    with pytest.raises(TypeError):
        SolutionWriter(p, "perm", 6.0)
    with pytest.raises(TypeError):
        SolutionWriter(p, "perm", True)
    with pytest.raises(ValueError):
        SolutionWriter(p, "perm", -1)
    with pytest.raises(ValueError, match="one-based"):
        SolutionWriter(p, "npy", 6, one_based=True)
    with pytest.raises(ValueError):
        SolutionWriter(p, "perm", 6, expected_count=-1)
    assert leftovers(tmp_path) == []
    with SolutionWriter(p, "perm", 6) as w:
        with pytest.raises(ValueError):
            w.write((0, 1, 2))
        with pytest.raises(ValueError):
            w.write((0, 1, 2, 3, 4, 6))
        with pytest.raises(ValueError):
            w.write_many(np.zeros((2, 5), dtype=int))
        with pytest.raises(TypeError):
            w.write_many(np.zeros((2, 6)))
    with pytest.raises(ValueError, match="closed"):
        w.write(SOLS6[0])


def test_existing_file_refused_without_force(tmp_path):
    path = tmp_path / "sols.perm"
    path.write_text("keep me\n")
    with pytest.raises(FileExistsError, match="force"):
        SolutionWriter(path, "perm", 6)
    assert path.read_text() == "keep me\n"
    assert leftovers(tmp_path) == ["sols.perm"]
    write(path, "perm", SOLS6, force=True)
    assert list(read_solutions(path)) == SOLS6
    assert leftovers(tmp_path) == ["sols.perm"]


def test_missing_folder_refused(tmp_path):
    with pytest.raises(FileNotFoundError, match="folder does not exist"):
        SolutionWriter(tmp_path / "nope" / "sols.perm", "perm", 6)
    assert leftovers(tmp_path) == []


def test_folder_as_path_refused(tmp_path):
    with pytest.raises(IsADirectoryError):
        SolutionWriter(tmp_path, "perm", 6, force=True)


@pytest.mark.skipif(
    not hasattr(os, "geteuid") or os.geteuid() == 0, reason="root ignores file permissions"
)
def test_read_only_folder_refused(tmp_path):
    folder = tmp_path / "ro"
    folder.mkdir()
    folder.chmod(0o555)
    try:
        with pytest.raises(PermissionError, match="not writable"):
            SolutionWriter(folder / "sols.perm", "perm", 6)
        assert leftovers(folder) == []
    finally:
        folder.chmod(0o755)


def test_unwritable_folder_refused_simulated(tmp_path, monkeypatch):
    # the same check as above, also when the tests run as root
    monkeypatch.setattr(os, "access", lambda path, mode: False)
    with pytest.raises(PermissionError, match="not writable"):
        SolutionWriter(tmp_path / "sols.perm", "perm", 6)
    assert leftovers(tmp_path) == []


@pytest.mark.parametrize("fmt", FORMATS)
def test_exception_in_block_leaves_nothing(tmp_path, fmt):
    path = tmp_path / f"sols.{fmt}"
    with pytest.raises(KeyError):
        with SolutionWriter(path, fmt, 6) as w:
            w.write(SOLS6[0])
            assert len(leftovers(tmp_path)) == 1
            assert leftovers(tmp_path)[0].endswith(".part")
            raise KeyError("boom")
    assert leftovers(tmp_path) == []


def test_abort_leaves_nothing_and_keeps_old_file(tmp_path):
    path = tmp_path / "sols.jsonl"
    path.write_text("old\n")
    w = SolutionWriter(path, "jsonl", 6, force=True)
    w.write(SOLS6[0])
    w.abort()
    w.abort()
    assert w.closed
    assert leftovers(tmp_path) == ["sols.jsonl"]
    assert path.read_text() == "old\n"


def test_part_file_is_hidden_and_named(tmp_path):
    with SolutionWriter(tmp_path / "sols.perm", "perm", 6):
        (name,) = leftovers(tmp_path)
        assert name.startswith(".sols.perm.") and name.endswith(".part")
    assert leftovers(tmp_path) == ["sols.perm"]


def _enospc(*args, **kwargs):
    raise OSError(errno.ENOSPC, "No space left on device")


@pytest.mark.parametrize("fmt", FORMATS)
def test_enospc_while_writing_leaves_nothing(tmp_path, fmt):
    path = tmp_path / f"sols.{fmt}"
    with pytest.raises(OSError) as info:
        with SolutionWriter(path, fmt, 6) as w:
            w.write(SOLS6[0])
            w._file.file.write = _enospc  # the temporary file under the AtomicFile
            w.write_many(np.array(SOLS6))
    assert info.value.errno == errno.ENOSPC
    assert info.value.filename == str(path)  # the file named, not a bare [Errno 28]
    assert leftovers(tmp_path) == []


def test_enospc_at_close_leaves_nothing(tmp_path, monkeypatch):
    path = tmp_path / "sols.perm"
    with pytest.raises(OSError) as info:
        with SolutionWriter(path, "perm", 6) as w:
            w.write(SOLS6[0])
            monkeypatch.setattr(os, "fsync", _enospc)
    assert info.value.errno == errno.ENOSPC and info.value.filename == str(path)
    assert leftovers(tmp_path) == []


def _fake_disk(free):
    return lambda path: types.SimpleNamespace(total=free, used=0, free=free, percent=0.0)


def test_not_enough_space(tmp_path, monkeypatch):
    monkeypatch.setattr(shutil, "disk_usage", _fake_disk(100))
    path = tmp_path / "sols.board"
    need = estimate_size("board", 6, 1000)
    assert round(need / 1024) == 42  # sizes for people
    with pytest.raises(NotEnoughSpace, match="need 42 KiB, 100 B free") as info:
        SolutionWriter(path, "board", 6, expected_count=1000)
    assert info.value.errno == errno.ENOSPC
    assert leftovers(tmp_path) == []
    # enough for the estimate, or forced: accepted
    with SolutionWriter(path, "board", 6, expected_count=0):
        pass
    write(path, "board", SOLS6, force=True, expected_count=1000)
    assert list(read_solutions(path)) == SOLS6


@pytest.mark.parametrize("dtype", [np.uint8, np.uint16, np.int64])
def test_write_many_any_integer_dtype_and_wide_boards(tmp_path, dtype):
    # The rows are written as they come (npy of the file's dtype: no copy);
    # text renderers index with them, which must not wrap in a narrow dtype.
    rng = np.random.default_rng(7)
    for n in (200, 256) if dtype != np.uint8 else (200, 255):
        rows = np.array([rng.permutation(n) for _ in range(3)], dtype=dtype)
        for fmt in READABLE_FORMATS:
            path = tmp_path / f"w{n}.{fmt}"
            with SolutionWriter(path, fmt, n, force=True) as w:
                w.write_many(rows)
            assert np.array_equal(np.array(list(read_solutions(path))), rows), (fmt, n)


def test_stale_part_files_of_dead_runs_are_removed(tmp_path):
    # A run killed with SIGKILL leaves its temporary file; writing the same
    # output again removes those of processes no longer running, only.
    dead = 2**22 + 12345  # above the usual pid_max: no such process
    names = [
        temp_prefix("s.perm", dead) + "abcd.part",
        temp_prefix("s.perm", os.getpid()) + "live.part",  # a running writer's
        ".s.perm.old.part",  # not ours to judge
        temp_prefix("other.perm", dead) + "x.part",  # another output's
    ]
    for name in names:
        (tmp_path / name).write_text("partial")
    write(tmp_path / "s.perm", "perm", SOLS6)
    assert sorted(leftovers(tmp_path)) == sorted(names[1:] + ["s.perm"])


def test_unwritable_folder_names_the_output(tmp_path):
    with pytest.raises(OSError) as info:
        SolutionWriter("/proc/x.txt", "perm", 6)
    assert info.value.filename == "/proc/x.txt" and ".part" not in str(info.value)


def test_svg_to_stdout_is_held_until_its_size_is_known(capsys):
    w = SolutionWriter("-", "svg", 6, labels=True)
    w.write_many(np.array(SOLS6))
    assert capsys.readouterr().out == ""  # the header states the grid's size
    w.close()
    assert capsys.readouterr().out == svg(SOLS6, labels=True)


def test_leetcode_to_stdout_and_nothing_after_close(capsys):
    with SolutionWriter(None, "leetcode", 4) as w:
        assert capsys.readouterr().out == "["
        w.write((1, 3, 0, 2))
        w.write_many(np.array([(2, 0, 3, 1)]))
    assert (
        capsys.readouterr().out
        == '[".Q..","...Q","Q...","..Q."],\n["..Q.","Q...","...Q",".Q.."]]\n'
    )
    for call, arg in ((w.write, (1, 3, 0, 2)), (w.write_many, [(1, 3, 0, 2)])):
        with pytest.raises(ValueError, match="^write to a closed SolutionWriter$"):
            call(arg)
    w.close()  # a no-op
    assert capsys.readouterr().out == ""


def test_an_unclosed_writer_publishes_nothing(tmp_path):
    import gc

    w = SolutionWriter(tmp_path / "s.perm", "perm", 6)
    w.write(SOLS6[0])
    del w
    gc.collect()
    assert leftovers(tmp_path) == []
