"""A large layer's overdue sweep is never done on the path of a hook or a CLI command (issue 28 item 7,
:mod:`memdir.files.sweeps`): the fresh process stats and parses no file that did not change and
hands the sweep to a detached sweeper, which takes an in-place hand edit up; a file added by hand is
still seen at once (the directory's mtime)."""

from __future__ import annotations

import fcntl
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from memdir.files import sweeps
from memdir.files.layout import SWEEP_LOCK_FILE
from tests.counted import COUNTING
from tests.seeded import seeded

LARGE = 5  # SWEEP_ALWAYS_MAX in the fresh processes below: the seeded layer of 40 files is a large one
SIZE = 40

# A fresh process running one entry point (the hook's or the CLI's main) with the sweep threshold
# lowered, counting every stat of a memory file of the project layer and every parse; the counts go
# to stderr as one JSON line.
HOT = """
import io, json, os, sys
from memdir.files import scan, sweeps
sweeps.SWEEP_ALWAYS_MAX = {large}
layer_dir = {layer!r}
{counting}
count()
sys.stdin = io.StringIO({stdin!r})
if {hook!r}:
    from memdir.integrations.claude_code.hooks import main
    main(['claude-code', {hook!r}])
else:
    from memdir.integrations.cli.main import main
    main({argv!r})
print(json.dumps({{"stats": sorted(set(stats)), "parsed": parsed}}), file=sys.stderr)
"""


def _hot(layer_dir: Path, project: Path, *, hook: str = "", prompt: str = "", argv=(), interval: str = "0"):
    """Run one entry point in a fresh process (see :data:`HOT`); returns (stdout, counts)."""
    stdin = json.dumps({"session_id": "s1", "cwd": str(project), "hook_event_name": hook, "prompt": prompt,
                        "source": "startup"}) if hook else ""
    code = HOT.format(large=LARGE, layer=str(layer_dir), counting=COUNTING, stdin=stdin, hook=hook, argv=list(argv))
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                          env={**os.environ, "MEMDIR_SWEEP_INTERVAL": interval, "MEMDIR_SEARCH_VECTORS": "off"})
    counts = json.loads(done.stderr.strip().splitlines()[-1])
    return done.stdout, counts


def _settle(meta: Path, timeout: float = 60.0) -> float:
    """Wait until no sweeper holds the layer's sweep lock; the seconds waited."""
    started = time.monotonic()
    lock = meta / SWEEP_LOCK_FILE
    if not lock.exists():
        return 0.0
    fd = os.open(lock, os.O_RDWR)
    try:
        while time.monotonic() - started < timeout:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                fcntl.flock(fd, fcntl.LOCK_UN)
                break
            except OSError:
                time.sleep(0.05)
    finally:
        os.close(fd)
    return time.monotonic() - started


@pytest.fixture
def large(isolated_home, project):
    """A project layer of :data:`SIZE` memories, adopted, its search index built, every file's
    stat key trusted; then the interval has passed (``MEMDIR_SWEEP_INTERVAL=0`` in each process)."""
    mem = seeded(isolated_home, project, SIZE)
    layer = mem.session.layer("project")
    _hot(layer.path, project, hook="UserPromptSubmit", prompt="seeded fact", interval="3600")  # index built
    _settle(layer.meta)
    return mem, layer


@pytest.mark.slow
def test_past_the_interval_a_fresh_hook_or_write_stats_no_unchanged_file(isolated_home, project, large):
    mem, layer = large
    out, counts = _hot(layer.path, project, hook="UserPromptSubmit", prompt="what is seeded fact 17 about")
    assert counts == {"stats": [], "parsed": []}  # before: every one of the 40 files stat'ed, by two readers
    assert "seed-0017" in out  # control: the recall block answers from the index
    _settle(layer.meta)
    out, counts = _hot(layer.path, project, hook="SessionStart")
    assert counts == {"stats": [], "parsed": []} and "(seed-0031.md) — seeded fact 31" in out
    _settle(layer.meta)
    out, counts = _hot(layer.path, project, argv=["--project", str(project), "context"])
    assert counts == {"stats": [], "parsed": []} and "(seed-0005.md) — seeded fact 5" in out
    _settle(layer.meta)
    _out, counts = _hot(layer.path, project, argv=["--project", str(project), "write", "fresh-note", "-d",
                                                  "written past the interval", "-b", "body"])
    assert counts["parsed"] == [] and counts["stats"] == ["fresh-note.md"]  # only the file it writes
    _settle(layer.meta)
    assert "(fresh-note.md) — written past the interval" in (layer.path / "MEMORY.md").read_text()
    # Control: the library (no hand-off) past the interval stats every file itself, as before.
    library = HOT.replace("from memdir.integrations.cli.main import main\n    main({argv!r})",
                          f"from memdir import Memory\n    Memory.open(project={str(project)!r}).search('seeded')")
    done = subprocess.run([sys.executable, "-c", library.format(large=LARGE, layer=str(layer.path), counting=COUNTING, stdin="", hook="")],
                          capture_output=True, text=True, timeout=120,
                          env={**os.environ, "MEMDIR_SWEEP_INTERVAL": "0", "MEMDIR_SEARCH_VECTORS": "off"})
    assert len(json.loads(done.stderr.strip().splitlines()[-1])["stats"]) == SIZE + 1, done.stderr


@pytest.mark.slow
def test_a_file_added_by_hand_past_the_interval_is_seen_at_once(isolated_home, project, large):
    mem, layer = large
    (layer.path / "hand-added.md").write_text(
        "---\nname: hand-added\ndescription: the zanzibar relay added by hand\ntype: project\n---\n\nzanzibar\n")
    out, _counts = _hot(layer.path, project, argv=["--project", str(project), "context"])
    assert "(hand-added.md) — the zanzibar relay added by hand" in out
    assert "(seed-0003.md) — seeded fact 3" in out  # control: the rest still there
    _settle(layer.meta)
    out, _counts = _hot(layer.path, project, hook="UserPromptSubmit", prompt="where is the zanzibar relay")
    assert "hand-added" in out and "seed-0003" not in out
    _settle(layer.meta)


@pytest.mark.slow
def test_an_in_place_hand_edit_is_taken_up_by_the_detached_sweeper(isolated_home, project, large):
    mem, layer = large
    path = layer.path / "seed-0007.md"
    inode = path.stat().st_ino
    text = path.read_text().replace("seeded fact 7", "fact 7 fixed by hand at the quokka desk")
    with open(path, "r+", encoding="utf-8") as handle:  # in place: the directory's mtime does not move
        handle.write(text)
        handle.truncate()
    assert path.stat().st_ino == inode
    started = time.monotonic()
    _out, counts = _hot(layer.path, project, hook="SessionStart")
    assert counts == {"stats": [], "parsed": []}  # the prompt waits for no sweep
    waited = time.monotonic() - started + _settle(layer.meta)
    assert waited < 30  # the sweeper ran and is done, well within a bound
    index = (layer.path / "MEMORY.md").read_text()
    assert "(seed-0007.md) — fact 7 fixed by hand at the quokka desk" in index
    assert "(seed-0008.md) — seeded fact 8" in index  # control: the others as they were
    # The search index was brought in step too: a fresh hook within the interval finds the edit, sweeping nothing
    # (the body shown is the index's).
    out, counts = _hot(layer.path, project, hook="UserPromptSubmit", prompt="the quokka desk", interval="3600")
    assert "fact 7 fixed by hand at the quokka desk" in out and counts == {"stats": [], "parsed": []}
    assert [v.action for v in mem.history("seed-0007").versions] == ["external-edit", "external-edit"]
    assert [v.action for v in mem.history("seed-0008").versions] == ["external-edit"]  # control: one version


def test_one_sweeper_at_a_time_and_not_again_within_the_interval(tmp_path, monkeypatch):
    meta = tmp_path / "layer" / ".memdir"
    meta.mkdir(parents=True)
    spawned = []
    monkeypatch.setattr(os, "posix_spawn", lambda exe, argv, env, **kw: spawned.append(argv) or 4242)
    monkeypatch.setattr(sweeps, "_handed", {})
    monkeypatch.setenv("MEMDIR_SWEEP_INTERVAL", "3600")
    fd = os.open(meta / SWEEP_LOCK_FILE, os.O_RDWR | os.O_CREAT, 0o600)
    fcntl.flock(fd, fcntl.LOCK_EX)  # a sweeper holds it
    try:
        assert sweeps.hand_off(tmp_path, "user", None, meta) is True and spawned == []
    finally:
        os.close(fd)
    monkeypatch.setattr(sweeps, "_handed", {})
    assert sweeps.hand_off(tmp_path, "user", None, meta) is True
    assert len(spawned) == 1 and spawned[0][-3:] == [str(tmp_path), "user", ""]  # control: none held it
    assert (meta / SWEEP_LOCK_FILE).read_text() == "4242\n"
    monkeypatch.setattr(sweeps, "_handed", {})
    assert sweeps.hand_off(tmp_path, "user", None, meta) is True and len(spawned) == 1  # started lately
    monkeypatch.setenv("MEMDIR_SWEEP_INTERVAL", "0")
    monkeypatch.setattr(sweeps, "_handed", {})
    assert sweeps.hand_off(tmp_path, "user", None, meta) is True and len(spawned) == 2  # the interval passed


def test_a_small_layer_is_swept_where_it_is(tmp_path, monkeypatch):
    layer = tmp_path / "layer"
    (layer / ".memdir").mkdir(parents=True)
    spawned = []
    monkeypatch.setattr(sweeps, "hand_off", lambda *a: spawned.append(a) or True)
    monkeypatch.setattr(sweeps, "SWEEP_ALWAYS_MAX", 3)
    for i in range(3):
        (layer / f"m{i}.md").write_text("x")
    (layer / "MEMORY.md").write_text("x")  # not a memory file
    assert sweeps.hand_off_if_large(layer, tmp_path, "user", None, layer / ".memdir") is False and spawned == []
    (layer / "m3.md").write_text("x")
    assert sweeps.hand_off_if_large(layer, tmp_path, "user", None, layer / ".memdir") is True  # control: large
    assert len(spawned) == 1
