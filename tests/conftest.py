import contextlib
import os
import signal
import subprocess
import sys
import threading
import warnings

import pytest
from hypothesis import settings

# The first example of a property test may compile or load numba kernels
# (seconds): a per-example deadline would make a test fail when it runs
# alone.  Tests that need more examples say so.
settings.register_profile("parqueens", deadline=None, max_examples=50)
settings.load_profile("parqueens")

# A test run started in the background (`cmd &` in a script, nohup) inherits
# SIGINT ignored, and so would the commands that the tests interrupt with it:
# give it the usual handler, which the subprocesses then reset to the default.
if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)


def pytest_sessionstart(session):
    """Fill numba's cache before any test (see kernel_cache.py); once, in the
    process that schedules the tests (not in pytest-xdist's workers)."""
    if hasattr(session.config, "workerinput"):
        return
    from cli_helpers import cli_env
    from kernel_cache import warm_in_processes

    for err in warm_in_processes(cli_env()):
        sys.stderr.write(f"conftest: warming the kernels failed:\n{err}")


def _stdin(data):
    """A stdin for the command: /dev/null, or a real pipe fed with ``data``
    (not seekable, as when the shell pipes into the command)."""
    if data is None:
        return open(os.devnull)
    r, w = os.pipe()

    def feed():
        try:
            with open(w, "wb") as f:
                f.write(data)
        except BrokenPipeError:  # the command stopped reading
            pass

    threading.Thread(target=feed, daemon=True).start()
    return open(r)


def _show_warning(message, category, filename, lineno, file=None, line=None):
    sys.stderr.write(warnings.formatwarning(message, category, filename, lineno, line))


@pytest.fixture
def cli(capfd, monkeypatch):
    """Run ``parqueens ARGS`` in this process through ``cli.main`` (no
    interpreter start-up, which costs more than most commands); returns a
    CompletedProcess: the exit code, and what reached stdout and stderr,
    file descriptors included.  Warnings are printed to stderr as a process
    would print them with Python's default filters, rather than collected by
    pytest, so that "nothing on stderr" keeps its meaning."""
    from parqueens.cli import main

    def run(*args, input=None, cwd=None):
        argv = [str(a) for a in args]
        with monkeypatch.context() as m:
            if cwd is not None:
                m.chdir(cwd)
            m.setattr(sys, "argv", ["parqueens", *argv])  # named by the interrupt message
            stdin = _stdin(input)
            m.setattr(sys, "stdin", stdin)
            capfd.readouterr()
            try:
                with warnings.catch_warnings():
                    warnings.resetwarnings()
                    warnings.simplefilter("default")
                    for category in (
                        DeprecationWarning,
                        PendingDeprecationWarning,
                        ImportWarning,
                        ResourceWarning,
                    ):
                        warnings.simplefilter("ignore", category)
                    warnings.showwarning = _show_warning
                    try:
                        code = main(argv)
                    except SystemExit as exc:  # --help and --version leave through argparse
                        code = 0 if exc.code is None else exc.code
            finally:
                stdin.close()
            out, err = capfd.readouterr()
        return subprocess.CompletedProcess(["parqueens", *argv], code, out, err)

    return run


class _Checkpoints:
    """The folder of :func:`real_checkpoints`: ``folder / "count9.sqlite"``
    is the checkpoint's path, the checkpoint made there on first use, by the
    command line (each test file uses some of them: a worker of pytest-xdist
    makes those its files use, once)."""

    COMMANDS = {
        "count9": ["count", "9"],
        "count11": ["count", "11"],
        "count12": ["count", "12"],
        "table": ["table", "8-9"],
        "count13": ["count", "13", "--method", "d4"],
        "join13": ["count", "13"],
        "tiny": ["table", "1-5"],
        "mirror9": ["count", "9", "--method", "mirror"],
    }

    def __init__(self, folder):
        self.folder = folder

    def __truediv__(self, name):
        from parqueens.cli import main

        path = self.folder / name
        if not path.exists():
            args = self.COMMANDS[path.name.removesuffix(".sqlite")]
            with open(os.devnull, "w") as devnull, contextlib.redirect_stdout(devnull):
                code = main([*args, "--checkpoint", str(path), "--quiet"])
            assert code == 0, name
        return path


@pytest.fixture(scope="session")
def real_checkpoints(tmp_path_factory):
    """A folder of finished checkpoints made by the command line, each on
    first use (the tests copy the one they change; use it in a fixture or
    before a test changes anything the command uses): count9 (`count 9`),
    count11 (`count 11`), count12, table (`table 8-9`), count13 (`count 13
    --method d4`), join13 (`count 13`, the join), tiny (`table 1-5`),
    mirror9 (`count 9 --method mirror`)."""
    return _Checkpoints(tmp_path_factory.mktemp("real_cp"))
