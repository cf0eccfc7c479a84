"""The command line, in-process through ``cli.main`` (fixture ``cli``); the
fast exit of a real process through a subprocess."""

import json

import pytest

from cli_helpers import run_process


def test_count(cli):
    r = cli("count", 8)
    assert (r.returncode, r.stdout, r.stderr) == (0, "92\n", "")


def test_count_json(cli):
    r = cli("count", 12, "--json", "--jobs", 2, "--method", "mirror", "--nodes")
    assert r.returncode == 0
    d = json.loads(r.stdout)
    assert d["n"] == 12 and d["total"] == 14200 and d["method"] == "mirror"
    assert d["jobs"] == 2 and d["units"] >= 128 and d["nodes"] > 14200
    assert d["seconds"] > 0
    assert "fundamental" not in d


def test_count_unique(cli):
    r = cli("count", 8, "--unique")
    assert r.stdout.splitlines() == ["total 92", "fundamental 12", "orbits 8:11 4:1 2:0"]
    r = cli("count", 10, "--unique", "--json")
    d = json.loads(r.stdout)
    assert (d["total"], d["fundamental"]) == (724, 92)
    assert d["orbits"] == {"8": 89, "4": 3, "2": 0, "1": 0}


def test_verify(cli):
    r = cli("count", 9, "--verify", "--unique")
    assert r.returncode == 0 and "matches OEIS" in r.stderr


def test_progress_on_stderr_only(cli):
    r = cli("count", 12, "--progress", "--jobs", 1)
    assert r.stdout == "14200\n"
    assert "unit" in r.stderr


def test_version(cli):
    import parqueens

    r = cli("--version")
    assert r.stdout.strip() == f"parqueens {parqueens.__version__}"


@pytest.mark.parametrize(
    "args,needle",
    [
        (["count", "abc"], "non-negative integer"),
        (["count", "8.5"], "non-negative integer"),
        (["count", "1e3"], "non-negative integer"),
        (["count", ""], "non-negative integer"),
        (["count", "65"], "n <= 64"),
        (["count", "8", "--jobs", "0"], "must not be 0"),
        (["count", "8", "--jobs", "x"], "jobs must be an integer"),
        (["count", "8", "--split-depth", "0"], "positive integer"),
        (["count", "8", "--split-depth", "9"], "split depth"),
        (["count", "8", "--method", "fast"], "invalid choice"),
        (["count", "8", "--progress", "--quiet"], "not allowed"),
        (["count"], "required"),
        ([], "required"),
        (["frobnicate"], "invalid choice"),
    ],
)
def test_usage_errors_one_line_exit_2(cli, args, needle):
    r = cli(*args)
    assert r.returncode == 2
    assert r.stdout == ""
    assert len(r.stderr.strip().splitlines()) == 1, r.stderr
    assert needle in r.stderr
    assert "Traceback" not in r.stderr


def test_fast_exit_keeps_all_output():
    # The command leaves with os._exit after flushing (no teardown of numba):
    # everything written to the pipe must arrive, stdout and stderr alike.
    r = run_process("solutions", 11, "--jobs", 1)
    lines = r.stdout.splitlines()
    assert (r.returncode, len(lines), r.stdout[-1]) == (0, 2680, "\n")
    r = run_process("count", 12, "--nodes")
    assert (r.returncode, r.stdout) == (0, "14200\n")
    assert r.stderr.startswith("parqueens: nodes ") and int(r.stderr.split()[2]) > 14200
