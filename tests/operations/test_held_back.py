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


def forgotten_after_a_backup(person, tmp_path):
    """db-port (:data:`FORGOTTEN`, :data:`BODY`) and ci (:data:`KEPT`) written in the project layer, db-port's file
    copied to ``tmp_path/db-port.md``, then db-port forgotten: ``(layer, backup)``. Copying ``backup`` back into
    the layer makes a file the tombstone holds back; ci is the control."""
    person.write("db-port", FORGOTTEN, "project", BODY, scope="project")
    person.write("ci", KEPT, "project", scope="project")
    layer = person.session.layer("project")
    backup = tmp_path / "db-port.md"
    shutil.copy(layer.path / "db-port.md", backup)
    person.forget("db-port", scope="project")
    return layer, backup


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
    assert f"`memdir tombstone lift {stone} --scope team`" in out
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
    layer, backup = forgotten_after_a_backup(person, tmp_path)
    layer_dir = layer.path
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
    layer, backup = forgotten_after_a_backup(person, tmp_path)
    layer_dir = layer.path
    shutil.copy(backup, layer_dir / "db-port.md")
    person.delete("db-port", scope="project")
    assert not (layer_dir / "db-port.md").exists() and (layer_dir / "ci.md").exists()
    assert _seen(person, "project") == {"db-port": NONE, "ci": ALL}
    assert [p for p in person.doctor().problems if "held back" in p.error] == []


FRESH = """
import json, sys
import memdir.files.scan as scan
from memdir import Memory
parsed = []
real = scan.parse
def counted(text, name):
    parsed.append(name)
    return real(text, name)
scan.parse = counted
mem = Memory.open(home=sys.argv[1], project=sys.argv[2], actor="human")
context = mem.context()
during = list(parsed)
listed = sorted(m.name for m in mem.list("project").memories)
read = mem.call_tool("memory_read", {"name": "db-port", "scope": "project"})
print(json.dumps({"parsed": during, "context": context, "listed": listed, "read": read.startswith("name: db-port")}))
"""


def _fresh(person) -> dict:
    """What a fresh process finds: the files it parsed while building the context block (by name, in order),
    the block, the project layer's list and whether the agent's memory_read finds db-port."""
    import json
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-c", FRESH, str(person.session.home_path), str(person.session.root_path)],
                          capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def _rewrite(path, data: bytes) -> None:
    """``path`` written as a pull or a sync writes it (a new file renamed over it), its mtime a second on."""
    import os

    before = path.stat().st_mtime_ns
    temp = path.with_name(path.name + ".pulled")
    temp.write_bytes(data)
    os.utime(temp, ns=(before + 10**9, before + 10**9))
    os.replace(temp, path)


def test_tombstones_changed_behind_memdirs_back_judge_only_the_files_they_name(person, tmp_path):
    """The tombstones rewritten by a pull (same bytes), lifted by a sync, put back by a sync: each time a fresh
    process parses db-port.md alone (the one file a tombstone names, or held back), never the other memories,
    and db-port is held back or not as the tombstones say; ci and the notes (controls) are seen throughout."""
    notes = [f"note-{i}" for i in range(6)]
    for i, name in enumerate(notes):
        person.write(name, f"Release train {i} leaves on day {i}", "project", scope="project")
    layer, backup = forgotten_after_a_backup(person, tmp_path)
    stones = layer.meta / "tombstones.json"
    with_stone = stones.read_bytes()
    shutil.copy(backup, layer.path / "db-port.md")  # put back by hand: held back
    settled = _fresh(person)
    assert FORGOTTEN not in settled["context"] and KEPT in settled["context"]
    everyone = sorted([*notes, "ci"])
    assert settled["listed"] == everyone and not settled["read"]

    _rewrite(stones, with_stone)  # a pull: the same tombstones, the mtime moved
    pulled = _fresh(person)
    assert pulled["parsed"] == ["db-port"]
    assert FORGOTTEN not in pulled["context"] and KEPT in pulled["context"]
    assert all(f"Release train {i} leaves" in pulled["context"] for i in range(6))
    assert pulled["listed"] == everyone and not pulled["read"]

    _rewrite(stones, b"[]")  # lifted behind memdir's back, no journal line: undone as a lift cut before its line
    cut = _fresh(person)  # (memdir.layer.drift.cut_tombstones): deleted facts stay deleted
    assert set(cut["parsed"]) == {"db-port"}
    assert FORGOTTEN not in cut["context"] and KEPT in cut["context"]
    assert cut["listed"] == everyone and not cut["read"]
    assert stones.read_bytes() != b"[]"

    [stone] = person.tombstones(scope="project").tombstones  # lifted as memdir lifts: db-port is a memory again
    person.lift_tombstone(stone.id, scope="project")
    lifted = _fresh(person)
    assert set(lifted["parsed"]) <= {"db-port"}
    assert FORGOTTEN in lifted["context"] and KEPT in lifted["context"]
    assert lifted["listed"] == sorted([*everyone, "db-port"]) and lifted["read"]

    _rewrite(stones, with_stone)  # forgotten again elsewhere and synced: held back again
    added = _fresh(person)
    assert set(added["parsed"]) == {"db-port"}
    assert FORGOTTEN not in added["context"] and KEPT in added["context"]
    assert added["listed"] == everyone and not added["read"]
    again = _fresh(person)  # the judgement recorded: the next process parses nothing
    assert again["parsed"] == [] and FORGOTTEN not in again["context"] and KEPT in again["context"]


def test_a_layer_that_scanned_judges_only_the_named_files_when_the_tombstones_move(person, tmp_path, monkeypatch):
    """In one process (an MCP server's): the tombstones put back by a sync (the forget's, which the journal
    names) after a lift, while a file was added by hand (the manifest no longer stands in: the scan runs over the
    layer's cached states) — the scan parses db-port.md (named) and the new file, no other; db-port is held back
    again, the notes, ci and the new file (controls) are listed."""
    from memdir.files import scan

    notes = [f"note-{i}" for i in range(6)]
    for i, name in enumerate(notes):
        person.write(name, f"Release train {i} leaves on day {i}", "project", scope="project")
    layer, backup = forgotten_after_a_backup(person, tmp_path)
    with_stone = (layer.meta / "tombstones.json").read_bytes()
    shutil.copy(backup, layer.path / "db-port.md")
    assert sorted(m.name for m in person.list("project").memories) == sorted([*notes, "ci"])
    [stone] = person.tombstones(scope="project").tombstones
    person.lift_tombstone(stone.id, scope="project")
    assert sorted(m.name for m in person.list("project").memories) == sorted([*notes, "ci", "db-port"])
    parsed = []
    real = scan.parse
    monkeypatch.setattr(scan, "parse", lambda text, name: parsed.append(name) or real(text, name))
    _rewrite(layer.meta / "tombstones.json", with_stone)
    (layer.path / "extra.md").write_text("---\nname: extra\ndescription: Added by hand\n---\nA body.\n")
    listed = sorted(m.name for m in person.list("project").memories)
    assert set(parsed) == {"db-port", "extra"}
    assert listed == sorted([*notes, "ci", "extra"])
    assert FORGOTTEN not in person.context() and KEPT in person.context()
