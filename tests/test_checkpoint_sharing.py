"""Runs that meet on one checkpoint file: one run at a time holds a file, a
second is refused in one line naming the holder (exit 2), a hold of a dead
process is taken over, a new file appears complete or not at all, and no
run removes a file.  The races are run for real (processes started
together, killed at random moments); each outcome is checked against the
invariants, whatever the order the processes happened to take.  The file's
creation and its holder record, in one process:
tests/test_checkpoint_file.py."""

import json
import os
import random
import signal
import sqlite3
import time

import pytest

from parqueens.runner import run_count
from parqueens.store import CheckpointError, RunStore

from cli_helpers import popen_cli
from naive import A000170, A002562

IN_USE = "is in use by another parqueens run (process "


def _start(*args, cwd):
    return popen_cli(args, cwd=cwd)


def _finish(p):
    out, err = p.communicate(timeout=120)
    return p.returncode, out, err


def _status(cli, path):
    r = cli("status", path, "--json")
    assert r.returncode == 0, r.stderr
    return {z["n"]: z for z in json.loads(r.stdout)["sizes"]}


# ---------------------------------------------------------------- in-process


def test_refused_claim_changes_nothing(tmp_path):
    path = tmp_path / "c.db"
    with RunStore(path, {"command": "count"}) as s:
        run_count(9, checkpoint=s, split_depth=2)
    before = path.read_bytes()
    with RunStore(path, {"command": "count"}) as s, pytest.raises(CheckpointError):
        s.claim({"method": "plain", "unique": False, "fixed": []})
    assert path.read_bytes() == before


def test_existing_empty_file_is_a_new_checkpoint(cli, tmp_path):
    path = tmp_path / "c.db"
    path.touch()
    r = cli("status", path)
    assert r.returncode == 2 and "is empty: no run has stored anything in it yet" in r.stderr
    r = cli("count", 9, "--checkpoint", path, "--quiet")
    assert (r.returncode, r.stdout) == (0, f"{A000170[9]}\n")
    assert _status(cli, path)[9]["done"]


def test_library_takes_a_checkpoint_path(tmp_path):
    path = tmp_path / "c.db"
    r = run_count(10, checkpoint=str(path), split_depth=2)
    again = run_count(10, checkpoint=path, split_depth=2)
    assert r.total == again.total == A000170[10] and again.resumed == again.units
    with pytest.raises(TypeError, match="checkpoint must be a file path or a parqueens"):
        run_count(10, checkpoint=3)


def test_status_names_the_run_that_holds_the_file(cli, tmp_path):
    path = tmp_path / "c.db"
    with RunStore(path, {"command": "count", "n": [9]}) as s:
        s.claim({"method": "d4", "unique": False, "fixed": []})
        r = cli("status", path)
        assert r.returncode == 0, r.stderr
        assert f"in use by process {os.getpid()} since " in r.stdout
        r = cli("status", path, "--json")
        assert json.loads(r.stdout)["holder"]["pid"] == os.getpid()
    r = cli("status", path, "--json")
    assert json.loads(r.stdout)["holder"] is None


def test_bit_flipped_checksum_names_the_row(cli, tmp_path):
    path = tmp_path / "c.db"
    assert cli("count", 9, "--checkpoint", path, "--quiet").returncode == 0
    db = sqlite3.connect(path)
    with db:  # one byte of one checksum made invalid UTF-8
        db.execute(
            "UPDATE units SET checksum = CAST(X'e1' || substr(checksum, 2) AS TEXT) "
            "WHERE rowid = (SELECT min(rowid) FROM units)"
        )
        uid = db.execute("SELECT unit_id FROM units ORDER BY rowid LIMIT 1").fetchone()[0]
    db.close()
    r = cli("count", 9, "--checkpoint", path)
    assert r.returncode == 2 and len(r.stderr.splitlines()) == 1, r.stderr
    assert f"unit {uid}: the stored result does not match its checksum" in r.stderr
    assert "DELETE FROM units WHERE n = 9 AND unit_id = " in r.stderr
    assert "damaged" not in r.stderr


# ---------------------------------------------------------------- processes


def _check_outcome(code, out, err, total):
    """One of two runs on one file: it ran to the end, or it was refused in
    one line because the other held the file."""
    if code == 0:
        assert out == f"{total}\n", err
    else:
        assert code == 2 and out == "", (code, out, err)
        [line] = err.splitlines()
        assert IN_USE in line, line


def test_two_runs_started_together_on_a_new_file(cli, tmp_path):
    for attempt in range(3):
        d = tmp_path / str(attempt)
        d.mkdir()
        runs = [_start("count", 13, "--checkpoint", "s.db", "--jobs", 1, cwd=d) for _ in range(2)]
        outcomes = [_finish(p) for p in runs]
        for outcome in outcomes:
            _check_outcome(*outcome, A000170[13])
        assert any(code == 0 for code, _, _ in outcomes)
        assert sorted(os.listdir(d)) == ["s.db"], "the file is kept, nothing else is left"
        assert _status(cli, d / "s.db")[13]["total"] == A000170[13]


def test_two_different_commands_started_together_store_no_wrong_number(cli, tmp_path):
    for attempt in range(3):
        d = tmp_path / str(attempt)
        d.mkdir()
        plain = _start("count", 12, "--checkpoint", "r.db", "--method", "plain", cwd=d)
        unique = _start("count", 12, "--checkpoint", "r.db", "--unique", "--quiet", cwd=d)
        (c1, _, e1), (c2, o2, e2) = _finish(plain), _finish(unique)
        assert (c1, c2).count(0) == 1, (e1, e2)  # one ran; the other was refused
        refused = e2 if c1 == 0 else e1
        assert len(refused.splitlines()) == 1 and (
            IN_USE in refused or "belongs to another run" in refused
        ), refused
        size = _status(cli, d / "r.db")[12]
        assert size["total"] == A000170[12]
        if c2 == 0:  # the d4 run: its classes
            assert o2.splitlines()[1] == f"fundamental {A002562[12]}"
            assert size["fundamental"] == A002562[12]
        # Whatever happened, the file serves the command that made it.
        if c2 == 0:
            again = cli("count", 12, "--checkpoint", d / "r.db", "--unique")
            assert again.stdout.splitlines()[0] == f"total {A000170[12]}", again.stderr
        else:
            again = cli("count", 12, "--checkpoint", d / "r.db", "--method", "plain")
            assert again.stdout == f"{A000170[12]}\n", again.stderr


def test_killed_at_any_moment_the_file_resumes(cli, tmp_path):
    rng = random.Random(20)
    # kill moments from 0 to 2 s: before the file exists, while it is made,
    # while units are stored, and (for some) after the run ended
    moments = [0.0, 0.05, 0.15, 0.3, rng.uniform(0.4, 2.0)]
    for k, when in enumerate(moments):
        d = tmp_path / str(k)
        d.mkdir()
        p = _start("count", 15, "--checkpoint", "k.db", "--jobs", 1, cwd=d)
        time.sleep(when)
        p.send_signal(signal.SIGKILL)
        p.communicate(timeout=60)
        r = cli("count", 15, "--checkpoint", d / "k.db", "--quiet")
        assert (r.returncode, r.stdout, r.stderr) == (0, f"{A000170[15]}\n", ""), when
        assert sorted(os.listdir(d)) == ["k.db"], (when, os.listdir(d))


# ---------------------------------------------------------------- walkthrough findings


def _read_only(monkeypatch, path):
    """Make ``path`` read-only as a non-root user sees it (the tests may run as
    root, whom chmod does not stop)."""
    import parqueens.checkpoint_file as checkpoint_file

    real = os.access
    monkeypatch.setattr(
        checkpoint_file.os,
        "access",
        lambda p, mode: False if os.fspath(p) == str(path) else real(p, mode),
    )


def test_read_only_finished_file_answers_with_or_without_classes(cli, tmp_path, monkeypatch):
    for made, asked in (([], ["--unique"]), (["--unique"], [])):
        path = tmp_path / f"r{len(made)}.db"
        assert cli("count", 12, *made, "--checkpoint", path, "-q").returncode == 0
        before = path.read_bytes()
        with monkeypatch.context() as m:
            _read_only(m, path)
            r = cli("count", 12, *asked, "--checkpoint", path, "-q")
            assert r.returncode == 0 and str(A000170[12]) in r.stdout, r.stderr
            if asked:
                assert f"fundamental {A002562[12]}" in r.stdout
        assert path.read_bytes() == before


def test_read_only_file_with_work_left_refused_before_the_table(cli, tmp_path, monkeypatch):
    path = tmp_path / "t.db"
    assert cli("table", "10-12", "--checkpoint", path, "-q").returncode == 0
    _read_only(monkeypatch, path)
    r = cli("table", "10-13", "--checkpoint", path)
    assert (r.returncode, r.stdout) == (2, "")
    assert r.stderr == (
        f"parqueens: error: {path} is read-only; make it writable (chmod u+w) or use another file\n"
    )
    r = cli("table", "10-12", "--checkpoint", path)  # all finished: answered
    assert r.returncode == 0 and "| 12 | 14200 |" in r.stdout


def test_a_reader_open_at_the_end_leaves_the_file_whole(tmp_path):
    # status reading during a run kept the log open, so the run's last
    # units stayed in the -wal file: the holder copies it in when it closes.
    import shutil

    path = tmp_path / "c.db"
    with RunStore(path, {"command": "count"}) as writer:
        run_count(11, checkpoint=writer, split_depth=2, method="d4")  # in the -wal file
        reader = RunStore(path)  # as `status` during the run: it reads the log
        run_count(12, checkpoint=writer, split_depth=2, method="d4")
    try:
        shutil.copy(path, tmp_path / "alone.db")  # the main file, without its -wal
    finally:
        reader.close()
    with RunStore(tmp_path / "alone.db") as alone:
        sizes = alone.summary()
    assert [(s["n"], s["finished"], s["units_done"] == s["units_total"]) for s in sizes] == [
        (11, True, True),
        (12, True, True),
    ]


def test_devices_and_fifos_are_no_checkpoints(cli, tmp_path):
    fifo = tmp_path / "ff"
    os.mkfifo(fifo)
    for path in ("/dev/null", fifo):
        for args in (["count", 9, "--checkpoint", path], ["status", path]):
            r = cli(*args)
            assert r.returncode == 2 and len(r.stderr.splitlines()) == 1, r.stderr
            assert "is not a regular file (a device or FIFO)" in r.stderr
    assert not os.path.exists("/dev/null-journal")


def test_a_table_says_what_it_resumed(cli, tmp_path):
    path = tmp_path / "t.db"
    assert cli("table", "11-12", "--checkpoint", path, "-q").returncode == 0
    r = cli("table", "11-12", "--checkpoint", path, "--recheck", 1)
    assert r.returncode == 0
    assert (
        f"parqueens: n = 12: resumed 52 of 52 units from {path}; searched 52 of them again: "
        "the same results\n"
    ) in r.stderr


def test_the_recheck_searches_in_the_plan_order(tmp_path, monkeypatch):
    import parqueens.runner as runner

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
