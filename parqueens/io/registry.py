"""The registry of the solution formats, and what goes through all of them.

:data:`REGISTRY` maps each name of :data:`parqueens.names.FORMATS` to its
format object (:mod:`parqueens.io.base`), the ``FORMAT`` of the module of
this package of the same name.  Here too: guessing the format of an input
(:func:`sniff`), :func:`read_solutions`, :func:`render`,
:func:`estimate_size` and :func:`fits`.
"""

import importlib
from collections.abc import Sequence

from ..checks import check_format, check_n, check_one_based, check_row
from ..names import FORMATS, TEXT_FORMATS
from .paths import extension_formats
from .reading import Source
from .space import free_bytes

__all__ = [
    "REGISTRY",
    "SNIFF_DEFAULT",
    "sniff",
    "read_solutions",
    "render",
    "estimate_size",
    "fits",
]


#: Format name -> format object, in the order of :data:`parqueens.names.FORMATS`.
REGISTRY = {name: importlib.import_module(f".{name}", __package__).FORMAT for name in FORMATS}

#: The format of a text input whose first non-blank line no format's sniff
#: matches, or that has none.
SNIFF_DEFAULT = "perm"


def sniff(head, one_based):
    """The format of an input guessed from ``head``: its raw lines (bytes)
    up to the first non-blank one (:meth:`parqueens.io.reading.Source.head`).
    A format's magic bytes first, then each text format's ``sniff`` of the
    line (stripped, without a byte order mark), else :data:`SNIFF_DEFAULT`."""
    for name, fmt in REGISTRY.items():
        if head and fmt.magic is not None and head[0].startswith(fmt.magic):
            return name
    if not head or not head[-1].strip():
        return SNIFF_DEFAULT
    line = head[-1].strip().decode("utf-8", "replace").lstrip("\ufeff").strip()
    for name, fmt in REGISTRY.items():
        if fmt.sniff(line, one_based):
            return name
    return SNIFF_DEFAULT


def read_solutions(path, fmt=None, n=None, *, one_based=False):
    """Read solutions written in any of :data:`parqueens.names.READABLE_FORMATS`.

    Only the structure is checked (every solution has n rows), not whether
    the rows are n-queens solutions: a column off the board of a text
    format and a board line without exactly one queen read as column n
    (``bad_rows`` of the reader says what was there), and an npy file's as
    they are (:func:`parqueens.verify.check_blocks` reports them all as
    invalid).

    Parameters
    ----------
    path : str or os.PathLike
        Input file, or ``"-"`` for ``sys.stdin`` (its binary buffer).  The
        format of stdin is guessed as for a file without extension; npy
        from stdin is read into memory whole.
    fmt : str or None
        One of :data:`parqueens.names.FORMATS`; None guesses it from the
        extension (:func:`parqueens.io.paths.extension_formats`, where it
        names one format) and otherwise from the content (:func:`sniff`):
        the ``.npy`` magic bytes, a first non-blank line starting with ``[``
        (leetcode's ``[[``, ``["`` or a lone ``[``, else jsonl), of ``Q``
        and ``.`` (board), of ``0``/``1`` with a single ``1`` (matrix, for
        n != 2), starting with ``<`` (svg, refused), else perm.
    n : int or None
        Expected board size; None takes it from the ``.npy`` shape or the
        first solution.  In perm, board and matrix an empty line is the
        empty solution (n = 0) when ``n=0`` is given, or when n is None and
        no line has any content (what ``solutions 0`` writes); otherwise
        blank lines are skipped.  An empty input has no solution.
    one_based : bool
        Columns counted from 1 in ``perm`` and ``jsonl`` (never guessed;
        refused, with ``ValueError``, for npy).

    Returns
    -------
    parqueens.io.reading.SolutionReader
        An iterator of 0-based ``queens`` tuples, one per solution in input
        order, with the attributes ``fmt`` and ``n`` (None for an input
        without solutions whose n is not given).  A text file is opened when
        iteration starts and closed when it ends.

    Raises
    ------
    FileNotFoundError, OSError
        If the input cannot be read (raised at once).
    TypeError, ValueError
        For invalid arguments (at once); ``ValueError`` naming the input
        for svg and for malformed content: for npy at once ("FILE is not a
        valid .npy file of solutions: ..."), for text while iterating,
        naming the line.
    """
    if n is not None:
        n = check_n(n, high=None)
    if fmt is not None:
        check_format(fmt)
    source = Source(path)
    if fmt is None:
        named = None if source.path is None else extension_formats(source.path)
        fmt = named[0] if named and len(named) == 1 else sniff(source.head(), one_based)
    check_one_based(fmt, one_based)
    return REGISTRY[fmt].open_reader(source, n, bool(one_based))


def render(queens: Sequence[int], fmt: str, one_based: bool = False) -> str:
    """The text of one solution in a text format.

    Parameters
    ----------
    queens : sequence of int or 1-D numpy.ndarray of an integer dtype
        ``queens[row] = col``, 0-based, entries in ``range(n)`` where n is
        the length (it need not be a solution).
    fmt : str
        One of :data:`parqueens.names.TEXT_FORMATS`.
    one_based : bool
        Write columns counted from 1 (``perm`` and ``jsonl``; nothing
        changes in the formats without numbers).

    Returns
    -------
    str
        The solution including its final newline; for ``board`` and
        ``matrix`` without the blank line that separates solutions in a file;
        for ``leetcode`` the board's array of rows (``[".Q..",...]``), as
        one element of the file's array; for ``svg`` a whole SVG document
        of the board (:func:`parqueens.io.svg.svg`, labels numbered from 1
        with ``one_based``).  The empty solution (n = 0) is ``"[]\\n"`` in
        ``jsonl`` and ``leetcode``, else ``"\\n"``.

    Raises
    ------
    TypeError
        If ``queens`` has non-integer entries or ``fmt`` is not a str.
    ValueError
        If ``fmt`` is unknown or ``npy``, or ``queens`` is not 1-D with
        entries in ``range(n)`` (:func:`parqueens.checks.check_row`).
    """
    check_format(fmt, TEXT_FORMATS)
    check_one_based(fmt, one_based)
    return REGISTRY[fmt].render(check_row(queens), bool(one_based))


def estimate_size(fmt, n, count, *, one_based=False):
    """Size of the file that :class:`parqueens.io.SolutionWriter` writes, in bytes.

    Exact when every solution written is a permutation of ``range(n)``
    (every n-queens solution is): the text of a permutation does not
    depend on its order.  For ``svg``, an upper bound (labels included,
    and the digits of a board's place in the grid vary).  File-system
    block rounding is not included.

    Parameters
    ----------
    fmt : str
        One of :data:`parqueens.names.FORMATS`.
    n : int
        Board size, >= 0.
    count : int
        Number of solutions, >= 0.
    one_based : bool
        Columns counted from 1 (changes the digit count of perm and jsonl).

    Returns
    -------
    int
        Bytes.

    Raises
    ------
    TypeError, ValueError
        For a non-int or negative ``n`` or ``count``, or an unknown format.
    """
    check_format(fmt)
    check_one_based(fmt, one_based)
    n = check_n(n, high=None)
    count = check_n(count, name="count", high=None)
    return REGISTRY[fmt].size(n, count, bool(one_based))


def fits(path, fmt, n, count, *, one_based=False, reserve=0):
    """Whether ``count`` solutions in format ``fmt``, and ``reserve`` bytes
    more (say a listing's temporary file), fit in the free space of the
    folder of ``path`` (:func:`estimate_size` against
    ``shutil.disk_usage(folder).free``): bool.  The folder must exist."""
    return estimate_size(fmt, n, count, one_based=one_based) + reserve <= free_bytes(path)
