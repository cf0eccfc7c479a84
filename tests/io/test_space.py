"""Free space before an output is started, and sizes for people."""

import errno
import shutil
import types

import pytest

from parqueens.io.space import NotEnoughSpace, check_space, format_bytes


def _fake_disk(free):
    return lambda path: types.SimpleNamespace(total=free, used=0, free=free, percent=0.0)


def test_sizes_for_people():
    sizes = [0, 1023, 1024, 1536, 5 * 2**30, 3 * 2**40, 2**60]
    assert [format_bytes(x) for x in sizes] == [
        "0 B",
        "1023 B",
        "1 KiB",
        "1.5 KiB",
        "5 GiB",
        "3 TiB",
        "1.02e+03 PiB",
    ]


def test_refusal_says_what_is_needed(tmp_path, monkeypatch):
    monkeypatch.setattr(shutil, "disk_usage", _fake_disk(100))
    check_space(tmp_path / "x", 100)  # fits exactly
    with pytest.raises(NotEnoughSpace) as info:
        check_space(tmp_path / "x", 43_000, reserved=True, estimated=True)
    assert info.value.errno == errno.ENOSPC and info.value.filename == str(tmp_path)
    assert info.value.strerror == (
        "not enough space for the output and its temporary file: "
        "need about 42 KiB, 100 B free (use force=True to write anyway)"
    )
    # sizes that round alike are given in bytes
    monkeypatch.setattr(shutil, "disk_usage", _fake_disk(1024))
    with pytest.raises(NotEnoughSpace, match=r"output: need 1025 bytes, 1024 free \(use"):
        check_space(tmp_path / "x", 1025)
