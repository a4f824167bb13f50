"""A write refused for what it was given makes nothing: no layer directory, lock or layer.json (trial28: `cd /var;
memdir write foo` was refused, yet left projects/var-…/.memdir/ behind, and the panel listed "var" with 0
memories). Real CLI subprocesses and the memory_write tool, in a project whose layer is not made yet."""

from __future__ import annotations

import pytest

from memdir import Memory
from tests.conftest import run_cli


def _made(home) -> list[str]:
    """Every path under the home's projects/ directory, relative to the home."""
    return sorted(str(p.relative_to(home)) for p in (home / "projects").rglob("*")) if (home / "projects").exists() \
        else []


@pytest.mark.parametrize("args, said", [
    (("write", "foo"), "memdir: -d/--description is required for a new memory (there is no memory 'foo' to update)\n"),
    (("write", "foo", "--rename-from", "bar"),
     "memdir: cannot rename \"bar\": no such memory in the user or project layer\n"),
    (("write", "foo", "-d", "The deploy key rotates monthly", "--supersedes", "bar"),
     "memdir: cannot supersede \"bar\": no such memory in the project layer\n"),
])
def test_a_refused_cli_write_makes_no_layer(isolated_home, project, args, said):
    done = run_cli(*args, cwd=project)  # no --project: the working directory's, as a person types it
    assert done.returncode == 1 and done.stderr == said, done.stderr
    assert _made(isolated_home) == []
    # control: the same write with what it lacked makes the layer and the memory
    ok = run_cli("write", "foo", "-d", "The deploy key rotates monthly", cwd=project)
    assert ok.returncode == 0, ok.stderr
    layer = [p for p in _made(isolated_home) if p.count("/") == 1]
    assert len(layer) == 1 and (isolated_home / layer[0] / "foo.md").is_file()


def test_a_refused_memory_write_tool_call_makes_no_layer(isolated_home, project):
    agent = Memory.open(home=isolated_home, project=project)
    assert agent.call_tool("memory_write", {"name": "foo"}) == (
        "Error: description is required for a new memory (there is no memory 'foo' to update)")
    assert agent.call_tool("memory_write", {"name": "foo", "description": "x", "rename_from": "bar"}).startswith(
        "Error: cannot rename \"bar\": no such memory")
    assert _made(isolated_home) == []
    assert agent.call_tool("memory_write", {"name": "foo", "description": "The deploy key rotates monthly"}) \
        .startswith("Memory created: foo (project)")  # control
    assert any(p.endswith("/foo.md") for p in _made(isolated_home))
