"""Results and progress bars on one terminal (parqueens.terminal).

The commands run in one fresh interpreter whose stdin, stdout and stderr
are a real pseudo-terminal, as in a shell; what the terminal then shows is
rebuilt from the bytes it received (carriage returns, line feeds, tqdm's
cursor-up, colours dropped), and every result line must stand there whole,
on a line of its own, in order.  With pipes (the other tests) nothing of
this shows: the bars' redraws only collide with results on a terminal."""

import fcntl
import os
import pty
import re
import select
import struct
import subprocess
import sys
import termios
import time

from parqueens.pictures import terminal_board
from parqueens.terminal import (
    TIME_LEFT_AFTER,
    TIME_LEFT_AFTER_S,
    above_bars,
    progress_bar,
    same_terminal,
)

from cli_helpers import cli_env
from naive import A000170

_ESCAPE = re.compile(r"\x1b\[([0-9;]*)([A-Za-z])")


def _run_on_terminal(argvs, columns=80, timeout=120):
    """Run ``cli.main(argv)`` for each of ``argvs`` in one fresh interpreter
    on a pseudo-terminal ``columns`` wide (colours on); returns its exit
    code and everything it wrote, decoded."""
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, columns, 0, 0))
    code = (
        "import sys\n"
        "from parqueens.cli import main\n"
        f"for argv in {argvs!r}:\n"
        "    if main(argv):\n"
        "        sys.exit(f'{argv} failed')\n"
    )
    env = cli_env() | {"TERM": "xterm-256color", "PYTHONIOENCODING": "utf-8"}
    env.pop("NO_COLOR", None)
    proc = subprocess.Popen(
        [sys.executable, "-c", code],
        stdin=slave,
        stdout=slave,
        stderr=slave,
        env=env,
        start_new_session=True,
    )
    os.close(slave)
    shown = bytearray()
    deadline = time.monotonic() + timeout
    try:
        while time.monotonic() < deadline:
            if not select.select([master], [], [], 1.0)[0]:
                continue
            try:
                data = os.read(master, 1 << 16)
            except OSError:  # EIO: the process closed the terminal (it ended)
                break
            if not data:
                break
            shown += data
    finally:
        os.close(master)
        if proc.poll() is None and time.monotonic() >= deadline:
            proc.kill()
    return proc.wait(timeout=30), shown.decode("utf-8")


def _screen(text):
    """The lines a terminal shows after receiving ``text``, colours dropped
    and trailing blanks stripped: ``\\r`` goes back to the line's start,
    ``\\n`` down a line, ``ESC[nA`` up n lines; other escapes fail."""
    lines, row, col, i = [[]], 0, 0, 0
    while i < len(text):
        ch = text[i]
        if ch == "\x1b":
            m = _ESCAPE.match(text, i)
            assert m and m.group(2) in "Am", f"unexpected escape {text[i : i + 8]!r}"
            if m.group(2) == "A":
                row = max(0, row - int(m.group(1) or 1))
            i = m.end()
            continue
        if ch == "\r":
            col = 0
        elif ch == "\n":
            row += 1
            lines += [[] for _ in range(row + 1 - len(lines))]
        else:
            line = lines[row]
            line += [" "] * (col + 1 - len(line))
            line[col] = ch
            col += 1
        i += 1
    return ["".join(line).rstrip() for line in lines]


def _in_order(screen, expected):
    """Assert that each of ``expected`` (a str: the whole line; a pattern:
    a full match) is a line of ``screen``, in this order."""
    rest = iter(enumerate(screen))
    for want in expected:
        for _, line in rest:
            if want.fullmatch(line) if isinstance(want, re.Pattern) else line == want:
                break
        else:
            raise AssertionError(
                f"{want!r} is not a whole line (in order) of:\n" + "\n".join(screen)
            )


def test_results_stand_whole_beside_progress_bars(cli, tmp_path):
    sols = tmp_path / "s8.perm"
    assert cli("solutions", 8, "--out", sols).returncode == 0
    verify = [str(sols), "--complete"]
    code, shown = _run_on_terminal(
        [
            ["solutions", "6", "--progress"],
            ["solutions", "5", "--format", "board", "--progress"],
            ["table", "4-6"],  # its bar alone: the sizes are counted without units
            ["table", "11-12"],  # and the bar of each size below it
            ["count", "12", "--progress"],
            ["verify", *verify, "--progress"],
        ]
    )
    screen = _screen(shown)
    assert code == 0, "\n".join(screen)
    # The text lines as they reach a pipe, the pictures as drawn (colours dropped).
    listed = cli("solutions", 6).stdout.splitlines()
    boards = [
        _ESCAPE.sub("", row).rstrip()
        for line in cli("solutions", 5).stdout.splitlines()
        for row in terminal_board([int(c) for c in line.split()]).splitlines()
    ]
    head = ["| n | total | method | units | seconds |", "|---|---|---|---|---|"]
    rows = [re.compile(rf"\| {n} \| {A000170[n]} \| \w+ \| \d+ \| [\d.]+ \|") for n in (4, 5, 6)]
    rows2 = [re.compile(rf"\| {n} \| {A000170[n]} \| join \| \d+ \| [\d.]+ \|") for n in (11, 12)]
    report = cli("verify", *verify).stdout.strip()
    _in_order(screen, [*listed, *boards, *head, *rows, *head, *rows2, "14200", report])
    # The bar of each size below the table's is cleared when done (count's stays).
    table = screen[: screen.index("14200")]
    assert not [line for line in table if line.startswith("n=11 ")], "\n".join(screen)


def test_above_bars_is_nothing_off_a_terminal(capfd):
    # Pipes (the test's capture): the result as it is, no bar cleared or drawn.
    from tqdm import tqdm

    assert not same_terminal(sys.stdout, sys.stderr)
    with tqdm(total=3, file=sys.stderr):
        capfd.readouterr()
        with above_bars():
            print("1 3 0 2")
        assert capfd.readouterr() == ("1 3 0 2\n", "")


class _Tty:
    """A terminal stream (its size from os.get_terminal_size, patched)."""

    def isatty(self):
        return True

    def fileno(self):
        return 2


def test_a_terminal_of_unknown_size(monkeypatch):
    # 0 x 0 (script, docker exec -t): no bars by default, and bars of a
    # known size when asked for, instead of blank lines
    import argparse

    from parqueens import terminal
    from parqueens.cli.output import show_progress

    size = [os.terminal_size((0, 0))]
    monkeypatch.setattr(os, "get_terminal_size", lambda fd: size[0])
    monkeypatch.setattr(sys, "stderr", _Tty())
    quiet, asked = argparse.Namespace(quiet=False), argparse.Namespace(progress=True)
    assert terminal.size_unknown(sys.stderr)
    assert terminal.bar_width(sys.stderr) == {"ncols": 80, "nrows": 24, "dynamic_ncols": False}
    assert not show_progress(quiet) and show_progress(asked)
    size[0] = os.terminal_size((120, 40))
    assert not terminal.size_unknown(sys.stderr)
    assert terminal.bar_width(sys.stderr) == {"dynamic_ncols": True}
    assert show_progress(quiet)


def test_a_bar_shows_no_time_left_until_it_has_moved():
    # A table ending in a second showed 06:28 left at its start: an estimate
    # from a bar at ~0 %.  "?" until it has moved TIME_LEFT_AFTER of its
    # total (from where it started: a resumed run's bar starts ahead), and
    # run TIME_LEFT_AFTER_S seconds.
    import io

    def shown(moves, seconds=10, **kwargs):
        out = io.StringIO()
        bar = progress_bar(
            file=out, ncols=80, dynamic_ncols=False, mininterval=0, smoothing=0, **kwargs
        )
        start = bar.start_t
        bar._time = lambda: start + seconds  # a rate, hence an estimate, to show
        left = []
        for share in moves:
            bar.update(share * bar.total)
            bar.refresh()
            left.append(re.search(r"<([^,\]]*)", out.getvalue().rsplit("\r", 1)[-1])[1])
        bar.close()
        return left

    early, late = TIME_LEFT_AFTER / 2, TIME_LEFT_AFTER
    assert shown([early, late], total=1000) == ["?", "10:56"]  # 985 left at 1.5 a second
    table = "{desc}: {percentage:3.0f}% of the work|{bar}| [{elapsed}<{remaining}{postfix}]"
    assert shown([early, late], total=1.0, bar_format=table) == ["?", "10:56"]
    assert shown([early, late], total=1.0, initial=0.5, bar_format=table) == ["?", "05:23"]
    assert shown([0.5], seconds=TIME_LEFT_AFTER_S / 2, total=1000) == ["?"]
