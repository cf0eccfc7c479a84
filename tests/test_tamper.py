"""Stored results changed with valid checksums (a faulty machine writes such
rows, and so does an edit that recomputes them): every stored column of a
unit row and of a size's record, changed in turn, and what catches it: the
columns of a unit checked against each other when it is read, a size's sums
against its record and against the solutions fixed by the turns counted
apart, Burnside's lemma for the join; what only ``--recheck 1`` catches,
and what no count depends on (the node count, the origin, the work time)."""

import shutil
import sqlite3

import pytest

from parqueens.run.runner import run_count
from parqueens.run.status import checkpoint_status
from parqueens.run.store import CheckpointError, ResultMismatch

from checkpoint_helpers import reseal
from naive import A000170, A002562

UNIT = "unit_id = (SELECT unit_id FROM units WHERE s1 > 0 OR unit_id LIKE 'join%' LIMIT 1)"
ADDS_UP = "the stored result does not add up"
RECORD = "but n = 10 was finished with"
TURNS = "are inconsistent with the 12 solutions fixed by the half turn"
OK = None
D4_TURNS = "s2 = s2 + 1, solutions = solutions + 4"

# column changed -> (what status says, what a resumed count says) for a
# finished d4 size of n = 10 (units and record), OK where it passes.
D4 = {
    "solutions = solutions + 8": (ADDS_UP, ADDS_UP),
    "s1 = s1 + 1": (ADDS_UP, ADDS_UP),  # classes of 8 members
    "s2 = s2 + 1": (ADDS_UP, ADDS_UP),  # of 4
    "s4 = s4 + 1": (ADDS_UP, ADDS_UP),  # of 2
    "s8 = s8 + 1": (ADDS_UP, ADDS_UP),  # of 1 (n <= 1 only)
    "nodes = nodes + 1": (OK, OK),  # a statistic (--nodes), in no count
    "origin = 'elsewhere/1 run 0'": (OK, OK),  # which units the recheck samples
    # The keys: the unit is then another's (none of this run's), searched again.
    "unit_id = unit_id || 'x'": (OK, OK),
    "n = 11": (OK, OK),
    # Two columns that agree: the size's sums against its record, the turns.
    "s1 = s1 + 1, solutions = solutions + 8": (RECORD, RECORD),
    D4_TURNS: (TURNS, TURNS),
}
RUNS = {
    "split_depth = split_depth + 1": (OK, "was split into"),
    "units_total = units_total + 1": (OK, "was split into 1"),
    "classified = 0": (OK, "was counted there without unique=True"),
    "seconds = 99": (OK, OK),  # the work time shown
    "finished = 0": (OK, OK),  # finished again
    "total = total + 8": ("n = 10 add up to 724, " + RECORD, "n = 10 add up to 724, " + RECORD),
    "fundamental = fundamental + 1": ("classes of n = 10 add up to 92", "add up to 92"),
    "method = 'join'": (OK, "n = 10 was counted there by join, not d4"),
}


@pytest.fixture(scope="module")
def made(tmp_path_factory):
    d = tmp_path_factory.mktemp("tamper")
    assert run_count(10, method="d4", unique=True, checkpoint=d / "d4.db").total == A000170[10]
    assert run_count(10, unique=True, checkpoint=d / "join.db").method == "join"
    return d


def _changed(made, tmp_path, name, table, change, unfinished=False):
    path = tmp_path / f"{name}.db"
    shutil.copy(made / f"{name}.db", path)
    db = sqlite3.connect(path)
    with db:
        db.execute(f"UPDATE {table} SET {change}" + (f" WHERE {UNIT}" if table == "units" else ""))
        if unfinished:  # as an interrupted run leaves it: no totals to compare with
            db.execute("UPDATE runs SET finished = 0, total = NULL, fundamental = NULL")
    db.close()
    reseal(path)
    return path


def _outcome(call):
    try:
        result = call()
    except CheckpointError as exc:
        return str(exc)
    return result


def _check(said, expected):
    if expected is OK:
        assert not isinstance(said, str), said
    else:
        assert isinstance(said, str) and expected in said, said


@pytest.mark.parametrize("table, cases", [("units", D4), ("runs", RUNS)])
def test_each_stored_column_of_d4_changed_with_its_checksum(made, tmp_path, table, cases):
    for change, (status, count) in cases.items():
        path = _changed(made, tmp_path, "d4", table, change)
        _check(_outcome(lambda path=path: checkpoint_status(path)), status)
        said = _outcome(lambda path=path: run_count(10, unique=True, checkpoint=path, recheck=0))
        _check(said, count)
        if count is OK:
            assert (said.total, said.fundamental) == (A000170[10], A002562[10]), change


def test_two_agreeing_columns_of_an_unfinished_size_only_the_recheck_catches(made, tmp_path):
    # One class of 8 more and 8 solutions more: every invariant holds, the
    # record has no total yet; only searching the unit again tells.
    change = "s1 = s1 + 1, solutions = solutions + 8"
    path = _changed(made, tmp_path, "d4", "units", change, unfinished=True)
    assert run_count(10, checkpoint=path, recheck=0).total == A000170[10] + 8
    path = _changed(made, tmp_path, "d4", "units", change, unfinished=True)
    with pytest.raises(ResultMismatch, match="searched again"):
        run_count(10, checkpoint=path, recheck=1)
    # The classes of 4 against the turns, though: caught without the record.
    path = _changed(made, tmp_path, "d4", "units", D4_TURNS, unfinished=True)
    with pytest.raises(ResultMismatch, match=TURNS):
        run_count(10, checkpoint=path, recheck=0)


def test_each_stored_column_of_a_join_unit_changed_with_its_checksum(made, tmp_path):
    join = {
        "solutions = solutions + 1": "inconsistent",  # Burnside's division
        "s1 = s1 + 1": "a join unit holds no classes",
        "s2 = s2 + 1": "a join unit holds no classes",
        "s4 = s4 + 1": "a join unit holds no classes",
        "s8 = s8 + 1": "a join unit holds no classes",
        "nodes = nodes + 1": "a join unit holds no classes and no nodes",
        "solutions = solutions + 8": RECORD,  # divides: the record tells
    }
    for change, expected in join.items():
        path = _changed(made, tmp_path, "join", "units", change)
        _check(_outcome(lambda path=path: run_count(10, checkpoint=path, recheck=0)), expected)
    # +8 in a size not finished yet keeps Burnside's divisions: the recheck finds it.
    path = _changed(made, tmp_path, "join", "units", "solutions = solutions + 8", True)
    assert run_count(10, checkpoint=path, recheck=0).total == A000170[10] + 8
    path = _changed(made, tmp_path, "join", "units", "solutions = solutions + 8", True)
    with pytest.raises(ResultMismatch, match="searched again"):
        run_count(10, checkpoint=path, recheck=1)
