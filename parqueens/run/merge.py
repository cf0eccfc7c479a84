"""The parts of a count merged: K checkpoints of ``count N --part I/K``, one
for each part, into the checkpoint of the whole count.

A count cut into parts (:func:`parqueens.run.plan.part_units`: K
consecutive runs of its units, the same for every run of the same version)
may run on several machines or sites, each part into a checkpoint of its
own.  :func:`merge_parts` checks that the files are the K parts of one count
(one board size, method, split depth, fixed queens and version; each part
once; each finished, holding exactly the units of its part) and writes
their units into a new checkpoint, which then answers the whole count: its
total, and the classes by Burnside's lemma (the join) or from the units'
classes (a search with ``unique``), checked as a run's end checks them.
"""

import contextlib
import os

from ..checks import check_share
from ..tempfiles import temp_prefix
from .checkpoint_file import check_name
from .plan import part_units, run_identity, split_count
from .store import CheckpointError, RunStore

__all__ = ["merge_parts"]


def merge_parts(paths, out, *, recheck=0.0):
    """Merge the checkpoints of the K parts of a count into ``out``.

    Parameters
    ----------
    paths : iterable of str or os.PathLike
        The K part checkpoints, in any order, each made by
        ``count N --part I/K --checkpoint FILE`` (or ``run_count(...,
        part=(I, K), checkpoint=FILE)``) and finished.
    out : str or os.PathLike
        The checkpoint to write: a new file (or an empty one), which appears
        complete or not at all (made aside and published at the end).
    recheck : float
        The share of the merged units searched again before the count is
        answered (:func:`parqueens.run.runner.run_count`'s ``recheck``; 0:
        none, the parts' own checks stand).

    Returns
    -------
    parqueens.run.runner.CountResult
        The whole count, as ``run_count`` with ``out`` as its checkpoint
        gives it (``unique`` where the parts were counted with it).

    Raises
    ------
    TypeError, ValueError
        ``paths`` a single path rather than a list of them, ``recheck`` not
        a share.
    parqueens.run.store.CheckpointError
        A file that is not a finished part of a count, parts of different
        counts, a part missing or given twice, units not those of their
        part, ``out`` already holding something; nothing is written then.
    """
    if isinstance(paths, (str, bytes, os.PathLike)):
        raise TypeError("merge_parts takes a list of the parts' checkpoint paths, got one path")
    recheck = check_share(recheck, "recheck")
    paths = [os.fsdecode(p) for p in paths]
    out = os.fsdecode(out)
    if not paths:
        raise CheckpointError("merge needs the checkpoints of the parts")
    check_name(out, writing=True)
    parts = [_read_part(p) for p in paths]
    n, identity, depth, k = _same_count(parts)
    _check_parts(parts, k)
    whole = split_count(n, identity["method"], 1, depth or None, identity["fixed"])
    for part in parts:
        mine = {u.id for u in part_units(whole.units, part["part"], n)}
        if set(part["units"]) != mine:
            extra = len(set(part["units"]) - mine)
            raise CheckpointError(
                f"{part['path']}: its units are not those of part {_pi(part)} of n = {n} "
                f"({extra:,} foreign, {len(mine - set(part['units'])):,} missing): it was "
                f"planned otherwise; count that part again into a new file"
            )
    _check_new(out)
    folder, name = os.path.split(os.path.abspath(out))
    temp = os.path.join(folder, temp_prefix(name) + f"{os.urandom(4).hex()}.merging")
    try:
        result = _write(temp, parts, n, identity, depth, whole, recheck)
        _check_new(out)
        if os.path.exists(out):  # an empty file, as a count takes one
            os.replace(temp, out)
        else:
            try:
                os.link(temp, out)  # never replaces a file another run made meanwhile
            except FileExistsError:
                raise CheckpointError(f"{out} already exists; merge into a new file") from None
    finally:
        for leftover in (temp, temp + "-wal", temp + "-shm", temp + "-journal"):
            with contextlib.suppress(OSError):
                os.remove(leftover)
    return result


def _check_new(out):
    if os.path.exists(out) and (not os.path.isfile(out) or os.path.getsize(out) > 0):
        raise CheckpointError(f"{out} already exists; merge into a new file")


def _write(path, parts, n, identity, depth, whole, recheck):
    """The merged checkpoint written at ``path`` and its count made."""
    from .runner import run_count

    fixed = [tuple(q) for q in identity["fixed"]]
    ident = run_identity(identity["method"], identity["unique"], fixed)
    params = {"command": "merge", "n": [n], **ident}
    with RunStore(path, params) as store:
        store.claim(ident, (n, whole.method))
        store.begin_run(n, depth, len(whole.units), parts[0]["classified"], whole.method)
        for part in parts:
            rows = [
                (uid, *result, (part["origins"].get(uid) or "").split(" run ")[0] or None)
                for uid, result in part["units"].items()
            ]
            store.add(n, rows, part["seconds"])
        return run_count(
            n,
            unique=identity["unique"],
            method=identity["method"],
            fixed=fixed or None,
            split_depth=depth or None,
            checkpoint=store,
            recheck=recheck,
        )


def _read_part(path):
    """What a part's checkpoint holds, read only and checked row by row."""
    with RunStore(path) as store:
        identity = store.identity() or store.params  # the run's, or the command's
        if "part" not in identity:
            raise CheckpointError(
                f"{path} is not a part of a count (count N --part I/K --checkpoint FILE makes one)"
            )
        summary = store.summary()
        if len(summary) != 1:
            raise CheckpointError(f"{path} holds {len(summary)} board sizes, a part holds one")
        [size] = summary
        part = tuple(identity["part"])
        if not size["finished"] or size["units_done"] < size["units_total"]:
            raise CheckpointError(
                f"{path}: part {part[0]}/{part[1]} of n = {size['n']} is not finished "
                f"({size['units_done']:,} of {size['units_total']:,} units); resume it: run "
                f"the count that made it again, with the same options (parqueens count "
                f"{size['n']} --part {part[0]}/{part[1]} --checkpoint {path} ...)"
            )
        return {
            "path": path,
            "part": part,
            "n": size["n"],
            "identity": {k: identity.get(k) for k in ("method", "unique", "fixed")},
            "depth": size["split_depth"],
            "classified": size["classified"],
            "seconds": size["seconds"],
            "units": size["units"],
            "origins": store.unit_origins(size["n"]),
            "version": store.version,
        }


def _pi(part):
    return f"{part['part'][0]}/{part['part'][1]}"


def _same_count(parts):
    """``(n, identity, split depth, K)`` of the count all parts belong to;
    CheckpointError naming the first that differs."""
    first = parts[0]
    for part in parts[1:]:
        for key, what in (
            ("n", "board size"),
            ("method", "method"),
            ("fixed", "fixed queens"),
            ("classified", "the units' classes kept"),
            ("depth", "split depth"),
            ("version", "parqueens version"),
        ):
            mine, theirs = _value(part, key), _value(first, key)
            if mine != theirs:
                raise CheckpointError(
                    f"{part['path']} and {first['path']} are parts of different counts "
                    f"({what}: {_text(mine)} and {_text(theirs)})"
                )
        if part["part"][1] != first["part"][1]:
            raise CheckpointError(
                f"{part['path']} is part {_pi(part)}, {first['path']} part {_pi(first)}: "
                f"parts of one count are all of the same K"
            )
    # The classes where every part was counted for them (a join's come from
    # the total at the end, whatever its parts were asked).
    identity = dict(first["identity"], unique=all(p["identity"]["unique"] for p in parts))
    return first["n"], identity, first["depth"], first["part"][1]


def _value(part, key):
    return part["identity"].get(key) if key in ("method", "fixed") else part[key]


def _text(value):
    """A value as a message shows it: fixed queens as ROW:COL from 0."""
    if isinstance(value, list):
        return ",".join(f"{r}:{c}" for r, c in value) + " (from 0)" if value else "none"
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def _check_parts(parts, k):
    """Each part once, none missing."""
    seen = {}
    for part in parts:
        i = part["part"][0]
        if i in seen:
            raise CheckpointError(
                f"{part['path']} and {seen[i]['path']} are both part {_pi(part)} (the same "
                f"part twice, or one file under two names)"
            )
        seen[i] = part
    missing = [i for i in range(1, k + 1) if i not in seen]
    if missing:
        shown = ", ".join(map(str, missing[:10])) + (", ..." if len(missing) > 10 else "")
        raise CheckpointError(
            f"{len(missing):,} of the {k:,} parts missing (part {shown} of {k}); "
            f"merge all K part checkpoints"
        )
