"""The terminal picture: drawn only where it shows."""

import io

import pytest

from parqueens.io import SolutionWriter
from parqueens.io import terminal_board as terminal
from parqueens.run.listing import iter_blocks


class _Tty(io.StringIO):
    encoding = "utf-8"

    def isatty(self):
        return True


@pytest.mark.parametrize(
    "env, drawn",
    [({"TERM": "xterm-256color"}, True), ({"TERM": "dumb"}, False), ({"NO_COLOR": "1"}, False)],
)
def test_terminal_picture_only_where_it_shows(monkeypatch, env, drawn):
    monkeypatch.setenv("TERM", "xterm")
    monkeypatch.delenv("NO_COLOR", raising=False)
    for k, v in env.items():
        monkeypatch.setenv(k, v)
    out = _Tty()
    monkeypatch.setattr("sys.stdout", out)
    with SolutionWriter(None, "board", 4) as w:
        w.write_many(next(iter_blocks(4)))
    text = out.getvalue()
    if drawn:
        assert w.picture and text.count("\u265b") == 8 and text.count("\n") == 9
        assert text.startswith(terminal._LIGHT_BG + "  " + terminal._DARK_BG)
    else:
        assert not w.picture and text == ".Q..\n...Q\nQ...\n..Q.\n\n..Q.\nQ...\n...Q\n.Q..\n"
    assert not terminal.terminal_can_show(io.StringIO())


def test_color_choice_beside_no_color(monkeypatch):
    from parqueens.io.terminal_board import terminal_can_show

    class Tty:
        encoding = "utf-8"

        def isatty(self):
            return True

    class Pipe(Tty):
        def isatty(self):
            return False

    monkeypatch.setenv("TERM", "xterm")
    monkeypatch.delenv("NO_COLOR", raising=False)
    assert terminal_can_show(Tty()) and not terminal_can_show(Pipe())
    assert terminal_can_show(Pipe(), "always") and not terminal_can_show(Tty(), "never")
    monkeypatch.setenv("NO_COLOR", "1")
    assert not terminal_can_show(Tty(), "auto") and terminal_can_show(Tty(), "always")
    with pytest.raises(ValueError, match="unknown color choice 'sometimes'"):
        terminal_can_show(Tty(), "sometimes")
