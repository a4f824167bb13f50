"""A take-back followed by what replaces it, in one sentence (left44b): "Remember we deploy on Mondays." then
"Scratch that, we deploy on Thursdays." kept Mondays and lost Thursdays. Now the request before is cancelled and
the replacement is kept (the gate counts it, the rules extractor proposes it, the agent extractor keeps it as a
finding); "Actually no, forget that — use pnpm" and "Never mind, it's port 5434" likewise. Controls: a
replacement about something else ("Scratch that, rerun the tests.") takes nothing back, nor does one after no
request. Also: thousands of named retractions ("ignore what I said about …") are read in linear time."""

from __future__ import annotations

import time

import pytest

from memdir.consolidation.extractors.agent import AgentExtractor
from memdir.consolidation.extractors.rules import RulesExtractor
from memdir.consolidation.gate import check
from memdir.consolidation.proposals import ExtractionContext
from memdir.consolidation.retraction import replacement, withdrawn
from memdir.consolidation.transcripts import Transcript, Turn
from tests.consolidation.test_retraction import consolidate, names


def transcript(*said) -> Transcript:
    turns = []
    for text in said:
        turns += [Turn("user", text), Turn("assistant", "ok")]
    return Transcript(tuple(turns[:-1]), "text", "digest")


@pytest.mark.parametrize("sentence, rest", [
    ("Scratch that, we deploy on Thursdays.", "we deploy on Thursdays."),
    ("Actually no, forget that \u2014 use pnpm", "use pnpm"),
    ("Never mind, it's port 5434", "it's port 5434"),
    ("Oh wait, scratch that: the staging db is on 6543.", "the staging db is on 6543."),
    ("No, don't save that, we use Vite 6.", "we use Vite 6."),
])
def test_a_take_back_then_what_replaces_it(sentence, rest):
    assert replacement(sentence) == rest


@pytest.mark.parametrize("sentence", [
    "Scratch that, that was wrong.", "Never mind.", "Scratch that last test run, rerun it.",
    "We deploy on Thursdays, scratch that.", "Remember we deploy on Thursdays.", "no, " * 2000])
def test_control_no_take_back_first_or_nothing_after_it(sentence):
    assert replacement(sentence) is None


@pytest.mark.parametrize("before, after, cancelled, instead", [
    ("Remember we deploy on Mondays.", "Scratch that, we deploy on Thursdays.", "Remember we deploy on Mondays.",
     "Remember: we deploy on Thursdays."),
    ("Remember to use npm.", "Actually no, forget that \u2014 use pnpm", "Remember to use npm.", "Remember: use pnpm."),
    ("Remember the db is on port 5433.", "Never mind, it's port 5434", "Remember the db is on port 5433.",
     "Remember the db is on port 5434."),
    ("We deploy on Mondays. Remember that.", "Scratch that, we deploy on Thursdays.", "Remember that.",
     "Remember: we deploy on Thursdays."),
])
def test_the_request_before_is_cancelled_and_the_replacement_read_in_its_place(before, after, cancelled, instead):
    taken = withdrawn(transcript(before, after))
    assert [(w.cancelled[2], w.replaced_by) for w in taken.said] == [(cancelled, instead)]
    assert taken.replacements(2) == {0: instead}
    result = check(transcript(before, after), "gated", taken)
    assert [(hit.rule, hit.turn, hit.sentence) for hit in result.hits] == [("remember", 2, instead)]
    assert result.to_dict()["withdrawn"][0]["replaced_by"] == instead


def test_control_a_replacement_about_something_else_takes_nothing_back():
    taken = withdrawn(transcript("Remember we deploy on Fridays.", "Scratch that, rerun the tests."))
    assert taken.said == () and taken.replaced == {}
    said = transcript("Remember we deploy on Fridays.", "Scratch that, rerun the tests.")
    assert [hit.sentence for hit in check(said, "gated", withdrawn(said)).hits] == ["Remember we deploy on Fridays."]
    # and after no request, a replacement is read as it is: nothing cancelled, nothing asked
    taken = withdrawn(transcript("Run the tests.", "Scratch that, we deploy on Thursdays."))
    assert taken.said == () and taken.replaced == {}


def test_the_rules_extractor_proposes_the_replacement_not_the_request():
    said = transcript("Remember we deploy on Mondays.", "Scratch that, we deploy on Thursdays.")
    found = RulesExtractor().extract(said, ExtractionContext())
    assert [(p.action, p.name) for p in found.proposals] == [("create", "deploy-thursdays")]
    plain = RulesExtractor().extract(transcript("Remember we deploy on Mondays."), ExtractionContext())
    assert [(p.action, p.name) for p in plain.proposals] == [("create", "deploy-mondays")]  # control


def test_the_agent_extractor_keeps_the_replacement_as_its_finding():
    said = transcript("Remember the db is on port 5433.", "Never mind, it's port 5434")
    assert AgentExtractor().extract(said, ExtractionContext()).pending == [
        ("remember", "Remember the db is on port 5434.", None)]
    said = transcript("Remember the db is on port 5433.", "Run the tests.")  # control: nothing taken back
    assert AgentExtractor().extract(said, ExtractionContext()).pending == [
        ("remember", "Remember the db is on port 5433.", None)]


def test_a_replacement_taken_back_in_turn_keeps_nothing():
    said = transcript("Remember we deploy on Mondays.", "Scratch that, we deploy on Thursdays.", "Scratch that.")
    taken = withdrawn(said)
    assert [w.cancelled[2] for w in taken.said] == ["Remember we deploy on Mondays.",
                                                     "Scratch that, we deploy on Thursdays."]
    assert check(said, "gated", taken).fire is False
    assert RulesExtractor().extract(said, ExtractionContext()).proposals == []


def test_cli_rules_the_replacement_is_kept(isolated_home, project):
    out = consolidate(project, isolated_home, "USER: Remember we deploy on Mondays.\nASSISTANT: ok\n"
                                              "USER: Scratch that, we deploy on Thursdays.\n")
    assert ("turn 3 took back turn 1 (“Scratch that, we deploy on Thursdays.”), not kept: Remember we deploy on "
            "Mondays. — in its place: Remember: we deploy on Thursdays.") in out
    assert "create → deploy-thursdays" in out
    assert names(isolated_home, project) == ["deploy-thursdays"]


# ---------------------------------------------------------------- named retractions, many of them


def test_a_named_retraction_cancels_the_request_sharing_most_then_the_latest():
    said = transcript("Remember: the deploy runs on Fridays at noon.", "Remember: the deploy uses the VPN.",
                      "Ignore what I said about the Friday deploy.")
    assert [w.cancelled[2] for w in withdrawn(said).said] == ["Remember: the deploy runs on Fridays at noon."]
    said = transcript("Remember: the deploy runs on Fridays at noon.", "Remember: the deploy uses the VPN.",
                      "Ignore what I said about the deploy.")  # control: a tie, the latest
    assert [w.cancelled[2] for w in withdrawn(said).said] == ["Remember: the deploy uses the VPN."]


def test_thousands_of_named_retractions_are_read_in_linear_time():
    n = 1500
    requests = [f"Remember: service{k} listens on port {5000 + k}." for k in range(n)]
    started = time.perf_counter()
    taken = withdrawn(transcript(*requests, *(f"Ignore what I said about the logo{k}." for k in range(n))))
    assert taken.cancelled() == [] and len(taken.said) == n
    taken = withdrawn(transcript(*requests, *("Ignore what I said about service listens." for _ in range(n))))
    assert len(taken.cancelled()) == n  # each the latest still standing, from the last to the first
    assert taken.said[0].cancelled[2] == requests[-1] and taken.said[-1].cancelled[2] == requests[0]
    assert time.perf_counter() - started < 8  # main: about 20 s each (9 s at 1,000; 1.7 s both here)


# ---------------------------------------------------------------- what is no replacement (hand-45r)


def test_a_replacement_that_negates_cancels_the_request_and_saves_nothing(isolated_home, project):
    said = transcript("Remember the db is on port 5433.", "Never mind, it's not port 5433")
    taken = withdrawn(said)
    assert [(w.cancelled[2], w.replaced_by) for w in taken.said] == [("Remember the db is on port 5433.", None)]
    assert taken.replaced == {} and taken.skip(2) == frozenset({0})
    assert check(said, "gated", taken).fire is False
    assert RulesExtractor().extract(said, ExtractionContext()).proposals == []
    assert AgentExtractor().extract(said, ExtractionContext()).pending == []
    out = consolidate(project, isolated_home, "USER: Remember the db is on port 5433.\nASSISTANT: ok\n"
                                              "USER: Never mind, it's not port 5433\n")
    assert "in its place" not in out and names(isolated_home, project) == []
    # control: the same take-back with a new value keeps the new value
    out = consolidate(project, isolated_home, "USER: Remember the db is on port 5433.\nASSISTANT: ok\n"
                                              "USER: Never mind, it's port 5434\n")
    assert names(isolated_home, project) == ["db-port-5434"]


@pytest.mark.parametrize("after", ["Never mind, it isn't on port 5433.", "Scratch that, the db is never on 5433.",
                                   "Scratch that, no port 5433 for the db."])
def test_a_negated_replacement_never_reads_as_the_value_it_denies(after):
    taken = withdrawn(transcript("Remember the db is on port 5433.", after))
    assert [(w.cancelled[2], w.replaced_by) for w in taken.said] == [("Remember the db is on port 5433.", None)]


@pytest.mark.parametrize("before, after, kept, also", [
    ("Remember the db is on port 5433.", "Never mind, the cache is on port 6380.", "Remember the db is on port 5433.",
     "Remember: the cache is on port 6380."),
    ("Remember we deploy on Mondays.", "Scratch that, the tests run on Mondays.", "Remember we deploy on Mondays.",
     "Remember: the tests run on Mondays."),
    ("Remember the db is on port 5433.", "Never mind, it's the other db.", "Remember the db is on port 5433.", None),
    # (which of two ports, nothing saying: held for a person, test_take_backs.py)
    ("Remember we deploy on Mondays.", "Scratch that, we release on Thursdays.", "Remember we deploy on Mondays.",
     "Remember: we release on Thursdays."),
])
def test_a_replacement_on_another_subject_cancels_nothing(before, after, kept, also):
    """The request stays; a fact of its own with a value after the take-back is kept beside it, as the request it
    makes (rev49c: the cache's port was lost); one with no value ("it's the other db") is read as it is."""
    said = transcript(before, after)
    taken = withdrawn(said)
    assert taken.said == () and taken.replaced == ({2: {0: also}} if also else {})
    hits = [hit.sentence for hit in check(said, "gated", taken).hits]
    assert kept in hits and (also in hits if also else len(hits) == 1)


def test_only_the_fact_replaced_goes_from_a_request_of_several():
    said = transcript("Remember we deploy on Mondays and the db is on port 5433.", "Scratch that, we deploy on Thursdays.")
    taken = withdrawn(said)
    assert [w.replaced_by for w in taken.said] == ["Remember we deploy on Thursdays and the db is on port 5433."]
    said = transcript("Remember we deploy on Mondays.", "Scratch that, it's Thursdays.")  # control: one fact
    assert [w.replaced_by for w in withdrawn(said).said] == ["Remember we deploy on Thursdays."]


def test_cli_rules_a_replacement_on_another_subject_keeps_the_request(isolated_home, project):
    consolidate(project, isolated_home, "USER: Remember the db is on port 5433.\nASSISTANT: ok\n"
                                        "USER: Never mind, the cache is on port 6380.\n")
    # the db kept (a new rule once lost it); "Never mind" is no rule "never …" (it was kept as never-cache-port-6380,
    # a directive: take46); the cache's port is kept as the plain statement it is (rev49c: it was lost)
    assert names(isolated_home, project) == ["cache-port-6380", "db-port-5433"]


def test_a_named_retraction_finds_its_request_behind_hundreds_sharing_a_word():
    regions = [f"Remember: the deploy uses region r{k}." for k in range(300)]
    said = transcript("Remember: the deploy runs on Fridays at noon.", *regions,
                      "Ignore what I said about the Friday deploy.")
    assert [w.cancelled[2] for w in withdrawn(said).said] == ["Remember: the deploy runs on Fridays at noon."]
    said = transcript("Remember: the deploy runs on Fridays at noon.", *regions,
                      "Ignore what I said about the deploy region.")  # control: the latest sharing both
    assert [w.cancelled[2] for w in withdrawn(said).said] == ["Remember: the deploy uses region r299."]


def test_a_named_retraction_sharing_more_with_an_older_request_is_exact():
    said = transcript("Remember: the staging deploy runs on Fridays.", "Remember: the staging db is on 5433.",
                      "Remember: the deploy uses the VPN.", "Ignore what I said about the staging deploy on Fridays.")
    assert [w.cancelled[2] for w in withdrawn(said).said] == ["Remember: the staging deploy runs on Fridays."]
    said = transcript("Remember: the staging deploy runs on Fridays.", "Remember: the staging db is on 5433.",
                      "Remember: the deploy uses the VPN.", "Ignore what I said about the staging db.")  # control
    assert [w.cancelled[2] for w in withdrawn(said).said] == ["Remember: the staging db is on 5433."]
