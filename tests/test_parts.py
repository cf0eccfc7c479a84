"""A count in parts (``--part I/K``, :func:`parqueens.run.plan.part_units`)
and the parts merged (``merge``, :func:`parqueens.run.merge.merge_parts`):
the parts are disjoint, together all units, the same every time; their
totals add up to the published counts, and the merged checkpoint answers
the whole count with its classes.  A missing, doubled, foreign or
unfinished part is refused in one line, and nothing is written then."""

import os

import pytest

from parqueens.checks import check_part
from parqueens.run.merge import merge_parts
from parqueens.run.plan import part_units, split_count
from parqueens.run.runner import run_count
from parqueens.run.store import CheckpointError

from naive import A000170, A002562


@pytest.mark.parametrize(("n", "method"), [(16, "join"), (13, "d4"), (12, "mirror")])
def test_parts_are_disjoint_cover_all_units_and_are_the_same_every_time(n, method):
    depth = None if method == "join" else 4
    units = split_count(n, method, 1, depth).units
    for k in (1, 2, 3, 7):
        parts = [part_units(units, (i, k), n) for i in range(1, k + 1)]
        assert all(parts)  # none empty
        ids = [u.id for p in parts for u in p]
        assert ids == [u.id for u in units]  # consecutive, disjoint, all of them
        i = min(2, k)
        again = split_count(n, method, 2, depth, part=(i, k)).units
        assert [u.id for u in again] == [u.id for u in parts[i - 1]]


def test_a_search_in_parts_is_split_alike_whatever_the_jobs():
    one = split_count(14, "d4", 1, part=(1, 3))
    many = split_count(14, "d4", 8, part=(1, 3))
    assert one.depth == many.depth and [u.id for u in one.units] == [u.id for u in many.units]


def test_part_refusals():
    assert check_part("2/8") == (2, 8) and check_part((1, 1)) == (1, 1)
    for bad in ("0/3", "4/3", "x", "1/", "/2", "1/0"):
        with pytest.raises(ValueError, match="part"):
            check_part(bad)
    with pytest.raises(ValueError, match="n = 4 has 1 work unit, too few for 3 parts"):
        run_count(4, part=(1, 3))


# n % 4 = 1, 2, 3, 0: every case of Burnside's classes (the quarter turns fix
# solutions only where it is 0 or 1, the centre queen where it is 1)
@pytest.mark.parametrize("n", [13, 14, 15, 16])
def test_join_parts_add_up_and_merge_to_the_whole_count(n, tmp_path):
    k = 3
    paths = [tmp_path / f"p{i}.db" for i in range(1, k + 1)]
    totals = [run_count(n, part=(i, k), checkpoint=p).total for i, p in enumerate(paths, 1)]
    assert sum(totals) == A000170[n] and all(totals)
    merged = merge_parts(reversed(paths), tmp_path / "all.db")
    assert merged.total == A000170[n] and merged.units == len(split_count(n, "join", 1).units)
    # the merged file answers the whole count, with its classes (Burnside)
    again = run_count(n, unique=True, checkpoint=tmp_path / "all.db", recheck=0)
    assert (again.total, again.fundamental) == (A000170[n], A002562[n])
    assert again.resumed == again.units


def test_search_parts_with_classes_merge_to_the_fundamental_count(tmp_path):
    paths = [tmp_path / f"d{i}.db" for i in (1, 2)]
    for i, p in enumerate(paths, 1):
        r = run_count(12, part=(i, 2), unique=True, method="d4", split_depth=3, checkpoint=p)
        assert r.fundamental is None and r.part == (i, 2)
    merged = merge_parts(paths, tmp_path / "all.db")
    assert (merged.total, merged.fundamental) == (A000170[12], A002562[12])


@pytest.fixture(scope="module")
def parts(tmp_path_factory):
    folder = tmp_path_factory.mktemp("parts")
    paths = {}
    for name, n, i, k in (("a", 13, 1, 3), ("b", 13, 2, 3), ("c", 13, 3, 3), ("x", 12, 3, 3)):
        paths[name] = folder / f"{name}.db"
        run_count(n, part=(i, k), checkpoint=paths[name])
    paths["d4"] = folder / "d4.db"
    run_count(13, part=(3, 3), method="d4", split_depth=3, checkpoint=paths["d4"])
    run_count(13, checkpoint=folder / "whole.db")
    paths["whole"] = folder / "whole.db"
    return folder, paths


@pytest.mark.parametrize(
    ("names", "message"),
    [
        (("a", "b"), r"1 of the 3 parts missing \(part 3 of 3\)"),
        (("a", "b", "b", "c"), r"b.db and .*b.db are both part 2/3"),
        (("a", "b", "x"), r"parts of different counts \(board size: 12 and 13\)"),
        (("a", "b", "d4"), r"parts of different counts \(method: d4 and join\)"),
        (("a", "b", "whole"), r"whole.db is not a part of a count"),
    ],
)
def test_merge_refuses_what_is_not_the_k_parts_of_one_count(parts, names, message, tmp_path):
    _, paths = parts
    out = tmp_path / "out.db"
    with pytest.raises(CheckpointError, match=message):
        merge_parts([paths[k] for k in names], out)
    assert not out.exists()


def test_merge_refuses_an_unfinished_part_and_an_existing_file(parts, tmp_path):
    import sqlite3

    _, paths = parts
    unfinished = tmp_path / "c.db"
    unfinished.write_bytes(paths["c"].read_bytes())
    db = sqlite3.connect(unfinished)
    db.execute("DELETE FROM units WHERE rowid IN (SELECT rowid FROM units LIMIT 1)")
    db.commit()
    db.close()
    with pytest.raises(CheckpointError, match=r"c.db: part 3/3 of n = 13 is not finished"):
        merge_parts([paths["a"], paths["b"], unfinished], tmp_path / "out.db")
    with pytest.raises(CheckpointError, match="already exists"):
        merge_parts([paths["a"], paths["b"], paths["c"]], paths["whole"])


def test_a_parts_checkpoint_is_that_parts_alone(parts):
    _, paths = parts
    with pytest.raises(CheckpointError, match=r"part: 1/3 there, 2/3 now"):
        run_count(13, part=(2, 3), checkpoint=paths["a"])
    with pytest.raises(CheckpointError, match=r"part: 1/3 there, none \(the whole count\) now"):
        run_count(13, checkpoint=paths["a"])


def test_a_part_refused_for_its_units_makes_no_checkpoint(cli, tmp_path):
    path = tmp_path / "z.db"
    with pytest.raises(ValueError, match="too few for 1,000,000 parts"):
        run_count(12, part=(1, 10**6), checkpoint=path)
    r = cli("count", 12, "--part", "53/53", "--checkpoint", path)
    assert r.returncode == 2 and "52 work units, too few for 53 parts" in r.stderr
    assert not path.exists()
    for bad in ("1/\u0662", " 1/2", "1/2/3"):  # ASCII digits only, as for a board size
        assert cli("count", 12, "--part", bad.encode().decode("unicode_escape")).returncode == 2


def test_merge_writes_its_file_whole_or_not_at_all(parts, tmp_path, monkeypatch):
    import parqueens.run.runner as runner

    _, paths = parts
    three = [paths["a"], paths["b"], paths["c"]]
    out = tmp_path / "out.db"
    with pytest.raises(ValueError, match="recheck"):
        merge_parts(three, out, recheck=2)
    with pytest.raises(TypeError, match="a list"):
        merge_parts(paths["a"], out)

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(runner, "run_count", interrupted)
    with pytest.raises(KeyboardInterrupt):
        merge_parts(three, out)
    assert sorted(os.listdir(tmp_path)) == []  # neither the file nor a temporary one
    monkeypatch.undo()
    assert merge_parts([os.fsencode(p) for p in three], out).total == A000170[13]


def test_parts_counted_with_and_without_unique_merge_for_the_join(tmp_path):
    paths = [tmp_path / "u1.db", tmp_path / "u2.db"]
    run_count(14, part=(1, 2), unique=True, checkpoint=paths[0])
    run_count(14, part=(2, 2), checkpoint=paths[1])
    merged = merge_parts(paths, tmp_path / "all.db")
    assert merged.total == A000170[14] and merged.fundamental is None


def test_cli_count_in_parts_then_merge(cli, tmp_path):
    os.chdir(tmp_path)
    outs = []
    for i in (1, 2):
        r = cli("count", 15, "--part", f"{i}/2", "--checkpoint", f"p{i}.db")
        assert r.returncode == 0 and f"part {i}/2 of n = 15: its share" in r.stderr
        outs.append(int(r.stdout))
    assert sum(outs) == A000170[15]
    r = cli("status", "p2.db")
    assert "part=2/2" in r.stdout and "done: total" in r.stdout
    r = cli("merge", "p2.db", "p1.db", "--out", "all.db")
    assert (r.returncode, r.stdout) == (0, f"{A000170[15]}\n")
    r = cli("count", 15, "--unique", "--checkpoint", "all.db")
    assert r.stdout.splitlines()[:2] == [f"total {A000170[15]}", f"fundamental {A002562[15]}"]
    r = cli("merge", "p1.db", "--out", "x.db")
    assert r.returncode == 2 and len(r.stderr.splitlines()) == 1 and not os.path.exists("x.db")
    r = cli("count", 15, "--part", "1/2", "--verify")
    assert r.returncode == 2 and "--part counts a share" in r.stderr


def test_a_finished_part_answers_again(cli, tmp_path):
    # The classes are checked on whole counts only: a part's share of n = 18
    # (its half-turn count is not that of a whole) answers again from its file.
    path = tmp_path / "q1.db"
    first = cli("count", 18, "--unique", "--part", "1/3", "--checkpoint", path)
    again = cli("count", 18, "--part", "1/3", "--checkpoint", path)
    assert first.returncode == again.returncode == 0 and first.stdout == again.stdout


def test_the_dask_backend_without_dask_says_what_to_install(cli, monkeypatch):
    import sys

    for name in ("distributed", "dask.distributed"):
        monkeypatch.setitem(sys.modules, name, None)  # an import of it fails
    r = cli("count", 16, "--backend", "dask")
    assert r.returncode == 2 and r.stdout == "" and "pip install '.[dask]'" in r.stderr
    assert len(r.stderr.splitlines()) == 1
