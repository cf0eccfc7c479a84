"""The solution formats, where README shows them: a compatibility module.

The code lives in :mod:`parqueens.io`; the names below stay importable from
here (``from parqueens.formats import SolutionWriter``).
"""

from .io.reading import (  # noqa: F401
    EXTENSIONS,
    FORMATS,
    NPY_HEADER_SIZE,
    NPY_MAGIC,
    READABLE_FORMATS,
    SHARED_EXTENSIONS,
    TEXT_FORMATS,
    NotEnoughSpace,
    SolutionReader,
    SolutionWriter,
    check_output_path,
    estimate_size,
    fits,
    format_bytes,
    npy_dtype,
    read_solutions,
    render,
    write_text_atomically,
)
