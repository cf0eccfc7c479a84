import subprocess
import sys

import pytest

from cli_helpers import cli_env


@pytest.fixture(scope="session")
def run_cli():
    """Run ``python -m parqueens ARGS`` in a subprocess; returns CompletedProcess."""
    def run(*args, input=None, timeout=300, cwd=None):
        return subprocess.run([sys.executable, "-m", "parqueens", *map(str, args)],
                              capture_output=True, text=True, input=input,
                              timeout=timeout, cwd=cwd, env=cli_env())
    return run
