"""`parqueens count`: the result on stdout (plain, --unique, --json), --verify,
--estimate, --fixed, --jobs and --split-depth, the guard on runs over a
day, a checkpoint named with its defaults, --scheduler refused before any
work.  In-process through ``cli.main`` (fixture ``cli``)."""

import json
import os
import re
import sys

import joblib
import pytest

from parqueens import checks
from parqueens.cli import main

import naive
from cli_helpers import assert_one_line_error

#: A time as an estimate says it (cli.output.format_seconds)
TIME = r"[\d.e+-]+ (?:s|min|h|days)"


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


def test_repeated_fixed_add_up(cli):
    both = cli("count", 8, "--fixed", "0:0", "--fixed", "1:4")
    assert both.stdout == cli("count", 8, "--fixed", "0:0,1:4").stdout == "1\n"
    assert cli("count", 8, "--fixed", "1:4").stdout == "8\n"


def test_checkpoint_with_the_defaults_named(cli, tmp_path):
    """Naming the default method, or the depth the first run chose, is the
    same run; another depth is refused and changes nothing."""
    joined = tmp_path / "j.sqlite"
    first = cli("count", 12, "--checkpoint", joined, "--json", "--jobs", 1)
    assert json.loads(first.stdout)["method"] == "join"
    again = json.loads(
        cli("count", 12, "--method", "join", "--checkpoint", joined, "--json").stdout
    )
    assert again["total"] == 14200 and again["resumed"] == again["units"] > 0
    ck = tmp_path / "c.sqlite"
    first = cli("count", 12, "--method", "d4", "--checkpoint", ck, "--json", "--jobs", 1)
    depth = json.loads(first.stdout)["split_depth"]
    again = cli(
        "count",
        12,
        "--method",
        "d4",
        "--split-depth",
        depth,
        "--checkpoint",
        ck,
        "--json",
        "--jobs",
        1,
    )
    assert again.returncode == 0, again.stderr
    d = json.loads(again.stdout)
    assert d["total"] == 14200 and d["resumed"] == d["units"] > 0
    before = ck.read_bytes()
    other = cli("count", 12, "--split-depth", depth + 1, "--checkpoint", ck)
    assert_one_line_error(other)
    assert "depth" in other.stderr
    assert ck.read_bytes() == before


def test_more_jobs_than_cores_warns(cli):
    jobs = joblib.cpu_count() + 1
    r = cli("count", 9, "--jobs", jobs)
    assert r.stdout == "352\n"
    assert f"--jobs {jobs}: this machine has {jobs - 1} core" in r.stderr
    assert f"so at most {jobs - 1} job" in r.stderr
    assert cli("count", 9, "--jobs", jobs, "--quiet").stderr == ""


def test_estimate_json(cli):
    r = cli("count", 14, "--estimate", "--json", "--jobs", 1, "--method", "d4")
    d = json.loads(r.stdout)
    assert d["n"] == 14 and d["jobs"] == 1 and d["estimate_seconds"] > 0 and d["nodes"] > 0
    assert (d["method"], d["units"] > 0) == ("d4", True)
    d = json.loads(cli("count", 14, "--estimate", "--json", "--jobs", 1).stdout)
    assert (d["method"], d["nodes"], d["nodes_per_second"]) == ("join", None, None)
    assert d["estimate_seconds"] > 0 and d["units"] > 0


def test_estimate_on_more_cores_than_here_below_22(cli):
    """The cost model's time on the cores asked for, the largest unit its floor."""
    d = json.loads(cli("count", 16, "--estimate", "--json", "--jobs", 1000).stdout)
    assert d["jobs"] < 1000 and d["asked_jobs"] == 1000
    assert 0 < d["asked_seconds"] < d["estimate_seconds"] and "asked_low" not in d
    text = cli("count", 16, "--estimate", "--jobs", 1000).stdout.strip()
    assert text.startswith("estimate for n = 16: about ") and " on 1,000 cores like these (" in text
    assert re.search(rf"its [\d,]+ units, .*; here about {TIME} on [\d,]+ jobs?\)$", text), text


def test_verify_beyond_the_table_refused_first(cli):
    r = cli("count", 28, "--verify")
    assert_one_line_error(r)
    assert r.stderr == (
        "parqueens: error: --verify knows the published counts for n <= 27, not n = 28\n"
    )


def test_absurd_jobs_capped_by_units(cli):
    r = cli("count", 8, "--jobs", 1000, "--quiet")
    assert r.stdout == "92\n" and r.returncode == 0


def test_fixed_edge_messages(cli):
    r = cli("count", 0, "--fixed", "0:0")
    assert_one_line_error(r)
    assert r.stderr == (
        "parqueens: error: fixed queen 0:0 is off the board (a board of size 0 has no squares)\n"
    )
    assert cli("count", 8, "--fixed", "0:0,0:0").stdout == "4\n"  # the same queen twice


def test_empty_scheduler_refused(cli):
    r = cli("count", 8, "--backend", "dask", "--scheduler", "")
    assert_one_line_error(r)
    assert r.stderr == (
        "parqueens: error: count: argument --scheduler: the scheduler needs an address such as "
        "tcp://HOST:8786 (leave it out to start a local cluster)\n"
    )


@pytest.mark.parametrize(
    ("address", "says"),
    [
        ("not a url", "'not a url' is not the address of a Dask scheduler: give PROTOCOL://"),
        ("tcp://", "'tcp://' is not the address of a Dask scheduler"),
        ("10.0.0.5", "'10.0.0.5' has no port: give tcp://10.0.0.5:PORT"),
        ("tls://h", "'tls://h' has no port: give tls://h:PORT"),
        ("http://h:80", "'http' in 'http://h:80' is not a protocol of Dask addresses"),
        ("tcp://h:0", "must be 1 to 65535, got 0"),
        ("tcp://h:99999", "must be 1 to 65535, got 99999"),
    ],
)
def test_scheduler_addresses_refused(cli, address, says):
    # A usage error (exit 2) in one line, before anything connects; the
    # library raises the same ValueError.
    r = cli("count", 8, "--backend", "dask", "--scheduler", address)
    assert_one_line_error(r)
    assert r.stderr.startswith("parqueens: error: count: argument --scheduler: ")
    assert says in r.stderr
    with pytest.raises(ValueError, match=re.escape(says)):
        checks.check_scheduler(address)


def test_estimate_names_the_jobs_the_run_uses(cli):
    r = cli("count", 12, "--estimate", "--json")
    assert json.loads(r.stdout)["jobs"] == 1  # n <= 14 runs in the calling process


def test_deep_split_depth_warns(cli):
    r = cli("count", 10, "--split-depth", 7, "--jobs", 1)
    assert r.returncode == 0 and r.stdout == "724\n"
    assert "much deeper than n = 10 needs" in r.stderr
    quiet = cli("count", 10, "--split-depth", 3, "--jobs", 1)
    assert quiet.returncode == 0 and quiet.stderr == ""


def test_runs_over_a_day_need_yes(cli, monkeypatch):
    from parqueens.join import rowsets

    # the join's sampled estimates of 23, 24: the least (the default samples 6 row sets for 5 s)
    monkeypatch.setattr(rowsets, "SAMPLE_SECONDS", 0.5)
    monkeypatch.setattr(rowsets, "MIN_SAMPLES", 3)
    # n = 24 alone passes a day: the table is refused without 23's estimate
    for args, about in ((["count", 30], "about"), (["table", "23-24"], "more than")):
        r = cli(*args)
        assert_one_line_error(r)
        assert f"would take {about} " in r.stderr and "--yes" in r.stderr, r.stderr
        assert re.search(r" on [0-9,]+ jobs? \(estimate\)", r.stderr), r.stderr


class _Terminal:
    """A stdin that is a terminal, answering ``answer``."""

    def __init__(self, answer):
        self.answer = answer

    def isatty(self):
        return True

    def readline(self):
        return self.answer


def test_runs_over_a_day_asked_on_a_terminal(monkeypatch, capsys, tmp_path):

    import parqueens.run.runner as runner
    from parqueens.run.plan import CountPlan
    from parqueens.run.runner import CountResult

    def huge(plan):
        return {"seconds": 5e6, "jobs": 2, "nodes": 1e20, "rate": 1e8, "method": "d4", "units": 500}

    monkeypatch.setattr(CountPlan, "estimate", huge)
    monkeypatch.setattr(runner, "run_plan", lambda plan, **kw: CountResult(plan.n, 42))
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)
    # A no is a negative answer (exit 1), not bad input; the line ends with it.
    for answer, code, out in (("n\n", 1, ""), ("y\n", 0, "42\n")):
        monkeypatch.setattr(sys, "stdin", _Terminal(answer))
        assert main(["count", "19"]) == code
        captured = capsys.readouterr()
        assert "start it? [y/N]" in captured.err and captured.out == out
        if code:
            assert captured.err.endswith("[y/N] parqueens: not started: the answer was no\n")
    monkeypatch.setattr(sys, "stdin", _Terminal("n\n"))
    assert main(["count", "19", "--yes", "-q"]) == 0  # not asked
    assert "start it" not in capsys.readouterr().err
    # verify --complete counts too: the same guard
    path = tmp_path / "s19.perm"
    path.write_text(" ".join(map(str, range(19))) + "\n")
    monkeypatch.setattr(sys, "stdin", _Terminal("n\n"))
    assert main(["verify", str(path), "--complete"]) == 1
    err = capsys.readouterr().err
    assert "the count of n = 19 (verify --complete) would take about" in err, err
    assert err.endswith("parqueens: not started: the answer was no\n")


def test_count_json_conflict_names_squares_as_given(cli):

    r = cli("count", 8, "--fixed", "1:1,3:1", "--one-based", "--json")
    assert json.loads(r.stdout)["conflict"] == "fixed queens 1:1 and 3:1 share column 1"
    r = cli("count", 8, "--fixed", "0:0,2:0", "--json")
    assert json.loads(r.stdout)["conflict"] == "fixed queens 0:0 and 2:0 share column 0"


def test_deep_split_depth_warned_before_an_estimate(cli):
    r = cli("count", 10, "--split-depth", 7, "--jobs", 1, "--estimate")
    assert r.returncode == 0 and "estimate for n = 10" in r.stdout
    assert " on 1 job " in r.stdout and "(s)" not in r.stdout  # a proper plural
    assert r.stderr.startswith("parqueens: --split-depth 7 is much deeper than n = 10 needs")


def test_checkpoint_of_other_fixed_queens_named(cli, tmp_path):
    assert cli("count", 8, "--fixed", "0:1", "--checkpoint", "c.db", cwd=tmp_path).returncode == 0
    r = cli("count", 8, "--fixed", "2:3", "--one-based", "--checkpoint", "c.db", cwd=tmp_path)
    assert r.returncode == 2 and "fixed: 0:1 (from 0) there, 1:2 (from 0) now" in r.stderr


def test_count_fixed(cli):
    r = cli("count", 8, "--fixed", "0:0")
    want = sum(1 for s in naive.solutions(8) if s[0] == 0)
    assert (r.returncode, r.stdout, r.stderr) == (0, f"{want}\n", "")


def test_count_fixed_conflict(cli):
    r = cli("count", 8, "--fixed", "0:0,1:1")
    assert (r.returncode, r.stdout) == (0, "0\n")
    assert r.stderr == (
        "parqueens: no solution for n = 8: fixed queens 0:0 and 1:1 share a diagonal\n"
    )


@pytest.mark.parametrize(
    "args, words",
    [
        (["--fixed", "0:0,0:3"], "row 0"),
        (["--fixed", "9:0"], "off the board"),
        (["--fixed", "abc"], "ROW:COL"),
        (["--fixed", "0:0", "--unique"], "unique"),
        (["--fixed", "0:0", "--method", "d4"], "d4"),
    ],
)
def test_bad_fixed_queens_refused(cli, args, words):
    r = cli("count", 8, *args)
    assert_one_line_error(r)
    assert words in r.stderr


def test_end_of_input_at_the_prompt_ends_its_line(monkeypatch, capsys):
    # Ctrl-D at `start it? [y/N]`: a no, on a line of its own.
    import sys

    import parqueens.run.runner as runner
    from parqueens.run.plan import CountPlan

    monkeypatch.setattr(CountPlan, "estimate", lambda plan: {"seconds": 5e6, "jobs": 2})
    monkeypatch.setattr(runner, "run_plan", lambda plan, **kw: None)
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)
    monkeypatch.setattr(sys, "stdin", _Terminal(""))
    assert main(["count", "19"]) == 1
    assert capsys.readouterr().err.endswith("[y/N] \nparqueens: not started: the answer was no\n")


def test_a_run_refused_by_the_guard_creates_no_checkpoint(cli, monkeypatch, tmp_path):
    # count 22 --checkpoint c22.db refused for its estimate left c22.db.
    from parqueens.run.plan import CountPlan

    def huge(plan):
        return {"seconds": 5e6, "jobs": 2, "nodes": 1e20, "rate": 1e8, "method": "d4", "units": 500}

    monkeypatch.setattr(CountPlan, "estimate", huge)
    for args in (["count", 19], ["table", "18-19"]):
        r = cli(*args, "--checkpoint", tmp_path / "c.db")
        assert_one_line_error(r)
        assert "--yes" in r.stderr and os.listdir(tmp_path) == []
    # --estimate on a new file: nothing is subtracted, nor said to be.
    r = cli("count", 12, "--estimate", "--checkpoint", tmp_path / "new.db")
    assert r.returncode == 0 and r.stderr == "" and os.listdir(tmp_path) == []


def test_an_estimate_refuses_the_checkpoint_its_run_would_refuse(cli, tmp_path):
    """Another run's file, or a folder that does not exist: the run's
    refusal, in one line, and the file as it was."""
    path = tmp_path / "c.db"
    assert cli("count", 12, "--checkpoint", path, "--quiet").stdout == "14200\n"
    before = path.read_bytes()
    for args in (["--method", "d4"], ["--fixed", "0:1"]):
        for estimate in (["--estimate"], []):
            r = cli("count", 12, "--checkpoint", path, *args, *estimate)
            assert_one_line_error(r)
            assert "belongs to another run" in r.stderr
    r = cli("table", "11-12", "--checkpoint", path, "--method", "d4", "--estimate")
    assert_one_line_error(r)
    assert path.read_bytes() == before
    r = cli("count", 12, "--checkpoint", path, "--estimate")
    assert r.returncode == 0 and "not subtracted" in r.stderr
    (tmp_path / "w.db-wal").write_bytes(before)
    for path, says in [
        (tmp_path / "no" / "x.db", "no such folder"),
        ("", "name is empty"),
        (tmp_path / "w.db-wal", "cannot end in -wal"),
    ]:
        for estimate in (["--estimate"], []):
            r = cli("count", 12, "--checkpoint", path, *estimate)
            assert_one_line_error(r)
            assert says in r.stderr
    r = cli("table", "11-12", "--checkpoint", tmp_path / "c.db", "--estimate")
    assert r.returncode == 0 and "c.db are not subtracted" in r.stderr


def _sampled(n, jobs, units=None, seconds=None, stop=None):
    """A sampled estimate of the join, as join_sampled_estimate gives it, at once."""
    assert len(units) == 5131  # n = 22, its units planned
    return {
        "seconds": 1800.0,
        "low": 1500.0,
        "high": 2400.0,
        "core_seconds": 3600.0,
        "samples": 40,
        "sample_seconds": 5.0,
        "largest": 1e-4,
    }


def test_a_sampled_estimate_says_what_it_does_on_stderr(cli, monkeypatch):
    # Planning the units and counting a sample took 4 minutes at n = 28,
    # silently: each phase is said first (a note: not with --quiet); stdout
    # is the estimate alone, as text or JSON.
    from parqueens.join import units

    monkeypatch.setattr(units, "join_sampled_estimate", _sampled)
    planning = "parqueens: n = 22: planning the join's work units to estimate its time"
    sampling = (
        rf"parqueens: n = 22: 5,131 work units planned in {TIME}; counting a sample of their "
        r"row sets \(seconds, or minutes until the range is within 2 times\)"
    )
    for json_out in ([], ["--json"]):
        said = cli("count", 22, "--estimate", *json_out)
        quiet = cli("count", 22, "--estimate", *json_out, "--quiet")
        assert said.returncode == quiet.returncode == 0 and quiet.stderr == ""
        first, second = said.stderr.splitlines()
        assert first == planning and re.fullmatch(sampling, second), said.stderr
        assert re.sub(r"\d", "#", said.stdout) == re.sub(r"\d", "#", quiet.stdout)
        assert len(said.stdout.splitlines()) == 1
    e = json.loads(said.stdout)
    assert (e["estimate_seconds"], e["core_seconds"], e["samples"]) == (1800.0, 3600.0, 40)
    # the cost model of smaller boards is made in half a second: nothing said
    r = cli("count", 16, "--estimate", "--jobs", 1)
    assert r.returncode == 0 and r.stderr == ""


def test_an_estimate_leads_with_the_jobs_asked_for(cli, monkeypatch):
    # --jobs 1000 on this machine's cores: the time on 1,000 cores like these
    # first, then the time here (the run's jobs), for every method.
    from parqueens.join import units

    monkeypatch.setattr(units, "join_sampled_estimate", _sampled)
    text = cli("count", 22, "--estimate", "--jobs", 1000, "--quiet").stdout
    assert re.match(rf"estimate for n = 22: about {TIME} on 1,000 cores like these, ", text), text
    assert re.search(r"; here about 30\.\d min on [\d,]+ jobs?, 25\.\d min to 40\.\d min; ", text)
    text = cli("count", 16, "--estimate", "--jobs", 1000, "--method", "d4").stdout
    assert re.match(rf"estimate for n = 16: about {TIME} on 1,000 cores like these \(", text)
    assert re.search(rf"; here about {TIME} on [\d,]+ jobs?\)$", text.strip()), text
    r = cli("count", 16, "--estimate", "--jobs", 1000, "--method", "d4", "--json")
    d = json.loads(r.stdout)
    assert d["jobs"] < 1000 and d["asked_jobs"] == 1000
    assert 0 < d["asked_seconds"] < d["estimate_seconds"]
    # the jobs planned here, where they are all that was asked for
    text = cli("count", 16, "--estimate", "--jobs", 1, "--method", "d4").stdout
    assert text.startswith("estimate for n = 16: about ") and " on 1 job (" in text
    assert "cores like these" not in text


def test_a_checkpoint_in_use_is_refused_before_any_estimate(cli, monkeypatch, tmp_path):
    # A second run on a file in use was refused only after its own estimate
    # (5 s for n = 22): the hold is checked first, in one line.
    from parqueens.run.plan import CountPlan, run_identity
    from parqueens.run.store import RunStore

    path = tmp_path / "c.db"
    assert cli("count", 9, "--checkpoint", path, "--quiet").returncode == 0

    def no_estimate(plan):
        raise AssertionError("estimated")

    monkeypatch.setattr(CountPlan, "estimate", no_estimate)
    monkeypatch.setattr(CountPlan, "split", property(no_estimate))
    with RunStore(path, {"command": "count"}) as other:
        other.claim(run_identity(None, False, ()))  # the file's run: count 9
        for args in (["count", 22], ["table", "21-22"]):
            r = cli(*args, "--checkpoint", path)
            assert_one_line_error(r)
            assert r.stderr.startswith(
                f"parqueens: error: {path} is in use by another parqueens run (process "
                f"{os.getpid()}, since "
            ), r.stderr
