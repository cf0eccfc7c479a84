"""leetcode: LeetCode 51's array of boards, written, read in any layout, verified."""

import json

import pytest

from parqueens.io import SolutionWriter, estimate_size, read_solutions, render
from parqueens.io.leetcode import LeetCodeReader
from parqueens.run.listing import iter_blocks

from naive import solutions as all_solutions

# LeetCode 51's expected output for n = 4, as the problem states it
LEETCODE4 = '[["..Q.","Q...","...Q",".Q.."],[".Q..","...Q","Q...","..Q."]]'


def test_leetcode_output_is_json_of_the_solutions(cli, tmp_path):
    r = cli("solutions", 6, "--format", "leetcode")
    boards = json.loads(r.stdout)
    want = [
        ["".join("Q" if c == q else "." for c in range(6)) for q in s] for s in all_solutions(6)
    ]
    assert r.returncode == 0 and boards == sorted(want, key=lambda b: [x.index("Q") for x in b])
    assert r.stdout.count("\n") == len(want)  # one board a line
    # none: "[" and "]" on two lines ("[]" alone is jsonl's n = 0 solution)
    assert cli("solutions", 3, "--format", "leetcode").stdout == "[\n]\n"
    assert render((1, 3, 0, 2), "leetcode") == '[".Q..","...Q","Q...","..Q."]\n'


@pytest.mark.parametrize(
    "text",
    [
        LEETCODE4,  # one line, as LeetCode prints it
        json.dumps(json.loads(LEETCODE4), indent=2),  # pretty-printed
        "\ufeff [ [ '..Q.' ] ]".replace("[ '..Q.' ]", LEETCODE4[2:-2].join("[]")).replace("'", '"'),
        LEETCODE4.lower(),  # hand-typed: lowercase q
    ],
)
def test_leetcode_read_in_any_layout(cli, tmp_path, text, monkeypatch):
    (tmp_path / "lc.txt").write_text(text)
    for chunk in (1 << 20, 7):  # boards across chunk boundaries too
        monkeypatch.setattr(LeetCodeReader, "chunk", chunk)
        reader = read_solutions(tmp_path / "lc.txt")
        assert reader.fmt == "leetcode" and list(reader) == [(2, 0, 3, 1), (1, 3, 0, 2)]
    r = cli("verify", "lc.txt", "--complete", cwd=tmp_path)
    assert r.returncode == 0 and "complete: all 2 solutions" in r.stdout
    r = cli("verify", "-", "--complete", input=text.encode())
    assert r.returncode == 0 and "complete: all 2 solutions" in r.stdout, r.stderr


def test_leetcode_round_trip_large(tmp_path, monkeypatch):
    rows = next(iter_blocks(9))
    with SolutionWriter(tmp_path / "s.txt", "leetcode", 9) as w:
        w.write_many(rows)
    assert (tmp_path / "s.txt").stat().st_size == estimate_size("leetcode", 9, len(rows))
    monkeypatch.setattr(LeetCodeReader, "chunk", 1000)
    assert list(read_solutions(tmp_path / "s.txt")) == [tuple(q) for q in rows.tolist()]


@pytest.mark.parametrize(
    "text, words",
    [
        ('[[".Q..","...Q","Q...","..Q."]', "not closed by ']'"),
        ('[[".Q..","...Q","Q...","..Q."]] x', "text after the array"),
        ('[[".Q..","...Q","Q...","..Q."] [".Q.."]]', "after board 1: expected ',' or ']'"),
        ('[[".Q..","...Q","Q...","..Q."],[".Q..","...Q"]]', "board 2: 2 rows, expected 4"),
        ('[[".Q..","...Q","Q...","..Q"]]', "board 1, row 3: 3 squares, expected 4"),
        ('[[".Q..",1,"Q...","..Q."]]', "board 1: expected an array of row strings"),
        ('[[".Q..","...Q","Q...","..Q."],[".Q..","...Q","Q.', "board 2: not valid JSON"),
        ('[[".X..","...Q","Q...","..Q."]]', "board 1, row 0: a board line must be"),
    ],
)
def test_leetcode_malformed(cli, tmp_path, text, words):
    (tmp_path / "lc.txt").write_text(text)
    r = cli("verify", "lc.txt", "--format", "leetcode", cwd=tmp_path)
    assert r.returncode == 2 and r.stderr.startswith("parqueens: error: lc.txt")
    assert words in r.stderr and r.stderr.count("\n") == 1


def test_leetcode_without_solutions_reads_back(cli, tmp_path):
    for out in ("l.txt", "l.json"):
        r = cli("solutions", 3, "--format", "leetcode", "--out", out, cwd=tmp_path)
        assert r.returncode == 0 and (tmp_path / out).stat().st_size == estimate_size(
            "leetcode", 3, 0
        )
        r = cli("verify", out, "--complete", "--n", 3, cwd=tmp_path)
        assert r.returncode == 0 and f"{out}: 0 solutions of n = 3" in r.stdout, r.stderr


def test_json_extension_holds_either_json_format(cli, tmp_path):
    r = cli("solutions", 6, "--format", "leetcode", "--out", "l.json", cwd=tmp_path)
    assert r.returncode == 0 and (tmp_path / "l.json").read_text().startswith('[["')
    assert cli("solutions", 6, "--out", "j.json", cwd=tmp_path).returncode == 0  # jsonl
    for name, fmt in (("l.json", "leetcode"), ("j.json", "jsonl")):
        reader = read_solutions(tmp_path / name)
        assert reader.fmt == fmt and len(list(reader)) == 4
    r = cli("solutions", 6, "--format", "perm", "--out", "p.json", cwd=tmp_path)
    assert r.returncode == 2 and "contradicts the extension" in r.stderr


def test_leetcode_invalid_board_named(cli):
    text = '[["QQ..","...Q","Q...","..Q."],["..Q.","Q...","...Q",".Q.."]]'
    r = cli("verify", "-", input=text.encode())
    assert r.returncode == 1 and "1 INVALID" in r.stdout
    assert r.stderr == (
        "parqueens: first problem: solution 1 [?, 3, 0, 2] is not a valid placement: "
        "row 0 has 2 queens (columns 0 and 1)\n"
    )
