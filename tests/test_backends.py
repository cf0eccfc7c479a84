"""The Dask backend: counts on a LocalCluster (through the command line and
the library), tables, checkpoints, a cluster of its own, bad scheduler
options, and clusters that lose their workers or scheduler.  The commands
run in-process through ``cli.main`` (fixture ``cli``; waits shortened
through the module constants of parqueens.run.backends), except three
subprocesses: the wait for an unreachable scheduler (in the background,
overlapping the other tests), the run whose worker is killed and the run
whose scheduler is closed."""

import json
import os
import re
import sqlite3
import subprocess
import sys
import threading
import time
import types

import joblib
import pytest

distributed = pytest.importorskip("distributed")

from parqueens.run import cluster as run_cluster  # noqa: E402
from parqueens.run import signals  # noqa: E402
from parqueens.run.backends import (  # noqa: E402
    BackendError,
    ClusterLost,
    dask_client,
    worker_failure,
)
from parqueens.run.cluster import _watch_workers, _WorkersWatch  # noqa: E402
from parqueens.run.runner import run_count  # noqa: E402
from parqueens.run.store import RunStore  # noqa: E402

from checkpoint_helpers import stored_units, wait_for_units  # noqa: E402
from cli_helpers import assert_one_line_error, popen_cli  # noqa: E402
from naive import A000170, A002562  # noqa: E402


@pytest.fixture(scope="module", autouse=True)
def unreachable_run():
    """`--scheduler tcp://127.0.0.1:1` (nothing listens there): refused at
    once; started first all the same (it used to wait for the connection
    timeout); checked by test_unreachable_scheduler."""
    start = time.monotonic()
    p = popen_cli(["count", 10, "--backend", "dask", "--scheduler", "tcp://127.0.0.1:1", "--quiet"])
    done = {}

    def wait():
        done["output"] = p.communicate()
        done["seconds"] = time.monotonic() - start

    waiter = threading.Thread(target=wait, daemon=True)
    waiter.start()
    yield p, waiter, done
    if p.poll() is None:
        p.kill()
    waiter.join(30)


@pytest.fixture(scope="module")
def cluster():
    c = distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1", dashboard_address=None
    )
    try:
        yield c
    finally:
        c.close()


@pytest.fixture(scope="module")
def address(cluster):
    return cluster.scheduler_address


def _dask_args(address):
    return ["--backend", "dask", "--scheduler", address, "--quiet"]


# ------------------------------------------------------------------ CLI on the cluster


@pytest.mark.parametrize("n", [8, 13])
def test_cli_count_on_cluster(cli, address, n):
    r = cli("count", n, *_dask_args(address))
    assert r.returncode == 0, r.stderr
    assert r.stdout == f"{A000170[n]}\n"


def test_the_scheduler_as_hpc_tools_give_it(cli, address, tmp_path):
    # a scheduler file (dask scheduler --scheduler-file, dask-mpi, dask-jobqueue),
    # and the dashboard's address: said first, and in --json
    (tmp_path / "s.json").write_text(json.dumps({"type": "Scheduler", "address": address}))
    r = cli("count", 8, "--backend", "dask", "--scheduler-file", tmp_path / "s.json", "--json")
    link = json.loads(r.stdout)["dashboard"]
    assert r.returncode == 0 and json.loads(r.stdout)["total"] == A000170[8]
    assert re.fullmatch(r"http://[\w.]+:\d+/status", link), link
    assert r.stderr == f"parqueens: the Dask dashboard: {link}\n"
    (tmp_path / "bad.json").write_text("{}")
    r = cli("count", 8, "--backend", "dask", "--scheduler-file", tmp_path / "bad.json")
    assert r.returncode == 2 and "is not a Dask scheduler file" in r.stderr
    # Dask's configured address (DASK_SCHEDULER_ADDRESS), as Client() takes it; said
    import dask

    with dask.config.set({"scheduler-address": address}):
        r = cli("count", 8, "--backend", "dask")
    assert (r.returncode, r.stdout) == (0, f"{A000170[8]}\n")
    assert r.stderr == (
        f"parqueens: the Dask scheduler {address} (Dask's configured scheduler-address)\n"
        f"parqueens: the Dask dashboard: {link}\n"
    )


def test_cli_count_unique_on_cluster(cli, address):
    r = cli("count", 12, "--unique", *_dask_args(address))
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert lines[0] == f"total {A000170[12]}"
    assert lines[1] == f"fundamental {A002562[12]}"


def test_cli_table_on_cluster(cli, address):
    r = cli("table", "8-11", *_dask_args(address))
    assert r.returncode == 0, r.stderr
    lines = [line for line in r.stdout.splitlines() if line.strip()]
    assert lines[0].replace(" ", "") == "|n|total|method|units|seconds|"
    rows = [[c.strip() for c in line.strip("|").split("|")] for line in lines[2:]]
    assert [(int(row[0]), int(row[1])) for row in rows] == [(n, A000170[n]) for n in range(8, 12)]


def test_cli_checkpoint_on_cluster(cli, address, tmp_path):
    # Without --quiet, so that the second run notes what it resumed.
    cp_args = [
        "count",
        11,
        "--checkpoint",
        tmp_path / "cp.sqlite",
        "--backend",
        "dask",
        "--scheduler",
        address,
    ]
    first = cli(*cp_args)
    assert first.returncode == 0, first.stderr
    assert first.stdout == f"{A000170[11]}\n"
    again = cli(*cp_args)
    assert again.returncode == 0, again.stderr
    assert again.stdout == f"{A000170[11]}\n"
    m = re.search(r"resumed (\d+) of (\d+) units", again.stderr)
    assert m and m.group(1) == m.group(2), again.stderr


# ------------------------------------------------------------------ library on the cluster


def test_library_counts_on_cluster(address):
    with dask_client(address) as (client, threads):
        assert threads == 2
        for n in range(8, 14):
            r = run_count(n, backend="dask", jobs=threads, unique=n >= 11)
            assert r.total == A000170[n], n
            if n >= 11:
                assert r.fundamental == A002562[n], n
            assert r.units > 0


def test_a_table_feeds_its_next_size_on_the_workers(address, monkeypatch):
    # A size's run submits the next size's chunks behind its own, and that
    # run takes them (no submission of its own); the client loads no
    # kernel (the workers do, a task each ahead of the chunks).
    from parqueens.run import chunks
    from parqueens.run.plan import plan_run
    from parqueens.run.runner import run_plan

    submitted, warmed = [], []
    real_submit = chunks._submit
    monkeypatch.setattr(
        chunks, "_submit", lambda c, *a: submitted.append(len(c)) or real_submit(c, *a)
    )
    monkeypatch.setattr(chunks, "warm_up", lambda *args: warmed.append(args))
    with dask_client(address) as (client, threads):
        p13, p14 = (plan_run(n, unique=True, jobs=threads, backend="dask") for n in (13, 14))
        assert run_plan(p13, then=p14).fundamental == A002562[13]
        assert len(submitted) == 2 and len(chunks._fed) == 1
        assert run_plan(p14).fundamental == A002562[14]
        assert len(submitted) == 2 and not chunks._fed
    assert warmed == []
    # fewer chunks for a small size (a round trip each): n = 13 sent 36 before
    assert submitted[0] == len(list(chunks._chunks(p13.split.units, 2, chunks.DASK_CHUNK_WORK)))
    assert submitted[0] <= 2 < len(list(chunks._chunks(p13.split.units, 2)))


def test_chunks_go_to_dask_in_batches(address, monkeypatch):
    # At most AHEAD_PER_THREAD chunks a thread (at least AHEAD_MIN) in
    # flight, the rest submitted as they finish, in order; a table's next
    # size fed behind: every total exact.
    from parqueens.run import chunks
    from parqueens.run.plan import plan_run
    from parqueens.run.runner import run_plan

    batches = []  # (priority, first chunk, chunks) of each batch
    real_submit = chunks._submit

    def submit(c, first, unique, nodes, priority):
        batches.append((priority, first, len(c)))
        return real_submit(c, first, unique, nodes, priority)

    monkeypatch.setattr(chunks, "_submit", submit)
    monkeypatch.setattr(chunks, "AHEAD_MIN", 3)
    monkeypatch.setattr(chunks, "AHEAD_PER_THREAD", 1)
    monkeypatch.setattr(chunks, "DASK_CHUNK_WORK", 0.0)  # many chunks of a small size
    with dask_client(address) as (client, threads):
        p13, p14 = (plan_run(n, unique=True, jobs=threads, backend="dask") for n in (13, 14))
        assert run_plan(p13, then=p14).fundamental == A002562[13]
        assert run_plan(p14).fundamental == A002562[14]
    sizes = [len(list(chunks._chunks(p.split.units, threads))) for p in (p13, p14)]
    assert min(sizes) > 6
    runs = {}  # a run's chunks submitted so far, by its priority (p14 fed behind p13)
    for priority, first, k in batches:  # each batch the next of its run's chunks, 3 at most
        assert first == runs.get(priority, 0) and 0 < k <= 3
        runs[priority] = first + k
    assert [runs[p] for p in sorted(runs, reverse=True)] == sizes  # every chunk, once
    assert len(batches) > 4


def test_an_estimate_on_dask_comes_from_its_workers(address, monkeypatch):
    # The workers measure their speed, all at once (the client's own speed
    # said 13.7 s of a count 19 that took the cluster 25 to 29 s), in wall time.
    from parqueens.join import units
    from parqueens.run import estimate
    from parqueens.run.plan import plan_run

    monkeypatch.setattr(units, "_measured", lambda *a: pytest.fail("measured in the client"))
    with dask_client(address) as (client, threads):
        e = plan_run(14, backend="dask").with_jobs(threads).estimate()
    assert (e["method"], e["jobs"], e["units"]) == ("join", 2, 107)
    assert 0 < e["seconds"] < 5
    # a worker shares the cluster's threads, not the cores the others leave free
    monkeypatch.setattr(estimate, "_estimate_join", lambda *a, free=None: free)
    split = types.SimpleNamespace(n=14, method="join", jobs=2)
    assert estimate._worker_estimate(split, 20000, 1, None) == 2


def test_library_checkpoint_on_cluster(address, tmp_path):
    path = tmp_path / "c.sqlite"
    params = {"test": "dask"}
    with dask_client(address) as (client, threads):
        with RunStore(path, params) as store:
            first = run_count(12, backend="dask", jobs=threads, checkpoint=store)
        with RunStore(path, params) as store:
            again = run_count(12, backend="dask", jobs=threads, checkpoint=store)
        assert first.total == again.total == A000170[12]
        assert first.resumed == 0
        assert again.resumed == again.units == first.units
        db = sqlite3.connect(path)
        with db:
            db.execute("DELETE FROM units WHERE rowid IN (SELECT rowid FROM units LIMIT 30)")
        db.close()
        with RunStore(path, params) as store:
            third = run_count(12, backend="dask", jobs=threads, checkpoint=store)
        assert third.resumed == first.units - 30
        assert third.total == A000170[12]


# ------------------------------------------------------------------ own cluster, bad options


def test_cli_own_local_cluster(cli):
    # --jobs: the local cluster's workers, no more than the cores
    cores = joblib.cpu_count()
    r = cli("count", 10, "--backend", "dask", "--jobs", cores + 2, "--json")
    assert r.returncode == 0, r.stderr
    d = json.loads(r.stdout)
    assert d["total"] == A000170[10] and d["jobs"] <= cores
    assert f"at most {cores} job" in r.stderr


def test_a_local_cluster_of_its_own_listens_here_is_quiet_ignores_ctrl_c_and_ends_its_tasks(
    capfd, monkeypatch
):
    # It listens on 127.0.0.1 only.  Its workers write to this terminal: a
    # Ctrl-C (sent to the whole process group) leaves them to the client
    # that closes them, with no traceback; parqueens' notes are the client's
    # to say (the compile note was said three times); Dask's lines are
    # silenced; and a task still running at the end (a warm-up outlasting a
    # small count) ends before the close, which would cancel it (and Dask
    # would log that).
    import logging
    import signal

    def state():
        logging.getLogger("parqueens").warning("a note of the worker")
        dask = logging.getLogger("distributed.worker.state_machine")  # logged the cancelled task
        return {
            "sigint ignored": signal.getsignal(signal.SIGINT) is signal.SIG_IGN,
            "dask silenced": dask.getEffectiveLevel() > logging.CRITICAL,
            # started with them blocked (held through the cluster's start)
            "signals unblocked": not signal.pthread_sigmask(signal.SIG_BLOCK, set())
            & {signal.SIGINT, signal.SIGTERM},
        }

    def last_task():
        time.sleep(0.3)
        return "done"

    ends = []

    def let_tasks_end(client, seconds):
        let_end(client, seconds)
        # as the close begins, which would cancel them
        ends.extend(state.status for state in client.futures.values())

    let_end = run_cluster._let_tasks_end
    monkeypatch.setattr(run_cluster, "_let_tasks_end", let_tasks_end)
    capfd.readouterr()
    before = _listening()
    with dask_client(n_workers=1) as (client, threads):
        # Its scheduler, its dashboard (a free port), each worker and its
        # nanny: nothing that another machine could reach.
        opened = _listening() - before
        assert len(opened) >= 3, opened  # the scheduler, a worker and its nanny at least
        assert {ip for _, ip, _ in opened} == {"127.0.0.1"}, opened
        (pid,) = client.run(os.getpid).values()
        os.kill(pid, signal.SIGINT)
        assert list(client.run(state).values()) == [
            {"sigint ignored": True, "dask silenced": True, "signals unblocked": True}
        ]
        assert list(client.run(os.getpid).values()) == [pid]  # the same worker, alive
        # held, as warm_workers holds its warm-ups: a future let go is released
        # (and may be cancelled) at once, whatever the close does.  Its status
        # is read as the close begins, not by a done callback: Dask runs those in
        # a thread that may read it after the close has released the key.
        task = client.submit(last_task, pure=False)
    assert ends == ["finished"]
    del task
    err = capfd.readouterr().err
    assert "a note of the worker" not in err and "Traceback" not in err and "Cancelled" not in err


def test_a_ctrl_c_while_a_local_cluster_starts_is_answered_once_it_has_started(monkeypatch):
    # Cut short, Dask's start printed tracebacks (and its exit handler an
    # AssertionError): the Ctrl-C is held until the cluster has started,
    # then raised, and the cluster closed as after any Ctrl-C.
    import signal

    started = []

    def start_client(*args):
        os.kill(os.getpid(), signal.SIGINT)
        started.append(real(*args))
        return started[-1]

    real = run_cluster._start_client
    monkeypatch.setattr(run_cluster, "_start_client", start_client)
    with pytest.raises(KeyboardInterrupt):
        with dask_client(n_workers=1):
            pytest.fail("the Ctrl-C is raised before the block")
    ((client, cluster),) = started
    assert (client.status, cluster.status.name) == ("closed", "closed")


def test_the_workers_of_a_cluster_started_while_signals_are_held_inherit_them():
    # A local cluster's workers start from Dask's threads, and Python's
    # resource tracker, started with the first of them, unblocked SIGINT in
    # its thread: a Ctrl-C then reached workers still importing (tracebacks).
    # A fresh interpreter, whose tracker is not running yet.
    script = (
        "import multiprocessing, signal, threading, sys\n"
        "from parqueens.run import signals\n"
        "if __name__ == '__main__':\n"
        "    ctx = multiprocessing.get_context('spawn')\n"
        "    p = ctx.Process(target=signal.raise_signal, args=(signal.SIGINT,))\n"
        "    with signals.cluster_start_held():\n"
        "        t = threading.Thread(target=p.start)\n"
        "        t.start()\n"
        "        t.join()\n"
        "    p.join()\n"
        "    sys.exit(p.exitcode)\n"
    )
    r = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)
    assert (r.returncode, r.stderr) == (0, "")  # not 1, the child's KeyboardInterrupt


def test_a_cluster_close_is_not_cut_short_by_ctrl_c():
    # A local cluster's close stopped half way stays "closing", and Dask's
    # exit handler then held the process 10 s (and printed a traceback):
    # the close goes on to its end, and Ctrl-C is raised after it.
    import signal

    done = []

    def close():
        os.kill(os.getpid(), signal.SIGINT)
        time.sleep(0.2)
        done.append(True)

    with pytest.raises(KeyboardInterrupt):
        signals.uninterrupted(close)
    assert done == [True]


def test_library_own_local_cluster_unreachable_raises():
    with pytest.raises(BackendError, match="127.0.0.1:1"):
        with dask_client("tcp://127.0.0.1:1", timeout=0.5):
            pass


@pytest.mark.parametrize("command", [["count", 8], ["table", "8"]], ids=["count", "table"])
def test_scheduler_needs_dask_backend(cli, command):
    r = cli(*command, "--scheduler", "tcp://127.0.0.1:8786")
    assert_one_line_error(r)
    assert r.stderr == ("parqueens: error: a scheduler needs the dask backend (--backend dask)\n")


def test_unreachable_scheduler(unreachable_run):
    p, waiter, done = unreachable_run
    waiter.join(60)
    assert "seconds" in done, "still waiting for tcp://127.0.0.1:1 after 60 s"
    out, err = done["output"]
    r = subprocess.CompletedProcess(p.args, p.returncode, out, err)
    assert_one_line_error(r, code=3)  # the cluster is not there: as when it is lost mid-run
    assert "127.0.0.1:1" in err
    assert (
        "connection refused: nothing listens at 127.0.0.1:1" in err
    )  # said as it is, not "Timed out" after the wait


def test_worker_lost_mid_run(tmp_path):
    """A Dask worker killed mid-run: Dask reschedules its tasks and the run
    completes with the right count (or, at worst, stops with a clear error)."""
    import psutil

    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1", dashboard_address=None
    ) as cluster:
        ck = tmp_path / "lost.sqlite"
        proc = popen_cli(
            [
                "count",
                16,
                "--backend",
                "dask",
                "--scheduler",
                cluster.scheduler_address,
                "--checkpoint",
                ck,
                "--quiet",
            ]
        )
        wait_for_units(proc, ck)
        lost = []
        with distributed.Client(cluster) as client:
            pids = client.run(os.getpid)
            watch = _watch_workers(client, lost.append, every=0.2, settle=0.5)
            assert proc.poll() is None and pids, "the run ended before a worker could be killed"
            address, pid = sorted(pids.items())[0]
            psutil.Process(pid).kill()
            out, err = proc.communicate(timeout=120)
            deadline = time.monotonic() + 10
            while not lost and time.monotonic() < deadline:
                time.sleep(0.05)
            watch.set()
        assert lost == [address]  # what the command notes on stderr (here --quiet)
    assert "Traceback" not in err, err
    if proc.returncode == 0:
        assert out.strip() == str(A000170[16])
    else:
        assert proc.returncode in (1, 2), (proc.returncode, err)
        assert "parqueens" in err


def test_scheduler_lost_mid_run(tmp_path):
    """The scheduler gone mid-run: one line, exit 3 (the cluster is not
    there), the exact command to resume, and the finished units kept.  The
    cluster closes its workers first (1 to 4 s before the scheduler): they
    are not reported as workers that left (CLUSTER_SETTLE, 10 s)."""
    # one worker process (two threads): the scheduler's loss is the point
    cluster = distributed.LocalCluster(
        n_workers=1, threads_per_worker=2, processes=True, host="127.0.0.1", dashboard_address=None
    )
    ck = tmp_path / "gone.sqlite"
    args = ["count", 18, "--backend", "dask", "--scheduler", cluster.scheduler_address]
    proc = popen_cli([*args, "--checkpoint", ck])  # notes on
    try:
        assert wait_for_units(proc, ck) and proc.poll() is None, "no unit stored in time"
    finally:
        cluster.close()
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == 3, (proc.returncode, err)
    assert out == "" and "Traceback" not in err
    lines = err.strip().splitlines()
    assert not [line for line in lines if "worker" in line and "error" not in line], err
    assert "connection to the Dask scheduler was lost" in lines[-1]
    assert f"--checkpoint {ck}` again to resume" in lines[-1]


def test_scheduler_without_workers(cli, monkeypatch):
    """A scheduler without workers: the run says it waits (WORKER_WAIT,
    lowered here), then stops in one line with exit 3 (the cluster is not
    there), as for an unreachable scheduler."""
    monkeypatch.setattr(run_cluster, "WORKER_WAIT", 0.5)
    with distributed.LocalCluster(
        n_workers=0, processes=True, host="127.0.0.1", dashboard_address=None
    ) as cluster:
        address = cluster.scheduler_address
        r = cli("count", 10, "--backend", "dask", "--scheduler", address)
    assert r.returncode == 3 and r.stdout == ""
    dashboard, *lines = r.stderr.splitlines()
    assert dashboard.startswith("parqueens: the Dask dashboard: http://")
    assert lines == [  # the note (not with --quiet), the error
        f"parqueens: the Dask scheduler {address} has no worker: waiting up to 0.5 s for one "
        "to join",
        f"parqueens: error: the Dask scheduler {address} has no worker, and none joined "
        f"within 0.5 s (start some: dask worker {address})",
    ]


def test_every_worker_gone_mid_run(cli, tmp_path, monkeypatch):
    """Every worker gone during a run: the run says that none is left and
    that it waits (WORKER_WAIT, after CLUSTER_SETTLE: lowered here), then
    stops with exit 3, the run's unfinished units and the command to
    resume, the finished units kept."""
    monkeypatch.setattr(run_cluster, "CLUSTER_SETTLE", 0.3)
    monkeypatch.setattr(run_cluster, "WORKER_WAIT", 0.5)
    monkeypatch.setattr(run_cluster, "WATCH_EVERY", 0.1)
    ck = tmp_path / "empty.sqlite"
    # A worker of this process (started at once), with two threads (joblib
    # runs a cluster of one thread in the caller).
    with distributed.LocalCluster(
        n_workers=1,
        threads_per_worker=2,
        processes=False,
        protocol="tcp",
        host="127.0.0.1",
        dashboard_address=None,
    ) as cluster:
        ran = threading.Event()

        def remove_the_workers():  # as a cluster manager scaling it to none
            end = time.monotonic() + 120
            while not ran.is_set() and time.monotonic() < end and not stored_units(ck):
                time.sleep(0.02)
            cluster.scale(0)

        remover = threading.Thread(target=remove_the_workers, daemon=True)
        remover.start()
        argv = ["count", 17, "--backend", "dask", "--scheduler", cluster.scheduler_address]
        argv += ["--method", "d4"]  # a search long enough to lose its workers
        r = cli(*argv, "--checkpoint", ck)
        ran.set()
        remover.join(30)
    assert r.returncode == 3 and r.stdout == "", r.stderr
    lines = r.stderr.strip().splitlines()
    assert (
        "parqueens: no Dask worker is left in the cluster: the run waits up to 0.5 s for one "
        "to join"
    ) in lines
    last = lines[-1]
    assert last.startswith(
        "parqueens: error: no Dask worker joined the cluster within 0.5 s after the last one left; "
    ), r.stderr
    status = json.loads(cli("status", ck, "--json").stdout)["sizes"][0]
    left = status["units_total"] - status["units_done"]
    assert status["units_done"] >= 1 and f"; {left} units unfinished (d4/17/" in last
    command = " ".join(map(str, [*argv, "--checkpoint", ck]))
    assert last.endswith(
        f"kept in {ck}: run `parqueens {command}` again to resume, or without --backend dask "
        "to go on on this machine alone"
    )


def test_watch_reports_what_lasts():
    """What the watch of the workers reports, look by look (seconds): only
    what lasted CLUSTER_SETTLE with the scheduler answering; the wait; the
    give-up, repeated while no worker is there."""
    w = _WorkersWatch({"a", "b"}, settle=10, wait=60)
    assert w.poll({"b"}, 1) == []  # a is missing...
    assert w.poll({"b"}, 10.9) == []
    assert w.poll({"b"}, 11) == [("left", "a")]  # ...for 10 s: it left
    assert w.poll({"b", "a2"}, 12) == []  # a worker joining is no news
    assert w.poll(set(), 13) == []  # all gone (a cluster shut down looks so at first)
    assert w.poll(set(), 22.9) == []
    assert w.poll(set(), 23) == [("left", "a2"), ("left", "b"), ("waiting", None)]
    assert w.poll(set(), 82.9) == []
    assert w.poll(set(), 83) == [("give_up", None)]
    assert w.poll(set(), 84) == [("give_up", None)]  # the tasks submitted since too
    assert w.poll({"c"}, 85) == [("joined", "c")]
    assert w.poll({"c"}, 86) == []
    # A worker back at its address in time is no news; neither is an empty
    # cluster whose scheduler goes (the watch then stops: no more looks).
    w = _WorkersWatch({"a"}, settle=10, wait=60)
    assert w.poll(set(), 1) == [] and w.poll({"a"}, 5) == [] and w.poll({"a"}, 20) == []


def test_cancelled_for_no_worker_is_reported_as_such():
    # The watch cancels a run's tasks with its reason and message (Dask's
    # FutureCancelledError carries them): a lost cluster, exit 3, in its words.
    exc = distributed.client.FutureCancelledError("k", run_cluster.NO_WORKER_LEFT, "none for 60 s")
    lost = worker_failure(exc, ["d4/18/8.1", "d4/18/8.2"])
    assert isinstance(lost, ClusterLost)
    assert str(lost) == "none for 60 s; 2 units unfinished (d4/18/8.1, d4/18/8.2)"


def test_address_that_is_not_a_scheduler(cli):
    # A service that answers something else (an SSH greeting): Dask reads a
    # message length from it; reported as no scheduler there (exit 3), not as
    # "not enough memory".
    import socket

    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen()

    def greet():  # every connection, as a real service (parqueens first sees if one is taken)
        try:
            while True:
                conn, _ = server.accept()
                conn.sendall(b"SSH-2.0-OpenSSH_9.6\r\n" * 64)
                threading.Timer(2, conn.close).start()
        except OSError:
            pass

    threading.Thread(target=greet, daemon=True).start()
    port = server.getsockname()[1]
    try:
        r = cli("count", 10, "--backend", "dask", "--scheduler", f"tcp://127.0.0.1:{port}")
    finally:
        server.close()
    assert_one_line_error(r, code=3)
    assert "not a Dask scheduler" in r.stderr and "memory" not in r.stderr


def _listening():
    """The listening sockets of this process and its children: (pid, ip, port)."""
    import psutil

    me = psutil.Process()
    out = set()
    for p in (me, *me.children(recursive=True)):
        try:
            conns = p.net_connections(kind="inet")
        except psutil.Error:
            continue
        out |= {(p.pid, c.laddr.ip, c.laddr.port) for c in conns if c.status == psutil.CONN_LISTEN}
    return out
