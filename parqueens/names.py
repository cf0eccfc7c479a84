"""The names and limits that the command line and the library share.

Plain Python with no imports, so that ``parqueens --help``, ``--version`` and
every usage error answer without loading numba, numpy or joblib.  Each fact
lives here once; the modules that act on it import it from here.
"""

VERSION = "0.2.0"

#: Largest board size: the kernels hold a row in a ``uint64`` mask.
MAX_N = 64

#: The symmetry reductions of the search (see :mod:`parqueens.units`); the
#: first is the default.
METHODS = ("d4", "mirror", "plain")

#: Where the work units run: threads of this process (the default), loky
#: worker processes, a Dask cluster (see :mod:`parqueens.backends`).
BACKENDS = ("threads", "loky", "dask")

#: Other spellings accepted for :data:`BACKENDS` by the library: joblib's
#: name, and None for the default, threads as on the command line (None
#: meant loky, worker processes 2.7 times slower, up to parqueens 0.2).
BACKEND_ALIASES = {"threading": "threads", None: "threads"}

#: The weight of a work unit's solutions, by method: each ``mirror``
#: solution stands for itself and its mirror image; ``d4`` weighs each class
#: found by its orbit size instead (see :class:`parqueens.runner.Tally`).
WEIGHTS = {"plain": 1, "mirror": 2, "d4": 1}

#: Boards below this size have no work units (:mod:`parqueens.small` solves them).
UNITS_FROM = 3

#: Orbit sizes of the symmetry classes, indexed like the per-unit class
#: counts ``by_stab``: ``by_stab[k]`` counts classes whose stabiliser has
#: ``2**k`` elements, so their orbit has ``8 >> k`` solutions.
ORBIT_SIZES = (8, 4, 2, 1)

#: The solution formats: name -> (file extensions, how it is stored).
#: ``text``: lines of ASCII; ``numbered``: columns written as numbers, so
#: ``one_based`` applies.  The first extension is the canonical one.
FORMAT_TRAITS = {
    "perm": {"extensions": (".perm",), "text": True, "numbered": True},
    "board": {"extensions": (".board",), "text": True, "numbered": False},
    "matrix": {"extensions": (".matrix",), "text": True, "numbered": False},
    "jsonl": {"extensions": (".jsonl", ".json"), "text": True, "numbered": True},
    "npy": {"extensions": (".npy",), "text": False, "numbered": False},
}

#: Names of the solution formats.
FORMATS = tuple(FORMAT_TRAITS)

#: The formats written as text (all but ``npy``).
TEXT_FORMATS = tuple(f for f, t in FORMAT_TRAITS.items() if t["text"])

#: The formats whose columns are numbers, where ``one_based`` applies.
NUMBERED_FORMATS = tuple(f for f, t in FORMAT_TRAITS.items() if t["numbered"])

#: File name extension -> solution format.  ``.txt`` is not listed: its
#: format is sniffed from the content.
EXTENSIONS = {ext: f for f, t in FORMAT_TRAITS.items() for ext in t["extensions"]}

#: File name extension -> format of a count table (``parqueens table --out``).
TABLE_EXTENSIONS = {".csv": "csv", ".json": "json", ".md": "md"}
