"""A sync bringing many tombstones journals them with one fsync, not one per tombstone.

:func:`memdir.gateway.synced.apply` saves the tombstones another machine forgot into ``tombstones.json`` and then
journals one ``sync`` line per tombstone; the lines are written whole, in order, and the journal is fsynced once
for them all (:meth:`memdir.layer.journal.Journal.batched`). Counted in a real fresh process through a wrapper that
counts the real ``os.fsync`` calls on the layer's journal (and, in the fault case, SIGKILLs the process after a
given number of journal lines: whole lines in order, the tombstones whose line never came the state a sync cut
between two lines left before the batch too, which ``memdir verify --repair`` settles).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from tests.counted import JOURNAL_FSYNCS

STONES = 200

CHILD = """
import json, os, signal, sys
""" + JOURNAL_FSYNCS + """from memdir import Memory
from memdir.gateway import synced
from memdir.tombstones.match import make
mem = Memory.open(home=sys.argv[1], project=sys.argv[2], actor="human")
stones = [make(f"gone-{i:03d}", f"forgotten fact number {i}", f"the body of fact {i}", "human", None)
          for i in range(int(sys.argv[3]))]
stones.append(make("forget-me", "the staging db is on port 6001", "use port 6001 for staging", "human", None))
done = synced.apply(mem.session.layer("user"), [], stones, label="another machine")
print(json.dumps({"counts": counts, "added": len(done.added), "forgotten": done.forgotten}))
"""


def _env(tmp_path: Path) -> dict:
    (tmp_path / "project").mkdir(exist_ok=True)
    home = tmp_path / "home"
    return dict(os.environ, MEMDIR_HOME=str(home), MEMDIR_PROJECT=str(tmp_path / "project"),
                MEMDIR_SEARCH_VECTORS="off", JOURNAL_AT=str(home / "_user" / ".memdir" / "journal.jsonl"))


def _memdir(env: dict, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "memdir", *args], capture_output=True, text=True, timeout=300,
                          env=env, check=False)


def _seed(tmp_path: Path) -> dict:
    env = _env(tmp_path)
    for name, description, body in (("keep-me", "the dev db is on port 5433", "use 5433 in dev"),
                                     ("forget-me", "the staging db is on port 6001", "use port 6001 for staging")):
        done = _memdir(env, "write", name, "-d", description, "-t", "user", "--scope", "user", "--body", body)
        assert done.returncode == 0, done.stderr
    return env


def _sync(tmp_path: Path, env: dict, kill_at: int = 0) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", CHILD, str(tmp_path / "home"), str(tmp_path / "project"),
                           str(STONES)], capture_output=True, text=True, timeout=300,
                          env=dict(env, KILL_AT=str(kill_at)), check=False)


def _events(tmp_path: Path) -> list[dict]:
    path = tmp_path / "home" / "_user" / ".memdir" / "journal.jsonl"
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def _stone_ids(tmp_path: Path) -> list[str]:
    data = json.loads((tmp_path / "home" / "_user" / ".memdir" / "tombstones.json").read_text(encoding="utf-8"))
    stones = data["tombstones"] if isinstance(data, dict) else data
    return sorted(stone["id"] for stone in stones)


def test_a_sync_of_many_tombstones_fsyncs_the_journal_once_for_them(tmp_path):
    env = _seed(tmp_path)
    done = _sync(tmp_path, env)
    assert done.returncode == 0, done.stderr
    told = json.loads(done.stdout.splitlines()[-1])
    assert told["added"] == STONES + 1
    assert told["forgotten"] == ["forget-me"]  # control: the rest of the sync still runs after the batch
    # 201 sync lines in one batch (one fsync; before: 201), then the forgotten memory's bytes kept and its delete
    # (a line and an fsync each, as before)
    assert told["counts"] == {"fsyncs": 3, "lines": STONES + 3}
    events = _events(tmp_path)
    synced = [e for e in events if e["action"] == "sync" and e.get("tombstone")]
    assert [e["name"] for e in synced] == [f"gone-{i:03d}" for i in range(STONES)] + ["forget-me"]  # in order
    assert sorted(e["tombstone"] for e in synced) == _stone_ids(tmp_path)  # each line names its tombstone
    assert (tmp_path / "home" / "_user" / "keep-me.md").exists()
    assert not (tmp_path / "home" / "_user" / "forget-me.md").exists()
    verify = _memdir(env, "verify")
    assert verify.returncode == 0, verify.stdout + verify.stderr


def test_a_sync_killed_inside_the_batch_leaves_whole_lines_in_order_and_repairs(tmp_path):
    env = _seed(tmp_path)
    done = _sync(tmp_path, env, kill_at=120)
    assert done.returncode == -9
    raw = (tmp_path / "home" / "_user" / ".memdir" / "journal.jsonl").read_bytes()
    assert raw.endswith(b"\n")  # no torn line
    journaled = [e for e in _events(tmp_path) if e["action"] == "sync" and e.get("tombstone")]
    assert [e["name"] for e in journaled] == [f"gone-{i:03d}" for i in range(120)]  # whole lines, in order
    assert len(_stone_ids(tmp_path)) == STONES + 1  # all saved before the first line: 81 with no line
    # The state a sync cut between two of its lines leaves, one fsync per line or not (a kill keeps every line
    # written): the tombstones past the cut name no journaled change; verify says so, and --repair removes them.
    verify = _memdir(env, "verify")
    assert verify.returncode == 1 and "tombstone t-" in verify.stdout and "(gone-120)" in verify.stdout, verify.stdout
    repair = _memdir(env, "verify", "--repair")
    assert repair.returncode == 0, repair.stdout + repair.stderr
    assert _stone_ids(tmp_path) == sorted(e["tombstone"] for e in journaled)
    assert (tmp_path / "home" / "_user" / "forget-me.md").exists()  # its tombstone's line never came: not deleted
    verify = _memdir(env, "verify")
    assert verify.returncode == 0, verify.stdout + verify.stderr
