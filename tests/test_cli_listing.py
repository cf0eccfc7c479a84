"""The listing commands of the command line (solutions, first, construct,
verify, count --fixed), through a subprocess.

Most commands are independent, so they are declared up front in CASES and
run concurrently once per module (fixture ``batch``); each case runs in its
own empty folder, and its steps run in order there.  The tests then check
the recorded results.
"""

import os
import signal
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest

import naive
from parqueens.construct import is_solution
from parqueens.formats import read_solutions
from parqueens.listing import solutions
from parqueens.symmetry import canonical

SOL8 = list(solutions(8, jobs=1))
UNIQUE8 = list(solutions(8, unique=True, jobs=1))
PERM8 = "".join(" ".join(map(str, s)) + "\n" for s in SOL8)
NOT_CANONICAL = next(s for s in SOL8 if canonical(s) != s)

FORMATS = ["perm", "board", "matrix", "jsonl", "npy"]

# name -> (files to create first {name: text}, [step args, ...])
CASES = {
    # ---- output of `solutions` on stdout
    "sol6": ({}, [["solutions", 6, "--jobs", 1]]),
    "board5": ({}, [["solutions", 5, "--format", "board", "--limit", 1, "--jobs", 1]]),
    "matrix4": ({}, [["solutions", 4, "--format", "matrix", "--jobs", 1]]),
    "jsonl6": ({}, [["solutions", 6, "--format", "jsonl", "--jobs", 1]]),
    "perm6_one": ({}, [["solutions", 6, "--one-based", "--jobs", 1]]),
    "limit": ({}, [["solutions", 14, "--limit", 3, "--jobs", 2, "-q"]]),
    # ---- files
    **{f"rt_{fmt}": ({}, [["solutions", 8, "-o", f"x.{fmt}", "--jobs", 1],
                          ["verify", f"x.{fmt}", "--complete", "--jobs", 1]])
       for fmt in FORMATS},
    "jobs_perm": ({}, [["solutions", 10, "-o", "j1.perm", "--jobs", 1, "--force"],
                       ["solutions", 10, "-o", "j2.perm", "--jobs", 2, "--force"]]),
    "jobs_npy": ({}, [["solutions", 10, "-o", "j1.npy", "--jobs", 1, "--force"],
                      ["solutions", 10, "-o", "j2.npy", "--jobs", 2, "--force"]]),
    "unique8": ({}, [["solutions", 8, "--unique", "-o", "u.perm", "--jobs", 1],
                     ["verify", "u.perm", "--unique", "--complete", "--jobs", 1]]),
    "force": ({"x.perm": "keep me\n"},
              [["solutions", 8, "-o", "x.perm", "--jobs", 1],
               ["solutions", 8, "-o", "x.perm", "--jobs", 1, "--force"]]),
    # ---- first
    "first8": ({}, [["first", 8]]),
    "first1": ({}, [["first", 1]]),
    "first2": ({}, [["first", 2]]),
    "first3": ({}, [["first", 3]]),
    # ---- construct
    "construct1000": ({}, [["construct", 1000]]),
    "construct_big": ({}, [["construct", 1000000, "-o", "c.npy"]]),
    # ---- count --fixed
    "count_fixed": ({}, [["count", 8, "--fixed", "0:0"]]),
    "count_conflict": ({}, [["count", 8, "--fixed", "0:0,1:1"]]),
    # ---- verify, negative answers
    "v_invalid": ({"a.perm": PERM8[:16] + "0 1 2 3 4 5 6 7\n"}, [["verify", "a.perm"]]),
    "v_duplicate": ({"a.perm": PERM8[:32] + PERM8[:16]}, [["verify", "a.perm"]]),
    "v_not_canonical": ({"a.perm": " ".join(map(str, NOT_CANONICAL)) + "\n"},
                        [["verify", "a.perm", "--unique"]]),
    "v_incomplete": ({"a.perm": PERM8[:16 * 91]}, [["verify", "a.perm", "--complete",
                                                    "--jobs", 1]]),
    "v_dup_complete": ({"a.perm": PERM8 + PERM8[:16]},
                       [["verify", "a.perm", "--complete", "--jobs", 1]]),
}

# name -> (files, args): each must exit 2 with one line on stderr
EXIT2 = {
    "exists": ({"x.perm": "keep me\n"}, ["solutions", 8, "-o", "x.perm", "--jobs", 1]),
    "missing_folder": ({}, ["solutions", 8, "-o", "nodir/x.perm", "--jobs", 1]),
    "npy_no_out": ({}, ["solutions", 8, "--format", "npy", "--jobs", 1]),
    "one_based_board": ({}, ["solutions", 8, "--format", "board", "--one-based"]),
    "one_based_npy_file": ({}, ["solutions", 8, "-o", "x.npy", "--one-based"]),
    "construct2": ({}, ["construct", 2]),
    "construct3": ({}, ["construct", 3]),
    "fixed_same_row": ({}, ["count", 8, "--fixed", "0:0,0:3"]),
    "fixed_off_board": ({}, ["count", 8, "--fixed", "9:0"]),
    "fixed_letters": ({}, ["count", 8, "--fixed", "abc"]),
    "fixed_unique": ({}, ["count", 8, "--fixed", "0:0", "--unique"]),
    "fixed_d4": ({}, ["count", 8, "--fixed", "0:0", "--method", "d4"]),
    "v_ragged_perm": ({"a.perm": "1 3 0 2\n2 0 3\n"}, ["verify", "a.perm"]),
    "v_letters_perm": ({"a.perm": "1 3 0 2\n2 x 3 1\n"}, ["verify", "a.perm"]),
    "v_missing": ({}, ["verify", "missing.perm"]),
}


def _prepare(folder, files):
    folder.mkdir()
    for name, text in files.items():
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)


@pytest.fixture(scope="module")
def batch(run_cli, tmp_path_factory):
    """Run CASES and EXIT2 concurrently; name -> (folder, [CompletedProcess])."""
    base = tmp_path_factory.mktemp("cli_listing")
    jobs = {}
    for name, (files, steps) in CASES.items():
        jobs[name] = (files, steps)
    for name, (files, args) in EXIT2.items():
        jobs["exit2_" + name] = (files, [args])
    for name, (files, _) in jobs.items():
        _prepare(base / name, files)

    def run(name):
        folder = base / name
        return name, (folder, [run_cli(*args, cwd=folder) for args in jobs[name][1]])

    with ThreadPoolExecutor(max_workers=4) as pool:
        return dict(pool.map(run, jobs))


def one(batch, name):
    folder, procs = batch[name]
    assert len(procs) == 1
    return procs[0]


def files_in(folder):
    return sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*"))


def assert_exit2(r):
    assert r.returncode == 2, (r.returncode, r.stderr)
    assert "Traceback" not in r.stderr
    assert len(r.stderr.splitlines()) == 1, r.stderr
    assert r.stderr.endswith("\n") and r.stderr.strip()
    assert r.stdout == ""


def perm_lines(sols, off=0):
    return "".join(" ".join(str(c + off) for c in s) + "\n" for s in sols)


# ---------------------------------------------------------------- solutions on stdout

def test_solutions_6(batch):
    r = one(batch, "sol6")
    assert (r.returncode, r.stderr) == (0, "")
    assert r.stdout.splitlines() == ["1 3 5 0 2 4", "2 5 1 4 0 3", "3 0 4 1 5 2",
                                     "4 2 0 5 3 1"]
    assert r.stdout == perm_lines(naive.solutions(6))


def test_board_n5_limit_1(batch):
    r = one(batch, "board5")
    assert (r.returncode, r.stderr) == (0, "")
    assert r.stdout == "Q....\n..Q..\n....Q\n.Q...\n...Q.\n"


def test_matrix_n4(batch):
    r = one(batch, "matrix4")
    assert r.returncode == 0
    assert r.stdout == ("0 1 0 0\n0 0 0 1\n1 0 0 0\n0 0 1 0\n\n"
                        "0 0 1 0\n1 0 0 0\n0 0 0 1\n0 1 0 0\n")


def test_jsonl_n6(batch):
    r = one(batch, "jsonl6")
    assert r.returncode == 0
    assert r.stdout == "".join("[" + ",".join(map(str, s)) + "]\n"
                               for s in naive.solutions(6))


def test_one_based(batch):
    r = one(batch, "perm6_one")
    assert r.returncode == 0
    assert r.stdout == perm_lines(naive.solutions(6), off=1)
    assert r.stdout.splitlines()[0] == "2 4 6 1 3 5"


def test_limit_parallel_quiet(batch):
    # the first 3 solutions, and with -q nothing at all on stderr (no warnings
    # from the cancelled parallel tasks)
    r = one(batch, "limit")
    assert r.returncode == 0
    assert r.stdout == perm_lines(solutions(14, jobs=1, limit=3))
    assert r.stderr == ""


# ---------------------------------------------------------------- files

@pytest.mark.parametrize("fmt", FORMATS)
def test_round_trip(batch, fmt):
    folder, (write, verify) = batch[f"rt_{fmt}"]
    assert write.returncode == 0, write.stderr
    assert write.stdout == ""
    assert files_in(folder) == [f"x.{fmt}"]  # no .part file left behind
    assert verify.returncode == 0, verify.stdout + verify.stderr
    assert "complete: all 92 solutions" in verify.stdout
    assert "92 solutions of n = 8" in verify.stdout
    assert list(read_solutions(folder / f"x.{fmt}")) == SOL8
    assert list(read_solutions(folder / f"x.{fmt}", fmt, 8)) == SOL8


def test_round_trip_perm_text(batch):
    folder, (_, _) = batch["rt_perm"]
    assert (folder / "x.perm").read_text() == PERM8


def test_npy_dtype_and_shape(batch):
    folder, _ = batch["rt_npy"]
    a = np.load(folder / "x.npy", allow_pickle=False)
    assert a.dtype == np.uint8 and a.shape == (92, 8)
    assert [tuple(r) for r in a.tolist()] == SOL8


@pytest.mark.parametrize("case,ext", [("jobs_perm", "perm"), ("jobs_npy", "npy")])
def test_jobs_1_and_2_byte_identical(batch, case, ext):
    folder, procs = batch[case]
    assert [p.returncode for p in procs] == [0, 0], [p.stderr for p in procs]
    one_job = (folder / f"j1.{ext}").read_bytes()
    two_jobs = (folder / f"j2.{ext}").read_bytes()
    assert one_job == two_jobs
    assert list(read_solutions(folder / f"j1.{ext}")) == list(solutions(10, jobs=1))
    assert files_in(folder) == [f"j1.{ext}", f"j2.{ext}"]


def test_unique_file(batch):
    folder, (write, verify) = batch["unique8"]
    assert write.returncode == 0
    lines = (folder / "u.perm").read_text().splitlines()
    assert len(lines) == 12
    assert [tuple(map(int, line.split())) for line in lines] == UNIQUE8
    assert verify.returncode == 0, verify.stdout + verify.stderr
    assert "all canonical" in verify.stdout
    assert "complete: all 12 classes" in verify.stdout


def test_existing_file_refused_unless_force(batch):
    folder, (refused, forced) = batch["force"]
    assert_exit2(refused)
    assert "exists" in refused.stderr
    assert forced.returncode == 0, forced.stderr
    assert (folder / "x.perm").read_text() == PERM8
    assert files_in(folder) == ["x.perm"]


# ---------------------------------------------------------------- exit 2

@pytest.mark.parametrize("name", list(EXIT2))
def test_exit_2(batch, name):
    r = one(batch, "exit2_" + name)
    assert_exit2(r)
    folder, _ = batch["exit2_" + name]
    # nothing written, no temporary file left, existing files untouched
    assert files_in(folder) == sorted(
        set(EXIT2[name][0]) | {os.path.dirname(f) for f in EXIT2[name][0]} - {""})
    for fname, text in EXIT2[name][0].items():
        assert (folder / fname).read_text() == text


def test_exit_2_messages(batch):
    msg = {name: one(batch, "exit2_" + name).stderr for name in EXIT2}
    assert "exists" in msg["exists"]
    assert "does not exist" in msg["missing_folder"]
    assert "npy" in msg["npy_no_out"]
    assert "one-based" in msg["one_based_board"]
    assert "no solution" in msg["construct2"] and "no solution" in msg["construct3"]
    assert "row 0" in msg["fixed_same_row"]
    assert "off the board" in msg["fixed_off_board"]
    assert "ROW:COL" in msg["fixed_letters"]
    assert "unique" in msg["fixed_unique"]
    assert "d4" in msg["fixed_d4"]
    assert "missing.perm" in msg["v_missing"]
    assert "line 2" in msg["v_ragged_perm"] and "line 2" in msg["v_letters_perm"]


# ---------------------------------------------------------------- first

def test_first(batch):
    r = one(batch, "first8")
    assert (r.returncode, r.stdout, r.stderr) == (0, "0 4 7 5 2 6 1 3\n", "")
    r = one(batch, "first1")
    assert (r.returncode, r.stdout, r.stderr) == (0, "0\n", "")


@pytest.mark.parametrize("name", ["first2", "first3"])
def test_first_no_solution(batch, name):
    r = one(batch, name)
    assert r.returncode == 1
    assert r.stdout == ""
    assert "no solution" in r.stderr
    assert "Traceback" not in r.stderr and len(r.stderr.splitlines()) == 1


# ---------------------------------------------------------------- construct

def test_construct_1000(batch):
    r = one(batch, "construct1000")
    assert r.returncode == 0
    lines = r.stdout.splitlines()
    assert len(lines) == 1
    queens = [int(c) for c in lines[0].split()]
    assert len(queens) == 1000 and is_solution(queens)


def test_construct_million_npy(batch):
    folder, (r,) = batch["construct_big"]
    assert (r.returncode, r.stdout) == (0, ""), r.stderr
    a = np.load(folder / "c.npy", allow_pickle=False)
    assert a.shape == (1, 1000000)
    assert a.dtype.kind == "u"
    assert is_solution(a[0])
    assert files_in(folder) == ["c.npy"]


# ---------------------------------------------------------------- count --fixed

def test_count_fixed(batch):
    r = one(batch, "count_fixed")
    want = sum(1 for s in naive.solutions(8) if s[0] == 0)
    assert (r.returncode, r.stdout, r.stderr) == (0, f"{want}\n", "")


def test_count_fixed_conflict(batch):
    r = one(batch, "count_conflict")
    assert (r.returncode, r.stdout) == (0, "0\n")
    assert "no solution" in r.stderr and "diagonal" in r.stderr


# ---------------------------------------------------------------- verify

def summary(r):
    lines = r.stdout.splitlines()
    assert len(lines) == 1, r.stdout
    return lines[0]


def test_verify_invalid(batch):
    r = one(batch, "v_invalid")
    assert r.returncode == 1
    assert "1 INVALID" in summary(r) and "2 solutions" in summary(r)
    assert "not a valid placement" in r.stderr


def test_verify_duplicate(batch):
    r = one(batch, "v_duplicate")
    assert r.returncode == 1
    assert "1 DUPLICATES" in summary(r) and "all valid" in summary(r)
    assert "duplicate" in r.stderr


def test_verify_not_canonical(batch):
    r = one(batch, "v_not_canonical")
    assert r.returncode == 1
    assert "1 NOT CANONICAL" in summary(r)
    assert "canonical" in r.stderr


def test_verify_incomplete(batch):
    r = one(batch, "v_incomplete")
    assert r.returncode == 1
    assert "INCOMPLETE: 91 distinct of 92 solutions" in summary(r)
    assert "all valid" in summary(r) and "no duplicates" in summary(r)


def test_verify_complete_with_a_duplicate(batch):
    # all 92 solutions plus a repeat: the problem is the duplicate; the file is
    # not incomplete (it holds all 92 distinct solutions)
    r = one(batch, "v_dup_complete")
    assert r.returncode == 1
    assert "1 DUPLICATES" in summary(r)
    assert "INCOMPLETE" not in summary(r), summary(r)


# ---------------------------------------------------------------- interrupt

def test_interrupt_leaves_nothing(tmp_path):
    """Ctrl-C while listing in this process: exit 130, one line, no file.

    Tried three times, as the signal lands at a random point of the run.
    """
    env = dict(os.environ)
    env.pop("PYTHONWARNINGS", None)
    for attempt in range(3):
        p = subprocess.Popen([sys.executable, "-m", "parqueens", "solutions", "15",
                              "--jobs", "1", "--force", "-o", "big.perm"],
                             cwd=tmp_path, env=env, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True)
        try:
            deadline = time.monotonic() + 30
            while not any(f.endswith(".part") for f in os.listdir(tmp_path)):
                assert p.poll() is None, p.communicate()
                assert time.monotonic() < deadline
                time.sleep(0.02)
            time.sleep(0.2 + 0.25 * attempt)
            p.send_signal(signal.SIGINT)
            out, err = p.communicate(timeout=60)
        finally:
            if p.poll() is None:
                p.kill()
                p.communicate()
        assert p.returncode == 130, err[-600:]
        assert "Traceback" not in err
        assert err.splitlines() == ["parqueens: interrupted; nothing was written to big.perm"]
        assert out == ""
        assert os.listdir(tmp_path) == []
