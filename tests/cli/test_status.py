"""`parqueens status`: what a checkpoint holds, finished or partial, as lines
and as JSON; a missing file or another kind of file refused in one line.
In-process through ``cli.main`` (fixture ``cli``); the checkpoints are made
once (fixture ``real_checkpoints``) and copied where a test changes them."""

import json
import re
import shutil
import sqlite3

import pytest

from parqueens.run.store import _run_checksum

from cli_helpers import assert_one_line_error
from naive import A000170


def test_status_names_ranges_with_gaps(tmp_path, cli):
    ck = tmp_path / "t.db"
    assert cli("table", "4,6,8-9", "--checkpoint", ck, "-q").returncode == 0
    assert "method=join, n = 4,6,8-9\n" in cli("status", ck).stdout


def test_status_json(cli, tmp_path):

    ck = tmp_path / "s.db"
    assert cli("table", "10-11", "--checkpoint", ck, "-q").returncode == 0
    d = json.loads(cli("status", ck, "--json").stdout)
    assert (d["method"], d["fixed"]) == ("join", [])
    assert [(z["n"], z["done"], z["total"], z["fundamental"]) for z in d["sizes"]] == [
        (10, True, 724, 92),
        (11, True, 2680, 341),
    ]


_STATUS_LINE = re.compile(r"n = (\d+) \(\w+\): (\d+)/(\d+) units")


def test_status_finished(real_checkpoints, cli):
    r = cli("status", real_checkpoints / "count12.sqlite")
    assert r.returncode == 0, r.stderr
    lines = [line for line in r.stdout.splitlines() if _STATUS_LINE.search(line)]
    assert len(lines) == 1, r.stdout
    n, done, total = map(int, _STATUS_LINE.search(lines[0]).groups())
    assert n == 12 and done == total > 0
    assert str(A000170[12]) in lines[0]
    assert "left" not in lines[0]


def test_status_finished_table(real_checkpoints, cli):
    r = cli("status", real_checkpoints / "table.sqlite")
    assert r.returncode == 0, r.stderr
    lines = [line for line in r.stdout.splitlines() if _STATUS_LINE.search(line)]
    assert [int(_STATUS_LINE.search(x).group(1)) for x in lines] == [8, 9]
    for line, n in zip(lines, (8, 9), strict=False):
        _, done, total = map(int, _STATUS_LINE.search(line).groups())
        assert done == total > 0
        assert str(A000170[n]) in line


def test_status_finished_table_with_tiny_sizes(real_checkpoints, cli):
    # n = 1 and 2 are solved directly, without work units; a finished table
    # must still not report them as "not started".
    r = cli("status", real_checkpoints / "tiny.sqlite")
    assert r.returncode == 0, r.stderr
    for n in range(1, 6):
        lines = [line for line in r.stdout.splitlines() if line.startswith(f"n = {n} (")]
        assert len(lines) == 1, r.stdout
        assert "not started" not in lines[0], r.stdout
        assert re.search(rf"total {A000170[n]}\b", lines[0]), r.stdout


@pytest.mark.parametrize("made", ["count13", "join13"])
def test_status_partial(real_checkpoints, cli, tmp_path, made):
    path = tmp_path / "partial.sqlite"
    shutil.copy(real_checkpoints / f"{made}.sqlite", path)
    db = sqlite3.connect(path)
    with db:
        depth, units_total = db.execute(
            "SELECT split_depth, units_total FROM runs WHERE n = 13"
        ).fetchone()
        gone = db.execute(
            "SELECT unit_id, solutions, s1, s2, s4, s8 FROM units ORDER BY unit_id LIMIT 40"
        ).fetchall()
        db.executemany("DELETE FROM units WHERE n = 13 AND unit_id = ?", [(g[0],) for g in gone])
        # As a run interrupted there leaves its record: not finished, no totals.
        method = "join" if made == "join13" else "d4"
        checksum = _run_checksum(13, depth, units_total, 1, 0, None, None, method)
        db.execute(
            "UPDATE runs SET finished = 0, total = NULL, fundamental = NULL, seconds = 12.5, "
            "checksum = ? WHERE n = 13",
            (checksum,),
        )
    db.close()
    if made == "join13":  # a join unit's count is its share of the total
        missing = sum(int(sol) for _, sol, *_ in gone)
    else:  # a d4 unit's classes, each weighed by its orbit size
        missing = sum(8 * int(a) + 4 * int(b) + 2 * int(c) + int(e) for _, _, a, b, c, e in gone)
    r = cli("status", path)
    assert r.returncode == 0, r.stderr
    lines = [line for line in r.stdout.splitlines() if _STATUS_LINE.search(line)]
    assert len(lines) == 1, r.stdout
    n, done, total = map(int, _STATUS_LINE.search(lines[0]).groups())
    assert (n, done, total) == (13, units_total - 40, units_total)
    assert str(A000170[13] - missing) in lines[0], (lines[0], A000170[13] - missing)
    assert "left" in lines[0]
    # The largest unit at the rate so far (its modelled share of the work).
    assert "its largest unit about" in lines[0], lines[0]
    z = json.loads(cli("status", path, "--json").stdout)["sizes"][0]
    assert 0 < z["largest_unit_seconds"] <= z["seconds_left"], z


def test_status_missing_file(cli, tmp_path):
    r = cli("status", tmp_path / "nope.sqlite")
    assert_one_line_error(r)
    assert not (tmp_path / "nope.sqlite").exists()


def test_status_not_a_checkpoint(cli, tmp_path):
    path = tmp_path / "notes.txt"
    path.write_text("hello\n")
    r = cli("status", path)
    assert_one_line_error(r)
    assert path.read_text() == "hello\n"


def test_status_names_fixed_queens(cli, tmp_path):
    ck = tmp_path / "f.db"
    assert cli("count", 8, "--fixed", "0:0", "--checkpoint", ck).stdout == "4\n"
    r = cli("status", ck)
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines()[0].endswith("method=plain fixed=0:0, n = 8")
    assert "done: total 4" in r.stdout


def test_status_fixed_squares_from_one(cli, tmp_path):
    assert cli("count", 8, "--fixed", "2:3", "--one-based", "--checkpoint", "c.db", cwd=tmp_path)
    assert "fixed=1:2" in cli("status", "c.db", cwd=tmp_path).stdout
    assert "fixed=2:3" in cli("status", "c.db", "--one-based", cwd=tmp_path).stdout


def test_status_of_a_unique_table_names_n_3s_classes(cli, tmp_path):
    path = tmp_path / "tu.db"
    assert cli("table", "1-5", "--unique", "--checkpoint", path).returncode == 0
    r = cli("status", path)
    assert "n = 3 (plain): 2/2 units, done: total 0, fundamental 0 (" in r.stdout, r.stdout


def test_status_never_says_minus_zero_seconds_left(cli, tmp_path, monkeypatch):
    # Every unit stored, the size not marked finished: the shares' float sum
    # just over 1 gave "about -0.0 s of work left".
    import parqueens.run.status as status

    from checkpoint_helpers import reseal, sql

    path = tmp_path / "z.db"
    assert cli("count", 10, "--checkpoint", path, "-q").returncode == 0
    sql(path, "UPDATE runs SET finished = 0")
    reseal(path)
    monkeypatch.setattr(status, "_done_share", lambda *args: (1.0 + 1e-12, 0.0))
    r = cli("status", path)
    assert "about 0.0 s of work left" in r.stdout and "-0.0" not in r.stdout, r.stdout


def test_time_left_counts_what_a_resume_does_first():
    # The pace so far, plus what a resume does before it goes on: plan the
    # units again (timed where status planned them) and recheck stored ones
    # (2 % of their time): at n = 19 the time left said 15-40 % low.
    from parqueens.run.status import seconds_left

    assert seconds_left(10.0, 0.5, planning=0.3) == 10.5  # 10 + 0.3 + 0.2
    assert seconds_left(30.0, 0.25) == 90.6
    # nothing left to search: no resume's work (and never -0.0)
    assert seconds_left(100.0, 1.0 + 1e-12, planning=0.5, units_left=False) == 0.0


def test_status_of_a_size_started_with_no_unit_finished(cli, tmp_path, monkeypatch):
    # A run stopped before its first unit was stored: no "total so far 0".
    import parqueens.run.runner as runner

    def interrupted(todo, **kwargs):
        raise KeyboardInterrupt
        yield

    path = tmp_path / "s.db"
    monkeypatch.setattr(runner, "iter_chunks", interrupted)
    assert cli("count", 12, "--checkpoint", path).returncode == 130
    r = cli("status", path)
    assert re.fullmatch(
        r"n = 12 \(join\): 0/(\d+) units, started: no unit finished yet \(no total so far, "
        r"no time left known\)",
        r.stdout.splitlines()[1],
    ), r.stdout
