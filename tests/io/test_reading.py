"""Reading text: the structure checked, validity left to verify (bad rows
recorded), the messages of malformed input, what is tolerated."""

import io
import types

import numpy as np
import pytest

from parqueens.io import SolutionWriter, read_solutions
from parqueens.names import READABLE_FORMATS

from io_helpers import SOLS6, write


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
