"""Every format through the registry: rendering, round trips through a
file (written by SolutionWriter, read back by read_solutions), sizes, and
guessing a format from its content."""

import os

import numpy as np
import pytest

from parqueens.io import SolutionWriter, estimate_size, read_solutions, render
from parqueens.io.npy import NPY_HEADER_SIZE
from parqueens.io.registry import REGISTRY, sniff
from parqueens.names import FORMAT_TRAITS, FORMATS, READABLE_FORMATS

from io_helpers import SOLS6, leftovers, write


def test_render_board_n5():
    assert render((0, 2, 4, 1, 3), "board") == "Q....\n..Q..\n....Q\n.Q...\n...Q.\n"


def test_render_other_formats():
    q = (1, 3, 0, 2)
    assert render(q, "perm") == "1 3 0 2\n"
    assert render(q, "perm", one_based=True) == "2 4 1 3\n"
    assert render(q, "jsonl") == "[1,3,0,2]\n"
    assert render(np.array(q, dtype=np.uint8), "jsonl", one_based=True) == "[2,4,1,3]\n"
    assert render(q, "matrix") == "0 1 0 0\n0 0 0 1\n1 0 0 0\n0 0 1 0\n"
    assert render([0], "board") == "Q\n"
    assert render([], "perm") == "\n"


@pytest.mark.parametrize(
    "q, fmt, exc",
    [
        ((1, 3, 0, 2), "npy", ValueError),
        ((1, 3, 0, 2), "png", ValueError),
        ((1, 3, 0, 4), "perm", ValueError),
        ((1, -1, 0, 2), "perm", ValueError),
        ((1.0, 3, 0, 2), "perm", TypeError),
        ((True, False), "perm", TypeError),
        ([[0]], "perm", ValueError),
        ([None], "perm", TypeError),
        (np.zeros((2, 2), dtype=int), "perm", ValueError),
    ],
)
def test_render_rejects(q, fmt, exc):
    with pytest.raises(exc):
        render(q, fmt)


@pytest.mark.parametrize("fmt", READABLE_FORMATS)
def test_round_trip(tmp_path, fmt):
    path = tmp_path / f"sols.{fmt}"
    w = write(path, fmt, SOLS6)
    assert w.count == 4 and w.closed
    assert list(read_solutions(path)) == SOLS6
    assert list(read_solutions(path, fmt=fmt, n=6)) == SOLS6
    assert os.path.getsize(path) == estimate_size(fmt, 6, 4)
    assert leftovers(tmp_path) == [path.name]


def test_one_based_only_where_numbers_are(tmp_path):
    # npy arrays are 0-based: refused everywhere, as on the command line;
    # board, matrix and leetcode have no numbers: the same text either way
    with pytest.raises(ValueError, match="npy arrays are 0-based"):
        SolutionWriter(tmp_path / "x.npy", "npy", 6, one_based=True)
    write(tmp_path / "y.npy", "npy", SOLS6)
    with pytest.raises(ValueError, match="npy arrays are 0-based"):
        read_solutions(tmp_path / "y.npy", one_based=True)
    for fmt in ("board", "matrix", "leetcode"):
        assert render([1, 3, 0, 2], fmt, one_based=True) == render([1, 3, 0, 2], fmt)
        path = tmp_path / f"y.{fmt}"
        write(path, fmt, SOLS6, one_based=True)
        assert list(read_solutions(path, fmt, one_based=True)) == SOLS6
        assert list(read_solutions(path, fmt)) == SOLS6


@pytest.mark.parametrize("fmt", ["perm", "jsonl"])
def test_round_trip_one_based(tmp_path, fmt):
    path = tmp_path / f"sols.{fmt}"
    write(path, fmt, SOLS6, one_based=True)
    assert list(read_solutions(path, one_based=True)) == SOLS6
    assert os.path.getsize(path) == estimate_size(fmt, 6, 4, one_based=True)
    if fmt == "perm":
        assert path.read_text().splitlines()[0] == "2 4 6 1 3 5"


@pytest.mark.parametrize("fmt", READABLE_FORMATS)
def test_sniffing_without_extension(tmp_path, fmt):
    path = tmp_path / "sols.out"
    write(path, fmt, SOLS6)
    assert list(read_solutions(path)) == SOLS6
    txt = tmp_path / "sols.txt"
    os.replace(path, txt)
    assert list(read_solutions(txt)) == SOLS6


@pytest.mark.parametrize("fmt", FORMATS)
def test_write_many_equals_write(tmp_path, fmt):
    rng = np.random.default_rng(1)
    for n in [1, 2, 3, 9, 10, 11, 12, 101, 300]:
        sols = np.array([rng.permutation(n) for _ in range(7)])
        one = tmp_path / f"one{n}"
        many = tmp_path / f"many{n}"
        kw = {"one_based": n % 2 == 1} if fmt in ("perm", "jsonl") else {}
        write(one, fmt, sols, n=n, **kw)
        with SolutionWriter(many, fmt, n, **kw) as w:
            w.write(sols[0])
            w.write_many(sols[1:4].astype(np.uint16))
            w.write_many(sols[:0])
            w.write_many(sols[4:])
        assert w.count == 7
        assert one.read_bytes() == many.read_bytes(), (fmt, n)
        # lists of tuples (a small listing, written without numpy): the same bytes
        with SolutionWriter(tmp_path / f"lists{n}", fmt, n, **kw) as w:
            w.write_many([tuple(s) for s in sols[:2].tolist()])
            w.write_many([])
            w.write_many(sols[2:].tolist())
        assert (tmp_path / f"lists{n}").read_bytes() == one.read_bytes(), (fmt, n)
        if fmt == "svg":  # an upper bound (labels, digits of the place)
            size = os.path.getsize(one)  # labels counted: at most about 3 times
            assert size <= estimate_size(fmt, n, 7) <= 3.2 * size
        else:
            assert os.path.getsize(one) == estimate_size(fmt, n, 7, **kw)
        if fmt != "svg":  # a picture, not read back
            back = list(read_solutions(many, fmt=fmt, **kw))
            assert back == [tuple(s) for s in sols.tolist()]


@pytest.mark.parametrize("fmt", READABLE_FORMATS)
def test_n0(tmp_path, fmt):
    path = tmp_path / f"zero.{fmt}"
    write(path, fmt, [(), ()], n=0)
    assert list(read_solutions(path, n=0)) == [(), ()]
    assert list(read_solutions(path)) == [(), ()]
    assert os.path.getsize(path) == estimate_size(fmt, 0, 2)
    many = tmp_path / f"many.{fmt}"
    with SolutionWriter(many, fmt, 0) as w:
        w.write_many(np.zeros((1, 0), dtype=int))
        w.write(())
    assert many.read_bytes() == path.read_bytes()
    if fmt == "npy":
        assert np.load(path).shape == (2, 0)
    else:
        # the empty solution is one line: "[]" in jsonl (an element of the
        # array in leetcode), empty in the others
        want = "[[],\n[]]\n" if fmt == "leetcode" else 2 * render((), fmt)
        assert path.read_text() == want
        assert render((), fmt) == ("[]\n" if fmt in ("jsonl", "leetcode") else "\n")


def test_estimate_size_values():
    assert estimate_size("perm", 12, 1) == len(render(range(12), "perm"))
    assert estimate_size("perm", 12, 3, one_based=True) == 3 * len("1 2 3 4 5 6 7 8 9 10 11 12\n")
    assert estimate_size("jsonl", 4, 2) == 2 * len("[1,3,0,2]\n")
    assert estimate_size("board", 4, 2) == 2 * 20 + 1
    assert estimate_size("matrix", 4, 0) == 0
    assert estimate_size("npy", 300, 10) == NPY_HEADER_SIZE + 10 * 300 * 2
    with pytest.raises(ValueError):
        estimate_size("xml", 4, 1)
    with pytest.raises(TypeError):
        estimate_size("perm", 4, 1.5)


def test_read_arguments(tmp_path):
    with pytest.raises(FileNotFoundError):
        read_solutions(tmp_path / "missing.perm")
    path = tmp_path / "a.perm"
    write(path, "perm", SOLS6)
    with pytest.raises(ValueError, match="unknown format"):
        read_solutions(path, fmt="csv")
    with pytest.raises(TypeError):
        read_solutions(path, n=True)


def test_one_format_object_per_name_with_the_declared_traits(tmp_path, capsys):
    # names.FORMAT_TRAITS declares each format; its object must behave so
    assert list(REGISTRY) == list(FORMATS)
    for name, fmt in REGISTRY.items():
        assert fmt.name == name
        traits = FORMAT_TRAITS[name]
        path = tmp_path / f"{name}.out"
        write(path, name, SOLS6[:1])
        if traits["readable"]:
            assert list(read_solutions(path, name)) == SOLS6[:1]
        else:
            with pytest.raises(ValueError, match=f"{name} is a picture"):
                read_solutions(path, name)
        if traits["text"]:
            write(None, name, SOLS6[:1])
            stdout = capsys.readouterr().out.encode()
            # the same bytes, but for the svg file's header padded with spaces
            strip = (lambda b: b.replace(b" ", b"")) if name == "svg" else (lambda b: b)
            assert strip(stdout) == strip(path.read_bytes()) and stdout
        else:
            with pytest.raises(ValueError, match="needs a file"):
                write(None, name, SOLS6[:1])
        if traits["zero_based"]:
            with pytest.raises(ValueError, match="0-based"):
                estimate_size(name, 6, 1, one_based=True)


@pytest.mark.parametrize(
    "line, fmt",
    [
        ('[[".Q..",', "leetcode"),
        ("[", "leetcode"),  # pretty-printed
        ('[ ".Q..",', "leetcode"),
        ("[1,3,0,2]", "jsonl"),
        ("[]", "jsonl"),  # the n = 0 solution
        ("[x", "jsonl"),  # then refused as jsonl ("not valid JSON")
        (". Q . .", "board"),
        ("0 1 0 0", "matrix"),
        ("0 1", "perm"),  # n = 2: ambiguous, read as perm
        ("1 3 0 2", "perm"),
        ("<svg", "svg"),
    ],
)
def test_sniff_from_the_first_line(line, fmt):
    assert sniff([b"\n", line.encode() + b"\n"], one_based=False) == fmt


def test_sniff_magic_and_empty():
    assert sniff([b"\x93NUMPY\x01\x00"], False) == "npy"
    assert sniff([], False) == sniff([b"\n", b"  \n"], False) == "perm"
    assert sniff([b"0 1 0 0\n"], one_based=True) == "perm"  # a 1-based file holds no 0


def test_readme_names_stay_in_parqueens_formats():
    # README shows these in parqueens.formats and parqueens.pictures
    import parqueens.formats as formats
    import parqueens.pictures as pictures

    names = "render SolutionWriter read_solutions estimate_size fits format_bytes"
    names += " check_output_path write_text_atomically NotEnoughSpace npy_dtype SolutionReader"
    assert [name for name in names.split() if not hasattr(formats, name)] == []
    assert [name for name in ("svg", "Board") if not hasattr(pictures, name)] == []
