"""The join as counts run it: the default method where it serves, its
classes by Burnside's lemma against d4's classification, its work units in
checkpoints (interrupted, resumed, rechecked), the checkpoint that keeps its
method, and what asks for a search instead."""

import json

import pytest

import parqueens
from parqueens import methods
from parqueens.names import JOIN_MAX_N, JOIN_MIN_N
from parqueens.run.backends import RunInterrupted
from parqueens.run.runner import run_count
from parqueens.run.store import RunStore

from cli_helpers import assert_one_line_error
from naive import A000170, A002562

# ---------------------------------------------------------------- the method


def test_default_method_by_size():
    assert methods.resolve_method(None, 16) == "join"
    assert methods.resolve_method(None, JOIN_MAX_N + 1) == "d4"
    assert methods.resolve_method(None, 3) == "plain"
    # what asks for a search gets one
    assert methods.resolve_method(None, 16, split_depth=3) == "d4"
    assert methods.resolve_method(None, 16, nodes=True) == "d4"
    assert methods.resolve_method(None, 16, fixed=[(0, 0)]) == "plain"


@pytest.mark.parametrize(
    "args, words",
    [
        (["count", 29, "--method", "join"], "not n = 29; use a search method (--method d4)"),
        (["count", 3, "--method", "join"], "not n = 3; use a search method (--method plain)"),
        (["count", 12, "--method", "join", "--split-depth", 3], "the join has no split depth"),
        (["count", 12, "--method", "join", "--nodes"], "--nodes counts a search's nodes"),
        (["count", 12, "--method", "join", "--fixed", "0:0"], "method join cannot be used"),
        (["table", "27-29", "--method", "join"], "not n = 29"),
    ],
)
def test_join_refused_where_it_does_not_serve(cli, args, words):
    r = cli(*args)
    assert_one_line_error(r)
    assert words in r.stderr


@pytest.mark.parametrize("n", range(JOIN_MIN_N, 14))
def test_counts_and_classes_by_the_join(n):
    r = run_count(n, unique=True, jobs=1, method="join")
    d4 = run_count(n, unique=True, jobs=1, method="d4")
    assert (r.method, r.split_depth, r.total, r.fundamental) == ("join", 0, A000170[n], A002562[n])
    # Burnside's classes against d4's own classification, orbit by orbit
    assert r.orbits == d4.orbits and (r.half_turn, r.quarter_turn) == (
        d4.half_turn,
        d4.quarter_turn,
    )


@pytest.mark.slow
@pytest.mark.parametrize("n", [14, 15, 16])
def test_join_and_d4_agree_on_larger_boards(n):
    # n = 17 by the join alone, below (the d4 search of 17 took 5 s of the
    # suite's 90 s).
    r = run_count(n, unique=True, jobs=2)
    d4 = run_count(n, unique=True, jobs=2, method="d4")
    assert r.method == "join" and (r.total, r.orbits) == (d4.total, d4.orbits)
    assert (r.total, r.fundamental) == (A000170[n], A002562[n])


@pytest.mark.slow
def test_join_counts_17():
    r = run_count(17, unique=True, jobs=2)
    assert r.method == "join" and (r.total, r.fundamental) == (A000170[17], A002562[17])


def test_a_wrong_total_is_caught_by_its_classes(monkeypatch):
    # One solution too many: (Q - P) / 8 has a remainder, an internal error.
    import parqueens.join.units as join

    real = join.count_join_units

    def one_more(n, units, stop=None):
        counts = real(n, units, stop)
        return [counts[0] + 1, *counts[1:]]

    monkeypatch.setattr(join, "count_join_units", one_more)
    with pytest.raises(RuntimeError, match="internal error: the counts of n = 12"):
        run_count(12, jobs=1)


def test_library_names(cli):
    assert parqueens.count(16) == A000170[16]
    r = parqueens.count_unique(12)
    assert (r.method, r.fundamental, r.half_turn, r.quarter_turn) == ("join", 1787, 80, 8)
    d = json.loads(cli("count", 12, "--unique", "--json").stdout)
    assert (d["method"], d["fundamental"], d["half_turn"], d["quarter_turn"]) == (
        "join",
        1787,
        80,
        8,
    )
    assert d["orbits"] == {"8": 1765, "4": 18, "2": 4, "1": 0}
    assert "half_turn" not in json.loads(cli("count", 12, "--json").stdout)


# ---------------------------------------------------------------- checkpoints


def test_join_checkpoint_interrupted_and_resumed(tmp_path, monkeypatch):
    path = tmp_path / "j.db"
    real_add = RunStore.add
    calls = []

    def add_then_interrupt(self, n, results, seconds):
        real_add(self, n, results, seconds)
        calls.append(len(results))
        if len(calls) == 2:
            raise KeyboardInterrupt

    with monkeypatch.context() as m:
        m.setattr(RunStore, "add", add_then_interrupt)
        with pytest.raises(RunInterrupted) as info:
            run_count(15, jobs=1, checkpoint=path)
    assert info.value.finished == sum(calls) > 0
    again = run_count(15, jobs=1, checkpoint=path, recheck=0.5, unique=True)
    assert (again.method, again.total, again.fundamental) == ("join", A000170[15], A002562[15])
    assert again.resumed == sum(calls) and again.rechecked == -(-sum(calls) // 2)


def test_d4_checkpoint_goes_on_with_d4(cli, tmp_path):
    # A file made with d4 (as every default run of parqueens 0.2 made them)
    # keeps its method when the command names none, and says so.
    path = tmp_path / "old.db"
    first = cli("count", 13, "--method", "d4", "--checkpoint", path, "--quiet")
    assert first.returncode == 0, first.stderr
    r = cli("count", 13, "--checkpoint", path, "--json")
    d = json.loads(r.stdout)
    assert (d["method"], d["total"], d["resumed"]) == ("d4", A000170[13], d["units"])
    assert f"parqueens: {path} holds a count by d4: going on with d4\n" in r.stderr
    r = cli("table", "12-13", "--checkpoint", path, "--unique")
    assert r.returncode == 0 and "| 13 | 73712 | 9233 | d4 |" in r.stdout, r.stderr
    status = json.loads(cli("status", path, "--json").stdout)
    assert [(z["n"], z["method"]) for z in status["sizes"]] == [(12, "d4"), (13, "d4")]
    # the join asked for by name is another run
    r = cli("count", 13, "--method", "join", "--checkpoint", path)
    assert_one_line_error(r)
    assert "belongs to another run (method: 'd4' there, 'join' now)" in r.stderr


def test_status_and_estimate_name_the_method(cli, tmp_path):
    path = tmp_path / "t.db"
    assert cli("table", "10,12", "--checkpoint", path, "--quiet", "--estimate").returncode == 0
    assert not path.exists()  # an estimate creates nothing
    assert cli("table", "9-10", "--checkpoint", path, "--quiet").returncode == 0
    out = cli("status", path).stdout
    assert "n = 9 (join): " in out and "n = 10 (join): " in out
    e = cli("count", 18, "--estimate").stdout
    assert e.startswith("estimate for n = 18: about ") and "the join's cost model" in e
    e = cli("count", 18, "--estimate", "--method", "d4").stdout
    assert "Knuth's random probes" in e


def test_a_split_depth_names_its_search_in_the_checkpoint(cli, tmp_path):
    # --split-depth asks for a search: the file records d4, its status counts
    # the units as d4's, and a run naming nothing goes on with d4.
    path = tmp_path / "a.db"
    assert cli("count", 11, "--split-depth", 2, "--checkpoint", path, "-q").returncode == 0
    status = json.loads(cli("status", path, "--json").stdout)
    assert status["method"] == "d4"
    assert [(z["method"], z["total"], z["fundamental"]) for z in status["sizes"]] == [
        ("d4", A000170[11], A002562[11])
    ]
    r = cli("count", 11, "--checkpoint", path, "--json")
    assert json.loads(r.stdout)["method"] == "d4" and "going on with d4" in r.stderr


def test_the_join_only_where_its_tables_fit(cli, monkeypatch):
    # Memory for less than the join's tables: the default falls back to d4
    # with a note; the join asked for by name is refused in one line.
    import psutil

    class Little:
        available = 50 * 2**20

    monkeypatch.setattr(psutil, "virtual_memory", lambda: Little)
    r = cli("count", 13, "--jobs", 1, "--json")
    assert json.loads(r.stdout)["method"] == "d4" and json.loads(r.stdout)["total"] == A000170[13]
    assert r.stderr.startswith("parqueens: the join of n = 13 needs about ")
    assert r.stderr.endswith(
        " of memory, 50 MiB are available: counted by d4 (a search, in little memory)\n"
    )
    r = cli("count", 13, "--method", "join", "--jobs", 2)
    assert_one_line_error(r)
    assert r.stderr.endswith("50 MiB are available; use --method d4, or fewer jobs\n")
    r = cli("count", 13, "--method", "join", "--jobs", 1)
    assert r.stderr.endswith("50 MiB are available; use --method d4\n")


def test_a_size_left_to_d4_for_memory_goes_on_with_d4(cli, tmp_path, monkeypatch):
    # A checkpoint made while the join did not fit: its sizes were counted by
    # d4, and the same commands with memory to spare go on with d4.
    import psutil

    class Little:
        available = 50 * 2**20

    path = tmp_path / "m.db"
    with monkeypatch.context() as m:
        m.setattr(psutil, "virtual_memory", lambda: Little)
        r = cli("table", "12-13", "--checkpoint", path, "--jobs", 1, "-q")
        assert r.returncode == 0
        assert cli("count", 14, "--checkpoint", path, "--jobs", 1, "-q").returncode == 0
    r = cli("count", 14, "--checkpoint", path, "--json")
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["method"] == "d4"
    assert json.loads(r.stdout)["total"] == A000170[14]
    assert r.stderr.startswith(f"parqueens: {path} holds a count by d4: going on with d4\n")
    r = cli("table", "12-15", "--checkpoint", path, "--json")
    assert r.returncode == 0, r.stderr
    assert f"{path} holds a count of n = 12, 13, 14 by d4: going on with d4\n" in r.stderr
    assert [row["total"] for row in json.loads(r.stdout)] == A000170[12:16]
    sizes = json.loads(cli("status", path, "--json").stdout)["sizes"]
    assert {z["n"]: z["method"] for z in sizes} == {12: "d4", 13: "d4", 14: "d4", 15: "join"}
    assert "Knuth's random probes" in cli("count", 13, "--checkpoint", path, "--estimate").stdout


def _store_a_wrong_unit(path, n, delta):
    """A faulty machine: one stored unit of n off by ``delta`` solutions,
    with a valid checksum.  Returns its id and its wrong count."""
    import sqlite3

    from checkpoint_helpers import reseal

    with sqlite3.connect(path) as db:
        uid, solutions = db.execute(
            "SELECT unit_id, solutions FROM units WHERE n = ? LIMIT 1", (n,)
        ).fetchone()
        wrong = int(solutions) + delta
        db.execute(
            "UPDATE units SET solutions = ? WHERE n = ? AND unit_id = ?", (str(wrong), n, uid)
        )
    db.close()
    reseal(path)
    return uid, wrong


def test_a_wrong_stored_join_unit_is_named_not_a_traceback(cli, tmp_path):
    # A faulty machine stored one join unit a solution over, with a valid
    # checksum: Burnside's lemma no longer divides, and count, table and
    # status say so in one line naming the file; --recheck 1 finds the unit.
    path = tmp_path / "j.db"
    assert cli("count", 12, "--checkpoint", path, "-q").returncode == 0
    uid, wrong = _store_a_wrong_unit(path, 12, 1)
    said = (
        f"parqueens: error: {path}: the counts of n = 12 are inconsistent",
        "--recheck 1 searches every stored unit of n = 12 again and names the wrong one\n",
    )
    r = cli("count", 12, "--checkpoint", path, "--recheck", 0)
    assert_one_line_error(r)
    assert r.stderr.startswith(said[0]) and r.stderr.endswith(said[1])
    r = cli("status", path)
    assert_one_line_error(r)
    assert r.stderr.startswith(said[0]) and r.stderr.endswith(said[1])
    r = cli("table", 12, "--checkpoint", path, "--recheck", 0)  # before the table's header
    assert_one_line_error(r)
    assert r.stderr.startswith(said[0]) and r.stderr.endswith(said[1])
    r = cli("count", 12, "--checkpoint", path, "--recheck", 1)
    assert_one_line_error(r)
    assert f"unit {uid}: stored {wrong} solutions" in r.stderr


def test_a_wrong_stored_unit_that_divides_is_caught_by_the_record(cli, tmp_path):
    # A unit changed by 8 keeps Burnside's divisions exact; the size's record,
    # finished with the right total, no longer matches the units' sum.
    path = tmp_path / "j8.db"
    assert cli("count", 12, "--checkpoint", path, "-q").returncode == 0
    _store_a_wrong_unit(path, 12, 8)
    for args in (["count", 12, "--checkpoint", path, "--recheck", 0], ["status", path]):
        r = cli(*args)
        assert_one_line_error(r)
        assert r.stderr.startswith(f"parqueens: error: {path}: the units of n = 12 add up to ")
        assert f"but n = 12 was finished with {A000170[12]}: " in r.stderr
    assert cli("count", 12, "--checkpoint", path, "--recheck", 0).returncode == 2  # kept


def test_a_join_checkpoint_without_the_memory_is_refused_in_one_line(cli, tmp_path, monkeypatch):
    # The join's units cannot be resumed by d4: no fallback, one line saying why.
    import psutil

    class Little:
        available = 50 * 2**20

    path = tmp_path / "jl.db"
    assert cli("count", 13, "--checkpoint", path, "-q").returncode == 0
    monkeypatch.setattr(psutil, "virtual_memory", lambda: Little)
    r = cli("count", 13, "--checkpoint", path, "--jobs", 2)
    assert_one_line_error(r)
    assert r.stderr.startswith(f"parqueens: error: {path}: n = 13 was counted there by the join, ")
    assert r.stderr.endswith(
        "50 MiB are available: run it where more memory is free, with fewer jobs, or use "
        "another file\n"
    )
