"""Shared by the tests that look inside checkpoint files: SQL on a file, its
digest, its rows' checksums made valid again after an edit, and the units
that a run in another process has stored so far."""

import hashlib
import os
import sqlite3
import time


def sql(path, *statements):
    """Run each statement in one transaction; returns each one's rows."""
    db = sqlite3.connect(path)
    with db:
        rows = [db.execute(s).fetchall() for s in statements]
    db.close()
    return rows


def sha256(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def stored_units(path):
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


def wait_for_units(proc, path, at_least=1, deadline=60):
    """Wait until the run ``proc`` has stored ``at_least`` units in ``path``;
    returns the units stored then.  Fails if the run ends first or the
    deadline passes."""
    end = time.monotonic() + deadline
    while time.monotonic() < end:
        stored = stored_units(path)
        if stored >= at_least:
            return stored
        if proc.poll() is not None:
            raise AssertionError(
                f"the run ended (exit {proc.returncode}) before {at_least} units "
                f"were stored: {proc.stderr.read()}"
            )
        time.sleep(0.01)
    raise AssertionError(f"no {at_least} units stored in {path} within {deadline} s")


def reseal(path):
    """Give every row of the checkpoint at ``path`` (format 3) the checksum
    that parqueens would store with it: a file edited with its checksums,
    as a faulty machine writes one."""
    from parqueens.run.store import _run_checksum, unit_checksum

    db = sqlite3.connect(path)
    with db:
        [[version]] = db.execute("SELECT value FROM meta WHERE key = 'version'").fetchall()
        units = db.execute(
            "SELECT n, unit_id, solutions, s1, s2, s4, s8, nodes, origin FROM units"
        ).fetchall()
        for n, uid, s, s1, s2, s4, s8, nodes, origin in units:
            by_stab = tuple(int(x) for x in (s1, s2, s4, s8))
            checksum = unit_checksum(n, uid, int(s), by_stab, int(nodes), origin, version)
            db.execute(
                "UPDATE units SET checksum = ? WHERE n = ? AND unit_id = ?", (checksum, n, uid)
            )
        runs = db.execute(
            "SELECT n, split_depth, units_total, classified, finished, total, fundamental, "
            "method FROM runs"
        ).fetchall()
        for row in runs:
            checksum = _run_checksum(*row, version=version)
            db.execute("UPDATE runs SET checksum = ? WHERE n = ?", (checksum, row[0]))
    db.close()
