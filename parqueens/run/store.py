"""The run store: an SQLite checkpoint of finished work units.

A checkpoint file records the parameters of the command that created it and
the result of every finished work unit, keyed by the unit's stable id.
Running the same command again with the same file skips the finished units;
the final numbers are identical to an uninterrupted run because the merge is
an exact sum.  A file made by other parameters, by another parqueens version,
or that is not a parqueens checkpoint at all, is refused
(:class:`CheckpointError`) and left untouched.

The database is in WAL mode and each finished chunk of units is one
transaction, so a killed run loses at most the chunks in flight.  How a
file is created, opened and held by one run at a time, and SQLite's
failures reported: :mod:`parqueens.run.checkpoint_file`.

Schema: ``meta(key, value)`` holds ``format``, ``version``, ``params``
(JSON: the command's parameters) and ``run`` (JSON: the identity of the
run, see :meth:`RunStore.claim`); ``runs(n, split_depth, units_total,
classified, seconds, finished, total, fundamental, method, checksum)`` one
row per board size (``method``: the method that counted it);
``units(n, unit_id, solutions, s1, s2, s4, s8, nodes, origin, checksum)``
one row per finished unit, counts as decimal text (exact beyond 64 bits);
``solutions`` is the unit's share of the total (for ``d4``, its classes
each weighed by its orbit size; for ``mirror`` before its weight 2);
``sK`` counts the unit's canonical classes whose stabiliser has K
elements; ``origin`` names the process that computed the unit (host and
process id, a Dask worker's on a cluster) and the run that stored it.

Formats (:data:`READS`): 3 is written by parqueens 0.3; 2 was written by
0.2.0 (no ``method`` and ``origin``; a ``d4`` unit's ``solutions`` were
the solutions its search found), and is read and resumed in its own
format, so that 0.2.0 can still finish such a file.

Every row carries a checksum (BLAKE2b, 128 bits) over its board size, its
unit id or split, its counts and the parqueens version, checked whenever
the row is read: an edited, truncated or bit-flipped row is refused, with
the unit named, and never merged.  The columns of a unit are checked
against each other too (:func:`unit_problem`).  A checksum cannot tell a
wrong result computed by a faulty machine, which the run stores with a
valid checksum: :func:`parqueens.run.runner.run_count` recomputes a sample
of the stored units on resume for that (``recheck``), and the sums of a
size are checked by invariants (:func:`parqueens.run.tally.classes`).
"""

import contextlib
import hashlib
import json
import os
import sqlite3
import time
from dataclasses import dataclass

from ..names import ORBIT_SIZES
from ..names import VERSION as __version__
from .checkpoint_file import (
    CheckpointError,
    CheckpointFile,
    CheckpointInUse,
    sqlite_command,
    worker_name,
)
from .method import find_method

__all__ = [
    "FORMAT",
    "CheckpointError",
    "CheckpointInUse",
    "ResultMismatch",
    "RunStore",
    "forget_unit_hint",
    "unit_checksum",
]

FORMAT = "parqueens-checkpoint-3"

#: The formats this version reads, and the parqueens versions that write
#: each: a file of another version is refused.  Format 2 (0.2.0) is
#: resumed in its own format (its rows keep 0.2.0's checksums).
READS = {"parqueens-checkpoint-2": ("0.2.0",), FORMAT: (__version__,)}


class ResultMismatch(CheckpointError):
    """A stored result found wrong though its checksum holds: a unit searched
    again gave another result, or the counts of a size read from the file
    do not add up."""


#: Earlier formats, refused with their own message (1: rows without checksums).
_OLD_FORMATS = ("parqueens-checkpoint-1",)

# A unit's classes by stabiliser size 1, 2, 4, 8 (``by_stab``, see
# parqueens.names.ORBIT_SIZES): one column each.
_STAB = ", ".join(f"s{8 // size}" for size in ORBIT_SIZES)

# The columns every checkpoint must have; checked when a file is opened, so
# that a damaged file is refused before any work rather than in the middle.
_COLUMNS = {
    "meta": "key, value",
    "runs": "n, split_depth, units_total, classified, seconds, finished, total, fundamental, "
    "method, checksum",
    "units": f"n, unit_id, solutions, {_STAB}, nodes, origin, checksum",
}

#: Format 2's columns: no ``method`` of a size, no ``origin`` of a unit.
_COLUMNS_2 = {
    "meta": "key, value",
    "runs": "n, split_depth, units_total, classified, seconds, finished, total, fundamental, "
    "NULL, checksum",
    "units": f"n, unit_id, solutions, {_STAB}, nodes, NULL, checksum",
}

#: The versions whose rows have format 2's checksums.
_VERSIONS_2 = READS["parqueens-checkpoint-2"]


def _checksum(version, *fields):
    """The checksum of a row: BLAKE2b (128 bits, hex) over the parqueens
    version that wrote the file and the row's fields (ints, strings or
    None) as text."""
    text = "\x1f".join([version, *("" if f is None else str(f) for f in fields)])
    return hashlib.blake2b(text.encode(), digest_size=16).hexdigest()


def unit_checksum(n, unit_id, solutions, by_stab, nodes, origin=None, version=__version__):
    """The checksum stored with a unit's result (see the module docstring),
    in a file of parqueens ``version``."""
    more = () if version in _VERSIONS_2 else (origin,)
    return _checksum(version, "unit", n, unit_id, solutions, *by_stab, nodes, *more)


def unit_problem(method, classified, solutions, by_stab, nodes, version=__version__):
    """What makes a unit's stored columns disagree with each other (a str),
    or None: a ``d4`` unit's solutions are its classes weighed by their
    orbit sizes (format 3); a ``join`` unit has no classes and no nodes; a
    unit of a size counted without the classes (``classified`` False) has
    none.  ``method``: the unit's (its id begins with it)."""
    counter = find_method(method)
    if counter is None:
        return None
    return counter.unit_problem(classified, solutions, by_stab, nodes, version not in _VERSIONS_2)


def forget_unit_hint(path, n, unit_id):
    """How to drop one stored unit so that a resume searches it again."""
    sql = f"DELETE FROM units WHERE n = {int(n)} AND unit_id = '{unit_id}'"
    return (
        f"delete it ({sqlite_command(os.fspath(path), sql)}) and resume to search "
        f"it again, or start a new file"
    )


def _run_checksum(*fields, version=__version__):
    """The checksum of a size's record: ``fields`` are ``n, split_depth,
    units_total, classified, finished, total, fundamental[, method]`` (not
    the seconds, which each stored chunk adds to); ``version``: the file's."""
    n, split_depth, units_total, classified, finished, total, fundamental = fields[:7]
    method = fields[7] if len(fields) > 7 else None
    more = () if version in _VERSIONS_2 else (method,)
    fields = (split_depth, units_total, int(bool(classified)), int(bool(finished)))
    return _checksum(version, "run", n, *fields, total, fundamental, *more)


@dataclass(frozen=True)
class _Run:
    """A checked row of ``runs``: the record of one board size."""

    n: int
    split_depth: int
    units_total: int
    classified: bool  # its units hold their symmetry classes (d4, or --unique)
    seconds: float
    finished: bool
    total: int | None = None
    fundamental: int | None = None
    method: str | None = None  # the method that counted it (None in a 0.2.0 file)


class RunStore(CheckpointFile):
    """An open checkpoint file: the runs of the board sizes and their
    finished units (see the module docstring).

    Created, opened and held as :mod:`parqueens.run.checkpoint_file` says: one
    run at a time writes a file (its *holder*, from its first write or
    :meth:`claim` until :meth:`close`), and a second run on a file held by
    a live process is refused (:class:`CheckpointInUse`), naming that
    process; a new file appears complete or not at all.  Reading
    (``params`` None: ``status``) needs no hold.

    Parameters
    ----------
    path : str or os.PathLike
        The SQLite file; created if missing (its folder must exist).
    params : dict or None
        The command's parameters (JSON-serialisable).  A new file records
        them; an existing file must have been made with equal parameters
        (but for those checked per run and size, see :meth:`claim`).  None
        opens an existing file read-only for :meth:`summary` (also in a
        read-only folder).

    A file that cannot be written (read-only) is opened for reading even
    with ``params``: a run whose sizes are all finished there is answered
    from it; the first write it would need raises :class:`CheckpointError`
    ("read-only"), before any search (see :meth:`begin_run`).

    Raises
    ------
    CheckpointError
        The path is empty or a folder; the file is not a parqueens
        checkpoint, is damaged or incomplete, was written by another
        parqueens version or by other parameters; it is locked, or cannot
        be created (no space left, no such folder...).  Nothing in an
        existing file is changed then.
    CheckpointInUse
        Another live process holds the file (a :class:`CheckpointError`).
    """

    def _init_schema(self, params):
        """Create the tables and record the parameters, in one transaction."""
        db = self.db
        db.execute("BEGIN IMMEDIATE")
        try:
            db.execute("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
            db.execute(
                "CREATE TABLE runs (n INTEGER PRIMARY KEY, split_depth INTEGER, "
                "units_total INTEGER, classified INTEGER NOT NULL, "
                "seconds REAL NOT NULL DEFAULT 0, finished INTEGER NOT NULL DEFAULT 0, "
                "total TEXT, fundamental TEXT, method TEXT, checksum TEXT NOT NULL)"
            )
            stab = _STAB.replace(",", " TEXT,")
            db.execute(
                f"CREATE TABLE units (n INTEGER NOT NULL, unit_id TEXT NOT NULL, "
                f"solutions TEXT NOT NULL, {stab} TEXT, nodes TEXT, origin TEXT, "
                f"checksum TEXT NOT NULL, PRIMARY KEY (n, unit_id))"
            )
            db.executemany(
                "INSERT INTO meta VALUES (?, ?)",
                [
                    ("format", FORMAT),
                    ("version", __version__),
                    ("params", json.dumps(params, sort_keys=True)),
                    ("created", time.strftime("%Y-%m-%d %H:%M:%S")),
                ],
            )
            db.execute("COMMIT")
        except BaseException:
            if db.in_transaction:
                with contextlib.suppress(sqlite3.Error):
                    db.execute("ROLLBACK")
            raise

    def _open_existing(self, params):
        tables = {
            r[0] for r in self.db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
        }
        if not tables:
            # The first tables of a new file live in its -wal file until SQLite
            # copies them over: a copy made mid-run without it looks empty.
            raise CheckpointError(
                f"{self.path} looks incomplete: it has no tables (was it "
                f"copied without its -wal file while a run was writing it?)"
            )
        missing = sorted(set(_COLUMNS) - tables)
        if missing:
            raise self._damaged(f"no table {', '.join(missing)}")
        meta = dict(self.db.execute("SELECT key, value FROM meta").fetchall())
        if meta.get("format") in _OLD_FORMATS:
            raise CheckpointError(
                f"{self.path} is in an older checkpoint format (its rows have no "
                f"checksums), written by parqueens {meta.get('version')}; finish it "
                f"with that version or start a new file"
            )
        if meta.get("format") not in READS:
            raise CheckpointError(f"{self.path} is not a parqueens checkpoint")
        if meta.get("version") not in READS[meta["format"]]:
            if not meta.get("version"):
                raise self._damaged("no parqueens version recorded")
            raise CheckpointError(
                f"{self.path} was written by parqueens "
                f"{meta['version']}, this is {__version__}; "
                f"finish it with that version or start a new file"
            )
        #: The parqueens version whose rows the file holds (0.2.0: format 2).
        self.version = meta["version"]
        self._columns = _COLUMNS if meta["format"] == FORMAT else _COLUMNS_2
        try:
            stored = json.loads(meta["params"])
        except (KeyError, TypeError, ValueError) as exc:
            raise self._damaged(f"params: {exc}") from None
        if not isinstance(stored, dict):
            raise self._damaged(f"params: not a JSON object: {meta['params'][:40]}")
        if params is not None:
            self._check_params(stored, params)
        for table, columns in self._columns.items():  # "no such column" is damage too
            self.db.execute(f"SELECT {columns} FROM {table} LIMIT 0")
        # SQLite's own check of every page (a flipped bit in an index page
        # is found by no query that reads the table alone): milliseconds.
        problem = self.db.execute("PRAGMA quick_check(1)").fetchone()[0]
        if problem != "ok":
            raise self._damaged(f"SQLite: {problem}")
        # Every count must be decimal text (int() of it cannot fail later);
        # this one scan also reads every page of units, finding corruption.
        counts = " AND ".join(map(_decimal, ("solutions", *_STAB.split(", "), "nodes")))
        bad = self.db.execute(
            f"SELECT n, unit_id FROM units WHERE NOT coalesce({counts}, 0) LIMIT 1"
        ).fetchone()
        if bad:
            raise self._damaged(
                f"n = {bad[0]}, unit {bad[1]}: a count is not a number; "
                f"{forget_unit_hint(self.path, bad[0], bad[1])}"
            )
        bad = self.db.execute(
            f"SELECT n FROM runs WHERE NOT (total IS NULL OR "
            f"{_decimal('total')}) OR NOT (fundamental IS NULL OR "
            f"{_decimal('fundamental')}) LIMIT 1"
        ).fetchone()
        if bad:
            raise self._damaged(f"n = {bad[0]}: the total is not a number")
        self.params = stored

    def claim(self, identity, counts=None):
        """Take this file for the run ``identity`` (a dict, see
        :func:`parqueens.run.plan.run_identity`): in one transaction, check
        that no other live process holds the file, that it belongs to this
        run (the first run to claim a file records its identity), and hold
        it until :meth:`close`.  A refused claim changes nothing.
        ``counts``: ``(n, method)``, the size this run counts and the method
        that counts it: a size that method counted in the file is its to
        resume, whatever method the file's run names (``count 3`` by the
        default, plain at n = 3, resumed by ``count 3 --method plain``).

        Raises :class:`CheckpointInUse` if another live process holds it;
        :class:`CheckpointError` if the file's run differs in method or
        fixed queens (the message names each difference), or it cannot be
        written.  ``unique`` is checked per size (:meth:`begin_run`): one
        file serves counts with and without it where its units allow.
        """
        if self.readonly:
            raise CheckpointError(
                f"{self.path} was opened for reading only (params None); "
                f"open it with parameters to run with it"
            )
        if self.read_only_file:  # nothing can change it: checked only
            self._check_identity(self.identity(), identity, counts)
            return
        with self._transaction():
            self._take_hold()
            self._check_identity(self.identity(), identity, counts)

    def check_identity(self, identity, counts=None):
        """Refuse a file that belongs to another run than ``identity`` (see
        :meth:`claim`, and its ``counts``), reading only; a file without a
        run takes any.

        Raises :class:`CheckpointError`."""
        stored = self.identity()
        if stored is None and set(identity) <= set(self.params):
            stored = {k: self.params[k] for k in identity}
        if stored is not None:
            self._check_params(stored, identity, skip=self._per_size(counts))

    def _per_size(self, counts):
        """The identity's keys checked per size (``unique``; ``method`` where
        the size of ``counts`` was counted in the file by its method)."""
        if counts is not None and self.unit_method(counts[0]) == counts[1]:
            return {"unique", "method"}
        return {"unique"}

    def _check_identity(self, stored, identity, counts=None):
        if stored is None and set(identity) <= set(self.params):
            # made by the command line, whose parameters name the run
            stored = {k: self.params[k] for k in identity}
        if stored is None:
            self._writable()
            self.db.execute(
                "INSERT INTO meta VALUES ('run', ?)", (json.dumps(identity, sort_keys=True),)
            )
            return
        self._check_params(stored, identity, skip=self._per_size(counts))

    def identity(self):
        """The identity of the run recorded by :meth:`claim` (a dict:
        ``method``, ``unique`` of the first run, ``fixed``), or None."""
        with self._sqlite_errors("read"):
            row = self.db.execute("SELECT value FROM meta WHERE key = 'run'").fetchone()
        try:
            return None if row is None else json.loads(row[0])
        except ValueError as exc:
            raise self._damaged(f"run: {exc}") from None

    def recorded_method(self):
        """The method of the run this file belongs to (its identity, or the
        parameters of the command that made it), or None if none is
        recorded yet."""
        stored = self.identity()
        method = (stored or self.params).get("method")
        return method if isinstance(method, str) else None

    def check_can_run(self, n, units_total=None):
        """Refuse, before any search or output, a run of n that would have to
        write to a read-only file: n not finished there (``units_total``,
        if given, the units a run of n splits into).  Raises
        :class:`CheckpointError` ("read-only")."""
        if not self.read_only_file:
            return
        rows = self._runs(n)
        if not rows or not rows[0].finished or len(self._units(n)) < rows[0].units_total:
            self._writable()

    def unit_method(self, n):
        """The method that counted n in the file: as recorded with the size,
        else the one its stored units' ids begin with; None if neither."""
        runs = self._runs(n)
        if runs and runs[0].method:
            return runs[0].method
        with self._sqlite_errors("read"):
            row = self.db.execute("SELECT unit_id FROM units WHERE n = ? LIMIT 1", (n,)).fetchone()
        return row[0].split("/", 1)[0] if row else None

    def check_method(self, n, method):
        """Refuse a run of n by ``method`` when the units of n stored in the
        file were counted by another method (their ids begin with it), e.g.
        a size counted by the join, asked again with a split depth, which
        only the search methods have.

        Raises :class:`CheckpointError`."""
        stored = self.unit_method(n)
        if stored is not None and stored != method:
            raise CheckpointError(
                f"{self.path}: n = {n} was counted there by {stored}, not {method}; use the "
                f"same method (without split_depth or nodes=True, which ask for a search, if it "
                f"is the join) or another file"
            )

    def check_depth(self, n, split_depth):
        """Refuse a split depth for n other than the one recorded in the file
        (a run recorded without work units, depth 0, has none to refuse).

        Raises :class:`CheckpointError`."""
        stored = self.run_depth(n)
        if stored and stored != split_depth:
            raise CheckpointError(
                f"{self.path}: n = {n} was split at depth {stored} there, "
                f"not {split_depth}; leave out the split depth "
                f"(split_depth) to resume it"
            )

    def _runs(self, n=None):
        """The checked records of the board sizes (of n only, if given), by n:
        a list of :class:`_Run`."""
        where, args = ("WHERE n = ?", (n,)) if n is not None else ("", ())
        with self._sqlite_errors("read"):
            rows = self.db.execute(
                f"SELECT {self._columns['runs']} FROM runs {where} ORDER BY n", args
            ).fetchall()
        out = []
        for row in rows:
            n_, depth, units_total, classified, seconds, finished, total, fund, method = row[:9]
            sealed = _run_checksum(*row[:4], *row[5:9], version=self.version)  # not the seconds
            bad = row[9] != sealed
            if bad or not isinstance(seconds, (int, float)) or not 0 <= seconds < 1e12:
                what = "does not match its checksum" if bad else "has no valid work time"
                sql = f"DELETE FROM runs WHERE n = {int(n_)}"
                raise CheckpointError(
                    f"{self.path}: the record of n = {n_} {what} (the file was edited or is "
                    f"corrupted); delete it ({sqlite_command(os.fspath(self.path), sql)}) "
                    f"to count n = {n_} again, resuming the units stored, or start a new file"
                )
            total = None if total is None else int(total)
            fund = None if fund is None else int(fund)
            flags = (bool(classified), seconds, bool(finished))
            run = _Run(n_, depth, units_total, *flags, total, fund, method)
            out.append(run)
        return out

    def run_depth(self, n):
        """The split depth recorded for board size n, or None.

        Raises :class:`CheckpointError` if the file cannot be read or the
        record of n fails its checksum."""
        rows = self._runs(n)
        return rows[0].split_depth if rows else None

    def work_seconds(self, n):
        """The wall time stored with the chunks of board size n, in seconds,
        over every run of it (0.0 if none).

        Raises :class:`CheckpointError` if the file cannot be read."""
        rows = self._runs(n)
        return float(rows[0].seconds) if rows else 0.0

    def begin_run(self, n, split_depth, units_total, classified=True, method=None):
        """Record (or check) the run of board size n; returns finished units.

        ``classified``: the run needs each unit's symmetry classes (``d4``,
        or ``unique``): a size stored without them is refused for it (a
        size stored with them serves any run).  ``method``: the method that
        counts n, recorded with it (format 3).

        Returns ``{unit_id: (solutions, by_stab, nodes)}``.
        Raises :class:`CheckpointError` if the file's run of n used another
        split depth or unit count, lacks the classes asked for, if a stored
        unit is damaged, or if the file cannot be written (e.g. no space
        left; a read-only file whose run of n is not finished, before any
        search).
        """
        self.check_depth(n, split_depth)
        rows = self._runs(n)
        if not rows:
            self._writable()
            if self._columns is _COLUMNS_2:
                method = None  # a 0.2.0 file: no such column
            fields = (n, split_depth, units_total, classified, 0, None, None, method)
            checksum = _run_checksum(*fields, version=self.version)
            columns = "n, split_depth, units_total, classified, checksum"
            values = [n, split_depth, units_total, int(bool(classified)), checksum]
            if self._columns is _COLUMNS:
                columns, values = columns + ", method", [*values, method]
            with self._sqlite_errors("save"):
                self.db.execute(
                    f"INSERT INTO runs ({columns}) VALUES ({', '.join('?' * len(values))})",
                    values,
                )
        elif rows[0].units_total != units_total:
            raise CheckpointError(
                f"{self.path}: n = {n} was split into {rows[0].units_total} units there, "
                f"not {units_total}"
            )
        self.check_classified(n, classified)
        units = self._units(n)
        if len(units) < units_total or (rows and not rows[0].finished):
            self._writable()  # units left to store: refused before they are searched
        return units

    def check_size(self, n):
        """Read the record and the units of board size n (if any), checking
        their checksums.  Returns ``(units_total, classified, units)``:
        the record's (None, None if n has none) and the stored units, as
        :meth:`begin_run` returns them.  Raises :class:`CheckpointError`."""
        runs = self._runs(n)
        units = self._units(n)
        return (runs[0].units_total, runs[0].classified, units) if runs else (None, None, units)

    def check_classified(self, n, classified):
        """Refuse a run of n that needs the units' symmetry classes
        (``classified``) when the file counted n without them.

        Raises :class:`CheckpointError`."""
        rows = self._runs(n)
        if classified and rows and not rows[0].classified:
            raise CheckpointError(
                f"{self.path}: n = {n} was counted there without unique=True, and its units "
                f"(plain or mirror) then hold no symmetry classes; use another file, or "
                f"leave out unique=True"
            )

    def stored_units(self, n):
        """How many units of n are stored (checked), with or without the size's record."""
        return len(self._units(n))

    def _units(self, n, origins=False):
        """The stored units of n: ``{unit_id: (solutions, by_stab, nodes)}``
        (``origins``: ``{unit_id: origin}``), each checked against its
        checksum and its columns against each other (:func:`unit_problem`);
        a 0.2.0 ``d4`` unit's solutions are taken from its classes."""
        columns = self._columns["units"].split(", ", 2)[2]  # from solutions on
        with self._sqlite_errors("read"):
            rows = self.db.execute(
                f"SELECT unit_id, {columns} FROM units WHERE n = ?", (n,)
            ).fetchall()
        runs = self._runs(n)
        classified = runs[0].classified if runs else None
        units, where = {}, {}
        for uid, solutions, *counts in rows:
            by_stab, nodes, origin = tuple(int(x) for x in counts[:4]), int(counts[4]), counts[5]
            solutions = int(solutions)
            if counts[6] != unit_checksum(n, uid, solutions, by_stab, nodes, origin, self.version):
                raise CheckpointError(
                    f"{self.path}: n = {n}, unit {uid}: the stored result does not match "
                    f"its checksum (the file was edited or is corrupted); it is not used: "
                    f"{forget_unit_hint(self.path, n, uid)}"
                )
            method = uid.split("/", 1)[0]
            problem = unit_problem(method, classified, solutions, by_stab, nodes, self.version)
            if problem:
                raise ResultMismatch(
                    f"{self.path}: n = {n}, unit {uid}: the stored result does not add up "
                    f"({problem}), though its checksum holds (a faulty machine, or a file "
                    f"edited with its checksums); it is not used: "
                    f"{forget_unit_hint(self.path, n, uid)}"
                )
            counter = find_method(method)
            if counter and counter.weighs_classes and self.version in _VERSIONS_2:
                # found, not its share
                solutions = sum(size * c for size, c in zip(ORBIT_SIZES, by_stab, strict=True))
            units[uid], where[uid] = (solutions, by_stab, nodes), origin
        self._origins = (n, where)  # for unit_origins, right after a resume read them
        return where if origins else units

    def run_origin(self):
        """The origin this run gives the units it computes itself (see
        :meth:`add`), or None before it holds the file."""
        if self._holder is None:
            return None
        return f"{worker_name()} run {self._holder['token']}"

    def unit_origins(self, n):
        """Where each stored unit of n was computed: ``{unit_id: origin}``,
        the origin a str (``HOST/PID run RUN``: the process that computed
        it and the run that stored it) or None (a 0.2.0 file).  Checked as
        the units are (:class:`CheckpointError`)."""
        cached = getattr(self, "_origins", None)
        if cached is not None and cached[0] == n and not self.db.in_transaction:
            stored = self.db.execute("SELECT count(*) FROM units WHERE n = ?", (n,)).fetchone()
            if stored[0] == len(cached[1]):
                return cached[1]
        return self._units(n, origins=True)

    def add(self, n, results, seconds):
        """Store finished units in one transaction.

        ``results``: iterable of ``(unit_id, solutions, by_stab, nodes[,
        worker])``, ``worker`` the ``HOST/PID`` of the process that computed
        the unit (None or left out: this one), recorded as its origin with this
        run's id; ``seconds``: wall time spent on them, added to the run's
        total.  Raises :class:`CheckpointError` if they cannot be saved
        (e.g. no space left); the units saved before are kept.
        """
        self._writable()
        run = (self._holder or {}).get("token", "")
        version, rows = self.version, []
        for uid, s, b, k, *worker in results:
            origin = f"{worker and worker[0] or worker_name()} run {run}"
            row = (n, uid, str(s), *(str(x) for x in b), str(k))
            if self._columns is _COLUMNS_2:
                rows.append((*row, unit_checksum(n, uid, s, b, k, None, version)))
            else:
                rows.append((*row, origin, unit_checksum(n, uid, s, b, k, origin, version)))
        with self._transaction():
            if rows:
                marks = ", ".join("?" * len(rows[0]))
                self.db.executemany(f"INSERT OR REPLACE INTO units VALUES ({marks})", rows)
            self.db.execute("UPDATE runs SET seconds = seconds + ? WHERE n = ?", (seconds, n))

    def wrong_result(self, n, what):
        """A :class:`ResultMismatch` for counts of n read from this file that
        do not add up (``what`` says how)."""
        return ResultMismatch(
            f"{self.path}: {what}: a result stored there is wrong (a faulty machine, or a "
            f"file edited with its checksums); recheck=1 searches every stored unit of "
            f"n = {n} again and names the wrong one"
        )

    def check_total(self, n, total, fundamental=None):
        """Refuse a total of n (the sum of its stored units) other than the
        one recorded when n was finished, and a fundamental count (if
        given) other than one recorded: a stored result is wrong, though
        its checksum holds (a faulty machine, or a file edited with its
        checksums).  Raises :class:`ResultMismatch`."""
        runs = self._runs(n)
        if runs and runs[0].finished and runs[0].total not in (None, total):
            what = f"the units of n = {n} add up to {total}, but n = {n} was finished with"
            raise self.wrong_result(n, f"{what} {runs[0].total}")
        if runs and runs[0].finished and fundamental is not None:
            if runs[0].fundamental not in (None, fundamental):
                what = f"the classes of n = {n} add up to {fundamental}, but n = {n} was finished"
                raise self.wrong_result(n, f"{what} with {runs[0].fundamental}")

    def finish_run(self, n, total, fundamental=None):
        """Mark the run of n complete, with its final counts (ints).

        Raises :class:`CheckpointError` if the file cannot be written."""
        run = self._runs(n)[0]
        # As recorded (a count without the classes keeps those stored; a
        # read-only file keeps its record, the classes being derived):
        # nothing to write.
        same = fundamental is None or fundamental == run.fundamental or self.read_only_file
        if run.finished and run.total == total and same:
            return
        if fundamental is None:
            fundamental = run.fundamental if run.total == total else None
        self._writable()
        fields = (n, run.split_depth, run.units_total, run.classified, 1, total, fundamental)
        checksum = _run_checksum(*fields, run.method, version=self.version)
        with self._sqlite_errors("save"):
            self.db.execute(
                "UPDATE runs SET finished = 1, total = ?, fundamental = ?, checksum = ? "
                "WHERE n = ?",
                (str(total), None if fundamental is None else str(fundamental), checksum, n),
            )

    def summary(self):
        """Per board size, a dict: ``n``, ``split_depth``, ``units_total``,
        ``units_done``, ``classified`` (the units hold their symmetry
        classes), ``seconds`` (of work stored), ``finished``, the final
        ``total`` and ``fundamental`` (None until finished), and ``units``
        (``{unit_id: (solutions, by_stab, nodes)}``).

        Raises :class:`CheckpointError` if the file is damaged or unreadable."""
        out = []
        for run in self._runs():
            units = self._units(run.n)
            out.append(
                {
                    "n": run.n,
                    "split_depth": run.split_depth,
                    "units_total": run.units_total,
                    "units_done": len(units),
                    "classified": run.classified,
                    "seconds": run.seconds,
                    "finished": run.finished,
                    "total": run.total,
                    "fundamental": run.fundamental,
                    "units": units,
                }
            )
        return out


def _decimal(column):
    """SQL: the column holds a decimal count (how the store writes an int)."""
    return f"({column} GLOB '[0-9]*' AND {column} NOT GLOB '*[^0-9]*')"
