"""The names and limits that the library and the command line share
(parqueens.names)."""

import importlib.metadata

from parqueens import checks, names


def test_names_are_the_ones_used():
    from parqueens.search import units

    # (the formats: one object per name, tests/io/test_registry.py)
    assert set(units.WEIGHTS) == set(names.METHODS)
    assert (
        checks.check_backend(None) == "threads" and checks.check_backend("threading") == "threads"
    )
    import parqueens

    # the version the package says is the one it was installed as
    assert parqueens.__version__ == importlib.metadata.version("parqueens")
    assert "importlib" not in dir(parqueens)
