"""The count table as csv, json and md: the text itself, and atomic files."""

import json
import types

import pytest

from parqueens.io.table import TABLE_FORMATS, table_text, write_table
from parqueens.names import TABLE_EXTENSIONS

ROWS = [
    types.SimpleNamespace(n=1, total=1, fundamental=1, method="plain", units=1, seconds=0.00012),
    types.SimpleNamespace(n=8, total=92, fundamental=12, method="d4", units=7, seconds=1.23456),
]


def test_every_table_extension_has_a_format():
    assert set(TABLE_FORMATS) == set(TABLE_EXTENSIONS.values())


def test_markdown():
    assert table_text("md", ROWS, False) == (
        "| n | total | method | units | seconds |\n"
        "|---|---|---|---|---|\n"
        "| 1 | 1 | plain | 1 | 0.0 |\n"
        "| 8 | 92 | d4 | 7 | 1.235 |\n"
    )
    md = TABLE_FORMATS["md"]  # streamed a line at a time, the same text
    lines = [md.header(True)] + [md.row(r, True) for r in ROWS]
    assert "".join(x + "\n" for x in lines) == table_text("md", ROWS, True)
    assert md.header(True).startswith("| n | total | fundamental | method |")


def test_csv_and_json():
    assert table_text("csv", ROWS, True) == (
        "n,total,fundamental,method,units,seconds\n1,1,1,plain,1,0.0\n8,92,12,d4,7,1.235\n"
    )
    text = table_text("json", ROWS[1:], False)  # a list of objects, indented by one space
    assert text == (
        '[\n {\n  "n": 8,\n  "total": 92,\n  "method": "d4",\n  "units": 7,\n'
        '  "seconds": 1.235\n }\n]\n'
    )
    assert json.loads(table_text("json", ROWS, True))[0]["fundamental"] == 1
    assert table_text("json", [], False) == "[]\n" and table_text("csv", [], False).count("\n") == 1


def test_written_atomically(tmp_path):
    path = tmp_path / "t.csv"
    write_table(path, "csv", ROWS, False)
    assert path.read_text() == table_text("csv", ROWS, False)
    with pytest.raises(FileExistsError):
        write_table(path, "md", ROWS, False)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["t.csv"]
