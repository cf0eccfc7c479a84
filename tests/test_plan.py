"""A count decided once (parqueens.run.plan): the run's identity names the default
method."""

from parqueens.run.plan import run_identity


def test_run_identity_names_the_default():
    # the default: the join where it serves, d4 elsewhere, named "join"
    assert run_identity(None, False, ()) == run_identity("join", False, ())
    assert run_identity(None, False, ())["method"] == "join" != run_identity("d4", False, ())
    assert run_identity(None, False, [(1, 2), (0, 0)]) == {
        "method": "plain",
        "unique": False,
        "fixed": [[0, 0], [1, 2]],
    }
