"""A team layer's search rows follow its journal, as a project layer's do (memdir.search.follow). The team
layer keeps its journal in the home (``<home>/team/<key>/.memdir``), not beside its files in the repository;
the index's sync looked for it in ``<team dir>/.memdir``, found none, and so swept every file of the team
layer at the first query of each process after any write — on a team layer past the sweep's size
(``SWEEP_ALWAYS_MAX``, 500 files) a stat of each file, where a project layer's query looks at the written
file alone. Where a layer's journal is has one rule now (:class:`memdir.layer.layer.Layer`'s ``meta``)."""

from __future__ import annotations

import time

from memdir import Memory
from memdir.layer.layer import Layer
from memdir.search import index, sync

FILES = 520  # past memdir.files.sweeps.SWEEP_ALWAYS_MAX: a layer whose sweep may wait


def _memory(name: str, text: str) -> str:
    return f"---\nname: {name}\ndescription: {text}\ntype: project\n---\n\nBody of {text}\n"


def _fresh_sync(home, project, scope: str, scans: list[str]) -> tuple[int, int]:
    """(memories changed, files read) by a new process's sync of the layer ``scope`` (``on_read``)."""
    sync._swept.clear()  # what a new process remembers of its own sweeps: nothing
    fresh = Memory.open(home=home, project=project, actor="human", search_vectors="off")
    reads: list[int] = []
    scans.clear()
    changed = sync.sync_layer(index.connect(home), home, fresh.session.layer(scope), on_read=reads.append)
    return changed, len(reads)


def _search(home, project, query: str) -> list[tuple[str, str]]:
    sync._swept.clear()
    fresh = Memory.open(home=home, project=project, actor="human", search_vectors="off")
    return sorted((r.name, r.scope) for r in fresh.search(query, k=10))


def test_a_team_layer_of_520_files_is_followed_by_its_journal_not_swept(isolated_home, project, monkeypatch):
    from memdir.files import layout as layout_module

    monkeypatch.setattr(layout_module, "SWEEP_INTERVAL", 3600.0)
    mem = Memory.open(home=isolated_home, project=project, actor="human", search_vectors="off")
    mem.team_init()
    mem.team_trust()
    team = mem.session.layer("team")
    assert team.journal.path.parent.parent.parent == isolated_home / "team"  # in the home
    assert not (team.path / ".memdir").exists()  # not in the repository
    for i in range(FILES):
        (team.path / f"fact-{i:03d}.md").write_text(_memory(f"fact-{i:03d}", f"team fact {i} about ledgers"))
    team.refresh_index()  # journals them (external-edit)
    mem.write("notes", "project notes about ledgers", "project", "a project memory")
    time.sleep(2.1)  # past the clock tick of the writes (manifest.RACY_NS)
    scans: list[str] = []
    real = Layer.scan
    monkeypatch.setattr(Layer, "scan", lambda self, *a, **k: scans.append(self.scope) or real(self, *a, **k))
    changed, read = _fresh_sync(isolated_home, project, "team", scans)
    # Control: the first sync enters every file. How many it parses depends on the clock: the layer's manifest
    # holds the meta of files written more than a clock tick (manifest.RACY_NS) before refresh_index read them,
    # so on a loaded machine, where writing 520 files takes seconds, fewer than 520 are read (135 seen).
    assert changed == FILES and read <= FILES
    assert set(scans) == {"team"}  # swept (more than once when its scan took up what the manifest lacked)

    mem.write("fact-007", None, None, "ledger body 7 and a canoe", scope="team")
    assert _fresh_sync(isolated_home, project, "team", scans) == (1, 1)  # before: (1, 1) after a sweep of 520 files
    assert scans == []  # no sweep: the journal named the written file
    assert _search(isolated_home, project, "canoe") == [("fact-007", "team")]

    mem.write("notes", None, None, "a project memory and a canoe")  # control: a small layer, swept as always
    assert _fresh_sync(isolated_home, project, "project", scans) == (1, 1) and scans == ["project"]
    assert _search(isolated_home, project, "canoe") == [("fact-007", "team"), ("notes", "project")]

    # Control: an in-place hand edit no write journals is not followed; the due sweep finds it.
    path = team.path / "fact-009.md"
    path.write_text(path.read_text().replace("team fact 9 about ledgers", "team fact 9 about a canoe"))
    mem.write("fact-010", None, None, "ledger body 10, written", scope="team")
    assert _fresh_sync(isolated_home, project, "team", scans) == (1, 1) and scans == []
    assert _search(isolated_home, project, "canoe") == [("fact-007", "team"), ("notes", "project")]
    monkeypatch.setattr(layout_module, "SWEEP_INTERVAL", 0.0)  # the interval has passed
    # Swept: fact-009 read, and fact-007 and fact-010, written within the clock tick of their syncs (their rows'
    # mtime kept as 0: sync.RACY_NS); the other 517 files stat'ed, not read.
    assert _fresh_sync(isolated_home, project, "team", scans) == (1, 3) and set(scans) == {"team"}
    assert _search(isolated_home, project, "canoe") == [("fact-007", "team"), ("fact-009", "team"),
                                                        ("notes", "project")]
