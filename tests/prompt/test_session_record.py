"""The session record of recall (issue 28 item 3, audit): concurrent prompt hooks of one session lose no
update (the record's lock), any session id works (a lone surrogate, 3 MB) and is recorded in a bounded key.

Real prompt hooks in subprocesses (tests/conftest.run_prompt_hook) on a real store and index."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import pytest

from memdir.paths import sha256
from memdir.prompt import recalled, sessionfiles
from memdir.session import MAX_ID_BYTES, bounded_id
from tests.conftest import run_prompt_hook

TTL_BODY = "The session cache in Redis uses a TTL of 900 seconds."
TTL_PROMPT = "what TTL should the redis session cache use?"
# What 40 hooks at once may take, and wait for the record's lock (its 2 s, a bound for one person's prompt, is no
# part of what the lock keeps): a bound on waiting, never reached unless something hangs.
BATCH_WAIT = 600.0


def _context(out: str) -> str:
    return json.loads(out)["hookSpecificOutput"]["additionalContext"] if out else ""


def _files(home) -> list:
    return sorted((home / sessionfiles.SESSIONS_DIR).glob("*.json"))


@pytest.fixture(autouse=True)
def made_home(isolated_home):
    """The home made, as a hook finds it once a write made it: a record never makes a home (keep32), so one not
    made yet keeps it in the runtime directory (test_new_home_hooks)."""
    isolated_home.mkdir(parents=True, exist_ok=True)


@pytest.fixture
def ttl_store(mem):
    mem.write("redis-ttl", "Redis cache TTL for sessions", "project", TTL_BODY)
    mem.write("deploy-box", "How to deploy", "project", "Deploy with make ship from the release branch.")
    return mem


@pytest.mark.slow
def test_forty_concurrent_prompt_hooks_of_one_session_lose_no_update(mem, project, isolated_home):
    """Before: 40 hooks at once kept 16–34 of the 40 bodies they gave (each read, merged and replaced the
    record unlocked); now all 40."""
    for i in range(1, 41):
        mem.write(f"fact-{i}", f"Widget fact {i} about gizmo{i}", "project", f"The gizmo{i} widget runs on port 70{i}.")
    assert "gizmo1 widget" in _context(run_prompt_hook(project, "which port does the gizmo1 widget run on?",
                                                       session="warm-up"))  # the index is built: 40 hooks at once

    def ask(i: int) -> str:  # bounds for a loaded machine (2 cores): the 40 are scheduled alike, so each takes as
        # long as the whole batch (≈ 50 s at a load of 35), and the last one to the lock waited up to 1.1 s for it
        return _context(run_prompt_hook(project, f"which port does the gizmo{i} widget run on?", session="conc",
                                        timeout=BATCH_WAIT, lock_wait=BATCH_WAIT))

    with ThreadPoolExecutor(max_workers=40) as pool:  # each a real hook process; the threads only wait
        outs = list(pool.map(ask, range(1, 41)))
    given = {f"project/fact-{i}" for i in range(1, 41) if any(f"gizmo{i} widget runs on port" in o for o in outs)}
    root = os.path.realpath(project)  # the record is the session's in this project (recalled.record_id)
    kept = recalled.shown(isolated_home, "conc", root)
    assert len(given) == 40  # every fact's body was given by some hook
    assert len(kept) == 40 and set(kept) == given  # … and each is in the record: none lost
    assert set(recalled.shown(isolated_home, "warm-up", root)) <= given and recalled.shown(isolated_home, "warm-up", root)
    again = _context(run_prompt_hook(project, "which port does the gizmo7 widget run on?", session="conc"))
    assert "gizmo7 widget runs on port" not in again and "fact-7" in again  # once per session: a pointer


@pytest.mark.slow
@pytest.mark.parametrize("session_id", ["\ud800abc", "a\udfffb\x00c\n", "\ud83d"])
def test_a_session_id_with_a_lone_surrogate_still_gets_the_block_once(ttl_store, project, isolated_home, session_id):
    """Before: UnicodeEncodeError in the record's write (only OSError caught) — no recall block at all."""
    first = _context(run_prompt_hook(project, TTL_PROMPT, session=session_id))
    assert "<memory_recall>" in first and TTL_BODY in first
    second = _context(run_prompt_hook(project, TTL_PROMPT, session=session_id))
    assert TTL_BODY not in second and "given earlier in this session, unchanged: redis-ttl" in second
    replaced = session_id.encode("utf-8", "replace").decode("utf-8")  # what a lossy encoding would make of it
    assert TTL_BODY in _context(run_prompt_hook(project, TTL_PROMPT, session=replaced))  # another session
    kept = bounded_id(session_id)  # the session's id: "sha256:" and the hex of its code points
    assert kept == "sha256:" + sha256(session_id.encode("utf-8", "surrogatepass")).hexdigest()
    key = recalled.session_key(recalled.record_id(kept, os.path.realpath(project)))  # the id in this project
    (path,) = [p for p in _files(isolated_home) if json.loads(p.read_bytes())["session"] == key]
    assert path.read_bytes().isascii() and path.name == key[:16] + ".json"


@pytest.mark.slow
def test_a_3_mb_session_id_is_recorded_in_a_bounded_key(ttl_store, project, isolated_home):
    """Before: the id was stored verbatim — a 3,000,139-byte session file (64 such files kept)."""
    huge = "y" * 3_000_000
    assert TTL_BODY in _context(run_prompt_hook(project, TTL_PROMPT, session=huge))
    (path,) = _files(isolated_home)
    data = json.loads(path.read_bytes())
    kept = "sha256:" + sha256(huge.encode()).hexdigest()  # the session's id (memdir.session.bounded_id)
    key = sha256(f"{kept}\0{os.path.realpath(project)}".encode()).hexdigest()  # in this project: record_id
    assert data == {"session": key, "shown": {"project/redis-ttl": data["shown"][
        "project/redis-ttl"]}, "said": [], "unread": {"project/redis-ttl": 1}}  # unread: counted at the end
    assert path.stat().st_size == len(json.dumps(data).encode()) < 200
    assert TTL_BODY not in _context(run_prompt_hook(project, TTL_PROMPT, session=huge))  # still once per session
    assert TTL_BODY in _context(run_prompt_hook(project, TTL_PROMPT, session=huge[:-1] + "z"))  # another id
    assert len(_files(isolated_home)) == 2


@pytest.mark.slow
def test_a_normal_session_id_still_dedups(ttl_store, project, isolated_home):
    first = _context(run_prompt_hook(project, TTL_PROMPT, session="s-normal"))
    second = _context(run_prompt_hook(project, TTL_PROMPT, session="s-normal"))
    assert TTL_BODY in first and TTL_BODY not in second and "redis-ttl" in second
    (path,) = _files(isolated_home)
    key = sha256(f"s-normal\0{os.path.realpath(project)}".encode()).hexdigest()  # the id in this project
    assert path.name == key[:16] + ".json"
    assert json.loads(path.read_bytes())["session"] == key


def test_bounded_id_values():
    assert bounded_id(None) is None and bounded_id("") == ""
    assert bounded_id("3f1c0b6e-6c1e-4a53-9d0e-1b2b7c9d4e5f") == "3f1c0b6e-6c1e-4a53-9d0e-1b2b7c9d4e5f"  # kept
    assert bounded_id("é" * (MAX_ID_BYTES // 2)) == "é" * (MAX_ID_BYTES // 2)  # 256 bytes: kept
    longer = "é" * (MAX_ID_BYTES // 2) + "x"  # 257 bytes
    assert bounded_id(longer) == "sha256:" + sha256(longer.encode()).hexdigest()
    assert bounded_id("a\ud800") == "sha256:" + sha256(b"a\xed\xa0\x80").hexdigest()
    assert bounded_id("a\ud800") != bounded_id("a?") == "a?"
    assert bounded_id(bounded_id("y" * 3_000_000)) == bounded_id("y" * 3_000_000)  # stable: 71 ASCII characters
    assert len(bounded_id("y" * 3_000_000)) == 71


def test_session_key_values():
    assert recalled.session_key("s1") == sha256(b"s1").hexdigest()
    assert recalled.session_key("s1")[:16] == recalled.digest("s1")
    assert recalled.session_key("\ud800") == sha256(b"\xed\xa0\x80").hexdigest()
    assert recalled.session_key("\ud800") != recalled.session_key("?") != recalled.session_key("\ufffd")
    assert len(recalled.session_key("x" * 3_000_000)) == 64


def test_a_full_record_stays_bounded(isolated_home):
    """MAX_SHOWN entries of 64-character names and MAX_SAID warnings: about 50 KB, whatever the id."""
    items = {f"project/{'n' * 56}{i:08d}": recalled.digest(str(i)) for i in range(recalled.MAX_SHOWN + 10)}
    recalled.record(isolated_home, "\ud800" * 100_000, items, project=None)
    for i in range(recalled.MAX_SAID + 5):
        assert recalled.first_time(isolated_home, "\ud800" * 100_000, f"warning {i}")
    assert not recalled.first_time(isolated_home, "\ud800" * 100_000, f"warning {recalled.MAX_SAID + 4}")
    (path,) = _files(isolated_home)
    data = json.loads(path.read_bytes())
    assert len(data["shown"]) == recalled.MAX_SHOWN and len(data["said"]) == recalled.MAX_SAID
    assert 40_000 < path.stat().st_size < 50_000


HOLD = """import fcntl, os, sys, time
fd = os.open(sys.argv[1], os.O_RDWR | os.O_CREAT, 0o600)
fcntl.flock(fd, fcntl.LOCK_EX)
print("held", flush=True)
sys.stdin.read()
"""


@pytest.mark.skipif(sys.platform == "win32", reason="flock is POSIX; Windows takes filelock's lock")
def test_a_lock_held_elsewhere_delays_then_leaves_the_record(isolated_home, monkeypatch):
    """Another process holding the lock (a hook stopped mid-change): a change waits LOCK_WAIT, then leaves the
    record as it is (the body given again: the safe side), never raising; once released it records."""
    monkeypatch.setattr(sessionfiles, "LOCK_WAIT", 0.3)
    recalled.record(isolated_home, "s1", {"project/a": "d1"}, project=None)
    lock = isolated_home / sessionfiles.SESSIONS_DIR / sessionfiles.LOCK_FILE
    holder = subprocess.Popen([sys.executable, "-c", HOLD, str(lock)], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    try:
        assert holder.stdout.readline() == b"held\n"
        start = time.monotonic()
        change = threading.Thread(target=recalled.record, args=(isolated_home, "s1", {"project/b": "d2"}),
                                  kwargs={"project": None})
        change.start()
        change.join(60)  # a guard against a hang only: the lock is still held, so returning at all is giving up
        assert not change.is_alive() and time.monotonic() - start >= 0.3  # it gave up, after waiting LOCK_WAIT
        assert recalled.shown(isolated_home, "s1", None) == {"project/a": "d1"}  # left as it was
        assert recalled.first_time(isolated_home, "s1", "w")  # said (better twice than never) …
        assert recalled.first_time(isolated_home, "s1", "w")  # … not recorded while the lock is held
        recalled.clear(isolated_home, "s1", None)  # a clear is never skipped
        assert recalled.shown(isolated_home, "s1", None) == {}
    finally:
        holder.communicate(b"")
    recalled.record(isolated_home, "s1", {"project/b": "d2"}, project=None)  # control: released, it records
    assert recalled.shown(isolated_home, "s1", None) == {"project/b": "d2"}
    assert recalled.first_time(isolated_home, "s1", "w") and not recalled.first_time(isolated_home, "s1", "w")
    assert oct(os.stat(lock).st_mode & 0o777) == "0o600"


# ------------------------------------------------------------ the same id on the other paths that keep it


@pytest.mark.parametrize("session_id", ["a\ud800b", "y" * 3_000_000])
def test_compaction_and_session_end_queue_an_odd_session_id_bounded(project, isolated_home, tmp_path, monkeypatch,
                                                                     session_id):
    """Before: a lone surrogate made the queue's line unwritable (UnicodeEncodeError: the transcript was never
    consolidated); a 3 MB id made a 3 MB queue line, carried into the journal's receipt."""
    import io

    from memdir.consolidation import queue
    from memdir.integrations.claude_code import hooks

    monkeypatch.setattr(queue, "spawn_drain", lambda home, extractor=None: None)  # the line stays to be read
    transcript = tmp_path / "t.jsonl"
    transcript.write_text('{"type":"user","message":{"role":"user","content":"hi"}}\n', encoding="utf-8")
    for event in ("PreCompact", "SessionEnd"):
        payload = {"cwd": str(project), "hook_event_name": event, "session_id": session_id,
                   "transcript_path": str(transcript), "trigger": "auto", "reason": "exit"}
        hooks.run(event, stdin=io.StringIO(json.dumps(payload)))
    raw = queue.queue_path(isolated_home).read_bytes()
    lines = [json.loads(line) for line in raw.splitlines()]
    assert raw.isascii() and len(raw) < 2 * (200 + len(str(transcript)) + len(str(project)))  # two lines
    assert [(e["event"], e["session_id"], e["transcript_path"]) for e in lines] == [
        ("PreCompact", bounded_id(session_id), str(transcript)), ("SessionEnd", bounded_id(session_id), str(transcript))]
    assert bounded_id(session_id).startswith("sha256:")


def test_a_queue_line_of_any_text_reads_back_the_same(isolated_home):
    from memdir.consolidation import queue

    odd = "/tmp/caf\udce9/t.jsonl"  # a file name that is not UTF-8, as Python decodes it
    queue.append(isolated_home, odd, cwd="/tmp/\u00e9t\u00e9", session_id="plain-id", event="SessionEnd")
    raw = queue.queue_path(isolated_home).read_bytes()
    entry = json.loads(raw)
    assert raw.isascii() and entry["transcript_path"] == odd and entry["cwd"] == "/tmp/été"
    assert entry["session_id"] == "plain-id"  # control: a normal id as sent


def test_the_journal_keeps_a_bounded_session_id(isolated_home, project):
    from memdir import Memory

    huge = "z" * 1_000_000
    odd = Memory.open(home=isolated_home, project=project, session=huge)
    odd.write("db-port", "Dev PostgreSQL listens on 5433", "project", "Moved from 5432.")
    Memory.open(home=isolated_home, project=project, session="s-plain").write(
        "style", "Indent with tabs", "feedback", "Tabs.")
    layer = odd.session.layer("project")
    assert [(e.name, e.session) for e in layer.journal.events()] == [
        ("db-port", bounded_id(huge)), ("style", "s-plain")]  # control: a normal id as sent
    assert layer.journal.path.stat().st_size < 5_000
