"""What a checkpoint holds: its run, the process using it, and the progress
of each board size, merged from the stored units as a resume merges them.

:func:`checkpoint_status` is what ``parqueens status`` prints (as text, or
as JSON with ``--json``), for the library as for the command line.
"""

import time

from .. import methods
from ..names import RECHECK_SHARE, SECONDS_DECIMALS
from .estimate import rounded
from .method import get_method
from .store import CheckpointError, RunStore

__all__ = ["checkpoint_status", "seconds_left", "stored_method"]


def checkpoint_status(path):
    """The status of the checkpoint file at ``path``, read without writing.

    Returns
    -------
    dict
        ``file`` (the path as given), ``method`` (of the run: ``join`` names
        the default, the join where it serves and ``d4`` elsewhere),
        ``fixed`` (0-based ``[row, col]`` pairs), ``part`` (``[I, K]``
        for a count's part I of K, else None), ``holder`` (the live
        process using the file: ``pid``, ``host``, ``command``, ``since``;
        or None) and ``sizes``, one dict per board size, by n: ``n``,
        ``started``; once started ``units_done`` and, with the size's
        record, ``method`` (as that size is counted), ``units_total``,
        ``done``, ``total`` (so far), ``fundamental`` (None unless the
        classes are known), ``seconds`` (of work stored) and
        ``seconds_left`` (at the rate so far, and what a resume does before
        it goes on: :func:`seconds_left`; None if unknown) and
        ``largest_unit_seconds`` (the largest unit's modelled share at that
        rate; None where unknown or done).

    Raises
    ------
    parqueens.run.store.CheckpointError
        The file is missing, not a checkpoint, damaged, or holds no run yet.
    """
    from .tally import classes, tally_stored

    with RunStore(path) as store:
        holder = store.holder()
        params = store.params
        identity = store.identity()
        if identity is None and {"method", "unique"} <= params.keys():
            identity = params  # made by the command line before it recorded one
        if identity is None:
            raise CheckpointError(f"{path} holds no run yet (no count has used it)")
        summary = {s["n"]: s for s in store.summary()}  # every row checked first
        sizes = []
        for n in sorted(set(summary) | set(params.get("n") or [])):
            s = summary.get(n)
            if s is None:
                # units without the size's record (deleted): the next run resumes them
                k = store.stored_units(n)
                sizes.append({"n": n, "started": bool(k)} | ({"units_done": k} if k else {}))
                continue
            method = store.unit_method(n) or stored_method(identity, n)
            tally = tally_stored(method, s["units"])
            done, all_units = s["units_done"], s["units_total"]
            finished = s["finished"] and done == all_units
            total, fundamental = tally.total, None
            if not all_units:  # a tiny board, solved without units: its record
                total, fundamental = s["total"] or 0, s["fundamental"]
            elif (
                s["classified"]
                and "part" not in identity
                and (not get_method(method).classes_by_burnside or finished)
            ):
                whole = not identity.get("fixed")
                fundamental = (
                    sum(classes(method, n, tally, store, whole).values())
                    if finished
                    else tally.fundamental
                )
            if finished and all_units:  # after the classes: their check says more
                # (a part's record holds its own total, of its own units)
                store.check_total(n, tally.total, fundamental if finished else None)
            planned = time.perf_counter()
            share, largest = (0.0, 0.0) if finished else _done_share(identity, n, s, method)
            planned = time.perf_counter() - planned  # the units planned, as a resume does
            sizes.append(
                {
                    "n": n,
                    "method": method,
                    "started": True,
                    "units_done": done,
                    "units_total": all_units,
                    "done": finished,
                    "total": total,
                    "fundamental": fundamental,
                    "seconds": round(s["seconds"], SECONDS_DECIMALS),
                    "seconds_left": (
                        seconds_left(s["seconds"], share, planned, done < all_units)
                        if share
                        else None
                    ),
                    "largest_unit_seconds": (
                        rounded(s["seconds"] * largest / share) if share and largest else None
                    ),
                }
            )
    return {
        "file": path,
        "method": identity.get("method") or "d4",
        "fixed": [list(q) for q in identity.get("fixed") or []],
        "part": identity.get("part"),
        "holder": holder,
        "sizes": sizes,
    }


def seconds_left(seconds, share, planning=0.0, units_left=True):
    """The seconds left of a size whose stored units took ``seconds`` for
    ``share`` (0 to 1) of its estimated work: the rest at that pace, and,
    with ``units_left``, what a resume does before it goes on: plan the
    units again (``planning``, seconds: timed where they were just planned)
    and search a sample of the stored ones again
    (:data:`parqueens.names.RECHECK_SHARE` of their time).  Rounded
    (:func:`parqueens.run.estimate.rounded`), never below 0 (the shares add
    up in floats: never "-0.0 s")."""
    left = seconds * (1 - share) / share
    if units_left:
        left += planning + RECHECK_SHARE * seconds
    return rounded(max(0.0, left))


def stored_method(identity, n):
    """The method a checkpoint's run (``identity``: its ``method`` and
    ``fixed``) counts board size n with: as the run resolved it, ``join``
    naming the default (the join where it serves, ``d4`` elsewhere).

    Raises :class:`parqueens.run.store.CheckpointError` if the identity is not a
    run's."""
    fixed = [tuple(q) for q in identity.get("fixed") or []]
    method = identity.get("method")
    try:
        return methods.resolve_method(methods.named_default(method), n, fixed, False)
    except (ValueError, TypeError) as exc:
        raise CheckpointError(f"the checkpoint's parameters are not a run's: {exc}") from None


def _done_share(identity, n, s, method):
    """The estimated share of the work in the stored units of n (0 if none),
    counted by ``method``, and the largest unit's share (0 where the shares
    are not modelled: by count)."""
    from ..search.units import SHARES_UP_TO
    from .method import work_shares
    from .plan import split_count

    if not s["units_done"]:
        return 0.0, 0.0
    # A share by the method's model of its units' work (the join's) is known for any number of
    # units (by count, the largest first, n = 23 said 28.9 h left where 10 were).
    if get_method(method).splits and (s["units_total"] > SHARES_UP_TO or not s["split_depth"]):
        return s["units_done"] / max(1, s["units_total"]), 0.0
    fixed = [tuple(q) for q in identity.get("fixed") or []]
    part = tuple(identity["part"]) if identity.get("part") else None
    try:
        units = split_count(n, method, 1, s["split_depth"] or None, fixed, part).units
    except (ValueError, TypeError):
        return s["units_done"] / max(1, s["units_total"]), 0.0
    shares = dict(zip((u.id for u in units), work_shares(units), strict=True))
    return float(sum(shares.get(uid, 0.0) for uid in s["units"])), max(shares.values())
