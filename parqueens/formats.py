"""The solution formats, where the documentation (docs/library.md) shows them.

The code lives in :mod:`parqueens.io` (one module per format, the registry,
the writer, the readers, atomic files); these names stay importable from
here: ``from parqueens.formats import SolutionWriter, read_solutions``.
"""

from .io.atomic import check_output_path, write_text_atomically
from .io.npy import NPY_HEADER_SIZE, NPY_MAGIC, npy_dtype
from .io.reading import SolutionReader
from .io.registry import estimate_size, fits, read_solutions, render
from .io.space import NotEnoughSpace, format_bytes
from .io.writer import SolutionWriter
from .names import EXTENSIONS, FORMATS, READABLE_FORMATS, SHARED_EXTENSIONS, TEXT_FORMATS

__all__ = [
    "EXTENSIONS",
    "FORMATS",
    "NPY_HEADER_SIZE",
    "NPY_MAGIC",
    "READABLE_FORMATS",
    "SHARED_EXTENSIONS",
    "TEXT_FORMATS",
    "NotEnoughSpace",
    "SolutionReader",
    "SolutionWriter",
    "check_output_path",
    "estimate_size",
    "fits",
    "format_bytes",
    "npy_dtype",
    "read_solutions",
    "render",
    "write_text_atomically",
]
