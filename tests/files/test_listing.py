"""After a ``touch`` of a layer directory, or a memory file replaced by hand as ``sed -i`` writes it (a new inode:
the directory's mtime moves), a fresh hot path lists the layer instead of stat'ing each of its files (issue 28
item 7; :meth:`memdir.layer.layer.Layer.listing_stands_in`): only the file whose inode moved is stat'ed and read.
Before: every file stat'ed by each path (at 300 memories: 300 by the context block and SessionStart, 300 by the
prompt hook, 609 by a CLI write). Counted in real fresh processes (tests/counted.py), each with its control."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time

import pytest

from tests.counted import COUNTING
from tests.files.test_sweeps import HOT, _settle
from tests.seeded import seeded

LARGE = 5  # SWEEP_ALWAYS_MAX in the fresh processes: the seeded layer is a large one
SIZE = 300


def _run(layer_dir, project, *, hook: str = "", prompt: str = "", argv=(), interval: str = "3600"):
    """One entry point in a fresh process (tests/files/test_sweeps.py's HOT): (stdout, counts)."""
    stdin = json.dumps({"session_id": "s1", "cwd": str(project), "hook_event_name": hook, "prompt": prompt,
                        "source": "startup"}) if hook else ""
    code = HOT.format(large=LARGE, layer=str(layer_dir), counting=COUNTING, stdin=stdin, hook=hook, argv=list(argv))
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300, check=False,
                          env={**os.environ, "MEMDIR_SWEEP_INTERVAL": interval, "MEMDIR_SEARCH_VECTORS": "off"})
    assert done.returncode == 0, done.stderr
    return done.stdout, json.loads(done.stderr.strip().splitlines()[-1])


@pytest.fixture
def large(isolated_home, project):
    """A project layer of :data:`SIZE` memories, adopted, its search index built, swept within the interval."""
    mem = seeded(isolated_home, project, SIZE)
    layer = mem.session.layer("project")
    _run(layer.path, project, hook="UserPromptSubmit", prompt="seeded fact")  # the search index built
    _settle(layer.meta)
    return mem, layer


def _replace(path, old: str, new: str) -> None:
    """Edit ``path`` as ``sed -i`` does: a new file renamed over it (a new inode; the directory's mtime moves)."""
    inode = path.stat().st_ino
    temp = path.with_name(f".{path.name}.sed")
    temp.write_text(path.read_text(encoding="utf-8").replace(old, new), encoding="utf-8")
    os.replace(temp, path)
    assert path.stat().st_ino != inode


@pytest.mark.slow
def test_a_touch_of_the_layer_costs_no_stat_of_a_memory_file_on_any_hot_path(isolated_home, project, large):
    _mem, layer = large
    context = ["--project", str(project), "context"]
    for step, kw in (("context", {"argv": context}), ("SessionStart", {"hook": "SessionStart"}),
                     ("prompt", {"hook": "UserPromptSubmit", "prompt": "what is seeded fact 17 about"}),
                     ("write", {"argv": ["--project", str(project), "write", "after-touch", "-d", "written after a touch",
                                         "-b", "body"]})):
        time.sleep(0.02)
        os.utime(layer.path)  # the directory's mtime moves; no file changed
        out, counts = _run(layer.path, project, **kw)
        if step == "write":  # only the file it writes (before: 609 stats, every file twice)
            assert counts == {"stats": ["after-touch.md"], "parsed": []}, counts
        else:  # before: every one of the 300 files stat'ed
            assert counts == {"stats": [], "parsed": []}, (step, counts)
        if step in ("context", "SessionStart"):
            assert "(seed-0031.md) — seeded fact 31" in out  # control: the block is there
        if step == "prompt":
            assert "seed-0017" in out
        _settle(layer.meta)
    assert "(after-touch.md) — written after a touch" in (layer.path / "MEMORY.md").read_text(encoding="utf-8")


@pytest.mark.slow
def test_a_file_replaced_by_hand_is_the_one_file_read_and_its_new_text_is_seen(isolated_home, project, large):
    mem, layer = large
    _replace(layer.path / "seed-0042.md", "seeded fact 42", "fact 42 replaced at the wombat gate")
    out, counts = _run(layer.path, project, argv=["--project", str(project), "context"])
    assert counts == {"stats": ["seed-0042.md"], "parsed": ["seed-0042"]}  # before: 300 stats
    assert "(seed-0042.md) — fact 42 replaced at the wombat gate" in out  # control: its new text
    assert "(seed-0043.md) — seeded fact 43" in out
    assert [v.action for v in mem.history("seed-0042").versions] == ["external-edit", "external-edit"]
    assert [v.action for v in mem.history("seed-0043").versions] == ["external-edit"]  # control: one version
    _settle(layer.meta)
    # The prompt hook: the search index brought in step by listing the layer; the files read are the one replaced
    # now and the one the context block took up (not in the search index yet).
    _replace(layer.path / "seed-0077.md", "seeded fact 77", "fact 77 replaced at the quokka desk")
    out, counts = _run(layer.path, project, hook="UserPromptSubmit", prompt="the quokka desk")
    assert counts["stats"] == ["seed-0042.md", "seed-0077.md"], counts  # before: 300 stats, 3 times over
    assert sorted(counts["parsed"]) == ["seed-0042", "seed-0077"], counts
    assert "fact 77 replaced at the quokka desk" in out and "seed-0042" not in out
    _settle(layer.meta)
    # A file added, one removed and one renamed by hand: each seen, the others not stat'ed.
    (layer.path / "hand-added.md").write_text(
        "---\nname: hand-added\ndescription: the zanzibar relay added by hand\ntype: project\n---\n\nzanzibar\n")
    (layer.path / "seed-0005.md").unlink()
    os.rename(layer.path / "seed-0006.md", layer.path / "seed-renamed.md")
    out, counts = _run(layer.path, project, hook="SessionStart")
    # stat'ed: the two files new under their names, and the two replaced moments ago (their rows kept racy:
    # manifest.RACY_NS), none of those read again; no other
    assert {"hand-added.md", "seed-renamed.md"} <= set(counts["stats"]) <= {
        "hand-added.md", "seed-renamed.md", "seed-0042.md", "seed-0077.md"}, counts
    assert sorted(counts["parsed"]) == ["hand-added", "seed-renamed"]
    assert "(hand-added.md) — the zanzibar relay added by hand" in out
    index = (layer.path / "MEMORY.md").read_text(encoding="utf-8")
    assert "(hand-added.md) — the zanzibar relay added by hand" in index
    assert "(seed-0005.md)" not in index and "(seed-0006.md)" not in index
    assert "- [seed-renamed](seed-renamed.md) — seeded fact 6\n" in index
    assert "- [seed-0007](seed-0007.md) — seeded fact 7\n" in index  # control: the others as they were
    assert [v.action for v in mem.history("seed-0005").versions] == ["external-edit", "external-delete"]
    _settle(layer.meta)


@pytest.mark.slow
def test_an_edit_in_place_after_a_touch_waits_for_the_sweep_as_before(isolated_home, project, large):
    _mem, layer = large
    path = layer.path / "seed-0009.md"
    inode = path.stat().st_ino
    text = path.read_text(encoding="utf-8").replace("seeded fact 9", "fact 9 edited in place by a person")
    with open(path, "r+", encoding="utf-8") as handle:  # in place: same inode
        handle.write(text)
        handle.truncate()
    assert path.stat().st_ino == inode
    os.utime(layer.path)
    out, counts = _run(layer.path, project, argv=["--project", str(project), "context"])
    assert counts == {"stats": [], "parsed": []}  # a listing: the edit in place is not seen yet
    assert "(seed-0009.md) — seeded fact 9" in out
    # Past the interval the hook hands the sweep off; the sweeper (a sweep, every file stat'ed) takes it up.
    _out, counts = _run(layer.path, project, hook="SessionStart", interval="0")
    assert counts == {"stats": [], "parsed": []}
    _settle(layer.meta)
    index = (layer.path / "MEMORY.md").read_text(encoding="utf-8")
    assert "(seed-0009.md) — fact 9 edited in place by a person" in index
    assert "(seed-0010.md) — seeded fact 10" in index  # control
    out, _counts = _run(layer.path, project, hook="UserPromptSubmit", prompt="edited in place by a person")
    assert "fact 9 edited in place by a person" in out
