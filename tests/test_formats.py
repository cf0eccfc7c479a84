"""Rendering, atomic writing and reading of the solution formats."""

import errno
import os
import shutil
import types

import numpy as np
import pytest

from parqueens.construct import construct
from parqueens.formats import (
    FORMATS,
    READABLE_FORMATS,
    NotEnoughSpace,
    SolutionWriter,
    estimate_size,
    read_solutions,
    render,
)
from parqueens.io import reading as formats
from parqueens.tempfiles import temp_prefix

SOLS6 = [(1, 3, 5, 0, 2, 4), (2, 5, 1, 4, 0, 3), (3, 0, 4, 1, 5, 2), (4, 2, 0, 5, 3, 1)]


def _write(path, fmt, sols, n=6, **kw):
    with SolutionWriter(path, fmt, n, **kw) as w:
        for s in sols:
            w.write(s)
    return w


def _leftovers(folder):
    return sorted(os.listdir(folder))


# ---------------------------------------------------------------- rendering


def test_render_board_n5():
    assert render((0, 2, 4, 1, 3), "board") == "Q....\n..Q..\n....Q\n.Q...\n...Q.\n"


def test_render_other_formats():
    q = (1, 3, 0, 2)
    assert render(q, "perm") == "1 3 0 2\n"
    assert render(q, "perm", one_based=True) == "2 4 1 3\n"
    assert render(q, "jsonl") == "[1,3,0,2]\n"
    assert render(np.array(q, dtype=np.uint8), "jsonl", one_based=True) == "[2,4,1,3]\n"
    assert render(q, "matrix") == "0 1 0 0\n0 0 0 1\n1 0 0 0\n0 0 1 0\n"
    assert render([0], "board") == "Q\n"
    assert render([], "perm") == "\n"


@pytest.mark.parametrize(
    "q, fmt, exc",
    [
        ((1, 3, 0, 2), "npy", ValueError),
        ((1, 3, 0, 2), "png", ValueError),
        ((1, 3, 0, 4), "perm", ValueError),
        ((1, -1, 0, 2), "perm", ValueError),
        ((1.0, 3, 0, 2), "perm", TypeError),
        ((True, False), "perm", TypeError),
        ([[0]], "perm", ValueError),
        ([None], "perm", TypeError),
        (np.zeros((2, 2), dtype=int), "perm", ValueError),
    ],
)
def test_render_rejects(q, fmt, exc):
    with pytest.raises(exc):
        render(q, fmt)


# ---------------------------------------------------------------- round trips


@pytest.mark.parametrize("fmt", READABLE_FORMATS)
def test_round_trip(tmp_path, fmt):
    path = tmp_path / f"sols.{fmt}"
    w = _write(path, fmt, SOLS6)
    assert w.count == 4 and w.closed
    assert list(read_solutions(path)) == SOLS6
    assert list(read_solutions(path, fmt=fmt, n=6)) == SOLS6
    assert os.path.getsize(path) == estimate_size(fmt, 6, 4)
    assert _leftovers(tmp_path) == [path.name]


def test_one_based_only_where_numbers_are(tmp_path):
    # npy arrays are 0-based: refused everywhere, as on the command line;
    # board, matrix and leetcode have no numbers: the same text either way
    with pytest.raises(ValueError, match="npy arrays are 0-based"):
        SolutionWriter(tmp_path / "x.npy", "npy", 6, one_based=True)
    _write(tmp_path / "y.npy", "npy", SOLS6)
    with pytest.raises(ValueError, match="npy arrays are 0-based"):
        read_solutions(tmp_path / "y.npy", one_based=True)
    for fmt in ("board", "matrix", "leetcode"):
        assert render([1, 3, 0, 2], fmt, one_based=True) == render([1, 3, 0, 2], fmt)
        path = tmp_path / f"y.{fmt}"
        _write(path, fmt, SOLS6, one_based=True)
        assert list(read_solutions(path, fmt, one_based=True)) == SOLS6
        assert list(read_solutions(path, fmt)) == SOLS6


@pytest.mark.parametrize("fmt", ["perm", "jsonl"])
def test_round_trip_one_based(tmp_path, fmt):
    path = tmp_path / f"sols.{fmt}"
    _write(path, fmt, SOLS6, one_based=True)
    assert list(read_solutions(path, one_based=True)) == SOLS6
    assert os.path.getsize(path) == estimate_size(fmt, 6, 4, one_based=True)
    if fmt == "perm":
        assert path.read_text().splitlines()[0] == "2 4 6 1 3 5"


def test_one_based_file_read_as_zero_based_is_off_the_board(tmp_path):
    path = tmp_path / "sols.perm"
    _write(path, "perm", SOLS6, one_based=True)
    assert list(read_solutions(path)) == [tuple(c + 1 for c in q) for q in SOLS6]


@pytest.mark.parametrize(
    "name, text, rows, bad",
    [
        # a column off the board reads as column n; verify names it
        ("a.perm", "1 3 0 4\n", [(1, 3, 0, 4)], {0: (3, 4)}),
        ("a.perm", "1 3 0 99999999999999999999\n", [(1, 3, 0, 4)], {0: (3, 10**20 - 1)}),
        ("a.jsonl", "[1,3,0,9]\n", [(1, 3, 0, 4)], {0: (3, 9)}),
        # a board line without exactly one queen reads as column n
        ("a.board", ".Q..\n...Q\nQ..Q\n..Q.\n", [(1, 3, 4, 2)], {0: (2, [0, 3])}),
        ("a.board", "QQ..\n...Q\nQ...\n..Q.\n", [(4, 3, 0, 2)], {0: (0, [0, 1])}),
        ("a.board", ".Q..\n...Q\nQ...\n..Q.\n\n.Q..\n....\n..Q.\nQ...\n", None, None),
        ("a.matrix", "0 1 0 0\n0 0 0 1\n1 0 1 0\n0 0 1 0\n", [(1, 3, 4, 2)], {0: (2, [0, 2])}),
    ],
)
def test_structure_read_validity_left_to_verify(tmp_path, name, text, rows, bad):
    path = tmp_path / name
    path.write_text(text)
    reader = read_solutions(path)
    got = list(reader)
    if rows is None:  # the second board's empty row
        assert got[1] == (1, 4, 2, 0) and reader.bad_rows == {1: (1, [])}
        return
    assert got == rows and getattr(reader, "bad_rows", {}) == bad


@pytest.mark.parametrize("fmt", READABLE_FORMATS)
def test_sniffing_without_extension(tmp_path, fmt):
    path = tmp_path / "sols.out"
    _write(path, fmt, SOLS6)
    assert list(read_solutions(path)) == SOLS6
    txt = tmp_path / "sols.txt"
    os.replace(path, txt)
    assert list(read_solutions(txt)) == SOLS6


@pytest.mark.parametrize("fmt", FORMATS)
def test_write_many_equals_write(tmp_path, fmt):
    rng = np.random.default_rng(1)
    for n in [1, 2, 3, 9, 10, 11, 12, 101, 300]:
        sols = np.array([rng.permutation(n) for _ in range(7)])
        one = tmp_path / f"one{n}"
        many = tmp_path / f"many{n}"
        kw = {"one_based": n % 2 == 1} if fmt in ("perm", "jsonl") else {}
        _write(one, fmt, sols, n=n, **kw)
        with SolutionWriter(many, fmt, n, **kw) as w:
            w.write(sols[0])
            w.write_many(sols[1:4].astype(np.uint16))
            w.write_many(sols[:0])
            w.write_many(sols[4:])
        assert w.count == 7
        assert one.read_bytes() == many.read_bytes(), (fmt, n)
        # lists of tuples (a small listing, written without numpy): the same bytes
        with SolutionWriter(tmp_path / f"lists{n}", fmt, n, **kw) as w:
            w.write_many([tuple(s) for s in sols[:2].tolist()])
            w.write_many([])
            w.write_many(sols[2:].tolist())
        assert (tmp_path / f"lists{n}").read_bytes() == one.read_bytes(), (fmt, n)
        if fmt == "svg":  # an upper bound (labels, digits of the place)
            size = os.path.getsize(one)  # labels counted: at most about 3 times
            assert size <= estimate_size(fmt, n, 7) <= 3.2 * size
        else:
            assert os.path.getsize(one) == estimate_size(fmt, n, 7, **kw)
        if fmt != "svg":  # a picture, not read back
            back = list(read_solutions(many, fmt=fmt, **kw))
            assert back == [tuple(s) for s in sols.tolist()]


@pytest.mark.parametrize("fmt", ["perm", "jsonl", "npy"])
def test_large_n(tmp_path, fmt):
    q = construct(100_000)
    path = tmp_path / f"big.{fmt}"
    with SolutionWriter(path, fmt, q.size) as w:
        w.write_many(np.stack([q, q[::-1]]))
    assert os.path.getsize(path) == estimate_size(fmt, q.size, 2)
    back = list(read_solutions(path))
    assert back[0] == tuple(q.tolist()) and back[1] == tuple(q[::-1].tolist())


def test_npy_loads_with_numpy(tmp_path):
    path = tmp_path / "sols.npy"
    _write(path, "npy", SOLS6)
    arr = np.load(path)
    assert arr.dtype == np.uint8 and arr.shape == (4, 6)
    assert arr.tolist() == [list(s) for s in SOLS6]
    with open(path, "rb") as f:
        assert f.read(6) == b"\x93NUMPY"
        f.seek(0)
        assert len(f.read()) == formats.NPY_HEADER_SIZE + 24


def test_npy_empty(tmp_path):
    path = tmp_path / "empty.npy"
    w = _write(path, "npy", [], n=8)
    assert w.count == 0
    arr = np.load(path)
    assert arr.dtype == np.uint8 and arr.shape == (0, 8)
    assert list(read_solutions(path)) == []


def test_npy_dtypes(tmp_path):
    assert formats.npy_dtype(255) == np.uint8
    assert formats.npy_dtype(256) == np.uint16
    assert formats.npy_dtype(65536) == np.uint32
    path = tmp_path / "wide.npy"
    q = construct(300)
    _write(path, "npy", [q], n=300)
    arr = np.load(path)
    assert arr.dtype == np.uint16 and arr.shape == (1, 300)
    assert np.array_equal(arr[0], q)


@pytest.mark.parametrize("fmt", READABLE_FORMATS)
def test_n0(tmp_path, fmt):
    path = tmp_path / f"zero.{fmt}"
    _write(path, fmt, [(), ()], n=0)
    assert list(read_solutions(path, n=0)) == [(), ()]
    assert list(read_solutions(path)) == [(), ()]
    assert os.path.getsize(path) == estimate_size(fmt, 0, 2)
    many = tmp_path / f"many.{fmt}"
    with SolutionWriter(many, fmt, 0) as w:
        w.write_many(np.zeros((1, 0), dtype=int))
        w.write(())
    assert many.read_bytes() == path.read_bytes()
    if fmt == "npy":
        assert np.load(path).shape == (2, 0)
    else:
        # the empty solution is one line: "[]" in jsonl (an element of the
        # array in leetcode), empty in the others
        want = "[[],\n[]]\n" if fmt == "leetcode" else 2 * render((), fmt)
        assert path.read_text() == want
        assert render((), fmt) == ("[]\n" if fmt in ("jsonl", "leetcode") else "\n")


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


# ---------------------------------------------------------------- refusals


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
    assert _leftovers(tmp_path) == []
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
    assert _leftovers(tmp_path) == ["sols.perm"]
    _write(path, "perm", SOLS6, force=True)
    assert list(read_solutions(path)) == SOLS6
    assert _leftovers(tmp_path) == ["sols.perm"]


def test_missing_folder_refused(tmp_path):
    with pytest.raises(FileNotFoundError, match="folder does not exist"):
        SolutionWriter(tmp_path / "nope" / "sols.perm", "perm", 6)
    assert _leftovers(tmp_path) == []


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
        assert _leftovers(folder) == []
    finally:
        folder.chmod(0o755)


def test_unwritable_folder_refused_simulated(tmp_path, monkeypatch):
    # the same check as above, also when the tests run as root
    monkeypatch.setattr(formats.os, "access", lambda path, mode: False)
    with pytest.raises(PermissionError, match="not writable"):
        SolutionWriter(tmp_path / "sols.perm", "perm", 6)
    assert _leftovers(tmp_path) == []


# ---------------------------------------------------------------- atomicity


@pytest.mark.parametrize("fmt", FORMATS)
def test_exception_in_block_leaves_nothing(tmp_path, fmt):
    path = tmp_path / f"sols.{fmt}"
    with pytest.raises(KeyError):
        with SolutionWriter(path, fmt, 6) as w:
            w.write(SOLS6[0])
            assert len(_leftovers(tmp_path)) == 1
            assert _leftovers(tmp_path)[0].endswith(".part")
            raise KeyError("boom")
    assert _leftovers(tmp_path) == []


def test_abort_leaves_nothing_and_keeps_old_file(tmp_path):
    path = tmp_path / "sols.jsonl"
    path.write_text("old\n")
    w = SolutionWriter(path, "jsonl", 6, force=True)
    w.write(SOLS6[0])
    w.abort()
    w.abort()
    assert w.closed
    assert _leftovers(tmp_path) == ["sols.jsonl"]
    assert path.read_text() == "old\n"


def test_part_file_is_hidden_and_named(tmp_path):
    with SolutionWriter(tmp_path / "sols.perm", "perm", 6):
        (name,) = _leftovers(tmp_path)
        assert name.startswith(".sols.perm.") and name.endswith(".part")
    assert _leftovers(tmp_path) == ["sols.perm"]


def _enospc(*args, **kwargs):
    raise OSError(errno.ENOSPC, "No space left on device")


@pytest.mark.parametrize("fmt", FORMATS)
def test_enospc_while_writing_leaves_nothing(tmp_path, fmt):
    path = tmp_path / f"sols.{fmt}"
    with pytest.raises(OSError) as info:
        with SolutionWriter(path, fmt, 6) as w:
            w.write(SOLS6[0])
            w._file.write = _enospc
            w.write_many(np.array(SOLS6))
    assert info.value.errno == errno.ENOSPC
    assert info.value.filename == str(path)  # the file named, not a bare [Errno 28]
    assert _leftovers(tmp_path) == []


def test_enospc_at_close_leaves_nothing(tmp_path, monkeypatch):
    path = tmp_path / "sols.perm"
    with pytest.raises(OSError) as info:
        with SolutionWriter(path, "perm", 6) as w:
            w.write(SOLS6[0])
            monkeypatch.setattr(formats.os, "fsync", _enospc)
    assert info.value.errno == errno.ENOSPC and info.value.filename == str(path)
    assert _leftovers(tmp_path) == []


def _fake_disk(free):
    return lambda path: types.SimpleNamespace(total=free, used=0, free=free, percent=0.0)


def test_not_enough_space(tmp_path, monkeypatch):
    monkeypatch.setattr(shutil, "disk_usage", _fake_disk(100))
    path = tmp_path / "sols.board"
    need = estimate_size("board", 6, 1000)
    assert round(need / 1024) == 42  # sizes for people
    with pytest.raises(NotEnoughSpace, match="need 42 KiB, 100 B free") as info:
        SolutionWriter(path, "board", 6, expected_count=1000)
    assert isinstance(info.value, OSError) and info.value.errno == errno.ENOSPC
    assert _leftovers(tmp_path) == []
    # enough for the estimate, or forced: accepted
    with SolutionWriter(path, "board", 6, expected_count=0):
        pass
    _write(path, "board", SOLS6, force=True, expected_count=1000)
    assert list(read_solutions(path)) == SOLS6


def test_estimate_size_values():
    assert estimate_size("perm", 12, 1) == len(render(range(12), "perm"))
    assert estimate_size("perm", 12, 3, one_based=True) == 3 * len("1 2 3 4 5 6 7 8 9 10 11 12\n")
    assert estimate_size("jsonl", 4, 2) == 2 * len("[1,3,0,2]\n")
    assert estimate_size("board", 4, 2) == 2 * 20 + 1
    assert estimate_size("matrix", 4, 0) == 0
    assert estimate_size("npy", 300, 10) == formats.NPY_HEADER_SIZE + 10 * 300 * 2
    with pytest.raises(ValueError):
        estimate_size("xml", 4, 1)
    with pytest.raises(TypeError):
        estimate_size("perm", 4, 1.5)


# ---------------------------------------------------------------- reading errors


@pytest.mark.parametrize(
    "name, text, message",
    [
        ("a.perm", "1 3 0 2\n2 0 3\n", "line 2: expected 4 columns, got 3"),
        ("a.perm", "1 3 0 2\n\n2 0 x 1\n", "line 3: 'x' is not an integer"),
        ("a.perm", "1 3 0 2\n2 0 3.0 1\n", "line 2: '3.0' is not"),
        ("a.perm", "1 - 0 2\n", "line 1: '-' is not an integer"),
        ("a.jsonl", "[1,3,0,2]\n[1,3,0\n", "line 2: not valid JSON"),
        ("a.jsonl", '[1,3,0,2]\n{"a": 1}\n', "line 2: expected a JSON array of integers"),
        ("a.jsonl", "[1,3,0,2]\n[1,3,0,2.5]\n", "line 2: expected a JSON array of integers"),
        ("a.jsonl", "[1,3,0,2]\n[1,3,0]\n", "line 2: expected 4 columns, got 3"),
        ("a.board", ".Q..\n...Q\nQ...\n..Q.\n\n.Q..\n..X.\n", "line 7: a board line must be"),
        ("a.board", ".Q..\n...Q\nQ....\n..Q.\n", "line 3: line has 5 squares, expected 4"),
        ("a.board", ".Q..\n...Q\nQ...\n\n", "line 1: solution has 3 rows but lines of 4"),
        ("a.board", ".Q..\n...Q\nQ...\n..Q.\n.Q..\n", "line 5: solution has more rows"),
        ("a.matrix", "0 1 0 0\n0 0 0 1\n1 0 2 0\n0 0 1 0\n", "line 3: a matrix line must be"),
        ("a.matrix", "0 1 0 0\n0 0 0 1\n1 0 0\n", "line 3: line has 3 squares, expected 4"),
        ("a.perm", "1 3 0 2\n\xff\n", None),
    ],
)
def test_malformed_input(tmp_path, name, text, message):
    path = tmp_path / name
    if message is None:
        path.write_bytes(text.encode("latin1"))
        message = "line 2: not UTF-8"
    else:
        path.write_text(text)
    with pytest.raises(ValueError, match=message):
        list(read_solutions(path))


def test_read_expected_n(tmp_path):
    path = tmp_path / "a.board"
    _write(path, "board", SOLS6)
    with pytest.raises(ValueError, match="line 1: expected 8 columns, got 6"):
        list(read_solutions(path, n=8))
    npy = tmp_path / "a.npy"
    _write(npy, "npy", SOLS6)
    with pytest.raises(ValueError, match="expected n = 8"):
        read_solutions(npy, n=8)


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


def test_read_arguments(tmp_path):
    with pytest.raises(FileNotFoundError):
        read_solutions(tmp_path / "missing.perm")
    path = tmp_path / "a.perm"
    _write(path, "perm", SOLS6)
    with pytest.raises(ValueError, match="unknown format"):
        read_solutions(path, fmt="csv")
    with pytest.raises(TypeError):
        read_solutions(path, n=True)


def test_read_tolerates_crlf_and_blank_lines(tmp_path):
    path = tmp_path / "a.perm"
    path.write_bytes(b"\r\n1 3 0 2\r\n\r\n2 0 3 1\r\n\r\n")
    assert list(read_solutions(path)) == [(1, 3, 0, 2), (2, 0, 3, 1)]
    board = tmp_path / "a.board"
    board.write_text("\n.Q..\n...Q\nQ...\n..Q.\n\n\n..Q.\nQ...\n...Q\n.Q..\n\n")
    assert list(read_solutions(board)) == [(1, 3, 0, 2), (2, 0, 3, 1)]


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


def test_background_syncs_while_writing(tmp_path, monkeypatch):
    # Every _SYNC_BYTES the data written so far is synced in a helper thread;
    # the file is the same, and the final fsync still happens.
    synced = []
    monkeypatch.setattr(formats, "_SYNC_BYTES", 1000)
    monkeypatch.setattr(formats.os, "fdatasync", lambda fd: synced.append(os.fstat(fd).st_size))
    rows = np.array([SOLS6[i % len(SOLS6)] for i in range(600)])
    with SolutionWriter(tmp_path / "s.perm", "perm", 6) as w:
        for i in range(0, 600, 50):
            w.write_many(rows[i : i + 50])
    assert synced and all(size > 0 for size in synced)
    assert list(read_solutions(tmp_path / "s.perm")) == [tuple(r) for r in rows.tolist()]


def test_background_sync_error_discards_the_output(tmp_path, monkeypatch):
    def eio(fd):
        raise OSError(errno.EIO, "I/O error")

    monkeypatch.setattr(formats, "_SYNC_BYTES", 1000)
    monkeypatch.setattr(formats.os, "fdatasync", eio)
    rows = np.array([SOLS6[i % len(SOLS6)] for i in range(600)])
    with pytest.raises(OSError) as info:
        with SolutionWriter(tmp_path / "s.npy", "npy", 6) as w:
            for i in range(0, 600, 100):
                w.write_many(rows[i : i + 100])
    assert info.value.errno == errno.EIO
    assert _leftovers(tmp_path) == []


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
    _write(tmp_path / "s.perm", "perm", SOLS6)
    assert sorted(_leftovers(tmp_path)) == sorted(names[1:] + ["s.perm"])


def test_unwritable_folder_names_the_output(tmp_path):
    with pytest.raises(OSError) as info:
        SolutionWriter("/proc/x.txt", "perm", 6)
    assert info.value.filename == "/proc/x.txt" and ".part" not in str(info.value)
