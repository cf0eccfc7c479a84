"""Numba's cache of the tested parqueens, filled before the tests start.

From a clean clone every kernel is compiled once (about a minute of CPU in
all): done by the tests themselves, the first test of each kind would pay it,
and a subprocess test (a signal sent after a delay, a deadline) would meet a
command still compiling.  ``conftest.pytest_sessionstart`` runs the parts
below at once, each in a process of its own (compiling is single-threaded:
two parts use two cores), with the environment of the command-line tests, so
that every test and subprocess then loads the machine code from the cache
(a second or two).  Each part runs commands whose kernels the other does
not compile: the search (d4, mirror, plain, their variants) and the
listing; the join (to n = 21, and past it by row sets: a sampled estimate
of n = 22 for a tenth of a second), Burnside's counts and the verifier.
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
        ["solutions", "9", "--jobs", "1"],
        ["solutions", "9", "--unique", "--jobs", "1"],
    ],
    [
        ["count", "12", "--unique"],
        ["solutions", "8", "--out", "{folder}/s.npy", "--force"],
        ["verify", "{folder}/s.npy", "--jobs", "1"],
    ],
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
        if part == 1:
            # The row-set join's kernels (the command's estimate samples for 5 s).
            from parqueens.join import join_sampled_estimate

            join_sampled_estimate(22, 1, seconds=0.1)


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
