"""Files other people and tools wrote, and names that collide (issue 10,
items 2, 14, 15, 16): nothing is overwritten by a look-alike name, foreign
vocabulary is read and kept byte for byte, ``.md`` names the same memory, a
superseded memory is not silently written."""

from __future__ import annotations

import json
import shutil

import pytest

from memdir import Conflict, NotFound, Refused
from memdir.render import memories as render
from tests.conftest import DATA, run_cli
from tests.scripted import Scripted


def _cli(project, *args):
    return run_cli("--project", project, *args)


def _hand_written(mem, stem: str, text: str):
    path = mem.session.layer("project").path
    path.mkdir(parents=True, exist_ok=True)
    (path / f"{stem}.md").write_text(text, encoding="utf-8")
    return path / f"{stem}.md"


# ---------------------------------------------------------------- 2. names that normalize alike


def test_a_different_name_normalizing_to_the_same_file_is_refused(mem):
    first = mem.write("C++ tips", "Prefer std::vector over raw arrays", "project")
    assert (first.name, first.operation) == ("c-tips", "created")
    assert mem.read("c-tips", count=False).record.title == "C++ tips"
    with pytest.raises(Conflict) as refused:
        mem.write("C# tips", "Use records for DTOs", "project")
    assert str(refused.value) == (
        "'C# tips' normalizes to 'c-tips', the file of the existing memory 'C++ tips' (c-tips), which is another "
        "name: choose a distinct name such as 'c-sharp-tips' (or write 'c-tips' to update the existing memory)")
    assert mem.read("c-tips", count=False).record.description == "Prefer std::vector over raw arrays"
    # The same raw name, the same spelling, or the normalized name itself update.
    assert mem.write("C++ tips", "Prefer std::array for fixed sizes", "project").operation == "updated"
    assert mem.write("c++ Tips", "Prefer spans", "project").operation == "updated"
    assert mem.write("c-tips", "Prefer ranges", "project").operation == "updated"
    assert mem.read("c-tips", count=False).record.title == "C++ tips"  # an update keeps the title
    second = mem.write("c-sharp-tips", "Use records for DTOs", "project")
    assert (second.name, second.operation) == ("c-sharp-tips", "created")


@pytest.mark.slow
def test_the_refusal_holds_on_the_cli_and_the_mcp_tool(mem, project):
    assert _cli(project, "write", "C++ tips", "-d", "Prefer std::vector", "-t", "project").returncode == 0
    out = _cli(project, "write", "C# tips", "-d", "Use records", "-t", "project")
    assert out.returncode == 1 and "choose a distinct name such as 'c-sharp-tips'" in out.stderr
    tool = mem.call_tool("memory_write", {"name": "C# tips", "description": "Use records", "type": "project",
                                          "body": ""})
    assert "existing memory 'C++ tips' (c-tips)" in tool
    assert mem.read("c-tips", count=False).record.description == "Prefer std::vector"


# ---------------------------------------------------------------- 15. a trailing .md


@pytest.mark.parametrize("spelled", ["my-rules.md", "MY-RULES.MD", "my-rules.Md"])
def test_a_trailing_md_names_the_same_memory_on_every_path(mem, spelled):
    assert mem.write("my-rules", "Run tests before pushing", "project").operation == "created"
    assert mem.call_tool("memory_read", {"name": spelled}).startswith("name: my-rules\n")
    out = mem.call_tool("memory_write", {"name": spelled, "description": "Run the linter too", "type": "project",
                                         "body": ""})
    assert out.splitlines()[0] == "Memory updated: my-rules (project)"
    assert mem.read("my-rules", count=False).record.title is None  # case alone is no title
    assert [m.name for m in mem.list().memories] == ["my-rules"]  # no my-rules-md
    assert mem.history(spelled).name == "my-rules"
    assert mem.delete(spelled).name == "my-rules"


# ---------------------------------------------------------------- 16. superseded memories


@pytest.mark.slow
def test_writing_a_superseded_memory_is_refused_or_reactivated(mem, project):
    mem.write("db-port", "Dev DB on 5432", "project")
    mem.write("db-port-v2", "Dev DB on 5433", "project", supersedes="db-port")
    with pytest.raises(Refused, match="'db-port' was superseded by 'db-port-v2': write to 'db-port-v2' instead"):
        mem.write("db-port", "Dev DB on 5432 again", "project")
    assert mem.read("db-port", count=False).record.status == "superseded"
    out = mem.call_tool("memory_write", {"name": "db-port", "description": "x", "type": "project", "body": ""})
    assert "superseded by 'db-port-v2'" in out
    cli = _cli(project, "write", "db-port", "-d", "Dev DB back on 5432", "-t", "project", "--reactivate")
    assert cli.returncode == 0 and cli.stdout.strip() == "Memory reactivated: db-port (project)"
    record = mem.read("db-port", count=False).record
    assert (record.status, record.superseded_by, record.valid_until) == ("active", None, None)
    assert "- [db-port](db-port.md) — Dev DB back on 5432" in mem.context()
    events = [json.loads(line) for line in (mem.session.layer("project").meta / "journal.jsonl").read_text().splitlines()]
    assert [e["action"] for e in events if e["name"] == "db-port"][-1] == "reactivate"


# ---------------------------------------------------------------- 14. foreign vocabulary


RESEARCH = """---
title: Research notes
type: litnote
status: draft
tags:
  - ml
  - "retrieval"   # kept as written
source: {url: "https://example.org/paper", year: 2024}
---
Notes on dense retrieval papers.
"""


@pytest.mark.slow
def test_a_foreign_file_is_read_and_its_unknown_keys_survive_a_rewrite(mem, project):
    path = _hand_written(mem, "research-notes", RESEARCH)
    listed = mem.list()
    assert listed.malformed == ()
    info = listed.memories[0]
    assert (info.name, info.type, info.status, info.description, info.title) == (
        "research-notes", "litnote", "active", "Research notes", "Research notes")
    assert "- [Research notes](research-notes.md) — Research notes" in mem.context()
    doctor = _cli(project, "doctor")
    assert doctor.returncode == 0, doctor.stdout
    lines = doctor.stdout.splitlines()
    assert f"  note: {path}: type 'litnote' is not one of user, feedback, project, reference: kept, " \
           "ordered as reference" in lines
    assert f"  note: {path}: status 'draft' is not one of active, candidate, superseded: kept, read as active" \
           in lines
    assert f"  note: {path}: no description: the title stands in" in lines
    assert lines[-1] == "ok (3 notes: files read leniently, not problems)"
    mem.as_actor("human").pin("research-notes")  # a rewrite by memdir
    text = path.read_text(encoding="utf-8")
    assert "pinned: true" in text and "status: draft\n" in text and "type: litnote\n" in text
    assert 'tags:\n  - ml\n  - "retrieval"   # kept as written\n' in text
    assert 'source: {url: "https://example.org/paper", year: 2024}\n' in text


def test_nested_metadata_type_and_a_first_line_description(mem):
    _hand_written(mem, "nested", "---\nname: nested\nmetadata:\n  type: feedback\n  status: archived\n---\n"
                                 "\n# Always squash merge\nbody\n")
    record = mem.read("nested", count=False).record
    assert (record.type, record.status, record.written_status, record.description) == (
        "feedback", "active", "archived", "Always squash merge")


SOURCE = DATA / "claude-code-memory"


@pytest.mark.skipif(not SOURCE.is_dir(), reason=f"{SOURCE} is absent (shared data not laid out)")
def test_real_files_keep_their_unknown_keys_byte_for_byte(mem):
    real = SOURCE / "1000ssam__claude-config" / "memory__reference_notion-formula-api-relation.md"
    layer = mem.session.layer("project").path
    layer.mkdir(parents=True)
    shutil.copy(real, layer / "reference_notion-formula-api-relation.md")
    original = real.read_text(encoding="utf-8")
    block = original[original.index("metadata:"):original.index("---", 4)]
    assert "originSessionId" in block
    mem.as_actor("human").mute("reference-notion-formula-api-relation")
    rewritten = (layer / "reference-notion-formula-api-relation.md").read_text(encoding="utf-8")
    assert block in rewritten and "disabled: true" in rewritten


# ---------------------------------------------------------------- name ≠ file stem


def test_a_declared_name_shown_in_the_index_is_readable_by_it(mem):
    _hand_written(mem, "feedback_x", "---\nname: Squash merges only\ndescription: never merge commits\n---\n")
    index_line = [line for line in mem.context().splitlines() if "Squash" in line]
    # the link is the file that is there (odd31): feedback_x.md, not feedback-x.md (no such file)
    assert index_line == ["- [Squash merges only](feedback_x.md) — never merge commits"]
    assert mem.read("feedback_x.md", count=False).record.name == "feedback-x"  # the link reads it too
    assert render.memory_line(mem.list().memories[0]) == "- feedback-x (type: feedback; layer: project) — never merge commits"
    assert mem.read("Squash merges only", count=False).record.name == "feedback-x"
    assert mem.read("feedback-x.md", count=False).record.title == "Squash merges only"


@pytest.mark.slow
def test_a_file_renamed_by_hand_is_the_memory_of_its_file_name_on_every_path(mem, person):
    person.write("pg-port", "Dev PostgreSQL listens on 5433", "project", "Moved from 5432 in November.")
    person.write("staging", "Staging lives at staging.internal", "project", "The staging host.")
    layer = mem.session.layer("project").path
    (layer / "pg-port.md").rename(layer / "db-port.md")  # by hand: its frontmatter still says name: pg-port
    assert "name: pg-port\n" in (layer / "db-port.md").read_text(encoding="utf-8")
    read = mem.read("db-port", count=False)
    assert (read.record.name, read.record.title, read.record.description) == (
        "db-port", None, "Dev PostgreSQL listens on 5433")  # the file name is its name; the old one no title
    assert "title:" not in render.read(read)
    listed = {m.name: m.title for m in mem.list().memories}
    assert listed == {"db-port": None, "staging": None}
    hits = mem.search("postgresql 5433")
    assert [(h.name, h.title) for h in hits][:1] == [("db-port", None)]
    lines = mem.context().splitlines()
    assert "- [db-port](db-port.md) — Dev PostgreSQL listens on 5433" in lines
    assert "- [staging](staging.md) — Staging lives at staging.internal" in lines  # control
    assert not any("[pg-port]" in line for line in lines)
    with pytest.raises(NotFound):
        mem.read("pg-port", count=False)
    layer_status = next(layer for layer in mem.doctor().status.layers if layer.scope == "project")
    assert [(n.path.rsplit("/", 1)[1], n.note) for n in layer_status.notes] == [
        ("db-port.md", "frontmatter name 'pg-port' is not the file's name: read as 'db-port' (the file name)")]
    mem.as_actor("human").pin("db-port")  # a rewrite by memdir writes the file's name
    assert "name: db-port\n" in (layer / "db-port.md").read_text(encoding="utf-8")


@pytest.mark.slow
def test_a_file_without_description_is_readable(mem, project):
    _hand_written(mem, "bare", "---\ntype: project\n---\nThe staging box is staging-2.\n")
    out = _cli(project, "read", "bare")
    assert out.returncode == 0 and "description: The staging box is staging-2." in out.stdout


# ---------------------------------------------------------------- consolidation asks the same rules


def test_consolidation_neither_overwrites_a_look_alike_nor_writes_a_superseded_memory(mem):
    from memdir.consolidation.proposals import Proposal

    own = mem.as_actor("extracted")  # consolidation revises its own memories directly
    own.write("C++ tips", "Prefer std::vector over raw arrays", "project")
    own.write("db-port", "Dev DB on 5432", "project")
    own.write("db-port-v2", "Dev DB on 5433", "project", supersedes="db-port")
    extractor = Scripted(
        Proposal("create", name="C# tips", description="Use records for DTOs", type="project"),
        Proposal("update", target="db-port", description="Dev DB on 5434", type="project"),
        Proposal("create", name="c++ tips", description="Prefer std::span for views", type="project"),
    )
    report = mem.consolidate([{"role": "user", "content": "Remember these tips."}], extractor=extractor,
                             mode="always")
    assert [o.result for o in report.outcomes] == ["refused", "refused", "updated"]
    assert "such as 'c-sharp-tips'" in report.outcomes[0].detail
    assert "superseded by 'db-port-v2'" in report.outcomes[1].detail
    assert mem.read("c-tips", count=False).record.description == "Prefer std::span for views"
    assert mem.read("db-port", count=False).record.description == "Dev DB on 5432"
