"""`parqueens solutions`: every format on stdout and in files (read back and
verified), --jobs 1 and 2 byte for byte, --unique, --limit, --force, free
space checked before writing, refusals that leave the folder as it was.
In-process through ``cli.main`` (fixture ``cli``).

The commands are declared up front in CASES (steps run in order in one empty
folder) and EXIT2 (refusals); each test runs the case it checks."""

import os

import numpy as np
import pytest

from parqueens.formats import read_solutions
from parqueens.run.listing import solutions

import naive
from cli_helpers import assert_one_line_error

SOL8 = list(naive.solutions(8))
UNIQUE8 = sorted(naive.classes(8))
PERM8 = "".join(" ".join(map(str, s)) + "\n" for s in SOL8)

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
}

# name -> (files, args, words of the message): each must exit 2 with one line
# on stderr
EXIT2 = {
    "exists": ({"x.perm": "keep me\n"}, ["solutions", 8, "-o", "x.perm", "--jobs", 1], "exists"),
    "missing_folder": ({}, ["solutions", 8, "-o", "nodir/x.perm", "--jobs", 1], "does not exist"),
    "npy_no_out": ({}, ["solutions", 8, "--format", "npy", "--jobs", 1], "npy"),
    "labels_board": ({}, ["solutions", 8, "--format", "board", "--labels"], "labels"),
    "one_based_npy_file": ({}, ["solutions", 8, "-o", "x.npy", "--one-based"], "one-based"),
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


# ---------------------------------------------------------------- free space


def test_free_space_checked_on_the_real_count(cli, tmp_path, monkeypatch):
    # Short of space for twice the estimate: the solutions are counted, and
    # the refusal names the exact size; nothing is written.
    import shutil

    from parqueens.formats import estimate_size
    from parqueens.run.listing import spill_bytes

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
    import parqueens.run.runner

    def no_count(*args, **kwargs):
        raise AssertionError("counted first")

    monkeypatch.setattr(parqueens.run.runner, "run_count", no_count)
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


def test_format_contradicting_extension(cli, tmp_path):
    out = tmp_path / "s8.npy"
    r = cli("solutions", 8, "--out", out, "--format", "perm")
    assert_one_line_error(r)
    assert "contradicts" in r.stderr and not out.exists()


def test_unknown_extension_is_noted(cli, tmp_path):
    r = cli("solutions", 6, "--out", tmp_path / "x.csv")
    assert r.returncode == 0 and ".csv is the extension of no solution format" in r.stderr
    assert (tmp_path / "x.csv").read_text().startswith("1 3 5 0 2 4\n")
    for name, fmt in (("y.csv", ["--format", "jsonl"]), ("z.txt", [])):
        r = cli("solutions", 6, "--out", tmp_path / name, *fmt)
        assert r.returncode == 0 and "no solution format" not in r.stderr


def test_n0_picture_has_a_size(cli):
    r = cli("solutions", 0, "--format", "svg")
    assert 'viewBox="0 0 1 1"' in r.stdout and r.stdout.count("<use") == 0
