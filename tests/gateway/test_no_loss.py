"""Nothing on disk is lost (issue 10, item 1 and the earlier trial's a–e).

Every operation that replaces, deletes, prunes or restores over a file whose
bytes are not the journal's latest version of that name journals those bytes
first, so a version of them can be read back (``memdir history``). Each
test puts a person's file in the way, runs one path, and checks that its
exact bytes are on disk or in history — with a control that the operation
itself did what it says.
"""

from __future__ import annotations

import json
import os

import pytest

from memdir import Memory
from memdir.files.fsio import digest
from memdir.layer.history import history, version_bytes
from memdir.tools.handlers import run_tool
from tests.conftest import run_cli
from tests.llm_server import ChatServer

# Latin-1, not UTF-8: memdir cannot read it whatever vocabulary it learns.
FOREIGN = ("---\nname: research-notes\ntype: litnote\ntags:\n  - caf\xe9\n---\n"
           "Notes from the caf\xe9 meeting, written by hand.\n").encode("latin-1")
# Readable or not depending on the reader's vocabulary: a type of its own, tags, no description.
LITNOTE = b"---\ntype: litnote\ntags:\n  - reading\n  - ml\n---\nSummary of the attention paper, by hand.\n"


def kept(mem: Memory, scope: str, name: str, data: bytes) -> bool:
    """``data`` is on disk in the layer, or a version of ``name`` holds it."""
    layer = mem.session.layer(scope)
    on_disk = any(p.read_bytes() == data for p in layer.path.glob("*.md"))
    versions = history(layer, name)
    return on_disk or any(v.digest == digest(data) and version_bytes(layer, name, v.version) == data
                          for v in versions)


def place(mem: Memory, filename: str, data: bytes, scope: str = "project") -> None:
    layer = mem.session.layer(scope)
    layer.path.mkdir(parents=True, exist_ok=True)
    (layer.path / filename).write_bytes(data)


# ---------------------------------------------------------------- item 1: every path


@pytest.mark.slow
@pytest.mark.parametrize("data", [FOREIGN, LITNOTE], ids=["unreadable", "foreign-vocabulary"])
def test_cli_write_over_a_hand_written_file_keeps_its_bytes(mem, project, data):
    mem.write("seed", "a memory so the layer exists", "project")
    place(mem, "research-notes.md", data)
    out = run_cli("--project", project, "write", "research-notes", "-d", "ML reading notes", "--type", "reference")
    assert out.returncode == 0, out.stderr
    assert mem.read("research-notes", count=False).record.description == "ML reading notes"  # the write happened
    assert kept(mem, "project", "research-notes", data)
    if data is FOREIGN:  # replaced unread: it says where the old text went
        assert "was kept as a version first (its history lists it)" in out.stderr
    else:  # read leniently (foreign vocabulary): an update of that memory, its hand edit journaled first
        versions = history(mem.session.layer("project"), "research-notes")
        assert [v.action for v in versions][-2:] == ["external-edit", "update"]
        made = versions[-2].ts.split(".")[0].rstrip("Z") + "Z"  # the hand-written file, never read: said (layer.lasts)
        assert out.stdout == (f"Memory updated: research-notes (project)\nThis replaced an edit made outside memdir (by hand, or by git) at {made} that "
                              f"had not been read since; it is kept as version {versions[-2].version}: `memdir history "
                              "research-notes` lists it, `memdir restore research-notes --version "
                              f"{versions[-2].version}` brings it back.\n")


def test_agent_tool_write_over_an_unreadable_file_keeps_its_bytes(mem):
    mem.write("seed", "a memory so the layer exists", "project")
    place(mem, "research-notes.md", FOREIGN)
    output = run_tool(mem.session, "memory_write", {"name": "research-notes", "description": "ML reading notes",
                                                     "type": "reference", "body": "b"})
    assert not output.is_error, output.text
    assert mem.read("research-notes", count=False).record.description == "ML reading notes"
    assert kept(mem, "project", "research-notes", FOREIGN)


def test_consolidation_over_an_unreadable_file_keeps_its_bytes(isolated_home, project, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "test-key-123")
    with ChatServer() as server:
        mem = Memory.open(home=isolated_home, project=project, actor="human", llm_base_url=server.url,
                          llm_model="test-model", llm_timeout=10, consolidation_extractor="llm")
        mem.write("seed", "a memory so the layer exists", "project")
        place(mem, "research-notes.md", FOREIGN)
        server.replies.append(json.dumps({"proposals": [
            {"action": "create", "name": "research-notes", "type": "reference",
             "description": "The team reads ML papers on Fridays", "body": "Remember: Friday reading."}]}))
        report = mem.consolidate([{"role": "user", "content": "Remember that we read ML papers on Fridays."},
                                  {"role": "assistant", "content": "Noted."}])
    assert [o.result for o in report.outcomes] == ["created"]
    assert mem.read("research-notes", count=False).record.origin == "extracted"
    assert kept(mem, "project", "research-notes", FOREIGN)


def test_restore_over_an_unreadable_file_keeps_its_bytes(mem):
    mem.write("pm2", "Processes run under pm2", "project")
    mem.session.layer("project")  # the same layer object throughout
    mem.as_actor("human").delete("pm2")
    mem.as_actor("human").lift_tombstone(mem.tombstones().tombstones[0].id)
    place(mem, "pm2.md", FOREIGN)
    result = mem.as_actor("human").restore("pm2", 1)
    assert result.operation in ("created", "updated")
    assert mem.read("pm2", count=False).record.description == "Processes run under pm2"
    assert kept(mem, "project", "pm2", FOREIGN)


@pytest.mark.slow
def test_a_read_never_overwrites_a_malformed_file_beside_a_valid_one(mem, project):
    """Trial (a): a malformed ``db-port.md`` beside a valid ``DB_Port.md``."""
    valid = b"---\nname: db-port\ndescription: Dev DB on 5433\ntype: project\n---\nport 5433\n"
    mem.write("seed", "a memory so the layer exists", "project")
    place(mem, "db-port.md", FOREIGN)
    place(mem, "DB_Port.md", valid)
    out = run_cli("--project", project, "read", "db-port")
    assert out.returncode == 0 and "Dev DB on 5433" in out.stdout  # the valid file answers
    path = mem.session.layer("project").path
    assert (path / "db-port.md").read_bytes() == FOREIGN  # untouched by the read counter
    # A write to that name does replace it — after journaling its bytes.
    out = run_cli("--project", project, "write", "db-port", "-d", "Dev DB on 5434", "--type", "project")
    assert out.returncode == 0, out.stderr
    assert mem.read("db-port", count=False).record.description == "Dev DB on 5434"
    assert kept(mem, "project", "db-port", FOREIGN) and kept(mem, "project", "db-port", valid)


@pytest.mark.slow
def test_forget_removes_the_duplicate_instead_of_promoting_it(mem, project):
    """Trial (b): a second file holding the same name came back after forget."""
    first = b"---\nname: db-port\ndescription: Dev DB on 5433\ntype: project\n---\n"
    second = b"---\nname: DB_Port\ndescription: Dev DB listens on 5433 since May\ntype: project\n---\n"
    mem.write("seed", "a memory so the layer exists", "project")
    place(mem, "db-port.md", first)
    place(mem, "DB_Port.md", second)
    assert [m.name for m in mem.list().memories if m.name == "db-port"] == ["db-port"]  # control
    out = run_cli("--project", project, "forget", "db-port")
    assert out.returncode == 0, out.stderr
    assert "db-port" not in [m.name for m in mem.list().memories]
    assert "seed" in [m.name for m in mem.list().memories]
    assert kept(mem, "project", "db-port", first) and kept(mem, "project", "db-port", second)


@pytest.mark.parametrize("operation", ["prune", "clear"])
def test_prune_and_clear_take_duplicates_with_them_and_keep_their_bytes(mem, operation):
    old = b"---\nname: old-note\ndescription: Old build trick\ntype: project\nupdated: 2020-01-01T00:00:00Z\n---\n"
    dup = b"---\nname: Old_Note\ndescription: Old build trick, copied\ntype: project\nupdated: 2020-01-01T00:00:00Z\n---\n"
    mem.write("fresh", "A fresh memory", "project")
    place(mem, "old-note.md", old)
    place(mem, "Old_Note.md", dup)
    human = mem.as_actor("human")
    if operation == "prune":
        result = human.prune(30, dry_run=False)
        assert [c.name for c in result.candidates] == ["old-note"]
        assert [m.name for m in mem.list().memories] == ["fresh"]
    else:
        human.clear(confirm=True)
        assert [m.name for m in mem.list().memories] == []
    assert sorted(p.name for p in mem.session.layer("project").path.glob("*.md") if p.name != "MEMORY.md") == (
        ["fresh.md"] if operation == "prune" else [])
    assert kept(mem, "project", "old-note", old) and kept(mem, "project", "old-note", dup)


def test_approve_over_a_hand_edited_target_keeps_the_edit(mem):
    mem.as_actor("human").write("deploy", "Deploys run on Fridays", "project")
    mem.write("deploy", "Deploys run on Thursdays", "project", status="candidate")
    path = mem.session.layer("project").path / "deploy.md"
    edited = path.read_bytes().replace(b"Fridays", b"Mondays")
    path.write_bytes(edited)
    decision = mem.as_actor("human").approve("deploy-candidate")
    assert decision.name == "deploy"
    assert mem.read("deploy", count=False).record.description == "Deploys run on Thursdays"
    assert kept(mem, "project", "deploy", edited)


# ---------------------------------------------------------------- trial (c), (d), (e)


def test_a_same_size_same_mtime_hand_edit_is_seen_by_list_and_search(mem):
    mem.write("db-port", "Dev DB on port 5433", "project", "The dev database listens on 5433.")
    assert mem.list().memories[0].description == "Dev DB on port 5433"  # warm the caches
    assert [hit.name for hit in mem.search("5433")] == ["db-port"]
    path = mem.session.layer("project").path / "db-port.md"
    st = os.stat(path)
    path.write_bytes(path.read_bytes().replace(b"5433", b"6543"))
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))  # size and mtime as before
    assert os.stat(path).st_size == st.st_size and os.stat(path).st_mtime_ns == st.st_mtime_ns
    assert mem.list().memories[0].description == "Dev DB on port 6543"
    assert [hit.name for hit in mem.search("6543")] == ["db-port"]
    assert mem.search("5433") == []


@pytest.mark.slow
def test_a_candidate_write_leaves_the_live_memory_and_reject_keeps_it(mem, project):
    """Trial (d): ``write --candidate`` on an existing memory hid it, and reject deleted it."""
    mem.as_actor("human").write("deploy", "Deploys run on Fridays", "project")
    out = run_cli("--project", project, "write", "deploy", "-d", "Deploys run on Thursdays", "-t", "project", "--candidate")
    assert out.returncode == 0, out.stderr
    assert "deploy-candidate" in out.stdout + out.stderr
    listed = {m.name: (m.status, m.description) for m in mem.list(include_all=True).memories}
    assert listed["deploy"] == ("active", "Deploys run on Fridays")
    assert listed["deploy-candidate"] == ("candidate", "Deploys run on Thursdays")
    assert "Deploys run on Fridays" in mem.context()
    out = run_cli("--project", project, "reject", "deploy-candidate")
    assert out.returncode == 0, out.stderr
    listed = {m.name: m.status for m in mem.list(include_all=True).memories}
    assert listed == {"deploy": "active"}


def test_unpin_and_unmute_are_journaled_as_such(mem):
    mem.write("db-port", "Dev DB on port 5433", "project")
    for call in (lambda: mem.pin("db-port"), lambda: mem.pin("db-port", False),
                 lambda: mem.mute("db-port"), lambda: mem.mute("db-port", False)):
        call()
    actions = [e.action for e in mem.session.layer("project").journal.events()]
    assert actions[-4:] == ["pin", "unpin", "mute", "unmute"]
    assert [v.action for v in history(mem.session.layer("project"), "db-port")][-4:] == ["pin", "unpin", "mute", "unmute"]
