"""The students' formats: LeetCode 51's array of boards (written, read,
verified), SVG pictures (file, stdout, library, notebooks), the terminal
picture, and --one-based wherever numbers are read or written."""

import io
import json
import xml.etree.ElementTree as ET

import pytest

from parqueens import Board, pictures
from parqueens.formats import SolutionWriter, estimate_size, read_solutions, render
from parqueens.io import reading
from parqueens.io import svg as svgmod
from parqueens.listing import iter_blocks

from naive import solutions as all_solutions

# LeetCode 51's expected output for n = 4, as the problem states it
LEETCODE4 = '[["..Q.","Q...","...Q",".Q.."],[".Q..","...Q","Q...","..Q."]]'
SVG = "{http://www.w3.org/2000/svg}"


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
        monkeypatch.setattr(reading, "_LEETCODE_CHUNK", chunk)
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
    monkeypatch.setattr(reading, "_LEETCODE_CHUNK", 1000)
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


def _svg(text):
    root = ET.fromstring(text)
    assert root.tag == f"{SVG}svg"
    return root


@pytest.mark.parametrize("labels", [False, True])
def test_svg_file_is_the_library_picture(cli, tmp_path, labels):
    args = ["--labels", "--one-based"] if labels else []
    r = cli("solutions", 6, "--out", "s.svg", *args, cwd=tmp_path)
    assert r.returncode == 0
    text = (tmp_path / "s.svg").read_text()
    assert len(text) <= estimate_size("svg", 6, 4)
    same = pictures.svg(list(iter_blocks(6))[0].tolist(), labels=labels, one_based=labels)
    a, b = _svg(text), _svg(same)  # the file's header is padded with spaces
    assert a.attrib == b.attrib and ET.tostring(a) == ET.tostring(b)
    # a grid of 4 boards of 6 squares, a gap of one (and a margin for labels)
    step = 6 + 1 + labels
    assert a.attrib["viewBox"] == f"0 0 {4 * step - 1} {step - 1}"
    uses = a.findall(f".//{SVG}use")
    assert len(uses) == 24 and {u.attrib["href"] for u in uses} == {"#pq-queen"}
    texts = [t.text for t in a.iter(f"{SVG}text")]
    assert texts == ([str(k) for k in range(1, 7)] * 2 * 4 if labels else [])
    # to stdout: the same document without the padding
    r = cli("solutions", 6, "--format", "svg", *args)
    assert r.stdout == same


def test_svg_one_board_and_queens_placed(cli):
    r = cli("first", 8, "--format", "svg")
    root = _svg(r.stdout)
    assert root.attrib["viewBox"] == "0 0 8 8"
    uses = root.findall(f".//{SVG}use")
    placed = sorted((int(u.attrib["y"]), int(u.attrib["x"])) for u in uses)
    assert placed == list(enumerate((0, 4, 7, 5, 2, 6, 1, 3)))
    assert cli("solutions", 3, "--format", "svg").stdout == pictures.svg([])
    r = cli("verify", "-", input=r.stdout.encode())
    assert r.returncode == 2 and "svg is a picture" in r.stderr
    r = cli("verify", "-", "--format", "svg", input=b"")
    assert r.returncode == 2 and "invalid choice: 'svg'" in r.stderr


def test_board_draws_itself():
    b = Board([1, 3, 0, 2])
    assert b == (1, 3, 0, 2) and b.n == 4 and str(b) == ".Q..\n...Q\nQ...\n..Q.\n"
    root = _svg(b._repr_svg_())
    assert len(root.findall(f".//{SVG}use")) == 4 and root.attrib["viewBox"] == "0 0 5 5"
    with pytest.raises(ValueError, match="columns must lie in 0..3"):
        Board([1, 3, 0, 4])
    assert _svg(render([1, 3, 0, 2], "svg", one_based=True)).attrib["width"] == "120"
    assert b.problem is None


def test_board_of_a_wrong_placement_says_why():
    # Drawn, so that a wrong answer can be looked at, but with a word.
    with pytest.warns(UserWarning, match=r"Board\(\[0, 0, 0\]\) is not a solution: the queens "):
        b = Board([0, 0, 0])
    assert b.problem == "the queens of rows 0 and 1 share column 0"
    assert str(b) == "Q..\nQ..\nQ..\n" and len(_svg(b.svg()).findall(f".//{SVG}use")) == 3


def test_submodules_without_their_own_import():
    import subprocess
    import sys

    from cli_helpers import cli_env

    code = "import parqueens; print(parqueens.pictures.svg([[0]]).count('<use'))"
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=cli_env())
    assert (r.returncode, r.stdout) == (0, "1\n"), r.stderr


class _Tty(io.StringIO):
    encoding = "utf-8"

    def isatty(self):
        return True


@pytest.mark.parametrize(
    "env, drawn",
    [({"TERM": "xterm-256color"}, True), ({"TERM": "dumb"}, False), ({"NO_COLOR": "1"}, False)],
)
def test_terminal_picture_only_where_it_shows(monkeypatch, env, drawn):
    monkeypatch.setenv("TERM", "xterm")
    monkeypatch.delenv("NO_COLOR", raising=False)
    for k, v in env.items():
        monkeypatch.setenv(k, v)
    out = _Tty()
    monkeypatch.setattr("sys.stdout", out)
    with SolutionWriter(None, "board", 4) as w:
        w.write_many(next(iter_blocks(4)))
    text = out.getvalue()
    if drawn:
        assert w.picture and text.count("\u265b") == 8 and text.count("\n") == 9
        assert text.startswith(svgmod._LIGHT_BG + "  " + svgmod._DARK_BG)
    else:
        assert not w.picture and text == ".Q..\n...Q\nQ...\n..Q.\n\n..Q.\nQ...\n...Q\n.Q..\n"
    assert not pictures.terminal_can_show(io.StringIO())


def test_fixed_from_one(cli):
    assert cli("first", 8, "--fixed", "1:1", "--one-based").stdout == "1 5 8 6 3 7 2 4\n"
    assert (
        cli("count", 8, "--fixed", "1:1", "--one-based").stdout
        == cli("count", 8, "--fixed", "0:0").stdout
    )
    one = cli("solutions", 8, "--fixed", "3:5", "--one-based").stdout.split("\n")
    zero = cli("solutions", 8, "--fixed", "2:4").stdout.split("\n")
    assert len(one) > 2 and one == [" ".join(str(int(c) + 1) for c in z.split()) for z in zero]
    r = cli("count", 8, "--fixed", "0:1", "--one-based")
    assert r.returncode == 2 and "rows and columns are 1..8 for n = 8" in r.stderr
    r = cli("first", 8, "--fixed", "1:1,2:2", "--one-based")
    assert r.returncode == 1
    assert (
        r.stderr == "parqueens: no solution for n = 8: fixed queens 1:1 and 2:2 share a diagonal\n"
    )


def test_readme_pictures_are_what_the_tool_draws(cli, tmp_path):
    import pathlib
    import re

    root = pathlib.Path(__file__).resolve().parent.parent
    readme = (root / "README.md").read_text()
    pictures_shown = re.findall(
        r"!\[[^\]]*`parqueens ([^`]*) --out (docs/[^`]*)`[^\]]*\]\((docs/[^)]*)\)", readme
    )
    assert len(pictures_shown) == 2
    for command, made, shown in pictures_shown:
        assert made == shown
        r = cli(*command.split(), "--out", tmp_path / "p.svg")
        assert r.returncode == 0, r.stderr
        assert (tmp_path / "p.svg").read_bytes() == (root / shown).read_bytes(), command
        (tmp_path / "p.svg").unlink()
