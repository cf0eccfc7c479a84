"""Names of any bytes wherever a path is taken (a checkpoint, ``--out``, the
input of ``verify``): a name that is not UTF-8 (byte 0xFE) is used as it is,
and shown as ``\\xfe`` in messages, in-process (a str with the surrogate
escape Python gives such a name) and in a process started under ``LC_ALL=C``
whose output must be UTF-8 (``PYTHONIOENCODING=utf-8``: strict)."""

import json
import os
import subprocess
import sys

import pytest

import parqueens
from parqueens.io.atomic import write_text_atomically
from parqueens.run.status import checkpoint_status
from parqueens.run.store import RunStore

from cli_helpers import cli_env, without_compile_note
from naive import A000170

RAW = b"q\xfe"  # not UTF-8
NAME = os.fsdecode(RAW)  # "q\udcfe"


@pytest.fixture
def folder(tmp_path):
    try:
        (tmp_path / NAME).write_bytes(b"")
    except (OSError, UnicodeError):
        pytest.skip("this file system takes only UTF-8 names")
    os.remove(tmp_path / NAME)
    return tmp_path


def test_library_takes_names_of_any_bytes(folder):
    path = str(folder / f"{NAME}.db")
    assert parqueens.run_count(9, checkpoint=path).total == A000170[9]
    assert os.fsencode(os.path.basename(path)) in os.listdir(os.fsencode(folder))
    assert parqueens.run_count(9, checkpoint=path).resumed > 0
    with RunStore(path) as s:
        assert s.summary()[0]["finished"]
    assert checkpoint_status(path)["sizes"][0]["total"] == A000170[9]
    out = str(folder / f"{NAME}.txt")
    write_text_atomically(out, "x\n")
    assert open(out).read() == "x\n"


def test_command_line_shows_names_of_any_bytes(folder, cli):
    db, out = folder / f"{NAME}.db", folder / f"{NAME}.txt"
    r = cli("count", 8, "--checkpoint", db, "--quiet")
    assert (r.returncode, r.stdout) == (0, f"{A000170[8]}\n"), r.stderr
    r = cli("status", db)
    assert r.stdout.startswith(f"checkpoint {folder}/q\\xfe.db: method=")
    assert json.loads(cli("status", db, "--json").stdout)["file"] == str(db)
    r = cli("solutions", 6, "--out", out)
    assert (r.returncode, r.stderr) == (
        0,
        f"parqueens: wrote 4 solutions to {folder}/q\\xfe.txt (perm)\n",
    )
    r = cli("verify", out)
    assert r.stdout == f"{folder}/q\\xfe.txt: 4 solutions of n = 6, all valid, no duplicates\n"
    r = cli("verify", folder / f"{NAME}.none")
    assert (r.returncode, r.stderr) == (
        2,
        f"parqueens: error: {folder}/q\\xfe.none: No such file or directory\n",
    )


def _run(args, cwd):
    env = cli_env() | {"LC_ALL": "C", "PYTHONIOENCODING": "utf-8"}
    env.pop("LANG", None)
    r = subprocess.run(
        [sys.executable, "-m", "parqueens", *args], capture_output=True, cwd=cwd, env=env
    )
    return r.returncode, r.stdout.decode(), without_compile_note(r.stderr.decode())


def test_names_of_any_bytes_under_lc_all_c(folder):
    db, out = RAW + b".db", RAW + b".txt"
    assert _run([b"count", b"8", b"--checkpoint", db], folder)[:2] == (0, f"{A000170[8]}\n")
    code, stdout, stderr = _run([b"status", db], folder)
    assert (code, stderr) == (0, "") and stdout.startswith("checkpoint q\\xfe.db: method=")
    assert _run([b"solutions", b"6", b"--out", out], folder) == (
        0,
        "",
        "parqueens: wrote 4 solutions to q\\xfe.txt (perm)\n",
    )
    assert _run([b"verify", out], folder)[:2] == (
        0,
        "q\\xfe.txt: 4 solutions of n = 6, all valid, no duplicates\n",
    )
    assert sorted(os.listdir(os.fsencode(folder))) == [RAW + b".db", RAW + b".txt"]
