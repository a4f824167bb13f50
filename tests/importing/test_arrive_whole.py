"""Issue 25: imports arrive whole and idempotently (no silent cut, real folders, lenient graphs,
claude-mem), and issue 24 §3: re-importing an unchanged source keeps a person's edit."""

from __future__ import annotations

import hashlib
import json
import sqlite3
import subprocess

import pytest

from memdir import Memory
from tests.conftest import run_cli
from tests.importing.claude_mem_db import build

PARAGRAPH = ("The billing service retries failed charges three times with exponential backoff, then parks the "
             "invoice for a person; the retry queue lives in Redis and is drained by the nightly job. ")


def results(report):
    return {o.source: (o.result, o.name) for o in report.outcomes}


def long_note() -> tuple[str, str]:
    """A basic-memory note of about 10 KB: paragraphs, then its observations and relations."""
    body = "# Billing Retries\n\n" + "\n\n".join(PARAGRAPH * 3 for _ in range(18))
    body += ("\n\n## Observations\n- [decision] Retries use exponential backoff #billing #reliability\n"
             "- [fact] The retry queue lives in Redis #infra\n\n## Relations\n- implements [[Payment Policy]]\n"
             "- depends_on [[Redis Setup|the Redis notes]]\n- mentions [[Nowhere Note]]")
    return ("---\ntitle: Billing Retries\ntype: note\npermalink: specs/billing-retries\ntags: [billing]\n---\n"
            + body + "\n"), body


@pytest.mark.slow
def test_a_10kb_basic_memory_note_arrives_whole_with_its_structure(tmp_path, project, person, mem):
    """before: cut at 2,000 characters mid-word, observations and relations gone, no warning."""
    bm = tmp_path / "bm"
    (bm / "specs").mkdir(parents=True)
    text, body = long_note()
    assert len(text.encode()) > 10_000
    (bm / "specs" / "billing.md").write_text(text)
    (bm / "specs" / "policy.md").write_text("---\ntitle: Payment Policy\ntype: note\n---\nCharge on the 1st.\n")
    (bm / "redis.md").write_text("---\ntitle: Redis Setup\npermalink: redis-setup\n---\nRedis 7 on port 6380.\n")
    report = person.import_from("basic-memory", str(bm))
    assert results(report)["specs/billing.md"] == ("imported", "billing-retries")
    assert [o.kept for o in report.outcomes] == ["whole", "whole", "whole"] and report.nothing() is None
    stored = person.read("billing-retries", count=False).record.body
    resolved = (body.replace("[[Payment Policy]]", "[[policy]]")  # by its title
                .replace("[[Redis Setup|the Redis notes]]", "[[redis-setup|the Redis notes]]"))
    assert stored == resolved  # every word, the observations as a list with categories and tags
    assert "- [fact] The retry queue lives in Redis #infra" in stored
    assert "- mentions [[Nowhere Note]]" in stored  # a link naming nothing stays as written
    assert person.read("billing-retries").linked[0].name == "policy"
    assert {o.result for o in person.import_from("basic-memory", str(bm)).outcomes} == {"unchanged"}
    # control: what a model writes is still bounded, and says so
    assert mem.write("agent-note", "d", "project", body).warnings == (f"body cut from {len(body)} to 2000 characters",)


def test_an_item_over_the_file_ceiling_is_cut_to_fit_and_the_report_says_so(tmp_path, isolated_home, project):
    person = Memory.open(home=isolated_home, project=project, actor="human", max_file_bytes=16 * 1024)
    notes = tmp_path / "notes"
    notes.mkdir()
    (notes / "huge.md").write_text("---\ndescription: A long runbook\n---\n" + "word " * 3200)  # 16,037 bytes
    (notes / "small.md").write_text("---\ndescription: A short one\n---\nShort.\n")
    report = person.import_from("dir", str(notes))
    huge, small = report.outcomes
    assert (huge.result, huge.kept, small.kept) == ("imported", "cut", "whole")
    assert huge.cut.startswith("body cut from 15999 to ") and "16384-byte ceiling of a memory file" in huge.cut
    assert huge.cut in huge.detail and small.cut == ""
    body = person.read("huge", count=False).record.body
    assert ("word " * 3200).strip().startswith(body) and 15_000 < len(body) < 15_999
    from memdir.render.team import import_report
    assert "huge (project)  ← huge.md [cut]" in import_report(report)
    assert "(kept whole: 1, cut: 1)" in import_report(report)


def graph_lines() -> list[dict]:
    return [{"type": "entity", "name": "Alice_Chen", "entityType": "person", "observations": ["Leads the API team"]},
            {"type": "entity", "name": "Billing API", "entityType": "service", "observations": ["Written in Go"]},
            {"type": "relation", "from": "Alice_Chen", "to": "Billing API", "relationType": "owns"}]


@pytest.mark.parametrize("shape", ["bom-crlf-jsonl", "array", "object"])
def test_an_mcp_memory_graph_imports_whole_in_every_shape(tmp_path, project, person, shape):
    """before: a BOM made line 1 "not JSON"; an array gave 0 imported, 25 skipped and exit 0."""
    graph = tmp_path / "memory.json"
    if shape == "bom-crlf-jsonl":
        graph.write_bytes(b"\xef\xbb\xbf" + b"\r\n\r\n".join(json.dumps(x).encode() for x in graph_lines()) + b"\r\n")
    elif shape == "array":
        graph.write_text(json.dumps(graph_lines(), indent=2))
    else:
        graph.write_text(json.dumps({"entities": [{k: v for k, v in x.items() if k != "type"}
                                                  for x in graph_lines()[:2]],
                                     "relations": [{k: v for k, v in graph_lines()[2].items() if k != "type"}]}))
    report = person.import_from("mcp-memory", str(graph))
    assert sorted((o.name, o.result) for o in report.outcomes) == [("alice-chen", "imported"),
                                                                    ("billing-api", "imported")]
    assert person.read("alice-chen", count=False).record.body == "- Leads the API team\n\n- owns [[billing-api]]"
    assert {o.result for o in person.import_from("mcp-memory", str(graph)).outcomes} == {"unchanged"}


@pytest.mark.slow
def test_an_import_that_brings_nothing_exits_non_zero_and_says_why(tmp_path, project):
    junk = tmp_path / "junk.json"
    junk.write_text(json.dumps([{"kind": "note"}, 3, "text"]))
    out = run_cli("--project", project, "import", "mcp-memory", junk)
    assert out.returncode == 1
    assert "nothing imported: all 3 items found in" in out.stdout and "neither an entity nor a relation" in out.stdout
    empty = tmp_path / "empty"
    empty.mkdir()
    out = run_cli("--project", project, "import", "dir", empty)
    assert out.returncode == 1 and "nothing imported: no memory found in" in out.stdout
    good = tmp_path / "good.json"  # control
    good.write_text(json.dumps(graph_lines()))
    assert run_cli("--project", project, "import", "mcp-memory", good).returncode == 0
    again = run_cli("--project", project, "import", "mcp-memory", good)  # unchanged is not nothing
    assert again.returncode == 0 and "2 unchanged" in again.stdout
    # trial35: --help said "exits 1 when nothing was imported", which a rerun (nothing imported, all unchanged) is not
    said = " ".join(run_cli("import", "--help").stdout.split())
    assert ("exits 1 when the source holds no memory or every item was skipped (a rerun that finds them all "
            "unchanged exits 0)") in said and "when nothing was imported" not in said


def git(where, *args):
    subprocess.run(["git", "-C", str(where), *args], check=True, capture_output=True)


@pytest.mark.slow
def test_import_dir_of_a_repository_skips_dependencies_builds_ignored_and_linked_folders(tmp_path, project, person):
    """before: the READMEs of node_modules/, target/ and dist/ became memories (basic-memory #287)."""
    repo = tmp_path / "repo"
    for folder in ("docs/memory", "node_modules/left-pad", "target/doc", "dist", ".venv/lib", "generated/api",
                   "drafts"):
        (repo / folder).mkdir(parents=True)
        (repo / folder / "README.md").write_text(f"---\ndescription: The {folder} readme\n---\n")
    (repo / "docs" / "memory" / "deploy.md").write_text("---\ndescription: Deploy with make ship\n---\n")
    (repo / "docs" / "memory" / "scratch.tmp.md").write_text("---\ndescription: Scratch notes\n---\n")
    (repo / ".gitignore").write_text("generated/\n*.tmp.md\n")
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.md").write_text("---\ndescription: Outside the repository\n---\n")
    (repo / "linked").symlink_to(outside, target_is_directory=True)
    git(repo, "init", "-q")
    report = person.import_from("dir", str(repo), exclude=("drafts",))
    assert sorted(o.name for o in report.outcomes if o.result == "imported") == ["deploy", "readme"]
    assert results(report)["docs/memory/README.md"] == ("imported", "readme")
    left = {o.source: o.detail for o in report.outcomes if o.result == "skipped"}
    assert left == {".venv/": "a hidden folder", "dist/": "a dependency or build folder",
                    "node_modules/": "a dependency or build folder", "target/": "a dependency or build folder",
                    "generated/": "ignored by git", "docs/memory/scratch.tmp.md": "ignored by git",
                    "linked/": "a linked folder (symbolic link), not followed", "drafts/": "excluded by --exclude"}
    only = person.import_from("dir", str(repo), include=("deploy.md",))
    assert [(o.source, o.result) for o in only.outcomes if o.result != "skipped"] == [
        ("docs/memory/deploy.md", "unchanged")]
    assert results(only)["docs/memory/README.md"] == ("skipped", None)  # not named by --include
    cli = run_cli("--project", project, "import", "dir", repo, "--exclude", "docs", "--exclude", "drafts",
                  "--dry-run")
    assert cli.returncode == 1 and "excluded by --exclude" in cli.stdout  # nothing left to import: said so


def test_reimporting_an_unchanged_source_keeps_a_person_edit(tmp_path, project, person):
    """Issue 24 §3. before: the re-import proposed a candidate holding the source's text, which approving
    would have put back over the person's edit."""
    source = tmp_path / "src"
    source.mkdir()
    (source / "ports.md").write_text("---\ndescription: Dev database port is 5432\n---\nSet in docker-compose.\n")
    assert results(person.import_from("dir", str(source))) == {"ports.md": ("imported", "ports")}
    person.write("ports", "Dev database port is 5433", "project", body="Moved in November.")
    again = person.import_from("dir", str(source))
    assert results(again) == {"ports.md": ("unchanged", "ports")}
    assert "as it was when last imported" in again.outcomes[0].detail
    kept = person.read("ports", count=False).record
    assert (kept.description, kept.body) == ("Dev database port is 5433", "Moved in November.")
    assert person.review().candidates == ()
    # control: a source that did change is proposed, never written over the edit
    (source / "ports.md").write_text("---\ndescription: Dev database port is 6543\n---\n")
    assert results(person.import_from("dir", str(source))) == {"ports.md": ("candidate", "ports-import")}
    assert person.read("ports", count=False).record.description == "Dev database port is 5433"


@pytest.mark.slow
def test_claude_mem_database_imports_durable_kinds_per_project_read_only_and_idempotently(tmp_path, isolated_home,
                                                                                          project):
    db = tmp_path / "claude-mem.db"
    counts = build(db, project.name, observations=300)
    before = hashlib.sha256(db.read_bytes()).hexdigest()
    worker = sqlite3.connect(db)  # claude-mem's worker holds the database open meanwhile (WAL)
    worker.execute("SELECT count(*) FROM observations").fetchone()
    person = Memory.open(home=isolated_home, project=project, actor="human")
    report = person.import_from("claude-mem", str(db))
    worker.close()
    durable = counts[(project.name, "decision")] + counts[(project.name, "discovery")]
    assert (report.count("imported"), report.count("candidate")) == (durable + 2, 5)  # + 2 directives, 5 lessons
    skipped = {o.source: o.detail for o in report.outcomes if o.result == "skipped"}
    assert skipped == {
        "50 bugfix observations": "a record of work done, not lasting knowledge",
        "50 feature observations": "a record of work done, not lasting knowledge",
        "50 change observations": "a record of work done, not lasting knowledge",
        "50 refactor observations": "a record of work done, not lasting knowledge",
        "20 observations of other projects": "another project (someone-elses-app): import from its folder",
        "5 session summaries": "no lesson learned stated (requests, progress and next steps do not last)",
        "1 directives": "not active (archived)"}
    decision = person.read("decision-number-6-about-module-m6", count=False).record
    assert (decision.description, decision.type, decision.origin) == ("Decision number 6 about module m6",
                                                                      "project", "import")
    assert decision.body == ("Why m6 matters\n\nObservation 6: the decision concerns module m6; it was seen while "
                             "working on task 6.\n\nFacts:\n- m6 uses port 5006\n\nFiles: src/m6.py")
    assert dict(decision.extra)["tags"] == ["architecture", "m6"]
    lesson = person.read("learned-lesson-0-retries-need-jitter-in-worker", count=False).record
    assert lesson.status == "candidate"
    rule = person.read("always-answer-in-british-english", count=False)
    assert (rule.record.type, rule.scope) == ("feedback", "user")
    assert hashlib.sha256(db.read_bytes()).hexdigest() == before  # never written
    again = person.import_from("claude-mem", str(db))
    assert (again.count("unchanged"), again.count("imported"), again.count("candidate")) == (durable + 7, 0, 0)


@pytest.mark.slow
def test_an_older_claude_mem_database_and_the_default_path(tmp_path, isolated_home, project, monkeypatch):
    data = tmp_path / "cm"
    data.mkdir()
    build(data / "claude-mem.db", project.name, observations=12, other=0, legacy=True)
    monkeypatch.setenv("CLAUDE_MEM_DATA_DIR", str(data))
    person = Memory.open(home=isolated_home, project=project, actor="human")
    report = person.import_from("claude-mem")
    assert report.source == str(data / "claude-mem.db")
    assert sorted(o.name for o in report.outcomes if o.result == "imported") == [
        "decision-number-0-about-module-m0", "decision-number-10-about-module-m10",
        "decision-number-5-about-module-m5", "discovery-number-1-about-module-m1",
        "discovery-number-11-about-module-m11", "discovery-number-6-about-module-m6"]
    assert person.read("discovery-number-1-about-module-m1", count=False).record.body == (
        "Discovery number 1 about module m1\nObservation 1: the discovery concerns module m1; it was seen while "
        "working on task 1.")
    missing = run_cli("--project", project, "import", "claude-mem", tmp_path / "nope.db")
    assert missing.returncode == 1 and "no claude-mem database" in missing.stderr


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["dir", "basic-memory"])
def test_a_file_larger_than_the_ceiling_is_read_and_cut_to_fit_not_skipped(tmp_path, isolated_home, project, kind):
    """before: a 300 KB note was skipped as "larger than 262144 bytes", though the README says it is cut."""
    person = Memory.open(home=isolated_home, project=project, actor="human")
    notes = tmp_path / "notes"
    notes.mkdir()
    text = "".join(f"Paragraph {n}: the runbook step {n} says what to check before going on.\n\n" for n in range(4500))
    (notes / "runbook.md").write_text("---\ndescription: The whole release runbook\n---\n" + text)
    assert (notes / "runbook.md").stat().st_size > 300_000
    (notes / "small.md").write_text("---\ndescription: A short one\n---\nShort.\n")
    report = person.import_from(kind, str(notes))
    runbook, small = report.outcomes
    assert (runbook.result, runbook.kept, small.result, small.kept) == ("imported", "cut", "imported", "whole")
    assert "262144-byte ceiling of a memory file (max_file_bytes)" in runbook.cut
    memory_file = person.session.layer_dir("project") / "runbook.md"
    assert 250_000 < memory_file.stat().st_size <= 262_144
    assert text.startswith(person.read("runbook", count=False).record.body)
    more = tmp_path / "more"
    more.mkdir()
    (more / "handbook.md").write_text("---\ndescription: The on-call handbook\n---\n" + text)
    cli = run_cli("--project", project, "import", kind, more)
    assert cli.returncode == 0 and "handbook (project)  ← handbook.md [cut]" in cli.stdout, cli.stdout
