"""Counting runs: resume, recheck, dispatch, merge exactly.

:func:`run_count` plans a count once (:func:`parqueens.run.plan.plan_run`: the
method, jobs and work units) and runs the plan (:func:`run_plan`): it takes
the units a checkpoint already holds (:mod:`parqueens.run.store`, which checks
that the file belongs to this run) and hands the other units to
:func:`parqueens.run.chunks.iter_chunks`, which loads the numba kernels once
and streams results as chunks finish; a :class:`parqueens.run.tally.Tally`
merges them exactly.
"""

import contextlib
import math
import os
import random
import time
from collections.abc import Iterable
from dataclasses import asdict, dataclass, field, fields
from typing import Any

from ..checks import check_recheck, check_share, fixed_conflict
from ..names import ORBIT_SIZES, RECHECK_SHARE, SECONDS_DECIMALS
from ..search import small
from ..terminal import progress_bar
from .backends import RunInterrupted, Terminated, WorkerDied, get_backend
from .chunks import iter_chunks
from .method import units_classified
from .plan import plan_run
from .store import CheckpointError, ResultMismatch, RunStore, forget_unit_hint
from .tally import Tally, UnitResult, classes, fixed_by_turns

# numpy, the numba kernels and the work units are imported where they are
# used: a small board (parqueens.search.small) is counted without them, at once.


__all__ = [
    "CountResult",
    "ResultMismatch",
    "run_count",
    "estimate",
    "run_plan",
    "RECHECK_UNITS",
    "default_sample",
]


@dataclass
class CountResult:
    """The outcome of a count.

    Attributes
    ----------
    n : int
        Board size.
    total : int
        Number of solutions (OEIS A000170).
    fundamental : int or None
        Number of symmetry classes (OEIS A002562), if asked for.
    orbits : dict or None
        ``{orbit size: number of classes}`` for sizes 8, 4, 2 and 1 (size 1
        only for n <= 1), if asked for.  ``total = sum(size * classes)``.
    method : str
        Method actually used (``d4`` falls back to ``plain`` for n < 4).
    split_depth : int
        Rows pre-placed per work unit (0 for n < 3, solved directly).
    units : int
        Number of work units.
    jobs : int
        Number of parallel jobs used.
    seconds : float
        Work time of the count, in seconds: this run's wall-clock time, plus
        with a checkpoint the time stored with the units it resumed (so a
        resumed size reports the time of all its units).
    run_seconds : float
        Wall-clock time of this run alone.
    nodes : int or None
        Queens placed by the search (0 for n < 3), if asked for (``nodes=True``:
        a kernel variant with a counter, 5 to 10 % slower); else None.
    resumed : int
        Units taken from a checkpoint instead of being searched.
    rechecked : int
        Units taken from a checkpoint that were searched again and found
        equal (see ``recheck``).
    half_turn, quarter_turn : int or None
        With ``unique``: the solutions fixed by the half turn (OEIS A032522)
        and by the quarter turn (OEIS A033148), from which the join's
        classes follow by Burnside's lemma (:mod:`parqueens.join.burnside`); for
        the search methods, from their classes.
    conflict : str or None
        Why fixed queens admit no solution (then ``total`` is 0).
    part : (int, int) or None
        Part ``I`` of ``K`` of the units, when the count was of a part
        (``total`` is then that part's share); else None.
    """

    n: int
    total: int
    fundamental: int | None = None
    orbits: dict[int, int] | None = None
    method: str = "d4"
    split_depth: int = 0
    units: int = 0
    jobs: int = 1
    seconds: float = 0.0
    nodes: int | None = None
    resumed: int = 0
    conflict: str | None = None
    run_seconds: float = 0.0
    rechecked: int = 0
    half_turn: int | None = None
    quarter_turn: int | None = None
    part: tuple[int, int] | None = None

    def as_dict(self) -> dict[str, Any]:
        """The result as a JSON-ready dict (orbit keys as strings)."""
        d = asdict(self)
        for key in ("seconds", "run_seconds"):  # measured to the millisecond
            d[key] = round(d[key], SECONDS_DECIMALS)
        if self.conflict is None:
            del d["conflict"]
        if self.part is None:
            del d["part"]
        else:
            d["part"] = list(self.part)
        if self.orbits is None:
            for key in ("orbits", "fundamental", "half_turn", "quarter_turn"):
                del d[key]
        else:
            d["orbits"] = {str(k): v for k, v in self.orbits.items()}
        return d


@dataclass
class UniqueCountResult(CountResult):
    """A :class:`CountResult` with its symmetry classes, as
    :func:`parqueens.count_unique` returns it: ``fundamental``, ``orbits``,
    ``half_turn`` and ``quarter_turn`` are always there (typed without
    None)."""

    fundamental: int = 0
    orbits: dict[int, int] = field(default_factory=dict)
    half_turn: int = 0
    quarter_turn: int = 0

    @classmethod
    def of(cls, result: CountResult) -> "UniqueCountResult":
        """``result`` (a count with ``unique``) as this class."""
        values = {f.name: getattr(result, f.name) for f in fields(CountResult)}
        missing = [
            k for k in ("fundamental", "orbits", "half_turn", "quarter_turn") if values[k] is None
        ]
        if missing:
            raise ValueError(f"a count without its classes (no {', '.join(missing)})")
        return cls(**values)


def run_count(
    n: int,
    *,
    unique: bool = False,
    method: str | None = None,
    jobs: int | None = None,
    split_depth: int | None = None,
    progress: bool = False,
    fixed: Iterable[tuple[int, int]] | None = None,
    checkpoint: RunStore | str | os.PathLike[str] | None = None,
    backend: str | None = "threads",
    nodes: bool = False,
    recheck: float | None = None,
    part: str | tuple[int, int] | None = None,
) -> CountResult:
    """Count the solutions of the n-queens problem, in parallel.

    Parameters
    ----------
    n : int
        Board size, ``0 <= n <= 64`` (n = 0 counts the empty placement: 1).
    unique : bool
        Also count the symmetry classes (fundamental solutions, OEIS A002562)
        and their orbit sizes.
    method : str or None
        ``"join"`` (matching half-boards, n = 4..28), ``"d4"`` (a search of
        about 1/8 of the full tree), ``"mirror"`` (1/2) or ``"plain"`` (all
        of it); None: the join where it serves, else d4, or the method of
        the checkpoint (see :func:`parqueens.methods.resolve_method` and
        :func:`parqueens.run.plan.method_of`).
    jobs : int or None
        Parallel jobs (threads by default); None for all cores (but 1 for
        at most 14 rows to search, fixed queens not counted, where starting
        jobs costs more than the search), negative
        as in joblib, 1 for none (the search runs in this thread).  No more
        than the cores, nor than the work units, run: see
        :func:`parqueens.run.backends.plan_jobs`; :attr:`CountResult.jobs` says
        how many ran.
    split_depth : int or None
        Rows pre-placed per work unit of a search; None chooses one with at
        least 64 units per job (or, resuming, the depth recorded in the
        checkpoint).
    progress : bool
        Show a tqdm bar over the work units on stderr.
    fixed : iterable of (int, int) or None
        Queens every counted solution must contain, as 0-based
        ``(row, col)``; the method is then ``plain``.
    checkpoint : parqueens.run.store.RunStore, str, os.PathLike or None
        Store each finished unit there, and skip the units it already holds;
        a file that holds another run (:func:`parqueens.run.plan.run_identity`),
        or that another live process uses, is refused.  A path is opened
        (created if missing) and closed again by this call.
    backend : str or None
        Where the units run: ``"threads"`` (default, as on the command line;
        also ``"threading"`` and None),
        ``"loky"`` for worker processes, ``"dask"`` inside
        :func:`parqueens.run.backends.dask_client`.
    nodes : bool
        Also count the queens placed (:attr:`CountResult.nodes`), with a
        kernel variant that has a counter in its hot loop (5 to 10 %
        slower; a search: the default method is then d4).  Units resumed
        from a checkpoint keep the count stored with them; if one was stored
        without it, ``nodes`` is None (and the other units are searched
        without counting them).
    recheck : float or None
        With a checkpoint: the share (0 to 1) of the units taken from it
        that are searched again and compared with what it holds, before
        the others run; None: :func:`default_sample`'s (a unit of each
        process that computed units, then units at random for
        :data:`parqueens.names.RECHECK_SHARE` of the stored work time), 0: none.  A stored
        result that a faulty machine computed wrong passes its checksum;
        only recomputing finds it for sure.
    part : str, (int, int) or None
        Count only part ``I`` of ``K`` of the work units (``"I/K"`` or
        ``(I, K)``, :func:`parqueens.run.plan.part_units`): ``total`` is
        that part's share, no classes are counted (``unique`` keeps its
        units' classes, where a search finds them), and its checkpoint
        belongs to that part alone.  :func:`parqueens.run.merge.merge_parts`
        merges the K parts' checkpoints into the whole count.

    Returns
    -------
    CountResult

    Raises
    ------
    TypeError, ValueError
        For invalid arguments (``checkpoint`` neither a store nor a path:
        TypeError).
    parqueens.run.store.CheckpointError
        If the checkpoint belongs to another run, is in use by another live
        process (:class:`parqueens.run.store.CheckpointInUse`), holds a row that
        fails its checksum, or cannot be written.
    ResultMismatch
        If a rechecked unit's result differs from the stored one (the unit
        is named; nothing more runs).
    parqueens.run.backends.WorkerDied
        If a worker process or the Dask cluster is lost.
    RunInterrupted
        On Ctrl-C or SIGTERM (:class:`parqueens.run.backends.Terminated`) during
        the search; the units finished are in the checkpoint.
    """
    check_recheck(recheck, checkpoint)
    plan = plan_run(
        n,
        unique=unique,
        method=method,
        jobs=jobs,
        split_depth=split_depth,
        fixed=fixed,
        backend=backend,
        nodes=nodes,
        part=part,
    )
    plan.check_part()
    store = _open_checkpoint(checkpoint, plan.n, plan.identity)
    try:
        return run_plan(plan.with_checkpoint(store), progress=progress, recheck=recheck)
    finally:
        if store is not None and store is not checkpoint:
            store.close()


def estimate(
    n: int,
    *,
    method: str | None = None,
    jobs: int | None = None,
    split_depth: int | None = None,
    fixed: Iterable[tuple[int, int]] | None = None,
    backend: str | None = "threads",
) -> dict[str, Any]:
    """The estimated time of a count, without running it: a dict (see
    :func:`parqueens.run.estimate.estimate_split`); the arguments as
    :func:`run_count`'s.  Raises TypeError, ValueError."""
    plan = plan_run(
        n, method=method, jobs=jobs, split_depth=split_depth, fixed=fixed, backend=backend
    )
    return plan.estimate()


def _open_checkpoint(checkpoint, n, identity):
    """``checkpoint`` as a :class:`parqueens.run.store.RunStore`: a store as it
    is, a path opened (created if missing) for this count; TypeError else."""
    if checkpoint is None or isinstance(checkpoint, RunStore):
        return checkpoint
    if isinstance(checkpoint, (str, os.PathLike)):
        return RunStore(checkpoint, {"command": "run_count", "n": [n], **identity})
    raise TypeError(
        f"checkpoint must be a file path or a parqueens.run.store.RunStore, got "
        f"{type(checkpoint).__name__}"
    )


def run_plan(plan, *, progress=False, recheck=None, on_work=None, then=None, on_resumed=None):
    """Run a count as planned (a :class:`parqueens.run.plan.CountPlan`): claim
    its checkpoint (:meth:`~parqueens.run.plan.CountPlan.claim`), take the
    units it holds, search a sample of them again (``recheck``, see
    :func:`run_count`), dispatch the others, merge, and record the size as
    finished.  ``on_work``: None, or called with the share of the size's
    estimated work done (0 to 1, exactly 1 at the end) as units finish (a
    table's bar).  ``then``: None, or the plan run next (a table's next
    size), whose units a run on Dask submits behind its own
    (:func:`parqueens.run.chunks.feed`), so that the workers go on with them
    while this run's last results are merged and stored.  ``on_resumed``:
    None, or called with ``(resumed, units, rechecked)`` (the units taken
    from the checkpoint, the size's units, those of them searched again)
    once they are taken and rechecked, before any other unit is searched
    (so that a run interrupted later has said what it resumed).  Returns a
    :class:`CountResult`; raises as :func:`run_count`."""
    recheck = check_recheck(recheck, plan.checkpoint)
    if plan.direct:
        return _direct(plan.n, plan.fixed, plan.unique)
    if plan.jobs is None:  # planned before its Dask cluster was reached
        plan = plan.with_jobs(plan.asked_jobs)
    n, unique, checkpoint = plan.n, plan.unique, plan.checkpoint
    plan.claim(recheck)
    if get_backend(plan.backend).cluster:  # they load their kernels while the units are built here
        from .chunks import warm_workers

        warm_workers(plan.nodes, plan.method)
    split = plan.split  # its kernels are loaded in a helper thread (Ctrl-C)
    start = time.perf_counter()
    tally, todo, held = _resume(split, checkpoint, unique)
    rechecked = 0
    if held:
        rechecked = _recheck(split, held, checkpoint, unique, recheck, plan.jobs, plan.backend)
    if on_resumed is not None:
        on_resumed(len(split.units) - len(todo), len(split.units), rechecked)
    nodes = plan.nodes and tally.counted  # not for a total resumed units leave unknown
    run_jobs = max(1, min(split.jobs, len(todo)))  # what runs: no more than the units left
    _dispatch(
        split,
        todo,
        run_jobs,
        tally,
        unique=unique,
        backend=plan.backend,
        nodes=nodes,
        checkpoint=checkpoint,
        progress=progress,
        on_work=on_work,
        then=_feeder(then),
    )
    result = CountResult(
        n,
        tally.total,
        method=split.method,
        split_depth=split.depth,
        units=len(split.units),
        jobs=max(run_jobs, min(split.jobs, rechecked)),  # the recheck's threads too
        nodes=tally.nodes if nodes else None,
        resumed=len(split.units) - len(todo),
        conflict=split.conflict,
        rechecked=rechecked,
        part=plan.part,
    )
    if plan.part is not None:  # a share of the count: its classes need all of it
        unique = False
    elif units_classified(split.method, n, unique):
        # Checked always where they can be: the join's classes check its
        # total (Burnside), a search's its classes against the total and the turns.
        stored = checkpoint if result.resumed else None
        orbits = classes(split.method, n, tally, stored, whole=not plan.fixed)
    if unique:
        result.orbits, result.fundamental = orbits, sum(orbits.values())
        result.half_turn, result.quarter_turn = fixed_by_turns(orbits)
    result.seconds = result.run_seconds = time.perf_counter() - start + plan.build_seconds
    if checkpoint is not None:
        if not todo:  # all read back: the units must still add up to the record
            checkpoint.check_total(n, result.total, result.fundamental)
        checkpoint.finish_run(n, result.total, result.fundamental)
        # The stored chunks' time of every run of n, this one's included:
        # the same figure however many runs it took.
        result.seconds = checkpoint.work_seconds(n)
    return result


def _direct(n, fixed, unique):
    """The :class:`CountResult` of a small board, searched in Python
    (:mod:`parqueens.search.small`): method ``plain``, no work units, one job."""
    start = time.perf_counter()
    found = small.solutions(n, fixed)
    result = CountResult(n, len(found), method="plain", conflict=fixed_conflict(fixed))
    if unique:
        result.orbits = dict.fromkeys(ORBIT_SIZES, 0)
        for queens in found:
            if small.canonical(queens) == queens:
                result.orbits[small.orbit_size(queens)] += 1
        result.fundamental = sum(result.orbits.values())
        result.half_turn, result.quarter_turn = fixed_by_turns(result.orbits)
    result.seconds = result.run_seconds = time.perf_counter() - start
    return result


def _resume(plan, checkpoint, unique):
    """The tally of the units stored in ``checkpoint`` (or of a tiny board's
    solutions), the units left to search, and the stored results
    (``{unit_id: (solutions, by_stab, nodes)}``)."""
    tally = Tally(plan.method)
    if plan.tiny is not None:
        for queens in plan.tiny:  # each solution a unit of its own
            k = (
                ORBIT_SIZES.index(small.orbit_size(queens))
                if small.canonical(queens) == queens
                else None
            )
            tally.add(UnitResult(1, tuple(int(i == k) for i in range(4)), 0))
        tally.counted = True  # no search: 0 queens placed, and that is known
    classified = units_classified(plan.method, plan.n, unique)
    done = (
        {}
        if checkpoint is None
        else checkpoint.begin_run(plan.n, plan.depth, len(plan.units), classified, plan.method)
    )
    todo = []
    for unit in plan.units:
        if unit.id in done:
            tally.add(UnitResult(*done[unit.id]))
        else:
            todo.append(unit)
    return tally, todo, done


#: The least number of stored units searched again on resume when
#: ``recheck`` is None (see :func:`default_sample`).
RECHECK_UNITS = 2


def default_sample(plan, held, checkpoint, rng=None):
    """The stored units a resume searches again by default (``recheck``
    None): ``(first, then)``, lists of units.

    ``first``: one unit of each *origin* (the process that computed units,
    and the run that stored them: :meth:`parqueens.run.store.RunStore.unit_origins`),
    so that a faulty machine or Dask worker that got its units wrong is met
    whichever it was, and at least :data:`RECHECK_UNITS` in all; each the
    cheapest of a few of its origin's units drawn at random (by their
    shares of the work, :func:`parqueens.search.units.work_shares`).
    ``then``: the other stored units in a random order, searched while the
    time budget lasts (:func:`_recheck`); the join's units by
    configuration, which share its tables.  Units this run stored itself
    (a library run resumed on the same store) come last."""
    from .method import work_shares

    rng = rng or random.Random()
    stored = [u for u in plan.units if u.id in held]
    share = dict(zip((u.id for u in plan.units), work_shares(plan.units), strict=True))
    origins, mine = checkpoint.unit_origins(plan.n), checkpoint.run_origin()
    groups = {}
    for u in stored:
        groups.setdefault(origins.get(u.id), []).append(u)
    first = []
    for origin, units in groups.items():
        if origin is not None and (mine is None or origin != mine):
            first.append(min(rng.sample(units, min(4, len(units))), key=lambda u: share[u.id]))
    chosen = {u.id for u in first}
    rest = [u for u in stored if u.id not in chosen]
    while len(first) < min(RECHECK_UNITS, len(stored)):
        first.append(rest.pop(rng.randrange(len(rest))))
    by_config = {}
    for u in rest:
        by_config.setdefault(getattr(u, "config", u.id), []).append(u)
    configs = list(by_config.values())
    rng.shuffle(configs)
    then = [u for units in configs for u in units]
    then.sort(key=lambda u: mine is not None and origins.get(u.id) == mine)  # this run's last
    return first, then


def _recheck(plan, held, checkpoint, unique, share, jobs, backend):
    """Search a sample of the units ``held`` by ``checkpoint`` again and
    compare (see :func:`run_count`'s ``recheck``; None:
    :func:`default_sample`'s, the second part while :data:`parqueens.names.RECHECK_SHARE`
    of the stored work time lasts); returns how many were searched (all
    equal, else :class:`ResultMismatch`)."""
    stored = [u for u in plan.units if u.id in held]
    if share is None:
        first, then = default_sample(plan, held, checkpoint)
        budget = RECHECK_SHARE * checkpoint.work_seconds(plan.n)
    else:
        k = math.ceil(check_share(share, "recheck") * len(stored))
        chosen = {u.id for u in random.Random().sample(stored, k)}
        # In the plan's order: the join's units of one configuration share
        # its tables, which a random order would build again and again.
        first, then, budget = [u for u in stored if u.id in chosen], [], 0.0
    left = [u.id for u in plan.units if u.id not in held]
    hint = "" if len(first) == len(stored) else "; recheck=1 checks them all"
    end = time.perf_counter() + budget
    searched = 0
    for units in (first, then):
        if not units or (units is then and time.perf_counter() > end):
            break  # the budget spent on the first part already
        jobs_now = max(1, min(jobs, len(units)))
        chunks = iter_chunks(units, jobs=jobs_now, unique=unique, backend=backend)
        with contextlib.closing(chunks):  # closed early: its threads stop
            for pairs in _retold(chunks, left):
                for unit, res in pairs:
                    _compare(plan, checkpoint.path, unit, res, held[unit.id], unique, hint)
                searched += len(pairs)
                if units is then and time.perf_counter() > end:
                    return searched
    return searched


def _compare(plan, path, unit, res, stored_result, unique, hint):
    """Raise :class:`ResultMismatch` if a unit searched again (``res``)
    differs from its stored result (``hint``: said after)."""
    solutions, by_stab, _ = stored_result
    # Units stored with their classes may serve a run without them: then
    # the solutions alone are compared.
    classes = units_classified(plan.method, plan.n, unique)
    if res.solutions != solutions or (classes and res.by_stab != by_stab):
        raise ResultMismatch(
            f"{path}: n = {plan.n}, unit {unit.id}: stored {solutions} "
            f"solutions (classes {list(by_stab)}), searched again {res.solutions} "
            f"(classes {list(res.by_stab)}); the stored result is wrong (a faulty "
            f"machine, or a file edited with its checksum), so the run stops: "
            f"{forget_unit_hint(path, plan.n, unit.id)}{hint}"
        )


def _retold(chunks, unit_ids):
    """The ``chunks`` of a recheck (:func:`iter_chunks`); a lost worker is
    reported with the run's unfinished units ``unit_ids``, not the sample's."""
    try:
        yield from chunks
    except WorkerDied as exc:
        raise exc.retold(unit_ids, "while searching stored units again to check them") from None


def _feeder(plan):
    """What feeds ``plan``'s units to Dask once a run ahead of it has
    submitted its own (see :func:`run_plan`'s ``then``), or None: not on
    Dask, a small board, or a size the checkpoint holds units of (its run
    knows which are left, and rechecks some first)."""
    if plan is None or plan.direct or not get_backend(plan.backend).cluster or plan.jobs is None:
        return None

    def feed_it():
        from .chunks import feed

        # An optimisation only: whatever fails here fails again at the
        # size's own run, which reports it.
        with contextlib.suppress(Exception):
            if plan.checkpoint is not None and plan.checkpoint.stored_units(plan.n):
                return
            split = plan.split
            feed(list(split.units), jobs=split.jobs, unique=plan.unique, nodes=plan.nodes)

    return feed_it


def _dispatch(
    plan,
    todo,
    jobs,
    tally,
    *,
    unique,
    backend,
    nodes,
    checkpoint,
    progress,
    on_work=None,
    then=None,
):
    """Search the units ``todo`` of ``plan``, adding their results to
    ``tally`` and to ``checkpoint``, with a progress bar if ``progress``
    (and the share of the work done told to ``on_work``); ``then``: as
    :func:`parqueens.run.chunks.iter_chunks`'s."""
    from .method import work_shares

    units = plan.units
    finished = len(units) - len(todo)
    weigh = progress or on_work is not None
    share = dict(zip((u.id for u in units), work_shares(units), strict=True)) if weigh else {}
    left = {u.id for u in todo}
    done = min(1.0, sum(share.get(u.id, 0.0) for u in units if u.id not in left))
    bar = _progress_bar(progress, f"n={plan.n}", len(units), finished, done)
    stack = contextlib.ExitStack()
    try:
        t = time.perf_counter()
        chunks = iter_chunks(
            todo, jobs=jobs, unique=unique, backend=backend, nodes=nodes, then=then
        )
        # Closed here, not when an interrupt's traceback lets it go: then
        # joblib's cancelled tasks would warn outside the CLI's filter.
        stack.callback(chunks.close)
        for pairs in chunks:
            for _, res in pairs:
                tally.add(res)
            if checkpoint is not None:
                now = time.perf_counter()
                rows = [(u.id, r.solutions, r.by_stab, r.nodes, r.worker) for u, r in pairs]
                checkpoint.add(plan.n, rows, now - t)
                t = now
            finished += len(pairs)
            bar.set_description_str(f"n={plan.n} {finished}/{len(units)} units", refresh=False)
            step = sum(share.get(u.id, 0.0) for u, _ in pairs)
            # Float sums must neither pass 1 nor stop short of it at the end.
            step = 1.0 - done if finished == len(units) else min(step, 1.0 - done)
            done += step
            bar.update(step)
            if on_work is not None:
                on_work(done)
    except (KeyboardInterrupt, Terminated) as exc:
        if checkpoint is not None:  # the truth, if the signal landed right after a save
            with contextlib.suppress(CheckpointError):
                finished = checkpoint.stored_units(plan.n)
        raise RunInterrupted(
            plan.n,
            finished,
            len(units),
            isinstance(exc, Terminated),
            None if checkpoint is None else checkpoint.path,
        ) from exc
    finally:
        stack.close()
        if finished == len(units) and bar.n < 1.0:  # nothing to search
            bar.update(1.0 - bar.n)
        bar.close()
    if on_work is not None:
        on_work(1.0)


def _progress_bar(enabled, desc, units, finished, share_done):
    # The bar and its time left follow the estimated share of the work done
    # (units differ a lot in size, and the largest run first).  tqdm.auto:
    # a notebook gets its widget, a terminal the text bar.
    return progress_bar(
        notebook=True,
        total=1.0,
        initial=share_done,
        disable=not enabled,
        desc=f"{desc} {finished}/{units} units",
        leave=None,  # below another bar (a table's), cleared when done
        # the percentage is of the work (the units' estimated shares), not of the units
        bar_format="{desc}, {percentage:3.0f}% of the work|{bar}| [{elapsed}<{remaining}]",
    )
