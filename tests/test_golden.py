"""The listing's output, byte for byte, against what parqueens 0.2.0 wrote
before the listing used the mirror (tests/golden_listing.json: the first 16
hex digits of the SHA-256 of each file, n = 0..12, every format, all
solutions and canonical forms, 0- and 1-based)."""

import hashlib
import json
import pathlib

import pytest

from parqueens.formats import SolutionWriter
from parqueens.run.listing import iter_blocks

GOLDEN = json.loads((pathlib.Path(__file__).parent / "golden_listing.json").read_text())


def _digest(path, n, fmt, unique, one_based, jobs):
    with SolutionWriter(path, fmt, n, one_based=one_based, force=True) as w:
        for block in iter_blocks(n, unique=unique, jobs=jobs):
            w.write_many(block)
    return hashlib.sha256(path.read_bytes()).hexdigest()[:16]


@pytest.mark.parametrize("jobs", [1, 2])
def test_listing_bytes_unchanged(tmp_path, jobs):
    checked = 0
    for key, want in GOLDEN.items():
        n, which, fmt, *rest = key.split()
        n = int(n)
        if jobs == 2 and (n < 8 or fmt not in ("perm", "npy")):
            continue  # the order with threads: on boards with several chunks
        got = _digest(tmp_path / f"x.{fmt}", n, fmt, which == "unique", bool(rest), jobs)
        assert got == want, key
        checked += 1
    assert checked >= (182 if jobs == 1 else 20)


def test_mirror_read_back_in_small_pieces(monkeypatch):
    # Many chunks and a read-back a few rows at a time: the same stream as
    # the brute force, and every limit cuts it at the same place.
    import parqueens.run.listing as listing

    from naive import solutions as brute

    monkeypatch.setattr(listing, "_MIRROR_ROWS", 7)
    monkeypatch.setattr(listing, "_CHUNK_UNITS", 2)
    for n in (9, 10):
        want = brute(n)
        for jobs in (1, 2):
            got = [tuple(r) for b in iter_blocks(n, jobs=jobs, split_depth=3) for r in b.tolist()]
            assert got == list(want)
        for limit in (1, len(want) // 2 - 1, len(want) // 2 + 5, len(want) - 1, len(want) + 3):
            got = [tuple(r) for b in iter_blocks(n, limit=limit, split_depth=2) for r in b.tolist()]
            assert got == list(want[:limit])
