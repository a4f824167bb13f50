"""The public surface: `__all__`, and only MemdirError subclasses escape it."""

import pytest

import memdir
from memdir import Memory, MemdirError, StoreError


def test_all_names_resolve_and_are_the_documented_surface():
    assert sorted(memdir.__all__) == sorted([
        "Memory", "Settings", "MemoryRecord", "MemdirError", "InvalidInput", "InvalidName", "ScopeError",
        "NotFound", "Refused", "TombstoneRefused", "ConfirmationRequired", "Conflict", "LockTimeout",
        "StoreError", "ModelError", "__version__"])
    for name in memdir.__all__:
        assert getattr(memdir, name) is not None
    for name in memdir.__all__:
        obj = getattr(memdir, name)
        if isinstance(obj, type) and issubclass(obj, Exception):
            assert issubclass(obj, MemdirError)


def test_a_home_that_is_a_file_gives_a_store_error(tmp_path, project):
    home = tmp_path / "not-a-dir"
    home.write_text("I am a file")
    mem = Memory.open(home=home, project=project)
    with pytest.raises(StoreError, match="Not a directory"):
        mem.write("x", "d", "project", "b")
    with pytest.raises(StoreError, match="Not a directory"):
        mem.list()
    assert home.read_text() == "I am a file"


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
