"""A live project's layer is never "orphaned" (left25, item 1): a layer directory copied or renamed by hand
for a clone or a second checkout keeps the layer.json of the project it came from; when that project is gone,
`memdir doctor` called the clone's own layer orphaned and told the person to `move-layer` it onto itself
(which refuses: "already belongs"). A layer is orphaned only when no live project maps to its key."""

from __future__ import annotations

import json
import shutil

import pytest

from memdir import Memory
from memdir.paths import project_key
from tests.conftest import run_cli


def _project(path):
    (path / ".git").mkdir(parents=True)
    return path.resolve()


@pytest.mark.slow
def test_a_layer_renamed_for_a_moved_project_is_its_own_not_an_orphan(tmp_path, isolated_home):
    old, gone = _project(tmp_path / "proj"), _project(tmp_path / "gone")
    Memory.open(home=isolated_home, project=old, actor="human").write("db-port", "Dev DB listens on 5433", "project", "")
    Memory.open(home=isolated_home, project=gone, actor="human").write("x", "a fact of gone", "project", "")
    new = tmp_path / "proj2"
    shutil.move(str(old), str(new))
    shutil.rmtree(gone)  # control: a project gone for good leaves a real orphan
    projects = isolated_home / "projects"
    (projects / project_key(old)).rename(projects / project_key(new))  # the person moved the layer by hand
    mem = Memory.open(home=isolated_home, project=new)
    assert [m.name for m in mem.list().memories] == ["db-port"]  # the session reads it as its layer
    # before: [(proj2's key, 'proj'), (gone's key, 'gone')] — its own layer listed as an orphan
    assert [(o.key, o.root) for o in mem.orphans()] == [(project_key(gone), str(gone))]
    doctor = run_cli("doctor", "--project", new).stdout
    assert f"orphaned layer {project_key(new)}" not in doctor  # before: "... — memdir move-layer KEY NEW"
    assert (f"note: layer {project_key(new)} is the layer of {new} (its key), though its layer.json names {old}: "
            f"not orphaned; its next change records {new} (nothing to move)") in doctor
    assert f"orphaned layer {project_key(gone)}: 1 memory of {gone}, which no longer exists" in doctor  # control
    # the fix the note promises: the next change records the live root, and the note is gone
    assert run_cli("write", "ci", "-d", "CI runs on every push", "-t", "project", "--project", new).returncode == 0
    info = json.loads((projects / project_key(new) / ".memdir" / "layer.json").read_text())
    assert info["root"] == str(new)
    again = run_cli("doctor", "--project", new).stdout
    assert "is the layer of" not in again and f"orphaned layer {project_key(gone)}" in again


def test_a_layer_known_live_by_another_layers_record_is_not_an_orphan(tmp_path, isolated_home):
    """Two checkouts: the second checkout's layer was copied from the first, which is gone; the session
    is a third project, and only the second checkout's team layer records that it lives."""
    first, second, here = (_project(tmp_path / n) for n in ("first", "second", "here"))
    Memory.open(home=isolated_home, project=first, actor="human").write("x", "a fact", "project", "")
    projects = isolated_home / "projects"
    shutil.copytree(projects / project_key(first), projects / project_key(second))
    shutil.rmtree(first)
    team = isolated_home / "team" / project_key(second) / ".memdir"
    team.mkdir(parents=True)
    (team / "layer.json").write_text(json.dumps({"kind": "team", "root": str(second)}))
    orphans = Memory.open(home=isolated_home, project=here).orphans()
    # before: both copies listed; the second checkout's layer is live
    assert [(o.key, o.root) for o in orphans] == [(project_key(first), str(first))]
    with pytest.raises(Exception) as refused:  # and move-layer will not take it from its live project
        Memory.open(home=isolated_home, project=here, actor="human").move_layer(project_key(second))
    assert f"belongs to {second}, which still exists" in str(refused.value)
