"""Helpers for the tests that run ``python -m parqueens`` in subprocesses."""

import os
import subprocess
import sys


def cli_env():
    """The environment for a subprocess, without warnings turned into errors."""
    env = dict(os.environ)
    env.pop("PYTHONWARNINGS", None)
    return env


def popen_cli(args, cwd=None, new_session=False):
    """Start ``python -m parqueens ARGS``; stdout and stderr piped as text."""
    return subprocess.Popen([sys.executable, "-m", "parqueens", *map(str, args)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            cwd=cwd, env=cli_env(), start_new_session=new_session)


def collect(procs, timeout=120):
    """Wait for ``{key: Popen}``; returns ``{key: CompletedProcess}``."""
    out = {}
    for key, p in procs.items():
        stdout, stderr = p.communicate(timeout=timeout)
        out[key] = subprocess.CompletedProcess(p.args, p.returncode, stdout, stderr)
    return out


def assert_one_line_error(r, code=2):
    """A usage error: the exit code, nothing on stdout, one line on stderr."""
    assert r.returncode == code, (r.returncode, r.stdout, r.stderr)
    assert r.stdout == ""
    assert len(r.stderr.strip().splitlines()) == 1, r.stderr
    assert "Traceback" not in r.stderr
