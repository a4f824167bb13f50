"""A hand change a fresh hot path sees at once stays seen at once (issue 28 item 7's guard; break45b's findings
against scan45, a listing by name and inode standing in for the stat of every file, reverted by c0250896).

When a layer directory's mtime moved since the last transaction, every hot path (``memdir context``, SessionStart,
the prompt hook, a CLI write) looks at every memory file's stat key today, so each of these is seen by the very next
fresh process — a faster path must keep that:

1. a file edited in place (same inode, same size: only its ctime tells) while a sibling file added by hand moves
   the directory's mtime (scan45: ~10 s stale, until the sweep);
2. a file replaced as ``sed -i`` writes it (a new inode) while two other processes write the layer in a loop
   (scan45: ~12 s stale, 2 runs of 3);
3. a file deleted and written again under its name, given the inode it freed (ext4 reuses it): same name, same
   inode, same size (scan45: stale until the sweep).

Each in real fresh processes on a large layer (the sweep threshold lowered, the sweep interval an hour: no sweep
is due, so nothing but the hot path's own look can see the change), each with its control (a memory not changed
shown as it was, and the sibling's change).

What these rule out (scan46): any look that skips the stat of a file whose name and inode are as recorded fails 1
on every path — the file edited in place keeps both, and its recorded row is older than any earlier stamp, so
neither "a new name or inode" nor "a row not strictly older than the previous stamp" (git's racily-clean rule,
which still ``lstat``s every entry) picks it out; only its ctime tells, and only a stat reads a ctime. So while
the directory's mtime moved, every file is stat'ed, as on main; cheaper looks must cut the cost per file, not the
files looked at."""

from __future__ import annotations

import os
import subprocess
import sys
import time

import pytest

from tests.files.test_sweeps import _hot, _settle
from tests.seeded import seeded

SIZE = 40  # over the lowered SWEEP_ALWAYS_MAX of test_sweeps' HOT (5): a large layer

PATHS = ("context", "SessionStart", "UserPromptSubmit", "write")


@pytest.fixture
def large(isolated_home, project):
    """A project layer of :data:`SIZE` memories, adopted, its search index built, swept within the interval."""
    mem = seeded(isolated_home, project, SIZE)
    layer = mem.session.layer("project")
    _hot(layer.path, project, hook="UserPromptSubmit", prompt="seeded fact", interval="3600")  # index built
    _settle(layer.meta)
    return mem, layer


def _path(step: str, layer, project, prompt: str) -> str:
    """Run hot path ``step`` in a fresh process (sweep interval an hour); what the person or agent is shown of the
    layer after it: its stdout, or for a write ``MEMORY.md`` (the index the write rebuilt) and the read of it."""
    if step == "write":
        out, _counts = _hot(layer.path, project, interval="3600", argv=[
            "--project", str(project), "write", "written-beside", "-d", "written beside a hand change", "-b", "b"])
        return out + (layer.path / "MEMORY.md").read_text(encoding="utf-8")
    if step == "context":
        out, _counts = _hot(layer.path, project, interval="3600", argv=["--project", str(project), "context"])
        return out
    out, _counts = _hot(layer.path, project, hook=step, prompt=prompt, interval="3600")
    return out


def _same_size(text: str, old: str, new: str) -> str:
    assert len(old) == len(new) and old in text
    return text.replace(old, new)


def _add_sibling(layer, tag: str) -> None:
    (layer.path / f"sibling-{tag}.md").write_text(
        f"---\nname: sibling-{tag}\ndescription: sibling {tag} added by hand\ntype: project\n---\n\nsibling\n",
        encoding="utf-8")


# How a file is changed by hand (cases 1 and 3 of the module docstring): the seeded memory changed and the words
# its fact gets, each the same size as "seeded fact N".
IN_PLACE, FREED_INODE = "edited in place beside a sibling added", "deleted and written again on its freed inode"
CHANGES = {IN_PLACE: (9, "wombat gate"), FREED_INODE: (12, "quokka desk")}


@pytest.mark.slow
@pytest.mark.parametrize("step", PATHS)
@pytest.mark.parametrize("change", tuple(CHANGES))
def test_a_hand_change_keeping_name_and_size_is_seen_at_once(isolated_home, project, large, change, step):
    _mem, layer = large
    number, words = CHANGES[change]
    path = layer.path / f"seed-{number:04d}.md"
    before = path.stat()
    text = _same_size(path.read_text(encoding="utf-8"), f"seeded fact {number}\n", f"{words} {number}\n")
    if change == IN_PLACE:
        with open(path, "w", encoding="utf-8") as handle:  # in place, as python open('w') or an editor saving so does
            handle.write(text)
    else:
        path.unlink()
        path.write_text(text, encoding="utf-8")
    after = path.stat()
    assert after.st_size == before.st_size
    reused = after.st_ino == before.st_ino  # ext4 gives a freed inode back; that case holds either way
    if change == IN_PLACE:
        assert reused  # only the ctime tells
        _add_sibling(layer, "a")  # moves the directory's mtime
    shown = _path(step, layer, project, f"{words} {number}")
    assert f"{words} {number}" in shown, (reused, shown)
    now, was = f"(seed-{number:04d}.md) — {words} {number}", f"(seed-{number:04d}.md) — seeded fact {number}"
    if step != "UserPromptSubmit":
        assert now in shown and was not in shown, shown
        assert f"(seed-{number + 1:04d}.md) — seeded fact {number + 1}" in shown  # control: a memory not changed
        if change == IN_PLACE:
            assert "(sibling-a.md) — sibling a added by hand" in shown  # control: the sibling's change
    elif change == IN_PLACE:
        out = _path("context", layer, project, "")
        assert now in out and f"seeded fact {number}\n" not in out
    _settle(layer.meta)


WRITER = """
import sys
from memdir.integrations.cli.main import main
project, tag, stop = sys.argv[1], sys.argv[2], sys.argv[3]
import os
i = 0
while not os.path.exists(stop):
    try:
        main(['--project', project, 'write', f'loop-{tag}-{i % 4}', '-d', f'loop {tag} write {i}', '-b', f'body {i}'])
    except SystemExit:
        pass
    i += 1
"""


@pytest.mark.slow
def test_a_sed_edit_during_concurrent_cli_writes_is_seen_by_the_next_fresh_process(isolated_home, project, large,
                                                                                   tmp_path):
    _mem, layer = large
    stop = tmp_path / "stop-writers"
    env = {**os.environ, "MEMDIR_SWEEP_INTERVAL": "3600", "MEMDIR_SEARCH_VECTORS": "off"}
    writers = [subprocess.Popen([sys.executable, "-c", WRITER, str(project), tag, str(stop)], env=env,
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL) for tag in ("a", "b")]
    missed = []
    try:
        time.sleep(1.0)  # the loops under way
        for round_ in range(6):
            number = 20 + round_
            path = layer.path / f"seed-{number:04d}.md"
            old, new = f"seeded fact {number}\n", f"sed edit {round_} n{number}\n"
            temp = path.with_name(f".{path.name}.sed")
            temp.write_text(path.read_text(encoding="utf-8").replace(old, new), encoding="utf-8")
            inode = path.stat().st_ino
            os.replace(temp, path)  # as sed -i: a new inode
            assert path.stat().st_ino != inode
            out, _counts = _hot(layer.path, project, interval="3600", argv=["--project", str(project), "context"])
            if f"(seed-{number:04d}.md) — {new.strip()}" not in out:
                missed.append((round_, new.strip()))
            assert "(seed-0003.md) — seeded fact 3" in out  # control: a memory not changed
            time.sleep(0.3)
    finally:
        stop.write_text("stop")
        for writer in writers:
            try:
                writer.wait(timeout=60)
            except subprocess.TimeoutExpired:
                writer.kill()
                writer.wait()
    assert missed == []
    index = (layer.path / "MEMORY.md").read_text(encoding="utf-8")
    assert "(seed-0025.md) — " in index and "seeded fact 25" not in index  # the last edit, kept
    assert any(f"(loop-{tag}-" in index for tag in "ab")  # control: the loops wrote
    _settle(layer.meta)
