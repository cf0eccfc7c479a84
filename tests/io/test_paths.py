"""What a path names: standard output/input, and the formats of a file name."""

import pathlib

import pytest

from parqueens.io.paths import extension_formats, is_stdio


def test_stdio_is_dash_or_none():
    assert is_stdio("-") and is_stdio(None)
    assert not is_stdio("") and not is_stdio("./-") and not is_stdio(pathlib.Path("-"))


@pytest.mark.parametrize(
    "name, formats",
    [
        ("a.perm", ("perm",)),
        ("A.NPY", ("npy",)),  # case-insensitive
        ("dir.svg/a.board", ("board",)),
        (pathlib.Path("x.matrix"), ("matrix",)),
        ("a.jsonl", ("jsonl",)),
        ("a.json", ("jsonl", "leetcode")),  # jsonl when none is chosen
        ("a.csv", ()),  # an extension of no solution format
        ("a.txt", None),  # text whose content tells
        ("solutions", None),
        (".perm", None),  # a hidden file's name, not an extension
    ],
)
def test_extension_formats(name, formats):
    assert extension_formats(name) == formats
