"""Checked results (issue 13): every stored row carries a checksum, checked
when read, so an edited, truncated or bit-flipped row is refused with the
unit named and never merged; ``--recheck`` searches stored units again and
catches a wrong result that a faulty machine stored with a valid checksum."""

import sqlite3

import pytest

import parqueens.runner as runner
from parqueens.runner import ResultMismatch, run_count
from parqueens.store import RunStore
from parqueens.tally import UnitResult

from cli_helpers import assert_one_line_error
from naive import A000170


def _sql(path, *statements):
    db = sqlite3.connect(path)
    with db:
        rows = [db.execute(s).fetchall() for s in statements]
    db.close()
    return rows


@pytest.fixture
def finished(cli, tmp_path):
    """A finished `count 11` checkpoint, and one of its units with 10
    solutions or more: (id, solutions as stored)."""
    path = tmp_path / "e.db"
    r = cli("count", 11, "--checkpoint", path)
    assert r.stdout == f"{A000170[11]}\n"
    [[unit]] = _sql(
        path,
        "SELECT unit_id, solutions FROM units WHERE length(solutions) > 1 ORDER BY unit_id LIMIT 1",
    )
    return path, unit


def _refused(cli, path, unit_id):
    for args in (["count", 11, "--checkpoint", path], ["status", path]):
        r = cli(*args)
        assert_one_line_error(r)
        assert unit_id in r.stderr and "checksum" in r.stderr, r.stderr
        assert str(A000170[11] + 8) not in r.stdout


def test_edited_row_refused(cli, finished):
    # The case: one class count raised by one (the total would read 2688).
    path, (uid, _) = finished
    _sql(path, f"UPDATE units SET s1 = s1 + 1 WHERE unit_id = '{uid}'")
    _refused(cli, path, uid)


def test_truncated_row_refused(cli, finished):
    # A count cut short: still a decimal number, so only the checksum can tell.
    path, (uid, _) = finished
    cut = "substr(solutions, 1, length(solutions) - 1)"
    _sql(path, f"UPDATE units SET solutions = {cut} WHERE unit_id = '{uid}'")
    _refused(cli, path, uid)


def test_bit_flipped_row_refused(cli, finished):
    # One bit of the file flipped inside a stored count: its last digit stays
    # a digit (bit 0 of an ASCII digit), so only the checksum can tell.
    path, (uid, solutions) = finished
    raw = bytearray(path.read_bytes())
    at = raw.find(uid.encode() + solutions.encode())
    assert at > 0 and raw.find(uid.encode() + solutions.encode(), at + 1) < 0
    raw[at + len(uid) + len(solutions) - 1] ^= 1
    path.write_bytes(bytes(raw))
    _refused(cli, path, uid)


def test_run_record_checked(cli, finished):
    path, _ = finished
    _sql(path, f"UPDATE runs SET total = '{A000170[11] + 8}'")
    r = cli("status", path)
    assert_one_line_error(r)
    assert "n = 11" in r.stderr and "checksum" in r.stderr


def test_older_format_refused(cli, finished):
    path, _ = finished
    _sql(path, "UPDATE meta SET value = 'parqueens-checkpoint-1' WHERE key = 'format'")
    r = cli("count", 11, "--checkpoint", path)
    assert_one_line_error(r)
    assert "older checkpoint format" in r.stderr


def _plant_wrong_result(monkeypatch, unit_id):
    """A faulty machine: the unit ``unit_id`` comes back one solution short."""
    real = runner.run_chunk

    def faulty(units, unique, nodes=False, stop=None):
        results = real(units, unique, nodes, stop)
        return [
            UnitResult(r.solutions - 1, r.by_stab, r.nodes) if u.id == unit_id else r
            for u, r in zip(units, results, strict=True)
        ]

    monkeypatch.setattr(runner, "run_chunk", faulty)


def test_recheck_catches_a_wrong_stored_result(cli, tmp_path, monkeypatch):
    path = tmp_path / "w.db"
    unit_id = "mirror/12/2.0"  # one of the units of split depth 2
    with monkeypatch.context() as m:
        _plant_wrong_result(m, unit_id)
        r = cli(
            "count", 12, "--method", "mirror", "--split-depth", 2, "--checkpoint", path, "--jobs", 1
        )
    assert r.stdout == f"{A000170[12] - 2}\n"  # the plant worked (weight 2), checksum valid
    r = cli(
        "count", 12, "--method", "mirror", "--split-depth", 2, "--checkpoint", path, "--recheck", 0
    )
    assert r.stdout == f"{A000170[12] - 2}\n"  # nothing searched again
    r = cli(
        "count", 12, "--method", "mirror", "--split-depth", 2, "--checkpoint", path, "--recheck", 1
    )
    assert_one_line_error(r)
    assert unit_id in r.stderr and "searched again" in r.stderr and "DELETE" in r.stderr
    # The hint works: that unit is searched again on resume.
    _sql(path, f"DELETE FROM units WHERE unit_id = '{unit_id}'")
    r = cli(
        "count", 12, "--method", "mirror", "--split-depth", 2, "--checkpoint", path, "--recheck", 1
    )
    assert r.stdout == f"{A000170[12]}\n", r.stderr


def test_recheck_default_sample_and_library(tmp_path, monkeypatch):
    path = tmp_path / "l.db"
    with RunStore(path, {"library": 1}) as store:
        run_count(11, checkpoint=store)
    searched = []
    real = runner.run_chunk

    def spy(units, *args):
        searched.extend(u.id for u in units)
        return real(units, *args)

    monkeypatch.setattr(runner, "run_chunk", spy)
    with RunStore(path, {"library": 1}) as store:
        r = run_count(11, checkpoint=store)  # every unit stored: only the sample runs
        assert r.total == A000170[11] and r.resumed == r.units
        assert len(searched) == runner.RECHECK_UNITS
        searched.clear()
        run_count(11, checkpoint=store, recheck=0.5)
        assert len(searched) == -(-r.units // 2)
        with pytest.raises(ValueError, match="recheck"):
            run_count(11, checkpoint=store, recheck=1.5)
    assert issubclass(ResultMismatch, Exception)


def test_recheck_of_classified_units_by_a_run_without_classes(cli, tmp_path):
    # Units stored by a --unique mirror count serve a plain one; rechecking
    # them all compares their solutions (the run itself finds no classes).
    path = tmp_path / "u.db"
    assert cli("count", 10, "--method", "mirror", "--unique", "--checkpoint", path).returncode == 0
    r = cli("count", 10, "--method", "mirror", "--checkpoint", path, "--recheck", 1)
    assert (r.returncode, r.stdout) == (0, f"{A000170[10]}\n"), r.stderr


def test_library_and_command_line_share_checkpoints(cli, tmp_path):
    path = tmp_path / "lib.db"
    with RunStore(path, {}) as store:
        run_count(12, checkpoint=store)
    r = cli("count", 12, "--checkpoint", path, "--json")
    assert r.returncode == 0, r.stderr
    import json

    d = json.loads(r.stdout)
    assert d["total"] == A000170[12] and d["resumed"] == d["units"]
    r = cli("status", path)
    assert r.returncode == 0 and "n = 12 (join): " in r.stdout and "done: total 14200" in r.stdout
    with RunStore(path, {}) as store:  # and back: the command line's units
        assert run_count(13, checkpoint=store).total == A000170[13]


def test_status_merges_the_units_and_checks_the_records(cli, finished):
    path, (uid, _) = finished
    _sql(path, f"DELETE FROM units WHERE unit_id = '{uid}'")
    r = cli("status", path)
    assert r.returncode == 0 and "done" not in r.stdout and "total so far" in r.stdout
    _sql(path, "UPDATE runs SET seconds = 'abc'")
    r = cli("status", path)
    assert_one_line_error(r)
    assert "no valid work time" in r.stderr and "DELETE FROM runs WHERE n = 11" in r.stderr


def test_hints_are_commands_to_type(cli, tmp_path):
    # the path quoted for a shell, the SQL in double quotes, on one line
    folder = tmp_path / "my runs"
    folder.mkdir()
    path = folder / "e.db"
    assert cli("count", 11, "--checkpoint", path).returncode == 0
    [[(uid,)]] = _sql(path, "SELECT unit_id FROM units LIMIT 1")
    _sql(path, f"UPDATE units SET s1 = s1 + 1 WHERE unit_id = '{uid}'")
    r = cli("count", 11, "--checkpoint", path)
    assert_one_line_error(r)
    assert f"sqlite3 '{path}' \"DELETE FROM units WHERE n = 11 AND unit_id = '{uid}'\"" in r.stderr


def test_recheck_needs_a_checkpoint(cli):
    r = cli("count", 12, "--recheck", 0.5)
    assert_one_line_error(r)
    assert "checkpoint" in r.stderr
    with pytest.raises(ValueError, match="checkpoint"):
        run_count(12, recheck=0.5)


def test_table_refuses_recheck_without_checkpoint_before_its_header(cli):
    r = cli("table", "5-8", "--recheck", 0.5)
    assert_one_line_error(r)
    assert "checkpoint" in r.stderr


def test_status_of_units_without_their_size_record(cli, finished):
    path, _ = finished
    _sql(path, "DELETE FROM runs WHERE n = 11")
    r = cli("status", path)
    assert r.returncode == 0
    assert "n = 11: " in r.stdout and "units stored, without the size's record" in r.stdout
    r = cli("count", 11, "--checkpoint", path, "--json")
    assert r.returncode == 0 and '"resumed": 0' not in r.stdout  # resumed, not searched again
