"""The names and limits that the command line and the library share.

Plain Python with no imports, so that ``parqueens --help``, ``--version`` and
every usage error answer without loading numba, numpy or joblib.  Each fact
lives here once; the modules that act on it import it from here.  A
threshold that one layer alone decides lives in that layer, once: the join's
(:data:`parqueens.join.rowsets.ROWSET_MIN_N`, read through
:mod:`parqueens.join.method`), the small boards'
(:data:`parqueens.search.small.DIRECT_N`), the backends'
(:data:`parqueens.run.backends.SMALL_N`).
"""

__all__ = [
    "VERSION",
    "MAX_N",
    "METHODS",
    "SEARCH_METHODS",
    "JOIN_MIN_N",
    "JOIN_MAX_N",
    "BACKENDS",
    "SECONDS_DECIMALS",
    "ESTIMATE_DIGITS",
    "COLORS",
    "BACKEND_ALIASES",
    "WEIGHTS",
    "UNITS_FROM",
    "RECHECK_SHARE",
    "ORBIT_SIZES",
    "FORMAT_TRAITS",
    "FORMATS",
    "TEXT_FORMATS",
    "READABLE_FORMATS",
    "ZERO_BASED_FORMATS",
    "EXTENSIONS",
    "SHARED_EXTENSIONS",
    "TABLE_EXTENSIONS",
]


VERSION = "0.3.0"

#: Largest board size: the kernels hold a row in a ``uint64`` mask.
MAX_N = 64

#: How a total is counted: ``join`` matches half-boards (:mod:`parqueens.join`),
#: the others search whole boards with a symmetry reduction
#: (:mod:`parqueens.search.units`).  The default is decided per board size by
#: :func:`parqueens.methods.resolve_method`.
METHODS = ("join", "d4", "mirror", "plain")

#: The methods that search (place queens row by row): they serve every
#: board size, fixed queens, listing, node counts and split depths.
SEARCH_METHODS = ("d4", "mirror", "plain")

#: The board sizes the join serves (:func:`parqueens.methods.join_serves`):
#: below 4 there is no quadrant; from 22 on it builds its tables per row set
#: (:mod:`parqueens.join.rowsets`), up to 28, where a half-board's diagonal
#: word has 52 bits (the matcher's 8 chunks of 7 hold 56) and the ``ab``
#: parts of a quadrant placement 27 bits of 32.
JOIN_MIN_N, JOIN_MAX_N = 4, 28

#: Where the work units run: threads of this process (the default), loky
#: worker processes, a Dask cluster (see :mod:`parqueens.run.backends`).
BACKENDS = ("threads", "loky", "dask")

#: A time measured is given to the millisecond (JSON, tables: a
#: perf_counter's nanoseconds say nothing more of a run's time); an estimate
#: to 3 significant digits (see :func:`parqueens.run.estimate.rounded`).
SECONDS_DECIMALS, ESTIMATE_DIGITS = 3, 3

#: When the board format is drawn in colours on standard output: on a terminal
#: that shows them (``NO_COLOR`` unset, ...), always, or never.
COLORS = ("auto", "always", "never")

#: Other spellings accepted for :data:`BACKENDS` by the library: joblib's
#: name, and None for the default, threads as on the command line (None
#: meant loky, worker processes 2.7 times slower, up to parqueens 0.2).
BACKEND_ALIASES = {"threading": "threads", None: "threads"}

#: The weight of a work unit's solutions, by method: each ``mirror``
#: solution stands for itself and its mirror image; ``d4`` weighs each class
#: found by its orbit size instead (see :class:`parqueens.run.tally.Tally`); a
#: ``join`` unit's count is its share of the total, weights folded in.
WEIGHTS = {"plain": 1, "mirror": 2, "d4": 1, "join": 1}

#: Boards below this size have no work units (:mod:`parqueens.search.small` solves them).
UNITS_FROM = 3

#: The time budget of a resume's default recheck of stored units: this share
#: of the work time stored with the size's units (see
#: :func:`parqueens.run.runner.default_sample`; ``status`` counts it in the
#: time left).
RECHECK_SHARE = 0.02

#: Orbit sizes of the symmetry classes, indexed like the per-unit class
#: counts ``by_stab``: ``by_stab[k]`` counts classes whose stabiliser has
#: ``2**k`` elements, so their orbit has ``8 >> k`` solutions.
ORBIT_SIZES = (8, 4, 2, 1)

#: The solution formats: name -> (file extensions, how it is stored).
#: ``text``: lines of ASCII (may go to standard output); ``readable``:
#: read back by :func:`parqueens.formats.read_solutions` (and verify);
#: ``zero_based``: its columns are numbers that always count from 0 (npy
#: arrays, as numpy indexes them), so ``one_based`` is refused.  The first
#: extension is the canonical one; ``leetcode`` has none of its own (.json
#: is jsonl's: it is chosen with --format).
FORMAT_TRAITS: dict[str, dict] = {
    "perm": {"extensions": (".perm",), "text": True, "readable": True, "zero_based": False},
    "board": {"extensions": (".board",), "text": True, "readable": True, "zero_based": False},
    "matrix": {"extensions": (".matrix",), "text": True, "readable": True, "zero_based": False},
    "jsonl": {
        "extensions": (".jsonl", ".json"),
        "text": True,
        "readable": True,
        "zero_based": False,
    },
    "leetcode": {"extensions": (), "text": True, "readable": True, "zero_based": False},
    "npy": {"extensions": (".npy",), "text": False, "readable": True, "zero_based": True},
    "svg": {"extensions": (".svg",), "text": True, "readable": False, "zero_based": False},
}

#: Names of the solution formats.
FORMATS = tuple(FORMAT_TRAITS)

#: The formats written as text (all but ``npy``).
TEXT_FORMATS = tuple(f for f, t in FORMAT_TRAITS.items() if t["text"])

#: The formats that can be read back (all but the ``svg`` picture).
READABLE_FORMATS = tuple(f for f, t in FORMAT_TRAITS.items() if t["readable"])

#: The formats whose numbers always count from 0 (``one_based`` refused).
ZERO_BASED_FORMATS = tuple(f for f, t in FORMAT_TRAITS.items() if t["zero_based"])

#: File name extension -> solution format.  ``.txt`` is not listed: its
#: format is sniffed from the content.
EXTENSIONS = {ext: f for f, t in FORMAT_TRAITS.items() for ext in t["extensions"]}

#: Extensions that another format may carry too: written with
#: ``--format`` (``--format leetcode --out x.json``), read by content.
SHARED_EXTENSIONS = {".json": ("jsonl", "leetcode")}

#: File name extension -> format of a count table (``parqueens table --out``).
TABLE_EXTENSIONS = {".csv": "csv", ".json": "json", ".md": "md"}
