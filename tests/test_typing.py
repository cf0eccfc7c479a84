"""The package as its users' tools see it: the public API typed (PEP 484),
the marker that tells type checkers so (PEP 561) and the license, both
shipped in the wheel; CI runs mypy on the package (configured in
pyproject.toml)."""

import inspect
import pathlib
import re

import pytest

import parqueens
import parqueens.formats
import parqueens.pictures
import parqueens.run.listing
import parqueens.run.runner
import parqueens.symmetry
import parqueens.verify

ROOT = pathlib.Path(__file__).resolve().parents[1]

# What README and docs/library.md show.
PUBLIC = [
    parqueens.count,
    parqueens.count_unique,
    parqueens.run_count,
    parqueens.solutions,
    parqueens.first_solution,
    parqueens.construct,
    parqueens.is_solution,
    parqueens.Board.__new__,
    parqueens.Board.svg,
    parqueens.CountResult.as_dict,
    parqueens.UniqueCountResult.of,
    parqueens.symmetry.transform,
    parqueens.symmetry.canonical,
    parqueens.symmetry.orbit,
    parqueens.symmetry.orbit_size,
    parqueens.symmetry.stabilizer,
    parqueens.run.runner.estimate,
    parqueens.run.listing.iter_blocks,
    parqueens.run.listing.planned_count,
    parqueens.pictures.svg,
    parqueens.formats.render,
    parqueens.verify.check_blocks,
    parqueens.verify.why_invalid,
    parqueens.verify.VerifyReport.as_dict,
]


@pytest.mark.parametrize("function", PUBLIC, ids=lambda f: f.__qualname__)
def test_the_public_api_is_annotated(function):
    sig = inspect.signature(function)
    untyped = [
        name
        for name, p in sig.parameters.items()
        if p.annotation is inspect.Parameter.empty and name not in ("self", "cls")
    ]
    assert untyped == []
    assert sig.return_annotation is not inspect.Signature.empty


def test_count_unique_has_its_classes_typed_int():
    # `fund: int = parqueens.count_unique(8).fundamental` passes mypy --strict:
    # the result's classes are typed without None; run_count's stay general.
    import typing

    assert inspect.signature(parqueens.count_unique).return_annotation == "UniqueCountResult"
    hints = typing.get_type_hints(parqueens.UniqueCountResult)
    assert (hints["fundamental"], hints["half_turn"], hints["quarter_turn"]) == (int, int, int)
    assert hints["orbits"] == dict[int, int]
    assert typing.get_type_hints(parqueens.CountResult)["fundamental"] == int | None
    r = parqueens.count_unique(8)
    assert isinstance(r, parqueens.CountResult) and (r.total, r.fundamental) == (92, 12)
    assert r.as_dict() == parqueens.run_count(8, unique=True).as_dict() | {
        "seconds": r.as_dict()["seconds"],
        "run_seconds": r.as_dict()["run_seconds"],
    }
    with pytest.raises(ValueError, match="without its classes"):
        parqueens.UniqueCountResult.of(parqueens.run_count(8))


def _setting(table, key):
    """A line ``key = value`` of a table of pyproject.toml (tomllib is
    Python 3.11's; the package supports 3.10)."""
    text = (ROOT / "pyproject.toml").read_text()
    body = re.search(rf"^\[{re.escape(table)}\]\n(.*?)(?=^\[|\Z)", text, re.M | re.S).group(1)
    return re.search(rf"^{re.escape(key)} = (.*)$", body, re.M).group(1)


def test_py_typed_and_license_are_shipped():
    assert (ROOT / "parqueens" / "py.typed").is_file()
    assert _setting("tool.setuptools.package-data", "parqueens") == '["py.typed"]'
    license_text = (ROOT / "LICENSE").read_text()
    assert license_text.startswith("MIT License")
    assert "Copyright (c) 2026 the parqueens authors" in license_text
    assert _setting("project", "license") == '"MIT"'
    assert _setting("project", "license-files") == '["LICENSE"]'


def test_ci_runs_mypy_from_the_test_extra():
    assert '"mypy>=' in _setting("project.optional-dependencies", "test")
    assert _setting("tool.mypy", "files") == '["parqueens"]'
    lines = (ROOT / ".ci" / "run").read_text().splitlines()
    assert "mypy" in lines
    assert lines.index("mypy") > lines.index("ruff format --check .")
