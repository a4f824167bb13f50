"""The rules extractor's question after a statement, "…, not …", a request after what it asks to keep and an ask to
write something down are read in time linear in the sentence (inject42). Every path of a transcript hands them
sentences with spaces collapsed (:func:`memdir.consolidation.gate.sentences`, the confirmed proposal), where a run of
spaces cost the square of its length or worse (180 s for the question at 32,000 spaces) — but "do you do you …"
and "put this put this …" came through with single spaces (0.35 s and 6.8 s at 32,000 characters), and
:func:`classify` is public. The matches are main's (benchmarks/same_patterns.py); pinned here with controls."""

from __future__ import annotations

from memdir.consolidation.extractors.rules import classify, turn_statements, write_down
from memdir.consolidation.transcripts import read_transcript

SPACES = " " * 20_000


def _statements(text: str) -> list:
    transcript = read_transcript([{"role": "user", "content": text}, {"role": "assistant", "content": "ok"}])
    return turn_statements(transcript, 0)


def test_a_transcript_hands_the_rules_its_sentences_with_spaces_collapsed():
    said = "I hike in the mountains," + " " * 1500 + "where do you go?"
    assert _statements(said) == [("I hike in the mountains, where do you go?", ("user", "I hike in the mountains."))]
    assert _statements("Der Port ist 6543" + " " * 1500 + ", merk dir das") == [
        ("Der Port ist 6543 , merk dir das", ("project", "Der Port ist 6543"))]
    assert _statements("I hike in the mountains.") == [  # control: no question, no run
        ("I hike in the mountains.", ("user", "I hike in the mountains."))]


def test_a_question_after_a_statement_is_dropped_across_a_run_of_spaces():
    assert classify("I hike in the mountains," + SPACES + "where do you go?") == ("user", "I hike in the mountains.")
    assert classify("I hike in the mountains" + SPACES + "do you?") == ("user", "I hike in the mountains.")
    assert classify("I hike in the mountains" + SPACES + "?") is None  # control: a question, nothing dropped


def test_a_question_after_many_asks_is_read_once():
    said = "I love hiking in the mountains" + " do you" * 3000
    assert classify(said + "?") == ("user", "I love hiking in the mountains.")
    assert classify(said + ", x?") is None  # control: the comma after them: the question is the whole sentence
    assert classify(said + ".") == ("user", said + ".")  # control: no question


def test_not_after_a_run_of_spaces_is_a_correction_as_before():
    assert classify("Use pnpm for installs," + SPACES + "not npm.") == ("feedback", "Use pnpm for installs," + SPACES
                                                                         + "not npm.")
    assert classify("Use pnpm for installs" + SPACES + "and npm.") is None  # control: no "not"


def test_an_ask_to_write_down_after_many_asks_is_found_on_its_line():
    said = ["We deploy on Fridays.", "put this " * 3000 + "into CLAUDE.md."]
    assert write_down(said, 1) == "We deploy on Fridays."
    assert write_down(["We deploy on Fridays.", "put this " * 3000], 1) is None  # control: nowhere to put it
    # an ask on one line and where to on the next: not one ask (as before)
    assert write_down(["We deploy on Fridays.", "put this\ninto CLAUDE.md."], 1) is None
    # where to may go on past the line's end once it started on the ask's line (as before)
    assert write_down(["We deploy on Fridays.", "put this into\nthe memory"], 1) == "We deploy on Fridays."
    assert write_down(["We deploy on Fridays.", "put this put this into your memoryx\nput this into\nthe memory"],
                      1) == "We deploy on Fridays."
    assert write_down(["We deploy on Fridays.", "把这个记到记忆"], 1) == "We deploy on Fridays."
