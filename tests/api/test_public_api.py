"""The public surface: `__all__`, and only MemdirError subclasses escape it."""

import pytest

import memdir
from memdir import InvalidInput, Memory, MemdirError, StoreError


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
