"""`parqueens first`: the lexicographically first solution, a negative
answer (exit 1) where there is none, and n > 64 sent to `construct`."""

import pytest

import naive
from cli_helpers import assert_one_line_error


@pytest.mark.parametrize("n", [1, 4, 8])
def test_first(cli, n):
    r = cli("first", n)
    want = " ".join(map(str, naive.solutions(n)[0]))
    assert (r.returncode, r.stdout, r.stderr) == (0, f"{want}\n", "")


@pytest.mark.parametrize("n", [2, 3])
def test_first_no_solution(cli, n):
    r = cli("first", n)
    assert (r.returncode, r.stdout, r.stderr) == (1, "", f"parqueens: no solution for n = {n}\n")


def test_first_conflicting_fixed_queens_says_why(cli):
    # as count and solutions do
    r = cli("first", 8, "--fixed", "0:0,1:1")
    assert (r.returncode, r.stdout) == (1, "")
    assert (
        r.stderr == "parqueens: no solution for n = 8: fixed queens 0:0 and 1:1 share a diagonal\n"
    )
    r = cli("first", 8, "--fixed", "0:0,1:2,2:4")  # compatible, but no completion
    assert (r.returncode, r.stdout) == (1, "")
    assert r.stderr == "parqueens: no solution for n = 8 with these fixed queens\n"


def test_first_with_fixed_queens(cli):
    r = cli("first", 8, "--fixed", "0:1")
    want = next(s for s in naive.solutions(8) if s[0] == 1)
    assert r.stdout == " ".join(map(str, want)) + "\n"


def test_first_beyond_64_points_to_construct(cli):
    r = cli("first", 1000)
    assert_one_line_error(r)
    assert r.stderr == (
        "parqueens: error: n = 1000 is too large: the kernels hold a row in a 64-bit mask, "
        "so n <= 64 (construct gives a solution of any size)\n"
    )
