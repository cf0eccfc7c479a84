"""npy: a NumPy ``.npy`` file, shape ``(count, n)``, C order, of the smallest
unsigned dtype that holds the columns (:func:`npy_dtype`); always 0-based.

The header written has a fixed size (:data:`NPY_HEADER_SIZE` bytes) and
first says 0 rows, so that the rows can be streamed and the count filled in
at the end.  Read: versions 1.0 to 3.0 of any integer dtype and order,
memory-mapped (from standard input, into memory), the header checked first
so that a bad file is named in one line.
"""

import io
import os
import struct
from typing import TYPE_CHECKING

from ..checks import check_int
from .base import BLOCK_BYTES, Format
from .reading import SolutionReader

if TYPE_CHECKING:
    import numpy as np

__all__ = [
    "NPY_HEADER_SIZE",
    "NPY_MAGIC",
    "npy_dtype",
    "npy_header",
    "NpyFormat",
    "FORMAT",
    "NpyReader",
    "load_npy",
]


#: Size in bytes of the ``.npy`` header written by
#: :class:`parqueens.io.SolutionWriter`: version 1.0, padded with spaces to
#: hold any count (a multiple of 64, as numpy aligns the data).
NPY_HEADER_SIZE = 128

#: The first bytes of every ``.npy`` file.
NPY_MAGIC = b"\x93NUMPY"


def npy_dtype(n: int) -> "np.dtype":
    """Smallest unsigned dtype holding the columns of an n-board.

    Returns ``numpy.dtype`` ``uint8`` for n <= 255, ``uint16`` for
    n <= 65535, ``uint32`` for n <= 2**32 - 1, else ``uint64``; always
    little-endian.  Raises TypeError/ValueError for a non-int or negative n.
    The one rule for a compact copy of rows (files, and verify's memory).
    """
    import numpy as np

    n = check_int(n, "n")
    if n < 0:
        raise ValueError(f"n must be >= 0, got {n}")
    for dt in ("<u1", "<u2", "<u4"):
        if n <= np.iinfo(dt).max:
            return np.dtype(dt)
    return np.dtype("<u8")


def npy_header(dtype, count, n):
    """Version 1.0 header of exactly :data:`NPY_HEADER_SIZE` bytes (magic,
    length, dict, padding) of a C-order array of ``dtype``, shape
    ``(count, n)``; ValueError if the shape does not fit."""
    from numpy.lib import format as npformat

    descr = npformat.dtype_to_descr(dtype)
    d = f"{{'descr': {descr!r}, 'fortran_order': False, 'shape': ({count}, {n}), }}"
    body = d.encode("latin1")
    magic = npformat.magic(1, 0)
    dict_size = NPY_HEADER_SIZE - len(magic) - 2
    if len(body) + 1 > dict_size:
        raise ValueError(f"shape ({count}, {n}) does not fit in the .npy header")
    return magic + struct.pack("<H", dict_size) + body.ljust(dict_size - 1) + b"\n"


class NpyFormat(Format):
    name = "npy"
    magic = NPY_MAGIC
    counted_header = True

    def open_reader(self, source, n, one_based):
        if source.path is None:
            data = source.read_stdin()
            arr = load_npy(io.BytesIO(data), source.name, len(data), None)
        else:
            with open(source.path, "rb") as f:
                arr = load_npy(f, source.name, os.fstat(f.fileno()).st_size, source.path)
        if n is not None and arr.shape[1] != n:
            raise ValueError(f"{source.name}: rows have length {arr.shape[1]}, expected n = {n}")
        return NpyReader(arr, source.name)

    def header(self, out, count, fixed):
        return npy_header(npy_dtype(out.n), count, out.n)

    def encode_rows(self, out, rows, first):
        import numpy as np

        return np.array(rows, npy_dtype(out.n)).reshape(len(rows), out.n).tobytes()

    def encode_block(self, out, array, first):
        dtype = npy_dtype(out.n)
        if array.dtype == dtype and array.flags.c_contiguous and array.size:
            yield memoryview(array).cast("B")  # the rows as they are: no copy
            return
        rows = max(1, BLOCK_BYTES // (max(1, out.n) * dtype.itemsize))
        for i in range(0, array.shape[0], rows):
            yield array[i : i + rows].astype(dtype).tobytes()

    def size(self, n, count, one_based=False):
        return NPY_HEADER_SIZE + count * n * npy_dtype(n).itemsize


FORMAT = NpyFormat()


class NpyReader(SolutionReader):
    """The reader of an npy file: its rows as tuples, and :attr:`array`
    (memory-mapped), checked when it was opened.  Columns off the board are
    kept as they are (invalid solutions, which verify reports)."""

    def __init__(self, array, name):
        super().__init__("npy", array.shape[1], name, self._tuples(array))
        self.array = array

    @staticmethod
    def _tuples(array):
        step = max(1, BLOCK_BYTES // max(1, array.shape[1] * array.dtype.itemsize))
        for block in _blocks(array, step):
            yield from map(tuple, block.tolist())

    def blocks(self, size=1 << 16):
        yield from _blocks(self.array, size)


def _blocks(array, step):
    """The rows of a checked 2-D integer array, ``step`` at a time."""
    import numpy as np

    for i in range(0, array.shape[0], step):
        yield np.asarray(array[i : i + step])


def load_npy(f, name, size, path):
    """The array of ``.npy`` data in binary file ``f`` of ``size`` bytes.

    Memory-mapped from ``path`` if given, else read from ``f``.  The header
    is checked here first, because numpy's own errors for a bad file talk of
    pickles, mmap or zip archives, and do not name it.

    Raises
    ------
    ValueError
        "NAME is not a valid .npy file of solutions: WHY" unless ``f`` holds
        an integer array of shape ``(count, n)`` and all of its data.
    """
    import numpy as np
    from numpy.lib import format as npformat

    def bad(why):
        return ValueError(f"{name} is not a valid .npy file of solutions: {why}")

    if f.read(len(NPY_MAGIC)) != NPY_MAGIC:
        raise bad("it does not start with the .npy magic bytes")
    f.seek(0)
    try:
        version = npformat.read_magic(f)
        if version not in ((1, 0), (2, 0), (3, 0)):
            raise ValueError(f"unknown .npy version {version[0]}.{version[1]}")
        # 3.0 differs from 2.0 only in a UTF-8 header, ASCII for integer arrays
        read_header = (
            npformat.read_array_header_1_0 if version == (1, 0) else npformat.read_array_header_2_0
        )
        shape, fortran, dtype = read_header(f)
    except (ValueError, TypeError, SyntaxError) as e:
        raise bad(e) from None
    if len(shape) != 2:
        raise bad(f"expected an array of shape (count, n), got shape {shape}")
    if shape[0] and dtype.kind not in "iu":
        raise bad(f"expected an integer dtype, got {dtype}")
    need = shape[0] * shape[1] * dtype.itemsize
    have = size - f.tell()
    if have < need:
        raise bad(f"truncated: the header announces {need} bytes of data, it holds {have}")
    order = "F" if fortran else "C"
    if need == 0:  # nothing to map (mmap refuses length 0)
        return np.zeros(shape, dtype=np.uint8)
    if path is not None:
        return np.memmap(path, dtype, "r", f.tell(), shape, order)
    return np.frombuffer(f.read(need), dtype).reshape(shape, order=order)
