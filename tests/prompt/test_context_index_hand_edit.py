"""A hand edit of ``MEMORY.md`` costs the next fresh process no read of the memory files (issue 28 §7, break44b).

``MEMORY.md`` is derived: a hand edit is kept aside and the file written again. Its lines were taken from the
manifest only while the file was the one they were saved with; after a hand edit every memory file was read and
parsed to render it again — at 10,000 memories the first ``memdir context`` (and SessionStart) after
``echo note >> MEMORY.md`` took 28 s, the next one 0.1 s. Now the manifest's lines stand for the file whatever
it holds (:attr:`memdir.layer.manifest.Saved.index_edited`). Counted in the real fresh process: every
``memdir.files.scan.parse`` of a memory file, through a wrapper (tests/counted.py)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time

from tests.counted import told_then_run
from tests.seeded import seeded

PARSES = """
import atexit, json, os, runpy, sys
from memdir.files import scan
parsed, real_parse = [], scan.parse
scan.parse = lambda text, stem: parsed.append(stem) or real_parse(text, stem)
""" + told_then_run("parsed")


def _context(tmp_path, project) -> tuple[subprocess.CompletedProcess, list[str]]:
    counts = tmp_path / f"parsed-{time.monotonic_ns()}.jsonl"
    done = subprocess.run([sys.executable, "-c", PARSES, "memdir", "--project", str(project), "context"],
                          capture_output=True, text=True, timeout=120, env=dict(os.environ, COUNTS_TO=str(counts)),
                          check=False)
    assert done.returncode == 0, done.stderr
    return done, json.loads(counts.read_text().splitlines()[-1])


def test_a_hand_edit_of_memory_md_is_written_again_from_the_manifest_with_no_memory_parsed(tmp_path, monkeypatch):
    home, project = tmp_path / "home", tmp_path / "proj"
    (project / ".git").mkdir(parents=True)
    monkeypatch.setenv("MEMDIR_HOME", str(home))
    mem = seeded(home, project, 40)
    layer = mem.session.layer("project")
    index = layer.path / "MEMORY.md"
    written = index.read_text(encoding="utf-8")
    before, parsed = _context(tmp_path, project)
    assert parsed == []  # nothing changed: nothing parsed
    time.sleep(0.05)  # past the clock tick of memdir's own write and stamp
    with open(index, "a", encoding="utf-8") as out:
        out.write("- a line a person typed\n")
    done, parsed = _context(tmp_path, project)
    assert parsed == []  # before: all 40 memory files parsed to write MEMORY.md again
    assert index.read_text(encoding="utf-8") == written  # the lines memdir wrote, from the manifest
    kept = sorted((layer.path / ".memdir").glob("MEMORY.md.edited-*"))
    assert len(kept) == 1 and kept[0].read_text(encoding="utf-8") == written + "- a line a person typed\n"
    assert "MEMORY.md was edited by hand; it is made from the memory files and was written again" in done.stderr
    assert done.stdout == before.stdout  # the same block
    # control: a memory file edited by hand (a new inode, as sed -i writes it) is parsed, and its line moves
    seed = layer.path / "seed-0007.md"
    text = seed.read_text(encoding="utf-8").replace("seeded fact 7", "edited fact 7")
    seed.with_name(".seed-0007.md.edit").write_text(text, encoding="utf-8")
    os.replace(seed.with_name(".seed-0007.md.edit"), seed)
    with open(index, "a", encoding="utf-8") as out:
        out.write("- another line\n")
    done, parsed = _context(tmp_path, project)
    assert parsed == ["seed-0007"]  # that file alone
    assert "- [seed-0007](seed-0007.md) — edited fact 7" in index.read_text(encoding="utf-8")
    assert "another line" not in index.read_text(encoding="utf-8")
    assert "(seed-0007.md) — edited fact 7" in done.stdout
