"""An unscoped forget reads, of another layer's files, only those the search index cannot rule out (keep32).

:func:`memdir.gateway.deletion.holders_of` looks in the session's other layers for a memory holding the forgotten
value (a value another memory holds is not tombstoned). It read the bytes of every file there (8,000 hand-placed
user files: ≈ 6 s on a loaded machine) to sieve them by the runs every matching value holds
(:func:`memdir.tombstones.match.needed_runs`). The index holds each memory's text under its file's stat key: a
file whose key is unchanged and whose text lacks a run is now passed over unopened; every other file is read and
judged on its bytes (the file is the truth: one edited by hand since it was indexed is read). Files opened are
seen by an audit hook (``open``) in a real fresh ``python -m memdir`` process."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path

from memdir.layer.manifest import RACY_NS
from tests.counted import HAND_NOTE

HAND = 60
NOTE = HAND_NOTE
WRAPPER = """import atexit, json, os, runpy, sys
layer_dir, opened = os.environ['LAYER_DIR'], []
real_open = open
def seen(event, args):
    if event == 'open' and isinstance(args[0], (str, bytes, os.PathLike)):
        path = os.fsdecode(args[0])
        if os.path.dirname(path) == layer_dir and path.endswith('.md') and not path.endswith('MEMORY.md'):
            opened.append(os.path.basename(path)[:-3])
sys.addaudithook(seen)
pid = os.getpid()
atexit.register(lambda: os.getpid() == pid and real_open(os.environ['COUNTS_TO'], 'a').write(json.dumps(opened) + '\\n'))
sys.argv = sys.argv[1:]
runpy.run_module(sys.argv[0], run_name='__main__', alter_sys=True)
"""


def _memdir(env: dict, *args: str) -> tuple[subprocess.CompletedProcess, list[str]]:
    """``python -m memdir args`` in a fresh process: the result and the hand notes whose files it opened."""
    counts = Path(env["COUNTS_TO"])
    counts.unlink(missing_ok=True)
    done = subprocess.run([sys.executable, "-c", WRAPPER, "memdir", *args], capture_output=True, text=True,
                          timeout=300, env=env, check=False)
    opened = json.loads(counts.read_text().splitlines()[-1]) if counts.exists() else []
    return done, sorted({stem for stem in opened if stem.startswith("hand-note-")})


def _seed(tmp_path: Path) -> tuple[dict, Path]:
    (tmp_path / "project").mkdir()
    home = tmp_path / "home"
    env = dict(os.environ, MEMDIR_HOME=str(home), MEMDIR_PROJECT=str(tmp_path / "project"),
               MEMDIR_SEARCH_VECTORS="off", LAYER_DIR=str(home / "_user"), COUNTS_TO=str(tmp_path / "opened.jsonl"))
    for name, scope, description in (("seed", "user", "the seed memory"),
                                     ("lone", "project", "the lone project fact"),
                                     ("dup", "project", "hand note 7 on topic 0")):
        done, _ = _memdir(env, "write", name, "-d", description, "-t", scope, "--scope", scope,
                          "--body", "Note 7: copied in by hand." if name == "dup" else f"{name} body")
        assert done.returncode == 0, done.stderr
    user = home / "_user"
    for i in range(HAND):
        (user / f"hand-note-{i:03d}.md").write_text(NOTE.format(name=f"hand-note-{i:03d}", i=i, t=i % 7),
                                                    encoding="utf-8")
    # a file changed within RACY_NS of an index's save is kept there with no stat key (read again, as in git):
    # the hand files settle first, so the index the tests build holds their keys
    time.sleep(RACY_NS / 1e9 + 0.2)
    return env, user


def _holds_all(i: int, words: tuple[str, ...]) -> bool:
    """Whether hand note ``i``'s name, description and body, letters and digits run together, hold each of
    ``words``."""
    text = re.sub(r"[^a-z0-9]", "", f"hand-note-{i:03d} hand note {i} on topic {i % 7} Note {i}: copied in by hand.")
    return all(word in text for word in words)


def test_an_indexed_layer_is_read_only_where_its_texts_may_hold_the_value(tmp_path):
    env, _user = _seed(tmp_path)
    done, opened = _memdir(env, "forget", "lone")
    assert "Forgot memory: lone (project). Its value is tombstoned" in done.stdout, done.stderr
    assert len(opened) == HAND  # not indexed yet: every hand file is read (the bytes sieve, as before)
    done, _ = _memdir(env, "search", "hand note")  # the index takes them in, as the session's next prompt does
    assert done.returncode == 0, done.stderr
    done, _ = _memdir(env, "write", "lone2", "-d", "the other lone project fact", "-t", "project", "--scope",
                      "project", "--body", "lone2 body")
    assert done.returncode == 0, done.stderr
    done, opened = _memdir(env, "forget", "lone2")
    assert "Forgot memory: lone2 (project). Its value is tombstoned" in done.stdout, done.stderr
    assert opened == []  # before: all 60
    done, opened = _memdir(env, "forget", "dup")
    assert ("Forgot memory: dup (project). Its value is not tombstoned: the memory 'hand-note-007' (user) holds "
            "it too.") in done.stdout, done.stderr
    # read: the files whose indexed text holds every run of "hand note 7 on topic 0" (its content words)
    assert opened == [f"hand-note-{i:03d}" for i in range(HAND) if _holds_all(i, ("hand", "note", "7", "topic", "0"))]
    assert "hand-note-007" in opened and "hand-note-011" not in opened and len(opened) < HAND


def test_a_file_edited_since_it_was_indexed_is_judged_on_its_bytes(tmp_path):
    env, user = _seed(tmp_path)
    done, _ = _memdir(env, "search", "hand note")
    assert done.returncode == 0, done.stderr
    # by hand, after the index read it: its indexed text lacks the value, its bytes hold it
    path = user / "hand-note-033.md"
    path.write_text(path.read_text(encoding="utf-8").replace("hand note 33 on topic 5", "zebras graze at dawn"),
                    encoding="utf-8")
    done, _ = _memdir(env, "write", "zeb", "-d", "zebras graze at dawn", "-t", "project", "--scope", "project",
                      "--body", "Note 33: copied in by hand.")
    assert done.returncode == 0, done.stderr
    done, opened = _memdir(env, "forget", "zeb")
    assert ("Forgot memory: zeb (project). Its value is not tombstoned: the memory 'hand-note-033' (user) holds "
            "it too.") in done.stdout, done.stderr
    assert opened == ["hand-note-033"]  # the one file whose stat is not the indexed one; the rest ruled out unread
    # control: where no file holds the value, it is tombstoned, and no hand file is read
    done, _ = _memdir(env, "write", "yak", "-d", "yaks graze at dusk", "-t", "project", "--scope", "project",
                      "--body", "yak body")
    done, opened = _memdir(env, "forget", "yak")
    assert "Forgot memory: yak (project). Its value is tombstoned" in done.stdout, done.stderr
    assert opened == ["hand-note-033"]  # still changed since indexed: read, and ruled out on its bytes
