"""The index orders by importance × 0.995^days since the *later* of a memory's last read and its update
(DESIGN §4: "days since last read/update"). Before (left29) a read hid any later update: a runbook read a month
ago and edited by hand yesterday ranked by the month-old read, under 45 notes written ten days ago, and a
small block left it out. Real files in a layer, as a person's editor leaves them (an older file's own
``last_read`` is read: DESIGN §3)."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

from memdir import Memory
from memdir.files.memfile import MemoryRecord
from memdir.layer.index import ordered, score


def _file(name: str, description: str, updated: datetime, last_read: datetime | None = None) -> str:
    def when(t: datetime) -> str:
        return t.strftime("%Y-%m-%dT%H:%M:%SZ")

    read = f"last_read: {when(last_read)}\nreads: 3\n" if last_read else ""
    return (f"---\nname: {name}\ndescription: {description}\ntype: project\ncreated: {when(updated)}\n"
            f"updated: {when(updated)}\n{read}---\nBody of {name}.\n")


def test_a_memory_edited_after_its_last_read_ranks_by_the_edit(isolated_home, project):
    now = datetime.now(timezone.utc).replace(microsecond=0)
    person = Memory.open(home=isolated_home, project=project, actor="human")
    person.write("seed", "A first note", "project", "")
    layer = person.session.layer("project").path
    (layer / "seed.md").unlink()
    for n in range(45):
        (layer / f"note-{n:02d}.md").write_text(_file(f"note-{n:02d}", f"Bulk note number {n}",
                                                       now - timedelta(days=10)))
    (layer / "zz-runbook.md").write_text(_file("zz-runbook", "How the pump is restarted", now - timedelta(days=1),
                                              last_read=now - timedelta(days=30)))
    (layer / "zz-old.md").write_text(_file("zz-old", "An old note read long ago", now - timedelta(days=40),
                                          last_read=now - timedelta(days=30)))
    names = [m.name for m in Memory.open(home=isolated_home, project=project).list("project").memories]
    assert names[0] == "zz-runbook"  # edited yesterday: 6 × 0.995^1, over the notes' 6 × 0.995^10
    assert names[-1] == "zz-old"  # control: read 30 days ago, not edited since, ranks by the read
    block = Memory.open(home=isolated_home, project=project).context(max_bytes=1500)
    assert "zz-runbook" in block and "note-00" in block and "note-44" not in block  # cut, but not the runbook


def test_score_takes_the_later_of_read_and_update():
    now = datetime(2026, 12, 5, 12, tzinfo=timezone.utc)
    edited = MemoryRecord(name="b", description="d", type="project", updated=now - timedelta(days=1),
                          last_read=now - timedelta(days=30))
    read = MemoryRecord(name="a", description="d", type="project", updated=now - timedelta(days=30),
                        last_read=now - timedelta(days=1))
    old = MemoryRecord(name="c", description="d", type="project", updated=now - timedelta(days=40),
                       last_read=now - timedelta(days=30))  # control: its read is the later
    assert score(edited, now) == score(read, now) == 6 * 0.995 and score(old, now) == 6 * 0.995 ** 30
    assert [r.name for r in ordered([old, edited, read], now)] == ["a", "b", "c"]  # a tie: by name (DESIGN §4)
