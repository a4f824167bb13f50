"""A pending finding is judged against each ``external-edit`` once (memdir.prompt.answered.judged).

Before, an edit outside memdir of another memory, journaled after the finding was kept, was read again (its two
versions, the journal's events since the mark) at every hook until the finding left. Now each judging records how
far it read, and the next hook starts there: no new event, no work."""

from __future__ import annotations

import json

import pytest

from memdir import Memory
from memdir.layer.journal import Journal
from memdir.prompt import answered, pending

SAID = "Use uv not pip here, dev db is on 5433, and I use neovim."


@pytest.fixture
def kept(isolated_home, project):
    """A project layer with db-port (5433) and one finding about it, kept with its journal mark."""
    person = Memory.open(home=isolated_home, project=project, actor="human")
    person.write("db-port", "Dev PostgreSQL listens on 5433", "project", "")
    person.write("lunch", "Lunch is at noon", "project", "")
    assert person.consolidate([{"role": "user", "content": SAID}], extractor="agent").pending == (SAID,)
    layer = person.session.layer("project")
    (item,) = pending.load(layer.path)
    assert item["journal"][2] == layer.journal.last_event().seq - 1  # kept before the receipt
    return layer, item


def _edit(layer, name: str, old: str, new: str) -> None:
    """An ``external-edit`` of ``name`` journaled as a sweep records it (its text ``old`` -> ``new``)."""
    journal = layer.journal
    before = journal.heads()[name]
    text = journal.get_object(before).decode().replace(old, new)
    assert text != journal.get_object(before).decode()
    journal.append("human", "external-edit", name, before, journal.put_object(text.encode()))


@pytest.fixture
def reads(monkeypatch):
    """Counts of the work of a judging: version texts read, journal reads (events_after, events)."""
    seen = {"versions": 0, "journal reads": 0}
    text, after, every = answered._text, Journal.events_after, Journal.events

    def counted_text(*args):
        seen["versions"] += 1
        return text(*args)

    def counted(method):
        def wrapper(self, *args):
            seen["journal reads"] += 1
            return method(self, *args)
        return wrapper

    monkeypatch.setattr(answered, "_text", counted_text)
    monkeypatch.setattr(Journal, "events_after", counted(after))
    monkeypatch.setattr(Journal, "events", counted(every))
    return seen


def test_an_unrelated_edit_is_read_once_then_no_more(kept, reads):
    layer, item = kept
    for n in range(3):  # three edits of another memory outside memdir, after the finding was kept
        _edit(layer, "lunch", "noon" if n == 0 else f"{n - 1}:30", f"{n}:30")
    assert [i["text"] for i in pending.active(layer.path)] == [SAID]
    assert reads == {"versions": 6, "journal reads": 1}  # two versions each, the tail read once
    assert answered.judged(layer.path) == {item["id"]: answered.mark(layer.path)}

    assert [i["text"] for i in pending.active(layer.path)] == [SAID]  # the second hook: no new work
    assert reads == {"versions": 6, "journal reads": 1}

    _edit(layer, "lunch", "2:30", "3:30")  # control: a new edit is read, alone
    assert [i["text"] for i in pending.active(layer.path)] == [SAID]
    assert reads == {"versions": 8, "journal reads": 2}
    _edit(layer, "db-port", "5433", "5434")  # control: the edit that answers it still does, after the judged ones
    assert pending.active(layer.path) == []
    assert reads == {"versions": 10, "journal reads": 3}
    (entry,) = answered.answered(layer.path).values()
    assert (entry["id"], entry["name"], entry["seq"]) == (item["id"], "db-port", layer.journal.last_event().seq)


def test_a_long_tail_of_other_events_is_judged_up_to_its_end_and_a_short_one_is_not(kept, reads):
    layer, item = kept
    journal = layer.journal
    for n in range(20):  # memdir's own updates: no edit outside memdir
        journal.append("agent", "update", "lunch", journal.heads()["lunch"], journal.put_object(f"v{n}".encode()))
    assert [i["text"] for i in pending.active(layer.path)] == [SAID]
    assert answered.judged(layer.path) == {}  # under SETTLE_BYTES: searched again next time, nothing recorded
    size = (journal.stat_key() or (0,))[0]
    with journal.batched():
        while (journal.stat_key() or (0,))[0] - size <= answered.SETTLE_BYTES:
            journal.append("agent", "update", "lunch", journal.heads()["lunch"], journal.put_object(b"x"))
    assert [i["text"] for i in pending.active(layer.path)] == [SAID]
    assert answered.judged(layer.path) == {item["id"]: answered.mark(layer.path)}  # judged up to the end
    assert reads == {"versions": 0, "journal reads": 0}  # a byte search only, no event parsed


def test_a_judging_mark_of_a_rewritten_journal_reads_it_whole_and_answers(kept, reads):
    """A judged mark whose line is no longer in the journal (a rechain) is no shortcut: the events are read
    whole, by time, and the answering edit is found. Control: the shortcut is taken while the line is there."""
    layer, item = kept
    _edit(layer, "lunch", "noon", "one")
    assert [i["text"] for i in pending.active(layer.path)] == [SAID]
    judged = answered.judged(layer.path)[item["id"]]
    (layer.path / ".memdir" / answered.JUDGED_FILE).write_text(
        json.dumps({"id": item["id"], "journal": [judged[0], "0000", judged[2]]}) + "\n")
    _edit(layer, "db-port", "5433", "5434")
    assert pending.active(layer.path) == []
    assert reads["journal reads"] == 3  # the tail once, then events_after refused the mark and the whole read


def test_keeping_and_dropping_findings_forgets_the_judging_of_those_gone(kept):
    layer, item = kept
    _edit(layer, "lunch", "noon", "one")
    pending.active(layer.path)
    assert set(answered.judged(layer.path)) == {item["id"]}
    with layer.locked():
        assert pending.drop(layer.path, ["0123456789ab"]) == []  # control: nothing dropped, the mark stays
        assert set(answered.judged(layer.path)) == {item["id"]}
        assert [i["id"] for i in pending.drop(layer.path, [item["id"]])] == [item["id"]]
    assert answered.judged(layer.path) == {}
    assert not (layer.path / ".memdir" / answered.JUDGED_FILE).exists()
