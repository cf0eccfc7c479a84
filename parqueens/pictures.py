"""Pictures of solutions, where README shows them: a compatibility module.

The code lives in :mod:`parqueens.io` (``svg``, the terminal picture);
``parqueens.pictures.svg`` and ``Board`` stay importable from here.
"""

from .io.svg import (  # noqa: F401
    COLUMNS,
    DARK,
    INK,
    LIGHT,
    SQUARE_PX,
    SVG_FOOTER,
    SVG_HEADER_SIZE,
    Board,
    SvgLayout,
    svg,
    svg_header,
    terminal_board,
    terminal_can_show,
)
