"""Checking lists of solutions (parqueens.verify): the block-wise verifier
against a plain reference (one solution at a time, a set of those seen),
with one bad row at the start, middle or end of a file, across block
boundaries, in npy and text."""

import numpy as np
import pytest

from parqueens.formats import SolutionWriter, read_solutions
from parqueens.run.listing import iter_blocks
from parqueens.symmetry import canonical
from parqueens.verify import check_blocks

from naive import first_attack, is_solution


def reference(rows, unique):
    """(count, invalid, duplicates, not canonical, distinct, first problem)"""
    seen, first = set(), None
    counts = [0, 0, 0, 0, 0]
    for i, q in enumerate(map(tuple, np.asarray(rows).tolist())):
        counts[0] += 1
        if not is_solution(q):
            counts[1] += 1
            first = first or (
                f"solution {i + 1} {list(q)} is not a valid placement: {first_attack(q)}"
            )
        elif q in seen:
            counts[2] += 1
            first = first or f"solution {i + 1} {list(q)} is a duplicate"
        else:
            seen.add(q)
            if unique and q != canonical(q):
                counts[3] += 1
                first = first or f"solution {i + 1} {list(q)} is not in canonical form"
            else:
                counts[4] += 1
    return (*counts, first)


def as_tuple(r):
    return (r.count, r.invalid, r.duplicates, r.not_canonical, r.distinct, r.first_problem)


ALL10 = np.concatenate(list(iter_blocks(10)))
UNIQUE10 = np.concatenate(list(iter_blocks(10, unique=True)))


def spoiled(kind, where, unique):
    rows = (UNIQUE10 if unique else ALL10).copy()
    i = {"start": 0, "middle": len(rows) // 2, "end": len(rows) - 1}[where]
    if kind == "invalid":
        rows[i] = np.arange(10)[::-1] if where == "middle" else np.arange(10)  # on a diagonal
    elif kind == "duplicate":
        j = 0 if i else len(rows) // 3
        rows = np.insert(rows, i if i else 1, rows[j], axis=0)
    else:  # a non-canonical member of a class in the unique list
        rows[i] = rows[i][::-1]
    return rows


@pytest.mark.parametrize("kind", ["invalid", "duplicate", "other"])
@pytest.mark.parametrize("where", ["start", "middle", "end"])
@pytest.mark.parametrize("unique", [False, True])
def test_one_bad_row(tmp_path, kind, where, unique):
    rows = spoiled(kind, where, unique)
    want = reference(rows, unique)
    assert want[1:4] != (0, 0, 0) or (kind == "other" and not unique)
    blocks = [rows[i : i + 97] for i in range(0, len(rows), 97)]
    assert as_tuple(check_blocks(blocks, 10, unique)) == want  # the kernels
    assert as_tuple(check_blocks([rows], 10, unique)) == want  # one short block: Python
    for fmt in ("npy", "perm"):
        path = tmp_path / f"x.{fmt}"
        with SolutionWriter(path, fmt, 10, force=True) as w:
            w.write_many(rows)
        got = check_blocks(read_solutions(path).blocks(size=61), None, unique)
        assert as_tuple(got) == want and got.n == 10


def test_sorted_and_shuffled_agree():
    rng = np.random.default_rng(3)
    shuffled = ALL10[rng.permutation(len(ALL10))]
    for rows in (ALL10, shuffled, np.concatenate([shuffled, shuffled[:5]])):
        assert as_tuple(check_blocks([rows], 10, False)) == reference(rows, False)
    empty = check_blocks([], 7, True)
    assert (empty.n, empty.count, empty.first_problem) == (7, 0, None)


def _read_both(path, **kw):
    """What iterating and reading in blocks give: rows or the error message."""
    out = []
    for blocks in (False, True):
        try:
            reader = read_solutions(path, **kw)
            if blocks:
                got = [tuple(r) for b in reader.blocks(size=7) for r in b.tolist()]
            else:
                got = list(reader)
            out.append((got, reader.n))
        except ValueError as exc:
            out.append(str(exc))
    return out


@pytest.mark.parametrize(
    "spoil",
    ["", "  ", "\n", "\r", "x", " 1", "1 ", "01", "99", "\t", "1\n", "100000"],
)
def test_perm_in_bulk_reads_as_line_by_line(tmp_path, spoil, monkeypatch):
    # The bulk parser takes what parqueens writes and hands any other line
    # to the line reader: the same rows, n and messages either way.
    from parqueens.io.reading import LineReader

    monkeypatch.setattr(LineReader, "bulk_from", 2)  # these short files in bulk too
    lines = [" ".join(map(str, q)) for q in ALL10[:40].tolist()]
    for where in (0, 13, 39):
        text = lines.copy()
        text[where] = text[where] + spoil if spoil not in ("\n",) else spoil.strip()
        path = tmp_path / "x.perm"
        path.write_text("\n".join(text) + "\n")
        slow, fast = _read_both(path)
        assert slow == fast, (spoil, where)
        one = tmp_path / "y.perm"
        one.write_text("\n".join(" ".join(str(c + 1) for c in q) for q in ALL10[:9].tolist()))
        slow, fast = _read_both(one, one_based=True)
        assert slow == fast and slow[1] == 10


def test_the_report_as_a_dict_without_a_file_name():
    # docs/library.md shows check_blocks(...).as_dict(), what verify --json prints
    report = check_blocks([np.array([[1, 3, 0, 2], [1, 3, 0, 2]])])
    assert report.as_dict() == {
        "file": None,
        "n": 4,
        "solutions": 2,
        "invalid": 0,
        "duplicates": 1,
        "empty_lines": 0,
        "ok": False,
        "first_problem": "solution 2 [1, 3, 0, 2] is a duplicate",
    }
    assert report.as_dict("s.perm")["file"] == "s.perm"


def test_an_empty_list_passes_only_where_allowed():
    from parqueens.verify import EMPTY, check_blocks

    assert check_blocks([], 8).ok  # the library's default: allowed
    report = check_blocks([], 8, allow_empty=False)
    assert not report.ok and report.as_dict()["first_problem"] == EMPTY
    assert report.summary("s.txt") == f"s.txt: {EMPTY}"
    report.compare(0)  # a complete list of a size without solutions
    assert report.ok
