"""The join's configurations and work units: what a count is made of.

A :class:`JoinUnit` is plain data (a configuration, the north rows of the
east half, for n >= 22 possibly a slice of its row sets) with a stable id;
:func:`configs` gives a board size's configurations (the queens placed
first, their filters and the words' bit layout).  The method and the
weights are described in :mod:`parqueens.join.units`.
"""

import functools
from dataclasses import dataclass, field
from typing import ClassVar

import numpy as np

from .kernels import KIND_CENTER, KIND_EVEN, KIND_PAIR
from .match import KMAX

__all__ = ["JoinUnit", "configs"]


@dataclass(frozen=True)
class JoinUnit:
    """One independent piece of a join count.

    Attributes
    ----------
    n : int
        Board size.
    config : str
        The queens placed first: ``"e"`` (even n, none), ``"c"`` (the centre
        queen) or ``"dc.dr"`` (a middle-row queen ``dc`` columns east of the
        centre, a middle-column queen ``dr`` rows south of it).
    rows : int
        The north rows of the east half, as a mask of local rows (bit ``i``
        for board row ``i``).
    rowsets : tuple of int
        ``()``: all the row sets of ``(config, rows)``; ``(lo, hi)``: those
        at ``lo:hi`` in their fixed order (n >= 22, where one unit's row
        sets are split so that no unit holds much of the work).
    work : float
        Estimated cost, in seconds of a reference machine (see
        :func:`join_estimate`); not part of the unit's identity.

    The count of a unit (:func:`count_join_units`) is its exact share of the
    total, every symmetry weight folded in (see the module text).
    """

    n: int
    config: str
    rows: int
    rowsets: tuple = ()
    work: float = field(default=0.0, compare=False, repr=False)
    #: the method, as a search's unit names its own (:mod:`parqueens.join.method`)
    method: ClassVar[str] = "join"

    @property
    def id(self):
        """Stable text id, e.g. ``"join/18/e/1f"``, ``"join/19/2.5/a3"`` or,
        for a slice of row sets, ``"join/22/e/3c/0-37"``."""
        base = f"join/{self.n}/{self.config}/{self.rows:x}"
        return f"{base}/{self.rowsets[0]}-{self.rowsets[1]}" if self.rowsets else base


# ---------------------------------------------------------------- configurations


@dataclass(frozen=True)
class _Config:
    """A configuration: the queens placed first and what they leave.

    ``cfg``: the kernels' int64 array (rows and columns left, kind, the
    words' real bits; see :mod:`parqueens.join.kernels`); ``fixed``: per
    role, the ``ab`` bits of the placed queens' diagonals (the narrow
    tables, n <= 21); ``fixed_wide``: the same as two masks a role, shape
    ``(4, 2)`` (the tables per row set, see :mod:`parqueens.join.pieces`);
    ``layout``: see :func:`_layout`.
    """

    name: str
    queens: tuple
    cfg: np.ndarray
    fixed: np.ndarray
    fixed_wide: np.ndarray
    diagonal_symmetry: bool
    layout: np.ndarray


def _layout(h, holes, classes=()):
    """A configuration's word layout: where each bit of the plain word (D1
    half, then D2 half) goes.

    The ``real`` bits (those a word can have set) go to ``0..real-1``, the
    sieve's key bits on top of them, best highest: next to the middle of
    each half, where both sides' diagonals are busiest (measured at n = 18:
    a pair of words survives such a bit 77 % of the time, against 90 % and
    more at the ends), the D2 half first; the bits no word has set (the
    placed queens' diagonals, ``holes``) go above 41, the long diagonals
    of even n (``classes``, set only in west words) to 40 and 41, outside
    the matched chunks.  Returns ``(layout, real)``: uint64 (5, 256), see
    :func:`parqueens.join.kernels.arrange`.
    """
    w = 2 * h - 1
    mid = h - 1
    real = [i for i in range(2 * w) if i not in holes and i not in classes]
    keys = sorted(real, key=lambda i: (abs(i % w - mid), -(i // w), -(i % w)))[:KMAX]
    order = [i for i in real if i not in keys] + keys[::-1]
    where = {i: k for k, i in enumerate(order)}
    above = max(40, len(real))
    where.update({c: above + k for k, c in enumerate(classes)})
    where.update({x: above + len(classes) + k for k, x in enumerate(sorted(holes))})
    layout = np.zeros(((2 * w + 7) // 8, 256), np.uint64)
    for byte in range(layout.shape[0]):
        for v in range(256):
            layout[byte, v] = sum(
                1 << where[8 * byte + t] for t in range(8) if v >> t & 1 and 8 * byte + t < 2 * w
            )
    return layout, len(real)


@functools.cache
def configs(n):
    """The configurations of board size n, as a tuple of ``_Config`` (see
    :mod:`parqueens.join.units`): ``"e"`` for even n; for odd n the centre
    queen ``"c"`` and the pairs ``"dc.dr"``."""
    h = n // 2
    w = 2 * h - 1
    sh = n - h
    full = (1 << h) - 1
    low32 = (1 << 32) - 1
    if n % 2 == 0:
        layout, real = _layout(h, set(), (h - 1, w + h - 1))
        cfg = np.array([full, full, full, full, KIND_EVEN, real], np.int64)
        wide = np.zeros((4, 2), np.uint64)
        return (_Config("e", (), cfg, np.zeros(4, np.uint64), wide, True, layout),)
    m = h
    placements = [("c", ((m, m),))]
    for dc in range(1, h + 1):
        for dr in range(dc + 1, h + 1):
            placements.append((f"{dc}.{dr}", ((m, m + dc), (m + dr, m))))
    out = []
    for name, queens in placements:
        d1 = d2 = 0
        rows_s = cols_e = full
        for r, c in queens:
            d1 |= 1 << (r + c)
            d2 |= 1 << (r - c + n - 1)
            if r > m:
                rows_s &= ~(1 << (n - 1 - r))
            if c > m:
                cols_e &= ~(1 << (n - 1 - c))
        holes = {d - sh for d in range(sh, sh + w) if d1 >> d & 1}
        holes |= {w + d - sh for d in range(sh, sh + w) if d2 >> d & 1}
        kind = KIND_CENTER if len(queens) == 1 else KIND_PAIR
        layout, real = _layout(h, holes)
        cfg = np.array([full, rows_s, cols_e, full, kind, real], np.int64)
        # Per role, the U1 part (low word) against one family, U2 against the other.
        east = (d2 & low32) | (((d1 >> sh) & low32) << 32)
        west = (d1 & low32) | (((d2 >> sh) & low32) << 32)
        fixed = np.array([east, west, east, west], np.uint64)
        # Per role: against S (north) or rT << sh (south), and T or rS << sh.
        e2, w2 = (d2, d1 >> sh), (d1, d2 >> sh)
        wide = np.array([e2, w2, e2, w2], np.uint64)
        out.append(_Config(name, queens, cfg, fixed, wide, False, layout))
    return tuple(out)
