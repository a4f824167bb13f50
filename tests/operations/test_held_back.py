"""A memory whose value matches a tombstone of its own layer is held back (DESIGN §5, §10): never in the
context block, list, search or the agent's tools until a person settles it (`memdir delete NAME --scope S`
or `memdir tombstone lift ID`). Real git in temp dirs for the team layer (a forget that meets a
modify/delete conflict), a file copied back by hand for a personal layer."""

from __future__ import annotations

import shutil
import time

import pytest

from tests.conftest import run_cli
from tests.operations.test_team_merge import BODY
from tests.teamgit import git, shared_repository

FORGOTTEN, KEPT = "Dev PostgreSQL listens on 5433", "CI runs on GitHub Actions"


def _seen(memory, scope: str) -> dict[str, bool]:
    """Where db-port (forgotten) and ci (the control) show for ``memory``: context block, list, search
    (BM25 over the search index), the agent's memory_read and memory_list."""
    context = memory.context()
    listed = {m.name for m in memory.list(scope).memories}
    found = {h.name for h in memory.search("PostgreSQL 5433 GitHub Actions CI", k=10, scope=scope, min_score=0)}
    listing = memory.call_tool("memory_list", {"scope": scope})
    seen = {}
    for name, description in (("db-port", FORGOTTEN), ("ci", KEPT)):
        read = memory.call_tool("memory_read", {"name": name, "scope": scope})
        seen[name] = [description in context, name in listed, name in found, read.startswith(f"name: {name}\n"),
                      description in listing]
    return seen


ALL, NONE = [True] * 5, [False] * 5


@pytest.fixture
def forgotten_meets_edit(tmp_path):
    """A forgets db-port (team), pushes; B had changed db-port's body and committed; B's pull stops on
    git's modify/delete conflict and leaves B's file, without a conflict marker."""
    a, b = shared_repository(tmp_path)
    a.memory().write("db-port", FORGOTTEN, "project", BODY, scope="team")
    a.memory().write("ci", KEPT, "project", scope="team")
    a.memory().write("old-note", "Staging deploys on Fridays", "project", scope="team")
    a.memory().forget("old-note", scope="team")  # the tombstone directory exists before the forget below
    a.commit_all("team memories")
    a.push()
    b.pull()
    b.memory().team_init()
    assert _seen(b.memory(), "team") == {"db-port": ALL, "ci": ALL}  # both seen before the forget
    time.sleep(1.1)
    a.memory().forget("db-port", scope="team")
    a.commit_all("A forgets db-port")
    a.push()
    stone = next(s.id for s in a.memory().tombstones().tombstones if s.name == "db-port")
    time.sleep(1.1)
    b.memory().write("db-port", scope="team", body=BODY.replace("Ask in #infra", "Ask in #platform"))
    b.commit_all("B's change")
    assert _seen(b.memory(), "team") == {"db-port": ALL, "ci": ALL}  # B's search index in step before the pull
    pulled = b.pull(check=False)
    assert pulled.returncode != 0 and "modify/delete" in pulled.stdout + pulled.stderr
    assert (b.team_dir / "db-port.md").exists() and "<<<<<<<" not in (b.team_dir / "db-port.md").read_text()
    return a, b, stone


@pytest.mark.slow
def test_a_forgotten_team_memory_left_by_a_modify_delete_conflict_is_held_back_for_both(forgotten_meets_edit):
    a, b, stone = forgotten_meets_edit
    # The first command after the pull is a search (its index was in step before the pull): not found.
    searched = run_cli("search", "PostgreSQL 5433 GitHub Actions CI", "--scope", "team", "--project", b.root,
                       env={"MEMDIR_HOME": str(b.home)})
    assert searched.returncode == 0, searched.stderr
    assert "ci" in searched.stdout and "db-port" not in searched.stdout, searched.stdout
    assert _seen(b.memory(), "team") == {"db-port": NONE, "ci": ALL}  # unresolved: held back, the control seen
    listed = run_cli("list", "--scope", "team", "--project", b.root, env={"MEMDIR_HOME": str(b.home)})
    assert "ci" in listed.stdout and "held back" in listed.stdout + listed.stderr
    # B commits the file back as git suggests; A pulls: still held back for A, the control seen.
    git(b.root, "add", "-A")
    git(b.root, "commit", "-q", "-m", "merge")
    b.push()
    a.pull()
    assert (a.team_dir / "db-port.md").exists()
    assert _seen(a.memory(), "team") == {"db-port": NONE, "ci": ALL}
    assert _seen(b.memory(), "team") == {"db-port": NONE, "ci": ALL}
    doctor = run_cli("doctor", "--project", a.root, env={"MEMDIR_HOME": str(a.home)})
    assert doctor.returncode != 0, doctor.stdout
    out = doctor.stdout
    assert "held back" in out and "`memdir delete db-port --scope team`" in out
    assert f"`memdir tombstone lift {stone}`" in out
    # Lifting the tombstone brings it back (the person keeps the fact).
    lifted = run_cli("tombstone", "lift", stone, "--project", a.root, env={"MEMDIR_HOME": str(a.home)})
    assert lifted.returncode == 0, lifted.stderr
    assert _seen(a.memory(), "team") == {"db-port": ALL, "ci": ALL}


@pytest.mark.slow
def test_memdir_delete_removes_a_held_back_team_file(forgotten_meets_edit):
    _a, b, stone = forgotten_meets_edit
    deleted = run_cli("delete", "db-port", "--scope", "team", "--project", b.root, env={"MEMDIR_HOME": str(b.home)})
    assert deleted.returncode == 0, deleted.stdout + deleted.stderr
    assert not (b.team_dir / "db-port.md").exists() and (b.team_dir / "ci.md").exists()
    assert _seen(b.memory(), "team") == {"db-port": NONE, "ci": ALL}
    assert any(s.id == stone for s in b.memory().tombstones(scope="team").tombstones)  # still forgotten
    doctor = run_cli("doctor", "--project", b.root, env={"MEMDIR_HOME": str(b.home)})
    assert "held back" not in doctor.stdout


def test_a_personal_file_copied_back_by_hand_is_held_back_until_settled(person, tmp_path):
    """The project layer: db-port forgotten, its file copied back from a backup; ci is the control."""
    person.write("db-port", FORGOTTEN, "project", BODY, scope="project")
    person.write("ci", KEPT, "project", scope="project")
    layer_dir = person.session.layer("project").path
    backup = tmp_path / "db-port.md"
    shutil.copy(layer_dir / "db-port.md", backup)
    person.forget("db-port", scope="project")
    assert _seen(person, "project") == {"db-port": NONE, "ci": ALL}
    person.write("redis-port", "Dev Redis listens on 6380", "project", "Ask in #infra.", scope="project")
    question = "Which ports do the dev PostgreSQL and the dev Redis listen on?"
    shutil.copy(backup, layer_dir / "db-port.md")
    assert _seen(person, "project") == {"db-port": NONE, "ci": ALL}
    recalled = person.recall(question)
    assert "Dev Redis listens on 6380" in recalled and FORGOTTEN not in recalled  # recall: the control only
    doctor = person.doctor()
    held = [p for p in doctor.problems if "held back" in p.error]
    assert len(held) == 1 and "`memdir delete db-port --scope project`" in held[0].error
    stone = next(s.id for s in person.tombstones(scope="project").tombstones if s.name == "db-port")
    person.lift_tombstone(stone, scope="project")
    assert _seen(person, "project") == {"db-port": ALL, "ci": ALL}
    assert FORGOTTEN in person.recall(question)  # lifted: recalled again


def test_delete_removes_a_personal_file_held_back(person, tmp_path):
    person.write("db-port", FORGOTTEN, "project", BODY, scope="project")
    person.write("ci", KEPT, "project", scope="project")
    layer_dir = person.session.layer("project").path
    backup = tmp_path / "db-port.md"
    shutil.copy(layer_dir / "db-port.md", backup)
    person.forget("db-port", scope="project")
    shutil.copy(backup, layer_dir / "db-port.md")
    person.delete("db-port", scope="project")
    assert not (layer_dir / "db-port.md").exists() and (layer_dir / "ci.md").exists()
    assert _seen(person, "project") == {"db-port": NONE, "ci": ALL}
    assert [p for p in person.doctor().problems if "held back" in p.error] == []
