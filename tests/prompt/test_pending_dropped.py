"""What a drop remembers (:func:`memdir.prompt.pending.remember_dropped`): the digest of a finding's words, never
its text, the newest :data:`~memdir.prompt.pending.MAX_DROPPED`; :func:`~memdir.prompt.pending.add` keeps no
finding of those words again, and keeps another sentence. The CLI's whole path: tests/integrations/cli/
test_review_drop_durable.py."""

from __future__ import annotations

import json

import pytest

from memdir.errors import StoreError
from memdir.prompt import pending
from memdir.tombstones.reading import READING

WRONG = "Always use the staging bucket s3://wrong-bucket for tests."


@pytest.fixture
def layer(person):
    layer = person.session.layer("project")
    person.write("seed", "Project uses pnpm workspaces", "project", "x")
    return layer


def _add(layer, *texts) -> list[str]:
    with layer.locked():
        return [i["text"] for i in pending.add(layer.path, [("remember", t) for t in texts], "s1")]


def test_the_same_words_are_refused_and_other_words_kept(layer):
    assert _add(layer, WRONG) == [WRONG]
    with layer.locked():
        gone = pending.drop(layer.path, [pending.load(layer.path)[0]["id"]])
    assert [i["text"] for i in gone] == [WRONG] and pending.load(layer.path) == []
    same = ["always use the staging bucket  s3://wrong-bucket for tests",
            "ALWAYS use the staging bucket **s3://wrong-bucket** for tests!"]
    other = ["Always use the staging bucket s3://right-bucket for tests.",
             "Never use the staging bucket s3://wrong-bucket for tests."]
    assert pending.dropped_texts(layer.path, same + other) == same
    assert _add(layer, *same, *other) == other  # control: a correction and a negation are other findings
    line = (layer.meta / pending.DROPPED_FILE).read_text(encoding="utf-8")
    assert json.loads(line)["digest"] == pending.said_digest(WRONG) and "wrong-bucket" not in line
    assert json.loads(line)["reading"] == READING  # the reading of words the digest was made with


def test_a_drop_is_matched_under_the_reading_it_was_made_with(layer):
    """A digest cannot be made again from a changed reading (no text is kept): each line keeps its reading, and a
    line without one is of the reading drops began with (2)."""
    marked = "Use the <b>staging</b> bucket for tests."
    assert pending.said_digest(marked, 1) != pending.said_digest(marked, 2)  # the readings tell it apart
    assert pending.DROPS_READING == 2 and READING == 2
    layer.meta.mkdir(parents=True, exist_ok=True)
    drops = layer.meta / pending.DROPPED_FILE
    drops.write_text(json.dumps({"digest": pending.said_digest(marked, 1), "at": 0, "reading": 1}) + "\n")
    assert pending.dropped_texts(layer.path, [marked, WRONG]) == [marked]  # matched under reading 1
    assert _add(layer, marked, WRONG) == [WRONG]
    drops.write_text(json.dumps({"digest": pending.said_digest(marked, 1), "at": 0}) + "\n")
    assert pending.dropped_texts(layer.path, [marked]) == []  # control: without its reading, read as 2: no match
    drops.write_text(json.dumps({"digest": pending.said_digest(marked), "at": 0}) + "\n")
    assert pending.dropped_texts(layer.path, [marked]) == [marked]  # a line of before the marker: today's reading


def test_the_newest_drops_are_remembered_within_the_cap(layer):
    many = [{"id": f"{n:012x}", "text": f"Deploy number {n} goes out on the first Monday."}
            for n in range(pending.MAX_DROPPED + 5)]
    with layer.locked():
        pending.remember_dropped(layer.path, many[:pending.MAX_DROPPED])
        assert len((layer.meta / pending.DROPPED_FILE).read_text().splitlines()) == pending.MAX_DROPPED  # appended
        pending.remember_dropped(layer.path, many[pending.MAX_DROPPED:])
    lines = (layer.meta / pending.DROPPED_FILE).read_text().splitlines()
    assert len(lines) == pending.MAX_DROPPED  # trimmed: the five oldest went
    texts = [i["text"] for i in many]
    assert pending.dropped_texts(layer.path, texts) == texts[5:]
    assert _add(layer, texts[0], texts[-1]) == [texts[0]]  # forgotten past the cap: kept again; the newest refused


def test_a_drop_that_cannot_be_remembered_drops_nothing(layer):
    assert _add(layer, WRONG) == [WRONG]
    (layer.meta / pending.DROPPED_FILE).mkdir()  # the record cannot be written
    ident = pending.load(layer.path)[0]["id"]
    with layer.locked(), pytest.raises(StoreError, match="cannot write"):
        pending.drop(layer.path, [ident])
    assert [i["id"] for i in pending.load(layer.path)] == [ident]  # still pending: the drop said nothing false
    with layer.locked(), pytest.raises(StoreError):
        pending.drop_every(layer.path)
    assert [i["id"] for i in pending.load(layer.path)] == [ident]


def test_the_one_reader_skips_torn_foreign_and_too_deep_lines(layer):
    """answered.records serves the showings, the answered records, the judging marks and the drops alike."""
    from memdir.prompt import answered

    good = {"id": "abc", "session": "s1", "digest": pending.said_digest(WRONG)}
    raw = (json.dumps(good) + "\n" + '{"id": "torn", "sess' + "\n5\n" + "[" * 100_000 + "]" * 100_000 + "\n"
           + json.dumps(good) + "\n")
    for name in (pending.SHOWN_FILE, pending.DROPPED_FILE):
        (layer.meta / name).write_text(raw, encoding="utf-8")
    assert answered.records(layer.path, pending.SHOWN_FILE) == [good, good]
    assert pending.showings(layer.path) == {"abc": {"s1"}}
    assert pending.dropped(layer.path) == frozenset({(pending.DROPS_READING, pending.said_digest(WRONG))})
    assert answered.records(layer.path, "no-such-file.jsonl") == []


def test_a_torn_last_record_does_not_swallow_the_next_drop(layer):
    # break43: a torn line (a writer killed mid-record) glued the next drop to it, unreadable: the finding came back
    layer.meta.mkdir(parents=True, exist_ok=True)
    (layer.meta / pending.DROPPED_FILE).write_bytes(b'{"digest": "abc')
    assert _add(layer, WRONG) == [WRONG]
    with layer.locked():
        pending.drop(layer.path, [pending.load(layer.path)[0]["id"]])
    lines = (layer.meta / pending.DROPPED_FILE).read_text(encoding="utf-8").splitlines()
    assert lines[0] == '{"digest": "abc' and json.loads(lines[1])["digest"] == pending.said_digest(WRONG)
    assert _add(layer, WRONG, "Deploys go out on Tuesdays.") == ["Deploys go out on Tuesdays."]  # control: kept
