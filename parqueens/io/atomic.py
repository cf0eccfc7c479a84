"""Output files written atomically: complete under their name, or absent.

An output (solutions, a count table) is written to a temporary file
``.NAME.PID.XXXXXXXX.part`` in the folder of its final path
(:mod:`parqueens.tempfiles` names it and removes those of dead runs), synced
in the background while it grows, then synced, given the usual permissions
(``0o666`` less the umask) and renamed into place (``os.replace``).  Any
failure removes the temporary file, so an interrupted or failed run leaves
nothing behind and an existing file untouched.
"""

import contextlib
import errno
import os
import tempfile
import threading

from ..tempfiles import remove_stale, temp_prefix

__all__ = ["check_output_path", "CloseOrAbort", "AtomicFile", "write_text_atomically"]


def check_output_path(path, force):
    """Check that ``path`` can receive an output file; returns it absolute.

    A symbolic link is followed (its target is replaced).  Raises
    ``ValueError`` for an empty path, and ``OSError`` subclasses: the path
    names a folder, the folder does not exist or is not writable (tried by
    creating a temporary file), the file exists and ``force`` is false, or it
    exists but is not a regular file (a device or FIFO cannot be replaced
    atomically: redirect stdout instead).  Temporary files that dead runs
    left for this path are removed.
    """
    text = os.fspath(path)
    if not text:
        raise ValueError("the output path is empty")
    if text.endswith(os.sep) or os.path.isdir(text):
        raise IsADirectoryError(errno.EISDIR, "output path is a folder", text)
    target = os.path.realpath(text)
    folder, name = os.path.split(target)
    if not os.path.isdir(folder):
        raise FileNotFoundError(errno.ENOENT, "output folder does not exist", folder)
    if os.path.lexists(target):
        if not os.path.isfile(target):
            raise OSError(
                errno.EINVAL,
                "output path exists and is not a regular file (a "
                "device or FIFO); write to stdout and redirect instead",
                text,
            )
        if not force:
            raise FileExistsError(
                errno.EEXIST, "output file exists (use force=True to overwrite)", text
            )
    if not os.access(folder, os.W_OK | os.X_OK):
        raise PermissionError(errno.EACCES, "output folder is not writable", folder)
    remove_stale(folder, name)
    try:
        fd, probe = tempfile.mkstemp(dir=folder, prefix=temp_prefix(name), suffix=".part")
    except OSError as exc:  # name the output, not our temporary file
        raise OSError(exc.errno, f"cannot write in its folder ({exc.strerror})", text) from None
    os.close(fd)
    os.unlink(probe)
    return target


def _umask():
    # Linux exposes the umask without changing it (os.umask would, briefly)
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except (OSError, ValueError):
        pass
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def _named(exc, path):
    """``exc`` naming ``path`` if it names no file (ENOSPC names none)."""
    if exc.filename is None:
        return OSError(exc.errno, exc.strerror, path)
    return exc


class CloseOrAbort:
    """A context manager that calls ``close()`` when its block ends
    normally and ``abort()`` when it raises."""

    def __enter__(self):
        return self

    def __exit__(self, exc_type, exc, tb):
        if exc_type is None:
            self.close()
        else:
            self.abort()
        return False


class AtomicFile(CloseOrAbort):
    """A binary output file published complete or not at all.

    Parameters
    ----------
    path : str
        The final path, as :func:`check_output_path` returns it (absolute,
        checked); the temporary file is created beside it at once.
    force : bool
        Replace a file that appears at ``path`` while writing (else
        :meth:`publish` refuses it with ``FileExistsError``).

    A context manager (:class:`CloseOrAbort`; ``close`` is :meth:`publish`):
    :meth:`publish` when the block ends normally,
    :meth:`abort` when it raises.  Every ``OSError`` of :meth:`write`,
    :meth:`write_at_start` and :meth:`publish` removes the temporary file
    first and names ``path`` (not the temporary file).

    Attributes
    ----------
    path : str
        The final path.
    closed : bool
        True after :meth:`publish` or :meth:`abort`.
    """

    #: Bytes written between background syncs (``os.fdatasync`` in a helper
    #: thread), so that the disk takes a large output while it is still being
    #: produced and the final fsync has little left to do (solutions 16 to
    #: npy: 0.09 s -> 0.015 s).
    sync_bytes = 64 << 20

    def __init__(self, path, force=False):
        self.path = path
        self.force = bool(force)
        self.closed = False
        folder, name = os.path.split(path)
        self.file = tempfile.NamedTemporaryFile(
            mode="wb",
            dir=folder,
            prefix=temp_prefix(name),
            suffix=".part",
            delete=False,
            buffering=1 << 20,
        )
        self._unsynced = 0
        self._syncing = None  # the helper thread of the last background sync
        self._sync_error = None

    def __del__(self):
        # an unpublished file is never left behind
        try:
            self.abort()
        except Exception:
            pass

    @contextlib.contextmanager
    def _or_abort(self):
        """Any exception of the block removes the temporary file first; an
        ``OSError`` names :attr:`path`."""
        try:
            yield
        except OSError as exc:
            self.abort()
            raise _named(exc, self.path) from None
        except BaseException:
            self.abort()
            raise

    def write(self, data):
        """Append ``data`` (bytes-like); starts a background sync every
        :attr:`sync_bytes`.  Raises the ``OSError`` of the file system or of
        a finished background sync, after removing the temporary file."""
        with self._or_abort():
            self.file.write(data)
            self._unsynced += len(data)
            if self._unsynced >= self.sync_bytes and self._sync_done():
                self.file.flush()
                self._unsynced = 0
                self._syncing = threading.Thread(target=self._sync, daemon=True)
                self._syncing.start()

    def write_at_start(self, data):
        """Overwrite the first ``len(data)`` bytes (a header written before
        its content was known); raises as :meth:`write`."""
        with self._or_abort():
            self._sync_done(wait=True)
            self.file.seek(0)
            self.file.write(data)
            self.file.seek(0, os.SEEK_END)

    def publish(self):
        """Sync the file and rename it to :attr:`path` with the usual
        permissions (a no-op when closed).

        Raises ``FileExistsError`` if ``path`` appeared meanwhile and not
        ``force``, ``OSError`` from the file system; the temporary file is
        removed first."""
        if self.closed:
            return
        with self._or_abort():
            self._sync_done(wait=True)
            self.file.flush()
            os.fsync(self.file.fileno())
            self.file.close()
            os.chmod(self.file.name, 0o666 & ~_umask())
            if not self.force and os.path.lexists(self.path):
                raise FileExistsError(
                    errno.EEXIST,
                    "output file appeared while writing (use force=True to overwrite)",
                    self.path,
                )
            os.replace(self.file.name, self.path)
        self.closed = True

    close = publish

    def abort(self):
        """Remove the temporary file (a no-op when closed)."""
        if self.closed:
            return
        self.closed = True
        if self._syncing is not None:
            self._syncing.join()  # before the file descriptor is closed
        try:
            self.file.close()
        except OSError:
            pass  # e.g. ENOSPC again while flushing the buffer
        try:
            os.unlink(self.file.name)
        except FileNotFoundError:
            pass

    def _sync(self):
        try:
            os.fdatasync(self.file.fileno())
        except OSError as exc:  # raised by the next write or publish
            self._sync_error = exc

    def _sync_done(self, wait=False):
        """Whether no background sync is running (after it, if ``wait``);
        raises the error of a finished one."""
        if self._syncing is not None:
            if wait:
                self._syncing.join()
            if self._syncing.is_alive():
                return False
            self._syncing = None
        if self._sync_error is not None:
            raise self._sync_error
        return True


def write_text_atomically(path, text, force=False):
    """Write ``text`` (str) to ``path`` in UTF-8, complete or not at all,
    with the usual permissions (:class:`AtomicFile`).  Raises as
    :func:`check_output_path` and :meth:`AtomicFile.publish` do."""
    with AtomicFile(check_output_path(path, force), force) as f:
        f.write(text.encode("utf-8"))
