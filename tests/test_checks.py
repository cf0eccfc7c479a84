"""Validation shared by the library and the command line (parqueens.checks):
rows of queens, one check and one wording wherever the library takes a
placement; Dask scheduler addresses."""

import numpy as np
import pytest

from parqueens import Board, checks, is_solution
from parqueens.checks import check_columns, check_row, check_rows
from parqueens.formats import SolutionWriter, render
from parqueens.pictures import svg
from parqueens.symmetry import canonical

# (input, exception, the whole message)
BAD_TYPES = [
    ("0123", TypeError, "queens must be a sequence of int, got a string"),
    (7, TypeError, "queens must be a sequence of int, got int"),
    ([True, False], TypeError, "queens must contain only integers, got bool"),
    ([1.0, 0], TypeError, "queens must contain only integers, got float"),
    ([None], TypeError, "queens must contain only integers, got NoneType"),
    ([[0]], ValueError, "queens must be one-dimensional, got nested sequences"),
    (np.zeros((2, 2), int), ValueError, "queens must be one-dimensional, got shape (2, 2)"),
    (np.array(3), ValueError, "queens must be one-dimensional, got shape ()"),
    (np.array([1.0, 0.0]), TypeError, "queens must have an integer dtype, got float64"),
    (np.array([True]), TypeError, "queens must have an integer dtype, got bool"),
]


def _writer_write(q):
    with SolutionWriter(None, "perm", 2) as w:
        w.write(q)


# every public function that takes one placement
CALLERS = [
    check_row,
    lambda q: render(q, "perm"),
    _writer_write,
    lambda q: svg([q]),
    Board,
    is_solution,
    canonical,
]


@pytest.mark.parametrize("queens, exc, message", BAD_TYPES)
def test_one_wording_everywhere(queens, exc, message):
    for call in CALLERS:
        with pytest.raises(exc) as info:
            call(queens)
        assert str(info.value) == message, call


def test_columns_as_given_rows_on_the_board():
    a = np.array([1, 3, 0, 2], np.uint8)
    assert check_columns(a) is a  # an array is not copied
    assert check_columns((np.int64(1), 0)) == [1, 0] and type(check_columns([np.int8(1)])[0]) is int
    assert check_row(a) == [1, 3, 0, 2] and check_row(range(3), 3) == [0, 1, 2]
    assert check_row([]) == [] and check_row(np.array([], float)) == []  # n = 0
    with pytest.raises(ValueError, match="^expected a solution of length 4, got length 3$"):
        check_row([0, 1, 2], 4)
    with pytest.raises(ValueError, match=r"^columns must lie in 0\.\.3$"):
        check_row([0, 1, 2, 4])
    with pytest.raises(ValueError, match=r"^columns must lie in 0\.\.3$"):
        check_row([0, -1, 2, 3])
    # off the board: is_solution answers False, the others refuse
    assert is_solution([0, 1, 2, 4]) is False and is_solution([2**70, 0]) is False


def test_rows_lists_stay_lists_arrays_stay_arrays():
    assert check_rows([(1, 0), [0, 1]], 2) == [[1, 0], [0, 1]]
    assert check_rows([], 5) == []
    a = np.array([[1, 0]], np.uint16)
    assert check_rows(a, 2) is a
    assert check_rows(np.zeros((0, 3), np.uint8), 3).dtype == np.int64
    for rows, exc, words in [
        (np.zeros((2, 3), int), ValueError, r"shape \(count, 2\), got shape \(2, 3\)"),
        (np.zeros((2, 2)), TypeError, "solutions must have an integer dtype, got float64"),
        (np.array([[0, 2]]), ValueError, r"columns must lie in 0\.\.1"),
        ([(0, 2)], ValueError, r"columns must lie in 0\.\.1"),
    ]:
        with pytest.raises(exc, match=words):
            check_rows(rows, 2)


@pytest.mark.parametrize(
    "address",
    [
        "tcp://10.0.0.5:8786",
        "10.0.0.5:8786",
        "tls://sched.example.org:8786",
        "tcp://[::1]:8786",
        "ws://node-1:8786",
        "inproc://10.0.0.5/12345/1",
        " tcp://host_a:1 ",
    ],
)
def test_scheduler_addresses_taken(address):
    assert checks.check_scheduler(address) == address.strip()
