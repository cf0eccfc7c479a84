"""`parqueens verify`: its answers (valid, duplicates, canonical, complete),
the whole line of the first problem, --progress and --json, and its input
on standard input and in files, bad ``.npy`` files refused in one line (the
reading itself: tests/io/test_reading.py).

In-process through :func:`parqueens.cli.main` (the same code as the command,
much faster); standard input is then a real pipe, not seekable, as when the
shell pipes into the command."""

import json

import pytest

from parqueens.formats import READABLE_FORMATS as FORMATS

import naive
from cli_helpers import assert_one_line_error
from io_helpers import bad_npy_files, file_bytes

SOL8 = list(naive.solutions(8))
COUNTS = {0: 1, 1: 1, 2: 0, 3: 0, 4: 2, 8: 92}


# ---------------------------------------------------------------- the command, in-process

ROUND_TRIPS = [(n, fmt) for n in COUNTS for fmt in FORMATS]


@pytest.mark.parametrize("n, fmt", ROUND_TRIPS)
def test_round_trip_complete(cli, tmp_path, n, fmt):
    f = f"x.{fmt}"
    r = cli("solutions", n, "--out", f, "--jobs", 1, "-q", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    want = COUNTS[n]
    sols = "solution" if want == 1 else "solutions"
    report = (
        f"{f}: {want} {sols} of n = {n}, all valid, no duplicates, complete: all {want} {sols}\n"
    )
    r = cli("verify", f, "--complete", "--n", n, "--jobs", 1, cwd=tmp_path)
    assert (r.returncode, r.stdout, r.stderr) == (0, report, "")
    r = cli("verify", f, "--complete", "--jobs", 1, cwd=tmp_path)
    if want == 0 and fmt != "npy":
        # an empty text file does not tell n
        assert r.returncode == 2 and r.stdout == "", r.stderr
        assert r.stderr == (
            f"parqueens: error: {f}: cannot tell n from a file without solutions; give --n\n"
        )
    else:
        assert r.returncode == 0, r.stdout + r.stderr
        assert r.stdout == report


def test_empty_input_fails_unless_allowed(cli, tmp_path):
    # A pipeline whose producer failed and wrote nothing must not pass: an
    # input without solutions fails in one line (exit 1), unless allowed.
    (tmp_path / "e.txt").write_text("")
    refused = "no solution in the input (--allow-empty accepts an empty list)"
    r = cli("verify", "e.txt", cwd=tmp_path)
    assert (r.returncode, r.stdout, r.stderr) == (1, f"e.txt: {refused}\n", "")
    r = cli("verify", "-", input=b"")
    assert (r.returncode, r.stdout, r.stderr) == (1, f"-: {refused}\n", "")
    r = cli("verify", "e.txt", "--json", cwd=tmp_path)
    d = json.loads(r.stdout)
    assert (r.returncode, d["ok"], d["first_problem"]) == (1, False, refused)
    r = cli("verify", "e.txt", "--allow-empty", cwd=tmp_path)
    # no n is claimed for a file that holds none
    assert (r.returncode, r.stdout, r.stderr) == (
        0,
        "e.txt: 0 solutions, all valid, no duplicates\n",
        "",
    )
    # A complete list of a size without solutions is right as it is.
    r = cli("verify", "e.txt", "--complete", "--n", 3, cwd=tmp_path)
    assert r.returncode == 0 and "complete: all 0 solutions" in r.stdout


# ---------------------------------------------------------------- the command, piped input


@pytest.mark.parametrize("fmt", FORMATS)
def test_stdin_formats(cli, tmp_path, fmt):
    data = file_bytes(tmp_path, fmt, SOL8, 8)
    r = cli("verify", "-", "--complete", "--jobs", 1, input=data)
    assert (r.returncode, r.stderr) == (0, "")
    assert (
        r.stdout == "-: 92 solutions of n = 8, all valid, no duplicates, "
        "complete: all 92 solutions\n"
    )


def test_stdin_n0(cli):
    r = cli("verify", "-", "--complete", "--jobs", 1, input=b"\n")
    assert (r.returncode, r.stderr) == (0, "")
    assert "1 solution of n = 0" in r.stdout and "complete: all 1 solution" in r.stdout


def test_stdin_empty(cli):
    r = cli("verify", "-", "--complete", "--jobs", 1, input=b"")
    assert_one_line_error(r)
    assert "cannot tell n from a file without solutions; give --n" in r.stderr
    r = cli("verify", "-", "--complete", "--n", 2, "--jobs", 1, input=b"")
    assert (r.returncode, r.stderr) == (0, "")
    assert "0 solutions of n = 2" in r.stdout and "complete: all 0 solutions" in r.stdout


@pytest.mark.parametrize(
    "data,args",
    [(b"\x93NUMPY junk", ["--jobs", 1]), (b"1 3 0 2\n", ["--format", "npy"])],
    ids=["bad_npy", "text_as_npy"],
)
def test_stdin_bad_npy(cli, data, args):
    r = cli("verify", "-", *args, input=data)
    assert_one_line_error(r)
    assert r.stderr.startswith("parqueens: error: <stdin> is not a valid .npy file of solutions: ")


def test_stdin_board_one_based(cli):
    # board has no column numbers: --one-based counts the report's rows from 1
    r = cli("verify", "-", "--one-based", input=b".Q..\n...Q\nQ...\n..Q.\n")
    assert (r.returncode, r.stderr) == (0, "")
    r = cli("verify", "-", "--one-based", input=b".Q..\n...Q\nQQ..\n..Q.\n")
    assert r.returncode == 1 and r.stderr == (
        "parqueens: first problem: solution 1 [2, 4, ?, 3] is not a valid placement: "
        "row 3 has 2 queens (columns 1 and 2)\n"
    )


@pytest.mark.parametrize("name", ["text.npy", "trunc.npy", "object.npy", "zip.npy", "empty.npy"])
def test_cli_bad_npy_file(tmp_path, cli, name):
    (tmp_path / name).write_bytes(bad_npy_files()[name])
    r = cli("verify", name, cwd=tmp_path)
    assert_one_line_error(r)
    assert r.stderr.startswith(f"parqueens: error: {name} is not a valid .npy file of solutions: ")


@pytest.mark.parametrize("fmt", ["perm", "jsonl"])
@pytest.mark.parametrize("line", [1, 40, 92])
def test_verify_reports_an_empty_line(cli, tmp_path, fmt, line):
    # A blanked-out line would otherwise pass as one solution fewer.
    path = tmp_path / f"s.{fmt}"
    assert cli("solutions", 8, "--out", path, "--quiet").returncode == 0
    lines = path.read_text().splitlines(keepends=True)
    lines[line - 1] = "\n"
    path.write_text("".join(lines))
    r = cli("verify", path)
    assert r.returncode == 1, r.stderr
    assert "91 solutions of n = 8" in r.stdout and "1 EMPTY LINE" in r.stdout
    assert f"first problem: line {line} is empty" in r.stderr
    board = tmp_path / "b.board"
    assert cli("solutions", 6, "--format", "board", "--out", board).returncode == 0
    board.write_text(board.read_text().replace("\n\n", "\n\n\n"))  # extra separators: fine
    r = cli("verify", board)
    assert r.returncode == 0 and "EMPTY" not in r.stdout


def test_verify_json(cli, tmp_path):

    path = tmp_path / "s.perm"
    assert cli("solutions", 6, "--out", path, "-q").returncode == 0
    r = cli("verify", path, "--json", "--complete", "--unique")
    assert r.returncode == 1 and r.stderr == ""  # 4 solutions, 1 class: not canonical ones
    d = json.loads(r.stdout)
    assert (d["n"], d["solutions"], d["invalid"], d["duplicates"]) == (6, 4, 0, 0)
    assert (d["not_canonical"], d["expected"], d["ok"]) == (3, 1, False)
    assert d["first_problem"].startswith("solution 2 ")
    r = cli("verify", path, "--json")
    assert r.returncode == 0 and json.loads(r.stdout)["ok"] is True


def test_verify_progress(cli, tmp_path):
    assert cli("solutions", 8, "--out", "s.npy", cwd=tmp_path).returncode == 0
    r = cli("verify", "s.npy", "--progress", cwd=tmp_path)
    assert r.returncode == 0 and "verify: 100%" in r.stderr and "92.0/92.0" in r.stderr
    r = cli("verify", "s.npy", "--progress", "--quiet", cwd=tmp_path)
    assert r.returncode == 2 and "not allowed with argument" in r.stderr


BOARD = ".Q..\n...Q\nQ...\n..Q.\n"


@pytest.mark.parametrize(
    "text, why",
    [
        (
            "QQ..\n...Q\nQ...\n..Q.\n",
            "solution 1 [?, 3, 0, 2] is not a valid placement: "
            "row 0 has 2 queens (columns 0 and 1)",
        ),
        (
            BOARD + "\n.Q..\n....\nQ...\n..Q.\n",
            "solution 2 [1, ?, 0, 2] is not a valid placement: row 1 has no queen",
        ),
        (
            "q...\n..q.\n.q..\n...q\n",
            "solution 1 [0, 2, 1, 3] is not a valid placement: "
            "the queens of rows 1 and 2 (columns 2 and 1) share a diagonal",
        ),
        (
            "1 3 0 2\n1 3 0 5\n",
            "solution 2 [1, 3, 0, ?] is not a valid placement: "
            "the queen of row 3 is off the board (column 5)",
        ),
        (
            "1 3 0 2\n1 3 0 9223372036854775808\n",
            "solution 2 [1, 3, 0, ?] is not a valid placement: the queen of row 3 is off "
            "the board (column 9223372036854775808)",
        ),
        (
            "QQQQ\n...Q\nQ...\n..Q.\n",
            "solution 1 [?, 3, 0, 2] is not a valid placement: row 0 has 4 queens "
            "(columns 0, 1, 2 and 3)",
        ),
        (
            "[1,3,0,2]\n[1,1,0,2]\n",
            "solution 2 [1, 1, 0, 2] is not a valid placement: "
            "the queens of rows 0 and 1 share column 1",
        ),
    ],
)
def test_invalid_hand_typed_solutions(cli, tmp_path, text, why):
    (tmp_path / "s.txt").write_text(text)
    r = cli("verify", "s.txt", cwd=tmp_path)
    assert r.returncode == 1 and "1 INVALID" in r.stdout
    assert r.stderr == f"parqueens: first problem: {why}\n"


def test_invalid_npy_rows_numbered_from_one(cli, tmp_path):
    import numpy as np

    np.save(tmp_path / "s.npy", np.array([[1, 3, 0, 2], [2, 0, 3, 9]], dtype=np.uint8))
    r = cli("verify", "s.npy", cwd=tmp_path)
    assert r.returncode == 1
    assert r.stderr == (
        "parqueens: first problem: solution 2 [2, 0, 3, ?] is not a valid placement: "
        "the queen of row 3 is off the board (column 9)\n"
    )


def test_negative_perm_column_is_off_the_board(cli):
    r = cli("verify", "-", input=b"1 3 0 2\n1 3 -1 2\n")
    assert r.returncode == 1 and r.stderr.endswith("off the board (column -1)\n")


PERM8 = "".join(" ".join(map(str, s)) + "\n" for s in SOL8)


def _verify(cli, tmp_path, text, *args):
    """`verify a.perm ARGS` of a file holding ``text``: the result, and its
    one line of summary."""
    (tmp_path / "a.perm").write_text(text)
    r = cli("verify", "a.perm", *args, cwd=tmp_path)
    lines = r.stdout.splitlines()
    assert len(lines) == 1, r.stdout
    return r, lines[0]


def test_verify_invalid(cli, tmp_path):
    r, summary = _verify(cli, tmp_path, PERM8[:16] + "0 1 2 3 4 5 6 7\n")
    assert r.returncode == 1
    assert "1 INVALID" in summary and "2 solutions" in summary
    assert "not a valid placement" in r.stderr


def test_verify_duplicate(cli, tmp_path):
    r, summary = _verify(cli, tmp_path, PERM8[:32] + PERM8[:16])
    assert r.returncode == 1
    assert "1 DUPLICATE," in summary + "," and "all valid" in summary
    assert "duplicate" in r.stderr


def test_verify_not_canonical(cli, tmp_path):
    not_canonical = next(s for s in SOL8 if s not in naive.classes(8))
    r, summary = _verify(cli, tmp_path, " ".join(map(str, not_canonical)) + "\n", "--unique")
    assert r.returncode == 1
    assert "1 NOT CANONICAL" in summary
    assert "canonical" in r.stderr


def test_verify_incomplete(cli, tmp_path):
    r, summary = _verify(cli, tmp_path, PERM8[: 16 * 91], "--complete", "--jobs", 1)
    assert r.returncode == 1
    assert "INCOMPLETE: 91 distinct of 92 solutions" in summary
    assert "all valid" in summary and "no duplicates" in summary


def test_verify_complete_with_a_duplicate(cli, tmp_path):
    # all 92 solutions plus a repeat: the problem is the duplicate; the file is
    # not incomplete (it holds all 92 distinct solutions)
    r, summary = _verify(cli, tmp_path, PERM8 + PERM8[:16], "--complete", "--jobs", 1)
    assert r.returncode == 1
    assert "1 DUPLICATE," in summary + ","
    assert "INCOMPLETE" not in summary, summary


@pytest.mark.parametrize(
    "text, words",
    [("1 3 0 2\n2 0 3\n", "line 2"), ("1 3 0 2\n2 x 3 1\n", "line 2"), (None, "missing.perm")],
    ids=["ragged", "letters", "missing"],
)
def test_unreadable_files_refused(cli, tmp_path, text, words):
    name = "a.perm" if text is not None else "missing.perm"
    if text is not None:
        (tmp_path / name).write_text(text)
    r = cli("verify", name, cwd=tmp_path)
    assert_one_line_error(r)
    assert words in r.stderr
    assert [p.name for p in tmp_path.iterdir()] == ([name] if text is not None else [])
