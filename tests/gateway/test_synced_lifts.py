"""A sync bringing many tombstone lifts rewrites ``tombstones.json`` once, not once per lift.

:func:`memdir.gateway.synced.apply` lifted each tombstone another machine lifted with its own rewrite of the
layer's ``tombstones.json`` (:meth:`memdir.tombstones.stones.TombstoneFile.lift`: the whole file, written
atomically, per lift). Now :meth:`~memdir.tombstones.stones.TombstoneFile.lift_all` rewrites it once, dated ahead
until the ``tombstone-lift`` lines are written, so a kill between two lines leaves what a kill between two single
lifts left: the next transaction puts back the tombstones whose line never came. Counted in a real fresh process
that counts the real writes of ``tombstones.json`` (and, in the fault case, SIGKILLs itself after a given number
of lift lines).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

LIFTS = 40

SETUP = """
import sys
from memdir import Memory
mem = Memory.open(home=sys.argv[1], project=sys.argv[2], actor="human")
for i in range(int(sys.argv[3])):
    mem.write(f"gone-{i:03d}", f"forgotten fact number {i}", "user", f"the body of fact {i}", scope="user")
    mem.forget(f"gone-{i:03d}", "user")
mem.write("kept", "a fact nobody forgot", "user", "kept body", scope="user")
"""

CHILD = """
import json, os, signal, sys
from memdir.layer import journal as jmod
from memdir.files import fsio
import memdir.tombstones.stones as stones_mod
stones_at, journal_at, kill_at = os.environ["STONES_AT"], os.environ["JOURNAL_AT"], int(os.environ.get("KILL_AT") or 0)
counts = {"rewrites": 0, "lifts": 0}
real_write, real_line = stones_mod.atomic_write, jmod.Journal._write_line
def atomic_write(path, data, *a, **k):
    if os.fspath(path) == stones_at:
        counts["rewrites"] += 1
    return real_write(path, data, *a, **k)
def write_line(self, payload):
    real_line(self, payload)
    if os.fspath(self.path) == journal_at and b'"tombstone-lift"' in payload:
        counts["lifts"] += 1
        if kill_at and counts["lifts"] == kill_at:
            os.kill(os.getpid(), signal.SIGKILL)
stones_mod.atomic_write, jmod.Journal._write_line = atomic_write, write_line
from memdir import Memory
from memdir.gateway import synced
mem = Memory.open(home=sys.argv[1], project=sys.argv[2], actor="human")
layer = mem.session.layer("user")
ids = [s.id for s in layer.tombstone_file.all()]
done = synced.apply(layer, [], [], ids + ["t-000000000000"], label="another machine")
print(json.dumps({"counts": counts, "lifted": done.lifted_names}))
"""


def _env(tmp_path: Path) -> dict:
    (tmp_path / "project").mkdir(exist_ok=True)
    meta = tmp_path / "home" / "_user" / ".memdir"
    return dict(os.environ, MEMDIR_HOME=str(tmp_path / "home"), MEMDIR_PROJECT=str(tmp_path / "project"),
                MEMDIR_SEARCH_VECTORS="off", STONES_AT=str(meta / "tombstones.json"),
                JOURNAL_AT=str(meta / "journal.jsonl"))


def _run(env: dict, code: str, tmp_path: Path, kill_at: int = 0) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", code, str(tmp_path / "home"), str(tmp_path / "project"),
                           str(LIFTS)], capture_output=True, text=True, timeout=600,
                          env=dict(env, KILL_AT=str(kill_at)), check=False)


def _memdir(env: dict, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "memdir", *args], capture_output=True, text=True, timeout=300,
                          env=env, check=False)


def _stone_names(env: dict) -> list[str]:
    data = json.loads(Path(env["STONES_AT"]).read_text(encoding="utf-8"))
    return sorted(stone["name"] for stone in data)


def _lift_lines(env: dict) -> list[str]:
    lines = Path(env["JOURNAL_AT"]).read_text(encoding="utf-8").splitlines()
    return [e["name"] for e in map(json.loads, lines) if e["action"] == "tombstone-lift"]


def _seed(tmp_path: Path) -> dict:
    env = _env(tmp_path)
    done = _run(env, SETUP, tmp_path)
    assert done.returncode == 0, done.stderr
    assert _stone_names(env) == [f"gone-{i:03d}" for i in range(LIFTS)]
    return env


def test_a_sync_of_many_lifts_rewrites_the_tombstone_file_once(tmp_path):
    env = _seed(tmp_path)
    done = _run(env, CHILD, tmp_path)
    assert done.returncode == 0, done.stderr
    told = json.loads(done.stdout.splitlines()[-1])
    assert told["counts"] == {"rewrites": 1, "lifts": LIFTS}  # before: 40 rewrites
    assert told["lifted"] == [f"gone-{i:03d}" for i in range(LIFTS)]  # in order; the unknown id passed over
    assert _stone_names(env) == []
    assert _lift_lines(env) == [f"gone-{i:03d}" for i in range(LIFTS)]
    verify = _memdir(env, "verify")
    assert verify.returncode == 0, verify.stdout + verify.stderr
    # the lifted values may be written again; the file is dated as the journal (no settle pending)
    write = _memdir(env, "write", "gone-007", "-d", "forgotten fact number 7", "-t", "user", "--scope", "user",
                    "--body", "the body of fact 7")
    assert write.returncode == 0 and "Memory created: gone-007 (user)" in write.stdout, write.stderr


def test_a_sync_killed_between_lift_lines_leaves_what_single_lifts_left(tmp_path):
    env = _seed(tmp_path)
    done = _run(env, CHILD, tmp_path, kill_at=15)
    assert done.returncode == -9
    assert _lift_lines(env) == [f"gone-{i:03d}" for i in range(15)]  # whole lines, in order
    assert _stone_names(env) == []  # the one rewrite came before the first line
    # the next transaction (any write) puts back the 25 tombstones whose line never came, as after a kill
    # between two single lifts (each lift's rewrite, then its line)
    write = _memdir(env, "write", "after", "-d", "a fact after the cut", "-t", "user", "--scope", "user",
                    "--body", "b")
    assert write.returncode == 0, write.stderr
    assert _stone_names(env) == [f"gone-{i:03d}" for i in range(15, LIFTS)]
    verify = _memdir(env, "verify")
    assert verify.returncode == 0, verify.stdout + verify.stderr
    # control: a lifted value is written again; one whose lift never reached the journal is still refused
    ok = _memdir(env, "write", "gone-003", "-d", "forgotten fact number 3", "-t", "user", "--scope", "user",
                 "--body", "the body of fact 3")
    assert ok.returncode == 0, ok.stderr
    refused = _memdir(env, "write", "gone-030", "-d", "forgotten fact number 30", "-t", "user", "--scope", "user",
                      "--body", "the body of fact 30")
    assert refused.returncode != 0 and "tombstone" in refused.stderr.lower(), refused.stdout + refused.stderr
