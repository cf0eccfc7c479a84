"""jsonl: one JSON array of columns a line, ``[1,3,0,2]``, 0-based (1-based
with ``one_based``).  The empty solution (n = 0) is ``[]``, so a blank line
is never a solution."""

import json

from .base import LineFormat
from .leetcode import FORMAT as LEETCODE

__all__ = ["JsonlFormat", "FORMAT"]


class JsonlFormat(LineFormat):
    name = "jsonl"
    prefix, sep, end = "[", ",", "]\n"
    empty_line = False

    def sniff(self, line, one_based):
        # leetcode's array of boards starts with '[' too
        return line.startswith("[") and not LEETCODE.sniff(line, one_based)

    def parse(self, line, where):
        """The integers of the JSON array on ``line``; ``ValueError`` naming ``where``."""
        try:
            cols = json.loads(line)
        except ValueError as e:
            raise ValueError(f"{where}: not valid JSON ({e})") from None
        if not isinstance(cols, list) or any(
            isinstance(c, bool) or not isinstance(c, int) for c in cols
        ):
            raise ValueError(f"{where}: expected a JSON array of integers")
        return cols


FORMAT = JsonlFormat()
