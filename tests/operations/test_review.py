"""Review shows exactly what approve applies; approve, reject and dismiss carry the digest of what was
shown; dismiss drops a candidate with no tombstone and the same proposal is not proposed again (issue 24)."""

from __future__ import annotations

import pytest

from memdir.errors import Conflict, TombstoneRefused
from tests.teamgit import shared_repository


@pytest.fixture
def clones(tmp_path):
    return shared_repository(tmp_path)


def by_name(person):
    return {c.name: c for c in person.review().candidates}


@pytest.mark.slow
def test_a_team_change_shows_live_proposed_and_diff_and_approve_writes_what_was_shown(clones):
    a, _ = clones
    person, agent = a.memory(), a.memory(actor="agent")
    person.write("ci", "CI runs on GitHub Actions", "project", "Workflow ci.yml.", scope="team")
    agent.write("ci", "CI runs on Buildkite", "project", "Pipeline in .buildkite.", scope="team")
    agent.write("deploy-day", "Deploys happen on Tuesdays", "project", "Never on Fridays.", scope="team")
    shown = by_name(person)
    change, new = shown["ci"], shown["deploy-day"]
    assert (change.scope, change.change, change.target) == ("team", "change", "ci")
    assert change.live == "description: CI runs on GitHub Actions\ntype: project\n\nWorkflow ci.yml.\n"
    assert change.proposed == "description: CI runs on Buildkite\ntype: project\n\nPipeline in .buildkite.\n"
    assert "-description: CI runs on GitHub Actions\n+description: CI runs on Buildkite\n" in change.diff
    assert (new.change, new.live, new.diff) == ("new", None, None)
    assert new.proposed == "description: Deploys happen on Tuesdays\ntype: project\n\nNever on Fridays.\n"
    # The agent changes its proposal after the person saw it: the approval of what was shown is refused.
    agent.write("ci", "CI runs on Jenkins", "project", "Jenkinsfile.", scope="team")
    with pytest.raises(Conflict, match="changed since it was shown"):
        person.approve("ci", "team", digest=change.digest)
    assert "GitHub Actions" in (a.team_dir / "ci.md").read_text()
    fresh = by_name(person)["ci"]
    assert fresh.digest != change.digest and "Jenkins" in fresh.proposed
    decision = person.approve("ci", "team", digest=fresh.digest[:12])  # control: what is shown now
    assert (decision.name, decision.approved) == ("ci", True)
    assert "CI runs on Jenkins" in (a.team_dir / "ci.md").read_text()
    person.approve("deploy-day", digest=new.digest)
    assert "Never on Fridays." in (a.team_dir / "deploy-day.md").read_text()


def test_a_team_candidate_is_counted_and_listed_before_the_team_layer_has_a_memory(clones):
    _, b = clones
    b.memory(actor="agent").write("deploy-day", "Deploys happen on Tuesdays", "project", scope="team")
    person = b.memory()
    team = next(layer for layer in person.status().layers if layer.scope == "team")
    assert (team.memories, team.candidates) == (0, 1)
    assert [(c.name, c.change) for c in person.review().candidates] == [("deploy-day", "new")]
    project = next(layer for layer in person.status().layers if layer.scope == "project")
    assert project.candidates == 0  # control: counted where it waits, once


def test_a_personal_change_is_refused_once_the_live_memory_changed(person, mem):
    person.write("db-port", "Dev PostgreSQL listens on 5433", "project", "Moved from 5432.", title="DB port")
    mem.write("db-port", "Dev PostgreSQL listens on 6543", "project", "Moved again.", status="candidate")
    (shown,) = person.review().candidates
    assert (shown.name, shown.change, shown.target) == ("db-port-candidate", "change", "db-port")
    assert shown.proposed == ("title: DB port\ndescription: Dev PostgreSQL listens on 6543\ntype: project\n\n"
                              "Moved again.\n")
    person.write("db-port", "Dev PostgreSQL listens on 5434", "project", "A person's own fix.")
    with pytest.raises(Conflict, match="changed since it was shown"):
        person.approve("db-port-candidate", digest=shown.digest)
    assert person.read("db-port", count=False).record.body == "A person's own fix."
    again = person.review().candidates[0]
    assert "-description: Dev PostgreSQL listens on 5434" in again.diff
    person.approve("db-port-candidate", digest=again.digest)  # control
    assert person.read("db-port", count=False).record.description == "Dev PostgreSQL listens on 6543"


def test_dismiss_leaves_no_tombstone_and_the_same_proposal_is_not_proposed_again(person, mem):
    mem.write("indent", "Indent with tabs", "feedback", "Use tabs.", status="candidate")
    shown = person.review().candidates[0]
    decision = person.dismiss("indent", digest=shown.digest)
    assert (decision.dismissed, decision.approved, decision.name) == (True, False, "indent")
    assert person.review().candidates == () and person.tombstones().tombstones == ()
    again = mem.write("indent", "Indent with tabs", "feedback", "Use tabs.", status="candidate")
    assert again.operation == "dismissed" and "dismissed this exact proposal" in again.warnings[-1]
    assert person.review().candidates == ()
    other = mem.write("indent", "Indent with tabs", "feedback", "Use tabs, width 4.", status="candidate")
    assert other.operation == "created" and [c.name for c in person.review().candidates] == ["indent"]  # control
    mine = person.write("indent-2", "Indent with tabs", "feedback", "Use tabs.")  # the fact itself is not refused
    assert mine.operation == "created"
    journal = [e.action for e in person.journal("project", name="indent").entries]
    assert "dismiss" in journal and "reject" not in journal


def test_reject_still_tombstones_and_dismiss_of_a_team_candidate_is_remembered_in_the_home(clones):
    a, _ = clones
    person, agent = a.memory(), a.memory(actor="agent")
    agent.write("deploy-day", "Deploys happen on Tuesdays", "project", "b", scope="team")
    person.dismiss("deploy-day", "team", digest=by_name(person)["deploy-day"].digest)
    again = agent.write("deploy-day", "Deploys happen on Tuesdays", "project", "b", scope="team")
    assert again.operation == "dismissed"
    assert not list(a.team_dir.glob("*.json")) and person.tombstones().tombstones == ()
    agent.write("freeze", "Merge freeze in December", "project", "b", scope="team")
    person.reject("freeze", "team", digest=by_name(person)["freeze"].digest)
    with pytest.raises(TombstoneRefused):  # control: reject tombstones the value (listing it: branch tomb)
        agent.write("freeze", "Merge freeze in December", "project", "b", scope="team")


@pytest.mark.slow
def test_every_field_review_shows_is_what_approve_writes_personal_and_team(clones):
    """An agent's proposal that pins and dates a memory: review shows the pin and the valid times, and
    approve writes them — a team change, a team creation and a personal change alike; a proposal that
    sets neither shows and writes the live memory's (the control)."""
    from memdir.operations.trust import review_text

    a, _ = clones
    person, agent = a.memory(), a.memory(actor="agent")
    person.write("ci", "CI runs on GitHub Actions", "project", "Workflow ci.yml.", scope="team", importance=6)
    person.write("db-port", "Dev PostgreSQL listens on 5433", "project", "Moved from 5432.", scope="project",
                 title="DB port")
    person.write("lint", "Lint with flake8", "project", "flake8.", scope="team", pinned=True,
                 valid_until="2031-01-01T00:00:00Z")
    dated = {"pinned": True, "valid_from": "2026-01-01T00:00:00Z", "valid_until": "2030-01-01T00:00:00Z"}
    agent.write("ci", "CI runs on Buildkite", "project", "Pipeline in .buildkite.", scope="team", **dated)
    agent.write("deploy-day", "Deploys happen on Tuesdays", "project", "Never on Fridays.", scope="team",
                title="Deploy day", importance=9, **dated)
    agent.write("db-port", "Dev PostgreSQL listens on 6543", "project", "Moved again.", status="candidate", **dated)
    agent.write("lint", "Lint with ruff", "project", "ruff check.", scope="team")  # sets no pin, no times
    shown = by_name(person)
    assert set(shown) == {"ci", "deploy-day", "db-port-candidate", "lint"}
    for c in shown.values():
        assert c.pinned is True, c.name  # the list line's 📌 is the pin approving gives
        assert "pinned: yes\n" in c.proposed and "valid until: " in c.proposed, c.name
    assert "valid from: 2026-01-01T00:00:00Z\nvalid until: 2030-01-01T00:00:00Z\n" in shown["ci"].proposed
    assert "importance: 6\n" in shown["ci"].proposed and "title: DB port\n" in shown["db-port-candidate"].proposed
    assert "valid until: 2031-01-01T00:00:00Z\n" in shown["lint"].proposed  # control: the live memory's
    targets = {"ci": ("ci", "team"), "deploy-day": ("deploy-day", "team"), "db-port-candidate": ("db-port", "project"),
               "lint": ("lint", "team")}
    for name, c in shown.items():
        person.approve(name, c.scope, digest=c.digest)
        record = person.read(*targets[name], count=False).record
        assert review_text(record) == c.proposed, name
    assert person.read("ci", "team", count=False).record.pinned is True
    # Control: a proposal that pins nothing, for a memory that is not pinned, shows and writes no pin.
    person.write("style", "Four spaces", "project", "PEP 8.", scope="project")
    agent.write("style", "Four spaces, 100 columns", "project", "PEP 8, 100 columns.", status="candidate")
    (plain,) = person.review().candidates
    assert plain.pinned is False and "pinned" not in plain.proposed
    person.approve(plain.name, plain.scope, digest=plain.digest)
    assert person.read("style", "project", count=False).record.pinned is False


def test_approve_without_a_digest_refuses_a_candidate_rewritten_since_review_showed_it(person, mem, isolated_home,
                                                                                          project):
    """break29: `memdir approve NAME` (no --digest) published the text the agent wrote after the person ran
    `memdir review` — text nobody had seen. Review records the digest it showed; a decision without one is
    checked against it, and one on a candidate review never showed says the digest it approved."""
    from tests.conftest import run_cli

    env = {"MEMDIR_HOME": str(isolated_home), "MEMDIR_SEARCH_VECTORS": "off"}
    person.write("db-port", "Dev PostgreSQL listens on 5433", "project", "Moved from 5432.")
    mem.write("db-port", "Dev PostgreSQL listens on 6543", "project", "Moved again.", status="candidate")
    mem.write("indent", "Indent with tabs", "feedback", "Use tabs.", status="candidate")
    shown = run_cli("--project", project, "review", env=env)
    assert shown.returncode == 0 and "6543" in shown.stdout and "Indent with tabs" in shown.stdout, shown.stderr
    mem.write("db-port", "Dev PostgreSQL listens on 9999", "project", "Rewritten unseen.", status="candidate")
    rewritten = person.read("db-port-candidate", count=False).record
    assert rewritten.description == "Dev PostgreSQL listens on 9999"  # the rewrite is there (the state under test)

    refused = run_cli("--project", project, "approve", "db-port-candidate", env=env)
    assert refused.returncode == 1 and "changed since review showed it" in refused.stderr, refused.stderr
    assert person.read("db-port", count=False).record.description == "Dev PostgreSQL listens on 5433"  # before: 9999
    rejected = run_cli("--project", project, "reject", "db-port-candidate", env=env)  # a rejection alike: it tombstones
    assert rejected.returncode == 1 and "changed since review showed it" in rejected.stderr, rejected.stderr
    # The controls: what review showed, unchanged, is approved without a digest; once shown again, so is the rewrite.
    ok = run_cli("--project", project, "approve", "indent", env=env)
    assert ok.returncode == 0 and "Approved indent" in ok.stdout and "without `memdir review`" not in ok.stderr
    assert run_cli("--project", project, "review", env=env).stdout.count("9999") >= 1
    again = run_cli("--project", project, "approve", "db-port-candidate", env=env)
    assert again.returncode == 0, again.stderr
    assert person.read("db-port", count=False).record.description == "Dev PostgreSQL listens on 9999"
    # A candidate review never showed: approved, saying so and the digest it approved.
    mem.write("tabs-width", "Tabs are 4 wide", "feedback", "Width 4.", status="candidate")
    unseen = run_cli("--project", project, "approve", "tabs-width", env=env)
    assert unseen.returncode == 0 and "without `memdir review` showing it" in unseen.stderr, unseen.stderr
    assert "(digest " in unseen.stderr


def test_each_person_keeps_their_own_record_of_what_review_showed_and_none_goes_into_the_repository(clones):
    """review32: what `memdir review` last showed (the record a decision without a digest is checked against) is
    kept in the reviewer's home, beside their candidates for the team (DESIGN §11), never in the team directory
    git shares: two people reviewing the same repository never overwrite each other's record. Two clones, two
    homes: B's review leaves A's record byte for byte, and A's approval without a digest is still checked against
    what A was shown (control: the approval of what A sees now goes through)."""
    from memdir.files.layout import SHOWN_FILE
    from memdir.operations import team as teamops
    from tests.teamgit import git

    a, b = clones
    a.memory(actor="agent").write("deploy-day", "Deploys happen on Tuesdays", "project", scope="team")
    b.memory(actor="agent").write("deploy-day", "Deploys happen on Fridays", "project", scope="team")
    person_a, person_b = a.memory(), b.memory()
    assert [c.proposed.splitlines()[0] for c in person_a.review().candidates] == ["description: Deploys happen on Tuesdays"]
    record_a = teamops.candidates(person_a.session).meta / SHOWN_FILE
    kept = record_a.read_bytes()
    assert [c.proposed.splitlines()[0] for c in person_b.review().candidates] == ["description: Deploys happen on Fridays"]
    record_b = teamops.candidates(person_b.session).meta / SHOWN_FILE
    assert record_b.exists() and record_b != record_a and record_a.read_bytes() == kept  # B's review: B's own record
    for clone in (a, b):  # nothing review keeps is in the repository
        assert git(clone.root, "status", "--porcelain", "--untracked-files=all").stdout == ""
        assert not list(clone.root.rglob(SHOWN_FILE))
    a.memory(actor="agent").write("deploy-day", "Deploys happen on Mondays", "project", scope="team")
    with pytest.raises(Conflict, match="changed since review showed it"):
        person_a.approve("deploy-day")  # checked against what A was shown, whatever B saw
    assert not (a.team_dir / "deploy-day.md").exists()  # nothing approved
    person_a.review()  # control: shown again, approved as it is now
    assert person_a.approve("deploy-day").approved
    assert "Deploys happen on Mondays" in (a.team_dir / "deploy-day.md").read_text()
