"""Free space for an output, and sizes in bytes for people."""

import errno
import os
import shutil

__all__ = ["NotEnoughSpace", "format_bytes", "free_bytes", "check_space"]


class NotEnoughSpace(OSError):
    """The output would not fit in the free space of its file system."""


def format_bytes(count):
    """A size in bytes for people: ``512 B``, ``3.2 GiB``, ``1.3e+06 PiB``."""
    if count < 1024:
        return f"{int(count)} B"
    for unit in ("KiB", "MiB", "GiB", "TiB"):
        count /= 1024
        if count < 1024:
            return f"{count:.3g} {unit}"
    count /= 1024
    return f"{count:.3g} PiB"


def _sizes_text(need, free, estimated=False):
    """``need [about] X, Y free``, for people; in bytes when they round alike."""
    a, b = format_bytes(need), format_bytes(free)
    if a == b:
        a, b = f"{need} bytes", free
    return f"need {'about ' * bool(estimated)}{a}, {b} free"


def free_bytes(path):
    """Free bytes in the file system of the folder of ``path`` (which must
    exist): ``shutil.disk_usage(folder).free``."""
    return shutil.disk_usage(os.path.dirname(os.path.realpath(os.fspath(path)))).free


def check_space(path, need, *, reserved=False, estimated=False):
    """Raise :class:`NotEnoughSpace` (``ENOSPC``, naming the folder) unless
    ``need`` bytes fit in the free space of the folder of ``path``.
    ``reserved``: ``need`` includes a temporary file's (the message says so);
    ``estimated``: ``need`` is an estimate (the message says "about")."""
    free = free_bytes(path)
    if need > free:
        raise NotEnoughSpace(
            errno.ENOSPC,
            f"not enough space for the output{' and its temporary file' * bool(reserved)}: "
            f"{_sizes_text(need, free, estimated)} (use force=True to write anyway)",
            os.path.dirname(os.path.realpath(os.fspath(path))),
        )
