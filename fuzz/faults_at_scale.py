#!/usr/bin/env python3
"""Fault injection at scale (issue 13, item 4): ``make fuzz`` runs it; it also runs alone.

Built on the fault module of the edge issue, ``tests/faults/test_faults.py`` (its
operations ``OPS``, named kill points ``POINTS`` and ``cut``, ``seed``,
``state``, ``count_lost`` and the unprivileged runner), with three kinds of
fault, every one seeded (``--seed``) and so reproducible:

* **SIGKILL** — real subprocesses running write, delete, restore and
  consolidation loops, killed at a random moment (``--kills``, 200 by
  default); and every operation of ``OPS`` cut at every named kill point it
  reaches (forked children that SIGKILL themselves there).
* **ENOSPC** — each operation's file-system calls (``os.open`` for writing,
  ``os.write``, a write to a file object from ``os.fdopen``, ``os.replace``,
  ``os.rename``, ``os.link``, ``os.fsync``, ``os.mkdir``, ``os.ftruncate``)
  are enumerated in a dry run, then the k-th fails with ENOSPC, for every k
  in turn (each in a forked child).
* **Permission flips** mid-run — the project layer directory read-only, a
  memory file mode 000, the journal read-only — while a subprocess that the
  file modes bind (capabilities dropped when run as root) loops over writes.

After each fault every invariant is checked, in this order: every memory
file parses; ``MEMORY.md`` equals the index rendered from the files once
the context was read; the search index's rows equal the files after one
query, and that query finds a memory it names (both before any repair);
``repair()`` leaves a journal that ``verify()`` passes; an operation
acknowledged before the fault has its bytes in the journal's history (and,
for a cut or a failed operation, the store is exactly as before or as after
it); nothing outside memdir's error tree escaped. Prints one JSON line of
counts (``memdir faults at scale: {...}``) and exits 1 on any violation.
"""

from __future__ import annotations

import argparse
import errno
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from memdir import Memory  # noqa: E402
from memdir.errors import MemdirError  # noqa: E402
from memdir.files.scan import load  # noqa: E402
from memdir.layer.index import render_index  # noqa: E402
from memdir.layer.journal import Journal, now_utc  # noqa: E402
from memdir.search import index as fts  # noqa: E402
from tests.faults.test_faults import OPS, POINTS, UNPRIVILEGED, count_lost, cut, file_bytes, seed, state  # noqa: E402

COUNTS = {"kills": 0, "kills_at_named_points": 0, "kills_at_random_times": 0, "enospc_faults": 0,
          "enospc_operations": 0, "permission_flips": 0, "faults_injected": 0, "acknowledged_checked": 0,
          "invariant_checks": 0, "violations": 0}
VIOLATIONS: list[str] = []
ENUMERATED: dict[str, dict] = {}  # operation → its file-system writes by call, as the ENOSPC dry run counted them


def violation(label: str, what: str) -> None:
    COUNTS["violations"] += 1
    VIOLATIONS.append(f"{label}: {what}")
    print(f"VIOLATION {label}: {what}", file=sys.stderr)


# ---------------------------------------------------------------- the invariants


def _layers(home: Path, project: Path):
    mem = Memory.open(home=home, project=project, actor="human")
    return mem, [mem.session.layer(scope) for scope in ("user", "project")]


def _loaded(layer) -> dict:
    """name → (record, digest) of every memory file of ``layer``, parsed from disk."""
    out = {}
    if not layer.path.is_dir():
        return out
    for path in sorted(layer.path.glob("*.md")):
        if path.name == "MEMORY.md":
            continue
        got = load(path)
        out[path.name] = got
    return out


def check(label: str, home: Path, project: Path, acked: list[dict] = ()) -> None:
    """Every invariant after one fault; each failing one is a violation."""
    def inv(ok: bool, what: str) -> None:
        COUNTS["invariant_checks"] += 1
        if not ok:
            violation(label, what)

    mem, layers = _layers(home, project)
    for layer in layers:  # 1. every memory file parses
        for filename, got in _loaded(layer).items():
            inv(got is not None and got.entry is not None, f"{layer.scope}/{filename} does not parse: "
                f"{got.error if got else 'vanished'}")
    try:
        mem.context()  # the hot path brings a stale MEMORY.md up to date
    except Exception as exc:  # noqa: BLE001
        inv(False, f"context raised {type(exc).__name__}: {exc}")
    probe = None
    for layer in layers:  # 2. MEMORY.md = f(files), before any repair
        records = [got.entry.record for got in _loaded(layer).values() if got is not None and got.entry]
        index = layer.path / "MEMORY.md"
        text = index.read_text(encoding="utf-8") if index.exists() else ""
        inv(text == render_index(records, now_utc(), mem.session.settings.stale_after_days),
            f"{layer.scope} MEMORY.md is not the index of its files")
        active = [r for r in records if r.status == "active" and not r.disabled and r.description.split()]
        if active and probe is None:
            probe = active[-1]
    try:  # 3. search repairs itself on the next query, and its rows = f(files)
        hits = mem.search(probe.description, k=20) if probe else []
        inv(probe is None or probe.name in [h.name for h in hits], f"search for {probe and probe.name!r} missed it")
        fts.close_all()
        import sqlite3
        conn = sqlite3.connect(str(fts.db_path(home)))
        try:
            for layer in layers:
                rows = set(conn.execute("SELECT name, digest FROM docs WHERE layer = ?",
                                        (fts.layer_key(home, layer.path),)).fetchall())
                files = {(got.entry.record.name, got.entry.digest) for got in _loaded(layer).values()
                         if got is not None and got.entry}
                inv(rows == files or (not rows and not files),
                    f"{layer.scope} search rows {sorted(rows - files)} / files {sorted(files - rows)} differ")
        finally:
            conn.close()
    except MemdirError as exc:
        inv(False, f"search raised {exc}")
    try:  # 4. the journal verifies after the standard repair
        repaired = mem.repair()
        inv(repaired.ok, f"repair left problems: {repaired.to_dict()}")
        inv(mem.verify().ok, f"verify after repair: {mem.verify().to_dict()}")
    except Exception as exc:  # noqa: BLE001
        inv(False, f"repair/verify raised {type(exc).__name__}: {exc}")
    journaled: dict[str, set] = {}
    for layer in layers:  # 5. nothing acknowledged is lost
        journal = Journal(layer.meta)
        events = journal.events()
        journaled[layer.scope] = {(e.name, e.action, e.after) for e in events}
        journaled[layer.scope + "-objects"] = {k for k in journal.referenced() if journal.has_object(k)}
    for ack in acked:
        COUNTS["acknowledged_checked"] += 1
        seen = journaled.get(ack["scope"], set())
        if ack.get("digest"):
            inv(ack["digest"] in journaled.get(ack["scope"] + "-objects", set())
                and any(name == ack["name"] and after == ack["digest"] for name, _, after in seen),
                f"acknowledged {ack} is not in the history")
        else:
            inv(any(name == ack["name"] and action == ack["op"] for name, action, _ in seen),
                f"acknowledged {ack} is not journaled")


# ---------------------------------------------------------------- SIGKILL: named points


def named_cuts(base: Path, rng: random.Random) -> None:
    """Every operation of ``OPS`` cut at every named point it reaches, in a seeded order."""
    project = base / "proj"
    (project / ".git").mkdir(parents=True, exist_ok=True)
    pristine = base / "pristine"
    seed(pristine, project)
    pairs = [(op, point) for op in sorted(OPS) for point in POINTS]
    rng.shuffle(pairs)
    afters = {}
    for op in OPS:
        uncut = base / f"uncut-{op}"
        shutil.copytree(pristine, uncut)
        actor, call = OPS[op]
        call(Memory.open(home=uncut, project=project, actor=actor))
        afters[op] = state(uncut, project)
    before = state(pristine, project)
    home = base / "home"
    for op, point in pairs:
        if home.exists():
            shutil.rmtree(home)
        shutil.copytree(pristine, home)
        old = file_bytes(home)
        if not cut(home, project, op, point):
            continue
        COUNTS["kills"] += 1
        COUNTS["kills_at_named_points"] += 1
        COUNTS["faults_injected"] += 1
        label = f"kill {op} at {point}"
        check(label, home, project)  # the invariants first, then (repaired) before-or-after
        now = state(home, project)
        COUNTS["invariant_checks"] += 2
        if now not in (before, afters[op]):
            violation(label, "the store is neither as before nor as after the operation")
        if count_lost(home, old):
            violation(label, "bytes of a memory file are lost")


# ---------------------------------------------------------------- SIGKILL: loops at random times

LOOP = textwrap.dedent("""
    import json, os, sys
    from memdir import Memory
    from memdir.errors import MemdirError
    home, project, kind, n = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
    mem = Memory.open(home=home, project=project, actor="human")
    def ack(**fields):
        print(json.dumps(fields), flush=True)
    print("ready", flush=True)
    for i in range(n, n + 100000):
        try:
            if kind == "write":
                r = mem.write(f"note-{i % 7}", f"note {i % 7} revision {i}", "project", "body " * (i % 50))
                ack(op="write", name=r.name, scope=r.scope, digest=r.digest)
            elif kind == "delete":
                r = mem.write(f"gone-{i % 5}", f"gone {i % 5} written at {i}", "project")
                ack(op="write", name=r.name, scope=r.scope, digest=r.digest)
                d = (mem.forget if i % 3 == 0 else mem.delete)(f"gone-{(i + 2) % 5}")
                ack(op=d.action, name=d.name, scope=d.scope)
            elif kind == "restore":
                r = mem.restore("history", 1 + i % 5)
                ack(op="restore", name=r.name, scope=r.scope, digest=r.digest)
            elif kind == "consolidate":
                text = (f"USER: Remember that service-{i % 9} listens on port {5000 + i}.\\n"
                        f"ASSISTANT: Noted.\\nUSER: I prefer {('tabs', 'spaces', 'uv', 'pip')[i % 4]} always.\\n")
                report = mem.consolidate(text, extractor="rules", mode="always", force=True)
                for o in report.outcomes:
                    if o.result in ("created", "updated"):
                        ack(op="consolidate", name=o.name, scope=o.scope, digest=None)
        except MemdirError as exc:
            print(json.dumps({"refused": str(exc)[:200]}), flush=True)
""")
LOOP_KINDS = ("write", "delete", "restore", "consolidate")


def _prepare_loop_store(home: Path, project: Path) -> None:
    mem = Memory.open(home=home, project=project, actor="human")
    for v in range(5):
        mem.write("history", f"The history memory, version {v + 1}", "project", f"body of version {v + 1}")
    mem.write("editor", "The user edits with Helix", "user")


def _acks(out: str) -> list[dict]:
    acked = []
    for line in out.splitlines():
        try:
            item = json.loads(line)
        except ValueError:
            continue  # "ready", or a line the kill tore
        if isinstance(item, dict) and "op" in item:
            acked.append(item)
    return acked


def random_kills(base: Path, rng: random.Random, kills: int) -> None:
    project = base / "proj"
    (project / ".git").mkdir(parents=True, exist_ok=True)
    for n in range(kills):
        kind = LOOP_KINDS[n % len(LOOP_KINDS)]
        home = base / f"home-{kind}"
        if not home.exists():
            _prepare_loop_store(home, project)
        proc = subprocess.Popen([sys.executable, "-c", LOOP, str(home), str(project), kind, str(n * 1000)],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=REPO)
        if proc.stdout.readline().strip() != "ready":
            violation(f"loop {kind}", "did not start: " + proc.stderr.read()[-500:])
            proc.kill()
            continue
        time.sleep(rng.uniform(0.0, 0.3))
        os.kill(proc.pid, signal.SIGKILL)
        out, err = proc.communicate()
        if proc.returncode != -signal.SIGKILL:
            violation(f"loop {kind}", f"ended by itself ({proc.returncode}): {err[-800:]}")
            continue
        COUNTS["kills"] += 1
        COUNTS["kills_at_random_times"] += 1
        COUNTS["faults_injected"] += 1
        acked = [a for a in _acks(out) if a["op"] != "consolidate"]
        names = {a["name"] for a in _acks(out) if a["op"] == "consolidate"}
        check(f"kill {kind} loop #{n}", home, project, acked)
        if names:  # a consolidated memory acknowledged: journaled under its name
            journaled = set()
            for scope in ("user", "project"):
                journaled |= {e.name for e in Journal(Memory.open(home=home, project=project).session.layer(scope).meta)
                              .events()}
            COUNTS["invariant_checks"] += 1
            COUNTS["acknowledged_checked"] += len(names)
            if not names <= journaled:
                violation(f"kill consolidate loop #{n}", f"acknowledged {sorted(names - journaled)} not journaled")


# ---------------------------------------------------------------- ENOSPC at every write of an operation

CALLS = ("open", "write", "replace", "rename", "link", "fsync", "mkdir", "ftruncate")


def _patch_fs(fail_at: int | None, seen: list):
    """Count (and with ``fail_at``, fail with ENOSPC) the file-system writes; returns an undo."""
    originals = {name: getattr(os, name) for name in CALLS}

    def wrap(name, real):
        def call(*args, **kwargs):
            if name == "open" and not (args[1] & (os.O_WRONLY | os.O_RDWR | os.O_CREAT)):
                return real(*args, **kwargs)
            seen.append((name, str(args[0]) if args and not isinstance(args[0], int) else ""))
            if fail_at is not None and len(seen) == fail_at:
                raise OSError(errno.ENOSPC, "No space left on device")
            return real(*args, **kwargs)
        return call

    for name, real in originals.items():
        setattr(os, name, wrap(name, real))
    real_fdopen = os.fdopen

    class Handle:
        """A file object from ``os.fdopen`` whose writes count (and fail) like ``os.write``."""

        def __init__(self, handle):
            self._handle = handle

        def write(self, data):
            seen.append(("fdopen-write", ""))
            if fail_at is not None and len(seen) == fail_at:
                raise OSError(errno.ENOSPC, "No space left on device")
            return self._handle.write(data)

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            return self._handle.__exit__(*exc)

        def __getattr__(self, name):
            return getattr(self._handle, name)

    def fdopen(fd, mode="r", *args, **kwargs):
        handle = real_fdopen(fd, mode, *args, **kwargs)
        return Handle(handle) if any(c in mode for c in "wa+") else handle

    os.fdopen = fdopen
    originals["fdopen"] = real_fdopen
    return lambda: [setattr(os, name, real) for name, real in originals.items()]


def _in_child(home, project, op, fail_at):
    """Run ``op`` in a forked child with the k-th write failing; (outcome, calls seen)."""
    read_fd, write_fd = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(read_fd)
        seen: list = []
        try:
            actor, call = OPS_ENOSPC[op]
            mem = Memory.open(home=home, project=project, actor=actor)
            _patch_fs(fail_at, seen)
            call(mem)
            outcome = "ok"
        except MemdirError as exc:
            outcome = f"refused: {exc}"
        except BaseException as exc:  # noqa: BLE001
            outcome = f"ESCAPED {type(exc).__name__}: {exc}"
        kinds: dict[str, int] = {}
        for name, _ in seen:
            kinds[name] = kinds.get(name, 0) + 1
        payload = json.dumps({"outcome": outcome, "calls": len(seen), "kinds": kinds}).encode()
        with os.fdopen(write_fd, "wb") as pipe:  # the child's os.* is patched: write through a file object
            pipe.write(payload)
        os._exit(0)
    os.close(write_fd)
    with os.fdopen(read_fd, "rb") as pipe:
        data = pipe.read()
    os.waitpid(pid, 0)
    return json.loads(data or b'{"outcome": "ESCAPED child died", "calls": 0, "kinds": {}}')


OPS_ENOSPC = dict(OPS)
OPS_ENOSPC["consolidate"] = ("human", lambda m: m.consolidate(
    "USER: Remember that the staging deploy runs on Fridays.\nASSISTANT: ok\n", extractor="rules", mode="always"))


def enospc_sweeps(base: Path, ops) -> None:
    project = base / "proj"
    (project / ".git").mkdir(parents=True, exist_ok=True)
    pristine = base / "pristine"
    seed(pristine, project)
    before = state(pristine, project)
    home = base / "home"
    for op in ops:
        if home.exists():
            shutil.rmtree(home)
        shutil.copytree(pristine, home)
        dry = _in_child(home, project, op, None)
        if not dry["outcome"] == "ok":
            violation(f"enospc {op}", f"the operation fails without a fault: {dry['outcome']}")
            continue
        after = state(home, project)
        COUNTS["enospc_operations"] += 1
        ENUMERATED[op] = dry["kinds"]
        for k in range(1, dry["calls"] + 1):
            if home.exists():
                shutil.rmtree(home)
            shutil.copytree(pristine, home)
            old = file_bytes(home)
            got = _in_child(home, project, op, k)
            COUNTS["enospc_faults"] += 1
            COUNTS["faults_injected"] += 1
            label = f"ENOSPC at write {k}/{dry['calls']} of {op}"
            COUNTS["invariant_checks"] += 3
            if got["outcome"].startswith("ESCAPED"):
                violation(label, got["outcome"])
            check(label, home, project)  # the invariants first, then (repaired) before-or-after
            now = state(home, project)
            if got["outcome"] == "ok" and now != after and op != "read":
                violation(label, "acknowledged, but the store is not as after the operation")
            elif now not in (before, after):
                violation(label, "the store is neither as before nor as after the operation")
            if count_lost(home, old):
                violation(label, "bytes of a memory file are lost")


# ---------------------------------------------------------------- permission flips mid-run

FLIPS = ("layer-read-only", "file-000", "journal-read-only")


def _flip(kind: str, layer, undo: bool) -> None:
    if kind == "layer-read-only":
        os.chmod(layer.path, 0o755 if undo else 0o555)
    elif kind == "file-000":
        target = layer.path / "history.md"
        if target.exists():
            os.chmod(target, 0o644 if undo else 0o000)
    else:
        os.chmod(layer.journal.path, 0o644 if undo else 0o444)


def permission_flips(base: Path, rng: random.Random, rounds: int) -> None:
    project = base / "proj"
    (project / ".git").mkdir(parents=True, exist_ok=True)
    for n in range(rounds):
        kind = FLIPS[n % len(FLIPS)]
        loop_kind = LOOP_KINDS[n % len(LOOP_KINDS)]
        home = base / f"home-{n}"
        _prepare_loop_store(home, project)
        layer = Memory.open(home=home, project=project).session.layer("project")
        proc = subprocess.Popen([*UNPRIVILEGED, sys.executable, "-c", LOOP, str(home), str(project), loop_kind,
                                 str(n * 1000)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                cwd=REPO, env={**os.environ, "MEMDIR_HOME": str(home)})
        if proc.stdout.readline().strip() != "ready":
            violation(f"flip {kind}", "the loop did not start: " + proc.stderr.read()[-500:])
            continue
        time.sleep(rng.uniform(0.05, 0.25))
        _flip(kind, layer, undo=False)
        COUNTS["permission_flips"] += 1
        COUNTS["faults_injected"] += 1
        time.sleep(rng.uniform(0.1, 0.4))
        _flip(kind, layer, undo=True)
        time.sleep(rng.uniform(0.05, 0.2))
        os.kill(proc.pid, signal.SIGKILL)
        out, err = proc.communicate()
        COUNTS["kills"] += 1
        if "Traceback" in err:
            violation(f"flip {kind} under {loop_kind}", "an error escaped memdir's error tree: " + err[-800:])
        acked = [a for a in _acks(out) if a["op"] != "consolidate"]
        check(f"flip {kind} under {loop_kind} #{n}", home, project, acked)


def progress(phase: str) -> None:
    """One line on stderr after each phase: the counts so far."""
    print(f"faults at scale: after {phase}: {json.dumps(COUNTS)}", file=sys.stderr, flush=True)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, default=13, help="seed of every random choice (default 13)")
    parser.add_argument("--kills", type=int, default=200, help="SIGKILLs of loops at random times (default 200)")
    parser.add_argument("--flips", type=int, default=12, help="permission flips mid-run (default 12)")
    parser.add_argument("--enospc", default="all",
                        help="operations to sweep with ENOSPC: all, none, or a comma list of " + ", ".join(OPS_ENOSPC))
    parser.add_argument("--no-named-points", action="store_true", help="skip the named kill points")
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    ops = [] if args.enospc == "none" else sorted(OPS_ENOSPC) if args.enospc == "all" else args.enospc.split(",")
    unknown = sorted(set(ops) - set(OPS_ENOSPC))
    if unknown:
        parser.error(f"unknown operation(s) for --enospc: {', '.join(unknown)} (choose from {', '.join(OPS_ENOSPC)})")
    started = time.monotonic()
    saved = dict(os.environ)
    try:
        with tempfile.TemporaryDirectory(prefix="memdir-faults-") as tmp:
            base = Path(tmp)
            os.environ["MEMDIR_HOME"] = str(base / "unused-home")
            os.environ["HOME"] = str(base)
            # No background embedder: it would outlive the killed loops and race the copies and the
            # cleanup of their homes; the lexical index is the one checked against the files.
            os.environ["MEMDIR_SEARCH_VECTORS"] = "off"
            if not args.no_named_points:
                named_cuts(base / "named", rng)
            progress("named kill points")
            random_kills(base / "random", rng, args.kills)
            progress("random-time kills")
            enospc_sweeps(base / "enospc", ops)
            progress("ENOSPC sweeps")
            permission_flips(base / "flips", rng, args.flips)
            progress("done")
            for root, dirs, _ in os.walk(base):  # leave nothing the cleanup cannot remove
                for d in dirs:
                    os.chmod(os.path.join(root, d), 0o755)
    finally:
        os.environ.clear()
        os.environ.update(saved)
    if ENUMERATED:
        print("memdir ENOSPC sweep, writes per operation: " + json.dumps(ENUMERATED, sort_keys=True))
    print("memdir faults at scale: " + json.dumps({**COUNTS, "seed": args.seed,
                                                   "seconds": round(time.monotonic() - started, 1)}))
    return 1 if COUNTS["violations"] else 0


if __name__ == "__main__":
    sys.exit(main())
