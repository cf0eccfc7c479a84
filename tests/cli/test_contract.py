"""One style for every command: the prefix and grammar of messages, the
options every command takes (--quiet, --progress where work is measured),
the note while kernels compile, and invalid hand-typed solutions."""

import pytest

from parqueens.cli.errors import UsageError

BAD = [
    ("count", "x"),
    ("count", "8", "--jobs", "0"),
    ("count", "8", "--verify", "--fixed", "0:1"),
    ("table", "1-x"),
    ("table", "4-6", "--json", "--out", "t.csv"),
    ("solutions", "8", "--format", "foo"),
    ("solutions", "8", "--out", "x.npy", "--format", "perm"),
    ("first", "65"),
    ("construct", "8", "--format", "npy"),
    ("verify", "missing.perm"),
    ("status", "missing.db"),
    ("bogus",),
]


@pytest.mark.parametrize("argv", BAD, ids=" ".join)
def test_every_error_one_line_with_one_prefix(cli, tmp_path, argv):
    r = cli(*argv, cwd=tmp_path)
    assert r.returncode == 2 and r.stdout == ""
    assert r.stderr.count("\n") == 1 and r.stderr.startswith("parqueens: error: "), r.stderr


@pytest.mark.parametrize(
    "argv, code",
    [
        (("first", "3"), 1),
        (("construct", "2"), 1),
        (("solutions", "3"), 0),
        (("count", "8", "--verify"), 0),
        (("count", "10", "--nodes"), 0),
        (("solutions", "5", "--out", "s.perm"), 0),
    ],
)
def test_every_stderr_line_has_the_prefix(cli, tmp_path, argv, code):
    r = cli(*argv, cwd=tmp_path)
    assert r.returncode == code
    lines = r.stderr.splitlines()
    assert lines and all(line.startswith("parqueens: ") for line in lines), r.stderr
    assert not any(line.startswith("parqueens: error") for line in lines)


@pytest.mark.parametrize(
    "argv",
    [
        ("count", "6"),
        ("table", "4-5"),
        ("solutions", "6"),
        ("first", "6"),
        ("construct", "6"),
        ("verify", "s.perm"),
        ("status", "c.db"),
    ],
    ids=lambda a: a[0],
)
def test_quiet_on_every_command(cli, tmp_path, argv):
    assert cli("solutions", 6, "--out", "s.perm", cwd=tmp_path).returncode == 0
    assert cli("count", 6, "--checkpoint", "c.db", cwd=tmp_path).returncode == 0
    loud = cli(*argv, cwd=tmp_path)
    quiet = cli(*argv, "--quiet", cwd=tmp_path)
    assert (quiet.returncode, quiet.stdout, quiet.stderr) == (loud.returncode, loud.stdout, "")


def test_verify_progress(cli, tmp_path):
    assert cli("solutions", 8, "--out", "s.npy", cwd=tmp_path).returncode == 0
    r = cli("verify", "s.npy", "--progress", cwd=tmp_path)
    assert r.returncode == 0 and "verify: 100%" in r.stderr and "92.0/92.0" in r.stderr
    r = cli("verify", "s.npy", "--progress", "--quiet", cwd=tmp_path)
    assert r.returncode == 2 and "not allowed with argument" in r.stderr


def test_compile_note_once_and_quiet(cli, monkeypatch):
    """numba's compile event (what a cache miss fires) gives one note."""
    from numba.core import event

    from parqueens import kernels, runner

    real = runner.run_plan

    def compiling(*args, **kwargs):
        for _ in range(2):
            data = {"dispatcher": kernels._count, "args": (), "return_type": None}
            with event.trigger_event("numba:compile", data=data):
                pass
        return real(*args, **kwargs)

    monkeypatch.setattr(runner, "run_plan", compiling)
    note = "parqueens: compiling the search kernels"
    for quiet in (False, True):
        monkeypatch.setattr(kernels._CompileNotice, "said", False)
        r = cli("count", 8, *["--quiet"] * quiet)
        assert r.stdout == "92\n" and r.stderr.count(note) == (0 if quiet else 1), r.stderr


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


@pytest.mark.parametrize(
    "argv, words",
    [
        (("count", "8", "--uniq"), "count: unrecognized arguments: --uniq"),
        (("status", "x.db", "--progress"), "status: unrecognized arguments: --progress"),
        (("first", "8", "--out", ""), "the output path is empty"),
        (("solutions", "8", "--out", "x.npy", "--one-based"), "one-based numbering (--one-based)"),
    ],
)
def test_more_errors_in_one_style(cli, tmp_path, argv, words):
    r = cli(*argv, cwd=tmp_path)
    assert r.returncode == 2 and r.stderr == f"parqueens: error: {r.stderr[18:]}"
    assert words in r.stderr and r.stderr.count("\n") == 1 and "Errno" not in r.stderr


def test_notes_above_a_progress_bar(cli, monkeypatch):
    """A note while a bar is shown goes on its own line (tqdm.write)."""
    from parqueens import runner

    real = runner.run_plan

    def noting(*args, **kwargs):
        import logging

        result = real(*args, **kwargs)  # its bar shown, and still open in the table's
        logging.getLogger("parqueens").info("a note")
        return result

    monkeypatch.setattr(runner, "run_plan", noting)
    r = cli("table", "5-6", "--progress")
    assert r.returncode == 0
    assert "\nparqueens: a note\n" in "\n" + r.stderr.replace("\r", "\n")


def test_count_json_conflict_names_squares_as_given(cli):
    import json

    r = cli("count", 8, "--fixed", "1:1,3:1", "--one-based", "--json")
    assert json.loads(r.stdout)["conflict"] == "fixed queens 1:1 and 3:1 share column 1"
    r = cli("count", 8, "--fixed", "0:0,2:0", "--json")
    assert json.loads(r.stdout)["conflict"] == "fixed queens 0:0 and 2:0 share column 0"


def test_status_fixed_squares_from_one(cli, tmp_path):
    assert cli("count", 8, "--fixed", "2:3", "--one-based", "--checkpoint", "c.db", cwd=tmp_path)
    assert "fixed=1:2" in cli("status", "c.db", cwd=tmp_path).stdout
    assert "fixed=2:3" in cli("status", "c.db", "--one-based", cwd=tmp_path).stdout


def test_parser_errors_name_the_command():
    from parqueens.cli.parser import build_parser

    with pytest.raises(UsageError, match="^count: argument N: "):
        build_parser().parse_args(["count", "x"])


def test_library_warnings_one_line_with_the_prefix(cli, monkeypatch):
    import warnings

    from parqueens import runner

    real = runner.run_plan

    def warning(*args, **kwargs):
        text = "Port 8787 is already in use.\nPerhaps you already have a cluster running?"
        warnings.warn(text, UserWarning, stacklevel=2)
        return real(*args, **kwargs)

    monkeypatch.setattr(runner, "run_plan", warning)
    r = cli("count", 8)
    assert r.stdout == "92\n" and r.stderr == (
        "parqueens: warning: Port 8787 is already in use. Perhaps you already have a cluster "
        "running?\n"
    )


def test_deep_split_depth_warned_before_an_estimate(cli):
    r = cli("count", 10, "--split-depth", 7, "--jobs", 1, "--estimate")
    assert r.returncode == 0 and "estimate for n = 10" in r.stdout
    assert r.stderr.startswith("parqueens: --split-depth 7 is much deeper than n = 10 needs")


def test_system_errors_without_errno(cli, tmp_path):
    import os

    if os.path.exists("/dev/full"):  # a full device as stdout: a real process
        from cli_helpers import run_process

        r = run_process("first", 8, redirect=">/dev/full")
        assert r.returncode == 2 and r.stderr == (
            "parqueens: error: writing the output: No space left on device\n"
        )
    r = cli("verify", "")
    assert r.returncode == 2 and r.stderr == "parqueens: error: '': No such file or directory\n"


def test_negative_perm_column_is_off_the_board(cli):
    r = cli("verify", "-", input=b"1 3 0 2\n1 3 -1 2\n")
    assert r.returncode == 1 and r.stderr.endswith("off the board (column -1)\n")


def test_checkpoint_of_other_fixed_queens_named(cli, tmp_path):
    assert cli("count", 8, "--fixed", "0:1", "--checkpoint", "c.db", cwd=tmp_path).returncode == 0
    r = cli("count", 8, "--fixed", "2:3", "--one-based", "--checkpoint", "c.db", cwd=tmp_path)
    assert r.returncode == 2 and "fixed: 0:1 (from 0) there, 1:2 (from 0) now" in r.stderr


def test_n0_picture_has_a_size(cli):
    r = cli("solutions", 0, "--format", "svg")
    assert 'viewBox="0 0 1 1"' in r.stdout and r.stdout.count("<use") == 0
