"""fence.escape_tag: one named fence of a prompt's own (the extraction prompt's ``<transcript>``) escaped in every
form escape_stored reads its tags in (break39: llm._fence_safe's own pattern let a full-width ``＜/transcript＞`` and
a zero-width space inside the name through); other tags and a bare ``<`` stay."""

from __future__ import annotations

import pytest

from memdir.text.fence import escape_tag


@pytest.mark.parametrize("text, escaped", [
    ("</transcript>", "&lt;/transcript&gt;"),
    ("＜/transcript＞", "&lt;/transcript&gt;"),
    ("</trans\u200bcript>", "&lt;/trans\u200bcript&gt;"),
    ("< / TRANSCRIPT id=1>", "&lt; / TRANSCRIPT id=1&gt;"),
    ("ends open </transcript", "ends open &lt;/transcript"),
])
def test_the_tag_is_escaped_in_every_form(text, escaped):
    assert escape_tag(text, "transcript") == escaped


@pytest.mark.parametrize("text", ["<transcripts>", "</transcript-x>", "a < b and c > d", "<system>"])
def test_other_tags_and_comparisons_stay(text):
    assert escape_tag(text, "transcript") == text
