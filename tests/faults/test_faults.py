"""Fault injection (issue 10, items 3–6, 13 and the "Also" list).

Faults are real: processes SIGKILLed at named points of a change (a forked
child patches the step to kill itself), ``os.write``/``os.replace`` that
fail or write short, a full disk (every new file and every append refused
with ENOSPC), a layer another user owns (a real subprocess under another
uid when run as root; ``chmod`` otherwise). After each fault the store is
checked: ``verify --repair`` brings it to exactly the state before or the
state after the operation, and no file's bytes are lost (on disk or as a
journaled version). The counts are printed at the end of ``make test``.
"""

from __future__ import annotations

import errno
import json
import os
import shutil
import signal
import subprocess
import sys
import time

import pytest

from memdir import Memory
from memdir.errors import StoreError
from memdir.files.fsio import digest
from memdir.layer import commit
from memdir.layer.journal import Journal
from memdir.layer.layer import Layer
from memdir.tombstones.stones import TombstoneFile
from tests.conftest import run_cli, wait_until

COUNTS = {"faults_injected": 0, "operations_cut": 0, "files_checked": 0, "lost": 0}


# ---------------------------------------------------------------- the store and its states


def seed(home, project) -> None:
    human = Memory.open(home=home, project=project, actor="human")
    agent = Memory.open(home=home, project=project, actor="agent")
    human.write("pm2", "Processes run under pm2", "project", "pm2 start ecosystem.config.js")
    human.write("pm2", "Processes run under pm2 in cluster mode", "project", "pm2 start -i max")
    human.write("deploy", "Deploys run on Fridays", "project", "after the standup")
    agent.write("deploy", "Deploys run on Thursdays", "project", "moved in November", status="candidate")
    agent.write("plain", "The CI cache lives in S3", "project", "bucket ci-cache")
    human.write("editor", "The user edits with Helix", "user")
    human.review()  # the person saw the candidate: approving it removes a line they wrote (team33)


OPS = {
    "create": ("agent", lambda m: m.write("new-fact", "Staging is at staging.example.org", "project", "https")),
    "update": ("agent", lambda m: m.write("plain", "The CI cache lives in GCS now", "project", "bucket ci")),
    "delete": ("agent", lambda m: m.delete("pm2")),
    "forget": ("agent", lambda m: m.forget("plain")),
    "reject": ("human", lambda m: m.reject("deploy-candidate")),
    "restore": ("human", lambda m: m.restore("pm2", 1)),
    "pin": ("human", lambda m: m.pin("plain")),
    "approve": ("human", lambda m: m.approve("deploy-candidate")),
    "supersede": ("agent", lambda m: m.write("pm2-v2", "Processes run under systemd now", "project", "units",
                                             supersedes="pm2")),
}


def state(home, project) -> dict:
    """What a person sees: every memory's fields per layer and the tombstones in force."""
    mem = Memory.open(home=home, project=project, actor="human")
    out = {}
    for scope in ("user", "project"):
        layer = mem.session.layer(scope)
        out[scope] = {n: (e.record.description, e.record.body, e.record.status, e.record.pinned, e.record.disabled)
                      for n, e in layer.scan().entries.items()}
        out[scope + "-tombstones"] = sorted((s.name, s.digest) for s in layer.tombstones())
    return out


def file_bytes(home) -> dict:
    return {str(p): p.read_bytes() for p in home.rglob("*.md") if p.name != "MEMORY.md" and ".memdir" not in p.parts}


def count_lost(home, before: dict) -> int:
    """Bytes of memory files before the fault that are neither on disk nor a journaled version now."""
    lost = 0
    on_disk = {digest(data) for data in file_bytes(home).values()}
    journaled = set()
    for meta in home.rglob(".memdir"):
        journal = Journal(meta)
        journaled |= {key for key in journal.referenced() if journal.has_object(key)}
    for data in before.values():
        COUNTS["files_checked"] += 1
        if digest(data) not in on_disk | journaled:
            lost += 1
    COUNTS["lost"] += lost
    return lost


# ---------------------------------------------------------------- SIGKILL at named points


def _kill():
    os.kill(os.getpid(), signal.SIGKILL)


def _after(owner, attr, nth):
    original = getattr(owner, attr)
    hits = [0]

    def wrapper(*args, **kwargs):
        result = original(*args, **kwargs)
        hits[0] += 1
        if hits[0] == nth:
            _kill()
        return result

    setattr(owner, attr, wrapper)


def _torn(nth):
    original = Journal._write_line
    hits = [0]

    def wrapper(self, payload):
        hits[0] += 1
        if hits[0] == nth:
            fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
            os.write(fd, payload[: len(payload) // 2])
            os.fsync(fd)
            _kill()
        return original(self, payload)

    Journal._write_line = wrapper


POINTS = {
    "tombstone-saved": lambda: _after(TombstoneFile, "save", 1),
    "file-written": lambda: _after(commit, "stage_write", 1),
    "file-renamed-aside": lambda: _after(commit, "stage_remove", 1),
    "journal-line-torn": lambda: _torn(1),
    "journal-line-written": lambda: _after(Journal, "_write_line", 1),
    # the second step of two-step changes (approve into a target, supersede)
    "second-file-written": lambda: _after(commit, "stage_write", 2),
    "second-file-renamed-aside": lambda: _after(commit, "stage_remove", 2),
    "second-journal-line-torn": lambda: _torn(2),
    "index-written": lambda: _after(Layer, "_write_index", 1),
}


def cut(home, project, op: str, point: str) -> bool:
    """Run ``op`` in a forked child that SIGKILLs itself at ``point``; True when it was cut."""
    actor, call = OPS[op]
    pid = os.fork()
    if pid == 0:  # the child: never returns to pytest
        code = 0
        try:
            POINTS[point]()
            call(Memory.open(home=home, project=project, actor=actor))
        except BaseException:  # noqa: BLE001
            code = 3
        os._exit(code)
    _, status = os.waitpid(pid, 0)
    killed = os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGKILL
    COUNTS["faults_injected"] += killed
    COUNTS["operations_cut"] += killed
    return killed


@pytest.mark.slow
@pytest.mark.parametrize("op", sorted(OPS))
def test_a_kill_at_any_point_repairs_to_before_or_after(tmp_path, project, op):
    home = tmp_path / "home"
    seed(home, project)
    shutil.copytree(home, tmp_path / "uncut")
    actor, call = OPS[op]
    call(Memory.open(home=tmp_path / "uncut", project=project, actor=actor))
    before, after = state(home, project), state(tmp_path / "uncut", project)
    assert before != after  # control: the operation changes what a person sees
    pristine = tmp_path / "pristine"
    shutil.copytree(home, pristine)
    cuts = 0
    for point in POINTS:
        shutil.rmtree(home)
        shutil.copytree(pristine, home)
        old_bytes = file_bytes(home)
        if not cut(home, project, op, point):
            continue  # this operation never reaches that point
        cuts += 1
        repaired = Memory.open(home=home, project=project, actor="human").repair()
        assert repaired.ok, (point, repaired.to_dict())
        now = state(home, project)
        assert now in (before, after), (point, now)
        assert count_lost(home, old_bytes) == 0, point
        leftovers = [p.name for p in home.rglob(".*") if p.name.endswith((".del", ".bak"))]
        assert leftovers == [] or all(time.time() - p.stat().st_mtime < 15
                                      for p in home.rglob(".*") if p.name.endswith((".del", ".bak")))
        # The next write after the repair journals no hand edit: the repair left nothing behind.
        mem = Memory.open(home=home, project=project, actor="agent")
        seen = len(mem.session.layer("project").journal.events())
        mem.write("after-cut", "A write after the cut", "project")
        assert [e.action for e in mem.session.layer("project").journal.events()][seen:] == ["create"], point
    assert cuts >= 3, op


def test_a_kill_after_the_file_replace_keeps_the_origin_the_file_states(tmp_path, project):
    home = tmp_path / "home"
    seed(home, project)
    assert cut(home, project, "update", "file-written")
    mem = Memory.open(home=home, project=project, actor="human")
    assert mem.verify().ok  # nothing is wrong with the journal itself
    mem.repair()
    last = mem.session.layer("project").journal.events()[-1]
    assert (last.name, last.actor, last.action) == ("plain", "agent", "update")
    assert mem.read("plain", count=False).record.description == "The CI cache lives in GCS now"


def test_a_kill_right_after_the_tombstone_is_named_and_repaired_to_before(tmp_path, project):
    """Item 3: a SIGKILL right after the tombstone left ``pm2`` listed and its value refused."""
    home = tmp_path / "home"
    seed(home, project)
    assert cut(home, project, "delete", "tombstone-saved")
    mem = Memory.open(home=home, project=project, actor="human")
    check = mem.verify()
    assert not check.ok and "belongs to no journaled delete" in check.to_dict()["layers"][1]["error"]
    assert mem.repair().ok
    assert mem.tombstones().tombstones == ()
    again = mem.write("pm2", "Processes run under pm2 in cluster mode", "project", "pm2 start -i max")
    assert again.operation == "unchanged"
    mem.delete("pm2")  # control: a delete that completes tombstones the value
    with pytest.raises(Exception, match="forgotten|tombstone"):
        mem.write("pm2", "Processes run under pm2 in cluster mode", "project", "pm2 start -i max")


def test_an_old_file_renamed_aside_by_a_cut_delete_comes_back_not_removed_as_stale(tmp_path, project):
    home = tmp_path / "home"
    seed(home, project)
    assert cut(home, project, "delete", "file-renamed-aside")
    layer = Memory.open(home=home, project=project).session.layer("project")
    aside = [p for p in layer.path.iterdir() if p.name.endswith(".del")]
    assert [p.name.split(".")[1] for p in aside] == ["pm2"]
    os.utime(aside[0], (time.time() - 3600, time.time() - 3600))  # written long ago, as memories are
    assert Memory.open(home=home, project=project, actor="human").repair().ok
    mem = Memory.open(home=home, project=project)
    assert mem.read("pm2", count=False).record.description == "Processes run under pm2 in cluster mode"
    assert mem.tombstones().tombstones == ()
    assert [p for p in layer.path.iterdir() if p.name.endswith(".del")] == []


def _changed_ns(path) -> int:
    """The later of ``path``'s mtime and ctime (ns): what memdir.layer.leftovers ages a side file by."""
    st = os.lstat(path)
    return max(st.st_mtime_ns, st.st_ctime_ns)


@pytest.mark.slow
def test_stale_temp_files_are_removed_by_repair_and_fresh_ones_kept(tmp_path, project, isolated_home):
    """Rule 1 of memdir.layer.leftovers: a side file nothing changed for the lock timeout (the later of
    mtime and ctime: ``os.utime`` moves the ctime to now, so the test waits) is removed; a younger one,
    maybe a live writer's, is kept, and so is a person's dot-file that is no side file of memdir's.

    Two repairs of the same files, each on the safe side of its timeout whatever the machine's load: one
    with a timeout no run reaches (120 s, run_cli's own bound) keeps them all as young; one after the files
    are seen older than a 0.5 s timeout (a wait on their ages, not a fixed sleep) removes memdir's and
    keeps the person's. One repair with a fresh and an old file both near a 3 s timeout raced the CLI's
    start-up against the clock."""
    seed(isolated_home, project)
    layer = Memory.open(home=isolated_home, project=project).session.layer("project")
    old = layer.path / ".plain.md.abc1_xyz.tmp"  # atomic_write's: tempfile.mkstemp, 8 of [a-z0-9_]
    old_object = layer.meta / "objects" / f".{'0a1b' * 16}.k2x_9qaz.tmp"
    persons = layer.path / ".notes.md.bak"  # not ".<file>.<random>.bak": a person's, never memdir's
    for path in (old, old_object, persons):
        path.write_bytes(b"half a file")
    out = run_cli("--project", project, "verify", "--repair", env={"MEMDIR_LOCK_TIMEOUT": "120"})
    assert out.returncode == 0, out.stdout + out.stderr
    assert old.exists() and old_object.exists()  # younger than the lock timeout: maybe a live writer's
    assert persons.exists()
    wait_until(lambda: all(_changed_ns(p) < time.time_ns() - 600_000_000 for p in (old, old_object)),
               "the side files are older than the 0.5 s lock timeout")
    out = run_cli("--project", project, "verify", "--repair", env={"MEMDIR_LOCK_TIMEOUT": "0.5"})
    assert out.returncode == 0, out.stdout + out.stderr
    assert not old.exists() and not old_object.exists()
    assert persons.exists()  # control: the same repair keeps what is no side file of memdir's
    COUNTS["faults_injected"] += 2
    COUNTS["files_checked"] += 3


# ---------------------------------------------------------------- failing and short writes


def test_a_short_journal_write_fails_the_write_and_leaves_everything_as_it_was(mem, monkeypatch):
    mem.write("plain", "The CI cache lives in S3", "project", "bucket ci-cache")
    layer = mem.session.layer("project")
    file_before = (layer.path / "plain.md").read_bytes()
    journal_before = layer.journal.path.read_bytes()
    real_write = os.write

    def short(fd, data):
        if bytes(data[:7]) == b'{"seq":':
            COUNTS["faults_injected"] += 1
            return real_write(fd, bytes(data[: len(data) // 2]))
        return real_write(fd, data)

    monkeypatch.setattr(os, "write", short)
    for call in (lambda: mem.write("plain", "The CI cache lives in GCS now", "project", "bucket ci"),
                 lambda: mem.write("brand-new", "A memory that never was", "project"),
                 lambda: mem.delete("plain")):
        with pytest.raises(StoreError, match="short write"):
            call()
        COUNTS["operations_cut"] += 1
    monkeypatch.setattr(os, "write", real_write)
    assert (layer.path / "plain.md").read_bytes() == file_before
    assert not (layer.path / "brand-new.md").exists()
    assert layer.journal.path.read_bytes() == journal_before  # no torn line left behind
    assert mem.tombstones().tombstones == ()
    assert [p.name for p in layer.path.iterdir() if p.name.startswith(".") and p.is_file()] == []
    result = mem.write("plain", "The CI cache lives in GCS now", "project", "bucket ci")  # control
    assert result.operation == "updated"
    assert [e.action for e in layer.journal.events()][-1] == "update"
    assert "external-edit" not in [e.action for e in layer.journal.events()]
    COUNTS["files_checked"] += 2


def test_memory_md_failing_is_a_warning_and_the_write_is_committed(mem, project, monkeypatch):
    """Item 4: a patched os.replace failing for MEMORY.md made the write answer failed."""
    real_replace = os.replace

    def failing(src, dst, *args, **kwargs):
        if str(dst).endswith("MEMORY.md"):
            COUNTS["faults_injected"] += 1
            raise OSError(errno.ENOSPC, "No space left on device")
        return real_replace(src, dst, *args, **kwargs)

    monkeypatch.setattr(os, "replace", failing)
    result = mem.write("db-port", "Dev DB on port 5433", "project")
    assert result.operation == "created"
    assert any("MEMORY.md" in w and "saved" in w for w in result.warnings), result.warnings
    assert mem.write("db-port", "Dev DB on port 5433", "project").operation == "unchanged"
    assert "Dev DB on port 5433" in mem.context()  # rendered from the files meanwhile
    monkeypatch.setattr(os, "replace", real_replace)
    assert mem.write("db-url", "Dev DB URL is postgres://localhost:5433/dev", "project").warnings == ()
    index = (mem.session.layer("project").path / "MEMORY.md").read_text()
    assert "db-port" in index and "db-url" in index  # control: rebuilt once the disk takes it
    assert [e.action for e in mem.session.layer("project").journal.events()] == ["create", "create"]


# ---------------------------------------------------------------- a full disk


class FullDisk:
    """Every new file and every append refused with ENOSPC (the shim of a full disk)."""

    def __init__(self, monkeypatch):
        import tempfile

        def no_space(*args, **kwargs):
            COUNTS["faults_injected"] += 1
            raise OSError(errno.ENOSPC, "No space left on device")

        real_open = os.open

        def opening(path, flags, *args, **kwargs):
            if flags & (os.O_WRONLY | os.O_RDWR | os.O_CREAT) and not str(path).endswith("lock"):
                no_space()
            return real_open(path, flags, *args, **kwargs)

        monkeypatch.setattr(tempfile, "mkstemp", no_space)
        monkeypatch.setattr(os, "open", opening)
        monkeypatch.setattr(os, "write", no_space)
        monkeypatch.setattr(os, "link", no_space)


def test_on_a_full_disk_reads_answer_and_writes_fail_cleanly(mem, project, monkeypatch, capsys):
    mem.write("db-port", "Dev DB on port 5433", "project", "See [[db-url]].")
    mem.write("db-url", "Dev DB URL is postgres://localhost:5433/dev", "project")
    mem.as_actor("human").write("editor", "The user edits with Helix", "user")
    layer = mem.session.layer("project")
    # A hand-written memory makes MEMORY.md stale: the context must be rendered from the files.
    (layer.path / "by-hand.md").write_text("---\nname: by-hand\ndescription: Written by hand\ntype: project\n---\n")
    files_before = file_bytes(mem.home)
    journal_before = layer.journal.path.read_bytes()
    from memdir.integrations.claude_code import hooks
    FullDisk(monkeypatch)
    context = mem.context()
    assert "Written by hand" in context and "The user edits with Helix" in context
    assert [m.name for m in mem.list().memories] == ["editor", "by-hand", "db-port", "db-url"] or \
        {m.name for m in mem.list().memories} == {"editor", "by-hand", "db-port", "db-url"}
    read = mem.read("db-port")  # the read counter is best effort
    assert read.record.description == "Dev DB on port 5433" and [l.name for l in read.linked] == ["db-url"]
    assert [v.action for v in mem.history("db-port").versions] == ["create"]
    monkeypatch.setattr(sys, "stdin", __import__("io").StringIO(json.dumps({"cwd": str(project)})))
    assert hooks.handle("SessionStart", home=mem.home) == 0
    assert "Written by hand" in json.loads(capsys.readouterr().out)["hookSpecificOutput"]["additionalContext"]
    with pytest.raises(StoreError, match="No space left"):
        mem.write("new-fact", "Staging is at staging.example.org", "project")
    with pytest.raises(StoreError, match="No space left"):
        mem.delete("db-url")
    COUNTS["operations_cut"] += 2
    monkeypatch.undo()
    assert file_bytes(mem.home) == files_before and layer.journal.path.read_bytes() == journal_before
    assert mem.tombstones().tombstones == ()
    COUNTS["files_checked"] += len(files_before)
    assert mem.write("new-fact", "Staging is at staging.example.org", "project").operation == "created"  # control


# ---------------------------------------------------------------- another user's layer, read-only layers


# When run as root, the child drops the capabilities that bypass file modes, so
# the modes below bind it as they bind any other user.
UNPRIVILEGED = (["setpriv", "--bounding-set=-dac_override,-dac_read_search,-fowner", "--"]
                if os.geteuid() == 0 else [])


def _as_other_user(args, env, module="memdir.cli", input=""):
    """Run memdir in a real subprocess bound by the file modes."""
    return subprocess.run([*UNPRIVILEGED, sys.executable, "-m", module, *map(str, args)], capture_output=True,
                          text=True, env={**os.environ, **env}, timeout=60, input=input)


def _read_only(path, but_meta=False):
    """Make ``path`` read-only (directories 0555, files 0444); its ``.memdir`` stays writable with ``but_meta``."""
    for root, dirs, files in os.walk(path):
        meta = but_meta and ".memdir" in root
        os.chmod(root, 0o755 if meta else 0o555)
        for name in files:
            os.chmod(os.path.join(root, name), 0o644 if meta else 0o444)


def _writable(path):
    for root, dirs, files in os.walk(path):
        os.chmod(root, 0o755)


@pytest.fixture
def shared_home(tmp_path):
    home, project = tmp_path / "home", tmp_path / "proj"
    (project / ".git").mkdir(parents=True)
    yield home, project
    _writable(tmp_path)


@pytest.mark.slow
def test_reads_of_another_users_layers_answer_and_an_unreadable_layer_is_skipped(shared_home):
    home, project = shared_home
    seed(home, project)
    mem = Memory.open(home=home, project=project, actor="human")
    project_layer, user_layer = mem.session.layer("project").path, mem.session.layer("user").path
    (project_layer / "by-hand.md").write_text("---\nname: by-hand\ndescription: Written by hand\ntype: project\n---\n")
    _read_only(project_layer)
    os.chmod(user_layer, 0o000)  # a layer they cannot read at all
    before = file_bytes(home)
    env = {"MEMDIR_HOME": str(home), "HOME": str(home.parent)}
    out = _as_other_user(["--project", project, "context"], env)
    assert out.returncode == 0, out.stderr
    assert "Written by hand" in out.stdout and "Processes run under pm2" in out.stdout
    assert "Helix" not in out.stdout and "user layer" in out.stderr  # skipped, with a warning
    out = _as_other_user(["--project", project, "list"], env)
    assert out.returncode == 0 and "pm2" in out.stdout and "by-hand" in out.stdout, out.stderr
    out = _as_other_user(["--project", project, "read", "pm2"], env)
    assert out.returncode == 0 and "cluster mode" in out.stdout, out.stderr
    out = _as_other_user(["--project", project, "history", "pm2"], env)
    assert out.returncode == 0 and out.stdout.count("update") + out.stdout.count("create") >= 2, out.stdout
    hook = _as_other_user(["claude-code", "SessionStart"], env, "memdir.hooks", json.dumps({"cwd": str(project)}))
    assert hook.returncode == 0 and "Written by hand" in hook.stdout, hook.stderr
    os.chmod(user_layer, 0o700)
    _writable(home)
    assert file_bytes(home) == before  # the reads wrote nothing
    COUNTS["faults_injected"] += 5
    COUNTS["files_checked"] += len(before)


@pytest.mark.slow
def test_a_delete_refused_by_a_read_only_layer_leaves_no_tombstone(shared_home):
    """Item 3: with the layer read-only, `delete pm2` failed yet left pm2 tombstoned."""
    home, project = shared_home
    seed(home, project)
    _read_only(mem_layer := Memory.open(home=home, project=project).session.layer("project").path, but_meta=True)
    env = {"MEMDIR_HOME": str(home), "HOME": str(home.parent)}
    out = _as_other_user(["--project", project, "delete", "pm2"], env)
    assert out.returncode == 1 and "cannot remove" in out.stderr, out.stdout + out.stderr
    COUNTS["faults_injected"] += 1
    COUNTS["operations_cut"] += 1
    _writable(mem_layer)
    mem = Memory.open(home=home, project=project, actor="human")
    assert mem.verify().ok
    assert "pm2" in [m.name for m in mem.list().memories]
    assert mem.tombstones().tombstones == ()
    again = mem.write("pm2", "Processes run under pm2 in cluster mode", "project", "pm2 start -i max")
    assert again.operation == "unchanged"
    assert mem.delete("pm2").tombstone is not None  # control: with permissions back it deletes
    assert "pm2" not in [m.name for m in mem.list().memories]


# ---------------------------------------------------------------- the search index


@pytest.mark.slow
def test_a_busy_search_index_is_not_deleted(mem, isolated_home):
    import sqlite3

    from memdir.search import index as fts

    mem.write("db-port", "Dev DB on port 5433", "project")
    assert [hit.name for hit in mem.search("5433")] == ["db-port"]
    fts.close_all()
    path = fts.db_path(isolated_home)
    inode = os.stat(path).st_ino
    holder = sqlite3.connect(str(path), isolation_level=None)
    holder.execute("PRAGMA locking_mode = EXCLUSIVE")
    holder.execute("BEGIN EXCLUSIVE")
    COUNTS["faults_injected"] += 1
    try:
        with pytest.raises(StoreError, match="locked|busy"):
            fts.connect(isolated_home)
        assert fts.is_corrupt(path) is False
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert os.stat(path).st_ino == inode  # the same file, not a rebuilt one
    assert [hit.name for hit in mem.search("5433")] == ["db-port"]
    fts.close_all()
    path.write_bytes(b"this is not a database" * 100)  # control: a damaged file is rebuilt
    for suffix in ("-wal", "-shm"):
        try:
            os.unlink(str(path) + suffix)
        except FileNotFoundError:
            pass
    assert fts.is_corrupt(path) is True
    assert [hit.name for hit in mem.search("5433")] == ["db-port"]


# ---------------------------------------------------------------- the journal's head


def _lines(path):
    return path.read_bytes().splitlines(keepends=True)


@pytest.mark.slow
@pytest.mark.parametrize("tamper, named", [
    ("cut-last", "the last 1 line was removed"),
    ("cut-last-three", "the last 3 lines were removed"),
    ("edit-last-actor", "was edited"),  # then repaired: kept whole and chained again
    ("empty", "the journal is empty"),
    ("delete", "the journal is missing"),
])
def test_tampering_at_the_journal_head_is_named_and_not_repaired_over(mem, project, tamper, named):
    for n in range(5):
        mem.write(f"note-{n}", f"Note number {n} about the build", "project")
    assert mem.verify().ok  # control: untouched, it checks out
    journal = mem.session.layer("project").journal.path
    lines = _lines(journal)
    if tamper == "cut-last":
        journal.write_bytes(b"".join(lines[:-1]))
    elif tamper == "cut-last-three":
        journal.write_bytes(b"".join(lines[:-3]))
    elif tamper == "edit-last-actor":
        journal.write_bytes(b"".join(lines[:-1]) + lines[-1].replace(b'"actor":"agent"', b'"actor":"human"'))
    elif tamper == "empty":
        journal.write_bytes(b"")
    else:
        journal.unlink()
    COUNTS["faults_injected"] += 1
    after_tamper = journal.read_bytes() if journal.exists() else None
    check = mem.verify()
    assert not check.ok
    assert named in check.layers[-1].error, check.layers[-1].error
    out = run_cli("--project", project, "verify", "--repair")
    if tamper == "edit-last-actor":  # break23: an edited line is kept whole and chained again, saying so (layer.chain)
        assert out.returncode == 0, out.stdout
        assert (journal.parent / "journal.damaged").read_bytes() == after_tamper
        rechain = json.loads(journal.read_bytes().splitlines()[len(lines)])
        assert (rechain["action"], rechain["damaged"], rechain["kept_bytes"]) == ("rechain", [len(lines)], len(after_tamper))
        assert Memory.open(home=mem.home, project=project).write("note-9", "Another note", "project").operation == "created"
        return
    assert out.returncode == 1 and named in out.stdout, out.stdout
    assert (journal.read_bytes() if journal.exists() else None) == after_tamper  # no hand edits journaled over it
    with pytest.raises(StoreError, match=named.split(" ")[-1]):
        Memory.open(home=mem.home, project=project).write("note-9", "Another note", "project")
