"""A denied "wrong" is no correction (left44b): "Nothing is wrong: the tests pass on CI.", "Nothing's wrong, …",
"There is nothing wrong with the config, it should work." fired the gate's correction rule (its "X is wrong: Y"
and its "wrong … should" branches; in Chinese 没有什么不对, 你没搞错, 没错了), and the agent extractor kept the
denial as a pending finding. Each denial has its control: the same words correcting ("The db port is wrong: …")
fire and are read as what is right."""

from __future__ import annotations

import pytest

from memdir.consolidation.denial import denies_wrong
from memdir.consolidation.extractors.agent import AgentExtractor
from memdir.consolidation.gate import check, sentence_rules
from memdir.consolidation.proposals import ExtractionContext
from memdir.consolidation.retraction import wrong_and_right
from memdir.consolidation.transcripts import Transcript, Turn

DENIALS = [
    "Nothing is wrong: the tests pass on CI.",
    "Nothing's wrong, the build is green.",
    "Nothing\u2019s wrong, the build is green.",
    "There is nothing wrong with the config, it should work.",
    "There's nothing wrong with the db port: it is 5432.",
    "Nothing about the db port is wrong, it is fine.",
    "Nothing was wrong, it was a flaky test.",
    "None of it is wrong, keep going.",
    "No, nothing is wrong \u2014 carry on.",
    "Honestly nothing is wrong with the config, it should pass now.",
    "Nobody is wrong: we use pnpm.",
    "没有什么不对，继续。",
    "你没搞错，继续。",
    "没错了，就这样。",
]
CORRECTIONS = [
    ("The db port is wrong: it is 5432.", "is wrong: "),
    ("The db port is wrong, it's 5432.", "is wrong, "),
    ("The config is wrong, it should use port 5432.", "is wrong, "),
    ("No, the port is wrong: it is 5432.", "is wrong: "),
    ("The flag not to use is wrong: use --fast.", "is wrong: "),  # "not" inside the subject denies nothing
    ("Nothing is wrong here, but the port is wrong, it should be 5432.", "is wrong, "),  # the second one corrects
    ("不对，端口是5432。", "不对"),
    ("你搞错了，端口是5432。", "搞错"),
]


def transcript(*said) -> Transcript:
    turns = []
    for text in said:
        turns += [Turn("user", text), Turn("assistant", "ok")]
    return Transcript(tuple(turns[:-1]), "text", "digest")


@pytest.mark.parametrize("sentence", DENIALS)
def test_a_denial_fires_no_correction(sentence):
    assert sentence_rules(sentence) == []
    assert wrong_and_right(sentence) is None
    assert check(transcript(sentence)).fire is False


@pytest.mark.parametrize("sentence, cue", CORRECTIONS)
def test_control_the_same_words_correcting_fire(sentence, cue):
    assert sentence_rules(sentence) == [("correction", cue)]
    assert check(transcript(sentence)).rules == ["correction"]


def test_what_is_right_is_read_from_a_correction_not_a_denial():
    assert wrong_and_right("The db port is wrong: it is 5432.") == ("The db port", "The db port is 5432.", None)
    assert wrong_and_right("Nothing is wrong: it is 5432.") is None
    assert wrong_and_right("No, nothing is wrong \u2014 carry on.") is None  # was ("No, nothing", "Carry on.")


def test_the_denial_is_its_clause_s_subject_within_reach():
    text = "Nothing is wrong"
    assert denies_wrong(text, text.index("is wrong")) is True
    long = "Nothing " + "about the old staging database and its many replicas " * 3 + "is wrong"
    assert denies_wrong(long, long.index("is wrong")) is False  # its subject opens out of reach
    assert denies_wrong("The port is wrong", 9) is False  # control


def test_a_denial_is_no_pending_finding_of_the_agent_extractor():
    found = AgentExtractor().extract(transcript("Nothing is wrong: the tests pass on CI."), ExtractionContext())
    assert found.pending == []
    found = AgentExtractor().extract(transcript("The db port is wrong: it is 5432 now."), ExtractionContext())
    assert [(rule, text) for rule, text, _ in found.pending] == [
        ("correction", "The db port is wrong: it is 5432 now.")]  # control


def test_a_denial_repeated_is_read_in_linear_time():
    import time

    started = time.perf_counter()
    for unit in ("nothing is wrong, ", "there is nothing wrong, ", "nothing wrong; "):
        assert sentence_rules(unit * 2000 + "it should work") == []
    assert time.perf_counter() - started < 4.0  # about 0.6 s here (36,000 characters each)
    assert sentence_rules("nothing is wrong, " * 2000 + "the port is wrong, it should be 5432") == [
        ("correction", "is wrong, ")]  # control: a wrong not denied after them


@pytest.mark.parametrize("sentence, denied", [
    ("There is nothing wrong with using pnpm, it should be the default.", False),  # hand-45r: asks for pnpm
    ("Nothing is wrong with pnpm, we should use it everywhere.", False),
    ("There is nothing wrong with the config, it should work.", True),  # controls: an expectation, no directive
    ("There is nothing wrong with the config, it should be fine.", True),
])
def test_a_denial_followed_by_a_directive_keeps_the_directive(sentence, denied):
    assert denies_wrong(sentence, sentence.index("wrong")) is denied
    assert check(transcript(sentence)).fire is not denied
    found = AgentExtractor().extract(transcript(sentence), ExtractionContext()).pending
    assert [text for _, text, _ in found] == ([] if denied else [sentence])
