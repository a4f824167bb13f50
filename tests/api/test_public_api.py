"""The public surface: `__all__`, and only MemdirError subclasses escape it."""

import pytest

import memdir
from memdir import InvalidInput, MemdirError, Memory


def test_all_is_exactly_what_the_package_exposes():
    """``__all__`` is the public surface: every name in it resolves, and every
    public name the package exposes (``dir``) is in it, subpackages aside."""
    import types

    exposed = {name for name in dir(memdir) if not name.startswith("_") or name == "__version__"}
    modules = {name for name in exposed if isinstance(getattr(memdir, name), types.ModuleType)}
    assert sorted(memdir.__all__) == sorted(exposed - modules)
    assert all(getattr(memdir, name).__name__ == f"memdir.{name}" for name in modules)  # its own submodules
    assert "Memory" in memdir.__all__ and "MemdirError" in memdir.__all__  # control: the facade and the tree


def test_every_exception_exposed_is_in_the_one_tree():
    from memdir import errors

    exposed = [getattr(memdir, name) for name in memdir.__all__]
    exceptions = [obj for obj in exposed if isinstance(obj, type) and issubclass(obj, BaseException)]
    assert exceptions and all(issubclass(obj, MemdirError) for obj in exceptions)
    defined = {obj for obj in vars(errors).values() if isinstance(obj, type) and issubclass(obj, MemdirError)}
    assert defined == set(exceptions)  # every error of the tree is public, and nothing else is
    for exc in defined:  # and the tree drawn in errors.py names each one
        assert exc.__name__ in errors.__doc__


def test_a_home_that_is_a_file_is_refused_when_opened(tmp_path, project):
    home = tmp_path / "not-a-dir"
    home.write_text("I am a file")
    with pytest.raises(InvalidInput, match="is not a directory"):
        Memory.open(home=home, project=project)
    assert home.read_text() == "I am a file"
    assert Memory.open(home=tmp_path / "a-dir", project=project).list().memories == ()  # control


def test_bad_arguments_raise_memdir_errors_only(mem):
    mem.write("ok", "a memory", "project", "body")
    bad_calls = [
        lambda: mem.write(None, "d", "project", "b"),
        lambda: mem.write("x", None, "project", "b"),
        lambda: mem.write("x", "d", "project", 12),
        lambda: mem.write("x", "d", "project", "b", title=5),
        lambda: mem.write("x", "d", "project", "b", valid_until="not a time"),
        lambda: mem.read(""),
        lambda: mem.list(scope="galaxy"),
        lambda: mem.list(as_of="yesterday-ish"),
        lambda: mem.prune("7"),
        lambda: mem.restore("ok", 0),
        lambda: mem.show("ok", 5),
        lambda: mem.context(max_bytes=0),
        lambda: mem.lift_tombstone("t-nope"),
    ]
    for call in bad_calls:
        with pytest.raises(MemdirError):
            call()
    assert [m.name for m in mem.list().memories] == ["ok"]  # nothing lost on the way


def test_a_write_is_one_change_value_and_an_unknown_field_is_named(mem):
    """The fields of a write are declared once (``memdir.MemoryChange``): the facade's keywords, a
    prepared change (``Memory.apply``) and the levels below take that value; a misspelt keyword is an
    :class:`InvalidInput` naming it, never a bare TypeError, and nothing is written."""
    import dataclasses
    import inspect

    from memdir.gateway import changes as gateway
    from memdir.operations import memories as operations

    with pytest.raises(InvalidInput, match=r"unknown field\(s\) for a write: colour, importanse \(a write takes"):
        mem.write("db-port", "Dev PostgreSQL listens on 5433", "project", "b", importanse=5, colour="red")
    assert mem.list().memories == ()
    # control: the right spelling writes, and a prepared change writes through the same path
    written = mem.write("db-port", "Dev PostgreSQL listens on 5433", "project", "Moved.", importance=5, scope="project")
    assert (written.name, written.scope, written.operation) == ("db-port", "project", "created")
    change = memdir.MemoryChange("db-port", body="Moved on 2026-11-02.", pinned=True, extra={"ticket": "OPS-7"})
    assert change.extra == (("ticket", "OPS-7"),)
    applied = mem.apply(change, "project")
    assert (applied.operation, applied.pinned) == ("updated", True)
    record = mem.read("db-port", count=False).record
    assert (record.description, record.body, record.importance, record.pinned, dict(record.extra)) == (
        "Dev PostgreSQL listens on 5433", "Moved on 2026-11-02.", 5, True, {"ticket": "OPS-7"})
    with pytest.raises(dataclasses.FrozenInstanceError):
        change.name = "other"
    with pytest.raises(InvalidInput, match="apply takes a MemoryChange"):
        mem.apply({"name": "x", "description": "d"})
    with pytest.raises(InvalidInput, match="extra must be a mapping"):
        memdir.MemoryChange("x", "d", extra="ticket")
    # no level below re-declares the fields: each takes the one value (and, from the calling path only, an
    # importer's source times, honoured for actor import alone)
    assert list(inspect.signature(operations.write).parameters) == ["session", "change", "scope", "times"]
    assert list(inspect.signature(gateway.write).parameters) == ["layer", "change", "actor", "session", "guard",
                                                                 "action", "times"]


def _annotation_names() -> dict:
    """The names ``memdir.api`` annotates with: its module globals plus what it imports
    under ``TYPE_CHECKING`` (the result types of modules it loads on first use)."""
    import ast
    import importlib
    from pathlib import Path

    from memdir import api

    names = dict(vars(api))
    for node in ast.walk(ast.parse(Path(api.__file__).read_text(encoding="utf-8"))):
        if isinstance(node, ast.If) and getattr(node.test, "id", None) == "TYPE_CHECKING":
            for imported in node.body:
                module = importlib.import_module("." * imported.level + imported.module, "memdir")
                names.update({alias.asname or alias.name: getattr(module, alias.name) for alias in imported.names})
    return names


def test_memdir_exports_every_result_type_a_memory_method_returns():
    import inspect
    import typing

    names = _annotation_names()
    returned, unannotated = {}, []
    for attribute, member in vars(Memory).items():
        function = getattr(member, "__func__", member)
        if attribute.startswith("_") or not inspect.isfunction(function):
            continue
        hints = typing.get_type_hints(function, globalns=names)
        if "return" not in hints:
            unannotated.append(attribute)
            continue
        for kind in (hints["return"], *typing.get_args(hints["return"])):
            if isinstance(kind, type) and kind.__module__.startswith("memdir."):
                returned[kind.__name__] = kind
    assert unannotated == []  # every method says what it returns, so the walk sees it
    # control: the walk finds the results of the store, search, consolidation, the team layer and a move
    assert {"WriteResult", "SearchResult", "RecallResult", "ConsolidationReport", "TeamStatus", "LayerMove",
            "Memory"} <= set(returned)
    missing = [name for name, kind in returned.items()
               if name not in memdir.__all__ or getattr(memdir, name) is not kind]
    assert missing == []


def test_importing_memdir_loads_no_result_module():
    """The result types are exported lazily: ``import memdir`` (the hooks) loads none of their modules."""
    import subprocess
    import sys

    code = ("import sys, memdir; print(sorted(m for m in sys.modules if m.startswith('memdir')));"
            "memdir.SearchResult; print('memdir.search.ranking' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.stdout.splitlines() == ["['memdir', 'memdir.errors']", "True"]  # control: first use loads it


def test_the_facade_hands_out_no_layer_engine(mem):
    """A layer's transaction can change files without the gateway's checks: the facade has no ``layer()``."""
    assert not hasattr(Memory, "layer")
    layer = mem.session.layer("project")  # control: the engine is the session's, for tests and the store itself
    assert (layer.scope, layer.path) == ("project", mem.session.layer_dir("project"))
