"""A file changed by hand costs the next fresh process that file, not the layer (issue 28 item 7).

A hand edit that replaces the file (a new inode: ``sed -i``, many editors), a file added or removed
by hand, moves the layer directory's mtime: the manifest no longer stands in for the scan. The next
fresh process (the context block, the prompt hook, a CLI command) sweeps the stat keys, and must then
read only the files whose keys moved and move only their ``MEMORY.md`` lines — before, it parsed every
file of the layer to render ``MEMORY.md`` again (1,001 opens at 1,000 memories). A ``touch`` of every
file moves every key but no byte: the files are read and hashed once, none parsed, and the next
process reads none.

The counts are taken in the real fresh processes (``python -m memdir``, the prompt hook), through a
wrapper that counts the scan's reads and parses and runs the module as ``-m`` would.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time

import pytest

from memdir import Memory
from tests.seeded import seeded

SIZE = 60

COUNTING = """
import atexit, json, os, runpy, sys
from memdir.files import scan
real_parse, real_read = scan.parse, scan.read_foreign
parsed, read = [], []
def parse(text, stem):
    parsed.append(stem)
    return real_parse(text, stem)
def read_foreign(path, *args, **kwargs):
    read.append(os.path.basename(path)[:-3])
    return real_read(path, *args, **kwargs)
scan.parse, scan.read_foreign = parse, read_foreign
main = os.getpid()
def told():
    if os.getpid() != main:  # a forked child's exit: not the counted process
        return
    with open(os.environ["COUNTS_TO"], "a") as out:
        out.write(json.dumps({"parsed": sorted(parsed), "read": sorted(read)}) + "\\n")
atexit.register(told)
sys.argv = sys.argv[1:]
runpy.run_module(sys.argv[0], run_name="__main__", alter_sys=True)
"""


def _counted(tmp_path, module: str, *args: str, stdin: str = "") -> tuple[str, dict]:
    """Run ``python -m module args`` as a fresh process, counting its reads and parses of memory files:
    (its stdout, {"parsed": [stems], "read": [stems]})."""
    counts = tmp_path / f"counts-{time.monotonic_ns()}.jsonl"
    done = subprocess.run([sys.executable, "-c", COUNTING, module, *args], input=stdin, capture_output=True,
                          text=True, timeout=120, env=dict(os.environ, COUNTS_TO=str(counts)))
    assert done.returncode == 0, done.stderr
    return done.stdout, json.loads(counts.read_text().splitlines()[-1])


def _context(tmp_path, project) -> tuple[str, dict]:
    return _counted(tmp_path, "memdir", "--project", str(project), "context", "--max-bytes", "60000")


def _prompt_hook(tmp_path, project, prompt: str) -> tuple[str, dict]:
    payload = json.dumps({"session_id": "s1", "cwd": str(project), "hook_event_name": "UserPromptSubmit",
                          "prompt": prompt})
    return _counted(tmp_path, "memdir.hooks", "claude-code", "UserPromptSubmit", stdin=payload)


def _replace(path, old: str, new: str) -> None:
    """Edit ``path`` as ``sed -i`` does: a new file renamed over it (a new inode; the directory's mtime moves)."""
    text = path.read_text()
    assert old in text
    temp = path.with_name(f".{path.name}.tmp")
    temp.write_text(text.replace(old, new))
    os.replace(temp, path)


def _full_render(home, project) -> str:
    layer = Memory.open(home=home, project=project).session.layer("project")
    return layer._index.render({n: e.record for n, e in layer.scan().entries.items()},
                               __import__("memdir.layer.layer", fromlist=["now_utc"]).now_utc())


@pytest.mark.slow
def test_after_a_hand_edit_a_fresh_process_reads_the_edited_file_only(isolated_home, project, tmp_path):
    mem = seeded(isolated_home, project, SIZE)
    mem.search("seeded fact", k=1)  # the search index, built once (as the first prompt of a session)
    layer = mem.session.layer("project")
    _replace(layer.path / "seed-0007.md", "seeded fact 7", "seeded fact 7, edited by hand with zebrafish")
    block, counts = _context(tmp_path, project)
    # Before: every file parsed, to render MEMORY.md again (61 of 60 memories, the edited one twice).
    assert counts == {"parsed": ["seed-0007"], "read": ["seed-0007"]}
    assert "seeded fact 7, edited by hand with zebrafish" in block
    assert "seeded fact 8" in block and "seeded fact 59" in block  # control: the others are still listed
    index = (layer.path / "MEMORY.md").read_text()
    assert index == _full_render(isolated_home, project) and index.count("\n") == SIZE
    events = [e for e in layer.journal.events() if e.name == "seed-0007"]
    assert events[-1].action == "external-edit"
    # The prompt hook's search index reads that file once (its own row), and finds the edit.
    out, counts = _prompt_hook(tmp_path, project, "what did the zebrafish edit say?")
    assert counts["parsed"] == ["seed-0007"] and set(counts["read"]) <= {"seed-0007"}
    assert "seed-0007" in out
    _block, counts = _context(tmp_path, project)
    assert counts == {"parsed": [], "read": []}  # fresh again


@pytest.mark.slow
def test_a_file_added_and_one_removed_by_hand_cost_the_added_file(isolated_home, project, tmp_path):
    mem = seeded(isolated_home, project, SIZE)
    layer = mem.session.layer("project")
    (layer.path / "hand-added.md").write_text(
        "---\nname: hand-added\ndescription: a fact added by hand\ntype: project\n---\n\nBy hand.\n")
    (layer.path / "seed-0009.md").unlink()
    block, counts = _context(tmp_path, project)
    assert counts == {"parsed": ["hand-added"], "read": ["hand-added"]}
    assert "a fact added by hand" in block and "(seed-0009.md)" not in block
    assert "(seed-0010.md)" in block and "(seed-0008.md)" in block  # control: its neighbours stay
    index = (layer.path / "MEMORY.md").read_text()
    assert index == _full_render(isolated_home, project) and index.count("\n") == SIZE
    actions = {e.name: e.action for e in layer.journal.events() if e.name in ("hand-added", "seed-0009")}
    assert actions == {"hand-added": "external-edit", "seed-0009": "external-delete"}


@pytest.mark.slow
def test_a_touch_of_every_file_is_hashed_once_parsed_never(isolated_home, project, tmp_path, monkeypatch):
    monkeypatch.setenv("MEMDIR_SWEEP_INTERVAL", "0")  # the context sweeps the stat keys now, not in 30 s
    mem = seeded(isolated_home, project, SIZE)
    layer = mem.session.layer("project")
    before, events = (layer.path / "MEMORY.md").read_text(), len(list(layer.journal.events()))
    time.sleep(0.1)  # a change within the clock tick of the stamp's own ctime is not told from it (index_is_fresh)
    for path in layer.path.glob("seed-*.md"):
        os.utime(path)  # every ctime moves, no byte changes
    time.sleep(2.1)  # past the clock tick of the touch: the keys the sweep records are trusted (RACY_NS)
    block, counts = _context(tmp_path, project)
    # Before: every file read and parsed. Now: read and hashed once, found as the manifest records it.
    assert counts["parsed"] == [] and counts["read"] == sorted(f"seed-{i:04d}" for i in range(SIZE))
    assert "seeded fact 0" in block and (layer.path / "MEMORY.md").read_text() == before
    assert len(list(layer.journal.events())) == events  # nothing to journal
    _block, counts = _context(tmp_path, project)
    assert counts == {"parsed": [], "read": []}  # and then fresh again
    # Control: a real edit among the touched files is still seen, and parsed.
    _replace(layer.path / "seed-0003.md", "seeded fact 3", "seeded fact 3, corrected")
    block, counts = _context(tmp_path, project)
    assert counts["parsed"] == ["seed-0003"] and "seeded fact 3, corrected" in block


@pytest.mark.slow
def test_a_file_written_just_before_the_save_is_read_once_then_trusted(isolated_home, project, monkeypatch):
    from tests.seeded import counted_reads

    seeded(isolated_home, project, SIZE)
    Memory.open(home=isolated_home, project=project, actor="agent").write(
        "just-written", "a fact written a moment ago", "project", "Fresh.")  # its manifest row: racy (RACY_NS)
    time.sleep(2.1)
    read = counted_reads(monkeypatch)
    first = Memory.open(home=isolated_home, project=project).session.layer("project")
    assert "just-written" in first.scan().names
    # Its bytes hashed by the scan, the digest compared with the manifest's by the racy check, in this reader only
    # (before: in every reader; and read a second time by the racy check until left23).
    assert read == ["just-written"]
    read.clear()
    again = Memory.open(home=isolated_home, project=project).session.layer("project")
    assert "just-written" in again.scan().names and "seed-0001" in again.scan().names
    assert read == []  # then trusted by its stat key
    # Control: an edit of it in place, same size, is still seen and taken up.
    path = again.path / "just-written.md"
    path.write_text(path.read_text().replace("Fresh.", "FRESH"))
    other = Memory.open(home=isolated_home, project=project).session.layer("project")
    assert other.scan().entries["just-written"].record.body.strip() == "FRESH"
    assert [e.action for e in other.journal.events() if e.name == "just-written"][-1] == "external-edit"
