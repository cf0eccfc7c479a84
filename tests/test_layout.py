"""One decision, one place: the library and the command line share each rule
(validation, jobs, run identity, formats), and the command line answers
usage errors without loading the search machinery."""

import argparse
import json

import joblib
import pytest

from parqueens import checks, names
from parqueens.backends import plan_jobs
from parqueens.plan import run_identity
from parqueens.runner import run_count
from parqueens.store import CheckpointError, RunStore
from parqueens.tally import Tally, UnitResult

from cli_helpers import fresh_main
from naive import A000170, A002562


def test_library_refuses_a_checkpoint_of_another_run(tmp_path, cli):
    # The same store, first a mirror count, then a unique one: refused by the
    # store itself, with the message the command line gives.
    path = tmp_path / "c.db"
    with RunStore(path, {"mine": 1}) as store:
        assert run_count(10, method="mirror", checkpoint=store).total == A000170[10]
    with RunStore(path, {"mine": 1}) as store:
        with pytest.raises(CheckpointError, match=r"n = 10 was counted there without --unique"):
            run_count(10, method="mirror", unique=True, checkpoint=store)
        # naming the default is the same run; the same run resumes everything
        again = run_count(10, method="mirror", checkpoint=store)
        assert again.resumed == again.units and again.total == A000170[10]
    cli_path = tmp_path / "cli.db"
    assert cli("count", 10, "--method", "mirror", "--checkpoint", cli_path).returncode == 0
    r = cli("count", 10, "--method", "mirror", "--unique", "--checkpoint", cli_path)
    err = r.stderr
    assert r.returncode == 2 and "n = 10 was counted there without --unique" in err
    # the library, on the command line's file
    with RunStore(cli_path, None) as store:
        params = store.params
    with RunStore(cli_path, params) as store:
        with pytest.raises(CheckpointError, match="without --unique"):
            run_count(10, method="mirror", unique=True, checkpoint=store)
        with pytest.raises(CheckpointError, match="method: 'mirror' there, 'd4' now"):
            run_count(10, method="d4", checkpoint=store)
        # without a method, the file keeps its own
        kept = run_count(10, checkpoint=store)
        assert (kept.method, kept.total, kept.resumed) == ("mirror", A000170[10], kept.units)


def test_run_identity_names_the_default():
    # the default: the join where it serves, d4 elsewhere, named "join"
    assert run_identity(None, False, ()) == run_identity("join", False, ())
    assert run_identity(None, False, ())["method"] == "join" != run_identity("d4", False, ())
    assert run_identity(None, False, [(1, 2), (0, 0)]) == {
        "method": "plain",
        "unique": False,
        "fixed": [[0, 0], [1, 2]],
    }


def test_jobs_decided_once_and_reported_as_run(cli):
    cores = joblib.cpu_count()
    r = run_count(12, jobs=1000)
    assert r.jobs == min(1000, cores) == plan_jobs(1000)
    # the split is sized on the jobs that run, not on the request
    assert r.units == run_count(12, jobs=cores).units
    p = cli("count", 12, "--jobs", 1000, "--json")
    assert p.returncode == 0
    d, err = json.loads(p.stdout), p.stderr
    assert d["jobs"] == cores and d["total"] == A000170[12] and d["units"] == r.units
    assert f"--jobs 1000: this machine has {cores} core" in err
    # no more jobs than units
    assert run_count(4, method="plain", jobs=2, split_depth=1).jobs == min(2, cores)
    assert run_count(2, jobs=2).jobs == 1  # no units: nothing runs in parallel


@pytest.mark.parametrize(
    "argv,message",
    [
        (["count", "8", "--split-depth", "9"], "split depth must be 1..8 for n = 8 and method d4"),
        (
            ["table", "8-9", "--split-depth", "9"],
            "split depth must be 1..8 for n = 8 and method d4",
        ),
        (["count", "8", "--fixed", "0:0", "--unique"], "cannot be combined with fixed queens"),
        (["solutions", "8", "--fixed", "0:0", "--unique"], "cannot be combined with fixed queens"),
        (["count", "8", "--fixed", "0:0", "--method", "mirror"], "method mirror cannot be used"),
        (["solutions", "5", "--out", "x.npy", "--one-based"], "npy arrays are 0-based"),
        (["first", "5", "--labels"], "labels (--labels) are drawn in svg pictures, not in perm"),
        (["solutions", "5", "--format", "npy"], "npy output needs a file"),
    ],
)
def test_cli_and_library_share_each_check(argv, message, cli):
    r = cli(*argv)
    assert r.returncode == 2 and r.stdout == ""
    assert message in r.stderr and len(r.stderr.strip().splitlines()) == 1


def test_library_gives_the_same_messages():
    with pytest.raises(ValueError, match="split depth must be 1..8 for n = 8 and method d4"):
        run_count(8, split_depth=9)
    with pytest.raises(ValueError, match="cannot be combined with fixed queens"):
        run_count(8, unique=True, fixed=[(0, 0)])
    from parqueens.formats import SolutionWriter, render

    assert render([1, 3, 0, 2], "board", one_based=True) == ".Q..\n...Q\nQ...\n..Q.\n"
    with pytest.raises(ValueError, match="npy arrays are 0-based"):
        SolutionWriter("x.npy", "npy", 4, one_based=True)
    with pytest.raises(
        ValueError, match="labels .--labels. are drawn in svg pictures, not in perm"
    ):
        SolutionWriter(None, "perm", 4, labels=True)
    with pytest.raises(ValueError, match="npy output needs a file"):
        SolutionWriter(None, "npy", 4)
    with pytest.raises(ValueError, match="jobs must not be 0"):
        run_count(8, jobs=0)
    with pytest.raises(ValueError, match="unknown backend"):
        run_count(8, backend="fork")


def test_tally_is_the_runs_arithmetic():
    # d4 weighs each class by its orbit; mirror doubles; status and resume use it
    t = Tally("d4")
    t.add(UnitResult(5, (3, 1, 0, 0), 7))
    assert (t.total, t.fundamental, t.orbits) == (28, 4, {8: 3, 4: 1, 2: 0, 1: 0})
    m = Tally("mirror")
    m.add(UnitResult(5, (0, 0, 0, 0), 0))
    assert m.total == 10 and not m.counted
    r = run_count(11, unique=True)
    assert (r.total, r.fundamental) == (A000170[11], A002562[11])
    assert sum(size * c for size, c in r.orbits.items()) == r.total
    assert tuple(r.orbits) == names.ORBIT_SIZES


def test_usage_errors_and_help_load_no_search_machinery():
    # A real process: what a fresh interpreter imports is the point.
    argvs = [
        ["--help"],
        ["--version"],
        ["count", "x"],
        ["count", "65"],
        ["count", "8", "--jobs", "0"],
        ["count", "8", "--method", "x"],
        ["count", "8", "--split-depth", "20"],
        ["table", "5-3"],
        ["count", "8", "--fixed", "0:0", "--unique"],
        ["solutions", "8", "--format", "npy"],
        ["first", "8", "--fixed", "9:9"],
        ["count", "8", "--scheduler", "tcp://x:1"],
        ["table", "4", "--out", "x.txt"],
    ]
    codes, loaded, _ = fresh_main(argvs)
    assert codes == [0, 0] + [2] * 11 and loaded == []


def test_names_are_the_ones_used():
    from parqueens import units

    # (the formats: one object per name, tests/io/test_registry.py)
    assert set(units.WEIGHTS) == set(names.METHODS)
    assert (
        checks.check_backend(None) == "threads" and checks.check_backend("threading") == "threads"
    )
    import parqueens

    assert parqueens.__version__ == names.VERSION
    assert "importlib" not in dir(parqueens)


def test_jobs_checked_before_any_output(cli, tmp_path):
    too_many = -(joblib.cpu_count() + 1)
    r = cli("table", "10-12", "--jobs", too_many)
    assert r.returncode == 2 and r.stdout == "" and "leaves no core" in r.stderr
    (tmp_path / "s.perm").write_text("1 3 0 2\n")
    r = cli("verify", tmp_path / "s.perm", "--jobs", too_many)
    assert r.returncode == 2 and "leaves no core" in r.stderr
    r = cli("count", "8", "--jobs", "2_0")
    assert r.returncode == 2 and "jobs must be an integer, got '2_0'" in r.stderr


def test_jobs_of_a_resumed_run(tmp_path):
    with RunStore(tmp_path / "r.db", {}) as store:
        first = run_count(12, jobs=2, checkpoint=store)
        again = run_count(12, jobs=2, checkpoint=store)
        quiet = run_count(12, jobs=2, checkpoint=store, recheck=0)
    assert first.jobs == min(2, joblib.cpu_count())
    # nothing left to search, but 2 stored units searched again on 2 threads
    assert again.resumed == again.units and again.rechecked == 2
    assert again.jobs == min(2, joblib.cpu_count())
    assert (quiet.rechecked, quiet.jobs) == (0, 1)  # nothing searched at all


def test_checkpoint_identity_one_form(tmp_path, cli):
    # a queen given twice is one queen, on the command line as in the library
    ck = tmp_path / "f.db"
    assert cli("count", 8, "--fixed", "0:0", "--fixed", "0:0", "--checkpoint", ck).returncode == 0
    assert cli("count", 8, "--fixed", "0:0", "--checkpoint", ck).stdout == "4\n"
    # the library on a command-line file: its parameters name the run
    cp = tmp_path / "c.db"
    assert cli("count", 10, "--checkpoint", cp).returncode == 0
    with RunStore(cp, None) as store:
        params = store.params
        with pytest.raises(CheckpointError, match="opened for reading only"):
            run_count(10, checkpoint=store)
    with RunStore(cp, params) as store:
        with pytest.raises(CheckpointError, match="method: 'join' there, 'mirror' now"):
            run_count(10, method="mirror", checkpoint=store)
        run_count(11, checkpoint=store)  # another size of the same run
    status = cli("status", cp)
    assert status.returncode == 0
    assert "n = 10 (join): " in status.stdout and "n = 11 (join): " in status.stdout


def test_status_names_ranges_with_gaps(tmp_path, cli):
    ck = tmp_path / "t.db"
    assert cli("table", "4,6,8-9", "--checkpoint", ck, "-q").returncode == 0
    assert "method=join, n = 4,6,8-9\n" in cli("status", ck).stdout


def test_second_interrupt_keeps_the_progress(tmp_path):
    from parqueens.backends import RunInterrupted
    from parqueens.cli.errors import interrupt_message

    try:
        try:
            raise RunInterrupted(17, 6, 229)
        finally:
            raise KeyboardInterrupt  # the second Ctrl-C, while closing the store
    except KeyboardInterrupt as exc:
        (tmp_path / "c.db").write_bytes(b"")
        args = argparse.Namespace(command="count", checkpoint=str(tmp_path / "c.db"), out=None)
        message = interrupt_message(args, exc, 130)
        args.checkpoint = str(tmp_path / "none.db")  # interrupted before the file was made
        before = interrupt_message(args, exc, 130)
    assert "during n = 17 with 6 of 229 units finished" in message
    assert before == f"parqueens: interrupted before anything was stored in {args.checkpoint}"


def test_one_style_small_items(cli):
    # issue 14: no abbreviations, ASCII digits in --fixed as in N, the
    # library's default backend is the command line's
    from parqueens.checks import check_backend

    for args in (["count", 8, "--uniq"], ["count", 8, "--jo", 1], ["table", "4", "--uni"]):
        r = cli(*args)
        assert r.returncode == 2 and "unrecognized arguments" in r.stderr, r.stderr
    r = cli("count", 8, "--fixed", "\uff10:\uff10")  # full-width 0:0
    assert r.returncode == 2 and "ROW:COL" in r.stderr
    assert check_backend(None) == "threads" == check_backend("threading")


def test_closed_stderr_keeps_the_result():
    # `parqueens count 8 2>&-`: the result on stdout, exit 0 (it exited 1
    # silently, notes going to stdout)
    from cli_helpers import run_process

    r = run_process("count", 12, "--jobs", 2, redirect="2>&-")
    assert (r.returncode, r.stdout) == (0, "14200\n")


def test_table_out_dash_and_estimate_with_out(cli, tmp_path):
    r = cli("table", "4-5", "--out", "-")
    assert r.returncode == 0 and r.stdout.splitlines()[2] == "| 4 | 2 | plain | 0 | 0.0 |"
    r = cli("table", "4-5", "--estimate", "--out", tmp_path / "t.md")
    assert r.returncode == 2 and "--estimate" in r.stderr and not (tmp_path / "t.md").exists()


def test_unknown_extension_is_noted(cli, tmp_path):
    r = cli("solutions", 6, "--out", tmp_path / "x.csv")
    assert r.returncode == 0 and ".csv is the extension of no solution format" in r.stderr
    assert (tmp_path / "x.csv").read_text().startswith("1 3 5 0 2 4\n")
    for name, fmt in (("y.csv", ["--format", "jsonl"]), ("z.txt", [])):
        r = cli("solutions", 6, "--out", tmp_path / name, *fmt)
        assert r.returncode == 0 and "no solution format" not in r.stderr


def test_sizes_for_people():
    from parqueens.io.space import format_bytes

    assert [format_bytes(x) for x in (0, 1000, 5 * 2**30, 3 * 2**40, 2**60)] == [
        "0 B",
        "1000 B",
        "5 GiB",
        "3 TiB",
        "1.02e+03 PiB",
    ]


def test_table_json_on_stdout(cli, tmp_path):
    import json

    r = cli("table", "4-9", "--json", "--unique", "--jobs", 1)
    assert r.returncode == 0, r.stderr
    rows = json.loads(r.stdout)
    assert [(d["n"], d["total"], d["fundamental"]) for d in rows] == [
        (n, A000170[n], A002562[n]) for n in range(4, 10)
    ]
    r = cli("table", "4-5", "--json", "--out", tmp_path / "t.json")
    assert r.returncode == 2 and "choose one" in r.stderr


def test_status_json(cli, tmp_path):
    import json

    ck = tmp_path / "s.db"
    assert cli("table", "10-11", "--checkpoint", ck, "-q").returncode == 0
    d = json.loads(cli("status", ck, "--json").stdout)
    assert (d["method"], d["fixed"]) == ("join", [])
    assert [(z["n"], z["done"], z["total"], z["fundamental"]) for z in d["sizes"]] == [
        (10, True, 724, 92),
        (11, True, 2680, 341),
    ]
