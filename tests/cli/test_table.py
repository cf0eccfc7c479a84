"""`parqueens table`: Markdown on stdout, csv/json/md files, ranges, refusals;
in-process through ``cli.main`` (fixture ``cli``)."""

import csv
import json
import os
import re

import pytest

import parqueens.run.runner as runner

from cli_helpers import assert_one_line_error
from naive import A000170, A002562


def _markdown_rows(text):
    """Parse a Markdown table: (header names, list of row dicts)."""
    lines = [line for line in text.splitlines() if line.strip()]
    assert all(line.startswith("|") and line.endswith("|") for line in lines), text
    cells = [[c.strip() for c in line.strip("|").split("|")] for line in lines]
    header = cells[0]
    assert all(set(c) <= set("-:") and c for c in cells[1]), "second line must be the rule"
    rows = [dict(zip(header, row, strict=False)) for row in cells[2:]]
    assert all(len(row) == len(header) for row in cells[2:])
    return header, rows


def _check_rows(rows, ns, unique):
    assert [int(r["n"]) for r in rows] == list(ns)
    for r in rows:
        n = int(r["n"])
        assert int(r["total"]) == A000170[n], r
        if unique:
            assert int(r["fundamental"]) == A002562[n], r
        else:
            assert "fundamental" not in r
        assert r["method"] in ("join", "d4", "mirror", "plain")
        assert int(r["units"]) >= 0
        assert float(r["seconds"]) >= 0


# ------------------------------------------------------------------ stdout


def test_markdown_on_stdout(cli):
    r = cli("table", "1-12")
    assert r.returncode == 0, r.stderr
    header, rows = _markdown_rows(r.stdout)
    assert header == ["n", "total", "method", "units", "seconds"]
    assert len(r.stdout.strip().splitlines()) == 2 + 12
    _check_rows(rows, range(1, 13), unique=False)
    assert "Traceback" not in r.stderr


def test_markdown_unique_on_stdout(cli):
    r = cli("table", "1-12", "--unique")
    assert r.returncode == 0, r.stderr
    header, rows = _markdown_rows(r.stdout)
    assert header == ["n", "total", "fundamental", "method", "units", "seconds"]
    assert len(r.stdout.strip().splitlines()) == 2 + 12
    _check_rows(rows, range(1, 13), unique=True)


@pytest.mark.parametrize(
    "text,ns", [("4,6,8-10", [4, 6, 8, 9, 10]), ("8", [8]), ("8-10,9,4", [4, 8, 9, 10])]
)
def test_ranges(cli, text, ns):
    r = cli("table", text)
    assert r.returncode == 0, r.stderr
    header, rows = _markdown_rows(r.stdout)
    _check_rows(rows, ns, unique=False)


# ------------------------------------------------------------------ files


def _read_table_file(path, fmt):
    text = path.read_text()
    if fmt == "csv":
        with open(path, newline="") as f:
            reader = csv.DictReader(f)
            return reader.fieldnames, list(reader)
    if fmt == "json":
        data = json.loads(text)
        assert isinstance(data, list)
        return list(data[0]), [{k: v for k, v in row.items()} for row in data]
    return _markdown_rows(text)


@pytest.mark.parametrize(
    "fmt,unique", [("csv", False), ("json", False), ("md", False), ("json", True)]
)
def test_output_file(cli, tmp_path, fmt, unique):
    name = f"{'u' if unique else 'x'}.{fmt}"
    r = cli("table", "1-12", *(["--unique"] if unique else []), "-o", name, cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert r.stdout == "", "the table goes to the file, not stdout"
    path = tmp_path / name
    header, rows = _read_table_file(path, fmt)
    want = ["n", "total"] + (["fundamental"] if unique else []) + ["method", "units", "seconds"]
    assert list(header) == want
    _check_rows(rows, range(1, 13), unique)
    if fmt == "json":
        # JSON keeps numbers as numbers.
        assert all(isinstance(row["total"], int) and isinstance(row["n"], int) for row in rows)
    assert not [p for p in os.listdir(tmp_path) if p.endswith(".part")], "temporary file left"


# ------------------------------------------------------------------ refusals

BAD_RANGES = ["5-3", "1-", "a-b", "", "1-65"]


@pytest.mark.parametrize("text", BAD_RANGES, ids=repr)
def test_bad_range_exit_2(cli, text):
    assert_one_line_error(cli("table", text))


def test_unknown_extension_exit_2(cli, tmp_path):
    r = cli("table", "1-4", "-o", "x.txt", cwd=tmp_path)
    assert_one_line_error(r)
    assert ".csv" in r.stderr
    assert not (tmp_path / "x.txt").exists()


def test_existing_file_refused_without_force(cli, tmp_path):
    (tmp_path / "old.csv").write_text("keep me\n")
    r = cli("table", "1-4", "-o", "old.csv", cwd=tmp_path)
    assert_one_line_error(r)
    assert "--force" in r.stderr
    assert (tmp_path / "old.csv").read_text() == "keep me\n"


def test_force_overwrites(cli, tmp_path):
    path = tmp_path / "t.csv"
    path.write_text("old\n")
    r = cli("table", "4-6", "-o", path, "--force")
    assert r.returncode == 0, r.stderr
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    _check_rows(rows, [4, 5, 6], unique=False)


def test_checkpoint_depth_conflict_refused_before_any_row(cli, tmp_path):
    # The checkpoint recorded other split depths: refused before the header,
    # not after the rows that fit.
    ck = tmp_path / "t.db"
    first = cli("table", "8-11", "--checkpoint", ck, "--quiet", "--method", "d4")
    assert first.returncode == 0, first.stderr
    r = cli("table", "8-11", "--checkpoint", ck, "--split-depth", 3)
    assert r.returncode == 2 and r.stdout == ""
    assert "leave out the split depth (--split-depth)" in r.stderr
    assert len(r.stderr.strip().splitlines()) == 1
    again = cli("table", "8-11", "--checkpoint", ck)  # goes on with the file's d4
    assert again.returncode == 0 and "| 11 | 2680 | d4 |" in again.stdout
    # the kept method said first, then what the sizes resumed, in one line
    lines = again.stderr.splitlines()
    assert lines[0] == f"parqueens: {ck} holds a count by d4: going on with d4"
    assert len(lines) == 2
    assert re.fullmatch(
        rf"parqueens: n = 8-11: resumed (\d+) of \1 units from {re.escape(str(ck))}; "
        r"searched \d+ of them again: the same results",
        lines[1],
    ), lines[1]
    # A size counted by the join has no split depth: refused before any row too.
    joined = tmp_path / "j.db"
    assert cli("table", "8-9", "--checkpoint", joined, "--quiet").returncode == 0
    r = cli("table", "8-9", "--checkpoint", joined, "--split-depth", 3)
    assert r.returncode == 2 and r.stdout == "" and len(r.stderr.splitlines()) == 1
    assert "holds a count by the join, which has no split depth" in r.stderr
    # Sizes without work units record depth 0; the same command runs again.
    small = tmp_path / "s.db"
    for _ in range(2):
        r = cli("table", "1-6", "--checkpoint", small, "--split-depth", 3, "--quiet")
        assert r.returncode == 0 and "| 6 | 4 |" in r.stdout, r.stderr


def test_table_bad_depth_before_any_output(cli):
    r = cli("table", "2-8", "--split-depth", 4)
    assert_one_line_error(r)
    assert r.stderr == (
        "parqueens: error: split depth must be 1..3 for n = 3 and method plain, got 4\n"
    )


def test_table_out_dash_and_estimate_with_out(cli, tmp_path):
    r = cli("table", "4-5", "--out", "-")
    assert r.returncode == 0 and r.stdout.splitlines()[2] == "| 4 | 2 | plain | 0 | 0.0 |"
    r = cli("table", "4-5", "--estimate", "--out", tmp_path / "t.md")
    assert r.returncode == 2 and "--estimate" in r.stderr and not (tmp_path / "t.md").exists()


def test_table_json_on_stdout(cli, tmp_path):

    r = cli("table", "4-9", "--json", "--unique", "--jobs", 1)
    assert r.returncode == 0, r.stderr
    rows = json.loads(r.stdout)
    assert [(d["n"], d["total"], d["fundamental"]) for d in rows] == [
        (n, A000170[n], A002562[n]) for n in range(4, 10)
    ]
    r = cli("table", "4-5", "--json", "--out", tmp_path / "t.json")
    assert r.returncode == 2 and "choose one" in r.stderr


def test_table_refuses_recheck_without_checkpoint_before_its_header(cli):
    r = cli("table", "5-8", "--recheck", 0.5)
    assert_one_line_error(r)
    assert "checkpoint" in r.stderr


def test_a_table_says_what_it_resumed_in_one_line_before_it_searches(cli, tmp_path, monkeypatch):
    path = tmp_path / "t.db"
    assert cli("table", "4-12", "--checkpoint", path, "-q").returncode == 0
    r = cli("table", "4-12", "--checkpoint", path, "--recheck", 1)
    assert r.returncode == 0
    assert r.stderr == (
        f"parqueens: n = 4-12: resumed 467 of 467 units from {path}; searched 467 of them "
        "again: the same results\n"
    )
    # Sizes to search after them: said when the first of them starts, and a
    # table interrupted in it has said it.
    monkeypatch.setattr(runner, "iter_chunks", _interrupted)
    r = cli("table", "11-13", "--checkpoint", path, "--recheck", 0)
    assert r.returncode == 130
    said, interrupted = r.stderr.splitlines()
    assert said == f"parqueens: n = 11-12: resumed 341 of 341 units from {path}"
    assert interrupted.startswith("parqueens: interrupted during n = 13 with 0 of 952 units")


def _interrupted(todo, **kwargs):
    """iter_chunks, interrupted (Ctrl-C) as it starts on units to search."""
    if todo:
        raise KeyboardInterrupt
    yield from ()


@pytest.mark.parametrize("checkpoint", [False, True])
def test_interrupt_between_two_sizes_names_the_last_done(cli, tmp_path, monkeypatch, checkpoint):
    # Ctrl-C while the next size is being planned: the rows printed stand,
    # and the line says how far the table got (not "before the search started").
    from parqueens.run import runner

    real = runner.run_plan

    def interrupted_at_13(plan, **kw):
        if plan.n == 13:
            raise KeyboardInterrupt
        return real(plan, **kw)

    monkeypatch.setattr(runner, "run_plan", interrupted_at_13)
    path = tmp_path / "t.db"
    args = ["table", "11-14", "--jobs", 1] + (["--checkpoint", path] if checkpoint else [])
    r = cli(*args)
    assert r.returncode == 130
    _, rows = _markdown_rows(r.stdout)
    assert [(row["n"], row["total"]) for row in rows] == [("11", "2680"), ("12", "14200")]
    line = "parqueens: interrupted after n = 12, before the next size's search started"
    if checkpoint:
        line += f"; the sizes done are kept in {path}: run `parqueens "
    assert r.stderr.startswith(line) and r.stderr.count("\n") == 1


def test_a_table_stopped_before_its_first_size_prints_no_table(cli, monkeypatch):
    # A Markdown header with no row is no answer: the header comes with the
    # first row, and a table stopped before it prints nothing on stdout.
    from parqueens.run import runner
    from parqueens.run.backends import RunInterrupted

    def interrupted(plan, **kw):
        raise RunInterrupted(plan.n, 3, 52)

    monkeypatch.setattr(runner, "run_plan", interrupted)
    r = cli("table", "11-12", "--jobs", 1)
    assert (r.returncode, r.stdout) == (130, "")
    assert r.stderr == (
        "parqueens: interrupted during n = 11 with 3 of 52 units finished; the finished units "
        "are lost (use --checkpoint FILE to keep them)\n"
    )


@pytest.mark.parametrize(
    "command, out", [(["count", 8], "92\n"), (["table", "8-9", "--json"], '"total": 352')]
)
def test_ctrl_c_after_the_output_says_the_command_had_finished(cli, monkeypatch, command, out):
    # Ctrl-C while a Dask cluster closes (a second or so after the run): the
    # answer was given first, and the line does not say "before the search
    # started" of a finished run.
    import contextlib

    from parqueens.cli import counting

    @contextlib.contextmanager
    def closed_with_ctrl_c(args):
        yield args.jobs
        raise KeyboardInterrupt

    monkeypatch.setattr(counting, "_backend", closed_with_ctrl_c)
    r = cli(*command)
    assert r.returncode == 130 and out in r.stdout
    assert r.stderr == (
        f"parqueens: interrupted after the {command[0]} had finished (its output is complete)\n"
    )


def test_the_table_bar_moves_with_the_work_and_ends_at_100(cli, monkeypatch):
    # the bar over the sizes moves as units finish (not only when a size
    # ends, which made its time left 100 times too long) and ends exactly full
    import tqdm as tqdm_module

    real = tqdm_module.tqdm
    moves = []

    class Recorder(real):
        def __init__(self, *args, **kwargs):
            self.table = kwargs.get("desc") == "table"
            if self.table:
                self.format = kwargs["bar_format"]
            kwargs["disable"] = True
            super().__init__(*args, **kwargs)

        def update(self, k=1):
            if self.table:
                moves.append(k)
            return super().update(k)

    monkeypatch.setattr(tqdm_module, "tqdm", Recorder)
    r = cli("table", "11-13", "--progress", "--method", "d4")
    assert r.returncode == 0 and len(r.stdout.splitlines()) == 5
    assert len(moves) > 3 and all(k > 0 for k in moves)  # more moves than sizes
    assert sum(moves) == pytest.approx(1.0, abs=1e-9)  # 100 %, not 99 % nor past it


def test_run_plan_tells_the_share_of_the_work_done():
    from parqueens.run.plan import plan_run
    from parqueens.run.runner import run_plan

    shares = []
    r = run_plan(plan_run(12, method="d4", jobs=1), on_work=shares.append)
    assert r.total == 14200 and len(shares) > 2
    assert shares == sorted(shares) and shares[-1] == 1.0 and 0 < shares[0] < 1


def test_a_table_whose_last_size_does_not_add_up_prints_nothing(cli, tmp_path):
    # n = 10's units add up to 8 more than its record: refused before the
    # header and the rows of 8 and 9, as a checksum failure is.
    import sqlite3

    from checkpoint_helpers import reseal

    path = tmp_path / "tt.db"
    assert cli("table", "8-10", "--checkpoint", path, "-q").returncode == 0
    with sqlite3.connect(path) as db:
        db.execute(
            "UPDATE units SET solutions = solutions + 8 "
            "WHERE unit_id = (SELECT unit_id FROM units WHERE n = 10 LIMIT 1)"
        )
    db.close()
    reseal(path)
    r = cli("table", "8-10", "--checkpoint", path, "--recheck", 0)
    assert_one_line_error(r)
    assert f"the units of n = 10 add up to {A000170[10] + 8}, but n = 10 was finished" in r.stderr


def test_a_table_over_a_day_is_refused_before_its_small_sizes_are_estimated(cli, monkeypatch):
    # The largest sizes are estimated first: past a day, the join's sampled
    # estimates of n = 22..28 (seconds each) are not waited for.
    from parqueens.join import rowsets

    def sampled(*args, **kwargs):
        raise AssertionError("sampled an estimate the refusal did not need")

    monkeypatch.setattr(rowsets, "sampled_estimate", sampled)
    r = cli("table", "20-40")
    assert r.returncode == 2 and r.stdout == ""
    assert "table 20-40 would take more than " in r.stderr and "add --yes" in r.stderr


@pytest.mark.parametrize(
    ("given", "said"),
    [
        (",", "got ',' (a size missing beside a comma)"),
        ("4,", "got '4,' (a size missing beside a comma)"),
        (" ", "got ' '"),
        ("4-x", "got '4-x'"),
    ],
)
def test_a_bad_range_is_named_as_given(cli, given, said):
    r = cli("table", given)
    assert_one_line_error(r)
    assert r.stderr.endswith(f"a range looks like 1-18, 8 or 4,6,8-12; {said}\n")
