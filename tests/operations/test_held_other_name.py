"""A forgotten value written into a personal layer's directory under another name is held back (break34):
the gateway refuses that write (`memdir write` of the forgotten value under a new name), but a file put
there by hand — a person's copy, the agent's own file tool — came into the context block, list, search and
the agent's tools, since a personal layer held back a file by its own name only. Now a file is held back by
a tombstone of its layer of any name, in every layer (memdir.layer.held). Real CLI subprocesses read it;
a file of another value (a control) is seen throughout."""

from __future__ import annotations

import subprocess
import sys

import pytest

from tests.conftest import run_cli

FORGOTTEN, KEPT, OTHER = "Dev PostgreSQL listens on 5433", "CI runs on GitHub Actions", "Dev Redis listens on 6380"
BODY = "Checked on 2026-11-02.\nThe system cluster keeps 5432.\n"
# The control's body: the forgotten BODY under another description is the forgotten body (tombstones' rule 5).
OTHER_BODY = "Checked on 2026-11-02.\nThe cache cluster keeps 6379.\n"

# What the agent's file tool does: a plain process writing a Markdown file into the layer's directory.
WRITER = """
import sys
from pathlib import Path
name, description, body = sys.argv[2:5]
Path(sys.argv[1], name + ".md").write_text(f"---\\nname: {name}\\ndescription: {description}\\ntype: project\\n---\\n{body}")
"""


def _put(directory, name: str, description: str, body: str) -> None:
    subprocess.run([sys.executable, "-c", WRITER, str(directory), name, description, body], check=True, timeout=60)


def _cli(person, *args) -> subprocess.CompletedProcess:
    return run_cli(*args, "--project", person.session.root_path, env={"MEMDIR_HOME": str(person.session.home_path)})


def _seen(person, scope: str) -> dict[str, list[bool]]:
    """Where db-copy (the forgotten value under another name) and redis-port (the control, written the same way)
    show, each read by a fresh CLI process: context block, list, search, and in process the agent's memory_read
    and memory_list."""
    context = _cli(person, "context").stdout
    listed = _cli(person, "list", "--scope", scope).stdout
    found = _cli(person, "search", "Dev PostgreSQL Redis listens", "--scope", scope).stdout
    listing = person.call_tool("memory_list", {"scope": scope})
    seen = {}
    for name, description in (("db-copy", FORGOTTEN), ("redis-port", OTHER)):
        read = person.call_tool("memory_read", {"name": name, "scope": scope})
        seen[name] = [description in context, f"- {name} (" in listed, name in found,
                      read.startswith(f"name: {name}\n"), description in listing]
    return seen


ALL, NONE = [True] * 5, [False] * 5


@pytest.mark.parametrize("scope", ["project", "user"])
def test_a_forgotten_value_put_back_under_another_name_is_held_back_until_settled(person, scope):
    person.write("db-port", FORGOTTEN, "project", BODY, scope=scope)
    person.write("ci", KEPT, "project", scope=scope)
    person.forget("db-port", scope=scope)
    [stone] = person.tombstones(scope=scope).tombstones
    layer_dir = person.session.layer(scope).path
    refused = _cli(person, "write", "db-copy", "-d", FORGOTTEN, "--body", BODY, "--scope", scope)
    assert refused.returncode == 1 and stone.id in refused.stderr  # the gateway's door is shut ...
    _put(layer_dir, "db-copy", FORGOTTEN, BODY)  # ... the file system's was open
    _put(layer_dir, "redis-port", OTHER, OTHER_BODY)
    assert _seen(person, scope) == {"db-copy": NONE, "redis-port": ALL}
    doctor = _cli(person, "doctor")
    assert f"db-copy.md: held back: it holds a value forgotten as 'db-port' (the same value; tombstone {stone.id}" \
        in doctor.stdout and f"`memdir delete db-copy --scope {scope}`" in doctor.stdout, doctor.stdout

    deleted = _cli(person, "delete", "db-copy", "--scope", scope)  # a person settles it: the file goes
    assert deleted.returncode == 0, deleted.stderr
    assert not (layer_dir / "db-copy.md").exists() and (layer_dir / "redis-port.md").exists()
    assert [s.id for s in person.tombstones(scope=scope).tombstones] == [stone.id]  # still forgotten
    assert _seen(person, scope) == {"db-copy": NONE, "redis-port": ALL}


def test_a_lift_releases_the_copy_and_a_copy_made_before_the_forget_keeps_the_value(person):
    """A lift lets the copy under another name back in; a copy written before the forget keeps the value
    alive (no tombstone: deleting a duplicate never freezes the survivor), so nothing is held back."""
    person.write("db-port", FORGOTTEN, "project", BODY, scope="project")
    person.forget("db-port", scope="project")
    [stone] = person.tombstones(scope="project").tombstones
    layer_dir = person.session.layer("project").path
    _put(layer_dir, "db-copy", FORGOTTEN, BODY)
    _put(layer_dir, "redis-port", OTHER, OTHER_BODY)
    assert _seen(person, "project") == {"db-copy": NONE, "redis-port": ALL}
    lifted = _cli(person, "tombstone", "lift", stone.id, "--scope", "project")
    assert lifted.returncode == 0, lifted.stderr
    assert _seen(person, "project") == {"db-copy": ALL, "redis-port": ALL}

    person.write("db-port", FORGOTTEN, "project", BODY, scope="project")  # db-copy holds the same value
    done = person.forget("db-port", scope="project")
    assert done.kept_by == "project:db-copy" and not person.tombstones(scope="project").tombstones
    assert _seen(person, "project") == {"db-copy": ALL, "redis-port": ALL}
