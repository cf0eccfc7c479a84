"""The run store (parqueens.run.store): checkpoints that refuse another run's work
and serve every command of their own; checksums on every stored row (an
edited, truncated or bit-flipped row is refused with the unit named, with
the command that removes it); faulty files and file systems, each one clear
line naming the file (exit 2), before any work, leaving the file as it was.
Damaged files through the command line (in-process, fixture ``cli``);
read-only files and folders, and a full disk, through the library and
``cli.main`` with SQLite failures injected (the tests may run as root, whom
chmod does not stop)."""

import json
import os
import shutil
import sqlite3

import pytest

import parqueens.run.checkpoint_file as checkpoint_file
from parqueens.run.runner import run_count
from parqueens.run.store import CheckpointError, RunStore

from checkpoint_helpers import sha256, sql
from cli_helpers import assert_one_line_error
from naive import A000170, A002562

ROOT = hasattr(os, "geteuid") and os.geteuid() == 0
needs_non_root = pytest.mark.skipif(ROOT, reason="root can write read-only files and folders")


@pytest.fixture
def good(real_checkpoints):
    """A finished checkpoint of `count 9`, made by the command line (not to
    be changed: the tests copy it)."""
    return real_checkpoints / "count9.sqlite"


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
        sql(path, *statements)
    before = sha256(path)
    args = (
        ["status", path] if command == "status" else ["count", 9, "--checkpoint", path, "--quiet"]
    )
    r = cli(*args)
    assert_one_line_error(r)
    assert str(path) in r.stderr
    for w in words:
        assert w in r.stderr, r.stderr
    assert "Error:" not in r.stderr  # no Python exception text
    assert sha256(path) == before
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
    before = sha256(path)
    r = cli("status", path)
    assert r.returncode == 0 and f"total {A000170[9]}" in r.stdout, r.stderr
    assert os.listdir(tmp_path) == ["c.sqlite"] and sha256(path) == before


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
    sql(path, "DELETE FROM units")  # work left to do: it must not start
    path.chmod(0o444)
    before = sha256(path)
    r = cli("count", 9, "--checkpoint", path)
    assert_one_line_error(r)
    assert f"{path} is read-only" in r.stderr
    assert sha256(path) == before and os.listdir(tmp_path) == ["c.sqlite"]
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
    before = sha256(path)
    r = cli("count", 9, "--checkpoint", path, "--quiet")
    assert (r.returncode, r.stdout, r.stderr) == (0, f"{A000170[9]}\n", "")
    r = cli("count", 9, "--checkpoint", path, "--json")
    assert json.loads(r.stdout)["resumed"] == json.loads(r.stdout)["units"] > 0
    assert sha256(path) == before and sorted(os.listdir(tmp_path)) == ["c.sqlite"]
    monkeypatch.undo()
    sql(path, "DELETE FROM units WHERE rowid = (SELECT min(rowid) FROM units)")
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


def test_read_only_database_read_at_open_and_refused_at_first_write(good, tmp_path, monkeypatch):
    # A file that SQLite can open only for reading (whatever the reason):
    # the write probe at open finds it, the file answers what it holds, and
    # its first write is refused, before any search.
    path = tmp_path / "c.sqlite"
    shutil.copy(good, path)
    params = RunStore(path).params
    real = sqlite3.connect
    monkeypatch.setattr(
        checkpoint_file.sqlite3,
        "connect",
        lambda target, **kw: real(target + ("&" if "?" in target else "?") + "mode=ro", **kw),
    )
    with RunStore(path, params) as s:
        assert s.summary()[0]["finished"]
        with pytest.raises(CheckpointError, match="c.sqlite is read-only"):
            s.begin_run(10, 2, 3)


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


@pytest.mark.parametrize("message", ["database or disk is full", "disk I/O error"])
def test_full_disk_finished_checkpoint_answers_read_only(good, cli, tmp_path, monkeypatch, message):
    # A full disk: SQLite cannot open the file to write (its -shm index
    # cannot grow), but a finished count needs no write: it is answered from
    # the file, read-only; a size with work left is refused before any search.
    path = tmp_path / "c.sqlite"
    shutil.copy(good, path)
    before = sha256(path)
    monkeypatch.setattr(checkpoint_file.sqlite3, "connect", _failing("BEGIN", message))
    monkeypatch.setattr(checkpoint_file, "_free_bytes", lambda folder: 0)
    for extra in (["--recheck", 0], [], ["--unique"]):
        r = cli("count", 9, "--checkpoint", path, "--quiet", *extra)
        assert (r.returncode, r.stderr) == (0, ""), r.stderr
        assert str(A000170[9]) in r.stdout
    r = cli("count", 10, "--checkpoint", path)
    assert (r.returncode, r.stdout) == (2, "")
    assert r.stderr == (
        f"parqueens: error: {path}: no space left on the disk, cannot write the checkpoint "
        f"({message})\n"
    )
    assert sha256(path) == before


def test_full_disk_on_an_unreadable_file_says_open(good, tmp_path, monkeypatch):
    # Reading it fails too: the error of opening it to write, as before.
    path = tmp_path / "c.sqlite"
    shutil.copy(good, path)
    params = RunStore(path).params
    monkeypatch.setattr(checkpoint_file.sqlite3, "connect", _failing("", "disk I/O error"))
    monkeypatch.setattr(checkpoint_file, "_free_bytes", lambda folder: 0)
    with pytest.raises(CheckpointError) as info:
        RunStore(path, params)
    assert str(info.value) == (
        f"{path}: no space left on the disk, cannot open the checkpoint (disk I/O error)"
    )


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


@pytest.fixture
def finished(real_checkpoints, tmp_path):
    """A finished `count 11` checkpoint (a copy), and one of its units with
    10 solutions or more: (id, solutions as stored)."""
    path = tmp_path / "e.db"
    shutil.copy(real_checkpoints / "count11.sqlite", path)
    [[unit]] = sql(
        path,
        "SELECT unit_id, solutions FROM units WHERE length(solutions) > 1 ORDER BY unit_id LIMIT 1",
    )
    return path, unit


def _refused(cli, path, unit_id):
    for args in (["count", 11, "--checkpoint", path], ["status", path]):
        r = cli(*args)
        assert_one_line_error(r)
        assert unit_id in r.stderr and "checksum" in r.stderr, r.stderr
        assert str(A000170[11] + 8) not in r.stdout


def test_edited_row_refused(cli, finished):
    # The case: one class count raised by one (the total would read 2688).
    path, (uid, _) = finished
    sql(path, f"UPDATE units SET s1 = s1 + 1 WHERE unit_id = '{uid}'")
    _refused(cli, path, uid)


def test_truncated_row_refused(cli, finished):
    # A count cut short: still a decimal number, so only the checksum can tell.
    path, (uid, _) = finished
    cut = "substr(solutions, 1, length(solutions) - 1)"
    sql(path, f"UPDATE units SET solutions = {cut} WHERE unit_id = '{uid}'")
    _refused(cli, path, uid)


def test_bit_flipped_row_refused(cli, finished):
    # One bit of the file flipped inside a stored count: its last digit stays
    # a digit (bit 0 of an ASCII digit), so only the checksum can tell.
    path, (uid, solutions) = finished
    raw = bytearray(path.read_bytes())
    at = raw.find(uid.encode() + solutions.encode())
    assert at > 0 and raw.find(uid.encode() + solutions.encode(), at + 1) < 0
    raw[at + len(uid) + len(solutions) - 1] ^= 1
    path.write_bytes(bytes(raw))
    _refused(cli, path, uid)


def test_run_record_checked(cli, finished):
    path, _ = finished
    sql(path, f"UPDATE runs SET total = '{A000170[11] + 8}'")
    r = cli("status", path)
    assert_one_line_error(r)
    assert "n = 11" in r.stderr and "checksum" in r.stderr


def test_older_format_refused(cli, finished):
    path, _ = finished
    sql(path, "UPDATE meta SET value = 'parqueens-checkpoint-1' WHERE key = 'format'")
    r = cli("count", 11, "--checkpoint", path)
    assert_one_line_error(r)
    assert "older checkpoint format" in r.stderr


def test_library_and_command_line_share_checkpoints(cli, tmp_path):
    path = tmp_path / "lib.db"
    with RunStore(path, {}) as store:
        run_count(12, checkpoint=store)
    r = cli("count", 12, "--checkpoint", path, "--json")
    assert r.returncode == 0, r.stderr
    import json

    d = json.loads(r.stdout)
    assert d["total"] == A000170[12] and d["resumed"] == d["units"]
    r = cli("status", path)
    assert r.returncode == 0 and "n = 12 (join): " in r.stdout and "done: total 14200" in r.stdout
    with RunStore(path, {}) as store:  # and back: the command line's units
        assert run_count(13, checkpoint=store).total == A000170[13]


def test_status_merges_the_units_and_checks_the_records(cli, finished):
    path, (uid, _) = finished
    sql(path, f"DELETE FROM units WHERE unit_id = '{uid}'")
    r = cli("status", path)
    assert r.returncode == 0 and "done" not in r.stdout and "total so far" in r.stdout
    sql(path, "UPDATE runs SET seconds = 'abc'")
    r = cli("status", path)
    assert_one_line_error(r)
    assert "no valid work time" in r.stderr and "DELETE FROM runs WHERE n = 11" in r.stderr


def test_hints_are_commands_to_type(cli, tmp_path):
    # the path quoted for a shell, the SQL in double quotes, on one line
    folder = tmp_path / "my runs"
    folder.mkdir()
    path = folder / "e.db"
    assert cli("count", 11, "--checkpoint", path).returncode == 0
    [[(uid,)]] = sql(path, "SELECT unit_id FROM units LIMIT 1")
    sql(path, f"UPDATE units SET s1 = s1 + 1 WHERE unit_id = '{uid}'")
    r = cli("count", 11, "--checkpoint", path)
    assert_one_line_error(r)
    assert f"sqlite3 '{path}' \"DELETE FROM units WHERE n = 11 AND unit_id = '{uid}'\"" in r.stderr


def test_status_of_units_without_their_size_record(cli, finished):
    path, _ = finished
    sql(path, "DELETE FROM runs WHERE n = 11")
    r = cli("status", path)
    assert r.returncode == 0
    assert "n = 11: " in r.stdout and "units stored, without the size's record" in r.stdout
    r = cli("count", 11, "--checkpoint", path, "--json")
    assert r.returncode == 0 and '"resumed": 0' not in r.stdout  # resumed, not searched again


def test_library_refuses_other_params(tmp_path):
    from parqueens.run.store import CheckpointError

    path = tmp_path / "c.sqlite"
    with RunStore(path, {"a": 1}) as store:
        run_count(9, checkpoint=store)
    before = sha256(path)
    with pytest.raises(CheckpointError):
        RunStore(path, {"a": 2})
    assert sha256(path) == before


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
    before = sorted(os.listdir(path)) if path.is_dir() else sha256(path)
    r = cli(*args, "--checkpoint", path, "--quiet")
    assert_one_line_error(r)
    if path.is_dir():
        assert sorted(os.listdir(path)) == before
        assert (path / "inside.txt").read_text() == "x"
    else:
        assert sha256(path) == before, "a refused checkpoint must not be modified"
    assert os.path.basename(path) in r.stderr


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


def _read_only(monkeypatch, path):
    """Make ``path`` read-only as a non-root user sees it (the tests may run as
    root, whom chmod does not stop)."""
    import parqueens.run.checkpoint_file as checkpoint_file

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


# ---------------------------------------------------------------- versions

DATA = os.path.join(os.path.dirname(__file__), "data")


@pytest.mark.parametrize("method", ["d4", "join"])
def test_a_file_of_parqueens_0_2_0_resumes_exactly_in_its_own_format(cli, tmp_path, method):
    # Made by 0.2.0 itself (tests/data/make_checkpoints_0_2_0.py): n = 12
    # interrupted after half its units; 0.3 finishes it with the exact
    # counts and writes its rows the 0.2.0 way, which 0.2.0 can still read.
    path = tmp_path / "old.db"
    shutil.copy(os.path.join(DATA, f"checkpoint-0.2.0-{method}-n12.db"), path)
    r = cli("count", 12, "--unique", "--checkpoint", path)
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines()[:2] == [f"total {A000170[12]}", f"fundamental {A002562[12]}"]
    assert "resumed 26 of 52 units" in r.stderr or "resumed 252 of 504 units" in r.stderr
    [[fmt, version]] = sql(
        path,
        "SELECT (SELECT value FROM meta WHERE key = 'format'), "
        "(SELECT value FROM meta WHERE key = 'version')",
    )[0]
    assert (fmt, version) == ("parqueens-checkpoint-2", "0.2.0")
    [[columns]] = sql(path, "SELECT group_concat(name) FROM pragma_table_info('units')")[0]
    assert "origin" not in columns
    r = cli("status", path)
    assert r.returncode == 0 and f"done: total {A000170[12]}" in r.stdout


def test_which_versions_read_which_files(cli, tmp_path):
    from parqueens.names import VERSION
    from parqueens.run.store import FORMAT, READS

    assert VERSION == "0.3.0" and FORMAT == "parqueens-checkpoint-3"
    assert READS == {"parqueens-checkpoint-2": ("0.2.0",), FORMAT: ("0.3.0",)}
    path = tmp_path / "new.db"
    assert cli("count", 9, "--checkpoint", path, "-q").returncode == 0
    assert sql(path, "SELECT value FROM meta WHERE key IN ('format', 'version') ORDER BY key")[
        0
    ] == [(FORMAT,), ("0.3.0",)]
    # A file of another version (0.2.1, or a 0.3 format made by 0.2.0) is refused.
    for fmt, version in (("parqueens-checkpoint-2", "0.2.1"), (FORMAT, "0.2.0")):
        other = tmp_path / f"{version}.db"
        shutil.copy(path, other)
        sql(
            other,
            f"UPDATE meta SET value = '{fmt}' WHERE key = 'format'",
            f"UPDATE meta SET value = '{version}' WHERE key = 'version'",
        )
        r = cli("count", 9, "--checkpoint", other)
        assert_one_line_error(r)
        assert f"was written by parqueens {version}, this is 0.3.0" in r.stderr


def test_the_method_that_counted_a_size_resumes_it(cli, tmp_path):
    # n = 3 is below the join: the default counts it by plain, and a file of
    # the default's run serves `--method plain` (and d4, which is plain at
    # n = 3) for that size; another method, or another size, is another run.
    path = tmp_path / "three.db"
    assert cli("count", 3, "--checkpoint", path, "-q").stdout == "0\n"
    for method in ("plain", "d4"):
        r = cli("count", 3, "--method", method, "--checkpoint", path)
        assert (r.returncode, r.stdout) == (0, "0\n"), r.stderr
        assert "resumed 2 of 2 units" in r.stderr
    assert json.loads(cli("status", path, "--json").stdout)["sizes"][0]["method"] == "plain"
    for args in (["count", 3, "--method", "mirror"], ["count", 4, "--method", "plain"]):
        r = cli(*args, "--checkpoint", path)
        assert_one_line_error(r)
        assert "belongs to another run (method: 'join' there, " in r.stderr


def test_fixed_queens_on_a_d4_file_are_another_run(cli, tmp_path):
    # The file's d4 is not kept for a run with fixed queens (which d4 cannot
    # take): the refusal names the other run, as on a file of the default.
    path = tmp_path / "d.db"
    assert cli("count", 9, "--method", "d4", "--checkpoint", path, "-q").returncode == 0
    r = cli("count", 9, "--fixed", "0:0", "--checkpoint", path)
    assert_one_line_error(r)
    assert "belongs to another run (fixed: none there, 0:0 (from 0) now, method: 'd4' there" in (
        r.stderr
    )


def test_full_disk_after_the_new_file_is_published_says_open(tmp_path, monkeypatch):
    # The file was created whole (its tables published); opening it to
    # write failed: not "cannot create", and the file stays a checkpoint.
    monkeypatch.setattr(
        checkpoint_file.sqlite3, "connect", _failing("PRAGMA wal_autocheckpoint", "disk I/O error")
    )
    monkeypatch.setattr(checkpoint_file, "_free_bytes", lambda folder: 4096)
    path = tmp_path / "c.sqlite"
    with pytest.raises(CheckpointError) as info:
        RunStore(path, {"a": 1})
    assert str(info.value) == (
        f"{path}: no space left on the disk, cannot open the checkpoint (disk I/O error)"
    )
    monkeypatch.undo()
    with RunStore(path) as store:
        assert store.params == {"a": 1}


def test_a_read_only_mount_is_not_told_to_chmod(cli, tmp_path, monkeypatch):
    path = tmp_path / "m.db"
    assert cli("count", 10, "--checkpoint", path, "-q").returncode == 0
    sql(path, "DELETE FROM units WHERE rowid = 1")  # work left: a write is needed
    _read_only(monkeypatch, path)
    real = os.statvfs

    class ReadOnlyMount:
        def __init__(self, where):
            self.f_flag = real(where).f_flag | os.ST_RDONLY

    monkeypatch.setattr(checkpoint_file.os, "statvfs", ReadOnlyMount)
    r = cli("count", 10, "--checkpoint", path)
    assert_one_line_error(r)
    assert r.stderr == (
        f"parqueens: error: {path} is on a read-only file system; copy it to a writable one "
        f"or use another file\n"
    )
