"""The package's modules use one another's public names only: a private name
(``_x``) is free to change within its module."""

import ast
import pathlib

import parqueens

PACKAGE = pathlib.Path(parqueens.__file__).parent

#: Private imports still made, as ``(module, imported name)``, until their
#: modules take the public names (each listed here must still be made).
KNOWN = {
    ("parqueens/join.py", "_count_units"),
    ("parqueens/join.py", "_role_counts"),
    ("parqueens/join.py", "_plan"),
    ("parqueens/join.py", "_quadrant_table"),
    ("parqueens/join.py", "_role_tables"),
}


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
