"""Reading solutions (parqueens.io.reading): the structure checked, validity
left to verify (bad rows recorded), the messages of malformed input, what is
tolerated; standard input sniffed like a file, n of empty inputs, n = 0, and
one clear error for each kind of bad ``.npy`` file."""

import io
import types

import numpy as np
import pytest

from parqueens.io import SolutionWriter, read_solutions
from parqueens.names import READABLE_FORMATS
from parqueens.names import READABLE_FORMATS as FORMATS

import naive
from io_helpers import BAD_NPY, SOLS6, bad_npy_files, fake_stdin, file_bytes, write

SOL8 = list(naive.solutions(8))


def test_one_based_file_read_as_zero_based_is_off_the_board(tmp_path):
    path = tmp_path / "sols.perm"
    write(path, "perm", SOLS6, one_based=True)
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
    write(path, "board", SOLS6)
    with pytest.raises(ValueError, match="line 1: expected 8 columns, got 6"):
        list(read_solutions(path, n=8))
    npy = tmp_path / "a.npy"
    write(npy, "npy", SOLS6)
    with pytest.raises(ValueError, match="expected n = 8"):
        read_solutions(npy, n=8)


def test_read_tolerates_crlf_and_blank_lines(tmp_path):
    path = tmp_path / "a.perm"
    path.write_bytes(b"\r\n1 3 0 2\r\n\r\n2 0 3 1\r\n\r\n")
    assert list(read_solutions(path)) == [(1, 3, 0, 2), (2, 0, 3, 1)]
    board = tmp_path / "a.board"
    board.write_text("\n.Q..\n...Q\nQ...\n..Q.\n\n\n..Q.\nQ...\n...Q\n.Q..\n\n")
    assert list(read_solutions(board)) == [(1, 3, 0, 2), (2, 0, 3, 1)]


@pytest.mark.parametrize("fmt", READABLE_FORMATS)
def test_blocks_hold_what_iteration_gives(tmp_path, fmt):
    rows = np.array([SOLS6[i % 4] for i in range(10)])
    path = tmp_path / f"s.{fmt}"
    with SolutionWriter(path, fmt, 6) as w:
        w.write_many(rows)
    reader = read_solutions(path)
    blocks = list(reader.blocks(size=3))
    assert [len(b) for b in blocks] == [3, 3, 3, 1] and reader.n == 6
    assert np.array_equal(np.concatenate(blocks), rows)


@pytest.mark.parametrize("fmt", READABLE_FORMATS)
def test_standard_input_read_as_a_file(tmp_path, fmt, monkeypatch):
    path = tmp_path / f"s.{fmt}"
    write(path, fmt, SOLS6)
    stdin = types.SimpleNamespace(buffer=io.BytesIO(path.read_bytes()))
    monkeypatch.setattr("sys.stdin", stdin)
    reader = read_solutions("-")  # the format guessed from the content
    assert (reader.fmt, list(reader)) == (fmt, SOLS6)


@pytest.mark.parametrize("fmt", FORMATS)
def test_stdin_is_sniffed_like_a_file(tmp_path, monkeypatch, fmt):
    data = file_bytes(tmp_path, fmt, SOL8, 8)
    fake_stdin(monkeypatch, data)
    reader = read_solutions("-")
    assert reader.fmt == fmt
    assert list(reader) == SOL8 and reader.n == 8
    # the same bytes in a file without extension give the same
    (tmp_path / "noext").write_bytes(data)
    assert list(read_solutions(tmp_path / "noext")) == SOL8


@pytest.mark.parametrize("fmt", FORMATS)
def test_stdin_with_format_given(tmp_path, monkeypatch, fmt):
    fake_stdin(monkeypatch, file_bytes(tmp_path, fmt, SOL8[:3], 8))
    assert list(read_solutions("-", fmt, 8)) == SOL8[:3]


def test_stdin_leading_blank_lines(monkeypatch):
    # sniffing reads up to the first non-blank line; those lines are not lost
    fake_stdin(monkeypatch, b"\n\n.Q..\n...Q\nQ...\n..Q.\n\n..Q.\nQ...\n...Q\n.Q..\n")
    assert list(read_solutions("-")) == [(1, 3, 0, 2), (2, 0, 3, 1)]


@pytest.mark.parametrize("fmt, n", [("npy", 2), ("npy", 3), ("npy", 0)])
def test_npy_gives_n_at_once(tmp_path, fmt, n):
    path = tmp_path / "e.npy"
    with SolutionWriter(path, "npy", n):
        pass
    reader = read_solutions(path)
    assert reader.n == n and list(reader) == []


@pytest.mark.parametrize(
    "text, n, expected, n_after",
    [
        (b"", None, [], None),  # empty: n unknown
        (b"", 5, [], 5),
        (b"\n", None, [()], 0),  # what `solutions 0` writes
        (b"\n\n", None, [(), ()], 0),
        (b"\r\n", 0, [()], 0),
        (b"\n", 5, [], 5),  # n > 0 given: a blank line is nothing
        (b"\n1 0\n\n", None, [(1, 0)], 2),  # blank lines around content are skipped
    ],
)
def test_perm_blank_lines_and_n(tmp_path, text, n, expected, n_after):
    path = tmp_path / "a.perm"
    path.write_bytes(text)
    reader = read_solutions(path, n=n)
    assert list(reader) == expected and reader.n == n_after


@pytest.mark.parametrize("fmt", ["board", "matrix"])
def test_grid_n0(tmp_path, fmt):
    path = tmp_path / f"a.{fmt}"
    path.write_bytes(b"\n")
    reader = read_solutions(path)
    assert list(reader) == [()] and reader.n == 0
    path.write_bytes(b"")
    reader = read_solutions(path)
    assert list(reader) == [] and reader.n is None


def test_jsonl_n0(tmp_path):
    # jsonl writes the empty solution as [], so a blank line stays nothing
    path = tmp_path / "a.jsonl"
    path.write_text("[]\n\n[]\n")
    reader = read_solutions(path)
    assert list(reader) == [(), ()] and reader.n == 0
    path.write_text("\n")
    reader = read_solutions(path)
    assert list(reader) == [] and reader.n is None
    assert list(read_solutions(path, n=0)) == []


@pytest.mark.parametrize("name", BAD_NPY)
def test_bad_npy_one_clear_error(tmp_path, monkeypatch, name):
    data = bad_npy_files()[name]
    path = tmp_path / name
    path.write_bytes(data)
    with pytest.raises(ValueError, match=f"^{path} is not a valid .npy file of solutions: ") as e:
        read_solutions(path)  # at once, not at the first row
    assert "\n" not in str(e.value)
    fake_stdin(monkeypatch, data)
    with pytest.raises(ValueError, match="^<stdin> is not a valid .npy file of solutions: "):
        read_solutions("-", "npy")


def test_bad_npy_reasons(tmp_path):
    files = bad_npy_files()
    why = {}
    for name, data in files.items():
        (tmp_path / name).write_bytes(data)
        with pytest.raises(ValueError) as e:
            read_solutions(tmp_path / name)
        why[name] = str(e.value).split("solutions: ", 1)[1]
    assert why["text.npy"] == why["zip.npy"] == "it does not start with the .npy magic bytes"
    assert why["trunc.npy"] == ("truncated: the header announces 736 bytes of data, it holds 172")
    assert why["object.npy"] == "expected an integer dtype, got object"
    assert why["flat.npy"] == "expected an array of shape (count, n), got shape (3,)"
    assert "version 7.0" in why["version.npy"]


@pytest.mark.parametrize(
    "text",
    [
        b"\xef\xbb\xbf.Q..\n...Q\nQ...\n..Q.\n",  # a byte order mark first
        b".q..\n...q\nq...\n..q.\n",  # lowercase queens
        b". Q . .\n. . . Q\nQ . . .\n. . Q .\n",  # squares spaced out
        b"  .Q..  \n...Q\nQ...\n..Q.\n",
    ],
)
def test_hand_typed_boards(tmp_path, text):
    path = tmp_path / "hand.txt"  # the format guessed from the content
    path.write_bytes(text)
    assert list(read_solutions(path)) == [(1, 3, 0, 2)]


def test_byte_order_mark_in_perm_and_jsonl(tmp_path):
    for name, text in (("a.perm", "\ufeff1 3 0 2\n2 0 3 1\n"), ("a.jsonl", "\ufeff[1,3,0,2]\n")):
        path = tmp_path / name
        path.write_text(text, encoding="utf-8")
        assert list(read_solutions(path))[0] == (1, 3, 0, 2)
