"""Checkpoints (parqueens.store.RunStore): resume in the library and on the
command line, after SIGKILL, SIGINT and SIGTERM; refusal of foreign or
damaged files (left byte for byte unchanged); `parqueens status`.

The runs that are killed or interrupted are subprocesses; the other commands
run in-process through ``cli.main`` (fixture ``cli``)."""

import hashlib
import json
import os
import re
import shutil
import signal
import sqlite3
import time

import pytest

from parqueens.cli import main
from parqueens.runner import run_count
from parqueens.store import RunStore, _run_checksum

from cli_helpers import assert_one_line_error, popen_cli
from naive import A000170, A002562

# ------------------------------------------------------------------ helpers


def _stored_units(path):
    """Units stored in a checkpoint being written by another process (0 if
    the file or its tables do not exist yet, or the database is busy)."""
    if not os.path.exists(path):
        return 0
    try:
        db = sqlite3.connect(f"file:{os.path.abspath(path)}?mode=ro", uri=True, timeout=0.2)
        try:
            return db.execute("SELECT count(*) FROM units").fetchone()[0]
        finally:
            db.close()
    except sqlite3.Error:  # locked, no such table, not yet a database
        return 0


def _wait_for_units(proc, path, at_least, deadline=25):
    t0 = time.monotonic()
    while time.monotonic() - t0 < deadline:
        k = _stored_units(path)
        if k >= at_least:
            return k
        if proc.poll() is not None:
            pytest.fail(
                f"the run ended (exit {proc.returncode}) before {at_least} units "
                f"were stored: {proc.stderr.read()}"
            )
        time.sleep(0.01)
    pytest.fail(f"no {at_least} units stored in {path} within {deadline} s")


def _rerun_resumes(cli, args, seen):
    """Run ``count 16 ...`` to the end: the right total, and at least ``seen``
    but not all units taken from the checkpoint."""
    r = cli(*args)
    assert r.returncode == 0, r.stderr
    assert r.stdout == f"{A000170[16]}\n"
    m = _RESUMED.search(r.stderr)
    assert m, r.stderr
    assert seen <= int(m.group(1)) < int(m.group(2))


def _kill_group(proc, sig=signal.SIGKILL):
    try:
        os.killpg(proc.pid, sig)
    except ProcessLookupError:
        pass


def _sha256(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


_RESUMED = re.compile(r"resumed (\d+) of (\d+) units")


# ------------------------------------------------------------------ library


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


def test_library_refuses_other_params(tmp_path):
    from parqueens.store import CheckpointError

    path = tmp_path / "c.sqlite"
    with RunStore(path, {"a": 1}) as store:
        run_count(9, checkpoint=store)
    before = _sha256(path)
    with pytest.raises(CheckpointError):
        RunStore(path, {"a": 2})
    assert _sha256(path) == before


# ------------------------------------------------------------------ SIGKILL


def test_cli_resume_after_sigkill(cli, tmp_path):
    path = tmp_path / "k.sqlite"
    # count 17 takes 8-15 s on two busy cores; 16 keeps the test short while
    # still leaving about a second between the first stored chunk and the end.
    args = ["count", 16, "--jobs", 2, "--checkpoint", path, "--quiet"]
    p = popen_cli(args, new_session=True)
    try:
        seen = _wait_for_units(p, path, 1)
    finally:
        _kill_group(p, signal.SIGKILL)  # the loky workers die too
        p.communicate(timeout=30)
    assert p.returncode == -signal.SIGKILL
    assert _stored_units(path) >= seen
    # Same command again (without --quiet, which also silences the note).
    _rerun_resumes(cli, args[:-1], seen)


# ------------------------------------------------------------------ SIGINT / SIGTERM


@pytest.mark.parametrize(
    "sig,code,word",
    [(signal.SIGINT, 130, "interrupted"), (signal.SIGTERM, 143, "terminated")],
    ids=["SIGINT", "SIGTERM"],
)
def test_cli_signal_keeps_checkpoint(cli, tmp_path, sig, code, word):
    path = tmp_path / "s.sqlite"
    args = ["count", 16, "--jobs", 2, "--checkpoint", path, "--quiet"]
    p = popen_cli(args, new_session=True)
    try:
        seen = _wait_for_units(p, path, 1)
        if sig == signal.SIGINT:
            os.killpg(p.pid, sig)  # as Ctrl-C does: the whole foreground group
        else:
            os.kill(p.pid, sig)  # as `kill PID` does
        out, err = p.communicate(timeout=30)
    finally:
        if p.returncode is None:
            _kill_group(p)
            p.communicate(timeout=30)
    assert p.returncode == code, (p.returncode, out, err)
    assert out == ""
    assert len(err.strip().splitlines()) == 1, err
    assert "Traceback" not in err
    assert word in err
    assert str(path) in err
    assert "resume" in err and "again" in err
    # Resume with the same command.
    _rerun_resumes(cli, args[:-1], seen)


def _children(pid):
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as f:
            return f.read().split()
    except OSError:
        return None


@pytest.mark.parametrize("backend", ["threads", "loky"])
def test_cli_sigint_without_checkpoint(tmp_path, backend):
    # d4: a search long enough to be interrupted
    args = ["count", 17, "--jobs", 2, "--quiet", "--backend", backend, "--method", "d4"]
    p = popen_cli(args, new_session=True)
    try:
        # Wait until the run is under way (worker processes started), not still
        # importing; then interrupt the main process (`kill -INT PID`).
        t0 = time.monotonic()
        while backend == "threads" and time.monotonic() - t0 < 2:
            time.sleep(0.05)
        while backend == "loky" and time.monotonic() - t0 < 20:
            kids = _children(p.pid)
            if kids is None:
                time.sleep(1.0)
                break
            if len(kids) >= 2:
                time.sleep(0.1)
                break
            time.sleep(0.01)
        assert p.poll() is None, "the run ended before it could be interrupted"
        os.kill(p.pid, signal.SIGINT)
        out, err = p.communicate(timeout=30)
    finally:
        if p.returncode is None:
            _kill_group(p)
            p.communicate(timeout=30)
    assert p.returncode == 130, (p.returncode, out, err)
    assert out == ""
    assert len(err.strip().splitlines()) == 1, err
    assert "Traceback" not in err
    assert "lost" in err and "--checkpoint" in err


# ------------------------------------------------------------------ refusals


@pytest.fixture(scope="module")
def real_checkpoints(tmp_path_factory):
    """Finished checkpoints of `count 12`, `table 8-9`, `count 13 --method d4`,
    `count 13` (the join), `table 1-5`, `count 9 --method mirror`."""
    d = tmp_path_factory.mktemp("real_cp")
    for name, args in [
        ("count12", ["count", "12"]),
        ("table", ["table", "8-9"]),
        ("count13", ["count", "13", "--method", "d4"]),
        ("join13", ["count", "13"]),
        ("tiny", ["table", "1-5"]),
        ("mirror9", ["count", "9", "--method", "mirror"]),
    ]:
        assert main([*args, "--checkpoint", str(d / f"{name}.sqlite"), "--quiet"]) == 0, name
    return d


def _prepare_refusal(case, src, d):
    """Make the file of a refusal case in d; returns (path, command args)."""
    path = d / "cp.sqlite"
    if case in ("mirror", "fixed", "version"):
        shutil.copy(src / "count12.sqlite", path)
    if case == "mirror":
        return path, ["count", 12, "--method", "mirror"]
    if case == "fixed":
        return path, ["count", 12, "--fixed", "0:1"]
    if case == "unique-mirror":
        shutil.copy(src / "mirror9.sqlite", path)
        return path, ["table", "8-9", "--method", "mirror", "--unique"]
    if case == "text":
        path.write_text("my precious notes\nline two\n")
        return path, ["count", 12]
    if case == "truncated":
        path.write_bytes((src / "count12.sqlite").read_bytes()[:100])
        return path, ["count", 12]
    if case == "unrelated-sqlite":
        db = sqlite3.connect(path)
        with db:
            db.execute("CREATE TABLE people (name TEXT, age INTEGER)")
            db.execute("INSERT INTO people VALUES ('ada', 36)")
        db.close()
        return path, ["count", 12]
    if case == "version":
        db = sqlite3.connect(path)
        with db:
            db.execute("UPDATE meta SET value = '0.0.0' WHERE key = 'version'")
        db.close()
        return path, ["count", 12]
    if case == "folder":
        path = d / "a_folder"
        path.mkdir()
        (path / "inside.txt").write_text("x")
        return path, ["count", 12]
    raise AssertionError(case)


REFUSALS = [
    "mirror",
    "fixed",
    "unique-mirror",
    "text",
    "truncated",
    "unrelated-sqlite",
    "version",
    "folder",
]


@pytest.mark.parametrize("case", REFUSALS)
def test_refusal_leaves_file_unchanged(real_checkpoints, cli, tmp_path, case):
    path, args = _prepare_refusal(case, real_checkpoints, tmp_path)
    before = sorted(os.listdir(path)) if path.is_dir() else _sha256(path)
    r = cli(*args, "--checkpoint", path, "--quiet")
    assert_one_line_error(r)
    if path.is_dir():
        assert sorted(os.listdir(path)) == before
        assert (path / "inside.txt").read_text() == "x"
    else:
        assert _sha256(path) == before, "a refused checkpoint must not be modified"
    assert os.path.basename(path) in r.stderr


# ------------------------------------------------------------------ status


_STATUS_LINE = re.compile(r"n = (\d+) \(\w+\): (\d+)/(\d+) units")


def test_status_finished(real_checkpoints, cli):
    r = cli("status", real_checkpoints / "count12.sqlite")
    assert r.returncode == 0, r.stderr
    lines = [line for line in r.stdout.splitlines() if _STATUS_LINE.search(line)]
    assert len(lines) == 1, r.stdout
    n, done, total = map(int, _STATUS_LINE.search(lines[0]).groups())
    assert n == 12 and done == total > 0
    assert str(A000170[12]) in lines[0]
    assert "left" not in lines[0]


def test_status_finished_table(real_checkpoints, cli):
    r = cli("status", real_checkpoints / "table.sqlite")
    assert r.returncode == 0, r.stderr
    lines = [line for line in r.stdout.splitlines() if _STATUS_LINE.search(line)]
    assert [int(_STATUS_LINE.search(x).group(1)) for x in lines] == [8, 9]
    for line, n in zip(lines, (8, 9), strict=False):
        _, done, total = map(int, _STATUS_LINE.search(line).groups())
        assert done == total > 0
        assert str(A000170[n]) in line


def test_status_finished_table_with_tiny_sizes(real_checkpoints, cli):
    # n = 1 and 2 are solved directly, without work units; a finished table
    # must still not report them as "not started".
    r = cli("status", real_checkpoints / "tiny.sqlite")
    assert r.returncode == 0, r.stderr
    for n in range(1, 6):
        lines = [line for line in r.stdout.splitlines() if line.startswith(f"n = {n} (")]
        assert len(lines) == 1, r.stdout
        assert "not started" not in lines[0], r.stdout
        assert re.search(rf"total {A000170[n]}\b", lines[0]), r.stdout


@pytest.mark.parametrize("made", ["count13", "join13"])
def test_status_partial(real_checkpoints, cli, tmp_path, made):
    path = tmp_path / "partial.sqlite"
    shutil.copy(real_checkpoints / f"{made}.sqlite", path)
    db = sqlite3.connect(path)
    with db:
        depth, units_total = db.execute(
            "SELECT split_depth, units_total FROM runs WHERE n = 13"
        ).fetchone()
        gone = db.execute(
            "SELECT unit_id, solutions, s1, s2, s4, s8 FROM units ORDER BY unit_id LIMIT 40"
        ).fetchall()
        db.executemany("DELETE FROM units WHERE n = 13 AND unit_id = ?", [(g[0],) for g in gone])
        # As a run interrupted there leaves its record: not finished, no totals.
        checksum = _run_checksum(13, depth, units_total, 1, 0, None, None)
        db.execute(
            "UPDATE runs SET finished = 0, total = NULL, fundamental = NULL, seconds = 12.5, "
            "checksum = ? WHERE n = 13",
            (checksum,),
        )
    db.close()
    if made == "join13":  # a join unit's count is its share of the total
        missing = sum(int(sol) for _, sol, *_ in gone)
    else:  # a d4 unit's classes, each weighed by its orbit size
        missing = sum(8 * int(a) + 4 * int(b) + 2 * int(c) + int(e) for _, _, a, b, c, e in gone)
    r = cli("status", path)
    assert r.returncode == 0, r.stderr
    lines = [line for line in r.stdout.splitlines() if _STATUS_LINE.search(line)]
    assert len(lines) == 1, r.stdout
    n, done, total = map(int, _STATUS_LINE.search(lines[0]).groups())
    assert (n, done, total) == (13, units_total - 40, units_total)
    assert str(A000170[13] - missing) in lines[0], (lines[0], A000170[13] - missing)
    assert "left" in lines[0]


def test_status_missing_file(cli, tmp_path):
    r = cli("status", tmp_path / "nope.sqlite")
    assert_one_line_error(r)
    assert not (tmp_path / "nope.sqlite").exists()


def test_status_not_a_checkpoint(cli, tmp_path):
    path = tmp_path / "notes.txt"
    path.write_text("hello\n")
    r = cli("status", path)
    assert_one_line_error(r)
    assert path.read_text() == "hello\n"


# ------------------------------------------------------------------ worker faults


def test_worker_killed_mid_run_then_resume(cli, tmp_path):
    """SIGKILL to one loky worker: a clear one-line error naming units, exit 1,
    finished units kept; the re-run completes with the right count."""
    import psutil

    ck = tmp_path / "w.sqlite"
    args = ["count", 16, "--jobs", 2, "--backend", "loky", "--checkpoint", ck, "--quiet"]
    proc = popen_cli(args, new_session=True)
    try:
        _wait_for_units(proc, ck, 1)
        workers = [
            c
            for c in psutil.Process(proc.pid).children(recursive=True)
            if "LokyProcess" in " ".join(c.cmdline())
        ]
        assert workers, "no loky worker found"
        workers[0].kill()
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            _kill_group(proc)
    assert proc.returncode == 1, (out, err)
    lines = [ln for ln in err.strip().splitlines() if ln.startswith("parqueens")]
    assert len(lines) == 1 and "worker process died" in lines[0], err
    assert re.search(r"join/16/e/[0-9a-f]+", lines[0]) and str(ck) in lines[0]
    kept = _stored_units(ck)
    assert kept >= 1
    r = cli("count", 16, "--jobs", 2, "--checkpoint", ck)
    assert r.returncode == 0 and r.stdout.strip() == str(A000170[16]), r.stderr
    m = _RESUMED.search(r.stderr)
    assert m and int(m.group(1)) == kept


def test_worker_lost_in_the_recheck_counts_the_runs_units(tmp_path, monkeypatch):
    """A worker lost while a resume searches stored units again (its
    recheck): the error counts the units the run has left, not the
    sample's (it said "one of the 1 unfinished units" with 227 left)."""
    from parqueens import runner
    from parqueens.backends import WorkerDied

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


def test_status_names_fixed_queens(cli, tmp_path):
    ck = tmp_path / "f.db"
    assert cli("count", 8, "--fixed", "0:0", "--checkpoint", ck).stdout == "4\n"
    r = cli("status", ck)
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines()[0].endswith("method=plain fixed=0:0, n = 8")
    assert "done: total 4" in r.stdout


# ------------------------------------------------------------------ early commits, library Ctrl-C


def test_chunks_by_work_store_the_first_units_early():
    # The largest units come first and each is a chunk of its own, so the
    # first results reach the checkpoint after one unit, not a 16th of the
    # units (at n = 18 the first 9 of 304 held 24 % of the work: 20 s).
    from parqueens.runner import _chunks
    from parqueens.units import plan_count, work_shares

    units = list(plan_count(18, "d4", 2).units)
    shares = dict(zip((u.id for u in units), work_shares(units), strict=True))
    chunks = list(_chunks(units, 2))
    assert [u for c in chunks for u in c] == units
    assert all(len(c) == 1 for c in chunks[:8])
    assert max(len(c) for c in chunks) <= len(units) // 32
    for c in chunks:
        assert len(c) == 1 or sum(shares[u.id] for u in c) <= 1 / 32 + 1e-9


LIBRARY_CTRL_C = """
import os, signal, sys, threading, time
import parqueens

def fire():
    time.sleep(1.5)
    os.kill(os.getpid(), signal.SIGINT)

threading.Thread(target=fire, daemon=True).start()
try:
    parqueens.count(17, jobs=2)
    print("finished")
except KeyboardInterrupt:
    pass
time.sleep(1.0)  # the threads end their unit (the largest take about 0.3 s)
t, cpu = time.perf_counter(), time.process_time()
while time.perf_counter() - t < 0.5:
    time.sleep(0.05)
print(f"{time.process_time() - cpu:.3f}")
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
    assert float(p.stdout) < 0.1, p.stdout  # CPU seconds in half a second: idle


def test_stop_flag_abandons_a_chunk_within_a_unit():
    import threading

    import numpy as np

    from parqueens.runner import Stopped, run_chunk
    from parqueens.units import make_units

    units = make_units(17, "d4", 3)  # about 5 s in all, the largest unit 0.03 s
    stop = np.zeros(1, np.uint8)
    box = {}

    def search():
        try:
            box["result"] = run_chunk(units, False, False, stop)
        except Stopped:
            box["stopped"] = time.perf_counter()

    thread = threading.Thread(target=search)
    thread.start()
    time.sleep(0.1)
    stop[0] = 1
    asked = time.perf_counter()
    thread.join(30)
    # within a unit, not at the chunk's end (a loaded machine may take a while
    # to run the thread at all: far less than the chunk, all the same)
    assert "stopped" in box and box["stopped"] - asked < 1.0
    with pytest.raises(Stopped):
        run_chunk(units[:3], False, False, stop)  # set before: nothing searched
    stop[0] = 0
    assert run_chunk(units[-5:], False, False, stop) == run_chunk(units[-5:], False)


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
    assert work > 0.05


def test_table_progress_weights_follow_the_work():
    from parqueens.estimate import size_weights

    w = size_weights([1, 2, 10, 14, 16, 17])
    assert abs(sum(w) - 1) < 1e-9 and w == sorted(w)
    assert w[-1] > 0.75 and w[-1] / w[-2] > 4  # n = 17 is most of table 10-17


# ------------------------------------------------------------------ runs that cannot finish


def test_runs_over_a_day_need_yes(cli):
    for args in (["count", 30], ["table", "17-24"]):
        r = cli(*args)
        assert_one_line_error(r)
        assert "would take about" in r.stderr and "--yes" in r.stderr, r.stderr


class _Terminal:
    """A stdin that is a terminal, answering ``answer``."""

    def __init__(self, answer):
        self.answer = answer

    def isatty(self):
        return True

    def readline(self):
        return self.answer


def test_runs_over_a_day_asked_on_a_terminal(monkeypatch, capsys, tmp_path):
    import sys

    import parqueens.runner as runner
    from parqueens.plan import CountPlan
    from parqueens.runner import CountResult

    def huge(plan):
        return {"seconds": 5e6, "jobs": 2, "nodes": 1e20, "rate": 1e8, "method": "d4"}

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


# ------------------------------------------------------------------ checkpoints per size


def test_checkpoint_serves_every_command_of_its_work(cli, tmp_path):
    # The cases: a table extended, a count of one of its sizes, with
    # and without --unique (d4 units always hold their classes).
    path = tmp_path / "t.db"
    first = cli("table", "1-12", "--checkpoint", path)
    assert first.returncode == 0, first.stderr
    r = cli("table", "1-13", "--checkpoint", path, "--quiet")
    assert r.returncode == 0, r.stderr
    rows = [line.split(" | ") for line in r.stdout.splitlines()[2:]]
    assert [int(row[1]) for row in rows] == A000170[1:14]
    with RunStore(path, None) as store:
        assert [s["n"] for s in store.summary()] == list(range(1, 14))
    r = cli("count", 12, "--unique", "--checkpoint", path)
    assert r.returncode == 0, r.stderr
    assert f"fundamental {A002562[12]}" in r.stdout
    assert "resumed" in r.stderr
    r = cli("count", 11, "--checkpoint", path, "--json")
    assert json.loads(r.stdout)["resumed"] == json.loads(r.stdout)["units"]
    r = cli("status", path)
    assert r.returncode == 0 and "n = 13 (join): " in r.stdout


def test_plain_units_without_classes_serve_only_counts_without_unique(cli, tmp_path):
    path = tmp_path / "m.db"
    assert cli("count", 10, "--method", "mirror", "--checkpoint", path).returncode == 0
    r = cli("count", 10, "--method", "mirror", "--unique", "--checkpoint", path)
    assert_one_line_error(r)
    assert "n = 10 was counted there without --unique" in r.stderr
    # the other way round is fine: units with classes serve a plain count
    path = tmp_path / "u.db"
    assert cli("count", 10, "--method", "mirror", "--unique", "--checkpoint", path).returncode == 0
    r = cli("count", 10, "--method", "mirror", "--checkpoint", path)
    assert r.stdout == f"{A000170[10]}\n"
    r = cli("count", 11, "--method", "mirror", "--checkpoint", path)  # a new size, no classes
    assert r.stdout == f"{A000170[11]}\n"
    r = cli("table", "10-11", "--method", "mirror", "--unique", "--checkpoint", path)
    assert_one_line_error(r)  # before the table's header
    assert "n = 11 was counted there without --unique" in r.stderr


def test_interrupt_right_after_a_save_counts_the_saved_chunk(tmp_path, monkeypatch):
    # Ctrl-C landing between a chunk's commit and the run's own count: the
    # message says what the file holds, not one chunk less.
    from parqueens.backends import RunInterrupted

    real_add = RunStore.add

    def add_then_interrupt(self, n, results, seconds):
        real_add(self, n, results, seconds)
        raise KeyboardInterrupt

    monkeypatch.setattr(RunStore, "add", add_then_interrupt)
    with RunStore(tmp_path / "c.db", {}) as store:
        with pytest.raises(RunInterrupted) as info:
            run_count(12, jobs=1, checkpoint=store)
        assert info.value.finished == store.stored_units(12) > 0


@pytest.mark.parametrize(
    "args",
    [
        ["table", "\u0663-\u0665"],
        ["table", "\uff18-\uff11\uff10"],
        ["count", "9", "--checkpoint", "c.db", "--recheck", "\u0660"],
        ["count", "9", "--checkpoint", ""],
    ],
)
def test_bad_numbers_and_names_in_one_line(cli, tmp_path, args):
    r = cli(*args, cwd=tmp_path)
    assert_one_line_error(r)
    if args[-1] == "":
        assert r.stderr == "parqueens: error: the checkpoint file name is empty\n"
    assert os.listdir(tmp_path) == []


def test_end_of_input_at_the_prompt_ends_its_line(monkeypatch, capsys):
    # Ctrl-D at `start it? [y/N]`: a no, on a line of its own.
    import sys

    import parqueens.runner as runner
    from parqueens.plan import CountPlan

    monkeypatch.setattr(CountPlan, "estimate", lambda plan: {"seconds": 5e6, "jobs": 2})
    monkeypatch.setattr(runner, "run_plan", lambda plan, **kw: None)
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)
    monkeypatch.setattr(sys, "stdin", _Terminal(""))
    assert main(["count", "19"]) == 1
    assert capsys.readouterr().err.endswith("[y/N] \nparqueens: not started: the answer was no\n")


def test_times_for_people():
    from parqueens.cli.output import format_seconds

    assert [format_seconds(s) for s in (1.25, 600, 7200, 3 * 86400, 4e8, 3e13)] == [
        "1.2 s",
        "10.0 min",
        "2.0 h",
        "3.0 days",
        "12.7 years",
        "951,294 years",
    ]
