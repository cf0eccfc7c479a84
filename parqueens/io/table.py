"""The count table (``parqueens table``) as text: csv, json and md.

A table is a list of :class:`parqueens.run.runner.CountResult`, one per board
size; its columns are ``n``, ``total``, ``fundamental`` (with ``unique``),
``method``, ``units`` and ``seconds`` (rounded to milliseconds).  Markdown
has a header and a line a row, so that standard output gets each row as
it is counted; a file is written atomically.  The
format of a file is named by its extension
(:data:`parqueens.names.TABLE_EXTENSIONS`).
"""

import csv
import io
import json

from ..names import SECONDS_DECIMALS
from .atomic import write_text_atomically

__all__ = [
    "TableFormat",
    "MarkdownTable",
    "CsvTable",
    "JsonTable",
    "TABLE_FORMATS",
    "table_text",
    "write_table",
]


def _columns(unique):
    return ["n", "total"] + (["fundamental"] if unique else []) + ["method", "units", "seconds"]


def _fields(result, unique):
    r = result
    return (
        [r.n, r.total]
        + ([r.fundamental] if unique else [])
        + [r.method, r.units, round(r.seconds, SECONDS_DECIMALS)]
    )


class TableFormat:
    """A format of the count table: a header line, a line a row."""

    name: str | None = None

    def header(self, unique):
        """The header (str, its lines without the last newline)."""
        raise NotImplementedError

    def row(self, result, unique):
        """The line of one :class:`parqueens.run.runner.CountResult` (str, without newline)."""
        raise NotImplementedError

    def text(self, results, unique):
        """The whole table (str, ending with a newline)."""
        lines = [self.header(unique)] + [self.row(r, unique) for r in results]
        return "".join(line + "\n" for line in lines)


class MarkdownTable(TableFormat):
    name = "md"

    def header(self, unique):
        cols = _columns(unique)
        return "| " + " | ".join(cols) + " |\n|" + "---|" * len(cols)

    def row(self, result, unique):
        return "| " + " | ".join(str(x) for x in _fields(result, unique)) + " |"


class CsvTable(TableFormat):
    name = "csv"

    @staticmethod
    def _line(values):
        buf = io.StringIO()
        csv.writer(buf, lineterminator="").writerow(values)
        return buf.getvalue()

    def header(self, unique):
        return self._line(_columns(unique))

    def row(self, result, unique):
        return self._line(_fields(result, unique))


class JsonTable(TableFormat):
    """A JSON array of one object a row, indented by one space."""

    name = "json"

    def text(self, results, unique):
        cols = _columns(unique)
        rows = [dict(zip(cols, _fields(r, unique), strict=True)) for r in results]
        return json.dumps(rows, indent=1) + "\n"


#: Table format name -> format object.
TABLE_FORMATS = {f.name: f for f in (CsvTable(), JsonTable(), MarkdownTable())}


def table_text(fmt, results, unique):
    """The table of ``results`` (list of CountResult) as text in table
    format ``fmt`` (``csv``, ``json`` or ``md``); ``unique``: with the
    fundamental counts.  Returns str."""
    return TABLE_FORMATS[fmt].text(results, unique)


def write_table(path, fmt, results, unique, force=False):
    """Write :func:`table_text` to ``path`` atomically
    (:func:`parqueens.io.atomic.write_text_atomically`, which says what it raises)."""
    write_text_atomically(path, table_text(fmt, results, unique), force)
