"""The command line's conveniences, the same for every command: the bare
command's usage, --help and --version written or refused, shell completion,
colours, and --json times rounded to what is measured.  In-process through
``cli.main`` (fixture ``cli``), except where a full disk needs a real
process."""

import json
import os

import pytest

# -------- the bare command, --help and --version written or said


def test_bare_command_prints_its_usage_and_where_to_read_more(cli):
    r = cli()
    assert r.returncode == 2 and r.stdout == ""
    assert r.stderr == (
        "parqueens: error: usage: parqueens [-h] [--version] [--print-completion {bash,zsh}] "
        "COMMAND ...; COMMAND is one of "
        "count, table, merge, status, solutions, first, construct, verify; `parqueens --help` says "
        "what each does, `parqueens COMMAND --help` its options\n"
    )


@pytest.mark.parametrize("argv", [["--help"], ["--version"], ["count", "--help"]])
def test_help_and_version_to_a_full_disk(argv):
    from cli_helpers import run_process

    if not os.path.exists("/dev/full"):
        pytest.skip("no /dev/full here")
    r = run_process(*argv, redirect=">/dev/full")
    assert (r.returncode, r.stderr) == (
        2,
        "parqueens: error: writing the output: No space left on device\n",
    )


def test_a_search_asked_of_a_board_it_cannot_search_says_so(cli):
    r = cli("count", 3, "--method", "d4", "--json")
    assert r.returncode == 0 and json.loads(r.stdout)["method"] == "plain"
    assert r.stderr == "parqueens: n = 3: counted by plain, since d4 needs n >= 4 (four borders)\n"
    r = cli("count", 3, "--method", "mirror")  # mirror serves every n: nothing to say
    assert (r.stdout, r.stderr) == ("0\n", "")


def test_a_refused_output_comes_alone(cli, tmp_path):
    # fixed queens without a solution are said only once the output is accepted
    (tmp_path / "out.txt").write_text("x\n")
    r = cli("solutions", 3, "--fixed", "1:1,2:2", "--out", "out.txt", cwd=tmp_path)
    assert r.returncode == 2 and r.stderr == (
        "parqueens: error: out.txt: output file exists (use --force to overwrite)\n"
    )


# -------- shell completion and colours


def test_shell_completion_from_the_parser(cli):
    r = cli("--print-completion", "bash")
    assert r.returncode == 0 and r.stderr == ""
    for word in ("solutions", "construct", "--split-depth", "--checkpoint", "mirror", "leetcode"):
        assert word in r.stdout, word
    r = cli("--print-completion", "zsh")
    assert r.returncode == 0 and r.stdout.startswith("#compdef parqueens")


def test_shell_completion_without_shtab(cli, monkeypatch):
    import sys

    monkeypatch.setitem(sys.modules, "shtab", None)  # as if not installed
    r = cli("--print-completion", "bash")
    assert (r.returncode, r.stdout) == (2, "")
    assert r.stderr == ("parqueens: error: shell completion needs shtab: pip install shtab\n")


@pytest.mark.parametrize("color, picture", [("always", True), ("never", False), ("auto", False)])
def test_color_choice(cli, color, picture):
    # stdout is captured (not a terminal): auto draws no colours there
    r = cli("first", 4, "--format", "board", "--color", color)
    assert r.returncode == 0 and ("\x1b[48;5;" in r.stdout) == picture
    if not picture:
        assert r.stdout == ".Q..\n...Q\nQ...\n..Q.\n"


# -------- --json: times as measured


def test_json_times_rounded_to_what_is_measured(cli, tmp_path):
    from parqueens.run.estimate import rounded
    from parqueens.run.runner import CountResult

    r = CountResult(n=8, total=92, seconds=0.04996844500419684, run_seconds=1.23456789)
    assert (r.as_dict()["seconds"], r.as_dict()["run_seconds"]) == (0.05, 1.235)
    assert (rounded(13.742114850362), rounded(123456.7), rounded(7), rounded(None)) == (
        13.7,
        123000.0,
        7,
        None,
    )
    d = json.loads(cli("count", 12, "--json").stdout)
    assert all(d[k] == round(d[k], 3) for k in ("seconds", "run_seconds")), d
    e = json.loads(cli("count", 16, "--estimate", "--json").stdout)
    assert e["estimate_seconds"] == rounded(e["estimate_seconds"]), e
    assert cli("count", 12, "--checkpoint", tmp_path / "c.db").returncode == 0
    [size] = json.loads(cli("status", tmp_path / "c.db", "--json").stdout)["sizes"]
    assert size["seconds"] == round(size["seconds"], 3), size
