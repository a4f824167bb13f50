"""A sync after a few files changed compares only the names those files hold or held (sync.FEW_FILES),
and leaves the index exactly as comparing every row does: hand edits, additions, deletions, a file
renamed on disk, two files claiming one name, a file turned malformed and back, in random order."""

from __future__ import annotations

import random

import pytest

from memdir import Memory
from memdir.search import index, sync


def _docs(home) -> list[tuple]:
    conn = index.connect(home)
    return sorted(conn.execute("SELECT layer, name, file, digest, description, body FROM docs"))


def _memory(name: str, text: str) -> str:
    return f"---\nname: {name}\ndescription: {text}\ntype: project\n---\n\nBody of {text}\n"


@pytest.mark.slow
@pytest.mark.parametrize("seed", [3, 11])
def test_a_sync_of_a_few_changed_files_equals_a_sync_of_every_row(isolated_home, project, tmp_path, monkeypatch, seed):
    rng = random.Random(seed)
    mem = Memory.open(home=isolated_home, project=project, actor="human", search_vectors="off")
    for i in range(30):
        mem.write(f"fact-{i:02d}", f"fact number {i} about ledgers", "project", f"ledger body {i}")
    layer = mem.session.layer("project").path
    assert len(mem.search("ledgers", k=50)) == 30  # indexed once, every row
    for step in range(12):
        files = sorted(p for p in layer.glob("*.md") if p.name != "MEMORY.md")
        kind = rng.choice(["edit", "add", "delete", "rename", "duplicate", "malformed"])
        victim = rng.choice(files)
        if kind == "edit":
            victim.write_text(_memory(victim.stem, f"edited {step} by hand about ledgers"))
        elif kind == "add":
            (layer / f"added-{step}.md").write_text(_memory(f"added-{step}", f"added {step} about ledgers"))
        elif kind == "delete":
            victim.unlink()
        elif kind == "rename":  # the same name, now held by another file
            victim.rename(layer / f"moved-{step}.md")
        elif kind == "duplicate":  # a second file claiming a name a file already holds
            (layer / f"zz-copy-{step}.md").write_text(victim.read_text().replace("Body of", "A copy of"))
        else:
            victim.write_text("---\nname: [unclosed\n---\nbroken\n")
        sync._swept.clear()
        conn = index.connect(isolated_home)
        session = Memory.open(home=isolated_home, project=project, actor="human", search_vectors="off").session
        for one in session.layers():
            sync.sync_layer(conn, isolated_home, one, force=True)
        few = _docs(isolated_home)
        # The right value: every row compared (FEW_FILES 0), on a copy of the index before this sync.
        monkeypatch.setattr(sync, "FEW_FILES", 0)
        conn.execute("DELETE FROM layers")  # the layers' stamps forgotten: every row is compared again
        conn.execute("DELETE FROM files")
        sync._swept.clear()
        for one in session.layers():
            sync.sync_layer(conn, isolated_home, one, force=True)
        monkeypatch.setattr(sync, "FEW_FILES", 256)
        assert few == _docs(isolated_home), (step, kind, victim.name)
    assert len(few) >= 20  # control: the index still holds the store's memories
