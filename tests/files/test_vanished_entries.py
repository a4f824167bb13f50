"""A layer's scan lists its memories before it reads them (``files.scan.LazyEntries``); a file that goes
between the listing and the read (a ``git checkout`` of a team layer, another process's delete) is left
out of every memory the scan then reads, never a ``KeyError`` halfway through: the faults run
(test_team_pull_race) saw a CLI write beside a team layer git was switching die with
``KeyError: 'team-note-1'``."""

from __future__ import annotations

import pytest

from memdir import Memory


def _fresh_scan(isolated_home, project):
    """The project layer of a new session (a fresh process's), scanned: names listed, no file read yet."""
    layer = Memory.open(home=isolated_home, project=project, actor="human").session.layer("project")
    return layer, layer.scan()


def test_a_file_gone_after_the_listing_is_left_out_of_the_entries_read(isolated_home, project, mem):
    for name in ("alpha", "beta", "gamma"):
        mem.write(name, f"Fact {name}", "project", f"body of {name}")
    layer, control = _fresh_scan(isolated_home, project)
    assert sorted(name for name, _ in control.entries.items()) == ["alpha", "beta", "gamma"]  # control

    layer, found = _fresh_scan(isolated_home, project)
    assert "beta" in found.entries and "beta" not in found.entries.loaded()  # listed, not read yet
    (layer.path / "beta.md").unlink()  # as a checkout removes it
    assert sorted((name, entry.record.description) for name, entry in found.entries.items()) == [
        ("alpha", "Fact alpha"), ("gamma", "Fact gamma")]
    assert sorted(entry.record.name for entry in found.entries.values()) == ["alpha", "gamma"]
    with pytest.raises(KeyError):
        found.entries["beta"]  # asked for by name, it is not there



def _unread(layer, entries):
    """``entries`` listed again with nothing read yet, each read from its file when asked for (None once it
    went), as the next transaction's scan holds them."""
    from memdir.files.scan import LazyEntries

    def load(name, filename):
        return entries._load(name, filename) if (layer.path / filename).exists() else None

    return LazyEntries({}, {name: f"{name}.md" for name in entries}, load)


def test_an_index_written_after_a_listed_file_went_leaves_its_line_out(isolated_home, project, mem):
    for name in ("alpha", "beta", "gamma"):
        mem.write(name, f"Fact {name}", "project", f"body of {name}")
    layer, found = _fresh_scan(isolated_home, project)
    layer._write_index(found.entries)  # a full render: the builder holds every line
    layer._write_index(_unread(layer, found.entries), touched={"beta"})  # control: a touched memory still there
    assert "[beta](beta.md)" in (layer.path / "MEMORY.md").read_text()

    listed = _unread(layer, found.entries)
    (layer.path / "beta.md").unlink()  # gone between the sweep's listing and the index's render
    layer._write_index(listed, touched={"beta"})
    index = (layer.path / "MEMORY.md").read_text()
    assert "[beta](beta.md)" not in index and "[alpha](alpha.md)" in index and "[gamma](gamma.md)" in index
