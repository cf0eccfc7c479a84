"""The documentation against the code: docs/cli.md lists exactly the options
of each command's parser (so that the reference cannot drift from --help),
the links between the pages resolve, and README stays a front page."""

import argparse
import pathlib
import re

import pytest

import parqueens
from parqueens.cli.parser import build_parser

ROOT = pathlib.Path(__file__).resolve().parents[1]
CLI_DOC = ROOT / "docs" / "cli.md"
PAGES = [ROOT / "README.md", ROOT / "CONTRIBUTING.md", *sorted((ROOT / "docs").glob("*.md"))]


def _commands():
    """``{name: parser}``: the top-level parser as ``parqueens``, and each
    command's sub-parser."""
    parser = build_parser()
    commands = {"parqueens": parser}
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            commands |= action.choices
    return commands


def _parser_entries(parser):
    """``{option or metavar: choices}`` of a parser: every option string
    (``-j``, ``--jobs``) and each positional argument by its metavar."""
    entries = {}
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            continue
        choices = tuple(action.choices) if action.choices else ()
        if action.option_strings:
            entries |= dict.fromkeys(action.option_strings, choices)
        else:
            entries[action.metavar or action.dest.upper()] = choices
    return entries


def _sections(text):
    """``{heading: body}`` of the page's ``## `` sections."""
    parts = re.split(r"^## +(.+?) *$", text, flags=re.M)
    return dict(zip(parts[1::2], parts[2::2], strict=True))


def _doc_entries(section):
    """``{option or metavar: choices}`` listed by a section's option table:
    the code spans of each row's first cell, as `--method join\\|d4` or
    `-j J`, `--jobs J` or `N`."""
    entries = {}
    for line in section.splitlines():
        if not line.startswith("| `"):
            continue
        first = re.split(r"(?<!\\)\|", line)[1]
        for span in re.findall(r"`([^`]+)`", first):
            name, _, rest = span.partition(" ")
            choices = tuple(rest.split("\\|")) if "\\|" in rest else ()
            entries[name] = choices
    return entries


@pytest.fixture(scope="module")
def cli_sections():
    return _sections(CLI_DOC.read_text())


@pytest.mark.parametrize("command", sorted(_commands()))
def test_cli_reference_lists_exactly_the_options(command, cli_sections):
    parser = _commands()[command]
    assert command in cli_sections, f"docs/cli.md has no section '## {command}'"
    documented = _doc_entries(cli_sections[command])
    options = _parser_entries(parser)
    if command != "parqueens":  # every command takes -h/--help: said once, at the top
        del options["-h"], options["--help"]
    assert sorted(set(options) - set(documented)) == [], f"{command}: not in docs/cli.md"
    assert sorted(set(documented) - set(options)) == [], f"{command}: no such option"
    for name, choices in documented.items():
        # choices written out in the first cell are the parser's, all of them
        assert not choices or choices == options[name], f"{command} {name}: {choices}"


def test_cli_reference_names_every_choice(cli_sections):
    # an option with choices names each of them in its row
    for command, parser in _commands().items():
        rows = [r for r in cli_sections[command].splitlines() if r.startswith("| `")]
        for action in parser._actions:
            if not action.choices or not action.option_strings:
                continue
            name = action.option_strings[-1]
            [row] = [r for r in rows if f"`{name}" in re.split(r"(?<!\\)\|", r)[1]]
            missing = [c for c in action.choices if not re.search(rf"\b{re.escape(c)}\b", row)]
            assert missing == [], f"{command} {name}: {missing}"


def _slug(heading):
    """The anchor GitHub gives a heading."""
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


def _anchors(page):
    return {_slug(h) for h in re.findall(r"^#+ +(.+?) *$", page.read_text(), flags=re.M)}


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_links_resolve(page):
    # every relative link names a file that exists, and a heading of it
    text = re.sub(r"```.*?```", "", page.read_text(), flags=re.S)
    for target in re.findall(r"\]\(([^)\s]+)\)", text):
        if re.match(r"[a-z]+:", target):
            continue
        path, _, anchor = target.partition("#")
        linked = (page.parent / path).resolve() if path else page
        assert linked.is_file(), f"{page.name}: {target}"
        if anchor:
            assert anchor in _anchors(linked), f"{page.name}: {target}"


def test_readme_is_a_front_page():
    readme = (ROOT / "README.md").read_text()
    assert len(readme.splitlines()) <= 250
    pages = set(re.findall(r"\]\((docs/[\w-]+\.md)", readme))
    assert pages == {p.relative_to(ROOT).as_posix() for p in (ROOT / "docs").glob("*.md")}
    # .ci/run takes the test command from the sh block after this sentence
    after = readme.split("exactly what CI runs", 1)[1]
    block = re.search(r"^```sh\n(.*)\n", after, flags=re.M)
    assert block.group(1) == "pip install '.[test]' && python -m pytest"
    assert "```sh\npip install . && parqueens count 16\n```" in readme


def _dotted(name):
    """The object a dotted name ``parqueens.a.b`` stands for: its longest
    importable module, then attributes; raises if there is none."""
    import importlib

    parts = name.split(".")
    for k in range(len(parts), 0, -1):
        try:
            obj = importlib.import_module(".".join(parts[:k]))
        except ModuleNotFoundError:
            continue
        for attr in parts[k:]:
            obj = getattr(obj, attr)
        return obj
    raise ModuleNotFoundError(name)


def test_the_names_the_pages_show_exist():
    shown = {
        m
        for page in PAGES
        for m in re.findall(r"\bparqueens(?:\.[A-Za-z_][A-Za-z0-9_]*)+", page.read_text())
    }
    missing = []
    for name in sorted(shown):
        try:
            _dotted(name.rstrip("."))
        except (ImportError, AttributeError):
            missing.append(name)
    assert missing == []
    assert len(shown) >= 30  # the pattern finds them


def test_no_module_stands_for_another():
    # the documented paths are the modules themselves: no alias rebinds sys.modules
    for path in pathlib.Path(parqueens.__file__).parent.rglob("*.py"):
        assert "sys.modules[__name__]" not in path.read_text(), path


# -------- each command's --help against docs/cli.md


def _help(parser):
    return " ".join(parser.format_help().split())


def _commands_of(text):
    """The commands of the ```sh blocks of a text, without their comments,
    spaces normalised."""
    commands = set()
    for block in re.findall(r"^```sh\n(.*?)^```", text, flags=re.M | re.S):
        for line in block.splitlines():
            for part in line.split("#", 1)[0].split("&&"):
                if part.strip():
                    commands.add(" ".join(part.split()))
    return commands


@pytest.mark.parametrize("command", sorted(_commands()))
def test_help_has_examples_the_reference_shows(command, cli_sections):
    text = _commands()[command].format_help()
    assert "\nexamples:\n" in text, f"{command} --help has no examples"
    shown = _commands_of(cli_sections.get(command, "") + (ROOT / "README.md").read_text())
    examples = text.split("\nexamples:\n", 1)[1].split("\n\n")[0].splitlines()
    for line in examples:
        for part in line.split("#", 1)[0].split("&&"):
            if "COMMAND" not in part:
                assert " ".join(part.split()) in shown, f"{command} --help: {part.strip()}"


# (a claim a help text or a row of docs/cli.md may make, the words that make it)
CLAIMS = [
    ("a progress bar", re.compile(r"progress bar")),
    ("the free-space check", re.compile(r"free-space check")),
    ("the orbit breakdown", re.compile(r"orbit breakdown")),
    ("the fixed squares", re.compile(r"fixed`? squares")),
]


def _doc_rows(section):
    """``{option: meaning}`` of a section's option table."""
    rows = {}
    for line in section.splitlines():
        if line.startswith("| `"):
            cells = re.split(r"(?<!\\)\|", line)
            for span in re.findall(r"`([^`]+)`", cells[1]):
                rows[span.partition(" ")[0]] = cells[2]
    return rows


@pytest.mark.parametrize("command", sorted(set(_commands()) - {"parqueens"}))
def test_help_texts_claim_what_the_reference_claims(command, cli_sections):
    # an option's help and its row in docs/cli.md make the same claims
    parser = _commands()[command]
    rows = _doc_rows(cli_sections[command])
    for action in parser._actions:
        if not action.option_strings or action.help is None or action.dest == "help":
            continue
        row = rows[action.option_strings[-1]]
        for claim, words in CLAIMS:
            in_help, in_doc = bool(words.search(action.help)), bool(words.search(row))
            assert in_help == in_doc, f"{command} {action.option_strings[-1]}: {claim}"


def test_help_says_what_each_command_does(cli_sections):
    for command, parser in _commands().items():
        assert parser.description, f"{command} --help has no description"
    construct = _commands()["construct"]
    assert "n >= 4" not in construct.format_help() and "any n >= 0" in cli_sections["construct"]


def test_the_commands_in_one_column():
    lines = build_parser().format_help().splitlines()
    start = lines.index("  COMMAND") + 1
    rows = lines[start : start + len(_commands()) - 1]
    columns = {len(r) - len(r[4:].lstrip().split(" ", 1)[1].lstrip()) for r in rows}
    assert len(rows) == 8 and len(columns) == 1, rows


def _dask_commands():
    """The ``dask scheduler`` and ``dask worker`` commands the pages show
    (lines continued with a backslash joined, comments left out)."""
    for page in PAGES:
        text = page.read_text().replace("\\\n", " ")
        for line in text.splitlines():
            words = line.split("#", 1)[0].split()
            if words[:2] in (["dask", "scheduler"], ["dask", "worker"]):
                yield page.name, words[1], words[2:]


def test_dask_commands_exist_and_keep_a_local_cluster_local():
    # Every option exists in the installed distributed (dask scheduler --help,
    # dask worker --help); the pages show a scheduler and workers kept on
    # 127.0.0.1, each with its dashboard there too, which --host alone does not.
    cli = (
        pytest.importorskip("distributed.cli.dask_scheduler"),
        pytest.importorskip("distributed.cli.dask_worker"),
    )
    known = {
        name: {o for p in module.main.params for o in (*p.opts, *p.secondary_opts)}
        for name, module in zip(("scheduler", "worker"), cli, strict=True)
    }
    local = set()
    for page, what, words in _dask_commands():
        options = {w.split("=", 1)[0] for w in words if w.startswith("--")}
        assert options <= known[what], f"{page}: dask {what} has no {options - known[what]}"
        if "--host" in words and words[words.index("--host") + 1] == "127.0.0.1":
            at = words.index("--dashboard-address") + 1 if "--dashboard-address" in words else 0
            kept = "--no-dashboard" in words or (at and words[at].startswith("127.0.0.1:"))
            assert kept, f"{page}: dask {what} on 127.0.0.1 with its dashboard on all interfaces"
            local.add(what)
    assert local == {"scheduler", "worker"}


def test_the_exit_codes_are_one_table():
    # docs/cli.md's table and --help's epilog name exactly the codes of ExitStatus
    from parqueens.errors import ExitStatus

    section = CLI_DOC.read_text().split("## Exit codes", 1)[1].split("\n## ", 1)[0]
    shown = {int(code) for code in re.findall(r"^\| (\d+) \|", section, flags=re.M)}
    shown |= {int(code) for code in re.findall(r"; (\d+): ", section)}  # 143 beside 130
    assert shown == {int(status) for status in ExitStatus}
    epilog = _help(build_parser())
    for status in ExitStatus:
        assert f"{int(status)} {status.summary}" in epilog


def test_the_names_the_code_cites_exist():
    # docstrings and comments name real modules (no name left from a move);
    # an instance attribute is taken on its class's word
    package = pathlib.Path(parqueens.__file__).parent
    cited = {
        m
        for path in package.rglob("*.py")
        for m in re.findall(r"\bparqueens(?:\.[A-Za-z_][A-Za-z0-9_]*)+", path.read_text())
    }
    missing = []
    for name in sorted(cited):
        try:
            _dotted(name)
        except (ImportError, AttributeError):
            parent = name.rpartition(".")[0]
            try:
                if not isinstance(_dotted(parent), type):
                    missing.append(name)
            except (ImportError, AttributeError):
                missing.append(name)
    assert missing == []
    assert len(cited) >= 100  # the pattern finds them


def test_no_prose_line_is_over_100_characters():
    # docs/, README and CONTRIBUTING read as text too; tables, code blocks and
    # pictures keep their own lines
    long = []
    for page in PAGES:
        fence = False
        for number, line in enumerate(page.read_text().splitlines(), 1):
            if line.startswith("```"):
                fence = not fence
            elif not fence and not line.startswith(("|", "![")) and len(line) > 100:
                long.append(f"{page.name}:{number}")
    assert long == []


def test_the_docs_say_nothing_of_how_the_work_was_organised():
    # a manual, not a log of work: no sessions of work, no rounds of it ("this round's
    # code"); a benchmark's rounds (interleaved runs) are measurements
    pattern = re.compile(r"\bsessions?\b|\b(this|that|earlier) rounds?\b", re.I)
    allowed = ("shell session", "sessionstart", "new_session")
    found = [
        f"{page.name}:{number}"
        for page in PAGES
        for number, line in enumerate(page.read_text().splitlines(), 1)
        if pattern.search(line) and not any(word in line.lower() for word in allowed)
    ]
    assert found == []
