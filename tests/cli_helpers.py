"""Helpers for the command-line tests.  Most run in-process (fixture ``cli``
in conftest.py); these run ``python -m parqueens`` in a subprocess, for what
only a real process shows: signals, pipes, closed streams, its exit."""

import os
import shlex
import subprocess
import sys


def cli_env():
    """The environment for a subprocess, without warnings turned into errors."""
    env = dict(os.environ)
    env.pop("PYTHONWARNINGS", None)
    return env


def run_process(*args, redirect=None, cwd=None, timeout=120):
    """Run ``python -m parqueens ARGS`` to the end; returns CompletedProcess
    (text).  ``redirect`` (e.g. ``">&-"``) runs it through the shell with that
    redirection."""
    cmd = [sys.executable, "-m", "parqueens", *map(str, args)]
    if redirect:
        cmd = f"{shlex.join(cmd)} {redirect}"
    return subprocess.run(
        cmd,
        shell=bool(redirect),
        capture_output=True,
        text=True,
        cwd=cwd,
        env=cli_env(),
        timeout=timeout,
    )


def popen_cli(args, cwd=None, new_session=False):
    """Start ``python -m parqueens ARGS``; stdout and stderr piped as text."""
    return subprocess.Popen(
        [sys.executable, "-m", "parqueens", *map(str, args)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=cwd,
        env=cli_env(),
        start_new_session=new_session,
    )


def assert_one_line_error(r, code=2):
    """A usage error: the exit code, nothing on stdout, one line on stderr."""
    assert r.returncode == code, (r.returncode, r.stdout, r.stderr)
    assert r.stdout == ""
    assert len(r.stderr.strip().splitlines()) == 1, r.stderr
    assert "Traceback" not in r.stderr
