"""A large layer's search rows follow its journal (memdir.search.follow, issue 28 §7): while its sweep may
wait, the query of a new process after a write looks at the files the new events name, not at every file,
and leaves the index exactly as a sweep of every file does — writes, edits, deletions, renames through
memdir, and files added, removed or renamed by hand (journaled by the next write), in random order. What
no write journals (an in-place hand edit, a file added with no write after it, a git pull) is found by
the sweep as before: at once when the directory moved, within the sweep interval when only a file did."""

from __future__ import annotations

import random
import time

import pytest

from memdir.files import sweeps as sweeps_module
from memdir import Memory
from memdir.layer.layer import Layer
from memdir.search import index, sync


def _docs(home) -> list[tuple]:
    conn = index.connect(home)
    return sorted(conn.execute("SELECT layer, name, file, digest, description, body FROM docs"))


def _memory(name: str, text: str) -> str:
    return f"---\nname: {name}\ndescription: {text}\ntype: project\n---\n\nBody of {text}\n"


def _swept_docs(home, project) -> list[tuple]:
    """The right value: the docs after a sweep of every file, every row compared (stamps forgotten)."""
    conn = index.connect(home)
    conn.execute("DELETE FROM layers")
    conn.execute("DELETE FROM files")
    sync._swept.clear()
    session = Memory.open(home=home, project=project, actor="human", search_vectors="off").session
    for one in session.layers():
        sync.sync_layer(conn, home, one, force=True)
    return _docs(home)


@pytest.fixture
def large(isolated_home, project, monkeypatch):
    """A project layer of 30 memories that the sweep policy treats as large, swept once, interval an hour."""
    from memdir.files import layout as layout_module

    monkeypatch.setattr(sweeps_module, "SWEEP_ALWAYS_MAX", 5)
    monkeypatch.setattr(layout_module, "SWEEP_INTERVAL", 3600.0)
    mem = Memory.open(home=isolated_home, project=project, actor="human", search_vectors="off")
    for i in range(30):
        mem.write(f"fact-{i:02d}", f"fact number {i} about ledgers", "project", f"ledger body {i}")
    time.sleep(2.1)  # past the clock tick of the writes: the manifest keeps their stat keys (manifest.RACY_NS)
    mem.session.layer("project").refresh_index()
    assert len(mem.search("ledgers", k=50)) == 30  # swept once: every row
    scans: list[str] = []
    real = Layer.scan
    monkeypatch.setattr(Layer, "scan", lambda self, *a, **k: scans.append(self.scope) or real(self, *a, **k))
    return mem, mem.session.layer("project").path, scans


def _held(layer) -> dict[str, list]:
    """Each memory name of the layer's files (a file's name is its normalized stem) → the files holding it."""
    held: dict[str, list] = {}
    for path in sorted(layer.glob("*.md")):
        if path.name != "MEMORY.md":
            held.setdefault(path.stem.lower().replace("_", "-"), []).append(path)
    return held


def _fresh_search(home, project, query: str, k: int = 50) -> list[str]:
    sync._swept.clear()  # what a new process remembers of its own sweeps: nothing
    fresh = Memory.open(home=home, project=project, actor="human", search_vectors="off")
    return sorted(r.name for r in fresh.search(query, k=k))


@pytest.mark.slow
@pytest.mark.parametrize("seed", [5, 17, 23])
def test_following_the_journal_equals_a_sweep_of_every_file(isolated_home, project, large, seed):
    mem, layer, scans = large
    rng = random.Random(seed)
    followed: list[str] = []
    kinds: list[str] = []
    for step in range(12):
        held = _held(layer)
        kind = rng.choice(["write", "update", "delete", "rename", "hand-add", "hand-delete", "hand-rename",
                           "hand-same-name", "hand-duplicate"])
        victim = rng.choice(sorted(held))
        file = rng.choice(held[victim])
        if kind == "write":
            mem.write(f"new-{step}", f"new fact {step} about ledgers", "project", f"new ledger body {step}")
        elif kind == "update":
            mem.write(victim, f"updated {step} about ledgers", None, f"updated ledger body {step}")
        elif kind == "delete":
            mem.delete(victim)
        elif kind == "rename":
            mem.write(f"renamed-{step}", None, None, None, rename_from=victim)
        else:
            if kind == "hand-add":
                (layer / f"hand-{step}.md").write_text(_memory(f"hand-{step}", f"hand fact {step} about ledgers"))
            elif kind == "hand-delete":
                file.unlink()
            elif kind == "hand-rename":  # another name
                file.rename(layer / f"moved-{step}.md")
            elif kind == "hand-same-name":  # another file, a name that normalizes the same: no memory's bytes change
                file.rename(layer / f"{victim.upper().replace('-', '_')}.md")
            else:  # a second file of that name, with other bytes (it wins over FACT_07.md, not over fact-07.md)
                (layer / f"{victim.upper()}.md").write_text(file.read_text().replace("ledger", f"copied {step} ledger"))
            # The next write through memdir journals what it finds changed by hand.
            mem.write(f"after-{step}", f"written after a hand change {step} about ledgers", "project", "body")
        kinds.append(kind)
        scans.clear()
        _fresh_search(isolated_home, project, "ledgers")
        if "project" not in scans:
            followed.append(kind)
        got = _docs(isolated_home)
        assert got == _swept_docs(isolated_home, project), (step, kind, victim, file.name)
    through_memdir = [k for k in kinds if not k.startswith("hand-")]
    # Every change made through memdir was followed from the journal, not by a sweep of the large layer;
    # a hand change is taken up by the next write's sweep, and the index sweeps after it (swept since).
    assert followed == through_memdir and through_memdir, kinds
    assert len(got) >= 20  # control: the index still holds the store's memories


@pytest.mark.slow
def test_a_hand_edit_in_place_is_found_by_the_sweep_within_its_interval(isolated_home, project, large, monkeypatch):
    from memdir.files import layout as layout_module

    mem, layer, scans = large
    path = layer / "fact-07.md"
    path.write_text(path.read_text().replace("ledger body 7", "kayak body 7"))  # in place: no write journals it
    mem.write("fact-08", None, None, "ledger body 8 and a kayak")  # a write elsewhere: followed
    scans.clear()
    assert _fresh_search(isolated_home, project, "kayak") == ["fact-08"] and "project" not in scans
    monkeypatch.setattr(layout_module, "SWEEP_INTERVAL", 0.0)  # the interval has passed
    assert _fresh_search(isolated_home, project, "kayak") == ["fact-07", "fact-08"] and "project" in scans


@pytest.mark.slow
def test_a_write_after_a_sweeper_that_found_nothing_is_followed(isolated_home, project, large, monkeypatch):
    """Audit: after the detached sweeper swept a large layer and found the index in step, the next write
    made the next fresh prompt hook stat every file (1,204 of a 1,200-file layer): the sweeper's sync
    recorded the sweep but not that it had synced, so the manifest's sweep looked newer than the index's
    last sync and the journal was not followed. Right value: only the written file is read, no sweep."""
    from memdir.files import layout as layout_module
    from memdir.search import sweeper
    from tests.seeded import counted_parses

    mem, layer, scans = large
    time.sleep(0.05)
    assert sweeper.sweep(isolated_home, "project", str(project)) == []  # nothing changed: the index was in step
    mem.write("fact-07", None, None, "ledger body 7 and a canoe")
    parsed = counted_parses(monkeypatch)
    scans.clear()
    assert _fresh_search(isolated_home, project, "canoe") == ["fact-07"]
    assert parsed == ["fact-07"] and "project" not in scans  # the written file alone (the user layer is small)
    # Control: a hand edit in place of another file (no write journals it) waits for the sweep, which finds it.
    path = layer / "fact-09.md"
    path.write_text(path.read_text().replace("ledger body 9", "canoe body 9"))
    mem.write("fact-08", None, None, "ledger body 8, written")
    parsed.clear()
    assert _fresh_search(isolated_home, project, "canoe") == ["fact-07"] and parsed == ["fact-08"] and "project" not in scans
    monkeypatch.setattr(layout_module, "SWEEP_INTERVAL", 0.0)  # the interval has passed: swept, found
    assert _fresh_search(isolated_home, project, "canoe") == ["fact-07", "fact-09"]
    assert "fact-09" in parsed and "project" in scans
    assert _docs(isolated_home) == _swept_docs(isolated_home, project)


@pytest.mark.slow
def test_files_changed_with_no_write_after_them_are_swept_at_once(isolated_home, project, large):
    """A git pull, a hand addition or deletion: the directory moved past the manifest's stamp."""
    mem, layer, scans = large
    mem.write("fact-01", None, None, "ledger body 1, written")
    (layer / "fact-02.md").unlink()
    (layer / "pulled.md").write_text(_memory("pulled", "pulled from a remote about ledgers"))
    scans.clear()
    found = _fresh_search(isolated_home, project, "ledgers")
    assert "pulled" in found and "fact-02" not in found and "fact-01" in found
    assert "project" in scans  # swept: the journal could not answer
    assert _docs(isolated_home) == _swept_docs(isolated_home, project)


@pytest.mark.slow
def test_a_journal_that_is_not_the_one_synced_with_is_not_followed(isolated_home, project, large):
    mem, layer, scans = large
    mem.write("fact-03", None, None, "ledger body 3, written")
    scans.clear()
    _fresh_search(isolated_home, project, "ledgers")
    assert "project" not in scans  # control: a grown journal is followed
    mem.write("fact-04", None, None, "ledger body 4, written")
    conn = index.connect(isolated_home)
    conn.execute("UPDATE meta SET value = value + 1 WHERE key LIKE 'chain:%'")  # another line ended it
    scans.clear()
    assert "fact-04" in _fresh_search(isolated_home, project, "written")
    assert "project" in scans  # swept: the journal is not the one the index followed


def test_events_after_a_line_are_those_of_the_same_journal_grown(tmp_path):
    from memdir.layer.journal import Journal

    journal = Journal(tmp_path / ".memdir")
    journal.append("human", "create", "a", None, "1" * 64)
    end = journal.stat_key()[0]
    line = journal.line_digest(end)
    journal.append("human", "create", "b", None, "2" * 64)
    journal.append("human", "delete", "a", "1" * 64, None)
    assert [(e.action, e.name) for e in journal.events_after(end, line)] == [("create", "b"), ("delete", "a")]
    assert journal.events_after(journal.stat_key()[0], journal.line_digest(journal.stat_key()[0])) == []
    assert [e.name for e in journal.events_after(0, None)] == ["a", "b", "a"]  # from an empty journal
    assert journal.events_after(end, "0" * 64) is None  # that line is another one
    assert journal.events_after(end - 1, line) is None  # not a line's end
    with open(journal.path, "ab") as handle:
        handle.write(b'{"seq": 4')  # a torn tail
    assert journal.events_after(end, line) is None
    data = journal.path.read_bytes()
    journal.path.write_bytes(data[:end])  # cut back to that line: nothing after it, still followed
    assert journal.events_after(end, line) == []
    journal.path.write_bytes(data[:end - 5])  # shorter than the index saw
    assert journal.events_after(end, line) is None
