"""A name in NFC and in NFD (and any normalization form) is one memory on every path; search folds
accents (issue 28 item 6). Real files and a real index under the test's own home."""

from __future__ import annotations

import unicodedata

import pytest

from memdir.errors import NotFound
from memdir.text.names import normalize_name

NFC_NAMES = ["회의록 규칙", "がぎぐ設定", "Zürich office"]


@pytest.mark.parametrize("name", NFC_NAMES)
def test_every_normalization_form_normalizes_to_one_name(name):
    forms = {form: unicodedata.normalize(form, name) for form in ("NFC", "NFD", "NFKC", "NFKD")}
    assert forms["NFC"] != forms["NFD"]  # the input really is spelled two ways
    assert {normalize_name(text) for text in forms.values()} == {normalize_name(name)}
    if normalize_name(name).title is not None:  # a hash slug keeps its words as the title, composed
        assert normalize_name(forms["NFD"]).title == forms["NFC"]


@pytest.mark.parametrize("name", NFC_NAMES[:2])
def test_written_composed_read_decomposed_is_one_memory(mem, name):
    nfd = unicodedata.normalize("NFD", name)
    mem.write(name, "meeting notes rule", "project", "Keep minutes in the wiki.")
    assert mem.read(nfd).record.body == "Keep minutes in the wiki."
    mem.write(nfd, "meeting notes rule, revised", "project", "Keep minutes in the team wiki.")
    listed = [m for m in mem.list().memories]
    assert len(listed) == 1 and listed[0].description == "meeting notes rule, revised"
    assert mem.read(name).record.body == "Keep minutes in the team wiki."  # control: the composed spelling
    hits = mem.search("minutes wiki")
    assert [h.name for h in hits] == [listed[0].name]
    mem.delete(nfd)
    with pytest.raises(NotFound):
        mem.read(name)
    assert mem.list().memories == ()


def test_a_decomposed_write_of_a_deleted_memory_meets_its_tombstone(mem):
    from memdir.errors import Refused

    name = "회의록 규칙"
    mem.write(name, "Minutes go to the wiki", "project", "b")
    mem.forget(unicodedata.normalize("NFD", name))
    with pytest.raises(Refused):
        mem.write(unicodedata.normalize("NFD", name), "Minutes go to the wiki", "project", "b")
    mem.write("other-rule", "Standups at nine", "project", "b")  # control: another memory is written
    assert [m.name for m in mem.list().memories] == ["other-rule"]


def test_a_file_named_decomposed_on_disk_is_found_by_the_composed_name(mem):
    """macOS file systems hand back file names decomposed: a hand-made ``회의록.md`` is read as NFD."""
    layer = mem.session.layer("project").path
    layer.mkdir(parents=True, exist_ok=True)
    nfd = unicodedata.normalize("NFD", "회의록")
    (layer / f"{nfd}.md").write_text("---\ndescription: minutes\ntype: project\n---\nKeep minutes.\n",
                                     encoding="utf-8")
    assert mem.read("회의록").record.body == "Keep minutes."
    with pytest.raises(NotFound):
        mem.read("회의")  # control: another name is not it


def test_search_folds_accents_both_ways(mem):
    mem.write("zurich-office", "The Zürich office opens at eight", "project", "Badge at the front desk.")
    mem.write("cafe-rule", "No laptops in the café", "project", "House rule.")
    mem.write("berlin-office", "The Berlin office opens at nine", "project", "Ring twice.")
    assert [h.name for h in mem.search("Zurich office")][0] == "zurich-office"
    assert "zurich-office" in [h.name for h in mem.search("Zürich")]
    assert [h.name for h in mem.search("cafe laptops")][0] == "cafe-rule"
    assert "berlin-office" not in [h.name for h in mem.search("Zurich")]  # control: no padding


@pytest.mark.parametrize("spelling", ["회의록 규칙", unicodedata.normalize("NFD", "회의록 규칙")])
def test_the_journal_filtered_by_any_spelling_of_a_name_lists_that_memorys_events(mem, spelling):
    """break40recall: ``memdir journal --name`` (and the panel's journal filter) matched the stored name
    exactly, so the name a person wrote (회의록 규칙, café-notes) listed "No journal events"."""
    mem.write("회의록 규칙", "Minutes go to the wiki", "project", "Keep minutes.")
    mem.write("café-notes", "Coffee notes", "project", "Oat milk.")
    mem.write("other-rule", "Standups at nine", "project", "Ring twice.")
    stored = normalize_name("회의록 규칙").name
    assert stored.startswith("m-")
    assert [(e.name, e.action) for e in mem.journal(name=spelling).entries] == [(stored, "create")]
    assert [e.name for e in mem.journal(name=stored).entries] == [stored]  # control: the stored name, as before
    cafe = unicodedata.normalize("NFD", "Café-Notes")
    assert [e.name for e in mem.journal(name=cafe).entries] == ["cafe-notes"]
    assert [e.name for e in mem.journal(name="other").entries] == []  # control: no partial match
    assert {e.name for e in mem.journal().entries} == {stored, "cafe-notes", "other-rule"}
