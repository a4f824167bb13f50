"""A fresh process (the prompt hook) keeps the sweep policy of a long-running one (issue 28 item 7):
the time of a layer's last sweep is kept in the search index, so a query in a new process does not
stat every file of a large layer while that sweep is recent — and does once it is not."""

from __future__ import annotations

import os
import time
from pathlib import Path

from memdir.files import sweeps as sweeps_module
from memdir import Memory
from memdir.layer.layer import Layer
from memdir.search import sync
from memdir.search.index import connect, layer_key


def _settled_store(home, project) -> tuple[Memory, Path]:
    """Three memories about kayaks in the project layer, vectors off, the layer's directory and journal dated a
    minute back (no change within the clock tick): ``(memory, layer path)``."""
    mem = Memory.open(home=home, project=project, search_vectors="off")
    for name in ("notes", "more", "other"):
        mem.write(name, f"{name} about boats", "project", "original words about kayaks")
    layer = mem.session.layer("project").path
    old = time.time() - 60
    for settled in (layer, layer / ".memdir" / "journal.jsonl"):
        os.utime(settled, (old, old))
    return mem, layer


def test_a_new_process_trusts_a_recent_sweep_and_sweeps_an_old_one(isolated_home, project, monkeypatch):
    from memdir.files import layout as layout_module

    mem, layer = _settled_store(isolated_home, project)
    monkeypatch.setattr(sweeps_module, "SWEEP_ALWAYS_MAX", 2)  # three files: a large layer, for this test
    monkeypatch.setattr(layout_module, "SWEEP_INTERVAL", 3600.0)
    assert sorted(r.name for r in mem.search("kayaks", k=5)) == ["more", "notes", "other"]  # swept now
    path = layer / "notes.md"
    text = path.read_text(encoding="utf-8").replace("original words about kayaks", "fresh words about canoes")
    with open(path, "w", encoding="utf-8") as handle:  # in place: the directory's mtime does not move
        handle.write(text)
    scans = []
    real = Layer.scan
    monkeypatch.setattr(Layer, "scan", lambda self, *a, **k: scans.append(self.scope) or real(self, *a, **k))
    sync._swept.clear()  # what a new process remembers of its own sweeps: nothing
    fresh = Memory.open(home=isolated_home, project=project, search_vectors="off")
    assert fresh.search("canoes") == [] and "project" not in scans  # before: every new process swept
    monkeypatch.setattr(layout_module, "SWEEP_INTERVAL", 0.0)
    sync._swept.clear()
    again = Memory.open(home=isolated_home, project=project, search_vectors="off")
    assert [r.name for r in again.search("canoes")] == ["notes"] and "project" in scans  # control: swept, found


def test_a_sweep_recorded_after_now_by_a_clock_set_back_since_is_due(isolated_home, project, monkeypatch):
    """break21: a sweep time in the future (recorded by a clock an hour ahead, set back since) read as
    'swept just now' for that hour: an in-place hand edit of a large layer went unseen by every new process
    (search, and the layer's own reads) until the clock caught up, and no sweeper was started."""
    from memdir.files import layout as layout_module
    mem, layer = _settled_store(isolated_home, project)
    monkeypatch.setattr(sweeps_module, "SWEEP_ALWAYS_MAX", 2)
    monkeypatch.setattr(layout_module, "SWEEP_INTERVAL", 30.0)
    assert sorted(r.name for r in mem.search("kayaks", k=5)) == ["more", "notes", "other"]
    key = layer_key(isolated_home, layer)
    conn = connect(isolated_home)

    def record_sweep(at_ns: int) -> None:
        conn.execute("UPDATE meta SET value = ? WHERE key = ?", (at_ns, f"swept:{key}"))
        sync._swept.clear()

    path = layer / "notes.md"
    text = path.read_text(encoding="utf-8").replace("original words about kayaks", "fresh words about canoes")
    with open(path, "w", encoding="utf-8") as handle:  # in place: the directory's mtime does not move
        handle.write(text)
    record_sweep(time.time_ns() - 10 * 10**9)  # control: ten seconds ago, within the interval: it may wait
    assert Memory.open(home=isolated_home, project=project, search_vectors="off").search("canoes") == []
    record_sweep(time.time_ns() + 3600 * 10**9)  # an hour after now
    fresh = Memory.open(home=isolated_home, project=project, search_vectors="off")
    assert [r.name for r in fresh.search("canoes")] == ["notes"]  # swept: the edit found
    assert sweeps_module.since(time.time_ns() + 3600 * 10**9) == float("inf")
    assert sweeps_module.since(0) == float("inf") and 9 < sweeps_module.since(time.time_ns() - 10 * 10**9) < 3600


def _recorded(home, key: str) -> dict:
    rows = connect(home).execute("SELECT key, value FROM meta WHERE key IN (?, ?)", (f"swept:{key}", f"synced:{key}"))
    return dict(rows.fetchall())


def test_a_small_layer_in_step_is_swept_without_a_write(isolated_home, project):
    """A search of a small layer whose rows are in step takes no write lock: a layer of at most SWEEP_ALWAYS_MAX
    files is swept at every sync, so when it was last swept (``swept:<key>``, ``synced:<key>`` in the index's
    ``meta``) is read by nothing (issue 28: each memory_search wrote both for the small user layer). A large layer's
    in-step sweep still records them: a fresh process waits out its interval from it, and the journal is followed
    after it."""
    mem, layer = _settled_store(isolated_home, project)
    key = layer_key(isolated_home, layer)
    assert sorted(r.name for r in mem.search("kayaks", k=5)) == ["more", "notes", "other"]
    before = _recorded(isolated_home, key)
    assert set(before) == {f"swept:{key}", f"synced:{key}"}  # the sync that wrote the rows recorded both
    sync._swept.clear()  # a fresh process: it sweeps the small layer again
    assert sorted(r.name for r in mem.search("kayaks", k=5)) == ["more", "notes", "other"]
    assert _recorded(isolated_home, key) == before  # swept, rows in step: nothing written
    path = mem.session.layer("project").path / "notes.md"  # control: a hand edit is still found by that sweep
    path.write_text(path.read_text(encoding="utf-8").replace("original words about kayaks", "fresh words on canoes"),
                    encoding="utf-8")
    assert [r.name for r in mem.search("canoes")] == ["notes"]
    assert _recorded(isolated_home, key)[f"synced:{key}"] > before[f"synced:{key}"]  # a sync that changed rows: kept


def test_a_large_layer_in_step_still_records_its_sweep(isolated_home, project, monkeypatch):
    from memdir.files import layout as layout_module

    mem, layer = _settled_store(isolated_home, project)
    key = layer_key(isolated_home, layer)
    assert sorted(r.name for r in mem.search("kayaks", k=5)) == ["more", "notes", "other"]
    before = _recorded(isolated_home, key)
    monkeypatch.setattr(sweeps_module, "SWEEP_ALWAYS_MAX", 2)  # three files: a large layer, for this test
    monkeypatch.setattr(layout_module, "SWEEP_INTERVAL", 0.0)  # its sweep due at every sync
    sync._swept.clear()
    assert sorted(r.name for r in mem.search("kayaks", k=5)) == ["more", "notes", "other"]
    after = _recorded(isolated_home, key)
    assert after[f"swept:{key}"] > before[f"swept:{key}"] and after[f"synced:{key}"] > before[f"synced:{key}"]
