"""The run store: an SQLite checkpoint of finished work units.

A checkpoint file records the parameters of the command that created it and
the result of every finished work unit, keyed by the unit's stable id.
Running the same command again with the same file skips the finished units;
the final numbers are identical to an uninterrupted run because the merge is
an exact sum.  A file made by other parameters, by another parqueens version,
or that is not a parqueens checkpoint at all, is refused
(:class:`CheckpointError`) and left untouched.

The database is in WAL mode and each finished chunk of units is one
transaction, so a killed run loses at most the chunks in flight.

Schema: ``meta(key, value)`` holds ``format``, ``version`` and ``params``
(JSON); ``runs(n, split_depth, units_total, seconds, finished, total, fundamental)``
one row per board size; ``units(n, unit_id, solutions, s1, s2, s4, s8, nodes)`` one row
per finished unit, counts as decimal text (exact beyond 64 bits).
"""

import json
import os
import sqlite3
import time

from . import __version__

FORMAT = "parqueens-checkpoint-1"


class CheckpointError(Exception):
    """A checkpoint that cannot be used: reported in one line, exit code 2."""


class RunStore:
    """An open checkpoint file.

    Parameters
    ----------
    path : str or os.PathLike
        The SQLite file; created if missing (its folder must exist).
    params : dict or None
        The command's parameters (JSON-serialisable).  A new file records
        them; an existing file must have been made with equal parameters.
        None opens an existing file read-only for :meth:`summary`.

    Raises
    ------
    CheckpointError
        The file is not a parqueens checkpoint, is damaged, was written by
        another parqueens version, or by other parameters; or it cannot be
        created.  Nothing in the file is changed then.
    """

    def __init__(self, path, params=None):
        self.path = os.fspath(path)
        exists = os.path.exists(self.path)
        if params is None and not exists:
            raise CheckpointError(f"{self.path}: no such checkpoint file")
        if exists and os.path.isdir(self.path):
            raise CheckpointError(f"{self.path} is a folder, not a checkpoint file")
        if exists and os.path.getsize(self.path) > 0:
            self._check_header()
        try:
            uri = "file:" + _quote(self.path) + ("?mode=ro" if params is None else "")
            self.db = sqlite3.connect(uri, uri=True, isolation_level=None, timeout=30)
        except sqlite3.Error as exc:
            raise CheckpointError(f"{self.path}: cannot open checkpoint ({exc})") from None
        try:
            if exists and os.path.getsize(self.path) > 0:
                self._open_existing(params)
            else:
                self._create(params)
        except sqlite3.DatabaseError as exc:
            self.db.close()
            raise CheckpointError(f"{self.path}: damaged or not a parqueens checkpoint "
                                  f"({exc})") from None
        except CheckpointError:
            self.db.close()
            raise

    def _check_header(self):
        with open(self.path, "rb") as f:
            head = f.read(16)
        if head != b"SQLite format 3\x00":
            raise CheckpointError(f"{self.path} is not a parqueens checkpoint (not an "
                                  f"SQLite file); refusing to overwrite it")

    def _create(self, params):
        db = self.db
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("BEGIN")
        db.execute("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
        db.execute("CREATE TABLE runs (n INTEGER PRIMARY KEY, split_depth INTEGER, "
                   "units_total INTEGER, seconds REAL NOT NULL DEFAULT 0, "
                   "finished INTEGER NOT NULL DEFAULT 0, total TEXT, fundamental TEXT)")
        db.execute("CREATE TABLE units (n INTEGER NOT NULL, unit_id TEXT NOT NULL, "
                   "solutions TEXT NOT NULL, s1 TEXT, s2 TEXT, s4 TEXT, s8 TEXT, "
                   "nodes TEXT, PRIMARY KEY (n, unit_id))")
        db.executemany("INSERT INTO meta VALUES (?, ?)",
                       [("format", FORMAT), ("version", __version__),
                        ("params", json.dumps(params, sort_keys=True)),
                        ("created", time.strftime("%Y-%m-%d %H:%M:%S"))])
        db.execute("COMMIT")
        self.params = params

    def _open_existing(self, params):
        meta = dict(self.db.execute("SELECT key, value FROM meta").fetchall())
        if meta.get("format") != FORMAT:
            raise CheckpointError(f"{self.path} is not a parqueens checkpoint")
        if meta.get("version") != __version__:
            raise CheckpointError(f"{self.path} was written by parqueens "
                                  f"{meta.get('version')}, this is {__version__}; "
                                  f"finish it with that version or start a new file")
        stored = json.loads(meta["params"])
        if params is not None and stored != params:
            diff = ", ".join(f"{k}: {stored.get(k)!r} there, {params.get(k)!r} now"
                             for k in sorted(set(stored) | set(params))
                             if stored.get(k) != params.get(k))
            raise CheckpointError(f"{self.path} belongs to another run ({diff}); "
                                  f"use another file or the same parameters")
        self.db.execute("SELECT count(*) FROM units").fetchone()  # detects damage early
        self.params = stored

    def run_depth(self, n):
        """The split depth recorded for board size n, or None."""
        row = self.db.execute("SELECT split_depth FROM runs WHERE n = ?", (n,)).fetchone()
        return None if row is None else row[0]

    def begin_run(self, n, split_depth, units_total):
        """Record (or check) the run of board size n; returns finished units.

        Returns ``{unit_id: (solutions, (s1, s2, s4, s8), nodes)}``.
        Raises :class:`CheckpointError` if the file's run of n used another
        split depth or unit count.
        """
        row = self.db.execute("SELECT split_depth, units_total FROM runs WHERE n = ?",
                              (n,)).fetchone()
        if row is None:
            self.db.execute("INSERT INTO runs (n, split_depth, units_total) VALUES (?, ?, ?)",
                            (n, split_depth, units_total))
        elif tuple(row) != (split_depth, units_total):
            raise CheckpointError(f"{self.path}: n = {n} was split at depth {row[0]} into "
                                  f"{row[1]} units, not {split_depth} into {units_total}")
        done = {}
        for uid, s, a, b, c, d, k in self.db.execute(
                "SELECT unit_id, solutions, s1, s2, s4, s8, nodes FROM units WHERE n = ?",
                (n,)):
            done[uid] = (int(s), (int(a), int(b), int(c), int(d)), int(k))
        return done

    def add(self, n, results, seconds):
        """Store finished units in one transaction.

        ``results``: iterable of ``(unit_id, solutions, by_stab, nodes)``;
        ``seconds``: wall time spent on them, added to the run's total.
        """
        rows = [(n, uid, str(s), *(str(x) for x in b), str(k)) for uid, s, b, k in results]
        self.db.execute("BEGIN IMMEDIATE")
        try:
            self.db.executemany("INSERT OR REPLACE INTO units VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                                rows)
            self.db.execute("UPDATE runs SET seconds = seconds + ? WHERE n = ?", (seconds, n))
            self.db.execute("COMMIT")
        except BaseException:
            # Ctrl-C may land before or after COMMIT: undo only an open
            # transaction, and let the interrupt itself propagate.
            if self.db.in_transaction:
                try:
                    self.db.execute("ROLLBACK")
                except sqlite3.Error:
                    pass
            raise

    def finish_run(self, n, total, fundamental=None):
        """Mark the run of n complete, with its final counts (ints)."""
        self.db.execute("UPDATE runs SET finished = 1, total = ?, fundamental = ? WHERE n = ?",
                        (str(total), None if fundamental is None else str(fundamental), n))

    def summary(self):
        """Per board size, a dict: ``n``, ``split_depth``, ``units_total``,
        ``units_done``, ``seconds`` (of work stored), ``finished``, the final
        ``total`` and ``fundamental`` (None until finished), and ``units``
        (``{unit_id: (solutions, by_stab, nodes)}``)."""
        out = []
        for n, depth, total_units, seconds, finished, total, fund in self.db.execute(
                "SELECT n, split_depth, units_total, seconds, finished, total, fundamental "
                "FROM runs ORDER BY n"):
            rows = self.db.execute("SELECT unit_id, solutions, s1, s2, s4, s8, nodes FROM units "
                                   "WHERE n = ?", (n,)).fetchall()
            out.append({"n": n, "split_depth": depth, "units_total": total_units,
                        "units_done": len(rows), "seconds": seconds,
                        "finished": bool(finished),
                        "total": None if total is None else int(total),
                        "fundamental": None if fund is None else int(fund),
                        "units": {r[0]: (int(r[1]), tuple(int(x) for x in r[2:6]), int(r[6]))
                                  for r in rows}})
        return out

    def close(self):
        self.db.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def _quote(path):
    from urllib.parse import quote
    return quote(os.path.abspath(path))
