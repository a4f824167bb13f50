"""Imports from other systems (issue 15): a fake Claude Code home, a fake dsh store,
directories, the MCP memory server's graph and a basic-memory project, built here."""

from __future__ import annotations

import json
import re

import pytest

from memdir import Memory
from memdir.importing.sources import Item, Skip, claude_code_dir, dsh_key, read_markdown
from tests.conftest import run_cli

FOREIGN = ("---\nname: Testing Feedback\nmetadata:\n  type: feedback\ndescription: Integration tests hit a real "
           "database, not mocks\n---\nMocks hid a broken migration last quarter.\n**Why:** prod parity\n"
           "**How to apply:** use the docker db in tests\n")
UNKNOWN_TYPE = "---\nname: oncall\ntype: runbook\nstatus: draft\ndescription: On-call rotation is in PagerDuty\n---\nAsk in #ops.\n"
NO_DESCRIPTION = "---\ntype: project\n---\n# Release train\nReleases are cut every second Thursday.\n"
MALFORMED = "---\nname: broken\ndescription: [unclosed\n"
FORGOTTEN = "---\nname: staging-host\ntype: project\ndescription: Staging host is staging-7.internal.example.com\n---\n"


def claude_home(tmp_path, root):
    """A fake ~/.claude with this project's auto memory, as Claude Code names it."""
    config = tmp_path / "claude-config"
    memory = config / "projects" / re.sub(r"[^A-Za-z0-9]", "-", str(root)) / "memory"
    memory.mkdir(parents=True)
    (memory / "MEMORY.md").write_text("- [Testing](feedback_testing.md) — tests\n")
    (memory / "feedback_testing.md").write_text(FOREIGN)
    (memory / "oncall.md").write_text(UNKNOWN_TYPE)
    (memory / "release-train.md").write_text(NO_DESCRIPTION)
    (memory / "broken.md").write_text(MALFORMED)
    (memory / "staging-host.md").write_text(FORGOTTEN)
    return config, memory


def forget_staging(mem):
    mem.write("staging-host", "Staging host is staging-7.internal.example.com", "project")
    mem.forget("staging-host")


def outcomes(report):
    return {o.source: (o.result, o.name) for o in report.outcomes}


def test_claude_code_directory_follows_its_naming_rule(tmp_path, monkeypatch):
    root = tmp_path / "home" / "u" / "my_app"
    assert claude_code_dir(root, {}, home=tmp_path).name == "memory"
    assert claude_code_dir(root, {}, home=tmp_path).parent.name == re.sub(r"[^A-Za-z0-9]", "-", str(root))
    assert claude_code_dir(root, {"CLAUDE_CONFIG_DIR": str(tmp_path / "c")}) == (
        tmp_path / "c" / "projects" / re.sub(r"[^A-Za-z0-9]", "-", str(root)) / "memory")
    assert claude_code_dir(root, {"CLAUDE_CONFIG_DIR": str(tmp_path / "c"), "CLAUDE_CODE_PROJECT_DIR_NAME": "fixed"}) \
        == tmp_path / "c" / "projects" / "fixed" / "memory"
    (tmp_path / "c").mkdir()
    (tmp_path / "c" / "settings.json").write_text(json.dumps({"autoMemoryDirectory": str(tmp_path / "elsewhere")}))
    assert claude_code_dir(root, {"CLAUDE_CONFIG_DIR": str(tmp_path / "c")}) == tmp_path / "elsewhere"


@pytest.mark.slow
def test_import_claude_code_is_lenient_idempotent_and_honours_tombstones(tmp_path, project, monkeypatch, person):
    config, _ = claude_home(tmp_path, project)
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(config))
    forget_staging(person)
    dry = person.import_from("claude-code", dry_run=True)
    assert dry.count("imported") == 3 and person.list().memories == ()  # a dry run writes nothing
    report = person.import_from("claude-code")
    got = outcomes(report)
    assert got["feedback_testing.md"] == ("imported", "feedback-testing")
    assert got["oncall.md"] == ("imported", "oncall")
    assert got["release-train.md"] == ("imported", "release-train")
    assert got["broken.md"][0] == "skipped"
    stale = next(o for o in report.outcomes if o.source == "staging-host.md")
    stone = person.tombstones().tombstones[0].id
    assert stale.result == "skipped" and stale.detail == (  # the line consolidation gives a proposal too
        f"matches a forgotten value (the same value; tombstone {stone}, 'staging-host'); "
        f"a person can lift it with `memdir tombstone lift {stone} --scope project`")
    assert "MEMORY.md" not in got
    listed = {m.name: m for m in person.list().memories}
    assert set(listed) == {"feedback-testing", "oncall", "release-train"}
    # a type none of memdir's: the layer's (project here), as every write gives one without a type; said in the report
    assert listed["feedback-testing"].type == "feedback" and listed["oncall"].type == "project"
    said = next(o for o in report.outcomes if o.source == "oncall.md")
    assert (said.type, said.original_type) == ("project", "runbook")
    assert said.detail == ("type 'runbook' is not one of user, feedback, project, reference: imported as project, "
                           "the layer's type (the original kept as original_type)")
    kept = next(o for o in report.outcomes if o.source == "feedback_testing.md")  # control: a type of memdir's
    assert (kept.type, kept.original_type, kept.detail) == ("feedback", None, "")
    assert listed["release-train"].description == "Release train"
    assert person.read("oncall").record.origin == "import"
    assert dict(person.read("oncall").record.extra)["original_type"] == "runbook"
    events = [e for e in person.session.layer("project").journal.events() if e.action == "create"]
    assert {e.actor for e in events if e.name != "staging-host"} == {"import"}
    before = {p.name: p.read_bytes() for p in person.session.layer("project").path.glob("*.md")}
    again = person.import_from("claude-code")
    assert again.count("imported") == again.count("updated") == again.count("candidate") == 0
    assert again.count("unchanged") == 3
    assert {p.name: p.read_bytes() for p in person.session.layer("project").path.glob("*.md")} == before
    text = run_cli("import", "claude-code", "--project", project,
                   env={"CLAUDE_CONFIG_DIR": str(config)}).stdout
    assert "0 imported, 0 updated, 0 candidate, 3 unchanged, 2 skipped (kept whole: 3, cut: 0)." in text
    assert ("Type not one of user, feedback, project, reference (kept as original_type): 'runbook' → project "
            "(1 item).") in text



def test_an_index_holding_more_than_links_is_said_not_dropped(tmp_path, project, monkeypatch, person):
    """newuser33: an auto memory folder whose MEMORY.md kept a paragraph of its own and named files no longer
    there imported "no memory found", silently leaving that text. The report names MEMORY.md with what it holds
    beyond links; the files it links that are there are imported. Control: an index of links to files beside it
    (claude_home's) is no outcome at all."""
    config, memory = claude_home(tmp_path, project)
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(config))
    clean = person.import_from("claude-code", dry_run=True)
    assert "MEMORY.md" not in outcomes(clean)  # control
    (memory / "MEMORY.md").write_text(
        "# Memory index\n\nNever put personal paths in these files:\nthe folder is public.\n\n"
        "- [Testing](feedback_testing.md) — tests\n- [Style](feedback_style.md) — R style\n"
        "- [Site](https://example.com/docs) — the docs\n")
    report = person.import_from("claude-code")
    got = outcomes(report)
    assert got["MEMORY.md"] == ("skipped", None)
    said = next(o.detail for o in report.outcomes if o.source == "MEMORY.md")
    assert said == ("an index, not imported (3 lines of its own text; links to 1 file not here): put what it says "
                    "in a memory file here, or write it with `memdir write`")
    assert got["feedback_testing.md"] == ("imported", "feedback-testing")

def test_a_person_change_is_never_overwritten_by_a_later_import(tmp_path, project, monkeypatch, person):
    config, memory = claude_home(tmp_path, project)
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(config))
    person.import_from("claude-code")
    person.write("oncall", "On-call rotation moved to Opsgenie", "reference")  # a person's change
    (memory / "oncall.md").write_text(UNKNOWN_TYPE.replace("PagerDuty", "PagerDuty (EU)"))
    (memory / "release-train.md").write_text(NO_DESCRIPTION.replace("second", "third"))  # untouched here
    report = outcomes(person.import_from("claude-code"))
    assert report["oncall.md"] == ("candidate", "oncall-import")
    assert report["release-train.md"] == ("updated", "release-train")
    assert person.read("oncall").record.description == "On-call rotation moved to Opsgenie"
    assert [c.name for c in person.review().candidates] == ["oncall-import"]
    assert "third Thursday" in person.read("release-train").record.body


def test_import_dsh_reads_the_user_and_project_layers_by_the_seed_key(tmp_path, project, monkeypatch):
    dsh = tmp_path / "dsh"
    user = dsh / "memory" / "_user"
    proj = dsh / "memory" / dsh_key(str(project))
    user.mkdir(parents=True)
    proj.mkdir(parents=True)
    (user / "editor.md").write_text("---\nname: editor\ntype: user\ndescription: Uses Helix as editor\n"
                                    "pinned: true\n---\n")
    (user / "MEMORY.md").write_text("- [editor](editor.md) — Uses Helix\n")
    (proj / "db-port.md").write_text("---\nname: db-port\ntype: project\ndescription: Dev DB on 5433\n"
                                     "created: 1764000000000\n---\nbody\n")
    (proj / "bad.md").write_text(MALFORMED)
    (proj / "staging-host.md").write_text(FORGOTTEN)
    (dsh / "memory" / "--some-other-project--").mkdir()
    (dsh / "memory" / "--some-other-project--" / "x.md").write_text("---\nname: x\ntype: project\ndescription: other\n---\n")
    monkeypatch.setenv("DSH_HOME", str(dsh))
    mem = Memory.open(home=tmp_path / "memhome2", project=project, actor="human")
    forget_staging(mem)
    report = mem.import_from("dsh")
    got = {(o.name, o.scope, o.result) for o in report.outcomes if o.result != "skipped"}
    assert got == {("editor", "user", "imported"), ("db-port", "project", "imported")}
    assert report.count("skipped") == 2
    assert [m.name for m in mem.list("user").memories] == ["editor"]
    assert [m.name for m in mem.list("project").memories] == ["db-port"]  # not the other project's
    assert mem.import_from("dsh").count("unchanged") == 2


def test_import_dir_mcp_memory_and_basic_memory(tmp_path, project, person):
    notes = tmp_path / "repo-notes" / "docs" / "memory"
    (notes / "sub").mkdir(parents=True)
    (notes / "deploy.md").write_text("---\nname: deploy\ndescription: Deploy with make ship\ntype: project\n---\n")
    (notes / "sub" / "style.md").write_text("# Style\nUse black for Python.\n")
    report = person.import_from("dir", str(notes))
    assert {(o.name, o.result) for o in report.outcomes} == {("deploy", "imported"), ("style", "imported")}
    graph = tmp_path / "memory.json"
    graph.write_text("\n".join(json.dumps(x) for x in [
        {"type": "entity", "name": "Alice_Chen", "entityType": "person", "observations": ["Leads the API team"]},
        {"type": "entity", "name": "Billing API", "entityType": "service", "observations": ["Written in Go"]},
        {"type": "relation", "from": "Alice_Chen", "to": "Billing API", "relationType": "owns"},
    ]) + "\nnot json\n")
    report = person.import_from("mcp-memory", str(graph))
    assert outcomes(report)["entity Alice_Chen"] == ("imported", "alice-chen")
    assert outcomes(report)["line 4"][0] == "skipped"
    alice = person.read("alice-chen").record
    assert alice.description == "Alice_Chen (person): Leads the API team"
    assert "- owns [[billing-api]]" in alice.body
    assert [link.name for link in person.read("alice-chen").linked] == ["billing-api"]
    bm = tmp_path / "bm"
    (bm / "notes").mkdir(parents=True)
    (bm / "notes" / "coffee.md").write_text(
        "---\ntitle: Coffee Brewing\ntype: note\npermalink: notes/coffee-brewing\ntags: [coffee]\n---\n"
        "# Coffee Brewing\n\n## Observations\n- [method] Pour over gives more clarity #brewing\n\n"
        "## Relations\n- relates_to [[Tea Notes]]\n")
    (bm / "notes" / "tea.md").write_text("---\ntitle: Tea Notes\ntype: note\npermalink: notes/tea-notes\n---\nGreen tea at 80C.\n")
    report = person.import_from("basic-memory", str(bm))
    assert {o.name for o in report.outcomes} == {"coffee-brewing", "tea-notes"}
    coffee = person.read("coffee-brewing").record
    assert coffee.description == "Pour over gives more clarity #brewing"
    assert "[[tea-notes]]" in coffee.body
    assert person.import_from("basic-memory", str(bm)).count("unchanged") == 2


def test_an_import_for_the_team_makes_candidates_in_the_home(tmp_path):
    from tests.teamgit import git, shared_repository

    a, _ = shared_repository(tmp_path)
    notes = tmp_path / "notes"
    notes.mkdir()
    (notes / "ci.md").write_text("---\nname: ci\ntype: project\ndescription: CI runs on Buildkite\n---\n")
    mem = a.memory()
    report = mem.import_from("dir", str(notes), scope="team")
    assert outcomes(report)["ci.md"] == ("candidate", "ci")
    assert not (a.team_dir / "ci.md").exists() and git(a.root, "status", "--porcelain").stdout == ""
    assert mem.import_from("dir", str(notes), scope="team").count("unchanged") == 1
    mem.approve("ci")
    assert (a.team_dir / "ci.md").is_file()


def test_bad_import_arguments_say_why(project, person):
    from memdir.errors import InvalidInput, NotFound

    with pytest.raises(InvalidInput, match="unknown import source"):
        person.import_from("evernote")
    with pytest.raises(InvalidInput, match="needs a path"):
        person.import_from("dir")
    with pytest.raises(NotFound):
        person.import_from("dir", str(project / "nope"))
    nothing = person.import_from("dsh")  # no store: nothing to bring, said in the report
    assert [(o.result, o.detail) for o in nothing.outcomes] == [("skipped", "no dsh-auto-memory store for this project")]


def test_an_import_reports_progress_per_item(tmp_path, project, person):
    notes = tmp_path / "many"
    notes.mkdir()
    for i in range(30):
        (notes / f"n{i}.md").write_text(f"---\nname: n{i}\ntype: project\ndescription: Note number {i}\n---\n")
    (notes / "bad.md").write_text(MALFORMED)

    told = []  # the progress protocol (memdir.render.progress): progress(done, total)
    report = person.import_from(
        "dir", str(notes), progress=lambda done, total: told.append((done, total)))
    assert told == [(n, 31) for n in range(32)]  # 0 as it starts, then one call per item
    assert (report.count("imported"), report.count("skipped")) == (30, 1)


def test_names_that_collide_after_normalization_get_distinct_names_and_a_rerun_changes_nothing(tmp_path, project, person):
    notes = tmp_path / "collide"
    (notes / "sub").mkdir(parents=True)
    files = {"Foo Bar.md": "Alpha fact", "foo-bar.md": "Beta fact", "FOO_BAR.md": "Gamma fact",
             "sub/foo-bar.md": "Delta fact", "föö-bär.md": "Epsilon fact", "foo-bar-.md": "Zeta fact",
             "distinct.md": "Control fact"}
    for rel, text in files.items():
        (notes / rel).write_text(f"---\ndescription: {text} about the build\ntype: project\n---\n")
    report = person.import_from("dir", str(notes))
    assert report.count("imported") == 7 and report.count("updated") == 0
    names = {o.source: o.name for o in report.outcomes}
    assert names["distinct.md"] == "distinct"  # control: a unique name is kept as it is
    assert sorted(n for s, n in names.items() if s != "distinct.md") == [
        "foo-bar", "foo-bar-2", "foo-bar-3", "foo-bar-4", "foo-bar-5", "foo-bar-6"]
    assert {person.read(n).record.description.split()[0] for n in names.values()} == {t.split()[0] for t in files.values()}
    again = person.import_from("dir", str(notes))
    assert again.count("unchanged") == 7, [(o.source, o.result, o.detail) for o in again.outcomes]
    assert {o.source: o.name for o in again.outcomes} == names  # the same item, the same memory


def test_mcp_and_basic_memory_collisions_keep_every_item(tmp_path, project, person):
    graph = tmp_path / "memory.json"
    graph.write_text("\n".join(json.dumps(x) for x in [
        {"type": "entity", "name": "Alice", "entityType": "person", "observations": ["Owns billing"]},
        {"type": "entity", "name": "alice", "entityType": "service", "observations": ["Runs the queue"]},
        {"type": "entity", "name": "Bob", "entityType": "person", "observations": "not a list"},
    ]) + "\n")
    report = person.import_from("mcp-memory", str(graph))
    assert outcomes(report)["entity Alice"] == ("imported", "alice")
    assert outcomes(report)["entity alice"] == ("imported", "alice-2")
    assert person.read("alice-2").record.description == "alice (service): Runs the queue"
    bob = [o for o in report.outcomes if "Bob" in o.source]
    assert bob and bob[0].result == "skipped" and "observations" in bob[0].detail
    assert person.import_from("mcp-memory", str(graph)).count("unchanged") == 2
    bm = tmp_path / "bm"
    bm.mkdir()
    for stem, text in (("a", "First note text"), ("b", "Second note text")):
        (bm / f"{stem}.md").write_text(f"---\ntitle: T {stem}\ntype: note\npermalink: notes/shared\n---\n{text}\n")
    report = person.import_from("basic-memory", str(bm))
    assert sorted(o.name for o in report.outcomes) == ["shared", "shared-2"]
    assert person.import_from("basic-memory", str(bm)).count("unchanged") == 2


def test_symlinks_skipped_in_an_imported_directory_are_reported(tmp_path, project, person):
    notes = tmp_path / "linked"
    notes.mkdir()
    (tmp_path / "outside.md").write_text("---\ndescription: Outside fact\ntype: project\n---\n")
    (notes / "inside.md").write_text("---\ndescription: Inside fact\ntype: project\n---\n")
    (notes / "link.md").symlink_to(tmp_path / "outside.md")
    report = person.import_from("dir", str(notes))
    assert outcomes(report)["inside.md"] == ("imported", "inside")
    assert outcomes(report)["link.md"][0] == "skipped"
    assert "symbolic link" in [o.detail for o in report.outcomes if o.source == "link.md"][0]


def test_an_edited_then_forgotten_memory_never_comes_back_through_import(tmp_path, project, monkeypatch, person):
    config, _ = claude_home(tmp_path, project)
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(config))
    person.import_from("claude-code")
    person.write("oncall", "On-call rotation moved to Opsgenie", "reference")  # edited by a person...
    person.forget("oncall")  # ...then forgotten: the tombstone holds the edited value
    report = outcomes(person.import_from("claude-code"))
    assert report["oncall.md"][0] == "skipped"
    detail = [o.detail for o in person.import_from("claude-code").outcomes if o.source == "oncall.md"][0]
    assert "a forgotten name" in detail
    assert "oncall" not in [m.name for m in person.list().memories]
    assert report["release-train.md"] == ("unchanged", "release-train")  # control: the others are still there


def test_import_dsh_keeps_a_disabled_memory_muted(tmp_path, project, monkeypatch):
    dsh = tmp_path / "dsh"
    proj = dsh / "memory" / dsh_key(str(project))
    proj.mkdir(parents=True)
    (proj / "old-ci.md").write_text("---\nname: old-ci\ntype: project\nstatus: disabled\n"
                                    "description: CI ran on Jenkins\n---\n")
    (proj / "ci.md").write_text("---\nname: ci\ntype: project\ndescription: CI runs on GitHub Actions\n---\n")
    monkeypatch.setenv("DSH_HOME", str(dsh))
    mem = Memory.open(home=tmp_path / "h", project=project, actor="human")
    report = outcomes(mem.import_from("dsh"))
    assert report["old-ci.md"] == ("imported", "old-ci") and report["ci.md"] == ("imported", "ci")
    assert mem.read("old-ci").record.disabled is True
    assert mem.read("ci").record.disabled is False  # control
    block = mem.context()
    assert "CI runs on GitHub Actions" in block and "Jenkins" not in block
    assert mem.import_from("dsh").count("unchanged") == 2


def test_a_foreign_file_whose_yaml_aliases_expand_is_skipped_not_expanded(tmp_path):
    levels = ["a: &a [" + ", ".join(['"x"'] * 10) + "]"]
    for name, below in zip("bcde", "abcd"):
        levels.append(f"{name}: &{name} [" + ", ".join([f"*{below}"] * 10) + "]")
    laughs = tmp_path / "laughs.md"
    laughs.write_text("---\n" + "\n".join(levels) + "\ndescription: *e\n---\nbody\n", encoding="utf-8")
    # before: an Item whose description was 522,220 characters (100,000 "x" and the lists around them)
    assert read_markdown(laughs, "laughs.md") == Skip(
        "laughs.md", "frontmatter uses YAML anchors or aliases (&name / *name), which memdir refuses to expand")
    plain = tmp_path / "plain.md"  # control: a file only the forgiving pass reads (its description under metadata)
    plain.write_text("---\nmetadata:\n  type: runbook\n  description: Paging goes to PagerDuty\nstatus: draft\n"
                     "tags: [ops, oncall]\ndisabled: true\n---\n", encoding="utf-8")
    assert read_markdown(plain, "plain.md") == Item(
        "plain.md", "plain", "Paging goes to PagerDuty", None, "", None, None,  # None: the import gives the layer's
        {"original_type": "runbook", "original_status": "draft", "tags": ["ops", "oncall"]}, True,
        original_type="runbook")


def test_a_read_between_two_imports_is_no_change_as_history_counts_none(tmp_path, project, person):
    source = tmp_path / "notes"
    source.mkdir()
    (source / "oncall.md").write_text("---\ntype: project\ndescription: On-call is in PagerDuty\n---\n")
    (source / "deploy.md").write_text("---\ntype: project\ndescription: Deploys go out on Tuesdays\n---\n")
    assert [o.result for o in person.import_from("dir", str(source)).outcomes] == ["imported", "imported"]
    Memory.open(project=project).read("oncall")  # an agent's counted read: the file's reads go up
    person.write("deploy", "Deploys go out on Wednesdays", "project")  # control: a person's change
    assert [v.action for v in person.history("oncall").versions] == ["create"]  # the read is no version
    (source / "oncall.md").write_text("---\ntype: project\ndescription: On-call is in Opsgenie\n---\n")
    (source / "deploy.md").write_text("---\ntype: project\ndescription: Deploys go out on Thursdays\n---\n")
    report = outcomes(person.import_from("dir", str(source)))
    # before: ("candidate", "oncall-import"): the read was taken for a person's change
    assert report["oncall.md"] == ("updated", "oncall")
    assert report["deploy.md"] == ("candidate", "deploy-import")
    assert person.read("oncall", count=False).record.description == "On-call is in Opsgenie"
    assert [(v.version, v.action, v.actor) for v in person.history("oncall").versions] == [
        (1, "create", "import"), (2, "update", "import")]


GHP = "ghp_abcdefghijklmnopqrstuvwxyz0123456789"


@pytest.mark.slow
def test_a_secret_in_an_imported_frontmatter_is_redacted(mem, tmp_path, project):
    """A source file's frontmatter key holding a token was imported as it was (``extra`` went
    unredacted), through the API and the CLI alike."""
    source = tmp_path / "notes"
    source.mkdir()
    (source / "deploy.md").write_text(f"---\nname: deploy\ndescription: Deploy with the release bot\ntype: project\n"
                                      f"api_key: {GHP}\nowner: ops\n---\nRun the bot.\n", encoding="utf-8")
    report = mem.import_from("dir", str(source))
    assert [(o.name, o.result) for o in report.outcomes] == [("deploy", "imported")]
    text = (mem.session.layer("project").path / "deploy.md").read_text(encoding="utf-8")
    assert GHP not in text and "api_key: '[REDACTED:github-token]'" in text
    assert "owner: ops" in text  # control
    (source / "deploy.md").rename(source / "release.md")
    done = run_cli("import", "dir", source, "--project", project)
    assert done.returncode == 0, done.stderr
    text = (mem.session.layer("project").path / "release.md").read_text(encoding="utf-8")
    assert GHP not in text and "api_key: '[REDACTED:github-token]'" in text and "owner: ops" in text


@pytest.mark.slow
def test_an_item_whose_frontmatter_would_be_over_the_cap_is_skipped_and_stays_skipped(mem, tmp_path, project):
    """A source file with 16.3 KB of frontmatter (within the reader's cap) was imported with memdir's
    own keys added (over it): ``list`` then showed it unreadable and every re-import imported it again."""
    source = tmp_path / "notes"
    source.mkdir()
    pad = "x" * 16_300
    (source / "big.md").write_text(f"---\nname: big\ndescription: d\ntype: project\npad: {pad}\n---\n",
                                   encoding="utf-8")
    (source / "small.md").write_text("---\nname: small\ndescription: d\ntype: project\npad: x\n---\n",
                                     encoding="utf-8")
    size = len((f"name: big\ndescription: d\ntype: project\ncreated: {'0' * 20}\nupdated: {'0' * 20}\n"
                f"origin: import\nstatus: active\npad: {pad}\nimport_digest: {'0' * 16}").encode("utf-8"))
    why = (f"the frontmatter would be {size} bytes, over the 16384-byte cap memdir reads back; nothing was written "
           "(long text belongs in the body, not in a frontmatter key)")
    for _ in range(2):
        report = mem.import_from("dir", str(source))
        assert [(o.name, o.result, o.detail) for o in report.outcomes] == [
            ("big", "skipped", why), ("small", "imported" if _ == 0 else "unchanged", "" if _ == 0 else
             "the same text is already there")]
    listed = mem.list()
    assert [m.name for m in listed.memories] == ["small"] and listed.malformed == ()
    done = run_cli("import", "dir", source, "--project", project)
    assert done.returncode == 0 and why in done.stdout, (done.stdout, done.stderr)


# ---------------------------------------------------------------- which memory an item and its candidate mean

DEPLOY_LINE = ("  candidate        deploy-import-2 (project)  ← deploy.md  — 'deploy' was changed since the last import; "
               "review it (memdir review)")


def test_an_import_candidate_takes_a_free_name_and_approving_it_changes_the_memory_it_is_for(tmp_path, project, person):
    """before: the candidate was written as ``deploy-import-candidate`` for a person's memory ``deploy-import``
    (the report said ``deploy-import``), and approving it replaced that memory."""
    source = tmp_path / "src"
    source.mkdir()
    (source / "deploy.md").write_text("---\ndescription: Deploys go out on Fridays\n---\n")
    assert outcomes(person.import_from("dir", str(source))) == {"deploy.md": ("imported", "deploy")}
    person.write("deploy", "Deploys go out on Mondays", "project")
    person.write("deploy-import", "How we import deploy configs: via terraform", "project")
    assert outcomes(person.import_from("dir", str(source), dry_run=True)) == {
        "deploy.md": ("would-unchanged", "deploy")}  # the source as it was: the person's edit stands (issue 24)
    (source / "deploy.md").write_text("---\ndescription: Deploys go out on Thursdays\n---\n")  # the source changes
    dry = person.import_from("dir", str(source), dry_run=True)
    assert outcomes(dry) == {"deploy.md": ("would-candidate", "deploy-import-2")}
    text = run_cli("--project", project, "import", "dir", source).stdout
    assert text.splitlines()[1] == DEPLOY_LINE
    waiting = person.read("deploy-import-2", count=False).record
    assert (waiting.status, waiting.description, dict(waiting.extra)["candidate_for"]) == (
        "candidate", "Deploys go out on Thursdays", "deploy")
    assert [c.name for c in person.review().candidates] == ["deploy-import-2"]  # the only one written
    again = person.import_from("dir", str(source))  # the pending candidate is this import's own
    assert outcomes(again) == {"deploy.md": ("unchanged", "deploy-import-2")}
    assert person.approve("deploy-import-2").name == "deploy"
    assert person.read("deploy", count=False).record.description == "Deploys go out on Thursdays"
    # the person's memory that only looked like a candidate's name is as they wrote it
    kept = person.read("deploy-import", count=False).record
    assert (kept.status, kept.origin, kept.description) == (
        "active", "human", "How we import deploy configs: via terraform")
    assert sorted(m.name for m in person.list(include_all=True).memories) == ["deploy", "deploy-import"]


def test_a_team_import_candidate_never_takes_the_name_of_a_waiting_proposal(tmp_path):
    """before: the import rewrote the agent's pending team proposal ``ci-import`` into its own candidate."""
    from tests.teamgit import shared_repository

    a, _ = shared_repository(tmp_path)
    mem = a.memory()
    mem.write("ci", "CI runs on Buildkite", "project", scope="team")
    a.memory(actor="agent").write("ci-import", "How CI imports artifacts: from S3", "project", scope="team")
    notes = tmp_path / "notes"
    notes.mkdir()
    (notes / "ci.md").write_text("---\nname: ci\ntype: project\ndescription: CI runs on GitHub Actions\n---\n")
    report = mem.import_from("dir", str(notes), scope="team")
    assert outcomes(report) == {"ci.md": ("candidate", "ci-import-2")}
    proposals = {r.name: r for r in mem.review().candidates}
    assert proposals["ci-import"].description == "How CI imports artifacts: from S3"  # the agent's, as it was
    assert proposals["ci-import-2"].description == "CI runs on GitHub Actions"
    assert mem.import_from("dir", str(notes), scope="team").count("unchanged") == 1
    mem.approve("ci-import-2")
    assert "CI runs on GitHub Actions" in (a.team_dir / "ci.md").read_text()
    assert not (a.team_dir / "ci-import-2.md").exists() and not (a.team_dir / "ci-import.md").exists()


C_SHARP_NOTE = ("'C# tips' normalizes to the file name of the memory 'C++ tips' (c-tips), which is another name: "
                "named 'c-sharp-tips' here")


def test_an_item_spelled_unlike_the_memory_of_its_file_name_is_imported_under_a_distinct_name(tmp_path, project,
                                                                                                person):
    """before: ``C# tips.md`` became the candidate ``c-tips-import`` ("'c-tips' was changed since the last
    import"), and approving it replaced the person's ``C++ tips``."""
    person.write("C++ tips", "Use RAII for every resource", "project", "person's C++ notes")
    person.write("Go tips", "Accept interfaces, return structs", "project", "person's Go notes")
    source = tmp_path / "src"
    source.mkdir()
    (source / "C# tips.md").write_text("---\ndescription: Prefer LINQ over loops\n---\nC# stuff\n")
    (source / "Go Tips.md").write_text("---\ndescription: Return errors, never panic\n---\n")  # control: its name
    text = run_cli("--project", project, "import", "dir", source).stdout.splitlines()
    assert text[1:3] == [
        f"  imported         c-sharp-tips (project)  ← C# tips.md  — {C_SHARP_NOTE}",
        "  candidate        go-tips-import (project)  ← Go Tips.md  — 'go-tips' holds other text, written here, not "
        "by an import; review it (memdir review)"]  # break49: it said "was changed since the last import"
    cpp = person.read("C++ tips", count=False).record
    assert (cpp.name, cpp.description, cpp.body) == ("c-tips", "Use RAII for every resource", "person's C++ notes")
    sharp = person.read("C# tips", count=False).record  # its own spelling finds it
    assert (sharp.name, sharp.title, sharp.description, sharp.body, sharp.origin) == (
        "c-sharp-tips", "C# tips", "Prefer LINQ over loops", "C# stuff", "import")
    again = person.import_from("dir", str(source))
    assert [(o.source, o.result, o.name, o.detail) for o in again.outcomes] == [
        ("C# tips.md", "unchanged", "c-sharp-tips", f"{C_SHARP_NOTE}; the same text is already there"),
        ("Go Tips.md", "unchanged", "go-tips-import", "the same candidate waits already")]
    assert person.read("go-tips", count=False).record.description == "Accept interfaces, return structs"
    person.write("C++ notes", "Prefer std::span", "project")
    graph = tmp_path / "memory.json"
    graph.write_text(json.dumps({"type": "entity", "name": "C# notes", "entityType": "topic",
                                 "observations": ["Prefer records"]}) + "\n")
    assert outcomes(person.import_from("mcp-memory", str(graph))) == {"entity C# notes": ("imported", "c-sharp-notes")}
    assert person.read("c-notes", count=False).record.description == "Prefer std::span"


# ---------------------------------------------------------------- files that are not regular files


def test_a_fifo_or_a_linked_directory_in_an_imported_directory_is_reported_never_waited_on(tmp_path, project,
                                                                                            person):
    """before: ``import dir`` blocked on the FIFO forever, and skipped the linked directory without a word."""
    from tests.fifo import fifo

    notes = tmp_path / "notes"
    notes.mkdir()
    (notes / "build.md").write_text("---\ndescription: Build with make\n---\n")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "outside.md").write_text("---\ndescription: An outside fact\n---\n")
    (notes / "linked").symlink_to(elsewhere, target_is_directory=True)
    with fifo(notes / "pipe.md"):
        text = run_cli("--project", project, "import", "dir", notes).stdout.splitlines()
    assert text[1:] == [
        "  skipped          -  ← linked/  — a linked folder (symbolic link), not followed",
        "  imported         build (project)  ← build.md",
        "  skipped          -  ← pipe.md  — not a regular file",
        "1 imported, 0 updated, 0 candidate, 0 unchanged, 2 skipped (kept whole: 1, cut: 0)."]
    assert [m.name for m in person.list().memories] == ["build"]


def test_every_import_source_skips_a_file_that_is_not_a_regular_file(tmp_path, project, monkeypatch, person):
    """The MCP graph file, a basic-memory note, Claude Code's memory and settings files, a dsh store:
    before, each blocked on a FIFO."""
    from tests.fifo import fifo

    config, memory = claude_home(tmp_path, project)
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(config))
    dsh = tmp_path / "dsh"
    store = dsh / "memory" / dsh_key(str(project))
    store.mkdir(parents=True)
    (store / "ci.md").write_text("---\nname: ci\ntype: project\ndescription: CI runs on GitHub Actions\n---\n")
    monkeypatch.setenv("DSH_HOME", str(dsh))
    bm = tmp_path / "bm"
    bm.mkdir()
    (bm / "tea.md").write_text("---\ntitle: Tea Notes\ntype: note\npermalink: notes/tea-notes\n---\n"
                               "Green tea at 80C.\n")
    with fifo(tmp_path / "memory.json") as graph, fifo(config / "settings.json"), fifo(memory / "pipe.md"), \
            fifo(store / "pipe.md"), fifo(bm / "pipe.md"):
        assert claude_code_dir(project) == memory  # the settings file is passed over, as an unreadable one is
        report = person.import_from("mcp-memory", str(graph))
        assert [(o.source, o.result, o.detail) for o in report.outcomes] == [
            (str(graph), "skipped", "not a regular file")]
        for kind, path, control in (("claude-code", None, "feedback_testing.md"), ("dsh", None, "ci.md"),
                                    ("basic-memory", str(bm), "tea.md")):
            got = {o.source: (o.result, o.detail) for o in person.import_from(kind, path).outcomes}
            assert got["pipe.md"] == ("skipped", "not a regular file"), kind
            assert got[control][0] == "imported", kind


def test_a_rerun_finds_the_memory_of_each_item_whatever_its_spelling(tmp_path, project, person):
    """Controls for the rule above: a memory an import created from ``What's new.md`` before (no title: an
    import kept no spelling) is still that item's, and one named apart keeps its source's own title."""
    person.write("C++ notes", "Prefer std::span", "project")
    source = tmp_path / "src"
    source.mkdir()
    (source / "What's new.md").write_text("---\ndescription: Release 4 ships the new parser\n---\n")
    (source / "C# notes.md").write_text("---\ntitle: Notes on C sharp\ndescription: Prefer records\n---\n")
    first = person.import_from("dir", str(source))
    assert [(o.source, o.result, o.name) for o in first.outcomes] == [
        ("C# notes.md", "imported", "c-sharp-notes"), ("What's new.md", "imported", "what-s-new")]
    assert person.read("c-sharp-notes", count=False).record.title == "Notes on C sharp"
    again = person.import_from("dir", str(source))
    assert [(o.source, o.result, o.name) for o in again.outcomes] == [
        ("C# notes.md", "unchanged", "c-sharp-notes"), ("What's new.md", "unchanged", "what-s-new")]
    person.write("what-s-new", "Release 4 ships the new parser and linter", "project")
    (source / "What's new.md").write_text("---\ndescription: Release 4 ships the new parser in May\n---\n")
    changed = person.import_from("dir", str(source))
    assert [(o.source, o.result, o.name) for o in changed.outcomes] == [
        ("C# notes.md", "unchanged", "c-sharp-notes"), ("What's new.md", "candidate", "what-s-new-import")]
    assert sorted(m.name for m in person.list(include_all=True).memories) == [
        "c-notes", "c-sharp-notes", "what-s-new", "what-s-new-import"]


def test_import_claude_code_says_when_its_folder_is_shared_with_another_project(tmp_path, monkeypatch, person,
                                                                                 project):
    """break29: Claude Code maps /x/a-b and /x/a/b to one folder (-x-a-b); the import merged the other project's
    memories into this one silently. The transcripts beside the folder say which projects used it."""
    import json

    config, _ = claude_home(tmp_path, project)
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(config))
    folder = claude_code_dir(project, {"CLAUDE_CONFIG_DIR": str(config)}).parent
    twin = f"{project.parent}-{project.name}"  # …/work/proj and …/work-proj: one folder name (the premise)
    assert re.sub(r"[^A-Za-z0-9]", "-", twin) == re.sub(r"[^A-Za-z0-9]", "-", str(project)) == folder.name
    mine = {"type": "user", "cwd": str(project / "src"), "message": {"role": "user", "content": "hi"}}
    (folder / "s-mine.jsonl").write_text(json.dumps({"type": "summary"}) + "\n" + json.dumps(mine) + "\n")
    alone = person.import_from("claude-code", dry_run=True)
    assert not any("keeps this one folder" in (o.detail or "") for o in alone.outcomes)  # control: its own sessions
    assert alone.count("imported") >= 3
    (folder / "s-twin.jsonl").write_text(json.dumps({"type": "user", "cwd": twin, "message": {}}) + "\n")
    shared = person.import_from("claude-code", dry_run=True)
    (said,) = [o for o in shared.outcomes if "keeps this one folder" in (o.detail or "")]
    assert said.result == "skipped" and said.source == str(folder / "memory")
    assert f"for {twin} too" in said.detail and f"imported as {project}'s" in said.detail
    assert shared.count("imported") == alone.count("imported")  # said, not refused


def test_an_import_past_the_sweep_threshold_gives_each_file_one_memory_and_one_journal_line(tmp_path, person):
    """An import of more files than a layer is swept for at every write (past it, each write's quick scan and the
    directory listing the write before left stand in): 580 files give 580 memories, 580 import journal lines
    (``create``), each file's text in its memory; a file holding a forgotten memory's text is skipped (its
    tombstone honoured) beside the others imported, and a file named as a hand-placed twin's lower case is
    refused (``Notes.md`` holds no memory) while its neighbours are imported."""
    from memdir.files.sweeps import SWEEP_ALWAYS_MAX

    forget_staging(person)
    layer = person.session.layer("project").path
    (layer / "Notes.md").write_text("---\nname: notes\ndescription: too big\ntype: project\n---\n" + "x" * 300_000)
    source = tmp_path / "many"
    source.mkdir()
    count = SWEEP_ALWAYS_MAX + 80
    for i in range(count):
        (source / f"fact-{i:04d}.md").write_text(f"---\ndescription: Fact {i} of the billing service\ntype: project\n"
                                                 f"---\nThe billing service keeps fact {i} in table t{i}.\n")
    (source / "staging-host.md").write_text(FORGOTTEN)
    (source / "notes.md").write_text("---\ndescription: Notes of the week\ntype: project\n---\nweekly\n")
    report = person.import_from("dir", str(source), scope="project")
    assert report.count("imported") == count
    said = {o.source.rsplit("/", 1)[-1]: (o.result, o.detail) for o in report.outcomes}
    assert said["staging-host.md"][0] == "skipped" and said["notes.md"][0] == "skipped", said
    assert "differs from notes.md only by case" in said["notes.md"][1]
    names = {m.name for m in person.list(scope="project", include_all=True).memories}
    assert names == {f"fact-{i:04d}" for i in range(count)}
    assert person.read("fact-0577", "project", count=False).record.body.strip() == \
        "The billing service keeps fact 577 in table t577."
    lines = [json.loads(line) for line in (layer / ".memdir" / "journal.jsonl").read_text().splitlines()]
    imported = [e for e in lines if e.get("actor") == "import"]
    assert len(imported) == count and {e["name"] for e in imported} == names
    assert (layer / "Notes.md").exists() and not (layer / "notes.md").exists()
