"""Estimates of a count's time, without running it.

The search methods: the nodes of the search tree by Knuth's random probes
(Knuth 1975) over the work units, divided by this machine's node rate
measured on a small board.  The join: the cost model of its units
(:attr:`parqueens.join.JoinUnit.work`) scaled by this machine's speed on a
small board.  :func:`size_weights` weighs the sizes of a table for its
progress bar.  Called through :meth:`parqueens.run.plan.CountPlan.estimate`.
"""

import time

from ..names import ESTIMATE_DIGITS, UNITS_FROM
from .backends import ClusterUnreachable, call_interruptibly, get_backend, worker_failure
from .method import get_method

__all__ = [
    "ASKED_KEYS",
    "WALL_KEYS",
    "rounded",
    "estimate_split",
    "probe_units",
    "SIZE_OVERHEAD_NODES",
    "size_weights",
]


#: The keys of an estimate that are wall seconds (made on each Dask worker,
#: combined as the cluster's: :func:`_estimate_on_workers`).
#: The time on the cores asked for (``--estimate --jobs N``) and its range.
ASKED_KEYS = ("asked_seconds", "asked_low", "asked_high")
WALL_KEYS = ("seconds", "low", "high", *ASKED_KEYS)


def rounded(value, digits=ESTIMATE_DIGITS):
    """An estimate (a float, or None) to ``digits`` significant digits, as
    printed (``13.7``, not ``13.742114850362``); ints and None as they are."""
    if not isinstance(value, float):
        return value
    return float(f"{value:.{digits}g}")


def estimate_split(
    split, build_seconds=0.0, probes=20000, seed=1, asked_jobs=None, backend="threads"
):
    """The estimated time of a count split as ``split`` (a
    :class:`parqueens.run.plan.Split`, its units built in ``build_seconds``).

    Search methods: the nodes of the search tree are estimated by Knuth's
    random probes (Knuth 1975) over the work units, and divided by this
    machine's node rate, measured on a small board (n = 14, the kernel
    alone, about 0.05 s) in this process, plus twice the time it took to
    build the work units (a run builds them too, and their masks once more
    when searching: with a deep split depth that can outweigh the search).
    The estimate is rough (it ran 1.2 to 1.3 times the real time at
    n = 16..18, and can be up to about twice off) but cheap: about a second.
    The join: see :func:`_estimate_join` (``asked_jobs``: the jobs asked
    for, more than this machine's cores, for the time on that many).
    ``backend`` ``"dask"``: made on the cluster's workers, not here
    (:func:`_estimate_on_workers`).

    Returns a dict: ``nodes`` (float; None for the join), ``rate`` (nodes
    per second per job; None for the join), ``jobs`` (as the run uses
    them), ``units``, ``split_depth``, ``method`` and ``seconds`` (the
    estimated wall time); for ``asked_jobs`` more than ``jobs``, also
    ``asked_jobs`` and ``asked_seconds`` (the time on that many cores like
    this machine's; a search's nodes shared by at most one job a unit).
    """
    from ..search.units import make_units, unit_masks
    from .chunks import search_specs, warm_up

    if get_backend(backend).cluster and split.units:
        return _estimate_on_workers(split, build_seconds, probes, seed, asked_jobs)
    if not get_method(split.method).splits:  # the join: its cost model or a sample
        return _estimate_join(split, build_seconds, asked_jobs)
    out = {
        "nodes": 0.0,
        "rate": 0.0,
        "jobs": split.jobs,
        "units": len(split.units),
        "split_depth": split.depth,
        "method": split.method,
        "seconds": 0.0,
    }
    if not split.units:
        return out
    nodes, _ = probe_units(split.units, probes, seed)
    call_interruptibly(warm_up)
    call_interruptibly(warm_up, True)
    # The kernel alone is timed: the per-unit set-up in Python weighs on a
    # board this small far more than on the boards worth estimating.  Its
    # nodes come from the counting variant, its time from the one a run uses.
    calib_specs = [unit_masks(u) for u in make_units(14, split.method, 2)]
    _, _, calib_nodes = search_specs(14, calib_specs, nodes=True)
    t = time.perf_counter()
    search_specs(14, calib_specs)
    rate = int(calib_nodes.sum()) / max(time.perf_counter() - t, 1e-9)
    seconds = nodes / rate / split.jobs + 2 * build_seconds
    out |= {"nodes": nodes, "rate": rate, "seconds": seconds}
    if asked_jobs is not None and asked_jobs > split.jobs:
        # the nodes shared by that many jobs, one unit each at most
        shared = max(split.jobs, min(asked_jobs, len(split.units)))
        asked_seconds = nodes / rate / shared + 2 * build_seconds
        out |= {"asked_jobs": asked_jobs, "asked_seconds": asked_seconds}
    return out


def _estimate_join(split, build_seconds, asked_jobs=None, free=None):
    """:func:`estimate_split` for the join: up to n = 21 its set-up and the
    cost model of its units (:attr:`parqueens.join.JoinUnit.work`) scaled by
    this machine's speed, measured on units of n (about half a second), on
    the cores other work leaves free, plus the time its units took to plan
    (:func:`parqueens.join.join_estimate`); from n = 22 on, a sample of its
    row sets counted here for a few seconds
    (:func:`parqueens.join.join_sampled_estimate`), which adds ``low``,
    ``high`` (the range, wall seconds), ``core_seconds``, ``samples``,
    ``sample_seconds``, ``largest`` (the largest unit's modelled share),
    ``largest_unit_seconds`` (its core-seconds) and ``worker_bytes`` (the
    peak memory of a one-thread worker,
    :func:`parqueens.join.rowsets.rowset_memory`).  For ``asked_jobs`` more than the
    jobs planned, also ``asked_jobs`` and ``asked_seconds`` (the time on
    that many cores like this machine's, each making its own tables), and
    from n = 22 its range ``asked_low``, ``asked_high`` (the core-seconds'
    range shared the same way)."""
    from ..join.units import join_estimate, join_sampled_estimate
    from .chunks import warm_up

    call_interruptibly(warm_up, False, split.method)
    out = {
        "nodes": None,
        "rate": None,
        "jobs": split.jobs,
        "units": len(split.units),
        "split_depth": 0,
        "method": split.method,
    }
    units = list(split.units)
    if not get_method(split.method).sampled(split.n):
        out["seconds"] = build_seconds + join_estimate(split.n, split.jobs, units=units, free=free)
        if asked_jobs is not None and asked_jobs > split.jobs:
            asked = join_estimate(split.n, asked_jobs, units=units)
            out |= {"asked_jobs": asked_jobs, "asked_seconds": build_seconds + asked}
        return out
    from ..join.rowsets import rowset_memory

    e = call_interruptibly(join_sampled_estimate, split.n, split.jobs, units)
    keys = ("core_seconds", "samples", "sample_seconds", "largest")
    out |= {k: build_seconds + e[k] for k in ("seconds", "low", "high")} | {k: e[k] for k in keys}
    out["largest_unit_seconds"] = e["core_seconds"] * e["largest"]
    out["worker_bytes"] = rowset_memory(split.n, 1)
    if asked_jobs is not None and asked_jobs > split.jobs:
        out["asked_jobs"] = asked_jobs
        for key, part in (("seconds", "seconds"), ("low", "low"), ("high", "high")):
            # the core-seconds, or an end of their range, shared by the cores
            core = e["core_seconds"] * e[part] / e["seconds"]
            out[f"asked_{key}"] = build_seconds + max(core / asked_jobs, core * e["largest"])
    return out


def _estimate_on_workers(split, build_seconds, probes, seed, asked_jobs):
    """:func:`estimate_split` on the active Dask client's cluster: made by
    every worker thread at once (:func:`_worker_estimate`), so that each
    measures its speed while the others measure theirs, as they share their
    machines during the run (on a shared 2-core machine a worker alone ran
    twice as fast as two together: the client's speed said 13.7 s of a
    count 19 that took the cluster 25 to 29 s).  Their wall seconds
    (:data:`WALL_KEYS`) are combined as the cluster's: each says the time if
    every thread were as fast as its own, and the threads' speeds add up
    (the harmonic mean); ``build_seconds`` (the units, built here) added.
    Raises :class:`parqueens.run.backends.ClusterUnreachable` if the cluster
    is lost meanwhile."""
    from statistics import harmonic_mean

    from distributed import get_client

    client = get_client()
    futures = [
        client.submit(_worker_estimate, split, probes, seed, asked_jobs, workers=[w], pure=False)
        for w, threads in client.nthreads().items()
        for _ in range(threads)
    ]
    try:
        found = client.gather(futures)
    except Exception as exc:
        if worker_failure(exc, []) is None:
            raise
        raise ClusterUnreachable(
            f"the Dask cluster was lost while estimating ({type(exc).__name__})"
        ) from None
    out = dict(found[0])
    for key in WALL_KEYS:
        if key in out:
            out[key] = build_seconds + harmonic_mean([max(e[key], 1e-9) for e in found])
    return out


def _worker_estimate(split, probes, seed, asked_jobs):
    """:func:`estimate_split` made in this (Dask worker's) thread, in wall
    seconds.  The join below its row sets measures its speed in wall time
    on units of n (:func:`parqueens.join.join_estimate`) while the other
    workers measure theirs, as they share their machines in the run: the
    cores it shares are the cluster's threads, not those the others leave
    free now."""
    method = get_method(split.method)
    if not method.splits and not method.sampled(split.n):
        return _estimate_join(split, 0.0, asked_jobs, free=split.jobs)
    return estimate_split(split, 0.0, probes, seed, asked_jobs)


def probe_units(units, probes, seed):
    """Knuth's estimates over work units (:func:`parqueens.search.kernels.knuth_estimate`):
    ``(nodes, solutions)``, floats, the solutions weighted by the units'
    weights.  ``probes`` random walks in all, spread over at most 256 units
    (all of them when there are no more; else a random sample, scaled up)."""
    import numpy as np

    from ..search.kernels import knuth_estimate
    from ..search.units import unit_masks

    if not units:
        return 0.0, 0.0
    if len(units) <= 256:
        picks = np.arange(len(units))
    else:
        picks = np.random.default_rng(seed).integers(0, len(units), size=256)
    per_unit = max(1, probes // len(picks))
    nodes = solutions = 0.0
    for i in picks:
        unit = units[int(i)]
        node_mean, leaf_mean = knuth_estimate(
            unit.n, unit_masks(unit).allowed, per_unit, seed + int(i)
        )
        nodes += node_mean
        solutions += leaf_mean * unit.weight
    scale = len(units) / len(picks)
    return nodes * scale, solutions * scale


#: What counting any size costs besides its search (planning, units, their
#: dispatch: some 0.02 to 0.05 s), in nodes of the search at about 3e8 a
#: second: without it a table's first, small sizes weigh almost nothing and
#: its bar's time left starts hours long.
SIZE_OVERHEAD_NODES = 1e7


def size_weights(ns):
    """The relative work of counting each board size of ``ns``: Knuth's
    estimate of the nodes of its whole search tree (:func:`probe_units`
    over the units of two rows, 20,000 probes, about 0.01 s a size), plus
    what any size costs (:data:`SIZE_OVERHEAD_NODES`), for a progress bar
    over several sizes.  Returns a list of floats, one per size, summing to 1."""
    from ..search.units import iter_units

    nodes = []
    for n in ns:
        units = [u for u, _ in iter_units(n, "plain", 2)] if n >= UNITS_FROM else []
        nodes.append(probe_units(units, 20_000, 1)[0] + SIZE_OVERHEAD_NODES)
    total = sum(nodes)
    return [x / total for x in nodes]
