"""The index's own sweep does not keep the next process from following the journal (memdir.search.follow).

A sync that sweeps a large layer whose manifest differs from its files (a hand edit in place) takes the hand
edit up through the layer (:meth:`memdir.layer.layer.Layer.take_up`: journaled, the manifest saved with the
time of that sweep, ``swept``), inside the sync's own scan. The sync recorded that it had synced as of when it
began (``synced:<key>``, before its scan), so the manifest's sweep looked newer than the index's last sync, as
another writer's sweep would: the next process swept every file again instead of following the journal.
Now the sync counts a sweep this process saved during its scan as its own, scanning once more after it so
the rows hold all that sweep saw; a sweep by another process still makes the next sync sweep (control)."""

from __future__ import annotations

import time

import pytest

from memdir import Memory
from memdir.files import sweeps as sweeps_module
from memdir.layer.layer import Layer
from memdir.search import index, sync
from tests.seeded import counted_reads


def _memory(name: str, text: str) -> str:
    return f"---\nname: {name}\ndescription: {text}\ntype: project\n---\n\nBody of {text}\n"


@pytest.fixture
def large(isolated_home, project, monkeypatch):
    """A project layer of 30 memories the sweep policy treats as large, swept once, interval an hour; the
    layers the sweeps of the test scan (``Layer.scan``) are listed in the list returned."""
    from memdir.files import layout as layout_module

    monkeypatch.setattr(sweeps_module, "SWEEP_ALWAYS_MAX", 5)
    monkeypatch.setattr(layout_module, "SWEEP_INTERVAL", 3600.0)
    mem = Memory.open(home=isolated_home, project=project, actor="human", search_vectors="off")
    for i in range(30):
        mem.write(f"fact-{i:02d}", f"fact number {i} about ledgers", "project", f"ledger body {i}")
    time.sleep(2.1)  # past the clock tick of the writes (manifest.RACY_NS)
    mem.session.layer("project").refresh_index()
    assert len(mem.search("ledgers", k=50)) == 30
    scans: list[str] = []
    real = Layer.scan
    monkeypatch.setattr(Layer, "scan", lambda self, *a, **k: scans.append(self.scope) or real(self, *a, **k))
    return mem.session.layer("project").path, scans


def _fresh(home, project) -> Memory:
    sync._swept.clear()  # what a new process remembers of its own sweeps: nothing
    return Memory.open(home=home, project=project, actor="human", search_vectors="off")


def _fresh_sync(home, project) -> int:
    """Files read (``on_read``) by a new process's sync of the project layer."""
    reads: list[int] = []
    fresh = _fresh(home, project)
    sync.sync_layer(index.connect(home), home, fresh.session.layer("project"), on_read=reads.append)
    return len(reads)


def _edit(path, old: str, new: str) -> None:
    path.write_text(path.read_text().replace(old, new))  # in place: the directory's mtime does not move


def test_after_a_sync_whose_scan_swept_the_next_process_follows_the_journal(isolated_home, project, large,
                                                                            monkeypatch):
    from memdir.files import layout as layout_module

    layer, scans = large
    _edit(layer / "fact-07.md", "ledger body 7", "kayak body 7")  # by hand: no journal line
    monkeypatch.setattr(layout_module, "SWEEP_INTERVAL", 0.0)  # the sweep is due: the sync sweeps
    scans.clear()
    assert _fresh_sync(isolated_home, project) == 1 and "project" in scans  # the edit taken up by its scan
    monkeypatch.setattr(layout_module, "SWEEP_INTERVAL", 3600.0)
    _fresh(isolated_home, project).write("fact-08", None, None, "ledger body 8 and a kayak")
    reads = counted_reads(monkeypatch)
    scans.clear()
    # Followed: the files the events since the last sync name — fact-08 written, and fact-07, whose take-up was
    # journaled after that sync took the journal's state (its row read again: edited within the clock tick).
    # Before: swept again (every file stat'ed), its own sweep read as a writer's "since".
    assert _fresh_sync(isolated_home, project) == 2
    assert sorted(reads) == ["fact-07", "fact-08"] and scans == []
    assert sorted(r.name for r in _fresh(isolated_home, project).search("kayak")) == ["fact-07", "fact-08"]

    # Control: another process's sweep takes up a hand edit (journaled, the manifest's sweep newer than the
    # index's last sync): the next sync sweeps, and finds the edit.
    _edit(layer / "fact-09.md", "ledger body 9", "kayak body 9")
    monkeypatch.setattr(layout_module, "SWEEP_INTERVAL", 0.0)
    _fresh(isolated_home, project).session.layer("project").refresh_index()  # a write's sweep, elsewhere
    monkeypatch.setattr(layout_module, "SWEEP_INTERVAL", 3600.0)
    scans.clear()
    reads.clear()
    # Swept: fact-09 read, and fact-07 and fact-08, changed within the clock tick of their syncs (sync.RACY_NS)
    assert _fresh_sync(isolated_home, project) == 3 and scans == ["project"]
    assert sorted(set(reads)) == ["fact-07", "fact-08", "fact-09"], reads  # (each read by the scan and by the
    # layer's check of its manifest, Layer.scan: their manifest rows too were kept with mtime 0)
    assert sorted(r.name for r in _fresh(isolated_home, project).search("kayak")) == ["fact-07", "fact-08", "fact-09"]


def test_a_hand_change_between_the_syncs_scan_and_its_sweep_is_in_the_rows(isolated_home, project, large,
                                                                           monkeypatch):
    """The hole a sync's own sweep opens: a file changed by hand after the sync's scan stat'ed it and before the
    take-up's sweep, in a way no event names (renamed to a name that normalizes the same: no memory's bytes
    change). Counted as the sync's own, that sweep must be in the rows, or the next readers would follow the
    journal past it, the row naming a file that is gone until the next due sweep."""
    from memdir.files import layout as layout_module

    layer, scans = large
    _edit(layer / "fact-07.md", "ledger body 7", "kayak body 7")  # by hand: the sync's scan takes it up
    real = Layer.take_up
    renamed: list[str] = []

    def take_up(self):
        if not renamed:  # between the sync's scan and the take-up's sweep
            (layer / "fact-11.md").rename(layer / "FACT_11.md")
            renamed.append("FACT_11.md")
        return real(self)

    monkeypatch.setattr(Layer, "take_up", take_up)
    monkeypatch.setattr(layout_module, "SWEEP_INTERVAL", 0.0)
    _fresh_sync(isolated_home, project)
    monkeypatch.setattr(layout_module, "SWEEP_INTERVAL", 3600.0)
    assert renamed == ["FACT_11.md"]
    conn = index.connect(isolated_home)
    rows = dict(conn.execute("SELECT name, file FROM docs WHERE name IN ('fact-11', 'fact-12')"))
    assert rows == {"fact-11": "FACT_11.md", "fact-12": "fact-12.md"}  # control: fact-12 as it was
    _fresh(isolated_home, project).write("fact-08", None, None, "ledger body 8 and a kayak")
    scans.clear()
    _fresh_sync(isolated_home, project)
    assert scans == []  # followed
    rows = dict(conn.execute("SELECT name, file FROM docs WHERE name IN ('fact-11', 'fact-08')"))
    assert rows == {"fact-11": "FACT_11.md", "fact-08": "fact-08.md"}
    assert sorted(r.name for r in _fresh(isolated_home, project).search("kayak")) == ["fact-07", "fact-08"]
