"""A fresh process reads the manifest's rows of the names and files it asks about, not every row
(issue 28 item 7: a write of one memory of 10,000 read 10,000 rows and settled them all), and
settles each name by the scan's rule — a hand-named file, two files holding one name — exactly as
a scan of the files does. Each ``Memory.open`` is a new session with new layer objects, as a fresh
process has."""

from __future__ import annotations

import time

import pytest

from memdir import Memory
from memdir.files import layout as layout_module
from memdir.files import sweeps as sweeps_module
from memdir.layer.manifest import Manifest


def _file(layer_dir, filename: str, name: str, description: str) -> None:
    (layer_dir / filename).write_text(f"---\nname: {name}\ndescription: {description}\ntype: project\n"
                                      f"updated: 2026-11-01T00:00:00Z\n---\n\nBody of {filename}\n")


def _store(home, project, monkeypatch, older: dict[str, str] | None = None):
    """A large layer (for this test) of 8 memories and two names each held by two files (one named
    so, one hand-named), and ``older`` (file name → title: memories an older memdir named so),
    adopted by one refresh after the clock tick of the writes (their stat keys are trusted)."""
    monkeypatch.setattr(sweeps_module, "SWEEP_ALWAYS_MAX", 3)
    monkeypatch.setattr(layout_module, "SWEEP_INTERVAL", 3600.0)
    layer = Memory.open(home=home, project=project, actor="human").session.layer("project")
    layer.path.mkdir(parents=True)
    for i in range(8):
        _file(layer.path, f"seed-{i}.md", f"seed-{i}", f"seeded fact {i}")
    _file(layer.path, "feedback_tabs.md", "feedback-tabs", "tabs, by hand")  # named otherwise than its name
    _file(layer.path, "Feedback_Tabs.md", "feedback-tabs", "tabs, the smaller file name")  # wins: smaller
    _file(layer.path, "db-port.md", "db-port", "the port, in its own file")
    _file(layer.path, "DB_Port.md", "db-port", "a copy under a smaller file name")  # loses: not named so
    for name, title in (older or {}).items():
        (layer.path / f"{name}.md").write_text(f"---\nname: {name}\ntitle: {title}\ndescription: older {title}\n"
                                               "type: project\nupdated: 2026-11-01T00:00:00Z\n---\n\nOlder body\n")
    time.sleep(2.1)
    layer.refresh_index()
    return layer


def _counted(monkeypatch) -> list[str]:
    """Every time a layer reads all of the manifest's file rows at once."""
    calls: list[str] = []
    real = Manifest.full_rows

    def counted(self, files):
        if files is None:
            calls.append("every row")
        return real(self, files)

    monkeypatch.setattr(Manifest, "full_rows", counted)
    return calls


def _listed(monkeypatch) -> list[tuple[str, str, list[str] | None]]:
    """Every time a layer lists the names its manifest holds (``prefix``, ``letters``, the names answered)."""
    calls: list[tuple[str, str, list[str] | None]] = []
    real = Manifest.names_from

    def counted(self, prefix="", letters=""):
        names = real(self, prefix, letters)
        calls.append((prefix, letters, names))
        return names

    monkeypatch.setattr(Manifest, "names_from", counted)
    return calls


@pytest.mark.slow
def test_a_fresh_lookup_and_write_read_the_rows_of_one_name_and_settle_it_as_a_scan_does(
        isolated_home, project, monkeypatch):
    layer = _store(isolated_home, project, monkeypatch)
    every = _counted(monkeypatch)
    fresh = Memory.open(home=isolated_home, project=project, actor="human").session.layer("project")
    assert fresh.lookup("db-port").path.name == "db-port.md"  # the file named so wins over the smaller name
    assert fresh.lookup("feedback-tabs").path.name == "Feedback_Tabs.md"  # neither named so: the smaller
    assert fresh.lookup("seed-3").record.description == "seeded fact 3"
    assert fresh.lookup("no-such-memory") is None  # control: a name no file holds
    assert every == []  # one name's rows each, not every row
    scan = fresh.current_scan()
    assert len(scan.entries) == 10 and len(scan.files) == 12  # counted by the manifest, no row read for it
    assert every == []
    assert sorted(scan.names) == sorted(["db-port", "feedback-tabs", *(f"seed-{i}" for i in range(8))])
    assert every == ["every row"]  # control: iterating the names reads every row, once
    duplicates = [("DB_Port.md", "duplicate of db-port.md (same name 'db-port')"),
                  ("feedback_tabs.md", "duplicate of Feedback_Tabs.md (same name 'feedback-tabs'); its name differs "
                   "from Feedback_Tabs.md's only by case: macOS and Windows keep one of the two in a clone — move its "
                   "text into Feedback_Tabs.md (or another memory) and remove it")]  # left25: a case twin, said so
    assert sorted((m.path.rsplit("/", 1)[-1], m.error) for m in scan.malformed) == duplicates
    assert sorted((m.path.rsplit("/", 1)[-1], m.error) for m in layer.scan().malformed) == duplicates  # as the files say


@pytest.mark.slow
def test_a_fresh_write_of_a_hand_named_memory_and_a_new_one_reads_no_row_but_theirs(
        isolated_home, project, monkeypatch):
    layer = _store(isolated_home, project, monkeypatch)
    every, listed = _counted(monkeypatch), _listed(monkeypatch)
    Memory.open(home=isolated_home, project=project, actor="human").write(
        "feedback-tabs", "tabs, as the agent puts it", "feedback", "Why: x\nHow to apply: y")
    Memory.open(home=isolated_home, project=project, actor="human").write(
        "db-port", "the port, corrected", "project", "b")
    assert every == [] and listed == []  # a name the layer holds: its rows only
    Memory.open(home=isolated_home, project=project, actor="human").write(
        "brand-new", "a name no file holds", "project", "b")
    # a new name: the names holding the letters every older spelling of it keeps (b, r, n, n, w: gateway.naming.
    # kept_letters) are listed, once, for a memory an older memdir stored under another spelling of it
    # (gateway.naming.candidates: Lodz-notes is odz-notes) — none here, not every name; no row's state is read
    assert every == []
    assert listed == [("", "brnnw", [])]
    Memory.open(home=isolated_home, project=project, actor="human").write(
        "deed-4", "a name seed-4 holds the letters of", "project", "b")
    # control: the names holding 4 (d, e, e, d: letters an older name may have dropped) are listed: seed-4
    assert listed[1:] == [("", "4", ["seed-4"])] and every == []
    assert not (layer.path / "Feedback_Tabs.md").exists() and (layer.path / "feedback-tabs.md").is_file()
    assert "tabs, by hand" in (layer.path / "feedback_tabs.md").read_text()  # control: the losing copy untouched
    assert "the port, in its own file" not in (layer.path / "db-port.md").read_text()
    assert "a copy under a smaller file name" in (layer.path / "DB_Port.md").read_text()  # control: untouched
    index = (layer.path / "MEMORY.md").read_text()
    assert "(feedback-tabs.md) — tabs, as the agent puts it" in index and "(brand-new.md) — a name no" in index
    assert "(db-port.md) — the port, corrected" in index and index.count("\n") == 12
    assert "(deed-4.md) — a name seed-4" in index and "(seed-4.md) — seeded fact 4" in index  # two memories
    full = Memory.open(home=isolated_home, project=project, actor="human").session.layer("project")
    full.refresh_index()  # from every file: the same text
    assert (layer.path / "MEMORY.md").read_text() == index
    found = Memory.open(home=isolated_home, project=project).session.layer("project").current_scan()
    assert len(found.entries) == 12 and found.names["feedback-tabs"] == "feedback-tabs.md"
    assert "Feedback_Tabs.md" not in found.files and "feedback-tabs.md" in found.files


@pytest.mark.slow
def test_a_fresh_delete_counts_and_forgets_the_name(isolated_home, project, monkeypatch):
    _store(isolated_home, project, monkeypatch)
    Memory.open(home=isolated_home, project=project, actor="human").delete("seed-5", reason="gone")
    fresh = Memory.open(home=isolated_home, project=project).session.layer("project")
    scan = fresh.current_scan()
    assert "seed-5" not in scan.entries and fresh.lookup("seed-5") is None
    assert "seed-4" in scan.entries  # control: its neighbour stays
    assert len(scan.entries) == 9 and len(scan.files) == 11
    assert len(list(scan.names)) == 9


@pytest.mark.slow
def test_a_fresh_write_finds_an_older_spelling_of_its_name_from_the_names_alone(isolated_home, project, monkeypatch):
    layer = _store(isolated_home, project, monkeypatch, older={"odz-notes": "Łódź-notes", "m-cef79eb96c": "ｿｰｽ"})
    every, listed = _counted(monkeypatch), _listed(monkeypatch)

    def write(name: str):
        return Memory.open(home=isolated_home, project=project, actor="human").write(name, "said anew", "project", "b")

    assert (write("Lodz-notes").name, write("ソース").name) == ("odz-notes", "m-cef79eb96c")  # the older memories
    assert [done.operation for done in (write("Lods-notes"), write("ソース二"))] == ["created", "created"]  # control
    assert every == []  # no write read every row
    # each new name: its candidates listed once — the names holding z, n (what every older spelling of
    # lodz-notes keeps), and for a hash name the hash names only, by the index
    assert [(prefix, letters) for prefix, letters, _ in listed] == [("", "zn"), ("m-", ""), ("", "n"), ("m-", "")]
    assert listed[1] == ("m-", "", ["m-cef79eb96c"])
    assert listed[0][2] == ["odz-notes"]  # before: the layer's 12 names, each matched in Python
    assert listed[2][2] == ["odz-notes"]  # control: lods-notes keeps n only: odz-notes, not the one written
    assert "said anew" in (layer.path / "odz-notes.md").read_text()
    assert "said anew" in (layer.path / "m-cef79eb96c.md").read_text()
    names = sorted(m.name for m in Memory.open(home=isolated_home, project=project).list(include_all=True).memories)
    assert "lods-notes" in names and "lodz-notes" not in names and len(names) == 14
