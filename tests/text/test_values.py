"""The one rule of "the same value" (memdir.text.values): an exact duplicate's key is a tombstone's value."""

from __future__ import annotations

from memdir.files.memfile import duplicate_key, text_digest
from memdir.tombstones.match import make, match


def test_case_and_unicode_form_make_no_other_copy_and_a_tombstone_matches_the_same_ones():
    text = "Ménage happens on Fridays"
    variants = ["Me\u0301nage happens on Fridays", "MÉNAGE happens on Fridays", "  Ménage  happens on Fridays "]
    assert {duplicate_key(v, "") for v in variants} == {duplicate_key(text, "")} == {"menage happens on fridays"}
    assert {text_digest(v, "") for v in variants} == {text_digest(text, "")}
    stone = make("dup-a", text, "", "human", None)
    assert all(match([stone], v, "") is not None for v in variants)
    other = "Ménage happens on Saturdays"  # control: another word is another value, on both sides
    assert duplicate_key(other, "") != duplicate_key(text, "") and text_digest(other, "") != text_digest(text, "")
    assert match([stone], other, "") is None


def test_a_count_agrees_with_its_noun():
    from memdir.text.plural import counted, plural

    assert [counted(n, "memory") for n in (0, 1, 2)] == ["0 memories", "1 memory", "2 memories"]
    assert [counted(n, "tombstone") for n in (1, 3)] == ["1 tombstone", "3 tombstones"]
    assert [plural(n, "directory") for n in (1, 2)] == ["directory", "directories"]
    assert plural(2, "index line") == "index lines"  # of a phrase the last word agrees


def test_a_verb_agrees_with_its_count():
    from memdir.text import plural as nouns
    from memdir.text.agreement import IRREGULAR, agreeing

    assert [agreeing(n, "holds") for n in (0, 1, 2)] == ["hold", "holds", "hold"]
    assert [agreeing(n, "was") for n in (1, 3)] == ["was", "were"]
    assert [agreeing(2, v) for v in ("is", "has", "does", "waits", "passes", "matches", "pushes", "fixes", "goes")] == [
        "are", "have", "do", "wait", "pass", "match", "push", "fix", "go"]
    assert (agreeing(2, "can"), agreeing(2, "must")) == ("can", "must")  # no -s: the same for any count
    assert agreeing(1, "passes") == "passes"  # control: one subject keeps the form given
    # each table holds its own kind: the nouns' has no verb, the verbs' no noun
    assert not set(nouns.IRREGULAR) & {"was", "is", "waits", "holds", *IRREGULAR}
    assert not set(IRREGULAR) & set(nouns.IRREGULAR)
