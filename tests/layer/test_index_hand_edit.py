"""A line a person types into ``MEMORY.md`` is never lost without a trace (trial finding: `echo "- [hand-note]
(hand-note.md) — Person typed this line" >> MEMORY.md`, then any write, and the line was gone, kept nowhere).
``MEMORY.md`` stays derived — rewritten from the memory files — but the edited file is kept aside first and
the write says where. Real files; the Python API's write (its warnings are what the CLI and tools print)."""

from __future__ import annotations

import time

HAND = "- [hand-note](hand-note.md) — Person typed this line\n"


def test_a_hand_edited_memory_md_is_kept_aside_before_it_is_written_again(mem):
    mem.write("db-port", "Dev PostgreSQL listens on 5433", "project", "5432 is taken.")
    layer = mem.session.layer("project")
    index = layer.path / "MEMORY.md"
    time.sleep(0.05)  # past the clock tick of memdir's own write and stamp
    with open(index, "a", encoding="utf-8") as out:
        out.write(HAND)
    done = mem.write("staging-host", "Staging lives at staging.internal.example", "project", "Deploys go first.")
    kept = sorted((layer.path / ".memdir").glob("MEMORY.md.edited-*"))
    assert len(kept) == 1 and kept[0].read_text(encoding="utf-8").endswith(HAND)
    assert kept[0].read_text(encoding="utf-8").startswith("- [db-port](db-port.md)")
    assert (f"MEMORY.md was edited by hand; it is made from the memory files and was written again — the edited "
            f"copy is kept at {kept[0]} (a fact belongs in a memory: memdir write)") in done.warnings
    text = index.read_text(encoding="utf-8")
    assert "Person typed this line" not in text and "- [staging-host](staging-host.md)" in text  # derived again
    # control: a write after memdir's own write keeps nothing aside and says nothing
    again = mem.write("logging", "Use structlog for logging", "project", "JSON lines in production.")
    assert sorted((layer.path / ".memdir").glob("MEMORY.md.edited-*")) == kept
    assert not any("edited by hand" in w for w in again.warnings)
    assert "- [logging](logging.md)" in index.read_text(encoding="utf-8")


def test_hand_edits_kept_in_one_second_each_get_their_own_copy_readable_by_the_person_alone(mem):
    """break28: a second hand edit kept within the same second as the first found its copy's name taken
    (``MEMORY.md.edited-<second>``), kept nothing and said nothing — its lines were gone; copies were mode 0644."""
    import os
    import stat

    mem.write("db-port", "Dev PostgreSQL listens on 5433", "project", "5432 is taken.")
    layer = mem.session.layer("project")
    index = layer.path / "MEMORY.md"
    said = []
    for i in range(3):
        time.sleep(0.02)  # past the clock tick of memdir's own write and stamp, well within one second
        with open(index, "a", encoding="utf-8") as out:
            out.write(f"- person's line number {i}\n")
        said.append([w for w in mem.write(f"note-{i}", f"Note {i}", "project", "b").warnings if "edited by hand" in w])
    kept = sorted((layer.path / ".memdir").glob("MEMORY.md.edited-*"), key=lambda p: p.stat().st_mtime_ns)
    texts = [p.read_text(encoding="utf-8") for p in kept]
    seconds = {p.name.split("edited-")[1][:16] for p in kept}
    if len(seconds) == 1:  # the three in one second (as on a fast machine): each copy has a name of its own
        assert [p.name[-2:] for p in kept[1:]] == ["-2", "-3"]
    assert len(kept) == 3 and all(len(w) == 1 for w in said)  # before: 1 copy, and no word of the other two
    assert [t.endswith(f"- person's line number {i}\n") for i, t in enumerate(texts)] == [True, True, True]
    assert [stat.S_IMODE(os.stat(p).st_mode) for p in kept] == [0o600] * 3  # before: 0o644 (the umask's)
    assert "person's line" not in index.read_text(encoding="utf-8")  # control: MEMORY.md derived again
