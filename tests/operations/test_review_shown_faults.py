"""break30: the record of what `memdir review` showed (:data:`memdir.files.layout.SHOWN_FILE`) under faults, and
digests typed wrong. A record that is there but does not read (a directory in its place, a link, an empty or
cut file, not JSON) read as "review never showed it": a decision without ``--digest`` then approved a
candidate rewritten after the person's review, with only the warning that review had never shown it (a
directory in the way also kept every later review from recording). Now such a decision is refused, naming
the record, and ``--digest`` still decides. A digest that is no digest (not hex, longer than 64 digits) was
refused as "changed since it was shown", naming two equal digests; it is now refused as a bad digest."""

from __future__ import annotations

import os

import pytest

from memdir.errors import Conflict, InvalidInput
from memdir.files.layout import SHOWN_FILE


def _shown_then_rewritten(person, mem):
    """A candidate review showed, then rewritten by the agent; its record's path and the digest shown."""
    mem.write("indent", "Indent with tabs", "feedback", "Use tabs.", status="candidate")
    (seen,) = person.review().candidates
    mem.write("indent", "Indent with tabs", "feedback", "Use tabs, width 2 (unseen).", status="candidate")
    return person.session.layer("project").meta / SHOWN_FILE, seen.digest


def _directory(path):
    path.unlink()
    path.mkdir()


def _link_elsewhere(path):
    elsewhere = path.parent.parent.parent / "elsewhere.json"
    elsewhere.write_text(path.read_text())
    path.unlink()
    path.symlink_to(elsewhere)


FAULTS = {
    "a directory": _directory,
    "a link elsewhere": _link_elsewhere,
    "empty": lambda p: p.write_bytes(b""),
    "cut": lambda p: p.write_bytes(p.read_bytes()[:20]),
    "not an object": lambda p: p.write_bytes(b"[1, 2]\n"),
    "over the read limit": lambda p: p.write_bytes(b'{"x": "' + b"a" * (1 << 20) + b'"}\n'),
}


@pytest.mark.parametrize("fault", FAULTS)
def test_an_unreadable_record_refuses_a_decision_without_a_digest(person, mem, fault):
    path, _ = _shown_then_rewritten(person, mem)
    FAULTS[fault](path)
    with pytest.raises(Conflict, match=f"what `memdir review` last showed of 'indent' cannot be read \\(.*{SHOWN_FILE} is not a record"):
        person.approve("indent")  # before: approved the unseen rewrite, warning that review never showed it
    with pytest.raises(Conflict, match="cannot be read"):
        person.reject("indent")
    assert person.read("indent", count=False).record.status == "candidate"
    # Control: the digest of what is there now decides.
    now = person.review().candidates[0].digest
    assert person.approve("indent", digest=now[:12]).name == "indent"
    assert person.read("indent", count=False).record.body == "Use tabs, width 2 (unseen)."


def test_a_review_after_a_fault_records_again(person, mem):
    path, _ = _shown_then_rewritten(person, mem)
    FAULTS["cut"](path)
    person.review()  # a regular file, replaced whole
    assert person.approve("indent").name == "indent"  # the rewrite was shown by this review
    mem.write("tabs", "Tabs are 4 wide", "feedback", "Width 4.", status="candidate")
    link = path.parent.parent.parent / "elsewhere.json"
    FAULTS["a link elsewhere"](path)
    person.review()
    assert not path.is_symlink() and link.read_text() != path.read_text()  # the link replaced, not written through
    assert person.approve("tabs").name == "tabs"


def test_no_record_at_all_still_approves_with_the_warning(person, mem):
    """Control: review never ran in this layer (no file): the decision goes on, saying so (break29's rule)."""
    mem.write("indent", "Indent with tabs", "feedback", "Use tabs.", status="candidate")
    assert not (person.session.layer("project").meta / SHOWN_FILE).exists()
    decided = person.approve("indent")
    assert decided.name == "indent" and "without `memdir review` showing it" in decided.warnings[-1]


@pytest.mark.parametrize("typed", ["z" * 16, "g" * 64, "0" * 65, "EXTRA", "dead beef cafe"])
def test_a_digest_that_is_no_digest_is_refused_as_one(person, mem, typed):
    mem.write("indent", "Indent with tabs", "feedback", "Use tabs.", status="candidate")
    (seen,) = person.review().candidates
    given = seen.digest + "0" if typed == "0" * 65 else seen.digest[:12] + " extra" if typed == "EXTRA" else typed
    with pytest.raises(InvalidInput, match="is not a digest"):
        person.approve("indent", digest=given)
    with pytest.raises(InvalidInput, match="too short"):
        person.approve("indent", digest=seen.digest[:11])
    # Controls: the shown digest in capitals with spaces around, and a wrong hex prefix (a real change).
    with pytest.raises(Conflict, match="changed since it was shown"):
        person.approve("indent", digest="0" * 12 if not seen.digest.startswith("0" * 12) else "f" * 12)
    assert person.approve("indent", digest=f" {seen.digest.upper()}\n").name == "indent"


def test_two_reviews_in_parallel_leave_a_record_that_reads(person, mem):
    """Reviews racing each other (threads in one process, each replacing the record): the record read after
    is one of theirs, whole, and a decision without a digest checks against it."""
    import threading

    for n in range(8):
        mem.write(f"note-{n}", f"Note {n}", "project", f"body {n}", status="candidate")
    errors = []

    def run():
        try:
            for _ in range(5):
                person.review()
        except Exception as exc:  # noqa: BLE001 - collected and asserted empty
            errors.append(exc)

    threads = [threading.Thread(target=run) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert sorted(os.listdir(person.session.layer("project").meta)).count(SHOWN_FILE) == 1
    assert person.approve("note-3").warnings == ()
