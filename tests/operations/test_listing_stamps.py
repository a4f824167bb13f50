"""``list`` and ``status`` of a large layer answer from the layer's stamps as a write and the context
block do (issue 28 item 7; :mod:`memdir.files.sweeps`): within the sweep interval no memory file is
stat'ed; a file added, deleted or renamed by hand moves the directory's mtime and shows at once; one
edited in place shows at the next sweep. Each ``Memory.open`` is a new session with new layer objects,
as a fresh process has."""

from __future__ import annotations

import time

import pytest

from memdir import Memory
from memdir.files import layout as layout_module
from memdir.files import sweeps as sweeps_module
from memdir.layer import layer as layer_module

SIZE = 12


def _note(layer_dir, name: str, description: str) -> None:
    (layer_dir / f"{name}.md").write_text(f"---\nname: {name}\ndescription: {description}\ntype: project\n"
                                          f"updated: 2026-11-01T00:00:00Z\n---\n\nBody of {name}\n")


@pytest.fixture
def large(isolated_home, project, monkeypatch):
    """A project layer of :data:`SIZE` memories, a large one for these tests, swept a moment ago (and
    the search index built of it)."""
    monkeypatch.setattr(sweeps_module, "SWEEP_ALWAYS_MAX", 4)
    monkeypatch.setattr(layout_module, "SWEEP_INTERVAL", 3600.0)
    layer = Memory.open(home=isolated_home, project=project, actor="human").session.layer("project")
    layer.path.mkdir(parents=True)
    for i in range(SIZE):
        _note(layer.path, f"note-{i:02d}", f"note {i} as written")
    time.sleep(2.1)  # past the clock tick of the writes: their stat keys are trusted (manifest.RACY_NS)
    layer.refresh_index()
    Memory.open(home=isolated_home, project=project).search("note")  # the search index built, as by a first prompt
    return layer


def _swept(monkeypatch, layer) -> list[int]:
    """One item per sweep of ``layer``'s files (every file stat'ed) from now on (the user layer, a small
    one, is swept whenever it is read)."""
    sweeps: list[int] = []
    real = layer_module.scan_layer

    def counted(directory, *args, **kwargs):
        if directory == layer.path:
            sweeps.append(1)
        return real(directory, *args, **kwargs)

    monkeypatch.setattr(layer_module, "scan_layer", counted)
    return sweeps


def _listed(home, project) -> dict[str, str]:
    return {m.name: m.description for m in Memory.open(home=home, project=project).list("project").memories}


@pytest.mark.slow
def test_list_and_status_within_the_interval_stat_no_file_and_see_hand_adds_deletes_and_renames(
        isolated_home, project, large, monkeypatch):
    swept = _swept(monkeypatch, large)
    listed = _listed(isolated_home, project)
    assert len(listed) == SIZE and listed["note-03"] == "note 3 as written"
    status = Memory.open(home=isolated_home, project=project).status()
    assert [(s.scope, s.memories) for s in status.layers if s.scope == "project"] == [("project", SIZE)]
    assert swept == []  # within the interval: the stamps, no file stat'ed
    _note(large.path, "added-by-hand", "a file added in an editor")
    (large.path / "note-05.md").unlink()
    (large.path / "note-07.md").rename(large.path / "renamed-by-hand.md")
    listed = _listed(isolated_home, project)
    assert listed["added-by-hand"] == "a file added in an editor" and "note-05" not in listed
    assert "note-07" not in listed and listed["renamed-by-hand"] == "note 7 as written"
    assert listed["note-06"] == "note 6 as written" and len(listed) == SIZE  # control: the rest as they were
    assert swept == [1, 1]  # the directory moved: the reader's sweep, and its take-up's (journaled)
    assert _listed(isolated_home, project) == listed and swept == [1, 1]  # then the stamps are trusted again
    actions = {e.name: e.action for e in large.journal.events() if e.name in ("added-by-hand", "note-05", "note-07")}
    assert actions == {"added-by-hand": "external-edit", "note-05": "external-delete", "note-07": "external-delete"}


@pytest.mark.slow
def test_an_in_place_edit_of_a_large_layer_is_listed_at_the_next_sweep(isolated_home, project, large, monkeypatch):
    path = large.path / "note-04.md"
    path.write_text(path.read_text().replace("note 4 as written", "note 4 edited in place"))
    swept = _swept(monkeypatch, large)
    listed = _listed(isolated_home, project)
    assert listed["note-04"] == "note 4 as written" and swept == []  # within the interval: waits
    monkeypatch.setattr(layout_module, "SWEEP_INTERVAL", 0.0)  # the interval has passed
    listed = _listed(isolated_home, project)
    assert listed["note-04"] == "note 4 edited in place" and swept == [1, 1]  # the sweep and its take-up
    assert listed["note-03"] == "note 3 as written"  # control: its neighbour as written
    events = [e.action for e in large.journal.events() if e.name == "note-04"]
    assert events == ["external-edit", "external-edit"]  # taken up: journaled as a hand edit
