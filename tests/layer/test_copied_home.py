"""A copied or restored home's first write parses only the files that changed (issue 28 §7).

A copy that keeps times (``shutil.copytree``, ``cp -a`` onto another disk, a backup restored) gives every
memory file and ``MEMORY.md`` a new inode and ctime. The manifest's index keys were then dropped (the stamp
of ``MEMORY.md`` no longer held) and the first write rendered the whole index again, parsing every file
(3.4 s at 10,000 memories). Now the keys are taken up once ``MEMORY.md``'s text is found to be, byte for
byte, the lines the manifest keeps in their order (:meth:`memdir.layer.handover.HandsOver._copied_index`);
the sweep reads and hashes every file and parses only those whose bytes changed. A hand edit in the copy
keeping size and mtime — of a memory file, or of ``MEMORY.md`` — is still seen on that first write.
Parses are counted at the one parser of memory files (:func:`tests.seeded.counted_parses`).
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from memdir import Memory
from memdir.files.outline import read_outline
from memdir.layer.history import history
from tests.seeded import counted_parses, seeded

SIZE = 40


def _copied(tmp_path) -> tuple[Path, Path, Path]:
    """A seeded home copied as ``shutil.copytree`` copies (times kept; new inodes and ctimes): the copy,
    the project, the copy's project layer directory."""
    home, project = tmp_path / "home", tmp_path / "proj"
    (project / ".git").mkdir(parents=True)
    seeded(home, project, SIZE)
    copy = tmp_path / "copy"
    shutil.copytree(home, copy, symlinks=True)
    return copy, project, Memory.open(home=copy, project=project, actor="human").session.layer_dir("project")


def _edit_keeping_size_and_mtime(path: Path, old: str, new: str) -> None:
    assert len(old.encode()) == len(new.encode())
    st = path.stat()
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new), encoding="utf-8")
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))
    assert (path.stat().st_size, path.stat().st_mtime_ns) == (st.st_size, st.st_mtime_ns)


def _rebuilt(home: Path, project: Path) -> str:
    """``MEMORY.md`` of the project layer as a full rebuild of a copy of ``home`` writes it."""
    again = home.parent / f"{home.name}-rebuilt"
    shutil.copytree(home, again, symlinks=True)
    layer = Memory.open(home=again, project=project, actor="human").session.layer("project")
    layer.refresh_index()
    return (layer.path / "MEMORY.md").read_text(encoding="utf-8")


def test_a_copied_homes_first_write_parses_only_the_changed_files_and_sees_a_hand_edit(tmp_path, monkeypatch):
    copy, project, layer_dir = _copied(tmp_path)
    # a hand edit in the copy that keeps the file's size and mtime: only its bytes tell it
    _edit_keeping_size_and_mtime(layer_dir / "seed-0012.md", "seeded fact 12", "seeded fact XY")
    parses = counted_parses(monkeypatch)
    mem = Memory.open(home=copy, project=project, actor="human")
    mem.write("seed-0030", "seeded fact 30, corrected")
    # parsed: the hand-edited file (its bytes changed) and the file written; none of the other 38
    assert sorted(set(parses)) == ["seed-0012", "seed-0030"]
    index = (layer_dir / "MEMORY.md").read_text(encoding="utf-8")
    assert "— seeded fact XY\n" in index  # the hand edit is seen on that first write
    assert "— seeded fact 30, corrected\n" in index
    assert "— seeded fact 12\n" not in index
    assert "— seeded fact 11\n" in index  # control: an unchanged memory's line is there, as it was
    assert index.count("\n") == SIZE
    # the outline describes the copy's MEMORY.md: the next fresh process reads its first and last lines, not all
    outline = read_outline(layer_dir / "MEMORY.md", layer_dir / ".memdir")
    assert outline is not None and outline.count == SIZE
    assert [outline.line(i) for i in range(SIZE)] == index.splitlines()
    versions = history(mem.session.layer("project"), "seed-0012")
    assert versions[-1].action == "external-edit"  # journaled as a person's edit
    monkeypatch.undo()
    assert index == _rebuilt(copy, project)  # what a full rebuild writes


def test_a_copied_home_whose_index_was_edited_keeping_size_and_mtime_renders_it_again(tmp_path, monkeypatch):
    copy, project, layer_dir = _copied(tmp_path)
    # the control: MEMORY.md itself edited in the copy, size and mtime put back — not the text the keys order
    _edit_keeping_size_and_mtime(layer_dir / "MEMORY.md", "seeded fact 7\n", "seeded fact Q\n")
    parses = counted_parses(monkeypatch)
    mem = Memory.open(home=copy, project=project, actor="human")
    mem.write("seed-0030", "seeded fact 30, corrected")
    # not taken up: every memory parsed to render the index again, as before
    assert sorted(set(parses)) == [f"seed-{i:04d}" for i in range(SIZE)]
    index = (layer_dir / "MEMORY.md").read_text(encoding="utf-8")
    assert "— seeded fact Q\n" not in index
    assert "— seeded fact 7\n" in index
    assert "— seeded fact 30, corrected\n" in index
    monkeypatch.undo()
    assert index == _rebuilt(copy, project)


def test_a_copied_homes_index_gets_an_outline_of_its_own_when_first_taken_up(tmp_path):
    copy, project, layer_dir = _copied(tmp_path)
    index, meta = layer_dir / "MEMORY.md", layer_dir / ".memdir"
    assert read_outline(index, meta) is None  # the outline copied with it describes the original's inode and ctime
    layer = Memory.open(home=copy, project=project, actor="human").session.layer("project")
    assert layer.lookup("seed-0005").record.description == "seeded fact 5"  # a lookup: the manifest taken up
    outline = read_outline(index, meta)  # now written for the copy's stat: later processes read two lines, not all
    assert outline is not None and outline.count == SIZE
    assert [outline.line(i) for i in range(SIZE)] == index.read_text(encoding="utf-8").splitlines()
