"""Every Python block of README.md and docs/*.md runs as written, and the
values its comments show are what it returns, so that no page can drift
from the code.

A statement ``expr  # VALUE ...`` is checked when the comment starts with a
Python literal (the longest prefix that reads as one, ``14772512 (int)``
giving 14772512): its value must equal the expression's, a trailing ``...``
in a list or tuple standing for the rest.  Other comments are prose.  A
block preceded by ``<!-- example: not run -->`` (a cluster's address, a
count of minutes) is compiled and its imports run, nothing else.
"""

import ast
import pathlib
import re

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
NOT_RUN = "<!-- example: not run -->"


def _blocks():
    """``(page, line, source, run)`` of each ```python block."""
    found = []
    for page in PAGES:
        text = page.read_text()
        for m in re.finditer(r"^```python\n(.*?)^```$", text, flags=re.M | re.S):
            line = text.count("\n", 0, m.start()) + 1
            before = text[: m.start()].rstrip().rsplit("\n", 1)[-1]
            found.append((page.relative_to(ROOT).as_posix(), line, m.group(1), before != NOT_RUN))
    return found


def _shown(comment):
    """The literal a comment starts with, or ``None`` (prose)."""
    cuts = [i for i, ch in enumerate(comment) if ch in " :"] + [len(comment)]
    for i in sorted(cuts, reverse=True):
        try:
            return ast.literal_eval(comment[:i].strip())
        except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
            continue
    return None


def _matches(value, shown):
    """Whether ``value`` is what the comment shows (``...`` last in a list
    or tuple: its first items)."""
    if isinstance(shown, (list, tuple)) and shown and shown[-1] is Ellipsis:
        return list(value)[: len(shown) - 1] == list(shown[:-1])
    return value == shown


BLOCKS = _blocks()


def test_the_pages_have_python_blocks():
    pages = {page for page, *_ in BLOCKS}
    assert {"README.md", "docs/library.md", "docs/dask.md"} <= pages


@pytest.mark.parametrize("page, line, source, run", BLOCKS, ids=[f"{p}:{n}" for p, n, *_ in BLOCKS])
def test_python_block_runs_as_written(page, line, source, run, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # whatever a block writes goes there
    tree = ast.parse(source, filename=f"{page}:{line}")
    lines = source.splitlines()
    namespace = {"__name__": "__doc_example__"}
    checked = 0
    for stmt in tree.body:
        if not run and not isinstance(stmt, (ast.Import, ast.ImportFrom)):
            continue
        where = f"{page}:{line + stmt.lineno}"
        code = ast.get_source_segment(source, stmt)
        if not isinstance(stmt, ast.Expr):
            exec(compile(ast.Module([stmt], []), where, "exec"), namespace)
            continue
        value = eval(compile(ast.Expression(stmt.value), where, "eval"), namespace)
        comment = lines[stmt.end_lineno - 1].partition("  # ")[2]
        shown = _shown(comment) if comment else None
        if shown is not None:
            assert _matches(value, shown), (
                f"{where}: {code} gives {value!r}, the page shows {comment}"
            )
            checked += 1
    assert checked or not run  # the pattern finds the values


def test_shown_reads_the_comments_as_the_pages_write_them():
    assert _shown("14772512 (int)") == 14772512
    assert _shown("(1, 3, 0, 2): fixed by the quarter turn") == (1, 3, 0, 2)
    assert _shown("14772512, 1846955, {8: 1846189}") == (14772512, 1846955, {8: 1846189})
    assert _shown("CountResult") is None
    assert _shown("numpy.ndarray of int64, shape (10**6,)") is None
    assert _matches([(1, 2), (3, 4), (5, 6)], [(1, 2), (3, 4), ...])
    assert not _matches([(1, 2), (3, 5)], [(1, 2), (3, 4), ...])


# The files the pages' shell sessions read, as the text around them describes them.
SESSION_FILES = {"bad.perm": "0 1 2 3\n1 3 0 2\n"}


def _sessions():
    """``(page, line, command, shown lines)`` of each shell session a page
    shows: a block whose first line is ``$ parqueens ...``, the output below."""
    found = []
    for page in PAGES:
        text = page.read_text()
        for m in re.finditer(r"^```\n\$ parqueens (.*?)\n(.*?)^```$", text, flags=re.M | re.S):
            line = text.count("\n", 0, m.start()) + 2
            where = page.relative_to(ROOT).as_posix()
            found.append((where, line, m.group(1), m.group(2).splitlines()))
    return found


SESSIONS = _sessions()


@pytest.mark.parametrize(
    "page, line, command, shown", SESSIONS, ids=[f"{p}:{n}" for p, n, *_ in SESSIONS]
)
def test_shell_session_prints_what_the_page_shows(page, line, command, shown, cli, tmp_path):
    for name, text in SESSION_FILES.items():
        (tmp_path / name).write_text(text)
    r = cli(*command.split(), cwd=tmp_path)
    assert (r.stdout + r.stderr).splitlines() == shown, f"{page}:{line}"


def test_the_pages_show_shell_sessions():
    assert {page for page, *_ in SESSIONS} >= {"README.md"}
    assert len(SESSIONS) >= 2
