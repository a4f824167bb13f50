"""A lifted tombstone put back (by a sync bringing ``tombstones.json`` as it was, the journal naming it) hides its
memory again, round after round, on a layer above the 500-file sweep threshold (its readers judge by the
tombstones' key, :func:`memdir.files.layout.stones_key`). Before: the first transaction after the put-back gave
``tombstones.json`` the journal's mtime (:func:`memdir.layer.drift.settle_tombstones`), the very key the lift had
been judged with, and from the second round on the lift's verdicts were trusted — the forgotten memory stayed in
``MEMORY.md``, ``list``, search and the context block (stones21). The key is now the file's ctime."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from memdir.files.sweeps import SWEEP_ALWAYS_MAX
from tests.layer.test_held_moved import NOTES, _run
from tests.operations.test_held_back import (
    FORGOTTEN,
    KEPT,
    _rewrite,
    forgotten_after_a_backup,
)

EXTRA = SWEEP_ALWAYS_MAX + 4  # notes written by hand: the layer is a large one, its sweep may wait


def _store(person, tmp_path) -> tuple[Path, Path, Path, bytes, Path]:
    """Six notes written, 504 more by hand, ci and db-port, db-port forgotten and its file copied back (held
    back), settled by a fresh process's context and search; ``(home, root, tombstones.json, its bytes, layer)``."""
    for i, name in enumerate(NOTES):
        person.write(name, f"Release train {i} leaves on day {i}", "project", scope="project")
    layer = person.session.layer("project")
    model = (layer.path / "note-0.md").read_text(encoding="utf-8")
    for i in range(EXTRA):
        (layer.path / f"hand-{i}.md").write_text(model.replace("note-0", f"hand-{i}").replace(
            "Release train 0 leaves on day 0", f"Hand note {i} about the weekly sync"), encoding="utf-8")
    _, saved = forgotten_after_a_backup(person, tmp_path)
    (layer.path / "db-port.md").write_bytes(saved.read_bytes())
    home, root = person.session.home_path, person.session.root_path
    settled = _run(home, root, "context")
    assert "(db-port.md)" not in settled["index"] and "(ci.md)" in settled["index"] and "(hand-3.md)" in settled["index"]
    assert _run(home, root, "context")["parsed"] == []  # settled: the next reader judges nothing
    stones = layer.meta / "tombstones.json"
    return home, root, stones, stones.read_bytes(), layer.path


def _lift(home: Path, root: Path) -> None:
    """db-port's tombstone lifted in another process (nothing read after)."""
    script = ("import sys\nfrom memdir import Memory\nmem = Memory.open(home=sys.argv[1], project=sys.argv[2], "
              "actor='human')\n[s] = [s for s in mem.tombstones(scope='project').tombstones if s.name == 'db-port']\n"
              "mem.lift_tombstone(s.id, scope='project')\n")
    done = subprocess.run([sys.executable, "-c", script, str(home), str(root)], capture_output=True, text=True,
                          timeout=120, check=False, env={**os.environ, "MEMDIR_SWEEP_INTERVAL": "3600"})
    assert done.returncode == 0, done.stderr


def _read_ci(home: Path, root: Path) -> None:
    """``memdir read ci`` in a fresh process: the first reader after the put-back."""
    done = subprocess.run([sys.executable, "-m", "memdir.cli", "--project", str(root), "read", "ci"],
                          capture_output=True, text=True, timeout=120, check=False, cwd=str(root),
                          env={**os.environ, "MEMDIR_HOME": str(home), "MEMDIR_SWEEP_INTERVAL": "3600",
                               "MEMDIR_SEARCH_VECTORS": "off"})
    assert done.returncode == 0 and KEPT in done.stdout, done.stderr


def test_a_tombstone_put_back_after_a_judged_lift_hides_its_memory_every_round(person, tmp_path):
    home, root, stones, with_stone, _ = _store(person, tmp_path)
    for _round in range(3):
        _lift(home, root)
        seen = _run(home, root, "context")  # the lift judged: its key recorded
        assert "(db-port.md)" in seen["index"] and FORGOTTEN in seen["context"]  # control: lifted, it is back
        _rewrite(stones, with_stone)
        _read_ci(home, root)
        seen = _run(home, root, "context")
        assert "(db-port.md)" not in seen["index"] and "db-port" not in seen["listed"], _round
        assert "db-port" not in seen["found"] and FORGOTTEN not in seen["context"], _round
        assert "(ci.md)" in seen["index"] and "ci" in seen["listed"] and KEPT in seen["context"]  # control
