"""A fact the person took back in the session is not kept (retract43): "Remember: we deploy on Fridays." then
"Scratch that, that was wrong." made deploy-fridays (rules) or a pending finding (agent, the SessionEnd hook).
Each retraction here has its control: the same transcript without it keeps the fact, and a retraction of
something else ("Scratch that last test run, rerun it", "Run the tests." between) keeps it too. Also "The
db-port memory is wrong: dev postgres is on 5432 again." gave "nothing durable was said"."""

from __future__ import annotations

import json
import time

import pytest

from memdir import Memory
from memdir.consolidation.gate import check, sentence_rules
from memdir.consolidation.retraction import (
    is_retraction,
    named,
    takes_itself_back,
    withdrawn,
    wrong_and_right,
)
from memdir.consolidation.transcripts import Transcript, Turn
from memdir.prompt import pending
from tests.conftest import run_cli
from tests.consolidation.test_agent_mode import session_end
from tests.consolidation.test_consolidate import cc_transcript

REMEMBER = "Remember: we deploy on Fridays."
RETRACTED = f"USER: {REMEMBER}\nASSISTANT: ok\nUSER: Scratch that, that was wrong.\n"


def transcript(*pairs) -> Transcript:
    return Transcript(tuple(Turn(role, text) for role, text in pairs), "text", "digest")


@pytest.mark.parametrize("sentence", [
    "Scratch that, that was wrong.", "Wait, no — forget that, it's wrong.", "Don't save it.", "Never mind.",
    "Oh wait, never mind that.", "Don't remember that.", "I was wrong about that.", "Forget what I just said.",
    "Please don't save that to memory.", "Ignore what I said about the deploy day.", "Vergiss das.", "Oublie ça.",
    "Olvídalo.", "Esqueça isso.", "Забудь это.", "算了，别记了。", "忘れてください。", "잊어 주세요.",
    "Don't write that down.", "Don't add it to memory."])
def test_a_sentence_that_only_takes_back_is_a_retraction(sentence):
    assert is_retraction(sentence) is True


@pytest.mark.parametrize("sentence", [
    "Scratch that last test run, rerun it.", "Scratch that, rerun the tests.", "That's wrong.",
    "Forget it, I figured it out.", "Vergiss das nicht.", "忘れないで", "Don't forget that.", "Remember that.",
    "We never mind the lint warnings on CI.", "no, " * 2000,
    # about the assistant's work as often as about what was said (break43): no retraction
    "Delete it.", "Undo that.", "Cancel it.", "Ignore it.", "Drop it.", "No, no need to add it.", "Egal.",
    "No importa.", "取消它", "취소해 주세요.", "取り消してください。"])
def test_a_sentence_that_says_more_or_asks_to_keep_is_no_retraction(sentence):
    assert is_retraction(sentence) is False


@pytest.mark.parametrize("sentence", [
    "Remember: always load the API token from the vault at runtime — don't store it.",
    "Remember: if you see a stray .orig file in the repo, delete it.",
    "When the linter complains about line length, ignore it.", "Remember the password policy; don't write it down."])
def test_a_request_whose_last_clause_is_about_its_own_object_keeps_itself(sentence):
    # break43: "don't store it", "delete it" there say what to do with the sentence's own thing
    assert takes_itself_back(sentence) is False
    assert takes_itself_back("Remember we deploy on Fridays — no wait, scratch that.") is True  # control


def test_an_action_word_after_a_request_keeps_the_request():
    said = ("user", "Always use pnpm in this repo, never npm."), ("assistant", "Done. I also created package-lock.json.")
    for after in ("Delete it.", "Undo that.", "Cancel it.", "Ignore it."):
        assert withdrawn(transcript(*said, ("user", after))).cancelled() == []
    taken = withdrawn(transcript(*said, ("user", "Scratch that.")))  # control: a retraction still cancels it
    assert [w.cancelled for w in taken.said] == [(0, 0, "Always use pnpm in this repo, never npm.")]


def test_a_denied_wrong_is_no_correction():
    assert wrong_and_right("Nothing about the db port is wrong, it is fine.") is None
    assert wrong_and_right("The db port is wrong, it's 5432.") == ("The db port", "The db port is 5432.", None)


def test_a_retraction_cancels_the_adjacent_request_and_nothing_else():
    taken = withdrawn(transcript(("user", f"{REMEMBER} Also always use pnpm."), ("assistant", "ok"),
                                 ("user", "Thanks! Never mind, don't save it.")))
    assert [w.cancelled for w in taken.said] == [(0, 1, "Also always use pnpm.")]  # the nearest: pnpm, not Fridays
    assert taken.skip(0) == frozenset({1}) and taken.skip(2) == frozenset({1})


def test_a_sentence_between_keeps_the_request():
    taken = withdrawn(transcript(("user", REMEMBER), ("assistant", "ok"), ("user", "Run the tests."),
                                 ("assistant", "3 failed"), ("user", "Scratch that.")))
    assert [w.cancelled for w in taken.said] == [None]
    assert taken.skip(0) == frozenset()
    # control: without "Run the tests." between, the same retraction cancels it
    taken = withdrawn(transcript(("user", REMEMBER), ("assistant", "ok"), ("user", "Scratch that.")))
    assert [w.cancelled for w in taken.said] == [(0, 0, REMEMBER)]


def test_a_named_retraction_cancels_the_request_it_names_wherever_it_is():
    taken = withdrawn(transcript(("user", REMEMBER), ("assistant", "ok"), ("user", "Always use pnpm."),
                                 ("assistant", "ok"), ("user", "Ignore what I said about deploys.")))
    assert named("Ignore what I said about deploys.") == "deploys"
    assert [w.cancelled for w in taken.said] == [(0, 0, REMEMBER)]
    # control: naming nothing said keeps both
    taken = withdrawn(transcript(("user", REMEMBER), ("assistant", "ok"), ("user", "Always use pnpm."),
                                 ("assistant", "ok"), ("user", "Ignore what I said about the logo.")))
    assert [w.cancelled for w in taken.said] == [None]


def test_a_request_pointing_back_is_cancelled_with_what_it_points_to():
    taken = withdrawn(transcript(("user", "We always deploy on Fridays. Remember that."), ("assistant", "ok"),
                                 ("user", "Forget that.")))
    assert taken.skip(0) == frozenset({0, 1})


def test_a_request_taken_back_in_its_own_sentence_fires_nothing():
    said = transcript(("user", "Remember we deploy on Fridays — no wait, scratch that."), ("assistant", "ok"))
    result = check(said, "gated", withdrawn(said))
    assert result.fire is False
    assert [w.cancelled for w in result.withdrawn] == [(0, 0, "Remember we deploy on Fridays — no wait, scratch that.")]
    # control: the same request without its last clauses fires
    plain = transcript(("user", "Remember we deploy on Fridays."), ("assistant", "ok"))
    assert check(plain, "gated", withdrawn(plain)).rules == ["remember"]
    # control: a clause taking back something else after it ("scratch that last test run") keeps it
    other = transcript(("user", "Remember we deploy on Fridays, scratch that last test run."), ("assistant", "ok"))
    assert check(other, "gated", withdrawn(other)).rules == ["remember"]


def test_a_cancelled_yes_to_the_assistants_proposal_fires_nothing():
    said = transcript(("assistant", "Should we pin Node 20 in .nvmrc for every environment from now on?"),
                      ("user", "yes"), ("assistant", "Pinned."), ("user", "Actually, never mind."))
    assert check(said, "gated", withdrawn(said)).fire is False
    assert "confirmed" in check(said, "gated").rules  # control: read without the retraction ("never" fired too)


def test_the_gate_reports_what_was_taken_back():
    said = transcript(("user", REMEMBER), ("assistant", "ok"), ("user", "Scratch that, that was wrong."))
    result = check(said, "gated", withdrawn(said))
    assert result.fire is False and result.hits == ()
    assert result.to_dict()["withdrawn"] == [{"turn": 3, "said": "Scratch that, that was wrong.",  # from 1, as the
                                              "cancelled": {"turn": 1, "sentence": REMEMBER}}]  # text counts (ux49)
    assert check(said, "gated").rules == ["remember"]  # control
    assert "withdrawn" not in check(said, "gated").to_dict()  # nothing taken back: the JSON as it was


def test_wrong_and_right_reads_what_is_right():
    assert wrong_and_right("The db-port memory is wrong: dev postgres is on 5432 again.") == (
        "The db-port memory", "Dev postgres is on 5432 again.", "db-port")
    assert wrong_and_right("The db port is wrong, it's 5432.") == ("The db port", "The db port is 5432.", None)
    assert wrong_and_right("The db port is wrong.") is None  # control: nothing said right
    assert sentence_rules("The db-port memory is wrong: dev postgres is on 5432 again.") == [
        ("correction", "is wrong: ")]
    assert sentence_rules("The db-port memory is right: dev postgres is on 5432.") == []  # control


def test_the_rules_are_linear_in_a_long_sentence():
    started = time.perf_counter()
    for text in ("no, " * 30000, "nono " * 30000, "ignore what I said about " + "x " * 60000,
                 "is wrong " * 15000, "scratch that " * 10000):
        is_retraction(text)
        takes_itself_back(text)
        wrong_and_right(text)
    assert time.perf_counter() - started < 2.0
    assert is_retraction("no, " * 30000 + "scratch that") is True  # control: the same fillers, then a retraction


# ---------------------------------------------------------------- the real CLI, rules extractor


def consolidate(project, isolated_home, text: str, name: str = "t.txt") -> str:
    path = project / name
    path.write_text(text, encoding="utf-8")
    done = run_cli("consolidate", path, "--extractor", "rules", "--explain", "--home", isolated_home,
                   "--project", project)
    assert done.returncode == 0, done.stderr
    return done.stdout


def names(isolated_home, project) -> list[str]:
    return sorted(m.name for m in Memory.open(home=isolated_home, project=project).list().memories)


def test_cli_rules_a_retracted_request_is_not_kept(isolated_home, project):
    out = consolidate(project, isolated_home, RETRACTED)
    assert "turn 3 took back turn 1 (“Scratch that, that was wrong.”), not kept: Remember: we deploy on Fridays." in out
    assert "nothing durable was said; no extraction" in out
    assert names(isolated_home, project) == []


def test_cli_rules_control_without_the_retraction_keeps_it(isolated_home, project):
    out = consolidate(project, isolated_home, f"USER: {REMEMBER}\nASSISTANT: ok\n")
    assert "create → deploy-fridays" in out and "took back" not in out
    assert names(isolated_home, project) == ["deploy-fridays"]


def test_cli_rules_control_a_retraction_of_something_else_keeps_it(isolated_home, project):
    out = consolidate(project, isolated_home, f"USER: {REMEMBER}\nASSISTANT: ok, tests ran\n"
                                              "USER: Scratch that last test run, rerun it.\n")
    assert "create → deploy-fridays" in out
    out = consolidate(project, isolated_home, "USER: Remember: staging deploys need the VPN.\nASSISTANT: ok\n"
                                              "USER: Run the integration tests.\nASSISTANT: 3 failed\n"
                                              "USER: Scratch that.\n", "t2.txt")
    assert "create → staging-deploys-vpn" in out and "took back" not in out
    assert names(isolated_home, project) == ["deploy-fridays", "staging-deploys-vpn"]


def test_cli_rules_a_memory_named_wrong_gets_a_correction_candidate(isolated_home, project):
    Memory.open(home=isolated_home, project=project).write("db-port", "Dev postgres listens on 5433", "project",
                                                           "Dev postgres listens on 5433.")
    out = consolidate(project, isolated_home, "USER: The db-port memory is wrong: dev postgres is on 5432 again.\n")
    assert "gate: fired (correction)" in out
    assert "update db-port → db-port-candidate (layer: project): candidate" in out
    assert "Dev postgres is on 5432 again." in out
    layer = Memory.open(home=isolated_home, project=project).session.layer("project").path
    assert "dev postgres is on 5432 again" in (layer / "db-port-candidate.md").read_text().lower()
    assert "5433" in (layer / "db-port.md").read_text()  # the person's memory stays until the candidate is approved


def test_cli_rules_control_a_wrong_memory_that_is_not_stored_makes_nothing(isolated_home, project):
    out = consolidate(project, isolated_home, "USER: The db-port memory is wrong: dev postgres is on 5432 again.\n")
    assert "gate: fired (correction)" in out
    assert "a correction of nothing stored: Dev postgres is on 5432 again." in out
    assert names(isolated_home, project) == []
    layer = Memory.open(home=isolated_home, project=project).session.layer("project").path
    assert not (layer / "db-port-candidate.md").exists()


# ---------------------------------------------------------------- the agent path: Claude Code's SessionEnd hook


def _session(tmp_path, *said) -> object:
    messages, minute = [], 0
    for text in said:
        messages.append(("user", text, f"2026-11-25T09:{minute:02d}:00Z"))
        messages.append(("assistant", "ok", f"2026-11-25T09:{minute + 1:02d}:00Z"))
        minute += 2
    return cc_transcript(tmp_path / "s1.jsonl", *messages[:-1])


def _pending_texts(isolated_home, project) -> list[str]:
    layer = Memory.open(home=isolated_home, project=project).session.layer("project")
    return [item["text"] for item in pending.load(layer.path)]


FRIDAYS = "Remember: we deploy to prod on Fridays."


@pytest.mark.slow
def test_hook_a_retracted_request_is_no_pending_finding(isolated_home, project, tmp_path):
    session_end(project, _session(tmp_path, FRIDAYS, "Wait, no — forget that, it's wrong. Don't save it."),
                isolated_home)
    assert _pending_texts(isolated_home, project) == []
    log = (isolated_home / "logs" / "consolidate.log").read_text()
    assert "gated" in log, log


@pytest.mark.slow
def test_hook_control_without_the_retraction_the_finding_waits(isolated_home, project, tmp_path):
    session_end(project, _session(tmp_path, FRIDAYS, "Thanks."), isolated_home)
    assert _pending_texts(isolated_home, project) == [FRIDAYS]


@pytest.mark.slow
def test_hook_control_a_retraction_of_something_else_keeps_the_finding(isolated_home, project, tmp_path):
    session_end(project, _session(tmp_path, FRIDAYS, "Run the integration tests.", "Scratch that, forget it."),
                isolated_home)
    assert _pending_texts(isolated_home, project) == [FRIDAYS]


@pytest.mark.slow
def test_hook_a_memory_named_wrong_is_a_finding(isolated_home, project, tmp_path):
    session_end(project, _session(tmp_path, "The db-port memory is wrong: dev postgres is on 5432 again."),
                isolated_home)
    assert _pending_texts(isolated_home, project) == ["The db-port memory is wrong: dev postgres is on 5432 again."]


def test_receipt_json_names_the_retraction(isolated_home, project):
    path = project / "t.txt"
    path.write_text(RETRACTED, encoding="utf-8")
    done = run_cli("consolidate", path, "--extractor", "rules", "--json", "--home", isolated_home,
                   "--project", project)
    assert done.returncode == 0, done.stderr
    gate = json.loads(done.stdout)["gate"]
    assert gate["fire"] is False and gate["withdrawn"][0]["cancelled"] == {"turn": 1, "sentence": REMEMBER}
