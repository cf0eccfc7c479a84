"""Numba's cache of the tested parqueens, filled before the tests start.

From a clean clone every kernel is compiled once (about a minute of CPU in
all): done by the tests themselves, the first test of each kind would pay it,
and a subprocess test (a signal sent after a delay, a deadline) would meet a
command still compiling.  ``conftest.pytest_sessionstart`` runs the parts
below at once, each in a process of its own (compiling is single-threaded:
two parts use two cores), with the environment of the command-line tests, so
that every test and subprocess then loads the machine code from the cache
(a second or two).  The parts share the minute about equally: the search
(d4, mirror, plain, their variants, and those that only
tests/test_kernels.py calls), the listing (n = 11: a board of 10 rows or
fewer is listed in Python), the join to n = 21 and Burnside's counts, and
the verifier (on blocks, as tests/test_verify.py checks them: a list in one
block is checked in Python); and the join past n = 21, by row sets (a
sampled estimate of n = 22 for a tenth of a second), the heaviest alone.
"""

import contextlib
import os
import subprocess
import sys
import tempfile

PARTS = [
    [
        ["count", "10", "--unique", "--method", "d4", "--jobs", "1"],
        ["count", "10", "--method", "d4", "--nodes", "--jobs", "1"],
        ["count", "18", "--estimate", "--method", "d4", "--jobs", "1"],
        ["count", "10", "--unique", "--method", "mirror", "--jobs", "1"],
        ["count", "10", "--method", "mirror", "--nodes", "--jobs", "1"],
        ["count", "10", "--method", "plain", "--jobs", "1"],
        ["count", "10", "--fixed", "0:0", "--jobs", "1"],
        ["solutions", "11", "--jobs", "1"],
        ["solutions", "11", "--unique", "--jobs", "1"],
        ["count", "12", "--unique"],
    ],
    [],
]


def warm(part):
    """Run the commands of PARTS[part] in this process, saying nothing."""
    from parqueens.cli import main

    with (
        tempfile.TemporaryDirectory() as folder,
        open(os.devnull, "w") as devnull,
        contextlib.redirect_stdout(devnull),
    ):
        for argv in PARTS[part]:
            code = main([*(a.format(folder=folder) for a in argv), "--quiet"])
            if code != 0:
                raise SystemExit(f"kernel_cache: parqueens {' '.join(argv)} exited {code}")
        if part == 0:
            _search_variants()
            _verifier(folder)
        if part == 1:
            # The row-set join's kernels (the command's estimate samples for 5 s).
            from parqueens.join import join_sampled_estimate

            join_sampled_estimate(22, 1, seconds=0.1)


def _search_variants():
    """The variants of the search's kernel that tests/test_kernels.py calls
    as the runs do not: the table of banned squares given or not, leaves
    recorded or not, nodes counted or not; the listing with either table."""
    import numpy as np

    from parqueens.search.kernels import WORK_SIZE, _count, full_mask, list_solutions

    n = 6
    allowed = np.full(n, full_mask(n), np.uint64)
    for banned in (True, None):
        for record in (False, True):
            for nodes in (False, True):
                leaves = np.empty((3, n), np.uint64) if record else None
                counted = np.zeros(1, np.uint64) if nodes else None
                work = np.zeros(WORK_SIZE, np.uint64)
                stab = np.zeros(4, np.uint64)
                args = (np.uint64(0), leaves, np.empty(3, np.bool_), stab, counted, None, work)
                _count(n, allowed, banned, -1, -1, *args)
        out = np.zeros((4, n), np.uint8)
        list_solutions(n, allowed, banned, out, np.zeros(WORK_SIZE, np.uint64))


def _verifier(folder):
    """The verifier's kernels: lists in blocks, read from npy and perm files,
    with and without the check of canonical forms, one row repeated."""
    import numpy as np

    from parqueens.formats import SolutionWriter, read_solutions
    from parqueens.run.listing import iter_blocks
    from parqueens.verify import check_blocks

    for unique in (False, True):
        rows = np.concatenate(list(iter_blocks(10, unique=unique)))
        rows = np.concatenate([rows, rows[:1]])
        check_blocks([rows[i : i + 97] for i in range(0, len(rows), 97)], 10, unique)
        for fmt in ("npy", "perm"):
            path = os.path.join(folder, f"v.{fmt}")
            with SolutionWriter(path, fmt, 10, force=True) as w:
                w.write_many(rows)
            check_blocks(read_solutions(path).blocks(size=61), None, unique)


def warm_in_processes(env):
    """Run every part at once, one process each; returns the failures' stderr."""
    procs = [
        subprocess.Popen(
            [sys.executable, __file__, str(part)],
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
        )
        for part in range(len(PARTS))
    ]
    return [err for p in procs for _, err in [p.communicate()] if p.returncode != 0]


if __name__ == "__main__":
    warm(int(sys.argv[1]))
