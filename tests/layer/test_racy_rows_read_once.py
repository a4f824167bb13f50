"""A file whose manifest row was kept racy (its ctime stored as 0: the save came within
:data:`memdir.layer.manifest.RACY_NS` of the file's change, as a write's own file and those written just before it
always are) is read once by the next reader, which then settles the row, and by no reader after it (left23).

Before, that first reader read each such file twice: its scan read the file (the row's stat key could not stand
for it) and the manifest's compare read it again for its digest (:meth:`memdir.layer.manifest.Manifest.differs`).
Real processes, real files: a fresh ``memdir list`` with every read of a memory file of the layer counted."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
import time

import pytest

COUNT = """
import collections, json, sys
import memdir.files.fsio as fsio
from memdir import Memory
home, root = sys.argv[1], sys.argv[2]
mem = Memory.open(home=home, project=root, actor="human")
layer_dir = str(mem.session.layer("project").path)
reads = collections.Counter()
def profile(frame, event, arg):
    if event == "call" and frame.f_code is fsio.read_foreign.__code__:
        path = str(frame.f_locals.get("path"))
        if path.startswith(layer_dir + "/") and path.endswith(".md") and not path.endswith("MEMORY.md"):
            reads[path.rsplit("/", 1)[-1]] += 1
sys.setprofile(profile)
listed = {m.name: m.description for m in mem.list("project").memories}
sys.setprofile(None)
print(json.dumps({"reads": reads, "listed": listed}))
"""

NOTES = {"db-port": "Dev PostgreSQL listens on 5433", "ci": "CI runs on GitHub Actions",
         "deploy-day": "Deploys happen on Tuesdays"}


def _list(home, root) -> dict:
    done = subprocess.run([sys.executable, "-c", COUNT, str(home), str(root)], capture_output=True, text=True,
                          timeout=120, check=False, env={**os.environ, "MEMDIR_SEARCH_VECTORS": "off"})
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


def _racy(layer) -> list[str]:
    """Every row of the layer's manifest kept racy, as a save within RACY_NS of each file's write keeps it; the
    files whose rows are racy."""
    conn = sqlite3.connect(layer.meta / "manifest.sqlite")
    with conn:
        conn.execute("UPDATE files SET ctime_ns = 0")
    return sorted(row[0] for row in conn.execute("SELECT file FROM files WHERE ctime_ns = 0"))


@pytest.mark.slow
def test_a_racy_row_s_file_is_read_once_by_the_next_reader_and_by_none_after(person, isolated_home, project):
    for name, description in NOTES.items():
        person.write(name, description, "project", "", scope="project")
    layer = person.session.layer("project")
    time.sleep(2.1)  # the files' ctimes older than RACY_NS: a reader may settle their rows
    assert _racy(layer) == sorted(f"{name}.md" for name in NOTES)
    first = _list(isolated_home, project)
    assert first["reads"] == {f"{name}.md": 1 for name in NOTES}  # before: 2 each (scan, then the compare)
    assert first["listed"] == NOTES
    second = _list(isolated_home, project)
    assert second["reads"] == {} and second["listed"] == NOTES  # the rows settled: nothing read again


@pytest.mark.slow
def test_a_file_changed_in_place_under_a_racy_row_is_still_seen(person, isolated_home, project):
    for name, description in NOTES.items():
        person.write(name, description, "project", "", scope="project")
    layer = person.session.layer("project")
    path = layer.path / "ci.md"
    text = path.read_text(encoding="utf-8")
    changed = text.replace("GitHub Actions", "Gitea Runners!")  # same size, written in place: same inode
    assert len(changed) == len(text) and changed != text
    time.sleep(2.1)
    _racy(layer)
    with open(path, "r+", encoding="utf-8") as handle:
        handle.write(changed)
    seen = _list(isolated_home, project)
    assert seen["listed"]["ci"] == "CI runs on Gitea Runners!"  # the racy row's file compared by its bytes
    assert seen["listed"]["db-port"] == NOTES["db-port"]  # control
    assert [e.action for e in layer.journal.events() if e.name == "ci"][-1] == "external-edit"
