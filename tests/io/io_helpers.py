"""Shared by the tests of parqueens.io: solutions of n = 6, writing them, a folder's files."""

import os

from parqueens.io import SolutionWriter

SOLS6 = [(1, 3, 5, 0, 2, 4), (2, 5, 1, 4, 0, 3), (3, 0, 4, 1, 5, 2), (4, 2, 0, 5, 3, 1)]


def write(path, fmt, sols, n=6, **kw):
    with SolutionWriter(path, fmt, n, **kw) as w:
        for s in sols:
            w.write(s)
    return w


def leftovers(folder):
    return sorted(os.listdir(folder))
