"""The checkpoint's file (:mod:`parqueens.run.checkpoint_file`): a new file built
aside and published by a hard link (a lost race opens the winner's file, no
hard links: created in place, stale files of dead runs removed), the holder
record of the process writing it and its liveness (a dead process, a reused
process id, another machine), the write-ahead log kept small.

Runs that meet on one file: one run at a time holds it, a second is refused
in one line naming the holder (exit 2), a new file appears complete or not
at all, and no run removes a file.  The races are run for real (processes
started together, killed at random moments); each outcome is checked
against the invariants, whatever the order the processes happened to take."""

import json
import os
import random
import signal
import socket
import sqlite3
import sys
import time

import pytest

import parqueens.run.checkpoint_file as checkpoint_file
from parqueens.run.runner import run_count
from parqueens.run.store import CheckpointError, CheckpointInUse, RunStore

from cli_helpers import popen_cli
from naive import A000170, A002562

IN_USE = "is in use by another parqueens run (process "
DEAD_PID = 2**22 + 4321  # above the usual pid_max: no such process


# ---------------------------------------------------------------- the holder record


def test_holder_liveness():
    me = checkpoint_file._holder_record()
    assert me["pid"] == os.getpid() and me["host"] == socket.gethostname()
    # This process: alive while one of its stores holds the token.
    assert not checkpoint_file._holder_alive(me)
    checkpoint_file._HOLDS.add(me["token"])
    try:
        assert checkpoint_file._holder_alive(me)
    finally:
        checkpoint_file._HOLDS.discard(me["token"])
    parent = os.getppid()
    started = checkpoint_file._started(parent)
    assert checkpoint_file._holder_alive(me | {"pid": parent, "started": started})
    # The id of a live process that started at another time: a reused id.
    assert not checkpoint_file._holder_alive(me | {"pid": parent, "started": started - 60})
    assert not checkpoint_file._holder_alive(me | {"pid": DEAD_PID})
    assert not checkpoint_file._holder_alive(me | {"pid": "7"})
    # Another machine's process cannot be seen: alive.
    assert checkpoint_file._holder_alive(me | {"host": "node-7", "pid": DEAD_PID})


def test_holder_names_the_command_in_at_most_200_characters(monkeypatch):
    monkeypatch.setattr(sys, "argv", ["/usr/local/bin/parqueens", "count", "18", "--quiet"])
    assert checkpoint_file._command_line() == "parqueens count 18 --quiet"
    monkeypatch.setattr(sys, "argv", ["/x/__main__.py", "table", "4-30", "--out", "t " * 150])
    text = checkpoint_file._command_line()
    assert len(text) == 200 and text.startswith("parqueens table 4-30 --out 't t ")
    assert text.endswith("...")


def test_sqlite_command_is_one_shell_line():
    sql = "DELETE FROM units WHERE n = 9\nAND unit_id = 'd4/9/0'"
    assert checkpoint_file.sqlite_command("/data/my runs/c.db", sql) == (
        "sqlite3 '/data/my runs/c.db' \"DELETE FROM units WHERE n = 9 AND unit_id = 'd4/9/0'\""
    )


# ---------------------------------------------------------------- holding a file


def test_second_store_on_a_held_file_is_refused(tmp_path):
    path = tmp_path / "c.db"
    with RunStore(path, {"command": "count"}) as first:
        first.claim({"method": "d4", "unique": False, "fixed": []})
        with RunStore(path, {"command": "count"}) as second:
            with pytest.raises(CheckpointInUse) as info:
                second.claim({"method": "d4", "unique": False, "fixed": []})
            holder = second.holder()
        assert holder["pid"] == os.getpid() and holder["command"]
        assert str(info.value).startswith(f"{path} {IN_USE}{os.getpid()}, since ")
        assert str(info.value).endswith("wait for it to finish, or use another file")
    # Closed: the hold is given up, and the next run takes the file.
    with RunStore(path, {"command": "count"}) as third:
        assert third.holder() is None
        assert run_count(9, checkpoint=third, split_depth=2).total == A000170[9]


def test_hold_of_a_dead_process_is_taken_over(tmp_path):
    path = tmp_path / "c.db"
    with RunStore(path, {"command": "count"}) as s:
        s.begin_run(30, 2, 3)  # a write: this store holds the file
    dead = {
        "pid": DEAD_PID,
        "started": 1.0,
        "host": socket.gethostname(),
        "token": "x",
        "command": "parqueens count 9",
        "since": "2026-01-01 00:00:00",
    }
    db = sqlite3.connect(path)
    with db:
        db.execute("INSERT OR REPLACE INTO meta VALUES ('holder', ?)", (json.dumps(dead),))
    db.close()
    with RunStore(path) as reader:
        assert reader.holder() is None  # its process is gone
    with RunStore(path, {"command": "count"}) as s:
        assert run_count(9, checkpoint=s, split_depth=2).total == A000170[9]


def test_hold_of_a_reused_process_id_is_taken_over(tmp_path):
    # The id of a live process (this one) started at another time: another
    # process, long gone, had that id.
    path = tmp_path / "c.db"
    with RunStore(path, {"command": "count"}) as s:
        s.begin_run(30, 2, 3)
    record = checkpoint_file._holder_record() | {"started": 1.0, "token": "old"}
    db = sqlite3.connect(path)
    with db:
        db.execute("INSERT OR REPLACE INTO meta VALUES ('holder', ?)", (json.dumps(record),))
    db.close()
    with RunStore(path, {"command": "count"}) as s:
        s.claim({"method": "d4", "unique": False, "fixed": []})


def test_holder_on_another_machine_is_named_with_the_way_out(tmp_path):
    path = tmp_path / "c.db"
    with RunStore(path, {"command": "count"}) as s:
        s.begin_run(30, 2, 3)
    other = checkpoint_file._holder_record() | {"host": "node-7"}
    db = sqlite3.connect(path)
    with db:
        db.execute("INSERT OR REPLACE INTO meta VALUES ('holder', ?)", (json.dumps(other),))
    db.close()
    with RunStore(path, {"command": "count"}) as s, pytest.raises(CheckpointInUse) as info:
        s.claim({"method": "d4", "unique": False, "fixed": []})
    text = str(info.value)
    assert " on node-7, since " in text and "DELETE FROM meta WHERE key = 'holder'" in text
    assert "\n" not in text


# ---------------------------------------------------------------- creating a file


def test_creation_race_lost_opens_the_winners_file(tmp_path, monkeypatch):
    # Another run publishes the file between our look and our link: ours is
    # dropped, theirs is opened, and nothing is removed.
    path = tmp_path / "c.db"
    winner = tmp_path / "winner.db"
    with RunStore(winner, {"command": "count", "by": "winner"}):
        pass
    real_link = os.link

    def link_after_another(src, dst):
        os.replace(winner, dst)  # the other run's file appears
        return real_link(src, dst)  # FileExistsError, as in a real race

    monkeypatch.setattr(checkpoint_file.os, "link", link_after_another)
    with pytest.raises(CheckpointError, match="belongs to another run .by: 'winner' there"):
        RunStore(path, {"command": "count", "by": "loser"})
    with RunStore(path) as s:
        assert s.params["by"] == "winner"
    assert sorted(os.listdir(tmp_path)) == ["c.db"]


def test_no_hard_links_creates_in_place(tmp_path, monkeypatch):
    def no_links(src, dst):
        raise OSError(1, "Operation not permitted")

    monkeypatch.setattr(checkpoint_file.os, "link", no_links)
    path = tmp_path / "c.db"
    with RunStore(path, {"command": "count"}) as s:
        assert run_count(9, checkpoint=s, split_depth=2).total == A000170[9]
    assert sorted(os.listdir(tmp_path)) == ["c.db"]


def test_stale_creation_file_of_a_dead_run_is_removed(tmp_path):
    dead = tmp_path / f".c.db.{DEAD_PID}.abcd.creating"
    live = tmp_path / f".c.db.{os.getpid()}.abcd.creating"
    for path in (dead, live):
        for extra in ("", "-journal"):  # a kill in its transaction leaves its journal
            path.with_name(path.name + extra).write_bytes(b"partial")
    with RunStore(tmp_path / "c.db", {"command": "count"}):
        pass
    assert sorted(os.listdir(tmp_path)) == sorted([live.name, live.name + "-journal", "c.db"])


def test_write_ahead_log_stays_small(tmp_path):
    # SQLite's default lets the -wal file grow to about 4 MB before it is
    # copied into the database; the store copies it every 64 pages.
    path = tmp_path / "c.db"
    peak = 0
    with RunStore(path, {"command": "table"}) as s:
        s.begin_run(30, 5, 20000)
        for k in range(100):
            s.add(30, [(f"u{k}-{i}", i, (0, 0, 0, i), i) for i in range(100)], 0.01)
            peak = max(peak, os.path.getsize(f"{path}-wal"))
    assert peak < 600_000, peak


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
        # Refused while the other held the file, or after it finished there
        # (the plain run's units hold no classes for --unique).
        assert len(refused.splitlines()) == 1 and (
            IN_USE in refused
            or "belongs to another run" in refused
            or "hold no symmetry classes" in refused
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


# ---------------------------------------------------------------- names SQLite uses


@pytest.mark.parametrize("suffix", ["-wal", "-shm", "-journal"])
def test_a_checkpoint_named_like_sqlites_side_files_is_refused(cli, tmp_path, suffix):
    from checkpoint_helpers import sha256

    side = tmp_path / f"runs.db{suffix}"
    r = cli("count", 5, "--checkpoint", side)
    assert r.returncode == 2 and r.stdout == ""
    assert r.stderr == (
        f"parqueens: error: {side}: a checkpoint's name cannot end in {suffix} (SQLite keeps "
        f"its own files named so beside {tmp_path / 'runs.db'}, and would remove it); "
        f"choose another name\n"
    )
    assert os.listdir(tmp_path) == []
    # One made under another name and renamed so (by an earlier version, by
    # hand): X is refused while X-wal is a checkpoint, and X-wal is kept.
    RunStore(tmp_path / "made.db", {"command": "count"}).close()
    os.rename(tmp_path / "made.db", side)
    before = sha256(side)
    runs = tmp_path / "runs.db"
    for args in (["count", 5, "--checkpoint", runs], ["status", runs]):
        r = cli(*args)
        assert r.returncode == 2 and r.stdout == "" and r.stderr.count("\n") == 1
        assert f"{side} is a parqueens checkpoint, which SQLite would take as runs.db's" in r.stderr
    with pytest.raises(CheckpointError, match="rename it to a name that does not end in"):
        RunStore(tmp_path / "runs.db", {"command": "count"})
    assert sha256(side) == before and sorted(os.listdir(tmp_path)) == [side.name]
    # status still reads the file itself.
    assert cli("status", side).returncode == 2  # holds no run yet, but it is read
    assert sha256(side) == before


def test_a_side_files_name_in_capitals_is_refused_too(cli, tmp_path):
    # a file system that ignores case (macOS, Windows) takes runs.db-WAL for runs.db-wal
    r = cli("count", 5, "--checkpoint", tmp_path / "runs.db-WAL")
    assert r.returncode == 2 and r.stdout == "" and os.listdir(tmp_path) == []
    assert "a checkpoint's name cannot end in -WAL (SQLite keeps" in r.stderr


def test_a_killed_holder_not_yet_reaped_holds_nothing(tmp_path):
    # A batch driver that kills a run (p.kill()) and starts the next before
    # p.wait(): the killed run is a zombie, which is dead.
    import subprocess

    import psutil

    path = tmp_path / "z.db"
    identity = {"method": "join", "unique": False, "fixed": []}
    code = (
        "import sys, time; from parqueens.run.store import RunStore; "
        f"s = RunStore(sys.argv[1], {{'command': 'count'}}); s.claim({identity!r}); "
        "print('held', flush=True); time.sleep(60)"
    )
    p = subprocess.Popen([sys.executable, "-c", code, str(path)], stdout=subprocess.PIPE, text=True)
    try:
        assert p.stdout.readline() == "held\n"
        os.kill(p.pid, signal.SIGKILL)
        deadline = time.monotonic() + 10
        while psutil.Process(p.pid).status() != psutil.STATUS_ZOMBIE:
            assert time.monotonic() < deadline
            time.sleep(0.01)
        with RunStore(path, {"command": "count"}) as store:
            assert store.holder() is None
            store.claim(identity)  # taken over, not "in use by another parqueens run"
            assert store.holder()["pid"] == os.getpid()
    finally:
        p.kill()
        p.wait()


# ---------------------------------------------------------------- one file, two names


def _integrity(path):
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        return db.execute("PRAGMA integrity_check").fetchone()[0]
    finally:
        db.close()


def test_a_file_with_a_second_name_is_refused_for_a_run_and_read_by_status(cli, tmp_path):
    # SQLite keeps the write-ahead log beside the name it opened: a run through
    # a hard link could not see the hold taken through the other name.
    a, b = tmp_path / "a.db", tmp_path / "b.db"
    run_count(9, checkpoint=a)
    os.link(a, b)
    for name in (a, b):
        with pytest.raises(CheckpointError, match=r"has 2 names \(hard links to one file\)"):
            RunStore(name, {"command": "count"})
        r = cli("count", 10, "--checkpoint", name)
        assert r.returncode == 2 and r.stdout == "" and len(r.stderr.splitlines()) == 1
        assert "find / -samefile" in r.stderr
    assert cli("status", b).returncode == 0  # reading needs no hold
    os.remove(b)
    assert run_count(10, checkpoint=a).total == A000170[10]


def test_a_second_name_made_while_a_run_holds_the_file_never_lets_two_write(tmp_path):
    # Many tries of the race: a run starts on a.db, a.db gets a second name
    # as soon as it exists, a second run starts through it.  At most one run
    # writes; the file stays whole and what it holds is exact.
    for attempt in range(3):
        a, b = tmp_path / f"a{attempt}.db", tmp_path / f"b{attempt}.db"
        first = popen_cli(["count", 13, "--checkpoint", a, "--jobs", 1])
        deadline = time.monotonic() + 60
        while not a.exists():
            assert time.monotonic() < deadline and first.poll() is None
            time.sleep(0.001)
        os.link(a, b)
        second = popen_cli(["count", 13, "--checkpoint", b, "--jobs", 1])
        outs = [p.communicate(timeout=120) for p in (first, second)]
        codes = [first.returncode, second.returncode]
        assert second.returncode == 2 and "has 2 names" in outs[1][1], outs[1]
        assert codes[0] == 2 or outs[0][0].strip() == str(A000170[13]), outs[0]
        assert _integrity(a) == "ok"
        os.remove(b)
        if codes[0] == 0:  # what it stored answers again, exact
            assert run_count(13, checkpoint=a).total == A000170[13]
