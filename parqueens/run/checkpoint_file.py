"""The checkpoint's file: created aside and published, opened, held by one
run at a time, written in transactions; SQLite's failures as one-line
:class:`CheckpointError` messages.

What the file holds (its tables, rows and checksums) is
:mod:`parqueens.run.store`'s: :class:`parqueens.run.store.RunStore` is a
:class:`CheckpointFile` that creates and checks its tables.

A new file is built aside (``.NAME.PID.XXXX.creating`` in the same folder)
and published with a hard link, which never replaces a file: the path holds
a complete checkpoint or nothing, and when two runs create it at once, one
publishes and the other opens that file.  No run removes or replaces a
checkpoint file; an existing empty file (0 bytes) is initialised in place,
in one transaction.

The *holder* of a file is the run writing it: its process recorded in the
file (``meta`` key ``holder``: process id and start time, host, command,
since when) from its first write or :meth:`parqueens.run.store.RunStore.claim`
until it closes the file.  A second run on a file whose holder is alive is
refused (:class:`CheckpointInUse`); the hold of a process that no longer
runs (killed, a machine restarted, its id reused) is taken over.  The hold
is kept in the file, which SQLite reads through the write-ahead log kept
beside the name a run opened: a file with a second name (a hard link) is
refused for a run, which could not see a hold taken through the other name.
"""

import contextlib
import errno
import json
import os
import shlex
import shutil
import socket
import sqlite3
import sys
import time

from ..errors import ParqueensError
from ..tempfiles import pid_alive, remove_stale, temp_prefix

__all__ = [
    "CheckpointError",
    "CheckpointInUse",
    "SIDE_SUFFIXES",
    "check_name",
    "worker_name",
    "sqlite_command",
    "CheckpointFile",
]


#: Parameters not compared when a file is opened: a file serves every
#: command and size of its work; its work (method, fixed queens) is checked
#: by :meth:`parqueens.run.store.RunStore.claim`, and whether a size holds the symmetry classes
#: that ``unique`` needs is recorded per size.
_PER_SIZE_KEYS = {"command", "n", "unique", "method", "fixed"}


class CheckpointError(ParqueensError):
    """A checkpoint that cannot be used: reported in one line, exit code 2."""


class CheckpointInUse(CheckpointError):
    """Another live process holds the checkpoint (see :class:`CheckpointFile`).

    Attributes: ``path``, ``holder`` (a dict: ``pid``, ``host``, ``command``,
    ``since``)."""

    def __init__(self, path, holder):
        self.path, self.holder = path, holder
        where = "" if holder.get("host") == socket.gethostname() else f" on {holder.get('host')}"
        text = (
            f"{path} is in use by another parqueens run (process {holder.get('pid')}{where}, "
            f"since {holder.get('since')}: {holder.get('command')}); wait for it to finish, "
            f"or use another file"
        )
        if where:  # its process cannot be seen from here
            sql = "DELETE FROM meta WHERE key = 'holder'"
            text += f"; if that run is gone, end its hold: {sqlite_command(path, sql)}"
        super().__init__(text)


#: The holds of the stores open in this process (their tokens).
_HOLDS: set[str] = set()

#: The suffixes of a checkpoint being created aside (see CheckpointFile), and
#: of the files SQLite keeps beside it while it does.
_CREATING = tuple(".creating" + s for s in ("", "-journal", "-wal", "-shm"))

#: Pages (4 KiB) of write-ahead log after which SQLite copies it into the file.
_WAL_PAGES = 64

#: The suffixes of the files SQLite keeps beside a database ``X``: it takes
#: ``X-wal`` as X's write-ahead log (and removes it), so no checkpoint may be
#: named like one, nor opened while one of them is a checkpoint.
SIDE_SUFFIXES = ("-wal", "-shm", "-journal")


def check_name(path, writing):
    """Refuse a checkpoint path that SQLite would confuse with another's
    side files (:data:`SIDE_SUFFIXES`): a name ending in one of them, for a
    run (``writing``; ``status`` may still read such a file), or a path
    whose ``-wal``, ``-shm`` or ``-journal`` file is itself a parqueens
    checkpoint, which opening the path would destroy; an empty name; for a
    run, a path whose folder does not exist.  Raises :class:`CheckpointError`."""
    if not path:
        raise CheckpointError("the checkpoint file name is empty")
    # In any case: a file system that ignores case (macOS, Windows) takes
    # X-WAL for X-wal.
    if writing and path.lower().endswith(SIDE_SUFFIXES):
        suffix = path[-len(next(s for s in SIDE_SUFFIXES if path.lower().endswith(s))) :]
        raise CheckpointError(
            f"{path}: a checkpoint's name cannot end in {suffix} (SQLite keeps its own "
            f"files named so beside {path[: -len(suffix)]}, and would remove it); "
            f"choose another name"
        )
    folder = os.path.dirname(os.path.abspath(path))
    if writing and not os.path.isdir(folder):
        raise CheckpointError(f"{path}: cannot create the checkpoint: no such folder {folder}")
    for suffix in SIDE_SUFFIXES:
        if _is_checkpoint(path + suffix):
            raise CheckpointError(
                f"{path}: {path + suffix} is a parqueens checkpoint, which SQLite would "
                f"take as {os.path.basename(path)}'s {suffix[1:]} file and remove; rename "
                f"it to a name that does not end in {suffix} before using {path}"
            )


def _is_checkpoint(path):
    """Whether the file at ``path`` is a parqueens checkpoint (an SQLite file
    whose ``meta`` names a parqueens format), read without changing it."""
    try:
        with open(path, "rb") as f:
            if f.read(16) != b"SQLite format 3\x00":
                return False  # SQLite's own side files have other headers
        db = sqlite3.connect(f"file:{_quote(path)}?mode=ro&immutable=1", uri=True)
        try:
            row = db.execute("SELECT value FROM meta WHERE key = 'format'").fetchone()
        finally:
            db.close()
    except (OSError, sqlite3.Error):
        return False
    return bool(row) and str(row[0]).startswith("parqueens-checkpoint")


def _creating_alias(folder, name, path):
    """Whether a new checkpoint's temporary copy (``.NAME.PID.XXXX.creating``,
    removed just after it is published) is another name of ``path``."""
    try:
        ino = os.stat(path).st_ino
        head = f".{name[:64]}."
        return any(
            e.name.startswith(head) and e.name.endswith(".creating") and e.inode() == ino
            for e in os.scandir(folder)
        )
    except OSError:
        return False


def _holder_record():
    """This process as a checkpoint's holder: JSON-ready."""
    return {
        "pid": os.getpid(),
        "started": _started(os.getpid()),
        "host": socket.gethostname(),
        "token": os.urandom(8).hex(),
        "command": _command_line(),
        "since": time.strftime("%Y-%m-%d %H:%M:%S"),
    }


def worker_name():
    """This process as the origin of the units it computes: ``HOST/PID``."""
    return f"{socket.gethostname()}/{os.getpid()}"


def _started(pid):
    """When process ``pid`` started (seconds since the epoch), or None."""
    import psutil

    try:
        return psutil.Process(pid).create_time()
    except (psutil.Error, OSError):
        return None


def _holder_alive(holder):
    """Whether the process of a holder record still runs: on this machine,
    the same process id started at the same time (ids are reused); a
    holder on another machine cannot be seen, and counts as alive."""
    if holder.get("host") != socket.gethostname():
        return True
    pid = holder.get("pid")
    if not isinstance(pid, int):
        return False
    if pid == os.getpid():
        return holder.get("token") in _HOLDS
    if not pid_alive(pid):
        return False
    started, then = _started(pid), holder.get("started")
    return started is None or not isinstance(then, (int, float)) or abs(started - then) < 1


def _command_line():
    """The command that runs this process, as a holder names it."""
    program = os.path.basename(sys.argv[0]) if sys.argv and sys.argv[0] else "python"
    if program in ("parqueens", "__main__.py"):
        program = "parqueens"
    text = shlex.join([program, *sys.argv[1:]])
    return text if len(text) <= 200 else text[:197] + "..."


def sqlite_command(path, sql):
    """``sqlite3 FILE "SQL"`` as typed in a shell, to run ``sql`` on the
    file at ``path`` (a str): the file quoted as needed, the SQL (which has
    no ``"``, ``$``, backquote or backslash) in double quotes, on one line."""
    return f'sqlite3 {shlex.quote(path)} "{sql}"'.replace("\n", " ")


def _shown(key, value):
    """A parameter as a message shows it: fixed queens as ``ROW:COL`` pairs
    from 0, as stored (``none`` for none)."""
    if key == "fixed":
        return ",".join(f"{r}:{c}" for r, c in value or ()) + " (from 0)" if value else "none"
    if key == "part":
        return "{}/{}".format(*value) if value else "none (the whole count)"
    return repr(value)


class CheckpointFile:
    """An open checkpoint file (see the module docstring): its path, its
    SQLite connection ``db``, and whether it may be written.

    Opening one with parameters (a dict) makes this object its holder at
    its first write, until :meth:`close`; reading (``params`` None) needs
    no hold and writes nothing, not even in a read-only folder.  A
    subclass defines the tables: ``_init_schema(params)`` creates them in a
    new file (in one transaction, recording ``params``) and
    ``_open_existing(params)`` checks an existing file's, setting
    ``self.params`` to the parameters it records.  Arguments and exceptions:
    :class:`parqueens.run.store.RunStore`.
    """

    def __init__(self, path, params=None):
        self.path = os.fspath(path)
        self.db = None
        self._holder = None
        self.readonly = readonly = params is None
        check_name(self.path, not readonly)
        exists = os.path.exists(self.path)
        if readonly and not exists:
            raise CheckpointError(f"{self.path}: no such checkpoint file")
        if exists and os.path.isdir(self.path):
            raise CheckpointError(f"{self.path} is a folder, not a checkpoint file")
        if exists and not os.path.isfile(self.path):
            raise CheckpointError(
                f"{self.path} is not a regular file (a device or FIFO): a checkpoint is an "
                f"SQLite file; give a file name"
            )
        empty = not exists or os.path.getsize(self.path) == 0
        if readonly and empty:
            raise CheckpointError(
                f"{self.path} is empty: no run has stored anything in it yet "
                f"(a count with checkpoint={self.path!r} starts one)"
            )
        if not empty:
            self._check_header(readonly)
        if not readonly:  # what runs killed while creating it left
            remove_stale(*os.path.split(os.path.abspath(self.path)), _CREATING)
        #: A file opened with parameters that cannot be written: it answers
        #: what it holds, and refuses the first write (see _writable).
        self.read_only_file = not readonly and self._read_only_name() is not None
        #: The CheckpointError the first write raises when opening the file
        #: to write it failed (no space left, a read-only mount or folder).
        self._cannot_write = None
        try:
            if not exists:
                self._publish_new(params)
            if not readonly:
                self._check_one_name()
            if readonly or self.read_only_file:
                self._open_readonly()
                if self.read_only_file:
                    self._check_params(self.params, params)
            else:
                try:
                    self._open_to_write(empty, params)
                except sqlite3.Error as exc:
                    if empty or not self._write_refused(exc):
                        raise
                    self._read_instead(exc, params)
        except BaseException as exc:
            if self.db is not None:
                self.db.close()
            if isinstance(exc, sqlite3.Error):
                # A file published before the failure was created whole: opening it failed.
                made = not exists and os.path.isfile(self.path) and os.path.getsize(self.path)
                raise self._error(exc, "create" if empty and not made else "open") from None
            raise

    def _open_to_write(self, empty, params):
        self.db = self._connect("")
        if empty:
            self._init_in_place(params)
        self._open_existing(params)
        self._check_writable()

    def _write_refused(self, exc):
        """Whether an sqlite3 error opening an existing file to write says
        that nothing can be written there (no space left, a read-only file,
        mount or folder), so that reading it may still answer."""
        name = _name(exc)
        if name.startswith(("SQLITE_FULL", "SQLITE_IOERR", "SQLITE_READONLY")):
            return True
        folder = os.path.dirname(os.path.abspath(self.path))
        return name.startswith("SQLITE_CANTOPEN") and not os.access(folder, os.W_OK)

    def _read_instead(self, exc, params):
        """An existing file that could not be opened to write (``exc``): it
        is read instead, answering what it holds (a finished count), and
        its first write raises the error of ``exc``.  If SQLite cannot read
        it either, ``exc`` is raised."""
        if self.db is not None:
            self.db.close()
            self.db = None
        try:
            self._open_readonly()
        except sqlite3.Error:
            raise exc from None
        self._check_params(self.params, params)
        self.read_only_file = True
        self._cannot_write = self._error(exc, "write")

    def _check_one_name(self):
        """Refuse a file with more than one name (hard links): SQLite keeps
        a run's write-ahead log and lock index beside the name it opened, so
        two runs through two names would not see each other's hold and would
        both write the file, damaging it.  The name a run publishing a new
        file gives its temporary copy is waited for (it goes at once)."""
        folder, name = os.path.split(os.path.abspath(self.path))
        for _ in range(100):
            try:
                links = os.stat(self.path).st_nlink
            except OSError:
                return  # it went: opening it says so
            if links <= 1 or not _creating_alias(folder, name, self.path):
                break
            time.sleep(0.01)
        if links > 1:
            raise CheckpointError(
                f"{self.path} has {links} names (hard links to one file): two runs through "
                f"two names could both write it and damage it, so a run refuses it; remove "
                f"the other names (find / -samefile {shlex.quote(self.path)}) or make the "
                f"other copies with cp"
            )

    def _connect(self, query, path=None):
        uri = "file:" + _quote(path or self.path) + (f"?{query}" if query else "")
        db = sqlite3.connect(uri, uri=True, isolation_level=None, timeout=30)
        # A flipped bit in a text column is a damaged row (named, with the
        # hint to delete it), not an error of the whole file.
        db.text_factory = lambda b: b.decode("utf-8", "replace")
        return db

    def _read_only_name(self):
        """The first of the file, its -wal and -shm that exists and cannot
        be written, or None."""
        for name in (self.path, self.path + "-wal", self.path + "-shm"):
            if os.path.exists(name) and not os.access(name, os.W_OK):
                return name
        return None

    def _writable(self):
        """Before a write: raise the read-only CheckpointError if this file
        cannot be written, else hold the file if this store does not yet
        (:meth:`parqueens.run.store.RunStore.claim` usually took the hold)."""
        if self._cannot_write is not None:
            raise self._cannot_write
        if self.read_only_file:
            raise _read_only(self._read_only_name() or self.path)
        if self._holder is None and not self.db.in_transaction:
            with self._transaction():
                self._take_hold()

    def _check_header(self, readonly):
        with open(self.path, "rb") as f:
            head = f.read(16)
        if head != b"SQLite format 3\x00":
            raise CheckpointError(
                f"{self.path} is not a parqueens checkpoint (not an "
                f"SQLite file)" + ("" if readonly else "; refusing to overwrite it")
            )

    def _publish_new(self, params):
        """Build a new checkpoint aside and link it to the path; if another
        run published one there first, leave it (the caller opens it)."""
        folder, name = os.path.split(os.path.abspath(self.path))
        temp = os.path.join(folder, temp_prefix(name) + f"{os.urandom(4).hex()}.creating")
        try:
            db = self.db = self._connect("", temp)
            self._init_schema(params)
            db.execute("PRAGMA journal_mode=WAL")  # recorded in the file's header
            db.close()
            self.db = None
            try:
                os.link(temp, self.path)
            except FileExistsError:
                pass  # another run created it first: that file is opened
            except OSError as exc:
                if exc.errno not in (errno.EPERM, errno.EOPNOTSUPP, errno.EXDEV, errno.EMLINK):
                    raise
                # No hard links on this file system: created in place, in one
                # transaction (a file left empty by a kill is taken as new).
                with open(self.path, "ab"):
                    pass
        except OSError as exc:
            raise self._os_error(exc, folder) from None
        finally:
            for leftover in (temp, temp + "-journal", temp + "-wal", temp + "-shm"):
                with contextlib.suppress(OSError):
                    os.remove(leftover)

    def _os_error(self, exc, folder):
        if exc.errno == errno.ENOSPC:
            return CheckpointError(
                f"{self.path}: no space left on the disk, cannot create the checkpoint"
            )
        if not os.path.isdir(folder):
            return CheckpointError(
                f"{self.path}: cannot create the checkpoint: no such folder {folder}"
            )
        return CheckpointError(f"{self.path}: cannot create the checkpoint ({exc.strerror or exc})")

    def _init_in_place(self, params):
        """An existing empty file: the tables created in it, in one
        transaction, unless a run that opened it at the same time did."""
        has_tables = self.db.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]
        if not has_tables:
            try:
                self._init_schema(params)
            except sqlite3.OperationalError as exc:
                if "already exists" not in str(exc):
                    raise
        self.db.execute("PRAGMA journal_mode=WAL")

    def _open_readonly(self):
        """Open for reading only: never writes, not even in a read-only folder."""
        wal = self.path + "-wal"
        pending = os.path.exists(wal) and os.path.getsize(wal) > 0
        # Without a -wal file the main file holds everything: read it as
        # immutable, which needs no -shm index beside it (none can be created
        # in a read-only folder, and one left by a reader can block writers).
        self.db = self._connect("mode=ro" if pending else "mode=ro&immutable=1")
        try:
            self._open_existing(None)
        except sqlite3.OperationalError as exc:
            if pending and _name(exc).startswith(("SQLITE_READONLY", "SQLITE_CANTOPEN")):
                raise CheckpointError(
                    f"cannot read {self.path}: its folder is read-only and "
                    f"{wal} holds part of it; copy both files to a "
                    f"writable folder"
                ) from None
            raise

    def _check_writable(self):
        # BEGIN IMMEDIATE alone succeeds on a read-only WAL database; only a
        # write statement (which changes nothing here) finds out.
        self.db.execute("BEGIN IMMEDIATE")
        try:
            self.db.execute("DELETE FROM meta WHERE 0")
        finally:
            self.db.execute("ROLLBACK")
        # The write-ahead log is copied into the file every 64 pages and then
        # cut back, so that it stays a few hundred KB (SQLite's default lets
        # it grow to 4 MB before the first copy).
        self.db.execute(f"PRAGMA wal_autocheckpoint={_WAL_PAGES}")
        self.db.execute(f"PRAGMA journal_size_limit={_WAL_PAGES * 4096}")

    @contextlib.contextmanager
    def _transaction(self, doing="save"):
        """One write transaction (``BEGIN IMMEDIATE``: writers queue, up to
        the connection's timeout), rolled back if the block raises; a hold
        taken in a transaction that is rolled back is not kept."""
        held = self._holder
        with self._sqlite_errors(doing):
            self.db.execute("BEGIN IMMEDIATE")
            try:
                yield
                self.db.execute("COMMIT")
            except BaseException:
                # Ctrl-C may land before or after COMMIT: undo only an open
                # transaction, and let the interrupt itself propagate.
                if self.db.in_transaction:
                    with contextlib.suppress(sqlite3.Error):
                        self.db.execute("ROLLBACK")
                    self._holder = held
                raise
        if self._holder is not None:
            _HOLDS.add(self._holder["token"])

    def _take_hold(self):
        """Inside a transaction: record this process as the file's holder,
        unless a live process holds it (:class:`CheckpointInUse`)."""
        if self._holder is not None:
            return
        other = self._read_holder()
        if other is not None and _holder_alive(other):
            raise CheckpointInUse(self.path, other)
        me = _holder_record()
        self.db.execute("INSERT OR REPLACE INTO meta VALUES ('holder', ?)", (json.dumps(me),))
        self._holder = me

    def _read_holder(self):
        row = self.db.execute("SELECT value FROM meta WHERE key = 'holder'").fetchone()
        try:
            holder = json.loads(row[0]) if row else None
        except ValueError:
            return None  # unreadable: taken over
        return holder if isinstance(holder, dict) else None

    def check_free(self):
        """Refuse, reading only, a file that another live process holds
        (:class:`CheckpointInUse`): a run checks it before it plans or
        estimates anything, and its claim checks it again as it takes the
        file.  Nothing for a file this store holds or opened only to read."""
        if self.readonly or self._holder is not None:
            return
        with self._sqlite_errors("read"):
            other = self._read_holder()
        if other is not None and _holder_alive(other):
            raise CheckpointInUse(self.path, other)

    def holder(self):
        """The live process that holds this file, as recorded when it opened
        it: a dict (``pid``, ``host``, ``command``, ``since``), or None (no
        run holds it, or its process is gone).  A store opened with
        parameters holds its file itself: then this process's record."""
        with self._sqlite_errors("read"):
            other = self._read_holder()
        if other is None or not _holder_alive(other):
            return None
        return {k: other.get(k) for k in ("pid", "host", "command", "since")}

    def _check_params(self, stored, params, skip=_PER_SIZE_KEYS):
        """Refuse a file whose recorded parameters differ from ``params``,
        but for the keys ``skip`` (by default what names the command, and
        what :meth:`parqueens.run.store.RunStore.claim` and ``begin_run``
        check)."""
        keys = sorted((set(stored) | set(params)) - set(skip))
        diff = ", ".join(
            f"{k}: {_shown(k, stored.get(k))} there, {_shown(k, params.get(k))} now"
            for k in keys
            if stored.get(k) != params.get(k)
        )
        if diff:
            raise CheckpointError(
                f"{self.path} belongs to another run ({diff}); "
                f"use another file or the same parameters"
            )

    def _damaged(self, detail):
        return CheckpointError(f"{self.path} is damaged or not a parqueens checkpoint ({detail})")

    def _error(self, exc, doing):
        """The CheckpointError for an sqlite3 error while doing "create",
        "open", "save" or "read"."""
        name = _name(exc)
        folder = os.path.dirname(os.path.abspath(self.path))
        if name.startswith("SQLITE_FULL") or (
            name.startswith("SQLITE_IOERR") and _free_bytes(folder) < 1 << 20
        ):
            kept = "; the units saved so far are kept in it for a resume" if doing == "save" else ""
            return CheckpointError(
                f"{self.path}: no space left on the disk, cannot {doing} "
                f"the checkpoint ({exc}){kept}"
            )
        if name == "SQLITE_READONLY_DIRECTORY":
            return CheckpointError(
                f"{self.path}: its folder is read-only (SQLite needs to "
                f"create {os.path.basename(self.path)}-wal there)"
            )
        if name.startswith("SQLITE_READONLY"):
            return _read_only(self.path)
        if name.startswith(("SQLITE_BUSY", "SQLITE_LOCKED")):
            return CheckpointError(
                f"{self.path} is locked by another process ({exc}); "
                f"is another parqueens run using it?"
            )
        if name.startswith("SQLITE_CANTOPEN") and not os.path.isdir(folder):
            return CheckpointError(
                f"{self.path}: cannot {doing} the checkpoint: no such folder {folder}"
            )
        if name.startswith("SQLITE_CANTOPEN") and not os.access(folder, os.W_OK):
            return CheckpointError(
                f"{self.path}: cannot {doing} the checkpoint: its folder is read-only"
            )
        if name.startswith(("SQLITE_CANTOPEN", "SQLITE_IOERR", "SQLITE_PERM")):
            return CheckpointError(f"{self.path}: cannot {doing} the checkpoint ({exc})")
        return self._damaged(exc)

    @contextlib.contextmanager
    def _sqlite_errors(self, doing):
        try:
            yield
        except sqlite3.Error as exc:
            raise self._error(exc, doing) from None

    def close(self):
        """Give up the hold (if any) and close the file; a holder copies the
        write-ahead log into the file first, so that the file alone holds
        everything even when a reader (``status``) kept the log open."""
        if self._holder is not None:
            _HOLDS.discard(self._holder["token"])
            with contextlib.suppress(sqlite3.Error):
                self.db.execute("BEGIN IMMEDIATE")
                self.db.execute(
                    "DELETE FROM meta WHERE key = 'holder' AND value = ?",
                    (json.dumps(self._holder),),
                )
                self.db.execute("COMMIT")
                self.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            self._holder = None
        if self.db is not None:
            self.db.close()
            self.db = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def _read_only(path):
    """The CheckpointError of a file that cannot be written: on a read-only
    file system (a read-only mount, which chmod cannot change), or itself."""
    try:
        mounted = os.statvfs(os.path.dirname(os.path.abspath(path))).f_flag & os.ST_RDONLY
    except (OSError, AttributeError):  # no statvfs (Windows)
        mounted = False
    if mounted:
        return CheckpointError(
            f"{path} is on a read-only file system; copy it to a writable one or use another file"
        )
    return CheckpointError(f"{path} is read-only; make it writable (chmod u+w) or use another file")


def _name(exc):
    """The SQLite error name of an sqlite3 error, e.g. "SQLITE_FULL"
    (Python 3.10 has only the message, which SQLite fixes per code)."""
    return getattr(exc, "sqlite_errorname", None) or {
        "database or disk is full": "SQLITE_FULL",
        "attempt to write a readonly database": "SQLITE_READONLY",
        "database is locked": "SQLITE_BUSY",
        "unable to open database file": "SQLITE_CANTOPEN",
        "disk I/O error": "SQLITE_IOERR",
    }.get(str(exc), "")


def _free_bytes(folder):
    try:
        return shutil.disk_usage(folder).free
    except OSError:
        return 1 << 62


def _quote(path):
    """The path for SQLite's ``file:`` URI: its bytes (a name need not be
    UTF-8), percent-encoded."""
    from urllib.parse import quote

    return quote(os.fsencode(os.path.abspath(path)))
