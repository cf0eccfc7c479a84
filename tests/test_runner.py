"""Counting runs (parqueens.run.runner, and parqueens.count): totals and classes
against OEIS, the brute-force oracle and each other, for any jobs and split
depth; resume from a checkpoint (everything, part, nodes), --recheck
catching a wrong stored result, the stop flag and Ctrl-C in the library."""

import json
import sqlite3
import time

import joblib
import pytest

import parqueens
import parqueens.run.chunks as chunks
import parqueens.run.runner as runner
from parqueens.run.backends import plan_jobs
from parqueens.run.runner import ResultMismatch, run_count
from parqueens.run.store import CheckpointError, RunStore
from parqueens.run.tally import UnitResult

from checkpoint_helpers import sql
from cli_helpers import assert_one_line_error
from naive import A000170, A002562, classes, solutions

METHODS = ["d4", "mirror", "plain"]


@pytest.mark.parametrize("n", range(0, 16))
def test_total_matches_oeis_a000170(n):
    assert parqueens.count(n, jobs=1) == A000170[n]


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("n", range(0, 14))
def test_every_method_matches_oeis(method, n):
    r = run_count(n, unique=True, method=method, jobs=1)
    assert r.total == A000170[n]
    assert r.fundamental == A002562[n]


@pytest.mark.parametrize("n", [14, 15])
def test_methods_agree_on_larger_n(n):
    totals = {m: parqueens.count(n, method=m, jobs=1) for m in ["d4", "mirror"]}
    assert totals == {"d4": A000170[n], "mirror": A000170[n]}


@pytest.mark.parametrize("n", range(0, 10))
def test_brute_force_oracle(n):
    brute = classes(n)
    r = parqueens.count_unique(n, jobs=1)
    assert r.total == len(solutions(n)) == sum(brute.values())
    assert r.fundamental == len(brute)
    for size in (8, 4, 2, 1):
        assert r.orbits[size] == sum(1 for s in brute.values() if s == size)


def test_orbit_breakdown_n8():
    r = parqueens.count_unique(8, jobs=1)
    assert r.orbits == {8: 11, 4: 1, 2: 0, 1: 0}


@pytest.mark.parametrize("n", range(1, 16))
def test_orbit_identity(n):
    r = parqueens.count_unique(n, jobs=1)
    o = r.orbits
    assert r.total == 8 * o[8] + 4 * o[4] + 2 * o[2] + o[1]
    assert r.fundamental == o[8] + o[4] + o[2] + o[1]
    if n > 1:
        assert o[1] == 0


@pytest.mark.parametrize("method", METHODS)
def test_same_result_for_any_jobs_and_depth(method):
    n = 11
    results = set()
    cores = joblib.cpu_count()
    # each number of jobs (4: more than the cores of a small machine) and
    # each depth at least once, not every pair: the result depends on neither
    # (depth 4 of plain n = 11: 2,000 units; 5 would be 8,000, in seconds)
    for jobs, depth in ((1, 2), (1, 4), (2, 3), (4, 4), (4, 2)):
        r = run_count(n, unique=True, method=method, jobs=jobs, split_depth=depth)
        assert r.jobs == min(jobs, cores) and r.split_depth == depth
        results.add((r.total, r.fundamental, tuple(r.orbits.items())))
    assert results == {(2680, 341, ((8, 329), (4, 12), (2, 0), (1, 0)))}


def test_n16_once_in_parallel():
    r = run_count(16, unique=True, jobs=2)
    assert (r.total, r.fundamental) == (A000170[16], A002562[16])
    assert r.orbits == {8: 1846189, 4: 734, 2: 32, 1: 0}
    assert r.units >= 64 * 2 and r.jobs == 2


def test_no_state_leaks_between_calls():
    assert [parqueens.count(4, jobs=1), parqueens.count(1, jobs=1), parqueens.count(4, jobs=1)] == [
        2,
        1,
        2,
    ]
    assert [parqueens.count(10, jobs=2), parqueens.count(6, jobs=2)] == [724, 4]


def test_auto_depth_gives_many_units_per_job():
    import joblib

    cores = joblib.cpu_count()
    for jobs in (1, 2, 8, 1000):
        r = run_count(13, jobs=jobs)
        # the jobs that ran: no more than the cores; the split sized on them
        assert r.jobs == min(jobs, cores)
        assert r.units >= 64 * r.jobs
    assert run_count(13, jobs=1000).units == run_count(13, jobs=cores).units
    # small boards run in-process by default
    assert run_count(10).jobs == 1
    # no more jobs than work units
    assert run_count(5, jobs=2, split_depth=1).jobs == 2
    assert run_count(4, method="plain", jobs=2, split_depth=1).units == 4


def test_nodes_full_tree_n8():
    # every placement of the full tree of n = 8 (no look-ahead pruning could
    # make it larger); the pruned search visits fewer, but at least one per
    # solution row
    r = run_count(8, method="plain", jobs=1, split_depth=1, nodes=True)
    assert 8 * 92 <= r.nodes <= 2056
    assert run_count(8, method="plain", jobs=1, split_depth=1).nodes is None


@pytest.mark.parametrize("bad", [-1, 65, 8.5, "8", True, None])
def test_invalid_n_raises(bad):
    with pytest.raises((ValueError, TypeError)):
        parqueens.count(bad)


def test_invalid_arguments():
    with pytest.raises(ValueError, match="jobs must not be 0"):
        parqueens.count(8, jobs=0)
    with pytest.raises(ValueError, match="leaves no core"):
        plan_jobs(-1000)
    with pytest.raises(ValueError, match="unknown method"):
        parqueens.count(8, method="fast")
    with pytest.raises(ValueError, match="split depth"):
        parqueens.count(8, split_depth=9)
    with pytest.raises(ValueError, match="split depth"):
        parqueens.count(8, method="d4", split_depth=0)
    with pytest.raises(TypeError):
        parqueens.count(8, jobs=1.5)
    from parqueens.run.runner import run_count

    with pytest.raises(ValueError, match="unknown backend"):
        run_count(8, backend="foo")
    assert run_count(9, backend="loky", jobs=1).total == run_count(9, backend="threads").total


def test_negative_jobs_like_joblib():
    import joblib

    cores = joblib.cpu_count()
    assert plan_jobs(-1) == cores
    assert plan_jobs(None) == cores
    assert plan_jobs(None, n=14) == 1  # small boards: in this thread
    assert plan_jobs(3) == min(3, cores)
    assert plan_jobs(1) == 1
    with pytest.raises(ValueError, match="between -4096 and 4096"):
        plan_jobs(5000)


def test_library_refuses_a_checkpoint_of_another_run(tmp_path, cli):
    # The same store, first a mirror count, then a unique one: refused by the
    # store itself, with the message the command line gives.
    path = tmp_path / "c.db"
    with RunStore(path, {"mine": 1}) as store:
        assert run_count(10, method="mirror", checkpoint=store).total == A000170[10]
    with RunStore(path, {"mine": 1}) as store:
        # in the library's words (the command line names its option instead)
        with pytest.raises(CheckpointError, match=r"n = 10 was counted there without unique=True"):
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
        with pytest.raises(CheckpointError, match="without unique=True"):
            run_count(10, method="mirror", unique=True, checkpoint=store)
        with pytest.raises(CheckpointError, match="method: 'mirror' there, 'd4' now"):
            run_count(10, method="d4", checkpoint=store)
        # without a method, the file keeps its own
        kept = run_count(10, checkpoint=store)
        assert (kept.method, kept.total, kept.resumed) == ("mirror", A000170[10], kept.units)


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
        ValueError, match="labels .labels=True. are drawn in svg pictures, not in perm"
    ):
        SolutionWriter(None, "perm", 4, labels=True)
    with pytest.raises(ValueError, match="npy output needs a file"):
        SolutionWriter(None, "npy", 4)
    with pytest.raises(ValueError, match="jobs must not be 0"):
        run_count(8, jobs=0)
    with pytest.raises(ValueError, match="unknown backend"):
        run_count(8, backend="fork")


def test_jobs_of_a_resumed_run(tmp_path):
    with RunStore(tmp_path / "r.db", {}) as store:
        first = run_count(12, jobs=2, checkpoint=store)
        again = run_count(12, jobs=2, checkpoint=store)
        quiet = run_count(12, jobs=2, checkpoint=store, recheck=0)
    assert first.jobs == min(2, joblib.cpu_count())
    # nothing left to search, but a sample of the stored units (at least 2)
    # searched again on 2 threads
    assert again.resumed == again.units and again.rechecked >= runner.RECHECK_UNITS
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


def _plant_wrong_result(monkeypatch, unit_id):
    """A faulty machine: the unit ``unit_id`` comes back one solution short."""
    real = chunks.run_chunk

    def faulty(units, unique, nodes=False, stop=None):
        results = real(units, unique, nodes, stop)
        return [
            UnitResult(r.solutions - 1, r.by_stab, r.nodes) if u.id == unit_id else r
            for u, r in zip(units, results, strict=True)
        ]

    monkeypatch.setattr(chunks, "run_chunk", faulty)


def test_recheck_catches_a_wrong_stored_result(cli, tmp_path, monkeypatch):
    path = tmp_path / "w.db"
    unit_id = "mirror/12/2.0"  # one of the units of split depth 2
    with monkeypatch.context() as m:
        _plant_wrong_result(m, unit_id)
        r = cli(
            "count", 12, "--method", "mirror", "--split-depth", 2, "--checkpoint", path, "--jobs", 1
        )
    assert r.stdout == f"{A000170[12] - 2}\n"  # the plant worked (weight 2), checksum valid
    r = cli(
        "count", 12, "--method", "mirror", "--split-depth", 2, "--checkpoint", path, "--recheck", 0
    )
    assert r.stdout == f"{A000170[12] - 2}\n"  # nothing searched again
    r = cli(
        "count", 12, "--method", "mirror", "--split-depth", 2, "--checkpoint", path, "--recheck", 1
    )
    assert_one_line_error(r)
    assert unit_id in r.stderr and "searched again" in r.stderr and "DELETE" in r.stderr
    # The hint works: that unit is searched again on resume.
    sql(path, f"DELETE FROM units WHERE unit_id = '{unit_id}'")
    r = cli(
        "count", 12, "--method", "mirror", "--split-depth", 2, "--checkpoint", path, "--recheck", 1
    )
    assert r.stdout == f"{A000170[12]}\n", r.stderr


def test_recheck_default_sample_and_library(tmp_path, monkeypatch):
    path = tmp_path / "l.db"
    with RunStore(path, {"library": 1}) as store:
        run_count(11, checkpoint=store)
    searched = []
    real = chunks.run_chunk

    def spy(units, *args):
        searched.extend(u.id for u in units)
        return real(units, *args)

    monkeypatch.setattr(chunks, "run_chunk", spy)
    with RunStore(path, {"library": 1}) as store:
        r = run_count(11, checkpoint=store)  # every unit stored: only the sample runs
        assert r.total == A000170[11] and r.resumed == r.units
        assert len(searched) == r.rechecked >= runner.RECHECK_UNITS
        searched.clear()
        run_count(11, checkpoint=store, recheck=0.5)
        assert len(searched) == -(-r.units // 2)
        with pytest.raises(ValueError, match="recheck"):
            run_count(11, checkpoint=store, recheck=1.5)


def test_recheck_raises_a_result_mismatch_naming_the_unit(tmp_path, monkeypatch):
    path = tmp_path / "w.db"
    unit_id = "mirror/12/2.0"  # one of the units of split depth 2
    args = {"method": "mirror", "split_depth": 2, "jobs": 1}
    with monkeypatch.context() as m:
        _plant_wrong_result(m, unit_id)
        with RunStore(path, {"test": "mismatch"}) as store:
            assert run_count(12, checkpoint=store, **args).total == A000170[12] - 2
    with RunStore(path, {"test": "mismatch"}) as store:
        with pytest.raises(ResultMismatch) as info:
            run_count(12, checkpoint=store, recheck=1, **args)
    assert unit_id in str(info.value) and "searched again" in str(info.value)
    assert info.value.exit_code == 2  # a usage error's code on the command line


def test_recheck_of_classified_units_by_a_run_without_classes(cli, tmp_path):
    # Units stored by a --unique mirror count serve a plain one; rechecking
    # them all compares their solutions (the run itself finds no classes).
    path = tmp_path / "u.db"
    assert cli("count", 10, "--method", "mirror", "--unique", "--checkpoint", path).returncode == 0
    r = cli("count", 10, "--method", "mirror", "--checkpoint", path, "--recheck", 1)
    assert (r.returncode, r.stdout) == (0, f"{A000170[10]}\n"), r.stderr


def test_recheck_needs_a_checkpoint(cli):
    r = cli("count", 12, "--recheck", 0.5)
    assert_one_line_error(r)
    assert "checkpoint" in r.stderr
    with pytest.raises(ValueError, match="checkpoint"):
        run_count(12, recheck=0.5)


def test_library_resume_everything(tmp_path):
    path = tmp_path / "c.sqlite"
    params = {"test": "resume", "n": 13}
    with RunStore(path, params) as store:
        first = run_count(13, checkpoint=store, nodes=True)
    assert first.total == A000170[13] and first.resumed == 0 and first.units > 0
    with RunStore(path, params) as store:
        again = run_count(13, checkpoint=store, nodes=True)
    assert again.resumed == again.units == first.units
    assert again.total == first.total
    assert again.split_depth == first.split_depth
    assert again.nodes == first.nodes > first.total


@pytest.mark.parametrize("method,unique", [(None, False), ("mirror", True), ("d4", True)])
def test_library_resume_partial(tmp_path, method, unique):
    path = tmp_path / "c.sqlite"
    params = {"test": "partial", "method": method, "unique": unique}
    with RunStore(path, params) as store:
        first = run_count(13, checkpoint=store, method=method, unique=unique)
    assert first.total == A000170[13]
    db = sqlite3.connect(path)
    with db:
        deleted = db.execute(
            "DELETE FROM units WHERE rowid IN (SELECT rowid FROM units ORDER BY unit_id LIMIT 57)"
        ).rowcount
    db.close()
    assert deleted == 57
    with RunStore(path, params) as store:
        again = run_count(13, checkpoint=store, method=method, unique=unique)
    assert again.units == first.units
    assert again.resumed == first.units - deleted
    assert again.total == first.total == A000170[13]
    if unique:
        assert again.fundamental == first.fundamental == A002562[13]
        assert again.orbits == first.orbits
    # The file is complete again: a third run searches nothing.
    with RunStore(path, params) as store:
        third = run_count(13, checkpoint=store, method=method, unique=unique)
    assert third.resumed == third.units and third.total == first.total


def test_library_nodes_across_resumes(tmp_path):
    # Counted on both sides of a resume, the nodes add up to an uninterrupted
    # count; units stored without them leave the total unknown (None).
    whole = run_count(13, nodes=True, split_depth=3)
    for first_nodes, expected in ((True, whole.nodes), (False, None)):
        path = tmp_path / f"n{first_nodes}.sqlite"
        with RunStore(path, {"test": "nodes"}) as store:
            run_count(13, checkpoint=store, nodes=first_nodes, split_depth=3)
        db = sqlite3.connect(path)
        with db:
            db.execute(
                "DELETE FROM units WHERE rowid IN "
                "(SELECT rowid FROM units ORDER BY unit_id LIMIT 40)"
            )
        db.close()
        with RunStore(path, {"test": "nodes"}) as store:
            again = run_count(13, checkpoint=store, nodes=True)
        assert again.resumed == again.units - 40 and again.total == A000170[13]
        assert again.nodes == expected


def test_worker_lost_in_the_recheck_counts_the_runs_units(tmp_path, monkeypatch):
    """A worker lost while a resume searches stored units again (its
    recheck): the error counts the units the run has left, not the
    sample's (it said "one of the 1 unfinished units" with 227 left)."""
    from parqueens.run import runner
    from parqueens.run.backends import WorkerDied

    path = tmp_path / "r.sqlite"
    params = {"test": "recheck"}
    with RunStore(path, params) as store:
        run_count(12, checkpoint=store)
    db = sqlite3.connect(path)
    with db:
        gone = db.execute("SELECT unit_id FROM units ORDER BY unit_id LIMIT 30").fetchall()
        db.executemany("DELETE FROM units WHERE unit_id = ?", gone)
    db.close()

    def worker_dies(units, **kwargs):  # the recheck's search, on a worker that dies
        raise WorkerDied([u.id for u in units])
        yield

    monkeypatch.setattr(runner, "iter_chunks", worker_dies)
    with RunStore(path, params) as store, pytest.raises(WorkerDied) as died:
        run_count(12, checkpoint=store)
    assert sorted(died.value.unit_ids) == sorted(uid for (uid,) in gone)
    assert str(died.value).startswith(
        "a worker process died (killed or out of memory) while searching stored units again "
        "to check them; 30 units unfinished ("
    )


def test_chunks_by_work_store_the_first_units_early():
    # The largest units come first and each is a chunk of its own, so the
    # first results reach the checkpoint after one unit, not a 16th of the
    # units (at n = 18 the first 9 of 304 held 24 % of the work: 20 s).
    from parqueens.run.chunks import _chunks
    from parqueens.run.plan import split_count
    from parqueens.search.units import work_shares

    units = list(split_count(18, "d4", 2).units)
    shares = dict(zip((u.id for u in units), work_shares(units), strict=True))
    chunks = list(_chunks(units, 2))
    assert [u for c in chunks for u in c] == units
    assert all(len(c) == 1 for c in chunks[:8])
    assert max(len(c) for c in chunks) <= len(units) // 32
    for c in chunks:
        assert len(c) == 1 or sum(shares[u.id] for u in c) <= 1 / 32 + 1e-9


LIBRARY_CTRL_C = """
import os, signal, threading, time
import parqueens
from parqueens.run import chunks

# each chunk a thread takes on, and how it ended: abandoned (Stopped) or run out
state = {"running": 0, "stopped": 0}
lock = threading.Lock()
search = chunks.run_chunk

def watched(units, unique, nodes=False, stop=None):
    with lock:
        state["running"] += 1
    try:
        return search(units, unique, nodes, stop)
    except chunks.Stopped:
        with lock:
            state["stopped"] += 1
        raise
    finally:
        with lock:
            state["running"] -= 1

def fire():
    time.sleep(1.5)
    os.kill(os.getpid(), signal.SIGINT)

# the kernels loaded first, so that the interrupt lands in the search (d4: the
# join counts n = 17 in about a second)
parqueens.count(12, jobs=2, method="d4")
chunks.run_chunk = watched
threading.Thread(target=fire, daemon=True).start()
try:
    parqueens.count(17, jobs=2, method="d4")
    print("finished")
except KeyboardInterrupt:
    for _ in range(600):  # the threads end their unit; a guard, not a measure
        if state["running"] == 0:
            break
        time.sleep(0.05)
    print(state["stopped"], state["running"])
"""


def test_library_ctrl_c_stops_the_threads(tmp_path):
    # Ctrl-C in a script or notebook: the search threads stop at their next
    # unit instead of running their chunks to the end.
    import subprocess
    import sys

    from cli_helpers import cli_env

    p = subprocess.run(
        [sys.executable, "-c", LIBRARY_CTRL_C],
        capture_output=True,
        text=True,
        env=cli_env(),
        timeout=60,
    )
    assert p.returncode == 0, p.stderr
    if p.stdout.startswith("finished"):
        pytest.skip("count 17 ended before the interrupt (a very fast machine)")
    stopped, running = map(int, p.stdout.split())
    # the chunks in flight were abandoned at their next unit, not run to
    # their end, and no thread searches on after the interrupt
    assert stopped >= 1 and running == 0, p.stdout


def test_stop_flag_abandons_a_chunk_within_a_unit():
    import threading

    import numpy as np

    from parqueens.run.chunks import Stopped, run_chunk
    from parqueens.search.units import make_units

    # a chunk of minutes' search in small units: abandoned at a unit's end
    # once the flag is set, not searched to the end
    units = make_units(21, "d4", 3)
    stop = np.zeros(1, np.uint8)
    box = {}

    def search():
        try:
            box["result"] = run_chunk(units, False, False, stop)
        except Stopped:
            box["stopped"] = True

    thread = threading.Thread(target=search)
    thread.start()
    time.sleep(0.1)
    stop[0] = 1
    thread.join(120)  # a guard against a hang, not a measure of speed
    assert box == {"stopped": True}
    small = make_units(12, "d4", 3)
    with pytest.raises(Stopped):
        run_chunk(small[:3], False, False, stop)  # set before: nothing searched
    stop[0] = 0
    assert run_chunk(small[-5:], False, False, stop) == run_chunk(small[-5:], False)


def test_resumed_size_reports_the_time_of_all_its_units(cli, tmp_path):
    path = tmp_path / "t.sqlite"
    with RunStore(path, {"test": "seconds"}) as store:
        first = run_count(14, checkpoint=store, jobs=1)
        again = run_count(14, checkpoint=store, jobs=1)  # everything resumed
        stored = store.work_seconds(14)
    # the stored work time, the same after one run or two; run_seconds: this run's wall time
    assert first.seconds == again.seconds == stored > 0.5 * first.run_seconds
    assert again.resumed == again.units and again.run_seconds < 0.5 * first.run_seconds
    # the table's seconds of a resumed size: the stored work, not the rest
    table = tmp_path / "table.sqlite"
    cli("table", "13-14", "--checkpoint", table, "--jobs", 1)
    with RunStore(table, None) as store:
        work = round(store.work_seconds(14), 3)
    r = cli("table", "13-14", "--checkpoint", table, "--jobs", 1)
    assert r.stdout.splitlines()[-1].endswith(f"| {work} |"), (r.stdout, work)
    assert work > 0  # stored work, not the resumed run's near-zero time


def test_interrupt_right_after_a_save_counts_the_saved_chunk(tmp_path, monkeypatch):
    # Ctrl-C landing between a chunk's commit and the run's own count: the
    # message says what the file holds, not one chunk less.
    from parqueens.run.backends import RunInterrupted

    real_add = RunStore.add

    def add_then_interrupt(self, n, results, seconds):
        real_add(self, n, results, seconds)
        raise KeyboardInterrupt

    monkeypatch.setattr(RunStore, "add", add_then_interrupt)
    with RunStore(tmp_path / "c.db", {}) as store:
        with pytest.raises(RunInterrupted) as info:
            run_count(12, jobs=1, checkpoint=store)
        assert info.value.finished == store.stored_units(12) > 0


def test_the_recheck_searches_in_the_plan_order(tmp_path, monkeypatch):
    import parqueens.run.runner as runner

    seen = []
    real = runner.iter_chunks

    def recording(units, **kw):
        seen.append([u.id for u in units])
        return real(units, **kw)

    path = tmp_path / "c.db"
    run_count(13, checkpoint=path)
    monkeypatch.setattr(runner, "iter_chunks", recording)
    again = run_count(13, checkpoint=path, recheck=0.5)
    order = [u.id for u in runner.plan_run(13).split.units]
    assert again.rechecked == len(seen[0]) and seen[0] == sorted(seen[0], key=order.index)


def test_the_default_recheck_meets_every_origin_within_its_budget(tmp_path):
    # Units computed by three processes (a Dask worker each, say): the
    # default sample searches at least one of each again, and within its
    # time budget otherwise; a worker that got its units wrong is caught on
    # every resume, whichever of its units is drawn.
    import random

    from parqueens.run.plan import plan_run
    from parqueens.run.store import RunStore

    from checkpoint_helpers import reseal

    path = tmp_path / "o.db"
    assert run_count(12, jobs=1, checkpoint=path).total == A000170[12]
    workers = ["good-a/11", "good-b/12", "bad/13"]
    with sqlite3.connect(path) as db:
        ids = [r[0] for r in db.execute("SELECT unit_id FROM units ORDER BY unit_id")]
        for i, uid in enumerate(ids):
            origin = f"{workers[i % 3]} run 0"
            db.execute("UPDATE units SET origin = ? WHERE unit_id = ?", (origin, uid))
    db.close()
    reseal(path)
    plan = plan_run(12, jobs=1)
    with RunStore(path, {"command": "run_count", "n": [12], **plan.identity}) as store:
        split = plan.with_checkpoint(store).split
        held = store.begin_run(12, 0, len(split.units), False, "join")
        origins = store.unit_origins(12)
        for seed in range(5):
            first, then = runner.default_sample(split, held, store, random.Random(seed))
            assert {origins[u.id].split()[0] for u in first} == set(workers)
            assert sorted(u.id for u in first + then) == sorted(ids)
    # The bad worker: each of its units 8 over (Burnside divides), record gone.
    with sqlite3.connect(path) as db:
        db.execute("UPDATE units SET solutions = solutions + 8 WHERE origin LIKE 'bad/%'")
        db.execute("UPDATE runs SET finished = 0, total = NULL, fundamental = NULL")
    db.close()
    reseal(path)
    for _ in range(3):
        with pytest.raises(ResultMismatch, match="bad|searched again"):
            run_count(12, jobs=1, checkpoint=path)
    assert run_count(12, jobs=1, checkpoint=path, recheck=0).total > A000170[12]


def _interrupted(todo, **kwargs):
    """iter_chunks, interrupted (Ctrl-C) as it starts on units to search."""
    if todo:
        raise KeyboardInterrupt
    yield from ()


def test_an_interrupted_resume_has_said_what_it_resumed(cli, tmp_path, monkeypatch):
    path = tmp_path / "c.db"
    assert cli("count", 12, "--checkpoint", path, "-q").returncode == 0
    [(units,)] = sql(path, "SELECT count(*) FROM units")[0]
    sql(path, "DELETE FROM units WHERE rowid = (SELECT max(rowid) FROM units)")
    monkeypatch.setattr(runner, "iter_chunks", _interrupted)
    r = cli("count", 12, "--checkpoint", path, "--recheck", 0)
    assert r.returncode == 130
    said, interrupted = r.stderr.splitlines()
    assert said == f"parqueens: resumed {units - 1} of {units} units from {path}"
    assert interrupted.startswith(
        f"parqueens: interrupted during n = 12 with {units - 1} of {units} units finished; "
        f"finished units are kept in {path}"
    )
    # The library's exception says so too, and how to resume.
    with pytest.raises(runner.RunInterrupted) as info:
        run_count(12, checkpoint=path, recheck=0)
    assert str(info.value) == (
        f"interrupted during n = 12 with {units - 1} of {units} units finished; they are kept "
        f"in {path}: the same count with checkpoint={str(path)!r} resumes it"
    )
    with pytest.raises(runner.RunInterrupted) as info:
        run_count(12, jobs=1)
    assert str(info.value).endswith(
        "units finished; they are lost without a checkpoint (checkpoint=FILE keeps them)"
    )
