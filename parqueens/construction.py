"""One solution for any n in O(n), and a fast O(n) solution check.

Counting needs a search, but a single solution has a closed form: the
construction of Hoffman, Loessi & Moore (1969) places the queens on the
even columns first and then on the odd columns, with a small repair when
``n mod 6`` is 2 or 3.  Both functions here are vectorised with numpy, so
n = 1,000,000 takes a few tens of milliseconds.

References
----------
E. J. Hoffman, J. C. Loessi and R. C. Moore, "Constructions for the solution
of the m queens problem", Mathematics Magazine 42(2), 66-72, 1969.

B. Bernhardsson, "Explicit solutions to the N-queens problem for all N",
ACM SIGART Bulletin 2(2), 7, 1991 (a survey of the explicit constructions).
"""

from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from .checks import check_columns, check_n
from .errors import ExitStatus, ParqueensError

__all__ = ["NoSolution", "construct", "is_solution"]


class NoSolution(ParqueensError, ValueError):
    """The board has no solution (n = 2 or 3): a parqueens error, and a
    ``ValueError`` as it always was; a negative answer on the command line
    (exit code 1, no ``error:``)."""

    exit_code = ExitStatus.NEGATIVE
    failure = False


def construct(n: int) -> npt.NDArray[np.int64]:
    """One solution of the n-queens problem, built in O(n) time.

    The 1-based column list is the even columns ``2, 4, ...`` followed by
    the odd columns ``1, 3, ...``, with two repairs (Hoffman, Loessi & Moore
    1969; see Bernhardsson 1991 for a survey of such constructions):

    * ``n mod 6 == 2``: the odd part is ``3, 1, 7, 9, ..., 5`` (1 and 3
      swapped, 5 moved to the end);
    * ``n mod 6 == 3``: the even part is ``4, 6, ..., 2`` (2 moved to the
      end) and the odd part ``5, 7, ..., 1, 3`` (1 and 3 moved to the end);
    * otherwise no repair.

    Entry ``row`` of the list minus one is the column of the queen of row
    ``row``.  (The construction is usually stated with the roles of rows and
    columns exchanged; the transpose of a solution is a solution.)

    Parameters
    ----------
    n : int
        Board size, n >= 0, n not 2 or 3.

    Returns
    -------
    numpy.ndarray of int64, shape ``(n,)``
        ``queens[row] = col``, 0-based.  For n = 0 the empty array (the
        empty placement); for n = 1 ``[0]``.

    Raises
    ------
    TypeError
        If ``n`` is not an int (booleans are refused).
    ValueError
        If ``n`` is negative; :class:`NoSolution` (a ValueError) for 2 or 3,
        which have no solution.
    RuntimeError
        If the result fails :func:`is_solution`; it is checked every time
        and this never happens.

    References
    ----------
    E. J. Hoffman, J. C. Loessi and R. C. Moore, Mathematics Magazine 42(2),
    66-72, 1969.  B. Bernhardsson, "Explicit solutions to the N-queens
    problem for all N", ACM SIGART Bulletin 2(2), 7, 1991.
    """
    n = check_n(n, high=None)
    if n in (2, 3):
        raise NoSolution(f"no solution for n = {n}")
    # 1-based columns, as in the papers
    evens = np.arange(2, n + 1, 2, dtype=np.int64)
    odds = np.arange(1, n + 1, 2, dtype=np.int64)
    r = n % 6
    if r == 2:
        odds = np.concatenate(([3, 1], np.arange(7, n + 1, 2, dtype=np.int64), [5]))
    elif r == 3:
        evens = np.concatenate((np.arange(4, n + 1, 2, dtype=np.int64), [2]))
        odds = np.concatenate((np.arange(5, n + 1, 2, dtype=np.int64), [1, 3]))
    queens = np.concatenate((evens, odds)).astype(np.int64) - 1
    if not is_solution(queens):
        raise RuntimeError(f"internal error: the construction failed for n = {n}")
    return queens


def is_solution(queens: Sequence[int] | npt.NDArray[Any]) -> bool:
    """Whether ``queens`` is a solution of the n-queens problem, in O(n).

    Checks that the columns are a permutation of ``range(n)`` and that the
    diagonals ``row - col`` and the anti-diagonals ``row + col`` are all
    distinct, each with one ``numpy.bincount``.

    Parameters
    ----------
    queens : sequence of int or 1-D numpy.ndarray of an integer dtype
        ``queens[row] = col``, 0-based; its length is n.  The empty
        sequence is the solution for n = 0.

    Returns
    -------
    bool
        True for a solution; False for any other 1-D integer input (values
        out of range, repeated columns, two queens on a diagonal).

    Raises
    ------
    TypeError
        If ``queens`` is not a sequence, or its entries are not integers
        (floats, booleans, strings).
    ValueError
        If ``queens`` is not one-dimensional (nested, or a 0-d or 2-D array).
    """
    q = check_columns(queens)  # an integer array, or a list of int
    if isinstance(q, list):
        if any(not -(2**63) <= c < 2**63 for c in q):
            return False  # beyond int64, so certainly out of range
        q = np.asarray(q, dtype=np.int64)
    n = q.shape[0]
    if n == 0:
        return True
    # range check before the cast, so uint64 values cannot wrap
    if q.min() < 0 or q.max() >= n:
        return False
    q = q.astype(np.int64, copy=False)
    rows = np.arange(n, dtype=np.int64)
    for v in (q, rows - q + (n - 1), rows + q):
        if np.bincount(v).max() > 1:
            return False
    return True
