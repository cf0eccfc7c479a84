"""parqueens: count and list the solutions of the n-queens problem, in parallel.

Public API
----------
:func:`count`
    Number of solutions (OEIS A000170), an ``int``.
:func:`count_unique`
    Total, fundamental solutions (OEIS A002562) and orbit breakdown.
:func:`run_count`
    Either, with run statistics (:class:`CountResult`).
:func:`solutions`, :func:`first_solution`
    The solutions themselves, in lexicographic order.
:func:`construct`, :func:`is_solution`
    A solution for any n by an explicit formula; checking one.
    ``construct`` raises :class:`NoSolution` (a ``ValueError``) for n = 2, 3.
:class:`Board`
    A solution that draws itself (SVG in a notebook; :mod:`parqueens.pictures`).
The symmetry helpers live in :mod:`parqueens.symmetry`.
"""

import importlib as _importlib
from collections.abc import Iterable as _Iterable
from typing import TYPE_CHECKING as _TYPE_CHECKING
from typing import Any as _Any

from .names import VERSION as __version__

if _TYPE_CHECKING:  # what the lazy names below are, for type checkers
    from . import formats as formats
    from . import pictures as pictures
    from . import symmetry as symmetry
    from . import verify as verify
    from .construction import NoSolution, construct, is_solution
    from .pictures import Board
    from .run.listing import first_solution, solutions
    from .run.runner import CountResult, UniqueCountResult, run_count
    from .symmetry import canonical, orbit, orbit_size, transform

# The public names are imported on first use (PEP 562), so that the command
# line starts, and answers Ctrl-C, before numba and numpy are loaded.
_LAZY = {
    "construct": "construction",
    "is_solution": "construction",
    "NoSolution": "construction",
    "first_solution": "run.listing",
    "solutions": "run.listing",
    "CountResult": "run.runner",
    "UniqueCountResult": "run.runner",
    "run_count": "run.runner",
    "Board": "pictures",
    "canonical": "symmetry",
    "orbit": "symmetry",
    "orbit_size": "symmetry",
    "transform": "symmetry",
}


#: Submodules reached as attributes without their own import
#: (``parqueens.pictures.svg(...)`` after ``import parqueens``).
_SUBMODULES = {"pictures", "symmetry", "formats", "verify"}


def __getattr__(name: str) -> _Any:
    if name in _LAZY:
        value = getattr(_importlib.import_module(f".{_LAZY[name]}", __name__), name)
        globals()[name] = value
        return value
    if name in _SUBMODULES:
        return _importlib.import_module(f".{name}", __name__)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    names = set(_LAZY) | _SUBMODULES | {"__version__"}
    return sorted({k for k in globals() if not k.startswith("_")} | names)


def count(
    n: int,
    *,
    jobs: int | None = None,
    method: str | None = None,
    split_depth: int | None = None,
    progress: bool = False,
    fixed: _Iterable[tuple[int, int]] | None = None,
) -> int:
    """Number of solutions of the n-queens problem (OEIS A000170).

    Parameters
    ----------
    n : int
        Board size, 0..64 (n = 0 gives 1, the empty placement).
    jobs : int or None
        Parallel jobs, threads of this process (None: all cores, but 1 for
        n <= 14 free rows; 1: none); see :func:`run_count`.
    method : str or None
        ``"join"`` (matching half-boards, n = 4..28), ``"d4"``, ``"mirror"`` or
        ``"plain"`` (searches); None: the join where it serves, else d4 (plain
        with ``fixed``); all give the same count.
    split_depth : int or None
        Rows pre-placed per work unit (None: automatic).
    progress : bool
        Show a progress bar on stderr.
    fixed : iterable of (int, int) or None
        Count only the solutions containing these queens, 0-based
        ``(row, col)`` (the completion problem; the search is then ``plain``).

    Returns
    -------
    int
        The exact total, as a Python int.

    Raises
    ------
    TypeError, ValueError
        For invalid arguments.
    """
    from .run.runner import run_count

    return run_count(
        n, jobs=jobs, method=method, split_depth=split_depth, progress=progress, fixed=fixed
    ).total


def count_unique(
    n: int,
    *,
    jobs: int | None = None,
    method: str | None = None,
    split_depth: int | None = None,
    progress: bool = False,
) -> "UniqueCountResult":
    """Total and fundamental solutions, with the orbit breakdown.

    Same parameters as :func:`count` (no fixed queens).  Returns a
    :class:`UniqueCountResult` (a :class:`CountResult` whose classes are
    typed ``int``, never None): ``total`` is OEIS A000170, ``fundamental``
    OEIS A002562 and ``orbits`` maps orbit size (8, 4, 2, 1) to the number
    of classes of that size.
    """
    from .run.runner import UniqueCountResult, run_count

    return UniqueCountResult.of(
        run_count(
            n, unique=True, jobs=jobs, method=method, split_depth=split_depth, progress=progress
        )
    )


__all__ = [
    "count",
    "count_unique",
    "run_count",
    "CountResult",
    "UniqueCountResult",
    "solutions",
    "first_solution",
    "construct",
    "is_solution",
    "NoSolution",
    "Board",
    "canonical",
    "orbit",
    "orbit_size",
    "transform",
    "__version__",
]
