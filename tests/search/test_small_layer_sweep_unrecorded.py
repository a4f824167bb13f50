"""A search of a small layer whose rows are in step takes no write lock: a layer of at most SWEEP_ALWAYS_MAX files
is swept at every sync, so when it was last swept (``swept:<key>``, ``synced:<key>`` in the index's ``meta``) is read
by nothing (issue 28: each memory_search wrote both for the small user layer). A large layer's in-step sweep still
records them: a fresh process waits out its interval from it, and the journal is followed after it."""

from __future__ import annotations

import os
import time

from memdir import Memory
from memdir.files import sweeps as sweeps_module
from memdir.search import sync
from memdir.search.index import connect, layer_key


def _recorded(home, key: str) -> dict:
    rows = connect(home).execute("SELECT key, value FROM meta WHERE key IN (?, ?)", (f"swept:{key}", f"synced:{key}"))
    return dict(rows.fetchall())


def _store(home, project) -> tuple[Memory, str]:
    mem = Memory.open(home=home, project=project, search_vectors="off")
    for name in ("notes", "more", "other"):
        mem.write(name, f"{name} about boats", "project", "original words about kayaks")
    layer = mem.session.layer("project").path
    old = time.time() - 60
    for settled in (layer, layer / ".memdir" / "journal.jsonl"):  # no change within the clock tick
        os.utime(settled, (old, old))
    return mem, layer_key(home, layer)


def test_a_small_layer_in_step_is_swept_without_a_write(isolated_home, project):
    mem, key = _store(isolated_home, project)
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

    mem, key = _store(isolated_home, project)
    assert sorted(r.name for r in mem.search("kayaks", k=5)) == ["more", "notes", "other"]
    before = _recorded(isolated_home, key)
    monkeypatch.setattr(sweeps_module, "SWEEP_ALWAYS_MAX", 2)  # three files: a large layer, for this test
    monkeypatch.setattr(layout_module, "SWEEP_INTERVAL", 0.0)  # its sweep due at every sync
    sync._swept.clear()
    assert sorted(r.name for r in mem.search("kayaks", k=5)) == ["more", "notes", "other"]
    after = _recorded(isolated_home, key)
    assert after[f"swept:{key}"] > before[f"swept:{key}"] and after[f"synced:{key}"] > before[f"synced:{key}"]
