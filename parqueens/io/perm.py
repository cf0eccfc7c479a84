"""perm: one solution a line, its columns in decimal separated by single
spaces, 0-based (1-based with ``one_based``): ``1 3 0 2``.  The empty
solution (n = 0) is an empty line.  The format a text input is taken to be
when no other one's first line matches (:func:`parqueens.io.registry.sniff`)."""

from .base import LineFormat

__all__ = ["PermFormat", "FORMAT"]


class PermFormat(LineFormat):
    name = "perm"

    def parse(self, line, where):
        """The integers of ``line`` separated by whitespace (a negative one
        is off the board, as in jsonl); ``ValueError`` naming ``where``."""
        out = []
        for tok in line.split():
            digits = tok[1:] if tok.startswith("-") else tok
            if not digits.isascii() or not digits.isdigit():
                raise ValueError(f"{where}: {tok!r} is not an integer")
            out.append(int(tok))
        return out

    @staticmethod
    def parse_lines(lines, n, offset):
        """The leading lines as parqueens writes them, parsed in bulk
        (:func:`parqueens.io.perm_parse.perm_lines`, which loads numba)."""
        from .perm_parse import perm_lines

        return perm_lines(lines, n, offset)


FORMAT = PermFormat()
