"""The command line at its edges: pipes, closed output, repeated options,
checkpoint parameters, and refusals that must come before any work.

In-process through ``cli.main`` (fixture ``cli``), except what needs a real
process: a broken pipe, closed streams, Ctrl-C to a process group, and what
importing the command loads."""

import json
import re
import subprocess
import sys

import joblib
import pytest

from parqueens import checks

from cli_helpers import assert_one_line_error, cli_env, popen_cli, run_process


def test_broken_pipe_is_quiet():
    """`parqueens solutions 12 | head -1`: the reader leaves early; the writer
    stops with SIGPIPE's code 141 and says nothing (the output, 370 KB, is
    more than a pipe holds)."""
    p = popen_cli(["solutions", 12])
    first = p.stdout.readline()
    p.stdout.close()
    p.wait(timeout=60)
    err = p.stderr.read()
    assert first == "0 2 4 7 9 11 5 10 1 6 8 3\n"
    assert p.returncode == 141, (p.returncode, err)
    assert err == ""


@pytest.mark.parametrize("command", ["count 8", "solutions 8"])
def test_closed_stdout(command):
    r = run_process(*command.split(), redirect=">&-")
    assert r.returncode == 2
    assert r.stderr.strip() == (
        "parqueens: error: standard output is closed; nowhere to print the result"
    )


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


def test_verify_beyond_the_table_refused_first(cli):
    r = cli("count", 28, "--verify")
    assert_one_line_error(r)
    assert "n <= 27" in r.stderr


def test_table_bad_depth_before_any_output(cli):
    r = cli("table", "2-8", "--split-depth", 4)
    assert_one_line_error(r)
    assert "n = 3" in r.stderr


def test_construct_too_big_for_memory(cli):
    r = cli("construct", 10**20)
    assert_one_line_error(r)
    assert "PiB of memory" in r.stderr  # 10**20 rows: a size for people, not 10**12 GiB


def test_format_contradicting_extension(cli, tmp_path):
    out = tmp_path / "s8.npy"
    r = cli("solutions", 8, "--out", out, "--format", "perm")
    assert_one_line_error(r)
    assert "contradicts" in r.stderr and not out.exists()


@pytest.mark.parametrize("text", ["\u0668", "\uff18", "1_0", "0x8"])
def test_only_ascii_digits(cli, text):
    assert_one_line_error(cli("count", text))


def test_command_line_starts_without_numba():
    """Importing the CLI loads no numba or numpy, so it answers Ctrl-C and
    --help at once."""
    code = (
        "import sys, parqueens.cli; "
        "print(sorted(m for m in ('numba', 'numpy', 'joblib') if m in sys.modules))"
    )
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=cli_env())
    assert r.stdout.strip() == "[]", r.stderr


@pytest.mark.parametrize("delay", [0.15, 0.4, 0.7, 1.0])
def test_ctrl_c_to_the_process_group_early(tmp_path, delay):
    """Ctrl-C from a terminal reaches every process of the group, the workers
    too, while they are still starting: one clean message, no traceback."""
    import os
    import signal
    import time

    ck = tmp_path / "c.sqlite"
    p = popen_cli(["count", 17, "--jobs", 2, "--checkpoint", ck], new_session=True)
    time.sleep(delay)
    os.killpg(p.pid, signal.SIGINT)
    out, err = p.communicate(timeout=120)
    assert "Traceback" not in err, err
    # 0 only if the signal fell in the ~30 ms while the workers are spawned;
    # -2 (death by SIGINT, which a shell shows as 130 too) when the interrupt
    # hit code run by exec() during an import: CPython then re-raises SIGINT
    # at exit even though parqueens handled it.
    assert p.returncode in (130, -2, 0), (p.returncode, err)
    if p.returncode != 0:
        assert out == "" and err.count("\n") == 1 and "interrupted" in err


def test_output_to_a_special_file_refused(cli, tmp_path):
    """A FIFO (or device) cannot be replaced atomically: refused, even with
    --force, and left as it was."""
    import os
    import stat

    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    for args in (["solutions", 6], ["table", 5], ["construct", 8]):
        out = fifo if args[0] != "table" else tmp_path / "t.csv"
        if args[0] == "table":
            os.symlink(fifo, out)
        r = cli(*args, "--out", out, "--force")
        assert_one_line_error(r)
        assert "not a regular file" in r.stderr
        assert stat.S_ISFIFO(os.stat(fifo).st_mode)


def test_output_through_a_symlink(cli, tmp_path):
    target = tmp_path / "target.txt"
    target.write_text("old\n")
    link = tmp_path / "link.txt"
    link.symlink_to(target)
    r = cli("solutions", 6, "--out", link, "--force", "--quiet")
    assert r.returncode == 0, r.stderr
    assert link.is_symlink() and target.read_text().splitlines()[0] == "1 3 5 0 2 4"


@pytest.mark.parametrize("out", ["sub/", "", "/proc/t.csv"])
def test_bad_output_paths_refused_before_work(cli, tmp_path, out):
    r = cli("table", "5-6", "--out", out, cwd=tmp_path)
    assert_one_line_error(r)
    assert list(tmp_path.iterdir()) == []


def test_long_legal_output_name(cli, tmp_path):
    name = "b" * 246 + ".csv"  # 250 bytes: legal; the temporary name must fit too
    r = cli("table", "5-6", "--out", name, "--quiet", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert [p.name for p in tmp_path.iterdir()] == [name]


def test_closed_stdout_with_out_file(tmp_path):
    # --jobs 1: no worker processes to start, which the closed stdout does not concern
    r = run_process("solutions", 8, "--out", "x.txt", "--jobs", 1, redirect=">&-", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert len((tmp_path / "x.txt").read_text().splitlines()) == 92


def test_closed_stdin_for_verify():
    r = run_process("verify", "-", redirect="<&-")
    assert r.returncode == 2 and "standard input is closed" in r.stderr


@pytest.mark.parametrize(
    "args",
    [
        ["solutions", 6, "--limit", 2**64],
        ["count", 8, "--jobs", 10**20],
        ["count", 8, "--split-depth", 2**63],
    ],
)
def test_huge_option_values(cli, args):
    assert_one_line_error(cli(*args))


def test_absurd_jobs_capped_by_units(cli):
    r = cli("count", 8, "--jobs", 1000, "--quiet")
    assert r.stdout == "92\n" and r.returncode == 0


def test_fixed_edge_messages(cli):
    r = cli("count", 0, "--fixed", "0:0")
    assert_one_line_error(r)
    assert "a board of size 0 has no squares" in r.stderr
    assert cli("count", 8, "--fixed", "0:0,0:0").stdout == "4\n"  # the same queen twice


def test_empty_scheduler_refused(cli):
    r = cli("count", 8, "--backend", "dask", "--scheduler", "")
    assert_one_line_error(r)
    assert "needs an address" in r.stderr


@pytest.mark.parametrize(
    "address",
    [
        "tcp://10.0.0.5:8786",
        "10.0.0.5:8786",
        "tls://sched.example.org:8786",
        "tcp://[::1]:8786",
        "ws://node-1:8786",
        "inproc://10.0.0.5/12345/1",
        " tcp://host_a:1 ",
    ],
)
def test_scheduler_addresses_taken(address):
    assert checks.check_scheduler(address) == address.strip()


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


def test_listing_threads_bounded(monkeypatch):
    """A listing with --jobs 1000 must not start 1000 threads."""
    import parqueens.listing as listing

    seen = []
    real = listing.ThreadPoolExecutor

    def pool(workers, **kw):
        seen.append(workers)
        return real(workers, **kw)

    monkeypatch.setattr(listing, "ThreadPoolExecutor", pool)
    assert sum(len(b) for b in listing.iter_blocks(10, jobs=1000, split_depth=3)) == 724
    cores = joblib.cpu_count()
    assert seen == ([cores] if cores > 1 else [])  # one core: searched in this thread


def test_deep_split_depth_warns(cli):
    r = cli("count", 10, "--split-depth", 7, "--jobs", 1)
    assert r.returncode == 0 and r.stdout == "724\n"
    assert "much deeper than n = 10 needs" in r.stderr
    quiet = cli("count", 10, "--split-depth", 3, "--jobs", 1)
    assert quiet.returncode == 0 and quiet.stderr == ""
