"""A new day, or reads counted since, order ``MEMORY.md`` again without reading every file (issue 28
item 7): the layer's manifest keeps each memory's index facts (:class:`memdir.layer.index.Facts`).
Each ``Memory.open`` is a fresh process's view; parses are counted at the one parser of memory files;
the clock the index is rendered at is moved past the index's deadline. Every text is compared with a
full render of the files at the same moment."""

from __future__ import annotations

import time
from datetime import datetime, timedelta, timezone

import pytest

from memdir import Memory
from memdir.files import scan as scan_module
from memdir.layer import indexfile as indexfile_module
from memdir.layer import layer as layer_module
from tests.seeded import counted_parses, counted_reads

SIZE = 40


@pytest.fixture
def now() -> datetime:
    """The time each test seeds its memories at, read when the test starts (a module constant read at import
    was an hour old in a run lagging an hour, and a day boundary could fall between it and the test)."""
    return datetime.now(timezone.utc)


def _seeded(home, project, now: datetime) -> None:
    mem = Memory.open(home=home, project=project, actor="human")
    layer = mem.session.layer("project")
    layer.path.mkdir(parents=True)
    for i in range(SIZE):  # anchors spread over hours and days: each crosses its own day boundary
        updated = (now - timedelta(days=i % 7, hours=i * 5, minutes=i)).strftime("%Y-%m-%dT%H:%M:%SZ")
        importance = f"importance: {3 + i % 5}\n" if i % 3 else ""
        (layer.path / f"fact-{i:02d}.md").write_text(
            f"---\nname: fact-{i:02d}\ndescription: fact number {i}\ntype: project\n{importance}"
            f"updated: {updated}\n---\n\nBody {i}\n")
    (layer.path / "later.md").write_text(  # not shown until it is valid: it has no line to move yet
        "---\nname: later\ndescription: valid from the day after tomorrow\ntype: project\n"
        f"valid_from: {(now + timedelta(days=2)).strftime('%Y-%m-%dT%H:%M:%SZ')}\n---\n\nLater.\n")
    time.sleep(2.1)  # past the clock tick of the writes: their stat keys are trusted (manifest.RACY_NS)
    layer.refresh_index()


def _full_render(home, project, monkeypatch) -> str:
    monkeypatch.setattr(scan_module, "parse", _REAL_PARSE)
    layer = Memory.open(home=home, project=project).session.layer("project")
    return layer._index.render({n: e.record for n, e in layer.scan().entries.items()}, layer_module.now_utc())


_REAL_PARSE = scan_module.parse


@pytest.mark.slow
def test_a_write_past_the_index_deadline_orders_every_line_again_without_reading_the_files(
        isolated_home, project, monkeypatch, now):
    _seeded(isolated_home, project, now)
    before = (Memory.open(home=isolated_home, project=project).session.layer("project").path / "MEMORY.md").read_text()
    later = now + timedelta(days=3, hours=7)  # past every memory's next day boundary and later's valid_from
    monkeypatch.setattr(layer_module, "now_utc", lambda: later)
    monkeypatch.setattr(indexfile_module, "now_utc", lambda: later)  # MEMORY.md is written there
    parsed = counted_parses(monkeypatch)
    fresh = Memory.open(home=isolated_home, project=project, actor="human")
    fresh.write("a-new-fact", "a fact no file held yet", "project", "new")
    assert parsed == []  # before: all 41 files, for the full render past the deadline
    index = (fresh.session.layer("project").path / "MEMORY.md").read_text()
    assert index == _full_render(isolated_home, project, monkeypatch)
    assert "(later.md) — valid from the day after tomorrow" in index and "(later.md)" not in before
    assert index.count("\n") == SIZE + 2 and index.splitlines()[1:] != before.splitlines()[1:]  # moved


@pytest.mark.slow
def test_reads_counted_since_move_their_lines_at_the_next_write_without_reading_the_others(
        isolated_home, project, monkeypatch, now):
    _seeded(isolated_home, project, now)
    reader = Memory.open(home=isolated_home, project=project, actor="agent")
    for _ in range(3):
        reader.read("fact-39")  # the oldest of low importance: reads make it recent
    parsed = counted_parses(monkeypatch)
    fresh = Memory.open(home=isolated_home, project=project, actor="human")
    fresh.write("a-new-fact", "a fact no file held yet", "project", "new")
    assert parsed == []  # before: every file, because the usage file had changed
    index = (fresh.session.layer("project").path / "MEMORY.md").read_text()
    assert index == _full_render(isolated_home, project, monkeypatch)
    lines = index.splitlines()
    assert lines.index(next(l for l in lines if "(fact-39.md)" in l)) < lines.index(
        next(l for l in lines if "(fact-38.md)" in l))  # control: the read memory moved up
    parsed, read = counted_parses(monkeypatch), counted_reads(monkeypatch)
    again = Memory.open(home=isolated_home, project=project, actor="human")
    again.write("another-fact", "one more fact", "project", "more")
    # The keys of every moved line were kept, so the next process takes them up; only the file written
    # within the clock tick of the last save is read again (manifest.RACY_NS): hashed once, its bytes found
    # unchanged, not parsed (before: read twice, parsed once; then, until left23, read twice, not parsed).
    assert read == ["a-new-fact"] and parsed == []
    index = (again.session.layer("project").path / "MEMORY.md").read_text()
    assert index == _full_render(isolated_home, project, monkeypatch) and "(another-fact.md)" in index


@pytest.mark.slow
def test_the_context_block_past_the_deadline_reads_no_memory_file(isolated_home, project, monkeypatch, now):
    from types import SimpleNamespace

    from memdir.prompt import context

    _seeded(isolated_home, project, now)
    later = now + timedelta(days=1, hours=1)
    monkeypatch.setattr(layer_module, "now_utc", lambda: later)
    monkeypatch.setattr(indexfile_module, "now_utc", lambda: later)  # MEMORY.md is written there
    monkeypatch.setattr(context, "time", SimpleNamespace(time_ns=lambda: int(later.timestamp() * 1e9)))
    parsed = counted_parses(monkeypatch)
    block = context.session_block(Memory.open(home=isolated_home, project=project).session)  # the stamp: out of date
    assert parsed == []
    index = (Memory.open(home=isolated_home, project=project).session.layer("project").path / "MEMORY.md").read_text()
    assert index == _full_render(isolated_home, project, monkeypatch)
    assert "fact number 0" in block and "(fact-00.md)" in index  # control: the block has the lines


def test_every_score_steps_at_midnight_utc_so_the_index_text_holds_all_day():
    from memdir.files.memfile import MemoryRecord
    from memdir.layer.index import next_change, render_index, score

    now = datetime(2026, 11, 30, 9, 30, tzinfo=timezone.utc)
    records = [MemoryRecord(name=f"m{h:02d}", description=f"d{h}", type="project",
                            updated=datetime(2026, 11, 20, h, 15, tzinfo=timezone.utc)) for h in range(24)]
    assert next_change(records, now) == datetime(2026, 12, 1, tzinfo=timezone.utc)  # not 10:15, one per hour
    assert {score(r, now) for r in records} == {6 * 0.995 ** 10}
    assert render_index(records, now) == render_index(records, datetime(2026, 11, 30, 23, 59, tzinfo=timezone.utc))
    assert {score(r, datetime(2026, 12, 1, tzinfo=timezone.utc)) for r in records} == {6 * 0.995 ** 11}  # the step
