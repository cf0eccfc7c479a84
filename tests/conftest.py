import os
import subprocess
import sys

import pytest


@pytest.fixture(scope="session")
def run_cli():
    """Run ``python -m parqueens ARGS`` in a subprocess; returns CompletedProcess."""
    def run(*args, input=None, timeout=300, cwd=None):
        env = dict(os.environ)
        env.pop("PYTHONWARNINGS", None)
        return subprocess.run([sys.executable, "-m", "parqueens", *map(str, args)],
                              capture_output=True, text=True, input=input,
                              timeout=timeout, cwd=cwd, env=env)
    return run
