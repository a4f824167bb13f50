"""A layer whose directory's mtime moved while no file changed (``touch``, a checkout of nothing) is swept by its
stat keys alone (hot49): under the lock every memory file is stat'ed and compared in bulk with the manifest's rows
(:meth:`memdir.layer.manifest.Manifest.verify`); when all match, the manifest is restamped and its states stand in
for the sweep's scan (:meth:`memdir.layer.handover.HandsOver._verified_scan`): no file read, no state made per
file (10,000 memories, ``memdir context`` after a touch: 1,124 M -> ~720 M instructions). Each with its control:
a file edited in place (only its ctime tells) is still journaled by the very next fresh layer object."""

from __future__ import annotations

import os
import sqlite3
import time

from memdir import Memory
from tests.seeded import counted_parses, counted_reads, seeded

SIZE = 30


def _fresh(home, project):
    """The project layer as a fresh process opens it (a new session, nothing cached in its objects)."""
    return Memory.open(home=home, project=project, actor="human").session.layer("project")


def _meta(layer, key: str):
    with sqlite3.connect(layer.meta / "manifest.sqlite") as conn:
        row = conn.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
    return row[0] if row else None


def _touch(layer) -> int:
    time.sleep(0.01)
    os.utime(layer.path)
    return os.stat(layer.path).st_mtime_ns


def _counted_scans(monkeypatch) -> list[str]:
    """The layer directories fully scanned from now on (:func:`memdir.files.scan.scan`, as the layer calls it)."""
    from memdir.layer import layer as layer_module

    scans: list[str] = []
    real = layer_module.scan_layer

    def counted(directory, *args, **kwargs):
        scans.append(os.path.basename(directory))
        return real(directory, *args, **kwargs)

    monkeypatch.setattr(layer_module, "scan_layer", counted)
    return scans


def _journaled(layer) -> list[tuple[str, str]]:
    return [(event.action, event.name) for event in layer.journal.events()]


def test_a_touched_layer_is_swept_by_its_stat_keys_alone(isolated_home, project, monkeypatch):
    mem = seeded(isolated_home, project, SIZE)
    layer = mem.session.layer("project")
    index = (layer.path / "MEMORY.md").read_text(encoding="utf-8")
    journaled = _journaled(layer)
    moved = _touch(layer)
    assert _meta(layer, "directory") != moved  # the manifest's stamp no longer holds
    parsed, reads, scans = counted_parses(monkeypatch), counted_reads(monkeypatch), _counted_scans(monkeypatch)
    before = time.time_ns()
    fresh = _fresh(isolated_home, project)
    assert fresh.current_index() is None  # brought up to date, written
    assert parsed == [] and reads == []  # no file read: every stat key as recorded
    assert scans == []  # nor a state made per file: the manifest's rows stand in for the scan
    assert _meta(fresh, "directory") == moved  # restamped: the next process trusts it again
    assert int(_meta(fresh, "swept")) >= before  # and the sweep recorded
    assert os.stat(fresh.meta / "index.stamp").st_mtime_ns == moved
    assert (layer.path / "MEMORY.md").read_text(encoding="utf-8") == index
    assert "seeded fact 7" in index
    assert _journaled(fresh) == journaled  # nothing to journal
    # control: an edit in place (same size, same inode: only its ctime tells) beside the touch is journaled at once
    path = layer.path / "seed-0007.md"
    path.write_text(path.read_text(encoding="utf-8").replace("seeded fact 7", "handfix fact 7"), encoding="utf-8")
    moved = _touch(layer)
    fresh = _fresh(isolated_home, project)
    assert fresh.current_index() is None
    assert _journaled(fresh) == [*journaled, ("external-edit", "seed-0007")]
    assert "seed-0007" in parsed and scans == [layer.path.name]  # the full scan, then
    text = (layer.path / "MEMORY.md").read_text(encoding="utf-8")
    assert "handfix fact 7" in text and "seeded fact 7" not in text
    assert _meta(fresh, "directory") == os.stat(layer.path).st_mtime_ns != moved  # MEMORY.md written anew moved it


def test_a_racy_row_is_compared_by_its_bytes(isolated_home, project, monkeypatch):
    mem = seeded(isolated_home, project, SIZE)
    mem.write("fresh-one", "written a moment ago", "project", "Body fresh")  # its row kept racy (ctime 0)
    layer = mem.session.layer("project")
    with sqlite3.connect(layer.meta / "manifest.sqlite") as conn:
        assert conn.execute("SELECT ctime_ns FROM files WHERE file = 'fresh-one.md'").fetchone() == (0,)
    journaled = _journaled(layer)
    moved = _touch(layer)
    parsed, reads = counted_parses(monkeypatch), counted_reads(monkeypatch)
    fresh = _fresh(isolated_home, project)
    assert fresh.current_index() is None
    assert reads == ["fresh-one"] and parsed == []  # the racy file's bytes hashed, nothing parsed
    assert _meta(fresh, "directory") == moved
    assert _journaled(fresh) == journaled
    # control: the racy file rewritten in place, same size and inode: its bytes differ, the sweep journals it
    path = layer.path / "fresh-one.md"
    inode, size = path.stat().st_ino, path.stat().st_size
    path.write_text(path.read_text(encoding="utf-8").replace("Body fresh", "Body frosh"), encoding="utf-8")
    assert (path.stat().st_ino, path.stat().st_size) == (inode, size)
    _touch(layer)
    fresh = _fresh(isolated_home, project)
    assert fresh.current_index() is None
    assert _journaled(fresh) == [*journaled, ("external-edit", "fresh-one")]


def test_a_link_beside_the_files_sends_the_touched_layer_to_the_full_scan(isolated_home, project, monkeypatch):
    mem = seeded(isolated_home, project, SIZE)
    layer = mem.session.layer("project")
    os.symlink(layer.path / "seed-0001.md", layer.path / "linked.md")  # moves the directory's mtime too
    fresh = _fresh(isolated_home, project)
    assert fresh.current_index() is None
    found = fresh.scan()
    assert [(os.path.basename(bad.path), bad.error) for bad in found.malformed] == [
        ("linked.md", "not read: it is a symbolic link (not followed)")]
    assert "seed-0001" in found.names  # control: the file it points at is a memory as before
    assert _meta(fresh, "directory") == os.stat(layer.path).st_mtime_ns
