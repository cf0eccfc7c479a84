"""Board: a placement that draws itself (README's library example), and the
picture module reached after ``import parqueens``."""

import pytest

from parqueens import Board
from parqueens.formats import render
from parqueens.pictures import svg


def test_board_draws_itself():
    b = Board([1, 3, 0, 2])
    assert b == (1, 3, 0, 2) and b.n == 4 and str(b) == ".Q..\n...Q\nQ...\n..Q.\n"
    # in a notebook: the library's picture of it, labelled, as render draws one board
    assert b._repr_svg_() == svg([[1, 3, 0, 2]], labels=True) == render(b, "svg")
    assert b.svg(labels=False, one_based=True) == svg([b], one_based=True)
    assert b.problem is None
    with pytest.raises(ValueError, match="columns must lie in 0..3"):
        Board([1, 3, 0, 4])


def test_board_of_a_wrong_placement_says_why():
    # Drawn, so that a wrong answer can be looked at, but with a word.
    with pytest.warns(UserWarning, match=r"Board\(\[0, 0, 0\]\) is not a solution: the queens "):
        b = Board([0, 0, 0])
    assert b.problem == "the queens of rows 0 and 1 share column 0"
    assert str(b) == "Q..\nQ..\nQ..\n" and b.svg().count('<use href="#pq-queen"') == 3


def test_submodules_without_their_own_import():
    import subprocess
    import sys

    from cli_helpers import cli_env

    code = "import parqueens; print(parqueens.pictures.svg([[0]]).count('<use'))"
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=cli_env())
    assert (r.returncode, r.stdout) == (0, "1\n"), r.stderr
