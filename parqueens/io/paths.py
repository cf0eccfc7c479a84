"""What a path names: standard input/output, and the format of a file.

``"-"`` names standard output where a path is written, and standard input
where one is read, as in most command-line tools (so does None).  A file's
extension names its format (:data:`parqueens.names.EXTENSIONS`); ``.json``
stands for both JSON formats (jsonl, written when none is chosen, and
leetcode); no extension and ``.txt`` name none: text whose content tells.
Plain Python, so that the command line asks without loading numpy.
"""

import os

from ..names import EXTENSIONS, SHARED_EXTENSIONS

__all__ = ["STDIO", "is_stdio", "extension_formats"]


#: The path that names standard output (writing) or standard input (reading).
STDIO = "-"

# Extensions of text whose format is told by its content, not its name.
_UNNAMED = ("", ".txt")


def is_stdio(path):
    """Whether ``path`` (str, os.PathLike or None) names standard output or
    input: None or ``"-"`` (an empty path is a file path, refused where a
    file is opened)."""
    return path is None or (isinstance(path, str) and path == STDIO)


def extension_formats(path):
    """The solution formats that the extension of the file name ``path``
    (str or os.PathLike, case-insensitive) stands for.

    Returns a tuple, the format written when none is chosen first
    (``("jsonl", "leetcode")`` for ``.json``, ``("npy",)`` for ``.npy``);
    ``()`` for an extension of no format (``.csv``); None for a name that
    says nothing (no extension, ``.txt``).
    """
    ext = os.path.splitext(os.fspath(path))[1].lower()
    if ext in SHARED_EXTENSIONS:
        return SHARED_EXTENSIONS[ext]
    if ext in EXTENSIONS:
        return (EXTENSIONS[ext],)
    return None if ext in _UNNAMED else ()
