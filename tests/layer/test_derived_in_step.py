"""What a fresh process's write leaves derived — ``MEMORY.md``, its outline, the manifest's heads and
index keys — is what a full rebuild from the files gives, whatever the writes were (issue 28 item 7:
a write at 10,000 memories reads only what it changes). Each step opens a new ``Memory`` (new layer
objects, as a fresh process has: what it knows comes from the manifest); a layer of more than
:data:`memdir.layer.layer.SWEEP_ALWAYS_MAX` files skips its sweep, so the threshold is lowered to
reach that path with a small store."""

from __future__ import annotations

import random
import sqlite3

import pytest

from memdir.files import sweeps as sweeps_module
from memdir import Memory
from memdir.errors import StoreError
from memdir.files import fsio, outline as outline_module
from memdir.files.layout import OUTLINE_FILE
from memdir.files.outline import read_outline, summary


def _outline_figures(layer_dir):
    """The outline of ``layer_dir``'s index as a reader takes it (None: not usable), without the
    stat it was made for (a rebuild writes another inode)."""
    found = read_outline(layer_dir / "MEMORY.md", layer_dir / ".memdir")
    if found is None:
        return None
    lines = [found.line(i) for i in range(found.count)]
    return lines, found.clean, list(found.least), list(found.after), found.least_total, found.pins


def _manifest_rows(layer):
    conn = sqlite3.connect(layer.meta / "manifest.sqlite")
    try:
        return (sorted(conn.execute("SELECT name, digest FROM heads")),
                sorted(conn.execute("SELECT name, unpinned, score FROM idx WHERE score IS NOT NULL")),
                sorted(conn.execute("SELECT file, name, digest, text FROM files")))
    finally:
        conn.close()


def _derived(home, project):
    layer = Memory.open(home=home, project=project, actor="human").session.layer("project")
    text = (layer.path / "MEMORY.md").read_text(encoding="utf-8")
    return text, _outline_figures(layer.path), _manifest_rows(layer)


def _rebuilt(home, project):
    layer = Memory.open(home=home, project=project, actor="human").session.layer("project")
    layer.refresh_index()  # every file read and rendered again
    return _derived(home, project)


def _step(rng, home, project, live: list[str], count: int) -> None:
    mem = Memory.open(home=home, project=project, actor="human")  # a fresh process
    roll = rng.random()
    if roll < 0.35 or len(live) < 3:
        name = f"new-{count}-{rng.randrange(1000)}"
        mem.write(name, f"fact {count} — naïve café {rng.random():.3f}", "project", f"body {count}",
                  importance=rng.choice([None, 1, 5, 9]))
        live.append(name)
    elif roll < 0.6:
        name = rng.choice(live)
        mem.write(name, f"updated {count} {rng.random():.3f}", "project", f"body {count}")
    elif roll < 0.75:
        name = live.pop(rng.randrange(len(live)))
        mem.delete(name, scope="project")
    elif roll < 0.88:
        old = live.pop(rng.randrange(len(live)))
        name = f"renamed-{count}"
        mem.write(name, None, None, None, rename_from=old, scope="project")
        live.append(name)
    else:
        mem.pin(rng.choice(live), rng.random() < 0.7, scope="project")


@pytest.mark.slow
@pytest.mark.parametrize("seed", [3, 11])
def test_writes_in_fresh_processes_leave_what_a_full_rebuild_gives(isolated_home, project, monkeypatch, seed):
    monkeypatch.setattr(sweeps_module, "SWEEP_ALWAYS_MAX", 0)  # the quick path of a large layer, on a small one
    moved = []  # outlines moved by a write's line edits (None: made again from the whole text)
    real_stepped = getattr(outline_module, "_stepped")
    monkeypatch.setattr(outline_module, "_stepped", lambda *args: moved.append(real_stepped(*args)) or moved[-1])
    rng = random.Random(seed)
    mem = Memory.open(home=isolated_home, project=project, actor="human")
    live = []
    for i in range(40):
        name = f"seed-{i:02d}-{rng.choice(['db', 'api', 'ci'])}"
        mem.write(name, f"seeded {i} {'é' * (i % 3)}", "project", f"body {i}", importance=rng.randrange(1, 10))
        live.append(name)
    for count in range(24):
        _step(rng, isolated_home, project, live, count)
        text, outline, rows = _derived(isolated_home, project)
        assert outline is not None and outline[0] == summary(text)[0]  # the outline is of this very text
        if count % 6 == 5:
            assert (text, outline, rows) == _rebuilt(isolated_home, project)
    assert sum(found is not None for found in moved) >= 20 and None not in moved  # the outline was moved each time
    text = (mem.session.layer("project").path / "MEMORY.md").read_text(encoding="utf-8")
    assert sorted(line.split("](")[1].split(".md)")[0] for line in text.splitlines()) == sorted(live)


def test_an_outline_that_could_not_be_written_is_never_read_for_the_new_index(isolated_home, project, monkeypatch):
    monkeypatch.setattr(sweeps_module, "SWEEP_ALWAYS_MAX", 0)
    mem = Memory.open(home=isolated_home, project=project, actor="human")
    for i in range(5):
        mem.write(f"kept-{i}", f"kept fact {i}", "project", "b")
    layer_dir = mem.session.layer("project").path
    assert _outline_figures(layer_dir) is not None  # control: written with the index
    real = fsio.atomic_write

    def failing(path, data, **kw):
        if str(path).endswith(OUTLINE_FILE):
            raise StoreError("no space left on device")
        return real(path, data, **kw)

    monkeypatch.setattr(fsio, "atomic_write", failing)
    Memory.open(home=isolated_home, project=project, actor="human").write("late", "a late fact", "project", "b")
    text = (layer_dir / "MEMORY.md").read_text(encoding="utf-8")
    assert "(late.md) — a late fact" in text and "(kept-4.md) — kept fact 4" in text
    assert (layer_dir / ".memdir" / OUTLINE_FILE).is_file()  # the old outline is there ...
    assert _outline_figures(layer_dir) is None  # ... and describes another state: not used
    block = Memory.open(home=isolated_home, project=project, actor="human").context()
    assert "a late fact" in block and "kept fact 0" in block


def test_a_manifest_lost_after_a_fresh_process_took_it_up_costs_no_false_hand_edit(isolated_home, project,
                                                                                    monkeypatch):
    monkeypatch.setattr(sweeps_module, "SWEEP_ALWAYS_MAX", 0)
    mem = Memory.open(home=isolated_home, project=project, actor="human")
    for i in range(6):
        mem.write(f"fact-{i}", f"fact {i}", "project", "b")
    fresh = Memory.open(home=isolated_home, project=project, actor="human")
    layer = fresh.session.layer("project")
    assert layer.lookup("fact-2") is not None  # taken up from the manifest: heads and rows read when asked
    before = len(layer.journal.events())
    (layer.meta / "manifest.sqlite").write_bytes(b"not a database any more")
    fresh.write("fact-2", "fact 2, corrected", "project", "b")
    events = layer.journal.events()[before:]
    assert [(e.action, e.name) for e in events] == [("update", "fact-2")]  # no external-edit of its own bytes
    text = (layer.path / "MEMORY.md").read_text(encoding="utf-8")
    assert "(fact-2.md) — fact 2, corrected" in text and "(fact-5.md) — fact 5" in text  # control: all there
