"""Bulk parsing of perm lines with a numba kernel, imported by
:class:`parqueens.io.reading.LineReader` only when a whole file is read in
blocks, so that reading a few lines does not load numba.

:func:`perm_lines` reads the lines of the perm format as parqueens writes
them: columns in decimal without leading zeros, separated by single spaces,
each line ended by ``\\n`` (or ``\\r\\n``).  It stops at the first line that
is not exactly that, or that has another length or a column out of range;
the caller reads that line and the rest one by one, which gives the exact
error messages.
"""

import numpy as np
from numba import njit

__all__ = ["perm_lines"]


_SPACE, _LF, _CR, _ZERO_DIGIT, _NINE = 32, 10, 13, 48, 57


@njit(cache=True, nogil=True)
def _perm_lines(data, n, offset, out):
    """Parse whole perm lines of ``data`` (uint8, ending after a ``\\n``)
    into ``out`` (int64, shape ``(lines, n)``), columns less ``offset``.

    Returns ``(rows, consumed)``: the lines parsed and the bytes they span;
    the first line not parsed (if any) starts at ``consumed``.
    """
    rows = 0
    pos = 0
    size = data.shape[0]
    while pos < size and rows < out.shape[0]:
        i = pos
        col = 0
        ok = True
        while True:
            # one column: digits, no leading zero but for 0 itself
            start = i
            value = 0
            while i < size and _ZERO_DIGIT <= data[i] <= _NINE and i - start < 4:
                value = value * 10 + (data[i] - _ZERO_DIGIT)
                i += 1
            if i == start or (data[start] == _ZERO_DIGIT and i - start > 1) or col == n:
                ok = False
                break
            value -= offset
            if value < 0 or value >= n:
                ok = False
                break
            out[rows, col] = value
            col += 1
            if i < size and data[i] == _SPACE:
                i += 1
                continue
            if i < size and data[i] == _CR:
                i += 1
            if i < size and data[i] == _LF and col == n:
                i += 1
                break
            ok = False
            break
        if not ok:
            break
        rows += 1
        pos = i
    return rows, pos


def perm_lines(lines, n, offset):
    """The rows of the leading perm lines of ``lines`` (a list of bytes,
    each ending with its newline) of exactly n columns in ``offset..n - 1 +
    offset``: an int64 array of shape ``(k, n)``, columns less ``offset``;
    k is the number of lines parsed before the first that is not such a
    line (0 to ``len(lines)``).  ``n`` must be >= 1."""
    out = np.empty((len(lines), n), np.int64)
    rows, _ = _perm_lines(np.frombuffer(b"".join(lines), np.uint8), n, offset, out)
    return out[:rows]
