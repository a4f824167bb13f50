"""What the offline rules keep, updates instead of near-duplicates, and the drift guard."""

from __future__ import annotations

import json

from memdir import Memory
from memdir.consolidation.extractors.rules import classify, strip_filler, write_down
from memdir.consolidation.extractors.subjects import drifts, same_subject
from memdir.consolidation.proposals import Proposal
from tests.consolidation.test_consolidate import journal_lines, memories
from tests.scripted import Scripted


def open_mem(home, project) -> Memory:
    return Memory.open(home=home, project=project, actor="human")


def say(*texts: str) -> list[dict]:
    return [{"role": "user", "content": t} for t in texts]


def test_a_preference_about_the_person_goes_to_the_user_layer_without_its_conjunction(isolated_home, project):
    mem = open_mem(isolated_home, project)
    report = mem.consolidate(say("And I prefer answers in Chinese from now on."), extractor="rules")
    assert [(o.result, o.name, o.scope) for o in report.outcomes] == [
        ("created", "prefer-answers-chinese-now", "user")]
    record = mem.read("prefer-answers-chinese-now", count=False).record
    assert record.type == "user" and record.description == "I prefer answers in Chinese from now on."
    assert strip_filler("so, first of all, pls always use uv") == "Always use uv"
    assert strip_filler("另外，我们决定用 PostgreSQL") == "我们决定用 PostgreSQL"


def test_explicit_write_down_requests_keep_their_content(isolated_home, project):
    said = ["yeah, no.", "first of all, you're confusing lines with spectral orders.", "all data here is single order.",
            "pls start by putting this info as *important* into CLAUDE.md.", "then look again at the plots."]
    assert write_down(said, 3) == "You're confusing lines with spectral orders. All data here is single order."
    assert write_down(["Important: the GPU box is arm64, not x86."], 0) == "The GPU box is arm64, not x86."
    assert write_down(["add to CLAUDE.md: run ruff before committing"], 0) == "Run ruff before committing"
    assert write_down(["then look again at the plots."], 0) is None  # control: no request, nothing
    mem = open_mem(isolated_home, project)
    report = mem.consolidate(say("所有数据都是单阶光谱。把这个写进 CLAUDE.md。", "重要：发布前必须跑 make check。"),
                             extractor="rules")
    assert [(o.result, o.scope) for o in report.outcomes] == [("created", "project"), ("created", "project")]
    described = sorted(m.description for m in memories(mem).values())
    assert described == ["发布前必须跑 make check。", "所有数据都是单阶光谱。"]


def test_task_only_instructions_are_not_kept_standing_rules_are(isolated_home, project):
    assert classify("Make extensive notes as you go in a notes.md file which you should only ever append to.") is None
    assert classify("For now, never touch the vendored code.") is None
    mem = open_mem(isolated_home, project)
    report = mem.consolidate(say("Make extensive notes as you go in a notes.md file which you should only ever "
                                 "append to.", "Always run make check before pushing."), extractor="rules")
    assert [(o.result, o.name) for o in report.outcomes] == [("created", "always-run-check-before-pushing")]


def test_a_statement_on_an_existing_subject_updates_it_instead_of_a_near_duplicate(isolated_home, project):
    mem = open_mem(isolated_home, project)
    mem.write("db-port", "Dev PostgreSQL listens on 5434", "project", "Moved in November.")
    mem.write("no-mocks-db", "Integration tests must hit a real database, not mocks", "feedback",
              "**Why:** mocks hid a broken migration.\n**How to apply:** every integration test.")
    report = mem.consolidate(say("Remember that the dev PostgreSQL now listens on port 5435.",
                                 "Now always run integration tests against the real database.",
                                 "Always pin numpy below 2."), extractor="rules")
    got = [(o.action, o.result, o.target, o.name) for o in report.outcomes]
    # a person wrote both: the updates wait for review as candidates; the unrelated rule is a new memory
    assert got == [("update", "candidate", "db-port", "db-port-candidate"),
                   ("update", "candidate", "no-mocks-db", "no-mocks-db-candidate"),
                   ("create", "created", None, "always-pin-numpy-below-2")]
    assert sorted(memories(mem)) == ["always-pin-numpy-below-2", "db-port", "db-port-candidate", "no-mocks-db",
                                     "no-mocks-db-candidate"]
    assert mem.read("db-port", count=False).record.description == "Dev PostgreSQL listens on 5434"  # until approved
    assert mem.read("db-port-candidate", count=False).record.description == (
        "The dev PostgreSQL now listens on port 5435.")


def test_subjects_tell_one_service_from_another():
    class M:
        def __init__(self, name, description, body=""):
            self.scope, self.name, self.description, self.body, self.status = "project", name, description, body, "active"

    services = [M("service-alpha-port", "Service alpha runs on port 8001")]
    assert same_subject("Service bravo runs on port 8002", services) is None
    assert same_subject("Service alpha now runs on port 8009", services) == ("project", "service-alpha-port")


def test_updates_that_drift_off_topic_or_double_the_body_become_candidates(isolated_home, project):
    mem = open_mem(isolated_home, project)
    base = "Run the unit tests with pytest -x; the slow suite is marked slow."
    create = Proposal("create", name="pytest-usage", description="Tests run with pytest -x", body=base)
    assert mem.consolidate(say("Always use pytest."), extractor=Scripted(create)).outcomes[0].result == "created"
    facts = ["The user walks the dog at 7am.", "The user's sister lives in Lyon.", "Lunch is at noon.",
             "The office plant needs water on Fridays.", "The user collects stamps."]
    results = []
    for n, fact in enumerate(facts):
        update = Proposal("update", target="pytest-usage", description="Tests run with pytest -x",
                          body=base + " " + fact)
        report = mem.consolidate(say(f"Always use pytest {n}."), extractor=Scripted(update))
        results.append((report.outcomes[0].result, report.outcomes[0].detail.split(";")[0]))
    assert results[0] == ("candidate", "the update changes the memory's topic (similarity 0.00 < 0.2)")
    assert {r for r, _ in results} == {"candidate"}
    assert mem.read("pytest-usage", count=False).record.body == base  # never about dogs
    related = Proposal("update", target="pytest-usage", description="Tests run with pytest -x",
                       body=base + " Use pytest -n auto for the slow suite.")
    assert mem.consolidate(say("Always use pytest -n."), extractor=Scripted(related)).outcomes[0].result == "updated"
    assert drifts("a", "short body", "a", "short body " * 3).startswith("the update more than doubles the body")


def test_truncation_and_redaction_appear_in_the_report_and_the_receipt(isolated_home, project):
    mem = open_mem(isolated_home, project)
    key = "ghp_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4"
    long = Proposal("create", name="long-note", description="A long note", body="word " * 2000 + key)
    report = mem.consolidate(say("Remember the long note."), extractor=Scripted(long))
    outcome = report.outcomes[0]
    assert outcome.result == "created"
    assert outcome.warnings == ("body cut from 10032 to 2000 characters",)
    from memdir.render import consolidation as render_consolidation

    assert "warning: body cut from 10032 to 2000 characters" in render_consolidation.consolidation(report)
    secret = Proposal("create", name="token-note", description=f"The CI token is {key}", body="")
    report = mem.consolidate(say("Remember the token."), extractor=Scripted(secret))
    assert report.outcomes[0].warnings == ("1 secret(s) redacted",)
    receipts = [e for e in journal_lines(mem) if e["action"] == "receipt"]
    assert receipts[0]["outcomes"][0]["warnings"] == ["body cut from 10032 to 2000 characters"]
    assert receipts[1]["outcomes"][0]["warnings"] == ["1 secret(s) redacted"]
    assert key not in json.dumps(receipts)


def test_a_transcript_cut_to_its_bounds_says_so(isolated_home, project):
    from memdir.render import consolidation as render

    mem = open_mem(isolated_home, project)
    long = "Remember that the build cache lives in /var/cache/build. " + "Context line. " * 300
    report = mem.consolidate(say(long, "Thanks."), extractor="rules")
    assert (report.transcript.cut, report.transcript.dropped) == (1, 0)
    assert "transcript bounded: 1 message(s) cut to the per-message limit, 0 oldest message(s) left out" in \
        render.consolidation(report)
    short = mem.consolidate(say("Remember that CI runs nightly at 02:00 UTC."), extractor="rules")
    assert short.transcript.cut == 0 and "transcript bounded" not in render.consolidation(short)  # control
    receipt = [e for e in journal_lines(mem) if e["action"] == "receipt"][0]
    assert receipt["transcript"]["cut"] == 1


NODE = [{"role": "user", "content": "CI failed on the Node step again."},
        {"role": "assistant", "content": "The runners pick Node 22. Should we pin Node 20 in .nvmrc for every "
                                         "environment from now on?"}]


def test_a_bare_yes_to_a_proposed_standing_rule_keeps_the_rule(isolated_home, project):
    from memdir.consolidation.gate import check
    from memdir.consolidation.transcripts import read_transcript

    mem = open_mem(isolated_home, project)
    said = NODE + [{"role": "user", "content": "yes, do that"}]
    assert [(h.rule, h.sentence) for h in check(read_transcript(said)).hits] == [
        ("confirmed", "Pin Node 20 in .nvmrc for every environment from now on.")]
    # the agent mode waits with the same proposal (a dry run: nothing kept)
    assert mem.consolidate(said, extractor="agent", dry_run=True).pending == (
        "Pin Node 20 in .nvmrc for every environment from now on.",)
    report = mem.consolidate(said, extractor="rules")
    assert [(o.result, o.scope) for o in report.outcomes] == [("created", "project")]
    record = mem.read(report.outcomes[0].name, count=False).record
    assert record.type == "feedback"
    assert record.description == "Pin Node 20 in .nvmrc for every environment from now on."
    assert "The user confirmed" in record.body and "assistant's proposal" in record.body


def test_no_yes_no_rule_the_assistants_proposal_alone_or_a_one_off_step_keep_nothing(isolated_home, project):
    mem = open_mem(isolated_home, project)
    assert mem.consolidate(NODE, extractor="rules").outcomes == ()  # the assistant's words alone
    step = [{"role": "user", "content": "The tests are flaky."},
            {"role": "assistant", "content": "Should I rerun the tests?"}, {"role": "user", "content": "yes"}]
    assert mem.consolidate(step, extractor="rules").outcomes == ()  # a one-off step, confirmed
    more = NODE + [{"role": "user", "content": "yes, and fix the flaky login test while you are at it"}]
    assert mem.consolidate(more, extractor="rules").outcomes == ()  # not a bare yes: the person's own words
    asked = [{"role": "user", "content": "CI failed."},
             {"role": "assistant", "content": "Should we pin Node 20 for this build only?"},
             {"role": "user", "content": "yes, do that"}]
    assert mem.consolidate(asked, extractor="rules").outcomes == ()  # no standing rule in the proposal


def test_a_recurring_fact_about_a_thing_is_kept_without_a_cue_word(isolated_home, project):
    mem = open_mem(isolated_home, project)
    report = mem.consolidate(say("The staging DB is empty again.",
                                 "Yeah, btw the staging database gets wiped every Sunday night, so reseed it on "
                                 "Mondays."), extractor="rules")
    assert [(o.result, o.scope) for o in report.outcomes] == [("created", "project")]
    record = mem.read(report.outcomes[0].name, count=False).record
    assert record.type == "project"
    assert record.description == "The staging database gets wiped every Sunday night, so reseed it on Mondays."
    # controls: the same recurrence about the person, or asked, is no project fact
    assert classify("Does the backup run every night?") is None
    assert classify("I swim in the lake every morning.") == ("user", "I swim in the lake every morning.")
    # people or pets recurring are chatter, not a fact of the project (it made a project memory before)
    assert mem.consolidate(say("The kids play outside every day."), extractor="rules").outcomes == ()
    assert classify("Our certs rotate monthly.") == ("project", "Our certs rotate monthly.")  # control


def test_a_rules_update_keeps_the_memorys_type(isolated_home, project):
    """The rules extractor's update of an existing memory keeps that memory's type: a correction
    ("now … never …", which the rules read as feedback) of a project fact stays a project fact,
    with a project body; a standing rule updating a feedback memory stays feedback (control)."""
    mem = Memory.open(home=isolated_home, project=project, actor="agent")
    mem.write("dev-db-port", description="Dev PostgreSQL listens on 5434", type="project", body="Moved in May.")
    mem.write("db-tests", description="Integration tests hit the real database, never mocks", type="feedback",
              body="No mocks.")
    port = mem.consolidate(say("Important: the dev PostgreSQL now listens on port 5433, never 5434."),
                           extractor="rules").outcomes
    rule = mem.consolidate(say("Remember: integration tests always hit the real database, never mocks, no exceptions."),
                           extractor="rules").outcomes
    assert [(o.action, o.target) for o in port + rule] == [("update", "dev-db-port"), ("update", "db-tests")]
    moved = mem.read(port[0].name, count=False).record
    assert (moved.type, moved.description) == ("project", "The dev PostgreSQL now listens on port 5433, never 5434.")
    assert "**Why:**" not in moved.body and "5433" in moved.body
    kept = mem.read(rule[0].name, count=False).record
    assert kept.type == "feedback" and "**Why:**" in kept.body
