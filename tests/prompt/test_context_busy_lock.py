"""A fresh ``memdir context`` that finds the layer's lock busy parses only the files changed since the manifest
(issue 28 §7, busy47).

When a writer or a sweep holds the lock, :meth:`memdir.layer.indexfile.KeepsIndex.current_index` renders the index
without writing it. It rendered it over every memory's record — every file parsed: at 10,000 memories 74 s under a
profiler for a SessionStart or prompt hook that started during another process's write. Now the lines of the files
that match their manifest rows by stat key come from the manifest's facts and only the changed files are parsed —
the same text, byte for byte, as the full parse gives (the control here: the same fresh process with every record
parsed). The lock is the layer's own, held by a real process through :meth:`memdir.layer.layer.Layer.locked`, as a
writer holds it. Parses counted in the real fresh process (tests/counted.py)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time

import pytest

from tests.counted import HAND_NOTE, told_then_run
from tests.seeded import seeded

PARSES = """
import atexit, json, os, runpy, sys
from memdir.files import scan
parsed, real_parse = [], scan.parse
scan.parse = lambda text, stem: parsed.append(stem) or real_parse(text, stem)
if os.environ.get("FULL_PARSE"):  # the control: every record parsed, as the index was rendered before busy47
    from memdir.layer.index import Facts
    from memdir.layer.reading import ReadsOne
    ReadsOne.facts_of = lambda self, found: {n: Facts.of(e.record) for n, e in found.entries.items()}
""" + told_then_run("parsed")

HOLDER = """
import sys
from memdir import Memory
mem = Memory.open(home=sys.argv[1], project=sys.argv[2], actor="human")
with mem.session.layer("project").locked():
    print("held", flush=True)
    sys.stdin.read()  # until the test closes it
"""


def _context(tmp_path, project, full: bool = False) -> tuple[str, list[str]]:
    counts = tmp_path / f"parsed-{time.monotonic_ns()}.jsonl"
    env = dict(os.environ, COUNTS_TO=str(counts), **({"FULL_PARSE": "1"} if full else {}))
    done = subprocess.run([sys.executable, "-c", PARSES, "memdir", "--project", str(project), "context"],
                          capture_output=True, text=True, timeout=300, env=env, check=False)
    assert done.returncode == 0, done.stderr
    assert "left out" not in done.stderr, done.stderr  # the layer rendered, not dropped from the block
    return done.stdout, json.loads(counts.read_text().splitlines()[-1])


@pytest.fixture
def store(tmp_path, monkeypatch) -> tuple:
    """``(home, project)`` under ``tmp_path``: a project with ``.git``, ``MEMDIR_HOME`` the home."""
    home, project = tmp_path / "home", tmp_path / "proj"
    (project / ".git").mkdir(parents=True)
    monkeypatch.setenv("MEMDIR_HOME", str(home))
    return home, project


def _while_held(tmp_path, home, project) -> tuple[str, list[str], str, list[str]]:
    """``memdir context`` twice in fresh processes while a real process holds the project layer's lock (as a writer
    does): ``(text, files parsed)`` as it renders the index, then the same with every record parsed (the control)."""
    holder = subprocess.Popen([sys.executable, "-c", HOLDER, str(home), str(project)], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline() == "held\n"
        busy, parsed = _context(tmp_path, project)
        full, parsed_all = _context(tmp_path, project, full=True)
        assert holder.poll() is None  # held all along: both rendered without the lock
    finally:
        holder.stdin.close()
        holder.wait(timeout=60)
    return busy, parsed, full, parsed_all


def test_a_busy_lock_renders_the_index_parsing_only_the_files_changed_since_the_manifest(tmp_path, store):
    home, project = store
    size = 300
    layer = seeded(home, project, size).session.layer("project")
    written = (layer.path / "MEMORY.md").read_text(encoding="utf-8")
    assert "(seed-0007.md) — seeded fact 7\n" in written
    # A memory file edited by hand (a new inode, as sed -i writes it) and one added by hand.
    seed = layer.path / "seed-0007.md"
    seed.with_name(".seed-0007.md.edit").write_text(
        seed.read_text(encoding="utf-8").replace("seeded fact 7", "edited fact 7"), encoding="utf-8")
    os.replace(seed.with_name(".seed-0007.md.edit"), seed)
    (layer.path / "hand-note.md").write_text(HAND_NOTE.format(name="hand-note", i=1, t="ports"), encoding="utf-8")
    busy, parsed, full, parsed_all = _while_held(tmp_path, home, project)
    assert sorted(parsed) == ["hand-note", "seed-0007"]  # before busy47: all 301 files
    assert len(parsed_all) == size + 1  # the control parses every file: the count sees each parse
    assert busy == full  # byte for byte the text of the full parse
    assert "(seed-0007.md) — edited fact 7" in busy  # the hand edit, not the manifest's old line
    assert "seeded fact 7\n" not in busy and "(seed-0006.md) — seeded fact 6" in busy
    assert "(hand-note.md) — hand note 1 on topic ports" in busy  # the file added by hand
    assert (layer.path / "MEMORY.md").read_text(encoding="utf-8") == written  # nothing written while busy


def test_a_busy_lock_never_orders_by_a_read_count_the_usage_file_no_longer_holds(tmp_path, store):
    """The manifest's facts carry the read counts they were made with; once the usage file is lost (deleted, or
    over its ceiling: read as empty) a memory's usage is its file's again, so its facts are not taken."""
    home, project = store
    mem = seeded(home, project, 40)
    layer = mem.session.layer("project")
    mem.read("seed-0003")  # counted in the usage file: read today, so first among the unpinned at the next order
    cli = [sys.executable, "-m", "memdir", "--project", str(project)]
    subprocess.run([*cli, "write", "other-note", "--description", "another", "--body", "b", "--type", "project"],
                   check=True, capture_output=True, timeout=120)  # a fresh process orders the lines again: facts saved
    assert "- [other-note](other-note.md) — another\n- [seed-0003](seed-0003.md)" in (
        layer.path / "MEMORY.md").read_text(encoding="utf-8")
    assert layer.manifest.load_facts()["seed-0003"].reads == 1
    layer.usage.path.unlink()  # the read count lost
    (layer.path / "hand-note.md").write_text(HAND_NOTE.format(name="hand-note", i=2, t="queues"), encoding="utf-8")
    busy, parsed, full, _ = _while_held(tmp_path, home, project)
    assert busy == full
    assert sorted(parsed) == ["hand-note", "seed-0003"]  # the new file, and the memory whose count went
    # seed-0003 back in name order (its file's usage: never read), not second by the lost count
    assert "(seed-0002.md) — seeded fact 2\n- [seed-0003](seed-0003.md) — seeded fact 3\n" in busy
    assert "(other-note.md) — another\n- [seed-0000](seed-0000.md)" in busy


def test_a_busy_lock_shows_the_duplicate_that_wins_once_its_rival_is_removed(tmp_path, store):
    """Two files hold one name: the manifest's facts are the winner's. Its file removed by hand, the other wins —
    unchanged, it matches its row, yet the facts kept are not its own: it is parsed."""
    home, project = store
    layer = seeded(home, project, 40).session.layer("project")
    (layer.path / "Seed-0005.md").write_text("---\ndescription: duplicate five\ntype: project\n"
                                          "updated: 2026-11-01T00:00:00Z\n---\n\nBody 5 again\n", encoding="utf-8")
    time.sleep(2.1)  # past the clock tick of the write: its stat key is trusted (manifest.RACY_NS)
    layer.refresh_index()
    assert layer.manifest.shared_names() == {"seed-0005"}
    assert "(seed-0005.md) — seeded fact 5\n" in (layer.path / "MEMORY.md").read_text(encoding="utf-8")
    (layer.path / "seed-0005.md").unlink()  # the winner removed by hand: Seed-0005.md holds seed-0005 now
    busy, parsed, full, _ = _while_held(tmp_path, home, project)
    assert busy == full
    assert parsed == ["Seed-0005"]
    assert "(Seed-0005.md) — duplicate five\n" in busy and "seeded fact 5" not in busy
    assert "(seed-0004.md) — seeded fact 4\n" in busy
