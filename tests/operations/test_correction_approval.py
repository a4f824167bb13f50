"""Approving a correction session-end extraction proposed for a memory a person wrote (team33).

The extractor writes the corrected memory's whole body without seeing the body it replaces, so approving it
took every other line the person had written there out of the live memory, and said nothing (history kept
them). Now review names the lines approving removes (``Candidate.drops``), an approval nobody was shown is
refused when it removes any (the memory untouched), and an approval after review says what it removed and
where it is kept."""

from __future__ import annotations

import pytest

from memdir import Memory
from memdir.errors import Conflict
from tests.conftest import run_cli
from tests.consolidation.test_consolidate import cc_transcript

FACT = "The dev database listens on port 5433."
NOTE = "Ana's note: start it with `make db-up`; the data dir is ~/pgdata, never delete it."
SAID = "Correction: the dev PostgreSQL database now listens on port 6543, not 5433."


@pytest.fixture
def corrected(tmp_path, isolated_home, project):
    """A person's memory (a fact and a note), and the candidate the offline extractor proposed from a session
    that corrected the fact."""
    person = Memory.open(home=isolated_home, project=project, actor="human", search_vectors="off")
    person.write("db-port", "Dev PostgreSQL listens on 5433", "project", f"{FACT}\n\n{NOTE}")
    path = cc_transcript(tmp_path / "t.jsonl", ("user", SAID, "2026-12-06T07:00:00Z"),
                         ("assistant", "Noted.", "2026-12-06T07:00:05Z"))
    agent = Memory.open(home=isolated_home, project=project, search_vectors="off")
    report = agent.consolidate(path, mode="always", extractor="rules")
    assert [(o.result, o.name, o.target) for o in report.outcomes] == [("candidate", "db-port-candidate", "db-port")]
    return person


def test_review_names_the_lines_approving_removes(corrected):
    [shown] = corrected.review().candidates
    assert (shown.name, shown.change, shown.target) == ("db-port-candidate", "change", "db-port")
    assert shown.drops == (FACT, NOTE)
    assert f"-{NOTE}" in shown.diff.splitlines()


def test_an_approval_nobody_was_shown_is_refused_and_the_memory_keeps_its_text(corrected):
    with pytest.raises(Conflict) as refused:
        corrected.approve("db-port-candidate")
    assert "removes 2 lines it holds now (“The dev database listens on port 5433.” and 1 more)" in str(refused.value)
    assert corrected.read("db-port").record.body == f"{FACT}\n\n{NOTE}"
    assert corrected.read("db-port-candidate").record.status == "candidate"  # still waits
    # after review showed the before and after, the same approval goes through and says what it removed
    corrected.review()
    decided = corrected.approve("db-port-candidate")
    assert decided.approved and decided.name == "db-port"
    assert any(w.startswith("db-port no longer holds 2 lines of its text") and "`memdir history db-port`" in w
               for w in decided.warnings), decided.warnings
    assert NOTE not in corrected.read("db-port").record.body and "6543" in corrected.read("db-port").record.body
    versions = corrected.history("db-port").versions
    assert any(NOTE in corrected.show("db-port", n).text for n in range(1, len(versions) + 1))


def test_a_change_that_keeps_every_line_is_approved_unseen_as_before(isolated_home, project):
    """The control: a candidate whose approval keeps the person's lines is not refused."""
    person = Memory.open(home=isolated_home, project=project, actor="human", search_vectors="off")
    person.write("db-port", "Dev PostgreSQL listens on 5433", "project", f"{FACT}\n\n{NOTE}")
    person.write("db-port-candidate", "Dev PostgreSQL listens on 5433 (or 6543 in CI)", "project",
                 f"{FACT}\n\n{NOTE}\n\nIn CI it is 6543.", status="candidate",
                 extra={"candidate_for": "db-port"})
    [shown] = person.review().candidates
    assert (shown.change, shown.drops) == ("change", ())
    person.approve("db-port-candidate", digest=shown.digest)
    assert person.read("db-port").record.body == f"{FACT}\n\n{NOTE}\n\nIn CI it is 6543."


def test_the_cli_review_says_what_approving_removes(corrected, isolated_home, project):
    env = {"MEMDIR_HOME": str(isolated_home), "MEMDIR_SEARCH_VECTORS": "off"}
    refused = run_cli("approve", "db-port-candidate", "--project", project, env=env)
    assert refused.returncode == 1 and "`memdir review` shows the whole before and after" in refused.stderr
    shown = run_cli("review", "--project", project, env=env)
    assert shown.returncode == 0
    assert "it removes 2 line(s) of db-port's text now (its history keeps them" in shown.stdout
    assert f"    -{NOTE}" in shown.stdout
    done = run_cli("approve", "db-port-candidate", "--project", project, env=env)
    assert done.returncode == 0 and "Approved db-port-candidate → db-port (project)" in done.stdout
    assert "db-port no longer holds 2 lines of its text" in done.stderr


def test_a_correction_whose_memory_went_says_so_and_how_to_name_it(corrected):
    """The memory a correction was proposed for is deleted meanwhile: review said "new memory" and the approval
    made a memory named ``db-port-candidate`` with no word; now both say what happened and how to name it."""
    from memdir.render.memories import review

    corrected.delete("db-port")
    shown = corrected.review()
    assert [(c.name, c.change, c.candidate_for) for c in shown.candidates] == [("db-port-candidate", "new", "db-port")]
    assert ("proposed as a change of db-port, which is no longer there; approving adds it as a new memory named "
            "db-port-candidate:") in review(shown)
    decided = corrected.approve("db-port-candidate")
    assert (decided.name, decided.approved) == ("db-port-candidate", True)
    assert ("db-port-candidate was proposed as a change of db-port, which is no longer there; it is a memory of its "
            "own now: `memdir write db-port --rename-from db-port-candidate` gives it that name") in decided.warnings
    corrected.write("db-port", rename_from="db-port-candidate")
    assert "6543" in corrected.read("db-port").record.description


def test_a_new_candidate_gets_no_such_word(isolated_home, project):
    """The control: a candidate proposed as a new memory is approved with neither note."""
    person = Memory.open(home=isolated_home, project=project, actor="human", search_vectors="off")
    person.write("use-uv", "Use uv for Python dependencies", "project", "Agreed.", status="candidate")
    [shown] = person.review().candidates
    assert (shown.change, shown.candidate_for, shown.drops) == ("new", None, ())
    decided = person.approve("use-uv")
    assert decided.approved and decided.warnings == ()


def test_a_line_re_wrapped_is_kept_and_a_line_left_out_is_dropped():
    from memdir.files.memfile import MemoryRecord
    from memdir.operations.trust import dropped_lines

    live = MemoryRecord(name="m", description="d", type="project", body="First half\nsecond half.\n\nA note.")
    rewrapped = live.with_(body="First half second half.\n\nPort 6543.")
    assert dropped_lines(live, rewrapped) == ("A note.",)
    assert dropped_lines(live, live.with_(body="First half second half.\n\nA note.")) == ()
