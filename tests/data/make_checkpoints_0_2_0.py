"""How the 0.2.0 checkpoints beside this script were made: by parqueens 0.2.0
itself (run at commit 798adf9, ``python tests/data/make_checkpoints_0_2_0.py
tests/data``): n = 12 by d4 and by the join, interrupted after half their
units (tests/test_store.py resumes them with the current version)."""

import os
import sys

from parqueens.names import VERSION
from parqueens.run.chunks import run_chunk
from parqueens.run.plan import plan_run
from parqueens.run.store import RunStore


def main(out):
    assert VERSION == "0.2.0", "run this with parqueens 0.2.0 (commit 798adf9)"
    for method, name in (("d4", "d4"), (None, "join")):
        path = os.path.join(out, f"checkpoint-0.2.0-{name}-n12.db")
        if os.path.exists(path):
            os.remove(path)
        plan = plan_run(12, method=method, jobs=1)
        store = RunStore(path, {"command": "count", "n": [12], **plan.identity})
        plan = plan.with_checkpoint(store)
        plan.claim()
        split = plan.split
        store.begin_run(12, split.depth, len(split.units), True)
        half = split.units[: len(split.units) // 2]
        results = run_chunk(list(half), unique=False)
        rows = [(u.id, r.solutions, r.by_stab, r.nodes) for u, r in zip(half, results, strict=True)]
        store.add(12, rows, 0.25)
        store.close()


if __name__ == "__main__":
    main(sys.argv[1])
