"""The library's errors for the library: parqueens' own errors derive from
ParqueensError (NoSolution too, still a ValueError), arguments are checked at
the call (a generator's too), and messages name the library's arguments
(``method="d4"``), which the command line says as its options (``--method
d4``), in one place (:func:`parqueens.cli.output.command_line_words`)."""

import pytest

import parqueens
from parqueens.cli.output import command_line_words
from parqueens.errors import ExitStatus, ParqueensError
from parqueens.formats import SolutionWriter, write_text_atomically
from parqueens.run.listing import iter_blocks


def test_no_solution_is_a_parqueens_error_and_a_value_error():
    with pytest.raises(parqueens.NoSolution) as info:
        parqueens.construct(3)
    assert isinstance(info.value, ParqueensError) and isinstance(info.value, ValueError)
    assert (
        info.value.exit_code == ExitStatus.NEGATIVE and str(info.value) == "no solution for n = 3"
    )


def test_construct_without_a_solution_on_the_command_line(cli):
    r = cli("construct", 2)
    assert (r.returncode, r.stdout, r.stderr) == (1, "", "parqueens: no solution for n = 2\n")


@pytest.mark.parametrize(
    "call",
    [
        lambda: parqueens.solutions(-2),
        lambda: parqueens.solutions(8, limit=0),
        lambda: parqueens.solutions(8, unique=True, fixed=[(0, 0)]),
        lambda: iter_blocks(65),
        lambda: iter_blocks(8, jobs=0),
    ],
)
def test_listings_check_their_arguments_at_the_call(call):
    with pytest.raises(ValueError):
        call()  # not only when iterated


LIBRARY_WORDS = [
    # (the call, what the library says, what the command line says of it, its argv)
    (
        lambda: parqueens.count(29, method="join"),
        'use a search method (method="d4")',
        "use a search method (--method d4)",
        ["count", 29, "--method", "join"],
    ),
    (
        lambda: parqueens.count(12, method="join", split_depth=3),
        "the join has no split depth (split_depth is for the search methods",
        "the join has no split depth (--split-depth is for the search methods",
        ["count", 12, "--method", "join", "--split-depth", 3],
    ),
    (
        lambda: parqueens.run_count(12, method="join", nodes=True),
        'nodes=True counts a search\'s nodes (method="d4")',
        "--nodes counts a search's nodes (--method d4)",
        ["count", 12, "--method", "join", "--nodes"],
    ),
    (
        lambda: parqueens.run_count(8, unique=True, fixed=[(0, 0)]),
        "unique=True cannot be combined with fixed queens",
        "--unique cannot be combined with fixed queens",
        ["count", 8, "--unique", "--fixed", "0:0"],
    ),
    (
        lambda: SolutionWriter(None, "npy", 4),
        "npy output needs a file (path=FILE), not standard output",
        "npy output needs a file (--out FILE), not standard output",
        ["first", 4, "--format", "npy"],
    ),
]


@pytest.mark.parametrize("call, library, command_line, argv", LIBRARY_WORDS)
def test_messages_name_the_library_arguments(call, library, command_line, argv, cli):
    with pytest.raises(ValueError) as info:
        call()
    assert library in str(info.value) and "--" not in str(info.value)
    r = cli(*argv)
    assert r.returncode == 2 and command_line in r.stderr, r.stderr


def test_an_existing_output_in_both_words(tmp_path, cli):
    path = tmp_path / "t.perm"
    path.write_text("1 3 0 2\n")
    with pytest.raises(FileExistsError, match=r"use force=True to overwrite"):
        write_text_atomically(path, "x\n")
    r = cli("first", 4, "--out", path)
    assert r.returncode == 2 and "(use --force to overwrite)" in r.stderr


def test_command_line_words():
    assert command_line_words("recheck=1 searches") == "--recheck 1 searches"
    assert command_line_words("(checkpoint='my c.db')") == "(--checkpoint 'my c.db')"
    assert command_line_words("leave out split_depth and nodes=True") == (
        "leave out --split-depth and --nodes"
    )
    # only the arguments: n = 8, prose and other names stay as they are
    assert command_line_words("n = 8, method d4, nodes, x=1") == "n = 8, method d4, nodes, x=1"
