"""``memdir export`` (issue 25): plain files out, and back in — an export imported into an empty
home gives the same memories, their text byte for byte, in each format."""

from __future__ import annotations

import json

import pytest

from memdir import InvalidInput, Memory
from tests.conftest import run_cli

LONG = "\n\n".join(f"Paragraph {n}: the deploy pipeline runs lint, tests and a canary — ünïcödé, 中文, emoji 🚀."
                   for n in range(80))  # about 7 KB: past what a model may write, kept whole for a person


def fill(person: Memory) -> None:
    person.write("db-port", "Dev PostgreSQL listens on 5433, not 5432", "project",
                 body="Moved on 2026-11-02. See [[deploy-pipeline]].\n\n- a list\n- of items")
    person.write("deploy-pipeline", "How the deploy pipeline runs", "project", body=LONG, title="Deploy: pipeline")
    person.write("prefers-tabs", "The person prefers tabs to spaces", "user", body="**Why:** habit.")
    person.write("old-fact", "Staging is on staging-3", "project")
    person.write("new-fact", "Staging is on staging-7", "project", supersedes="old-fact")
    person.write("muted-one", "A muted memory", "project")
    person.mute("muted-one")
    mem = Memory.open(home=person.session.home, project=person.session.project_root)  # the agent
    mem.write("db-port", "Dev PostgreSQL listens on 6000", "project", status="candidate")


def texts(memory: Memory) -> dict:
    """Every live memory's text, by scope and name."""
    return {(m.scope, m.name): (r.description, r.type, r.body, r.title)
            for m in memory.list(include_all=True).memories
            for r in [memory.read(m.name, m.scope, count=False).record] if r.status == "active"}


@pytest.mark.slow
@pytest.mark.parametrize("fmt", ["memdir", "claude-code", "jsonl"])
def test_an_export_imported_into_an_empty_home_gives_the_same_memories(tmp_path, project, person, fmt):
    fill(person)
    before = texts(person)
    assert set(before) == {("project", "db-port"), ("project", "deploy-pipeline"), ("user", "prefers-tabs"),
                           ("project", "new-fact"), ("project", "muted-one")}
    out = tmp_path / "out"
    report = person.export(str(out), format=fmt)
    assert sorted(report.exported) == sorted(f"{s}:{n}" for s, n in before)
    assert dict(report.left) == {"project:db-port-candidate": "a candidate waiting for review (memdir review)",
                                 "project:old-fact": "superseded (its successor is exported)"}
    other = Memory.open(home=tmp_path / "empty-home", project=project, actor="human")
    if fmt == "jsonl":
        assert other.import_from("jsonl", str(out / "memories.jsonl")).count("imported") == 5
    else:
        for scope in ("user", "project"):
            assert other.import_from("dir", str(out / scope), scope=scope).nothing() is None
    assert texts(other) == before  # byte for byte in their text
    assert other.read("deploy-pipeline", count=False).record.body == LONG
    if fmt == "claude-code":
        index = (out / "project" / "MEMORY.md").read_text(encoding="utf-8").splitlines()
        assert "- [Deploy: pipeline](deploy-pipeline.md) — How the deploy pipeline runs" in index
        assert len(index) == 4 and not (out / "project" / "old-fact.md").exists()
        assert (out / "project" / "db-port.md").read_text(encoding="utf-8").startswith(
            "---\nname: db-port\ndescription: Dev PostgreSQL listens on 5433, not 5432\ntype: project\n")
    if fmt == "memdir":  # memdir's own files, as they are
        assert (out / "project" / "db-port.md").read_bytes() == (
            person.session.layer("project").path / "db-port.md").read_bytes()


@pytest.mark.slow
def test_with_history_every_version_is_exported(tmp_path, project, person):
    person.write("db-port", "Dev PostgreSQL listens on 5432", "project")
    person.write("db-port", "Dev PostgreSQL listens on 5433", "project")
    person.write("gone", "A memory deleted later", "project")
    person.delete("gone")
    report = person.export(str(tmp_path / "folder"), scope="project", with_history=True)
    history = tmp_path / "folder" / "project" / ".history"
    assert sorted(p.relative_to(history).as_posix() for p in history.rglob("*.md")) == [
        "db-port/v1.md", "db-port/v2.md", "gone/v1.md"]
    assert "listens on 5432" in (history / "db-port" / "v1.md").read_text(encoding="utf-8")
    assert report.versions == 3 and report.exported == ("project:db-port",)
    person.export(str(tmp_path / "lines"), scope="project", format="jsonl", with_history=True)
    lines = [json.loads(line) for line in (tmp_path / "lines" / "memories.jsonl").read_text().splitlines()]
    assert [(x["name"], x["live"], [v["version"] for v in x["history"]]) for x in lines] == [
        ("db-port", True, [1, 2]), ("gone", False, [1])]
    assert "5432" in lines[0]["history"][0]["text"] and lines[0]["description"] == "Dev PostgreSQL listens on 5433"
    # control: without --with-history no past version is written
    plain = person.export(str(tmp_path / "plain"), scope="project")
    assert plain.versions == 0 and not (tmp_path / "plain" / "project" / ".history").exists()


def test_export_refuses_a_directory_that_is_not_empty(tmp_path, project, person):
    person.write("a", "A fact", "project")
    full = tmp_path / "full"
    full.mkdir()
    (full / "keep.txt").write_text("mine")
    with pytest.raises(InvalidInput, match="not an empty directory"):
        person.export(str(full))
    assert (full / "keep.txt").read_text() == "mine" and len(list(full.iterdir())) == 1
    assert person.export(str(tmp_path / "new")).exported == ("project:a",)  # control


@pytest.mark.slow
def test_export_on_the_command_line(tmp_path, project):
    assert run_cli("--project", project, "write", "a", "-d", "A fact", "-t", "project").returncode == 0
    out = run_cli("--project", project, "export", tmp_path / "x", "--format", "claude-code")
    assert out.returncode == 0 and out.stdout.startswith("Exported 1 memory as claude-code into ")
    assert (tmp_path / "x" / "project" / "MEMORY.md").read_text() == "- [a](a.md) — A fact\n"


@pytest.mark.slow
@pytest.mark.parametrize("fmt", ["memdir", "jsonl"])
def test_an_export_keeps_its_times_flags_and_origin_when_imported(tmp_path, project, person, fmt):
    """memdir's own formats come back with their created/updated times, pin, importance and valid times;
    the import is the new origin (provenance) and the source's origin is kept as original_origin. The
    control: Claude Code's format carries none of these, so they are the import's own."""
    import time

    person.write("db-port", "Dev PostgreSQL listens on 5433", "project", "Moved.", importance=9, pinned=True,
                 valid_from="2026-01-01T00:00:00Z", valid_until="2036-01-01T00:00:00Z")
    time.sleep(1.1)
    person.write("db-port", body="Moved again.")  # updated differs from created
    source = person.read("db-port", count=False).record
    assert source.updated > source.created
    time.sleep(1.1)
    person.export(str(tmp_path / fmt), format=fmt)
    person.export(str(tmp_path / "cc"), format="claude-code")
    kept, plain = (Memory.open(home=tmp_path / f"home-{n}", project=project, actor="human") for n in (fmt, "cc"))
    if fmt == "jsonl":
        kept.import_from("jsonl", str(tmp_path / fmt / "memories.jsonl"))
    else:
        kept.import_from("dir", str(tmp_path / fmt / "project"), scope="project")
    plain.import_from("dir", str(tmp_path / "cc" / "project"), scope="project")
    got = kept.read("db-port", count=False).record
    fields = ("created", "updated", "pinned", "importance", "valid_from", "valid_until")
    assert [getattr(got, f) for f in fields] == [getattr(source, f) for f in fields]
    assert (got.origin, dict(got.extra)["original_origin"]) == ("import", "human")
    other = plain.read("db-port", count=False).record  # control
    assert (other.pinned, other.importance, other.valid_from) == (False, None, None)
    assert other.created > source.updated and "original_origin" not in dict(other.extra)
    # A second import changes nothing (idempotent), times included.
    again = kept.import_from("jsonl", str(tmp_path / fmt / "memories.jsonl")) if fmt == "jsonl" else \
        kept.import_from("dir", str(tmp_path / fmt / "project"), scope="project")
    assert again.count("unchanged") == 1 and kept.read("db-port", count=False).record.updated == source.updated
def test_a_malformed_file_is_left_out_and_reported_and_the_rest_exported(tmp_path, project, person):
    person.write("good", "A readable fact", "project")
    person.write("other", "Another readable fact", "user")
    layer = person.session.layer("project").path
    (layer / "broken.md").write_bytes(b"\xff\xfe not text")
    for fmt in ("memdir", "claude-code", "jsonl"):
        report = person.export(str(tmp_path / fmt), format=fmt)
        assert report.exported == ("user:other", "project:good")  # control: the rest is exported
        [(path, why)] = report.left
        assert path == str(layer / "broken.md") and why
    assert sorted(p.name for p in (tmp_path / "memdir" / "project").iterdir()) == ["good.md"]
    cli = run_cli("--project", project, "export", tmp_path / "cli")
    assert cli.returncode == 0 and "Traceback" not in cli.stderr and "broken.md" in cli.stdout + cli.stderr


def test_a_crash_during_an_export_leaves_no_partial_export(tmp_path, project, person, monkeypatch):
    from memdir.importing import export as exporting

    person.write("a", "A fact", "project")
    person.write("b", "B fact", "project")
    calls = []

    def failing(record):
        calls.append(record.name)
        if len(calls) == 2:
            raise RuntimeError("disk gone")
        return "x"

    monkeypatch.setattr(exporting, "_claude_code", failing)
    empty = tmp_path / "out"
    empty.mkdir()
    with pytest.raises(RuntimeError, match="disk gone"):
        person.export(str(empty), format="claude-code")
    assert calls == ["a", "b"] and list(empty.iterdir()) == []
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".out")] == []  # no staging left either
    monkeypatch.undo()
    assert person.export(str(empty), format="claude-code").exported == ("project:a", "project:b")  # control
    assert (empty / "project" / "a.md").is_file()
