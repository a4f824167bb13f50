"""Reading one memory of a large layer in a fresh process reads that memory's file, not the layer
(issue 28 item 7: ``memdir read NAME`` at 10,000 memories stat'ed every file three times), and a
person's hand edit of it shows at once and enters its history. Each ``Memory.open`` here is a new
session with new layer objects, as a fresh process has (the layer's names come from its manifest).
Parses are counted at the one parser of memory files, ``stat`` calls of directory entries at
the one place a scan makes them."""

from __future__ import annotations

import os
import time

import pytest

from memdir import Memory
from memdir.files import layout as layout_module
from memdir.files import scan as scan_module
from memdir.render import maintenance
from tests.seeded import counted_parses, seeded

SIZE = 600


def _seeded(home, project) -> Memory:
    return seeded(home, project, SIZE)


def _scans(monkeypatch) -> list[str]:
    scanned: list[str] = []
    real = scan_module.scan

    def counted(directory, *args, **kwargs):
        scanned.append(os.path.basename(directory))
        return real(directory, *args, **kwargs)

    monkeypatch.setattr(scan_module, "scan", counted)
    import memdir.layer.layer as layer_module

    monkeypatch.setattr(layer_module, "scan_layer", counted)
    real_glance = layer_module.glance_layer

    def glanced(directory, *args, **kwargs):  # a listing that parses nothing (Layer.glance) is counted too
        scanned.append(os.path.basename(directory))
        return real_glance(directory, *args, **kwargs)

    monkeypatch.setattr(layer_module, "glance_layer", glanced)
    return scanned


@pytest.mark.slow
def test_a_read_in_a_fresh_process_parses_only_the_memory_it_reads(isolated_home, project, monkeypatch):
    _seeded(isolated_home, project)
    parsed, scanned = counted_parses(monkeypatch), _scans(monkeypatch)
    fresh = Memory.open(home=isolated_home, project=project, actor="human")
    found = fresh.read("seed-0007")
    assert (found.record.description, found.record.body.strip(), found.scope) == ("seeded fact 7", "Body 7", "project")
    assert found.record.reads == 1  # the read is counted, and the answer carries the count
    # Read, and read again under the layer's lock to count the read: that file alone, and no scan of its layer
    # (before: every file of it stat'ed three times). The user layer, never written, has no manifest: it is
    # listed (empty, glanced at: Layer.glance), which also shows the count works.
    assert parsed == ["seed-0007", "seed-0007"] and scanned == ["_user"]
    parsed.clear()
    again = Memory.open(home=isolated_home, project=project, actor="human").read("seed-0123")
    assert again.record.body.strip() == "Body 123" and set(parsed) == {"seed-0123"}  # control: another memory
    assert Memory.open(home=isolated_home, project=project).read("seed-0007").record.reads == 2


@pytest.mark.slow
def test_a_hand_edit_of_the_memory_read_shows_at_once_and_enters_its_history(isolated_home, project):
    mem = _seeded(isolated_home, project)
    path = mem.session.layer("project").path / "seed-0042.md"
    inode = path.stat().st_ino
    path.write_text("---\nname: seed-0042\ndescription: seeded fact 42, edited by hand\ntype: project\n"
                    "updated: 2026-11-01T00:00:00Z\n---\n\nBody 42 as the person put it\n")
    assert path.stat().st_ino == inode  # edited in place: the directory's mtime did not move
    fresh = Memory.open(home=isolated_home, project=project, actor="human")
    found = fresh.read("seed-0042")
    assert found.record.body.strip() == "Body 42 as the person put it"
    assert found.record.description == "seeded fact 42, edited by hand"
    assert "Body 42\n" not in found.record.body + "\n"  # the old text is not what is read
    assert [v.action for v in fresh.history("seed-0042").versions] == ["external-edit", "external-edit"]
    other = Memory.open(home=isolated_home, project=project, actor="human").read("seed-0043")
    assert other.record.body.strip() == "Body 43"  # control: an unedited memory reads as it was
    assert [v.action for v in fresh.history("seed-0043").versions] == ["external-edit"]  # adopted once, no edit


@pytest.mark.slow
def test_a_read_after_a_file_was_added_sees_it_and_a_missing_name_is_not_found(isolated_home, project):
    mem = _seeded(isolated_home, project)
    layer_dir = mem.session.layer("project").path
    (layer_dir / "by-hand.md").write_text("---\nname: by-hand\ndescription: written by a person\n"
                                          "type: project\n---\n\nHand-made body\n")
    fresh = Memory.open(home=isolated_home, project=project, actor="human")
    assert fresh.read("by-hand").record.body.strip() == "Hand-made body"  # the directory moved: scanned
    assert fresh.read("seed-0001").record.body.strip() == "Body 1"  # control
    from memdir.errors import NotFound

    with pytest.raises(NotFound, match='memory not found: "no-such-memory"'):
        Memory.open(home=isolated_home, project=project).read("no-such-memory")


@pytest.mark.slow
def test_status_in_a_fresh_process_parses_only_a_hand_edited_file_and_counts_the_edit(isolated_home, project,
                                                                                      monkeypatch):
    mem = _seeded(isolated_home, project)
    before = Memory.open(home=isolated_home, project=project).status()
    layer = next(layer for layer in before.layers if layer.scope == "project")
    assert (layer.memories, layer.visible, layer.candidates, before.duplicates) == (SIZE, SIZE, 0, ())
    # By hand, in place: seed-0042 becomes a copy of seed-0043, seed-0044 a candidate.
    layer_dir = mem.session.layer("project").path
    (layer_dir / "seed-0042.md").write_text("---\nname: seed-0042\ndescription: seeded fact 43\ntype: project\n"
                                            "updated: 2026-11-01T00:00:00Z\n---\n\nBody 43\n")
    (layer_dir / "seed-0044.md").write_text("---\nname: seed-0044\ndescription: seeded fact 44\ntype: project\n"
                                            "status: candidate\nupdated: 2026-11-01T00:00:00Z\n---\n\nBody 44\n")
    parsed = counted_parses(monkeypatch)
    within = Memory.open(home=isolated_home, project=project).status()  # within the sweep interval: the stamps
    layer = next(layer for layer in within.layers if layer.scope == "project")
    assert (layer.memories, layer.visible, layer.candidates, within.duplicates) == (SIZE, SIZE, 0, ())
    assert parsed == []  # an in-place edit of a large layer waits for its sweep, as for a write (files.sweeps)
    monkeypatch.setattr(layout_module, "SWEEP_INTERVAL", 0.0)  # the interval has passed: the library sweeps
    after = Memory.open(home=isolated_home, project=project).status()
    layer = next(layer for layer in after.layers if layer.scope == "project")
    assert after.duplicates == (("project:seed-0042", "project:seed-0043"),)
    assert (layer.memories, layer.visible, layer.candidates) == (SIZE, SIZE - 1, 1)
    assert sorted(set(parsed)) == ["seed-0042", "seed-0044"]  # the edited files alone (before: all 600)
    assert layer.fallback_parsed == () and layer.notes == ()  # no file read leniently: none named


@pytest.mark.slow
def test_status_in_a_fresh_process_names_the_files_read_leniently_without_reading_them(isolated_home, project,
                                                                                         monkeypatch):
    mem = _seeded(isolated_home, project)
    layer_dir = mem.session.layer("project").path
    (layer_dir / "seed-0007.md").write_text("---\nname: seed-0007\ndescription: seeded: fact 7: colons\n"
                                            "type: project\n  bad indent: [\n---\n\nBody 7\n")  # not YAML
    (layer_dir / "plain-note.md").write_text("# A plain Markdown note\n\nNo frontmatter at all.\n")
    (layer_dir / "draft-note.md").write_text("---\nname: draft-note\ndescription: a draft\ntype: project\n"
                                             "status: draft\n---\n\nBody\n")
    time.sleep(2.1)  # past their clock tick: what is recorded of them is trusted (manifest.RACY_NS)
    first = Memory.open(home=isolated_home, project=project).status()  # reads and records the new files
    parsed = counted_parses(monkeypatch)
    after = Memory.open(home=isolated_home, project=project).status()
    assert parsed == []  # named from what the layer recorded: no file read again
    for result in (first, after):
        layer = next(layer for layer in result.layers if layer.scope == "project")
        assert layer.fallback_parsed == (str(layer_dir / "seed-0007.md"),)
        assert layer.no_frontmatter == (str(layer_dir / "plain-note.md"),)
        assert [(n.path.rsplit("/", 1)[1], n.note) for n in layer.notes] == [
            ("draft-note.md", "status 'draft' is not one of active, candidate, superseded: kept, read as active"),
            ("plain-note.md", "no frontmatter (listed under its file name)"),
            ("seed-0007.md", "read with the line fallback (frontmatter is not valid YAML)"),
            ("seed-0007.md", ("line 3 (description: seeded: fact 7: colons) is not valid YAML: quote its value: "
                              "description: 'seeded: fact 7: colons'")),  # trial31: doctor says how
        ]
        assert str(layer_dir / "seed-0008.md") not in {n.path for n in layer.notes}  # control: a file memdir wrote
        assert layer.memories == SIZE + 2
    lines = maintenance.status(after).splitlines()
    assert f"  ~ read leniently: {layer_dir / 'plain-note.md'} (memdir doctor says how)" in lines
    assert not any("seed-0008" in line for line in lines)  # control
