"""A fresh process (the prompt hook) keeps the sweep policy of a long-running one (issue 28 item 7):
the time of a layer's last sweep is kept in the search index, so a query in a new process does not
stat every file of a large layer while that sweep is recent — and does once it is not."""

from __future__ import annotations

import os
import time

from memdir.files import sweeps as sweeps_module
from memdir import Memory
from memdir.layer.layer import Layer
from memdir.search import sync


def test_a_new_process_trusts_a_recent_sweep_and_sweeps_an_old_one(isolated_home, project, monkeypatch):
    from memdir.files import layout as layout_module

    mem = Memory.open(home=isolated_home, project=project, search_vectors="off")
    for name in ("notes", "more", "other"):
        mem.write(name, f"{name} about boats", "project", "original words about kayaks")
    layer = mem.session.layer("project").path
    old = time.time() - 60
    for settled in (layer, layer / ".memdir" / "journal.jsonl"):  # no change within the clock tick
        os.utime(settled, (old, old))
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
