"""The package's boundaries: its layers import one way, downwards, with no
circle among its modules, and its modules use one another's public names only
(a private name, ``_x``, is free to change within its module).

The layers, from the top: ``python -m parqueens``; the command line; the
public modules at the top of the package (the package itself, formats,
pictures, verify); running a count;
the search and the join; the formats and files; the shared bottom.  A module
imports its own layer or those below, never one above; the search never
imports the join (the join uses the search's kernels: ``popcount``)."""

import ast
import pathlib
import re

import parqueens

PACKAGE = pathlib.Path(parqueens.__file__).parent

#: The layers, from the top: (name, the modules and packages in it).
LAYERS = [
    ("entry", ["parqueens.__main__"]),
    ("cli", ["parqueens.cli"]),
    (
        "front",
        ["parqueens", "parqueens.formats", "parqueens.pictures", "parqueens.verify"],
    ),
    ("run", ["parqueens.run"]),
    ("search and join", ["parqueens.search", "parqueens.join"]),
    ("io", ["parqueens.io"]),
    (
        "bottom",
        [
            f"parqueens.{m}"
            for m in (
                "names checks errors methods symmetry dihedral oeis construction terminal tempfiles"
            ).split()
        ],
    ),
]

#: parqueens/run/ from the bottom up, as its docstring lists it: a module
#: imports only those before it.
RUN_ORDER = [
    "method",
    "checkpoint_file",
    "store",
    "signals",
    "cluster",
    "backends",
    "tally",
    "chunks",
    "estimate",
    "plan",
    "status",
    "runner",
    "merge",
    "listing",
]


def _module_name(path):
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _is_module(name):
    relative = pathlib.Path(*name.split("."))
    return (PACKAGE.parent / relative).with_suffix(".py").exists() or (
        PACKAGE.parent / relative / "__init__.py"
    ).exists()


def _imports(path):
    """The parqueens modules that the module at ``path`` imports, anywhere in
    it (in functions too): ``from x import y`` counts as an import of x.y
    when that is a module, else of x."""
    name = _module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            if target.split(".")[0] != "parqueens":
                continue
            for alias in node.names:
                full = f"{target}.{alias.name}"
                found.add(full if _is_module(full) else target)
        elif isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name.split(".")[0] == "parqueens")
    found.discard(name)
    return found


def _graph():
    return {_module_name(p): _imports(p) for p in sorted(PACKAGE.rglob("*.py"))}


def _layer(module):
    """The index in LAYERS of the layer that holds ``module`` (the longest
    prefix listed), or None."""
    best = None
    for i, (_, members) in enumerate(LAYERS):
        for m in members:
            if (module == m or module.startswith(m + ".")) and (
                best is None or len(m) > len(best[1])
            ):
                best = (i, m)
    return None if best is None else best[0]


def test_every_module_has_a_layer():
    assert sorted(m for m in _graph() if _layer(m) is None) == []


def test_layers_import_downwards_only():
    upwards = sorted(
        f"{a} ({LAYERS[_layer(a)][0]}) -> {b} ({LAYERS[_layer(b)][0]})"
        for a, targets in _graph().items()
        for b in targets
        if _layer(b) < _layer(a)
    )
    assert upwards == []


def test_the_search_does_not_import_the_join():
    graph = _graph()
    assert (
        sorted(
            (a, b)
            for a, targets in graph.items()
            if a.startswith("parqueens.search")
            for b in targets
            if b.startswith("parqueens.join")
        )
        == []
    )


def test_every_module_says_its_public_names():
    # ``__all__`` is the module's public surface: what other modules and the
    # docs may use; the rest is free to change (``__main__`` runs, exports nothing)
    missing = [
        _module_name(path)
        for path in sorted(PACKAGE.rglob("*.py"))
        if path.name != "__main__.py" and not re.search(r"^__all__\b", path.read_text(), re.M)
    ]
    assert missing == []


def test_running_imports_in_the_order_of_its_docstring():
    graph = _graph()
    modules = {p.stem for p in (PACKAGE / "run").glob("*.py")} - {"__init__"}
    assert sorted(modules) == sorted(RUN_ORDER)
    later = sorted(
        (a, b)
        for i, a in enumerate(RUN_ORDER)
        for b in RUN_ORDER[i:]
        if f"parqueens.run.{b}" in graph[f"parqueens.run.{a}"]
    )
    assert later == []


def _cycle(graph):
    """A circle of imports among the modules of ``graph``, as a list of
    modules (the first repeated at the end), or None."""
    state = {}

    def visit(m, path):
        state[m] = "open"
        for t in sorted(graph.get(m, ())):
            if state.get(t) == "open":
                return path[path.index(t) :] + [t] if t in path else [m, t]
            if t not in state:
                found = visit(t, [*path, t])
                if found:
                    return found
        state[m] = "done"
        return None

    for m in sorted(graph):
        if m not in state:
            found = visit(m, [m])
            if found:
                return found
    return None


def test_no_circle_of_imports():
    assert _cycle(_graph()) is None


def test_the_circle_finder_finds_circles():
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert _cycle({"a": {"b", "c"}, "b": {"c"}, "c": set()}) is None


def test_the_layers_see_the_imports_of_their_modules():
    graph = _graph()
    assert "parqueens.run.chunks" in graph["parqueens.run.runner"]  # relative, top level
    assert "parqueens.join.units" in graph["parqueens.join.method"]  # in a function
    assert "parqueens.checks" in graph["parqueens.cli.options"]  # from .. import checks


#: Private imports still made, as ``(module, imported name)``, until their
#: modules take the public names (each listed here must still be made).
KNOWN = set()


def _private_imports(path):
    """``(imported name, line)`` of the private names that the module at
    ``path`` imports from another parqueens module, or reads as an attribute
    of one it imported."""
    tree = ast.parse(path.read_text())
    modules, found = set(), []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and (
            node.level or (node.module or "").startswith("parqueens")
        ):
            for alias in node.names:
                if alias.name.startswith("_") and not alias.name.startswith("__"):
                    found.append((alias.name, node.lineno))
                modules.add(alias.asname or alias.name)
        elif isinstance(node, ast.Import):
            modules.update(a.asname or a.name for a in node.names if a.name.startswith("parqueens"))
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name)
            and node.value.id in modules
            and node.attr.startswith("_")
            and not node.attr.startswith("__")
        ):
            found.append((node.attr, node.lineno))
    return found


def test_no_module_imports_private_names_of_another():
    made = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        name = path.relative_to(PACKAGE.parent).as_posix()
        for imported, line in _private_imports(path):
            made[name, imported] = line
    unexpected = sorted(
        f"{m}:{line} {imported}"
        for (m, imported), line in made.items()
        if (m, imported) not in KNOWN
    )
    assert unexpected == []
    assert sorted(KNOWN - set(made)) == []  # fixed: drop it from KNOWN


def test_no_method_or_backend_name_compared_outside_its_own_package():
    # The method and the backend are objects (parqueens.methods.Method,
    # parqueens.run.backends.Backend): the run asks them, it does not test
    # their names (`method == "join"`, `backend != "dask"`).
    from parqueens.names import BACKENDS, METHODS

    names = set(METHODS) | set(BACKENDS)
    own = ("parqueens.methods", "parqueens.search", "parqueens.join", "parqueens.run.backends")

    def named(node):
        if isinstance(node, ast.Constant):
            return node.value in names
        return isinstance(node, ast.Tuple | ast.List | ast.Set) and any(map(named, node.elts))

    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        module = _module_name(path)
        if module.startswith(own):
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Compare) and any(map(named, [node.left, *node.comparators])):
                found.append(f"{module}:{node.lineno}")
    assert found == []
