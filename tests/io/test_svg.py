"""svg: pictures in a file, on standard output and from the library, the same
drawing; README's pictures are what the tool draws."""

import re
import xml.etree.ElementTree as ET

import pytest

from parqueens import pictures
from parqueens.io import estimate_size, render
from parqueens.run.listing import iter_blocks

SVG = "{http://www.w3.org/2000/svg}"


def _svg(text):
    root = ET.fromstring(text)
    assert root.tag == f"{SVG}svg"
    return root


@pytest.mark.parametrize("labels", [False, True])
def test_svg_file_is_the_library_picture(cli, tmp_path, labels):
    args = ["--labels", "--one-based"] if labels else []
    r = cli("solutions", 6, "--out", "s.svg", *args, cwd=tmp_path)
    assert r.returncode == 0
    text = (tmp_path / "s.svg").read_text()
    assert len(text) <= estimate_size("svg", 6, 4)
    same = pictures.svg(list(iter_blocks(6))[0].tolist(), labels=labels, one_based=labels)
    a, b = _svg(text), _svg(same)  # the file's header is padded with spaces
    assert a.attrib == b.attrib and ET.tostring(a) == ET.tostring(b)
    # a grid of 4 boards of 6 squares, a gap of one (and a margin for labels)
    step = 6 + 1 + labels
    assert a.attrib["viewBox"] == f"0 0 {4 * step - 1} {step - 1}"
    uses = a.findall(f".//{SVG}use")
    assert len(uses) == 24 and {u.attrib["href"] for u in uses} == {"#pq-queen"}
    texts = [t.text for t in a.iter(f"{SVG}text")]
    assert texts == ([str(k) for k in range(1, 7)] * 2 * 4 if labels else [])
    # to stdout: the same document without the padding
    r = cli("solutions", 6, "--format", "svg", *args)
    assert r.stdout == same


def test_svg_one_board_and_queens_placed(cli):
    r = cli("first", 8, "--format", "svg")
    root = _svg(r.stdout)
    assert root.attrib["viewBox"] == "0 0 8 8"
    uses = root.findall(f".//{SVG}use")
    placed = sorted((int(u.attrib["y"]), int(u.attrib["x"])) for u in uses)
    assert placed == list(enumerate((0, 4, 7, 5, 2, 6, 1, 3)))
    assert cli("solutions", 3, "--format", "svg").stdout == pictures.svg([])
    # one board alone has its labels: a margin of one square, 24 px a square
    one = _svg(render([1, 3, 0, 2], "svg", one_based=True))
    assert (one.attrib["width"], one.attrib["viewBox"]) == ("120", "0 0 5 5")
    r = cli("verify", "-", input=r.stdout.encode())
    assert r.returncode == 2 and "svg is a picture" in r.stderr
    r = cli("verify", "-", "--format", "svg", input=b"")
    assert r.returncode == 2 and "invalid choice: 'svg'" in r.stderr


def test_readme_pictures_are_what_the_tool_draws(cli, tmp_path):
    import pathlib

    root = pathlib.Path(__file__).resolve().parents[2]
    readme = (root / "README.md").read_text()
    pictures_shown = re.findall(
        r"!\[[^\]]*`parqueens ([^`]*) --out (docs/[^`]*)`[^\]]*\]\((docs/[^)]*)\)", readme
    )
    assert len(pictures_shown) == 2
    for command, made, shown in pictures_shown:
        assert made == shown
        r = cli(*command.split(), "--out", tmp_path / "p.svg")
        assert r.returncode == 0, r.stderr
        assert (tmp_path / "p.svg").read_bytes() == (root / shown).read_bytes(), command
        (tmp_path / "p.svg").unlink()
