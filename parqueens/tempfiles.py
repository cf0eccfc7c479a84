"""Temporary files beside an output, named after the process that writes them.

An output file (solutions, a table) and a new checkpoint are built under a
temporary name in the folder of their final path, then published by one
atomic step (a rename, or a hard link that refuses to replace anything).
The temporary name carries the writer's process id, ``.NAME.PID.XXXX.part``,
so that one left by a killed run (SIGKILL, a machine lost) is known as
stale and removed the next time the same output is written, while a file
of a running writer is left alone.
"""

import contextlib
import os

__all__ = ["temp_prefix", "remove_stale", "pid_alive"]


def temp_prefix(name, pid=None):
    """Prefix of the temporary file written before ``name`` is published
    (shortened, so that a long legal name does not overflow 255 bytes), with
    the writing process's id: ``.NAME.PID.``."""
    return f".{name[:64]}.{os.getpid() if pid is None else pid}."


def remove_stale(folder, name, suffix=".part"):
    """Remove the temporary files of ``name`` ending in ``suffix`` (a string,
    or a tuple of them) that parqueens processes no longer running left in
    ``folder``; returns their names.  Others' files, and those of a running
    process, are left alone."""
    head = f".{name[:64]}."
    removed = []
    try:
        entries = os.listdir(folder)
    except OSError:
        return removed
    for entry in entries:
        if not (entry.startswith(head) and entry.endswith(suffix)):
            continue
        pid = entry[len(head) :].split(".", 1)[0]
        if not pid.isdigit() or pid_alive(int(pid)):
            continue
        with contextlib.suppress(OSError):
            os.unlink(os.path.join(folder, entry))
            removed.append(entry)
    return removed


def pid_alive(pid):
    """Whether a process with this id runs on this machine (another user's
    process counts as running; a zombie, killed but not yet reaped by its
    parent, does not: it holds nothing and never runs again)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # another user's process: alive
        return True
    import psutil

    try:
        return psutil.Process(pid).status() != psutil.STATUS_ZOMBIE
    except psutil.Error:  # gone meanwhile, or not to be read: as kill() said
        return psutil.pid_exists(pid)
