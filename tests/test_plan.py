"""A count decided once (parqueens.run.plan): the run's identity names the default
method."""

from parqueens.run.plan import run_identity


def test_run_identity_names_the_default():
    # the default: the join where it serves, d4 elsewhere, named "join"
    assert run_identity(None, False, ()) == run_identity("join", False, ())
    assert run_identity(None, False, ())["method"] == "join" != run_identity("d4", False, ())
    assert run_identity(None, False, [(1, 2), (0, 0)]) == {
        "method": "plain",
        "unique": False,
        "fixed": [[0, 0], [1, 2]],
    }


def test_a_dask_plan_leaves_the_kernels_to_the_workers(monkeypatch):
    # the client builds the units but runs no kernel: compiling them there
    # (10 s on a cold cache) only delayed a run on Dask
    from parqueens.run import chunks
    from parqueens.run.plan import plan_run

    warmed = []
    monkeypatch.setattr(chunks, "warm_up", lambda *args: warmed.append(args))
    assert len(plan_run(12, method="d4", backend="dask").with_jobs(2).split.units) == 504
    assert warmed == []
    assert len(plan_run(12, method="d4", jobs=1).split.units) == 504
    assert warmed == [(False, "d4")]
