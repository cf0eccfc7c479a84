"""Pictures of solutions: :class:`Board`, a placement that draws itself,
and where the documentation (docs/library.md) shows them, :func:`svg` and
the terminal picture (their code lives in :mod:`parqueens.io.svg` and
:mod:`parqueens.io.terminal_board`).
"""

from collections.abc import Iterable

from .checks import check_row
from .io.board import FORMAT as BOARD
from .io.svg import (  # noqa: F401  (public here too)
    COLUMNS,
    DARK,
    INK,
    LIGHT,
    SQUARE_PX,
    SVG_FOOTER,
    SVG_HEADER_SIZE,
    SvgLayout,
    svg,
    svg_header,
)
from .io.terminal_board import terminal_board, terminal_can_show  # noqa: F401

__all__ = ["Board", "svg"]


class Board(tuple[int, ...]):
    """A placement that draws itself: a tuple of int, ``queens[row] = col``
    (0-based), shown as a picture in a notebook (``_repr_svg_``) and as
    ``Q``/``.`` lines by ``str``.

    ``Board(parqueens.first_solution(8))`` in Jupyter shows the board.  A
    placement that is not a solution (queens attacking each other) is
    drawn too, so that a wrong answer can be looked at, but not without a
    word: :attr:`problem` says why, and creating it warns (UserWarning,
    shown in a notebook).  Raises TypeError/ValueError unless the columns
    lie in ``range(n)``.
    """

    def __new__(cls, queens: Iterable[int]) -> "Board":
        board = super().__new__(cls, check_row(queens))
        if board.problem is not None:
            import warnings

            warnings.warn(f"Board({list(board)}) is not a solution: {board.problem}", stacklevel=2)
        return board

    @property
    def problem(self) -> str | None:
        """Why this placement is not a solution (two queens attacking each
        other, named by their rows and columns), or None for a solution."""
        from .verify import why_invalid

        return why_invalid(self)

    @property
    def n(self) -> int:
        """The board size."""
        return len(self)

    def svg(self, *, labels: bool = True, one_based: bool = False) -> str:
        """This board as an SVG document (see :func:`svg`)."""
        return svg([self], labels=labels, one_based=one_based)

    def _repr_svg_(self) -> str:
        return self.svg()

    def __str__(self) -> str:
        return BOARD.render(list(self))
