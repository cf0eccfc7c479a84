"""The listing commands of the command line (solutions, first, construct,
verify, count --fixed), in-process through ``cli.main`` (fixture ``cli``);
Ctrl-C through a subprocess.

The commands are declared up front in CASES (steps run in order in one empty
folder) and EXIT2 (refusals); each test runs the case it checks.
"""

import os
import signal
import time

import numpy as np
import pytest

from parqueens.construction import is_solution
from parqueens.formats import read_solutions
from parqueens.listing import solutions
from parqueens.symmetry import canonical

import naive
from cli_helpers import popen_cli

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
    **{
        f"rt_{fmt}": (
            {},
            [
                ["solutions", 8, "-o", f"x.{fmt}", "--jobs", 1],
                ["verify", f"x.{fmt}", "--complete", "--jobs", 1],
            ],
        )
        for fmt in FORMATS
    },
    "jobs_perm": (
        {},
        [
            ["solutions", 10, "-o", "j1.perm", "--jobs", 1, "--force"],
            ["solutions", 10, "-o", "j2.perm", "--jobs", 2, "--force"],
        ],
    ),
    "jobs_npy": (
        {},
        [
            ["solutions", 10, "-o", "j1.npy", "--jobs", 1, "--force"],
            ["solutions", 10, "-o", "j2.npy", "--jobs", 2, "--force"],
        ],
    ),
    "unique8": (
        {},
        [
            ["solutions", 8, "--unique", "-o", "u.perm", "--jobs", 1],
            ["verify", "u.perm", "--unique", "--complete", "--jobs", 1],
        ],
    ),
    "force": (
        {"x.perm": "keep me\n"},
        [
            ["solutions", 8, "-o", "x.perm", "--jobs", 1],
            ["solutions", 8, "-o", "x.perm", "--jobs", 1, "--force"],
        ],
    ),
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
    "v_not_canonical": (
        {"a.perm": " ".join(map(str, NOT_CANONICAL)) + "\n"},
        [["verify", "a.perm", "--unique"]],
    ),
    "v_incomplete": (
        {"a.perm": PERM8[: 16 * 91]},
        [["verify", "a.perm", "--complete", "--jobs", 1]],
    ),
    "v_dup_complete": (
        {"a.perm": PERM8 + PERM8[:16]},
        [["verify", "a.perm", "--complete", "--jobs", 1]],
    ),
}

# name -> (files, args, words of the message): each must exit 2 with one line
# on stderr
EXIT2 = {
    "exists": ({"x.perm": "keep me\n"}, ["solutions", 8, "-o", "x.perm", "--jobs", 1], "exists"),
    "missing_folder": ({}, ["solutions", 8, "-o", "nodir/x.perm", "--jobs", 1], "does not exist"),
    "npy_no_out": ({}, ["solutions", 8, "--format", "npy", "--jobs", 1], "npy"),
    "labels_board": ({}, ["solutions", 8, "--format", "board", "--labels"], "labels"),
    "one_based_npy_file": ({}, ["solutions", 8, "-o", "x.npy", "--one-based"], "one-based"),
    "fixed_same_row": ({}, ["count", 8, "--fixed", "0:0,0:3"], "row 0"),
    "fixed_off_board": ({}, ["count", 8, "--fixed", "9:0"], "off the board"),
    "fixed_letters": ({}, ["count", 8, "--fixed", "abc"], "ROW:COL"),
    "fixed_unique": ({}, ["count", 8, "--fixed", "0:0", "--unique"], "unique"),
    "fixed_d4": ({}, ["count", 8, "--fixed", "0:0", "--method", "d4"], "d4"),
    "v_ragged_perm": ({"a.perm": "1 3 0 2\n2 0 3\n"}, ["verify", "a.perm"], "line 2"),
    "v_letters_perm": ({"a.perm": "1 3 0 2\n2 x 3 1\n"}, ["verify", "a.perm"], "line 2"),
    "v_missing": ({}, ["verify", "missing.perm"], "missing.perm"),
}


def _prepare(folder, files):
    folder.mkdir()
    for name, text in files.items():
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)


def run_case(cli, tmp_path, name):
    """Run the steps of CASES[name] in a folder of their own: (folder, [results])."""
    files, steps = CASES[name]
    folder = tmp_path / name
    _prepare(folder, files)
    return folder, [cli(*args, cwd=folder) for args in steps]


def one(cli, tmp_path, name):
    folder, results = run_case(cli, tmp_path, name)
    assert len(results) == 1
    return results[0]


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


def test_solutions_6(cli, tmp_path):
    r = one(cli, tmp_path, "sol6")
    assert (r.returncode, r.stderr) == (0, "")
    assert r.stdout.splitlines() == ["1 3 5 0 2 4", "2 5 1 4 0 3", "3 0 4 1 5 2", "4 2 0 5 3 1"]
    assert r.stdout == perm_lines(naive.solutions(6))


def test_board_n5_limit_1(cli, tmp_path):
    r = one(cli, tmp_path, "board5")
    assert (r.returncode, r.stderr) == (0, "")
    assert r.stdout == "Q....\n..Q..\n....Q\n.Q...\n...Q.\n"


def test_matrix_n4(cli, tmp_path):
    r = one(cli, tmp_path, "matrix4")
    assert r.returncode == 0
    assert r.stdout == (
        "0 1 0 0\n0 0 0 1\n1 0 0 0\n0 0 1 0\n\n0 0 1 0\n1 0 0 0\n0 0 0 1\n0 1 0 0\n"
    )


def test_jsonl_n6(cli, tmp_path):
    r = one(cli, tmp_path, "jsonl6")
    assert r.returncode == 0
    assert r.stdout == "".join("[" + ",".join(map(str, s)) + "]\n" for s in naive.solutions(6))


def test_one_based(cli, tmp_path):
    r = one(cli, tmp_path, "perm6_one")
    assert r.returncode == 0
    assert r.stdout == perm_lines(naive.solutions(6), off=1)
    assert r.stdout.splitlines()[0] == "2 4 6 1 3 5"


def test_limit_parallel_quiet(cli, tmp_path):
    # the first 3 solutions, and with -q nothing at all on stderr (no warnings
    # from the cancelled parallel tasks)
    r = one(cli, tmp_path, "limit")
    assert r.returncode == 0
    assert r.stdout == perm_lines(solutions(14, jobs=1, limit=3))
    assert r.stderr == ""


# ---------------------------------------------------------------- files


@pytest.mark.parametrize("fmt", FORMATS)
def test_round_trip(cli, tmp_path, fmt):
    folder, (write, verify) = run_case(cli, tmp_path, f"rt_{fmt}")
    assert write.returncode == 0, write.stderr
    assert write.stdout == ""
    assert files_in(folder) == [f"x.{fmt}"]  # no .part file left behind
    assert verify.returncode == 0, verify.stdout + verify.stderr
    assert "complete: all 92 solutions" in verify.stdout
    assert "92 solutions of n = 8" in verify.stdout
    assert list(read_solutions(folder / f"x.{fmt}")) == SOL8
    assert list(read_solutions(folder / f"x.{fmt}", fmt, 8)) == SOL8


def test_round_trip_perm_text(cli, tmp_path):
    folder, (_, _) = run_case(cli, tmp_path, "rt_perm")
    assert (folder / "x.perm").read_text() == PERM8


def test_npy_dtype_and_shape(cli, tmp_path):
    folder, _ = run_case(cli, tmp_path, "rt_npy")
    a = np.load(folder / "x.npy", allow_pickle=False)
    assert a.dtype == np.uint8 and a.shape == (92, 8)
    assert [tuple(r) for r in a.tolist()] == SOL8


@pytest.mark.parametrize("case,ext", [("jobs_perm", "perm"), ("jobs_npy", "npy")])
def test_jobs_1_and_2_byte_identical(cli, tmp_path, case, ext):
    folder, procs = run_case(cli, tmp_path, case)
    assert [p.returncode for p in procs] == [0, 0], [p.stderr for p in procs]
    one_job = (folder / f"j1.{ext}").read_bytes()
    two_jobs = (folder / f"j2.{ext}").read_bytes()
    assert one_job == two_jobs
    assert list(read_solutions(folder / f"j1.{ext}")) == list(solutions(10, jobs=1))
    assert files_in(folder) == [f"j1.{ext}", f"j2.{ext}"]


def test_unique_file(cli, tmp_path):
    folder, (write, verify) = run_case(cli, tmp_path, "unique8")
    assert write.returncode == 0
    lines = (folder / "u.perm").read_text().splitlines()
    assert len(lines) == 12
    assert [tuple(map(int, line.split())) for line in lines] == UNIQUE8
    assert verify.returncode == 0, verify.stdout + verify.stderr
    assert "all canonical" in verify.stdout
    assert "complete: all 12 classes" in verify.stdout


def test_existing_file_refused_unless_force(cli, tmp_path):
    folder, (refused, forced) = run_case(cli, tmp_path, "force")
    assert_exit2(refused)
    assert "exists" in refused.stderr
    assert forced.returncode == 0, forced.stderr
    assert (folder / "x.perm").read_text() == PERM8
    assert files_in(folder) == ["x.perm"]


# ---------------------------------------------------------------- exit 2


@pytest.mark.parametrize("name", list(EXIT2))
def test_exit_2(cli, tmp_path, name):
    files, args, words = EXIT2[name]
    folder = tmp_path / name
    _prepare(folder, files)
    r = cli(*args, cwd=folder)
    assert_exit2(r)
    assert words in r.stderr
    # nothing written, no temporary file left, existing files untouched
    assert files_in(folder) == sorted(set(files) | {os.path.dirname(f) for f in files} - {""})
    for fname, text in files.items():
        assert (folder / fname).read_text() == text


# ---------------------------------------------------------------- first


def test_first(cli, tmp_path):
    r = one(cli, tmp_path, "first8")
    assert (r.returncode, r.stdout, r.stderr) == (0, "0 4 7 5 2 6 1 3\n", "")
    r = one(cli, tmp_path, "first1")
    assert (r.returncode, r.stdout, r.stderr) == (0, "0\n", "")


@pytest.mark.parametrize("name", ["first2", "first3"])
def test_first_no_solution(cli, tmp_path, name):
    r = one(cli, tmp_path, name)
    assert r.returncode == 1
    assert r.stdout == ""
    assert "no solution" in r.stderr
    assert "Traceback" not in r.stderr and len(r.stderr.splitlines()) == 1


@pytest.mark.parametrize("n", [2, 3])
def test_no_solution_said_alike(cli, tmp_path, n):
    # first and construct: a negative answer, exit 1; solutions: an empty
    # listing (exit 0), said on stderr
    for command in ("first", "construct"):
        r = cli(command, n)
        assert (r.returncode, r.stdout, r.stderr) == (
            1,
            "",
            f"parqueens: no solution for n = {n}\n",
        )
    r = cli("solutions", n)
    assert (r.returncode, r.stdout, r.stderr) == (0, "", f"parqueens: no solutions for n = {n}\n")
    r = cli("solutions", n, "-q")
    assert (r.returncode, r.stderr) == (0, "")


def test_first_conflicting_fixed_queens_says_why(cli):
    # as count and solutions do
    r = cli("first", 8, "--fixed", "0:0,1:1")
    assert (r.returncode, r.stdout) == (1, "")
    assert (
        r.stderr == "parqueens: no solution for n = 8: fixed queens 0:0 and 1:1 share a diagonal\n"
    )
    r = cli("first", 8, "--fixed", "0:0,1:2,2:4")  # compatible, but no completion
    assert r.returncode == 1 and "with these fixed queens" in r.stderr


# ---------------------------------------------------------------- construct


def test_construct_1000(cli, tmp_path):
    r = one(cli, tmp_path, "construct1000")
    assert r.returncode == 0
    lines = r.stdout.splitlines()
    assert len(lines) == 1
    queens = [int(c) for c in lines[0].split()]
    assert len(queens) == 1000 and is_solution(queens)


def test_construct_million_npy(cli, tmp_path):
    folder, (r,) = run_case(cli, tmp_path, "construct_big")
    assert (r.returncode, r.stdout) == (0, ""), r.stderr
    a = np.load(folder / "c.npy", allow_pickle=False)
    assert a.shape == (1, 1000000)
    assert a.dtype.kind == "u"
    assert is_solution(a[0])
    assert files_in(folder) == ["c.npy"]


# ---------------------------------------------------------------- count --fixed


def test_count_fixed(cli, tmp_path):
    r = one(cli, tmp_path, "count_fixed")
    want = sum(1 for s in naive.solutions(8) if s[0] == 0)
    assert (r.returncode, r.stdout, r.stderr) == (0, f"{want}\n", "")


def test_count_fixed_conflict(cli, tmp_path):
    r = one(cli, tmp_path, "count_conflict")
    assert (r.returncode, r.stdout) == (0, "0\n")
    assert "no solution" in r.stderr and "diagonal" in r.stderr


# ---------------------------------------------------------------- verify


def summary(r):
    lines = r.stdout.splitlines()
    assert len(lines) == 1, r.stdout
    return lines[0]


def test_verify_invalid(cli, tmp_path):
    r = one(cli, tmp_path, "v_invalid")
    assert r.returncode == 1
    assert "1 INVALID" in summary(r) and "2 solutions" in summary(r)
    assert "not a valid placement" in r.stderr


def test_verify_duplicate(cli, tmp_path):
    r = one(cli, tmp_path, "v_duplicate")
    assert r.returncode == 1
    assert "1 DUPLICATE," in summary(r) + "," and "all valid" in summary(r)
    assert "duplicate" in r.stderr


def test_verify_not_canonical(cli, tmp_path):
    r = one(cli, tmp_path, "v_not_canonical")
    assert r.returncode == 1
    assert "1 NOT CANONICAL" in summary(r)
    assert "canonical" in r.stderr


def test_verify_incomplete(cli, tmp_path):
    r = one(cli, tmp_path, "v_incomplete")
    assert r.returncode == 1
    assert "INCOMPLETE: 91 distinct of 92 solutions" in summary(r)
    assert "all valid" in summary(r) and "no duplicates" in summary(r)


def test_verify_complete_with_a_duplicate(cli, tmp_path):
    # all 92 solutions plus a repeat: the problem is the duplicate; the file is
    # not incomplete (it holds all 92 distinct solutions)
    r = one(cli, tmp_path, "v_dup_complete")
    assert r.returncode == 1
    assert "1 DUPLICATE," in summary(r) + ","
    assert "INCOMPLETE" not in summary(r), summary(r)


# ---------------------------------------------------------------- interrupt


def test_interrupt_leaves_nothing(tmp_path):
    """Ctrl-C while listing in this process: exit 130, one line, no file.

    Tried three times, as the signal lands at a random point of the run.
    """
    for attempt in range(3):
        p = popen_cli(["solutions", 15, "--jobs", 1, "--force", "-o", "big.perm"], cwd=tmp_path)
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


# ---------------------------------------------------------------- free space


def test_free_space_checked_on_the_real_count(cli, tmp_path, monkeypatch):
    # Short of space for twice the estimate: the solutions are counted, and
    # the refusal names the exact size; nothing is written.
    import shutil

    from parqueens.formats import estimate_size
    from parqueens.listing import spill_bytes

    # the output, and the listing's temporary file of the mirrored half beside it
    need = estimate_size("npy", 14, naive.A000170[14]) + spill_bytes(14, naive.A000170[14])
    assert spill_bytes(14, naive.A000170[14]) == 14 * naive.A000170[14] // 2
    fake = shutil.disk_usage(tmp_path)._replace(free=need - 1)
    monkeypatch.setattr(shutil, "disk_usage", lambda path: fake)
    r = cli("solutions", 14, "--out", "s.npy", "--jobs", 2, cwd=tmp_path)
    assert r.returncode != 0 and f"need {need} bytes, {need - 1} free" in r.stderr
    assert len(r.stderr.splitlines()) == 1
    assert files_in(tmp_path) == []


def test_no_count_before_listing_when_space_is_ample(cli, tmp_path, monkeypatch):
    import parqueens.runner

    def no_count(*args, **kwargs):
        raise AssertionError("counted first")

    monkeypatch.setattr(parqueens.runner, "run_count", no_count)
    r = cli("solutions", 14, "--out", "s.npy", "--jobs", 2, cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert len(np.load(tmp_path / "s.npy")) == naive.A000170[14]


def test_free_space_refused_on_the_estimate_for_large_boards(cli, tmp_path, monkeypatch):
    # More than 18 rows to search: counting would take long; the estimate
    # (with its limit) is refused, saying so, and nothing is written.
    import shutil

    from parqueens.formats import estimate_size

    fake = shutil.disk_usage(tmp_path)._replace(free=1000)
    monkeypatch.setattr(shutil, "disk_usage", lambda path: fake)
    r = cli("solutions", 20, "--limit", 10**6, "--out", "s.npy", cwd=tmp_path)
    need = estimate_size("npy", 20, 10**6) + 20 * 10**6 // 2
    assert need // 2**20 == 28  # sizes for people
    assert r.returncode != 0 and "need about 28.6 MiB, 1000 B free" in r.stderr
    assert files_in(tmp_path) == []
    # a board of 20 rows with 10 fixed: counted at once, and written
    fixed = "10:2,11:0,12:6,13:8,14:10,15:12,16:14,17:16,18:18,19:4"
    r = cli("solutions", 20, "--fixed", fixed, "--out", "f.npy", cwd=tmp_path)
    assert r.returncode == 0 and len(np.load(tmp_path / "f.npy")) == 11


def test_first_beyond_64_points_to_construct(cli):
    r = cli("first", 1000)
    assert_exit2(r)
    assert "n <= 64" in r.stderr and "construct" in r.stderr
