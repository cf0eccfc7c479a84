"""Helpers for the command-line tests.  Most run in-process (fixture ``cli``
in conftest.py); these run ``python -m parqueens`` in a subprocess, for what
only a real process shows: signals, pipes, closed streams, its exit."""

import json
import os
import shlex
import subprocess
import sys

import parqueens

#: The note of a process that compiles the kernels (numba's cache of this
#: copy of parqueens was empty): it depends on the cache, not on the command,
#: so the helpers below leave it out of what they return.
COMPILE_NOTE = "parqueens: compiling the kernels"

# The folder that holds the parqueens these tests import: the subprocesses
# import the same copy (not another one installed in site-packages), with
# the same numba cache.
_SOURCE = os.path.dirname(os.path.dirname(os.path.abspath(parqueens.__file__)))


def cli_env():
    """The environment for a subprocess: the tested copy of parqueens
    first on its path, without warnings turned into errors."""
    env = dict(os.environ)
    env.pop("PYTHONWARNINGS", None)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [_SOURCE, env.get("PYTHONPATH")]))
    return env


def without_compile_note(err):
    """stderr text without the kernels' first-use note (see COMPILE_NOTE)."""
    if err is None:
        return err
    return "".join(line for line in err.splitlines(True) if not line.startswith(COMPILE_NOTE))


def run_process(*args, redirect=None, cwd=None, timeout=120):
    """Run ``python -m parqueens ARGS`` to the end; returns CompletedProcess
    (text; stderr without the compile note).  ``redirect`` (e.g. ``">&-"``)
    runs it through the shell with that redirection."""
    cmd = [sys.executable, "-m", "parqueens", *map(str, args)]
    if redirect:
        cmd = f"{shlex.join(cmd)} {redirect}"
    r = subprocess.run(
        cmd,
        shell=bool(redirect),
        capture_output=True,
        text=True,
        cwd=cwd,
        env=cli_env(),
        timeout=timeout,
    )
    r.stderr = without_compile_note(r.stderr)
    return r


class _Process(subprocess.Popen):
    """A Popen whose ``communicate`` leaves out the compile note."""

    def communicate(self, *args, **kwargs):
        out, err = super().communicate(*args, **kwargs)
        return out, without_compile_note(err)


def popen_cli(args, cwd=None, new_session=False):
    """Start ``python -m parqueens ARGS``; stdout and stderr piped as text
    (``communicate`` leaves out the compile note)."""
    return _Process(
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


def fresh_main(argvs, modules=("numba", "numpy", "joblib", "psutil", "tqdm")):
    """Run ``cli.main`` on each argument list in one fresh interpreter.

    Returns ``(exit codes, the given modules it imported, its stdout)``: what
    a command loads is only seen in a process that loaded nothing before.
    """
    code = (
        "import json, sys\n"
        "from parqueens import cli\n"
        "codes = []\n"
        f"for argv in {list(map(list, argvs))!r}:\n"
        "    try:\n"
        "        codes.append(cli.main(argv))\n"
        "    except SystemExit as exc:\n"
        "        codes.append(exc.code)\n"
        f"loaded = sorted(m for m in {list(modules)!r} if m in sys.modules)\n"
        "print(json.dumps([codes, loaded]), file=sys.stderr)\n"
    )
    r = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=cli_env(), timeout=120
    )
    codes, loaded = json.loads(r.stderr.strip().splitlines()[-1])
    return codes, loaded, r.stdout
