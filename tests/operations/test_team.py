"""The team layer with real git: a bare remote, two clones, two MEMDIR_HOMEs (issue 15)."""

from __future__ import annotations

import pytest

from memdir import Memory
from memdir.errors import Conflict, Refused, TombstoneRefused
from tests.conftest import run_cli
from tests.consolidation.test_consolidate import cc_transcript
from tests.teamgit import diverge, git, shared_repository


@pytest.fixture
def clones(tmp_path):
    return shared_repository(tmp_path)


def team_section(block: str) -> str:
    """The team section of a context block ('' when there is none)."""
    if "## Team memories" not in block:
        return ""
    return block.split("## Team memories", 1)[1].split("\n## ", 1)[0]


def test_a_team_memory_travels_from_one_clone_to_the_other(clones):
    a, b = clones
    a.memory().write("db-port", "Dev PostgreSQL listens on 5433, not 5432", "project",
                     "Moved on 2026-11-02: 5432 is the system cluster.", scope="team")
    assert (a.team_dir / "db-port.md").is_file()
    # The layer's manifest is kept in the home with its journal, never in the repository.
    assert not (a.team_dir / ".memdir").exists() and list((a.home / "team").rglob("manifest.sqlite"))
    assert "5433" not in b.memory().context()  # not pulled yet
    a.publish("team memory: db port", b)
    block = b.memory().context()
    assert "- [db-port](db-port.md) — Dev PostgreSQL listens on 5433, not 5432" in team_section(block)
    assert block.index("## Team memories") < block.index("## How to use memory")
    hits = b.memory().search("postgres port")
    assert [(h.name, h.scope) for h in hits] == [("db-port", "team")]
    listed = b.memory().list()
    assert [(m.name, m.scope) for m in listed.memories] == [("db-port", "team")]
    assert b.memory().read("db-port").scope == "team"
    # Nothing derived or local entered the repository: MEMORY.md and the journal live in the home.
    assert not (b.team_dir / "MEMORY.md").exists() and not (b.team_dir / ".memdir").exists()
    assert (b.home / "team").is_dir()


def test_the_team_section_sits_between_user_and_project_within_one_budget(clones):
    a, _ = clones
    mem = a.memory()
    mem.write("editor", "The person uses Helix", "user")
    mem.write("db-port", "Dev PostgreSQL listens on 5433", "project", scope="team")
    mem.write("my-notes", "I am refactoring the billing module", "project", scope="project")
    block = mem.context()
    assert block.index("## User memories") < block.index("## Team memories") < block.index("## Project memories")
    small = mem.context(max_bytes=380)
    assert len(small.encode()) <= 380 and "left out" in small and "## User memories" in small


@pytest.mark.slow
def test_forgetting_propagates_and_a_different_fact_is_accepted(clones, tmp_path):
    a, b = clones
    a.memory().write("staging-host", "Staging host is staging-7.internal.example.com", "project",
                     "Deploy previews go there.", scope="team")
    a.publish("team: staging host", b)
    assert "staging-7" in b.memory().context()
    forgotten = a.memory().forget("staging-host", reason="the host was retired")
    stone_file = a.team_dir / "tombstones" / f"{forgotten.tombstone}.json"
    assert stone_file.is_file() and not (a.team_dir / "staging-host.md").exists()
    a.publish("forget the staging host", b)
    agent = b.memory(actor="agent")
    assert "staging-7" not in agent.context()
    with pytest.raises(TombstoneRefused):
        agent.write("staging", "Staging host is staging-7.internal.example.com", "project", scope="project")
    with pytest.raises(TombstoneRefused):  # reworded
        agent.write("staging-2", "staging-7.internal.example.com is the staging host", "project", scope="project")
    with pytest.raises(TombstoneRefused):  # proposed for the team too
        agent.write("staging-3", "Staging host is staging-7.internal.example.com", "project", scope="team")
    assert agent.write("build-server", "The build server is ci-3.internal.example.com", "project",
                       scope="project").operation == "created"  # control
    transcript = cc_transcript(
        tmp_path / "s.jsonl",
        ("user", "Remember that the staging host is staging-7.internal.example.com.", "2026-11-25T09:00:00Z"),
        ("user", "Remember that the deploy window is Tuesday.", "2026-11-25T09:05:00Z"))
    report = b.memory().consolidate(transcript, extractor="rules")
    outcome = {report.proposals[o.index].description: o.result for o in report.outcomes}
    assert outcome["The staging host is staging-7.internal.example.com."] == "refused-tombstone"
    assert "created" in outcome.values()  # the other fact
    # A person lifts it in B's clone and commits: the tombstone file goes.
    b.memory().lift_tombstone(forgotten.tombstone)
    assert not (b.team_dir / "tombstones" / stone_file.name).exists()
    assert any(c.path.endswith(stone_file.name) and c.state == "deleted" for c in b.memory().team_status().changes)


def test_tombstones_of_two_people_merge_without_conflict(clones):
    a, b = clones
    mem = a.memory()
    mem.write("one", "Fact one about the build cache", "project", scope="team")
    mem.write("two", "Fact two about the release train", "project", scope="team")
    a.publish("two facts", b)
    a.memory().forget("one")
    a.commit_all("forget one")
    b.memory().forget("two")
    b.commit_all("forget two")
    a.push()
    merged = b.pull(check=False)
    assert merged.returncode == 0, merged.stdout + merged.stderr
    stones = b.memory().tombstones("team").tombstones
    assert sorted(s.name for s in stones) == ["one", "two"]


@pytest.mark.slow
def test_a_refusal_by_a_team_tombstone_says_where_the_value_was_forgotten(tmp_path):
    """A team tombstone's file keeps no actor nor reason (so two people's merge): its refusal says it
    was forgotten in the team layer — it read "forgotten by )." — while a personal tombstone's still
    names who forgot it and why."""
    root, home = tmp_path / "app", tmp_path / "home"
    git(tmp_path, "init", "-q", "-b", "main", str(root))
    cli = ("--home", home, "--project", root)
    assert run_cli(*cli, "team", "init").returncode == 0
    fact = "The staging database host is pg-stage-3.internal"
    assert run_cli(*cli, "write", "db-host", "-d", fact, "-t", "project", "--scope", "team").returncode == 0
    forgot = run_cli(*cli, "forget", "db-host", "--scope", "team", "--reason", "the host was retired")
    assert forgot.returncode == 0, forgot.stderr
    stone = Memory.open(home=home, project=root, actor="human").tombstones("team").tombstones[0].id
    agent = Memory.open(home=home, project=root, actor="agent")
    with pytest.raises(TombstoneRefused) as caught:
        agent.write("db-host", fact, "project", scope="team")
    assert str(caught.value) == (
        f"refused: this matches a forgotten value (the same value; tombstone {stone}, memory 'db-host', "
        f"forgotten in the team layer (not committed yet)). A person can lift it with "
        f"`memdir tombstone lift {stone} --scope team`")
    # control: a personal layer's tombstone still names who forgot it, and why
    mine = "The preview host is preview-9.internal"
    assert run_cli(*cli, "write", "preview", "-d", mine, "-t", "project", "--scope", "project").returncode == 0
    assert run_cli(*cli, "forget", "preview", "--scope", "project", "--reason", "retired").returncode == 0
    own_stone = Memory.open(home=home, project=root, actor="human").tombstones("project").tombstones[0]
    own = own_stone.id
    with pytest.raises(TombstoneRefused) as caught:
        agent.write("preview", mine, "project", scope="project")
    assert str(caught.value) == (
        f"refused: this matches a forgotten value (the same value; tombstone {own}, memory 'preview', "
        f"forgotten by human on {own_stone.ts[:10]}: retired). A person can lift it with "
        f"`memdir tombstone lift {own} --scope project`")
    # the listing tells who forgot each the same way (it printed "by " and nothing for the team's)
    listed = run_cli(*cli, "tombstones").stdout.splitlines()
    assert [line.split("  — ")[0] for line in listed][0] == (
        f"{stone}  team    db-host  forgotten in the team layer (not committed yet)")
    assert [line.split("  — ")[0] for line in listed][1] == (
        f"{own}  project preview  forgotten by human on {own_stone.ts[:10]}: retired")  # its day said once
    assert all(" by  " not in line for line in listed)
    # where a tombstone was read is never written: both files keep the fields they always kept
    import json

    team_file = json.loads((root / ".claude" / "memory" / "tombstones" / f"{stone}.json").read_text())
    assert sorted(team_file) == ["description", "digest", "id", "name", "reading", "words_digest"]  # reading: tomb40
    files = list(home.rglob("tombstones.json"))
    assert len(files) == 1  # the project layer's: the team layer keeps its tombstones in the repository
    personal = json.loads(files[0].read_text())
    assert [sorted(item) for item in personal] == [  # + the journal's act that made it (forget), as journaled
        ["action", "actor", "description", "digest", "id", "name", "reading", "reason", "ts", "words_digest"]]
    assert personal[0]["action"] == "forget"


@pytest.mark.slow
def test_a_merge_conflict_is_reported_never_injected_or_overwritten_and_resolve_settles_it(clones):
    a, b = clones
    a.memory().write("db-port", "Dev PostgreSQL listens on 5433", "project", scope="team")
    a.memory().write("ci", "CI runs on GitHub Actions", "project", scope="team")
    a.publish("team memories", b)
    pulled = diverge(a, b, "db-port", {"description": "Dev PostgreSQL listens on 5434 since December"},
                     {"description": "Dev PostgreSQL listens on 6543 in the container"})
    assert pulled.returncode != 0  # a real conflict
    assert b"<<<<<<<" in (b.team_dir / "db-port.md").read_bytes()
    mem = b.memory()
    listed = mem.list()
    assert [(m.path.endswith("db-port.md"), m.error) for m in listed.malformed] == [(True, "unresolved merge conflict")]
    block = mem.context()
    assert "CI runs on GitHub Actions" in team_section(block)  # control: the rest is shown
    assert "5434" not in block and "6543" not in block and "db-port" not in block
    assert [h.name for h in mem.search("PostgreSQL")] == []
    assert any("db-port.md" in path for path in mem.team_status().conflicts)
    conflicted = (b.team_dir / "db-port.md").read_bytes()
    with pytest.raises(Conflict, match="unresolved merge conflict"):
        mem.write("db-port", "Dev PostgreSQL listens on 7000", "project", scope="team")
    assert (b.team_dir / "db-port.md").read_bytes() == conflicted
    done = mem.team_resolve("db-port", "theirs")
    assert done.side == "theirs"
    text = (b.team_dir / "db-port.md").read_text()
    assert "5434 since December" in text and "6543" not in text and "<<<<<<<" not in text
    assert "Dev PostgreSQL listens on 5434 since December" in team_section(mem.context())
    # The conflicted bytes were kept in the local journal first.
    events = [e for e in mem.session.layer("team").journal.events() if e.action == "resolve"]
    assert mem.session.layer("team").journal.get_object(events[-1].data["conflicted"]) == conflicted


@pytest.mark.slow
def test_resolve_ours_from_the_command_line(clones):
    a, b = clones
    a.memory().write("lint", "Lint with ruff", "project", scope="team")
    a.publish("lint", b)
    diverge(a, b, "lint", {"description": "Lint with ruff and mypy"}, {"description": "Lint with flake8"})
    env = {"MEMDIR_HOME": str(b.home)}
    status = run_cli("team", "status", "--project", b.root, env=env)
    assert "unresolved merge conflict" in status.stdout and "lint.md" in status.stdout
    done = run_cli("team", "resolve", "lint", "--ours", "--project", b.root, env=env)
    assert done.returncode == 0, done.stderr
    assert "Lint with flake8" in (b.team_dir / "lint.md").read_text()
    bad = run_cli("team", "resolve", "lint", "--ours", "--project", b.root, env=env)
    assert bad.returncode == 1 and "no unresolved merge conflict" in bad.stderr


def test_an_agent_proposal_for_the_team_stays_out_of_the_repository_until_approved(clones):
    a, _ = clones
    agent = a.memory(actor="agent")
    result = agent.write("deploy-day", "Deploys happen on Tuesdays", "project", scope="team")
    assert result.status == "candidate"
    assert not (a.team_dir / "deploy-day.md").exists()
    assert git(a.root, "status", "--porcelain").stdout == ""  # the repository did not change
    assert list((a.home / "team").rglob("deploy-day.md"))  # it waits in the person's home
    assert "Deploys happen" not in agent.context()
    person = a.memory()
    assert [m.name for m in person.review().candidates] == ["deploy-day"]
    assert person.team_status().pending == ("deploy-day",)
    with pytest.raises(Refused):
        agent.approve("deploy-day")
    decision = person.approve("deploy-day")
    assert (decision.name, decision.scope, decision.approved) == ("deploy-day", "team", True)
    assert (a.team_dir / "deploy-day.md").is_file()
    assert "origin: human" in (a.team_dir / "deploy-day.md").read_text()
    assert "Deploys happen on Tuesdays" in team_section(person.context())
    assert [c.state for c in person.team_status().changes] == ["untracked"]  # left for the person to commit
    assert person.review().candidates == ()
    asked = person.write("freeze", "Merge freeze from 2026-12-18", "project", scope="team", status="candidate")
    assert asked.status == "candidate" and not (a.team_dir / "freeze.md").exists()  # a candidate stays home


def test_the_agent_never_changes_the_team_directory(clones):
    a, _ = clones
    a.memory().write("ci", "CI runs on GitHub Actions", "project", scope="team")
    a.commit_all("ci")
    agent = a.memory(actor="agent")
    before = (a.team_dir / "ci.md").read_bytes()
    assert agent.read("ci").record.description == "CI runs on GitHub Actions"
    assert (a.team_dir / "ci.md").read_bytes() == before  # a read counts nothing in the repository
    with pytest.raises(Refused):
        agent.delete("ci")
    agent.write("scratch", "Scratch note of the agent", "project", scope="project")
    assert [c.scope for c in agent.clear(confirm=True).layers] == ["user", "project"]  # the team's is not the agent's
    with pytest.raises(Refused):
        agent.clear("team", confirm=True)
    assert agent.write("ci", "CI runs on Buildkite", "project").status == "candidate"  # where it is: team
    assert (a.team_dir / "ci.md").read_bytes() == before
    assert git(a.root, "status", "--porcelain").stdout == ""


@pytest.mark.slow
def test_history_shows_git_commits_and_restore_works_from_a_commit(clones):
    a, b = clones
    a.memory().write("db-port", "Dev PostgreSQL listens on 5433", "project", scope="team")
    a.commit_all("db port is 5433")
    first = git(a.root, "rev-parse", "HEAD").stdout.strip()
    a.memory().write("db-port", "Dev PostgreSQL listens on 5434", "project", scope="team")
    a.publish("db port moved to 5434", b)
    history = b.memory().history("db-port")
    assert [(c.author, c.message) for c in history.commits] == [("A", "db port moved to 5434"),
                                                               ("A", "db port is 5433")]
    assert history.commits[1].commit == first
    assert history.versions[-1].description == "Dev PostgreSQL listens on 5434"  # the local journal
    out = run_cli("history", "db-port", "--project", b.root, env={"MEMDIR_HOME": str(b.home)})
    assert "git commit(s)" in out.stdout and "db port is 5433" in out.stdout and first[:12] in out.stdout
    restored = b.memory().restore("db-port", commit=first)
    assert (restored.commit, restored.operation) == (first, "updated")
    assert "5433" in (b.team_dir / "db-port.md").read_text()
    # and from the local journal
    local = b.memory().history("db-port").versions
    b.memory().restore("db-port", local[0].version)
    assert "5434" in (b.team_dir / "db-port.md").read_text()


@pytest.mark.slow
def test_a_restore_from_a_commit_is_made_only_on_the_version_the_person_read(clones):
    a, _ = clones
    a.memory().write("db-port", "Dev PostgreSQL listens on 5433", "project", scope="team")
    a.commit_all("db port is 5433")
    first = git(a.root, "rev-parse", "HEAD").stdout.strip()
    a.memory().write("db-port", "Dev PostgreSQL listens on 5434", "project", scope="team")
    seen = a.memory().read("db-port", count=False).digest  # what the person's page or history showed
    a.memory(actor="human").write("db-port", "Dev PostgreSQL listens on 6543", "project", scope="team")  # elsewhere
    now = a.memory().read("db-port", count=False).digest
    with pytest.raises(Conflict, match="changed since it was read; the restore was not made") as refused:
        a.memory().restore("db-port", commit=first, expect_digest=seen)
    assert refused.value.current == now
    assert "6543" in (a.team_dir / "db-port.md").read_text()  # the change the person never saw stands
    # control: with the digest of the version now there, the commit's text comes back
    restored = a.memory().restore("db-port", commit=first, expect_digest=now)
    assert (restored.commit, restored.operation) == (first, "updated")
    assert "listens on 5433" in (a.team_dir / "db-port.md").read_text()


def test_team_writes_are_redacted_and_credentials_refused(clones):
    a, _ = clones
    mem = a.memory()
    saved = mem.write("aws", "The deploy user key is AKIAABCDEFGHIJKLMNOP", "reference", scope="team")
    assert saved.redactions == 1
    assert "AKIAABCDEFGHIJKLMNOP" not in (a.team_dir / "aws.md").read_text()
    with pytest.raises(Refused, match="credential"):
        mem.write("svc", "Service settings", "reference", "db password: correcthorsebatterystaple", scope="team")
    with pytest.raises(Refused, match="credential"):
        mem.write("tok", "Upload token", "reference", "use Zq8rT2mXw9LpV4sK7dNc1aGhY3bE6fJ0 for uploads", scope="team")
    assert not (a.team_dir / "svc.md").exists() and not (a.team_dir / "tok.md").exists()
    # The same text is allowed in the personal project layer (redaction only): the refusal is the team's.
    assert mem.write("tok", "Upload token", "reference", "use Zq8rT2mXw9LpV4sK7dNc1aGhY3bE6fJ0 for uploads",
                     scope="project").operation == "created"
    assert mem.write("sha", "Fixed in commit 3f9a1c2e4b5d6f708192a3b4c5d6e7f8091a2b3c", "project",
                     scope="team").operation == "created"  # a commit id is not a credential


def test_promote_moves_a_personal_memory_into_the_team_layer(clones):
    a, _ = clones
    mem = a.memory()
    mem.write("ports", "Service ports are listed in infra/ports.md", "reference", scope="project")
    mem.write("mine", "I prefer small commits", "project", scope="project")
    assert not (a.team_dir / "ports.md").exists()  # nothing goes there on its own
    done = mem.promote("ports")
    assert done.operation == "created" and (a.team_dir / "ports.md").is_file()
    assert [m.name for m in mem.list("project").memories] == ["mine"]
    assert [m.name for m in mem.list("team").memories] == ["ports"]
    with pytest.raises(Refused):
        a.memory(actor="agent").promote("mine")
    assert not (a.team_dir / "mine.md").exists()


def test_promote_is_guarded_by_every_layer_s_tombstones_as_a_write_to_the_team_is(clones):
    """A value forgotten in the user layer is refused when promoted into the team layer, as a person's
    write of it there is (one rule: :func:`memdir.operations.lookup.guard`); promote checked the project
    layer's tombstones only."""
    a, _ = clones
    mem = a.memory()
    mem.write("ports-mine", "Service ports are listed in infra/ports.md", "reference", "See the table.",
              scope="user")
    mem.forget("ports-mine", "user")  # forgotten before another memory holds it (else no tombstone is left)
    mem.write("ports", "Service ports are listed in infra/ports.md", "reference", "See the table.", scope="project")
    stone = mem.tombstones("user").tombstones[0].id
    with pytest.raises(TombstoneRefused):  # the agent's proposal for the team is refused
        a.memory(actor="agent").write("ports", "Service ports are listed in infra/ports.md", "reference",
                                      "See the table.", scope="team")
    # a person's own promotion is warned, naming the user layer's tombstone (issue 24: never blocked by it)
    promoted = mem.promote("ports")
    assert (a.team_dir / "ports.md").is_file() and any(stone in w and "another layer's" in w
                                                         for w in promoted.warnings)
    # control: a value no layer forgot is promoted
    mem.write("build", "make build uses ninja", "reference", scope="project")
    assert mem.promote("build").operation == "created" and (a.team_dir / "build.md").is_file()


def test_init_adopts_an_existing_directory_as_it_is(tmp_path):
    root = tmp_path / "repo"
    git(tmp_path, "init", "-q", str(root))
    team = root / ".claude" / "memory"
    team.mkdir(parents=True)
    hand = b"---\nname: Build Notes\nmetadata:\n  type: reference\ndescription: make build uses ninja\n---\nBody.\n"
    (team / "build_notes.md").write_bytes(hand)
    (team / "MEMORY.md").write_bytes(b"- [Build](build_notes.md)\n")
    mem = Memory.open(home=tmp_path / "h", project=root, actor="human")
    result = mem.team_init()
    assert result.adopted == 1 and "README" in result.created and ".gitignore" in result.created
    assert (team / "build_notes.md").read_bytes() == hand
    assert "make build uses ninja" in team_section(mem.context())
    assert (team / "build_notes.md").read_bytes() == hand  # reading renamed and rewrote nothing
    assert (team / "MEMORY.md").read_bytes() == b"- [Build](build_notes.md)\n"
    assert "MEMORY.md" in (team / ".gitignore").read_text()
    again = mem.team_init()
    assert again.created == ()


def test_without_a_team_directory_there_is_no_team_scope(tmp_path, project):
    mem = Memory.open(home=tmp_path / "h", project=project, actor="human")
    assert mem.scopes() == ["user", "project"]
    from memdir.errors import ScopeError

    with pytest.raises(ScopeError, match="team init"):
        mem.write("x", "Some fact for the team", "project", scope="team")
    mem.team_init()
    assert mem.scopes() == ["user", "team", "project"]


def test_team_dir_setting_moves_the_layer(tmp_path):
    root = tmp_path / "repo"
    git(tmp_path, "init", "-q", str(root))
    mem = Memory.open(home=tmp_path / "h", project=root, actor="human", team_dir="docs/memory")
    mem.team_init()
    mem.write("x", "A fact kept in docs/memory", "project", scope="team")
    assert (root / "docs" / "memory" / "x.md").is_file() and not (root / ".claude").exists()
    from memdir.errors import InvalidInput

    with pytest.raises(InvalidInput):
        Memory.open(home=tmp_path / "h", project=root, actor="human", team_dir="../outside").team_init()


def test_consolidation_and_the_tools_only_propose_for_the_team(clones):
    from memdir.consolidation.proposals import Proposal
    from tests.consolidation.test_consolidate import Proposer

    proposer = Proposer(Proposal("update", target="ci", description="CI runs on GitHub Actions and Buildkite"),
                        Proposal("create", name="deploy-day", scope="team", description="Deploys happen on Tuesdays"),
                        Proposal("create", name="my-branch", description="Working on the billing branch"))

    a, _ = clones
    a.memory().write("ci", "CI runs on GitHub Actions", "project", scope="team")
    a.commit_all("ci")
    before = (a.team_dir / "ci.md").read_bytes()
    report = a.memory().consolidate([{"role": "user", "content": "Remember: CI also runs on Buildkite."}],
                                    extractor=proposer, mode="always")
    assert [(o.result, o.scope) for o in report.outcomes] == [
        ("candidate", "team"), ("created", "team"), ("created", "project")]
    assert report.outcomes[1].detail == "" and git(a.root, "status", "--porcelain").stdout == ""
    assert (a.team_dir / "ci.md").read_bytes() == before
    person = a.memory()
    pending = sorted(m.name for m in person.review().candidates)
    assert "deploy-day" in pending and any(n.startswith("ci") for n in pending)
    candidate = next(n for n in pending if n.startswith("ci"))
    assert person.approve(candidate).name == "ci"
    assert "Buildkite" in (a.team_dir / "ci.md").read_text()
    # the tools: a write for the team is a candidate, a delete is refused, the schema offers the scope
    agent = a.memory(actor="agent")
    text = agent.call_tool("memory_write", {"name": "lint", "description": "Lint with ruff", "type": "project",
                                            "body": "", "scope": "team"})
    assert "candidate" in text.lower() and not (a.team_dir / "lint.md").exists()
    refused = agent.call_tool("memory_delete", {"name": "ci"})
    assert refused.startswith("Error:") and "person" in refused and (a.team_dir / "ci.md").exists()
    write_schema = next(s for s in agent.tool_schemas() if s["function"]["name"] == "memory_write")
    assert "team" in write_schema["function"]["parameters"]["properties"]["scope"]["enum"]


def test_session_start_shows_the_team_section_and_imports_only_the_core(clones):
    import json
    import subprocess
    import sys

    a, _ = clones
    a.memory().write("db-port", "Dev PostgreSQL listens on 5433", "project", scope="team")
    payload = {"session_id": "s1", "transcript_path": "/tmp/none.jsonl", "cwd": str(a.root),
               "hook_event_name": "SessionStart", "source": "startup"}
    code = (
        "import io, json, sys\n"
        "from memdir.integrations.claude_code import hooks\n"
        f"hooks.handle('SessionStart', stdin=io.StringIO({json.dumps(json.dumps(payload))}))\n"
        "heavy = sorted(m for m in ('yaml', 'sqlite3', 'filelock', 'memdir.layer.layer', 'memdir.layer.team',"
        " 'memdir.git') if m in sys.modules)\n"
        "print(json.dumps(heavy), file=sys.stderr)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60,
                          env={**__import__("os").environ, "MEMDIR_HOME": str(a.home)})
    assert "## Team memories" in done.stdout and "Dev PostgreSQL listens on 5433" in done.stdout
    assert json.loads(done.stderr.strip().splitlines()[-1]) == []


def test_verify_checks_the_team_journal_too(clones):
    a, _ = clones
    mem = a.memory()
    mem.write("db-port", "Dev PostgreSQL listens on 5433", "project", scope="team")
    mem.write("db-port", "Dev PostgreSQL listens on 5434", "project", scope="team")
    checked = mem.verify()
    team_checks = [c for c in checked.layers if "/team/" in c.layer]
    assert team_checks and all(c.ok for c in team_checks) and checked.ok
    journal = a.home / "team"
    path = next(journal.rglob("journal.jsonl"))
    path.write_bytes(path.read_bytes().replace(b'"create"', b'"delete"', 1))  # the first line: the chain breaks
    assert not mem.verify().ok


def test_the_panel_lists_the_team_layer_of_a_clone_that_only_pulled_it(clones):
    from memdir.integrations.panel.home import PanelHome
    from memdir.settings import Settings

    a, b = clones
    a.memory().write("db-port", "Dev PostgreSQL listens on 5433", "project", scope="team")
    a.publish("db port", b)
    assert "5433" in b.memory().context()  # B's home now knows the repository by its team layer only
    views = PanelHome(b.home, Settings()).views()
    team = [v for v in views if v.scope == "team"]
    assert len(team) == 1 and team[0].status.memories == 1
    assert [v.scope for v in views if v.ref.startswith(team[0].ref.split(":")[0])] == ["team", "project"]


def test_git_is_read_in_the_project_even_when_the_environment_names_another_repository(clones, tmp_path,
                                                                                        monkeypatch):
    a, _ = clones
    a.memory().write("db-port", "Dev PostgreSQL listens on 5433", "project", scope="team")
    a.commit_all("db port is 5433")
    other = tmp_path / "other"
    git(tmp_path, "init", "-q", str(other))
    # As git sets them when memdir runs from a hook of another repository (before: git read that one).
    monkeypatch.setenv("GIT_DIR", str(other / ".git"))
    monkeypatch.setenv("GIT_WORK_TREE", str(other))
    monkeypatch.setenv("GIT_INDEX_FILE", str(other / ".git" / "index"))
    history = a.memory().history("db-port")
    assert [(c.author, c.message) for c in history.commits] == [("A", "db port is 5433")]
    (a.team_dir / "db-port.md").write_text((a.team_dir / "db-port.md").read_text().replace("5433", "5434"))
    assert [(c.path, c.state) for c in a.memory().team_status().changes] == [(".claude/memory/db-port.md",
                                                                             "modified")]


GHP = "ghp_abcdefghijklmnopqrstuvwxyz0123456789"
RANDOM = "Zq8rT2mXw9LpV4sK7dNc1aGhY3bE6fJ0"


def test_a_credential_in_frontmatter_extra_is_redacted_or_refused_for_the_team(clones, tmp_path):
    """An import of a file holding ``api_key: ghp_…``, approved into the team layer, committed the
    token: ``extra`` was neither redacted nor seen by the team's credential refusal (``admit``)."""
    a, _ = clones
    mem = a.memory()
    source = tmp_path / "notes"
    source.mkdir()
    (source / "deploy.md").write_text(f"---\nname: deploy\ndescription: Deploy with the release bot\n"
                                      f"type: project\napi_key: {GHP}\n---\n", encoding="utf-8")
    (source / "upload.md").write_text(f"---\nname: upload\ndescription: Uploads go through the bot\n"
                                      f"type: project\nupload:\n  via: [bot, {RANDOM}]\n---\n", encoding="utf-8")
    report = mem.import_from("dir", str(source), scope="team")
    assert [(o.name, o.result) for o in report.outcomes] == [("deploy", "candidate"), ("upload", "candidate")]
    assert mem.approve("deploy").name == "deploy"
    text = (a.team_dir / "deploy.md").read_text(encoding="utf-8")
    assert GHP not in text and "api_key: '[REDACTED:github-token]'" in text
    with pytest.raises(Refused) as refused:
        mem.approve("upload")
    assert str(refused.value) == ("refused for the team layer: the frontmatter key 'upload' still looks like a "
                                  "credential (a random-looking token of 32 characters (Zq8r…)); remove it — the "
                                  "team layer is committed to the repository")
    assert not (a.team_dir / "upload.md").exists()
    with pytest.raises(Refused, match="the frontmatter key 'secret' still looks like a credential"):
        mem.write("svc", "Service settings", "reference", extra={"secret": "correcthorsebatterystaple"}, scope="team")
    assert not (a.team_dir / "svc.md").exists()
    done = mem.write("ticket", "Ticket of the deploy", "reference", extra={"ticket": "OPS-7"}, scope="team")
    assert done.operation == "created" and "ticket: OPS-7" in (a.team_dir / "ticket.md").read_text()  # control


def test_promote_refuses_a_memory_spelled_unlike_the_team_memory_of_its_file_name(clones):
    """before: ``C# tips`` promoted over the team's ``C++ tips`` (both the file ``c-tips``) replaced it
    ("Promoted c-tips … updated")."""
    a, _ = clones
    mem = a.memory()
    mem.write("C++ tips", "Use RAII for every resource", "reference", "the team's C++ notes", scope="team")
    mem.write("Go tips", "Accept interfaces", "reference", scope="team")
    mem.write("C# tips", "Prefer LINQ over loops", "reference", "C# stuff", scope="project")
    mem.write("go tips", "Accept interfaces, return structs", "reference", scope="project")
    team_file = (a.team_dir / "c-tips.md").read_bytes()
    with pytest.raises(Conflict) as refused:
        mem.promote("c-tips")
    assert str(refused.value) == (
        "cannot promote 'C# tips' (c-tips): its file name 'c-tips' is that of the team memory 'C++ tips', which is "
        "another name; rename it first (memdir write c-sharp-tips --rename-from c-tips --scope project), "
        "then promote c-sharp-tips")
    out = run_cli("--project", a.root, "promote", "C# tips", "--to", "team", env={"MEMDIR_HOME": str(a.home)})
    assert out.returncode == 1 and str(refused.value) in out.stderr
    assert (a.team_dir / "c-tips.md").read_bytes() == team_file
    assert mem.read("c-tips", "project", count=False).record.description == "Prefer LINQ over loops"  # still there
    # control: the same name (spelled alike) updates the team memory, as before
    done = mem.promote("go-tips")
    assert done.operation == "updated"
    assert mem.read("go-tips", "team", count=False).record.description == "Accept interfaces, return structs"
    # and under the distinct name, once renamed, it is promoted beside the team's C++ tips
    mem.write("c-sharp-tips", rename_from="c-tips", scope="project")
    assert mem.promote("c-sharp-tips").operation == "created"
    assert mem.read("C++ tips", "team", count=False).record.description == "Use RAII for every resource"


def test_promote_refuses_to_replace_a_teammates_memory_of_the_same_name(clones):
    """trial35: Bob pulled the team's ``ci`` (description and body), wrote a personal ``ci`` note and promoted it:
    the team file took his description and lost its body ("Promoted ci … updated"). Now refused, naming the
    team memory and what to do; nothing changes. Control: a team memory Bob's own memdir wrote last is updated
    by the promote, as before."""
    a, b = clones
    a.memory().write("ci", "CI runs on GitHub Actions; deploys need the VPN", "project", "Ask #infra for VPN access.",
                     scope="team")
    a.publish("team: ci", b)
    mem = b.memory()
    mem.write("ci", "My own CI note: the runner is self-hosted", "project", scope="project")
    team_file = (b.team_dir / "ci.md").read_bytes()
    with pytest.raises(Conflict) as refused:
        mem.promote("ci")
    assert str(refused.value) == (
        "cannot promote 'ci': the team layer has 'ci' ('CI runs on GitHub Actions; deploys need the VPN') as git or "
        "a hand edit left it, and promoting would replace its text by yours; change it with `memdir write ci "
        "--scope team`, or rename yours first (memdir write ci-2 --rename-from ci --scope project), then promote ci-2")
    assert (b.team_dir / "ci.md").read_bytes() == team_file
    assert mem.read("ci", "project", count=False).record.description == "My own CI note: the runner is self-hosted"
    # control: a team memory this home wrote last is replaced by the promote of a personal one of its name
    mem.write("lint", "Lint with ruff", "project", "ruff check .", scope="team")
    mem.write("lint", "Lint with ruff and mypy", "project", scope="project")
    assert mem.promote("lint").operation == "updated"
    assert mem.read("lint", "team", count=False).record.description == "Lint with ruff and mypy"
    # and under the distinct name, Bob's note is promoted beside the team's ci
    mem.write("ci-2", rename_from="ci", scope="project")
    assert mem.promote("ci-2").operation == "created"
    assert (b.team_dir / "ci.md").read_bytes() == team_file
