"""Reading and writing solutions and count tables: the formats, atomic files, pictures.

=================  ==========================================================
 module             what it holds
=================  ==========================================================
 ``base``           the format object's interface (:class:`~.base.Format`),
                    the text formats' shared rendering
 ``perm``,          one module per solution format, each with its object
 ``board``, ...     ``FORMAT`` (perm, board, matrix, jsonl, leetcode, npy, svg)
 ``registry``       the formats by name (``REGISTRY``), guessing an input's
                    format, :func:`read_solutions`, :func:`render`,
                    :func:`estimate_size`, :func:`fits`
 ``writer``         :class:`SolutionWriter`, the same for every format
 ``reading``        the readers (:class:`SolutionReader`) and their input
 ``atomic``         :class:`AtomicFile`: temporary file, background sync,
                    publish or abort; :func:`check_output_path`
 ``space``          free space, sizes for people (:func:`format_bytes`)
 ``paths``          ``"-"`` for standard output/input (:func:`is_stdio`), the
                    formats a file name's extension stands for
 ``terminal_board`` the board drawn in colours for a terminal
 ``table``          the count table as csv, json or md
 ``perm_parse``     the numba kernel that parses perm lines in bulk
=================  ==========================================================

A solution is ``queens[row] = col`` (0-based; row 0 is the top line,
column 0 the left character).  Text is ASCII with ``\\n`` line ends.  The
empty solution (n = 0) is ``[]`` in jsonl, a row of length 0 in npy and
one empty line in the other formats; such a line is read back as a
solution when ``n=0`` is given, or when n is not given and no line of the
input has any content.

A format is named (with its extensions and traits) in
:data:`parqueens.names.FORMAT_TRAITS` and implemented by the module of this
package of the same name; :mod:`parqueens.formats` and
:mod:`parqueens.pictures` keep the names docs/library.md shows.  The names
below are imported on first use, so that the command line asks
:func:`is_stdio` without loading the formats.
"""

import importlib as _importlib

_LAZY = {
    "AtomicFile": "atomic",
    "check_output_path": "atomic",
    "write_text_atomically": "atomic",
    "NotEnoughSpace": "space",
    "format_bytes": "space",
    "STDIO": "paths",
    "is_stdio": "paths",
    "extension_formats": "paths",
    "REGISTRY": "registry",
    "estimate_size": "registry",
    "fits": "registry",
    "read_solutions": "registry",
    "render": "registry",
    "SolutionReader": "reading",
    "SolutionWriter": "writer",
    "npy_dtype": "npy",
    "TABLE_FORMATS": "table",
    "table_text": "table",
    "write_table": "table",
}

__all__ = sorted(_LAZY)


def __getattr__(name):
    if name in _LAZY:
        value = getattr(_importlib.import_module(f".{_LAZY[name]}", __name__), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__():
    return sorted(set(globals()) | set(_LAZY))
