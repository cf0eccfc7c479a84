"""A fuzz pass over the command line: random argument lists never give a
traceback, and exit with 0, 1, 2 or 130 (in-process, for speed)."""

import os

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

COMMANDS = ["count", "table", "status", "solutions", "first", "construct", "verify", "bogus", ""]
TOKENS = [
    "0",
    "1",
    "3",
    "4",
    "6",
    "8",
    "9",
    "-1",
    "abc",
    "8.5",
    "1e3",
    "",
    "65",
    "100",
    "3-5",
    "5-3",
    "1-",
    "a-b",
    "4,6",
    "0:0",
    "0:0,1:2",
    "9:9",
    "x:y",
    "0:0,0:1",
    "0:1,1:0",
    "--jobs",
    "-j",
    "2",
    "-2",
    "0",
    "--split-depth",
    "2",
    "--method",
    "d4",
    "mirror",
    "plain",
    "fast",
    "--unique",
    "--json",
    "--verify",
    "--fixed",
    "--limit",
    "--format",
    "perm",
    "board",
    "npy",
    "jsonl",
    "matrix",
    "xml",
    "--out",
    "-o",
    "out.txt",
    "out.npy",
    "out.csv",
    "out.md",
    "--force",
    "--one-based",
    "--complete",
    "--n",
    "--checkpoint",
    "ck.db",
    "--quiet",
    "--progress",
    "--estimate",
    "--help",
    "--version",
    "-",
    "--",
]


# Mostly well-formed command lines, so that the fuzz reaches the commands
# themselves and not only the parser.
OPTIONS = {
    "--jobs": ["1", "2", "-1", "0", "x"],
    "--split-depth": ["1", "2", "3", "0"],
    "--method": ["d4", "mirror", "plain", "fast"],
    "--unique": [],
    "--json": [],
    "--verify": [],
    "--fixed": ["0:0", "0:1,2:0", "1:1,2:2", "0:0,0:1", "7:7", "9:0", "z"],
    "--limit": ["1", "5", "0", "-3"],
    "--format": ["perm", "board", "npy", "jsonl", "matrix"],
    "--out": ["out.txt", "out.npy", "out.csv", "out.md", "nodir/out.txt", "-"],
    "--force": [],
    "--one-based": [],
    "--complete": [],
    "--n": ["4", "8", "x"],
    "--checkpoint": ["ck.db", "out.txt"],
    "--quiet": [],
    "--progress": [],
    "--estimate": [],
}
option = st.sampled_from(sorted(OPTIONS)).flatmap(
    lambda o: st.sampled_from([[o] + ([v] if v else []) for v in OPTIONS[o] or [None]])
)
structured = st.tuples(
    st.sampled_from(COMMANDS[:-2]),
    st.sampled_from(
        [
            "0",
            "1",
            "2",
            "3",
            "4",
            "5",
            "6",
            "8",
            "9",
            "10",
            "4-6",
            "1,3",
            "out.txt",
            "ck.db",
            "-1",
            "x",
        ]
    ),
    st.lists(option, max_size=4),
).map(lambda t: [t[0], t[1]] + [tok for opt in t[2] for tok in opt])
random_tokens = st.tuples(
    st.sampled_from(COMMANDS), st.lists(st.sampled_from(TOKENS), max_size=6)
).map(lambda t: ([t[0]] if t[0] else []) + t[1])


@settings(max_examples=400, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.one_of(structured, random_tokens))
def test_cli_never_crashes(cli, tmp_path, argv):
    r = cli(*argv, cwd=tmp_path)
    code, err = r.returncode, r.stderr
    assert code in (0, 1, 2, 130), (argv, code, err)
    assert "Traceback" not in err, (argv, err)
    if code == 2:
        assert len(err.strip().splitlines()) == 1, (argv, err)
    for name in os.listdir(tmp_path):
        assert not name.endswith(".part"), (argv, name)


@pytest.mark.parametrize(
    "argv",
    [
        ["count", "8", "--jobs", "-1000"],
        ["count", "8", "--scheduler", "tcp://127.0.0.1:1"],
        ["solutions", "8", "--format", "npy"],
        ["solutions", "30", "-o", "all.txt"],
        ["solutions", "8", "--unique", "--fixed", "0:0"],
        ["table", "1-65"],
        ["table", "5-3"],
        ["table", "1-4", "-o", "t.txt"],
        ["verify", "missing.txt"],
        ["status", "missing.db"],
        ["count", "8", "--fixed", "0:0", "--verify"],
    ],
)
def test_bad_combinations_exit_2(cli, tmp_path, argv):
    r = cli(*argv, cwd=tmp_path)
    assert r.returncode == 2
    assert len(r.stderr.strip().splitlines()) == 1 and "Traceback" not in r.stderr
