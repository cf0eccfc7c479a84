"""The checkpoint's file (:mod:`parqueens.checkpoint_file`): a new file built
aside and published by a hard link (a lost race opens the winner's file, no
hard links: created in place, stale files of dead runs removed), the holder
record of the process writing it and its liveness (a dead process, a reused
process id, another machine), the write-ahead log kept small.  Runs racing
for real in processes: tests/test_checkpoint_sharing.py."""

import json
import os
import socket
import sqlite3
import sys

import pytest

import parqueens.checkpoint_file as checkpoint_file
from parqueens.runner import run_count
from parqueens.store import CheckpointError, CheckpointInUse, RunStore

from naive import A000170

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
