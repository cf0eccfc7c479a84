"""Faulty checkpoint files and file systems: each is one clear line naming the
file (exit 2), before any work, and leaves the file as it was.  Damaged and
incomplete files through the command line (in-process, fixture ``cli``);
read-only files and folders, and a full disk, through the library and
``cli.main`` with SQLite failures injected (the tests may run as root, whom
chmod does not stop)."""

import hashlib
import json
import os
import shutil
import sqlite3

import pytest

import parqueens.checkpoint_file as checkpoint_file
from parqueens.cli import main
from parqueens.runner import run_count
from parqueens.store import CheckpointError, RunStore

from cli_helpers import assert_one_line_error
from naive import A000170

ROOT = hasattr(os, "geteuid") and os.geteuid() == 0
needs_non_root = pytest.mark.skipif(ROOT, reason="root can write read-only files and folders")


def _sha256(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def _sql(path, *statements):
    db = sqlite3.connect(path)
    with db:
        for s in statements:
            db.execute(s)
    db.close()


@pytest.fixture(scope="module")
def good(tmp_path_factory):
    """A finished checkpoint of `count 9`, made by the command line."""
    path = tmp_path_factory.mktemp("good") / "c.sqlite"
    assert main(["count", "9", "--checkpoint", str(path), "--quiet"]) == 0
    return path


def _copy_without_wal(d):
    """The main file of a checkpoint whose tables were still in its -wal
    file when it was copied (as an older parqueens created files; a new
    file is now complete before it appears): an SQLite file without tables."""
    src, dst = d / "live.sqlite", d / "cp.sqlite"
    db = sqlite3.connect(src)
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
    shutil.copy(src, dst)  # the table is still only in live.sqlite-wal
    db.close()
    assert dst.stat().st_size > 0
    return dst


def test_copy_of_a_live_checkpoint_without_its_wal_resumes(tmp_path, cli):
    # A new file holds its tables from the start: a copy of the main file
    # alone, made mid-run, is a checkpoint missing only the latest units.
    src, dst = tmp_path / "live.sqlite", tmp_path / "cp.sqlite"
    with RunStore(src, {"command": "count", "n": [10]}) as s:
        assert run_count(9, checkpoint=s, split_depth=2).total == A000170[9]
        shutil.copy(src, dst)  # the units are still in live.sqlite-wal
    r = cli("count", 10, "--checkpoint", dst, "--quiet")
    assert (r.returncode, r.stdout) == (0, f"{A000170[10]}\n"), r.stderr


# case: (SQL applied to a copy of the good file, words the message must hold)
DAMAGE = {
    "no-runs": (["DROP TABLE runs"], ["damaged or not a parqueens checkpoint", "runs"]),
    "no-meta": (["DROP TABLE meta"], ["damaged or not a parqueens checkpoint", "meta"]),
    "no-units": (["DROP TABLE units"], ["damaged or not a parqueens checkpoint", "units"]),
    "no-column": (
        [
            "CREATE TABLE u2 AS SELECT n, unit_id, solutions, s1, s2, s4, s8 FROM units",
            "DROP TABLE units",
            "ALTER TABLE u2 RENAME TO units",
        ],
        ["damaged", "nodes"],
    ),
    "bad-params": (
        ["UPDATE meta SET value = '{x' WHERE key = 'params'"],
        ["damaged or not a parqueens checkpoint", "params", "double quotes"],
    ),
    "params-list": (["UPDATE meta SET value = '[1]' WHERE key = 'params'"], ["damaged", "params"]),
    "no-params": (["DELETE FROM meta WHERE key = 'params'"], ["damaged", "params"]),
    "bad-unit": (
        ["UPDATE units SET s1 = 'abc' WHERE rowid = (SELECT min(rowid) FROM units)"],
        ["damaged or not a parqueens checkpoint", "unit", "not a number"],
    ),
    "null-unit": (
        ["UPDATE units SET nodes = NULL WHERE rowid = (SELECT max(rowid) FROM units)"],
        ["damaged", "not a number"],
    ),
    "bad-total": (["UPDATE runs SET total = '7x'"], ["damaged", "n = 9", "not a number"]),
    "no-wal": (None, ["looks incomplete", "-wal"]),
}


@pytest.mark.parametrize("command", ["status", "count"])
@pytest.mark.parametrize("case", list(DAMAGE))
def test_damaged_file_refused(good, cli, tmp_path, case, command):
    statements, words = DAMAGE[case]
    if statements is None:
        path = _copy_without_wal(tmp_path)
        for extra in tmp_path.glob("live.sqlite*"):
            extra.unlink()
    else:
        path = tmp_path / "cp.sqlite"
        shutil.copy(good, path)
        _sql(path, *statements)
    before = _sha256(path)
    args = (
        ["status", path] if command == "status" else ["count", 9, "--checkpoint", path, "--quiet"]
    )
    r = cli(*args)
    assert_one_line_error(r)
    assert str(path) in r.stderr
    for w in words:
        assert w in r.stderr, r.stderr
    assert "Error:" not in r.stderr  # no Python exception text
    assert _sha256(path) == before
    assert os.listdir(path.parent) == [path.name], "no -wal/-shm files are left"


def test_status_of_text_file_does_not_talk_of_overwriting(tmp_path, cli):
    path = tmp_path / "text.db"
    path.write_text("my notes\n")
    r = cli("status", path)
    assert_one_line_error(r)
    assert "not an SQLite file" in r.stderr and "overwrit" not in r.stderr
    r = cli("count", 9, "--checkpoint", path)
    assert_one_line_error(r)
    assert "refusing to overwrite" in r.stderr
    assert path.read_text() == "my notes\n"


def test_status_of_empty_file(tmp_path):
    path = tmp_path / "empty.db"
    path.touch()
    with pytest.raises(CheckpointError, match="empty.db is empty"):
        RunStore(path)
    assert path.read_bytes() == b"" and os.listdir(tmp_path) == ["empty.db"]


# ------------------------------------------------------------------ reading only


def test_status_creates_no_files(good, tmp_path, cli):
    # Reading a closed checkpoint needs no -shm/-wal files beside it: that is
    # what lets `status` read one in a read-only folder.
    path = tmp_path / "c.sqlite"
    shutil.copy(good, path)
    before = _sha256(path)
    r = cli("status", path)
    assert r.returncode == 0 and f"total {A000170[9]}" in r.stdout, r.stderr
    assert os.listdir(tmp_path) == ["c.sqlite"] and _sha256(path) == before


def test_status_reads_units_of_a_live_run(tmp_path):
    path = tmp_path / "c.sqlite"
    with RunStore(path, {"a": 1}) as writer:  # its units are still in the -wal file
        writer.begin_run(9, 2, 3)
        writer.add(9, [("u1", 4, (0, 0, 0, 4), 10)], 1.5)
        with RunStore(path) as reader:
            [s] = reader.summary()
    assert (s["n"], s["units_done"], s["units"]["u1"]) == (9, 1, (4, (0, 0, 0, 4), 10))


@needs_non_root
def test_status_in_read_only_folder(good, tmp_path, cli):
    d = tmp_path / "ro"
    d.mkdir()
    shutil.copy(good, d / "c.sqlite")
    d.chmod(0o555)
    try:
        r = cli("status", d / "c.sqlite")
    finally:
        d.chmod(0o755)
    assert r.returncode == 0 and f"total {A000170[9]}" in r.stdout, r.stderr
    assert os.listdir(d) == ["c.sqlite"]


@needs_non_root
def test_status_in_read_only_folder_with_pending_wal(tmp_path, cli):
    d = tmp_path / "ro"
    d.mkdir()
    with RunStore(d / "live.sqlite", {"command": "count", "n": [9]}):
        for name in ("c.sqlite", "c.sqlite-wal"):  # copied mid-run, without -shm
            shutil.copy(d / name.replace("c.", "live."), d / name)
    for extra in d.glob("live.sqlite*"):
        extra.unlink()
    d.chmod(0o555)
    try:
        r = cli("status", d / "c.sqlite")
    finally:
        d.chmod(0o755)
    assert_one_line_error(r)
    assert "read-only" in r.stderr and "c.sqlite-wal" in r.stderr


# ------------------------------------------------------------------ read-only file


@needs_non_root
def test_read_only_file_refused_before_work(good, tmp_path, cli):
    path = tmp_path / "c.sqlite"
    shutil.copy(good, path)
    _sql(path, "DELETE FROM units")  # work left to do: it must not start
    path.chmod(0o444)
    before = _sha256(path)
    r = cli("count", 9, "--checkpoint", path)
    assert_one_line_error(r)
    assert f"{path} is read-only" in r.stderr
    assert _sha256(path) == before and os.listdir(tmp_path) == ["c.sqlite"]
    r = cli("status", path)  # reading it is fine
    assert r.returncode == 0, r.stderr


def test_read_only_file_refused_as_root_too(good, cli, tmp_path, monkeypatch):
    # The permission check, as a non-root user sees it: a finished size is
    # answered from the file (nothing to write), one with work left refused
    # before any search, and the file is unchanged either way.
    path = tmp_path / "c.sqlite"
    shutil.copy(good, path)
    real = os.access
    monkeypatch.setattr(
        checkpoint_file.os,
        "access",
        lambda p, mode: False if os.fspath(p) == str(path) else real(p, mode),
    )
    before = _sha256(path)
    r = cli("count", 9, "--checkpoint", path, "--quiet")
    assert (r.returncode, r.stdout, r.stderr) == (0, f"{A000170[9]}\n", "")
    r = cli("count", 9, "--checkpoint", path, "--json")
    assert json.loads(r.stdout)["resumed"] == json.loads(r.stdout)["units"] > 0
    assert _sha256(path) == before and sorted(os.listdir(tmp_path)) == ["c.sqlite"]
    monkeypatch.undo()
    _sql(path, "DELETE FROM units WHERE rowid = (SELECT min(rowid) FROM units)")
    monkeypatch.setattr(
        checkpoint_file.os,
        "access",
        lambda p, mode: False if os.fspath(p) == str(path) else real(p, mode),
    )
    r = cli("count", 9, "--checkpoint", path, "--quiet")
    assert r.returncode == 2
    assert (
        r.stderr == f"parqueens: error: {path} is read-only; make it writable (chmod u+w) "
        f"or use another file\n"
    )


def test_read_only_database_refused_at_open(good, tmp_path, monkeypatch):
    # A file that SQLite can open only for reading (whatever the reason):
    # the write probe at open refuses it, rather than the first save.
    path = tmp_path / "c.sqlite"
    shutil.copy(good, path)
    params = RunStore(path).params
    real = sqlite3.connect
    monkeypatch.setattr(
        checkpoint_file.sqlite3,
        "connect",
        lambda target, **kw: real(target + ("&" if "?" in target else "?") + "mode=ro", **kw),
    )
    with pytest.raises(CheckpointError, match="c.sqlite is read-only"):
        RunStore(path, params)


def test_read_only_shm_named(good, tmp_path, monkeypatch):
    # An -shm file left read-only (e.g. by an old reader) blocks every writer.
    path = tmp_path / "c.sqlite"
    shutil.copy(good, path)
    shm = tmp_path / "c.sqlite-shm"
    shm.write_bytes(b"")
    params = RunStore(path).params
    real = os.access
    monkeypatch.setattr(
        checkpoint_file.os,
        "access",
        lambda p, mode: False if os.fspath(p) == str(shm) else real(p, mode),
    )
    with RunStore(path, params) as s:  # what it holds can be read
        assert s.summary()[0]["finished"]
        with pytest.raises(CheckpointError, match="c.sqlite-shm is read-only"):
            s.begin_run(10, 2, 3)  # the first write is refused


# ------------------------------------------------------------------ full disk


def _failing(sql_start, message, after=0):
    """sqlite3.connect, whose connections fail statements starting with
    sql_start (after that many successes) with an sqlite3 error."""
    real = sqlite3.connect

    class Failing(sqlite3.Connection):
        calls = 0

        def _check(self, sql):
            if sql.startswith(sql_start):
                Failing.calls += 1
                if Failing.calls > after:
                    raise sqlite3.OperationalError(message)

        def execute(self, sql, *args):
            self._check(sql)
            return super().execute(sql, *args)

        def executemany(self, sql, *args):
            self._check(sql)
            return super().executemany(sql, *args)

    return lambda target, **kw: real(target, factory=Failing, **kw)


@pytest.mark.parametrize("message", ["database or disk is full", "disk I/O error"])
@pytest.mark.parametrize("where", ["PRAGMA journal_mode", "CREATE TABLE runs", "COMMIT"])
def test_full_disk_at_create_removes_the_new_file(cli, tmp_path, monkeypatch, message, where):
    monkeypatch.setattr(checkpoint_file.sqlite3, "connect", _failing(where, message))
    monkeypatch.setattr(checkpoint_file, "_free_bytes", lambda folder: 4096)
    path = tmp_path / "c.sqlite"
    r = cli("count", 9, "--checkpoint", path, "--quiet")
    assert_one_line_error(r)
    assert f"{path}: no space left on the disk" in r.stderr and "damaged" not in r.stderr
    assert os.listdir(tmp_path) == [], "the file made by this run is removed"


def test_io_error_with_free_space_is_not_called_full(tmp_path, monkeypatch):
    monkeypatch.setattr(checkpoint_file.sqlite3, "connect", _failing("PRAGMA", "disk I/O error"))
    with pytest.raises(CheckpointError, match=r"cannot create the checkpoint \(disk I/O"):
        RunStore(tmp_path / "c.sqlite", {"a": 1})
    assert os.listdir(tmp_path) == []


def test_full_disk_keeps_an_existing_empty_file(tmp_path, monkeypatch):
    path = tmp_path / "c.sqlite"
    path.touch()  # not made by this call: not ours to remove
    monkeypatch.setattr(
        checkpoint_file.sqlite3, "connect", _failing("BEGIN", "database or disk is full")
    )
    with pytest.raises(CheckpointError, match="no space left"):
        RunStore(path, {"a": 1})
    assert path.exists()


def test_full_disk_mid_run_keeps_saved_units(cli, tmp_path, monkeypatch):
    path = tmp_path / "c.sqlite"
    args = ["count", 12, "--checkpoint", path, "--jobs", 1, "--split-depth", 3, "--quiet"]
    with monkeypatch.context() as m:
        m.setattr(
            checkpoint_file.sqlite3,
            "connect",
            _failing("INSERT OR REPLACE INTO units", "database or disk is full", after=1),
        )
        r = cli(*args)
    assert_one_line_error(r)
    assert f"{path}: no space left on the disk" in r.stderr and "kept" in r.stderr
    with RunStore(path) as s:
        [run] = s.summary()
    assert 0 < run["units_done"] < run["units_total"] and not run["finished"]
    # Space again: the same command resumes and gets the right total.
    r = cli(*args[:-1])
    assert (r.returncode, r.stdout) == (0, f"{A000170[12]}\n")
    assert f"resumed {run['units_done']} of {run['units_total']} units" in r.stderr


def test_library_full_disk_in_add_and_finish(tmp_path, monkeypatch):
    path = tmp_path / "c.sqlite"
    with monkeypatch.context() as m:
        m.setattr(
            checkpoint_file.sqlite3, "connect", _failing("UPDATE runs", "database or disk is full")
        )
        with RunStore(path, {"a": 1}) as s:
            s.begin_run(30, 2, 3)
            with pytest.raises(CheckpointError, match="no space left.*kept"):
                s.add(30, [("u", 1, (0, 0, 0, 1), 1)], 0.1)
            assert not s.db.in_transaction
            with pytest.raises(CheckpointError, match="no space left"):
                s.finish_run(30, 1)
    # The failed chunk was rolled back as a whole, and the file still works.
    with RunStore(path) as s:
        assert s.summary()[0]["units_done"] == 0
    with RunStore(path, {"a": 1}) as s:
        assert run_count(9, checkpoint=s, split_depth=2).total == A000170[9]
