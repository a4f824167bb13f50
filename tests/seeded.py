"""A project layer seeded with many plain memory files, adopted once, and a count of the files a
step parses — for the tests that a fresh process reads only what changed (issue 28 item 7)."""

from __future__ import annotations

import time
from pathlib import Path

from memdir import Memory
from memdir.files import scan as scan_module


def seeded(home, project, size: int) -> Memory:
    """A ``Memory`` whose project layer holds ``size`` memories ``seed-0000`` … (description
    "seeded fact N", body "Body N"), adopted by one refresh after the writes' clock tick."""
    mem = Memory.open(home=home, project=project, actor="human")
    layer = mem.session.layer("project")
    layer.path.mkdir(parents=True)
    for i in range(size):
        (layer.path / f"seed-{i:04d}.md").write_text(
            f"---\nname: seed-{i:04d}\ndescription: seeded fact {i}\ntype: project\n"
            f"updated: 2026-11-01T00:00:00Z\n---\n\nBody {i}\n")
    time.sleep(2.1)  # past the clock tick of the writes: their stat keys are trusted (manifest.RACY_NS)
    layer.refresh_index()  # adopts the files once (journals them) and writes the manifest
    return mem


def counted_parses(monkeypatch) -> list[str]:
    """The stems of the files parsed from now on, in order (the one parser of memory files)."""
    names: list[str] = []
    real = scan_module.parse

    def counted(text, stem):
        names.append(stem)
        return real(text, stem)

    monkeypatch.setattr(scan_module, "parse", counted)
    return names


def counted_reads(monkeypatch) -> list[str]:
    """The stems of the memory files read from now on (parsed or only hashed), in order: every read
    of a memory file's bytes by the scan's reader (:func:`memdir.files.scan.load`, ``bytes_digest``)."""
    names: list[str] = []
    real = scan_module.read_foreign

    def counted(path, *args, **kwargs):
        names.append(Path(path).name[:-3])
        return real(path, *args, **kwargs)

    monkeypatch.setattr(scan_module, "read_foreign", counted)
    return names


# The auditor's memories of issue 28 (store S), as the tests of its findings write them: name → (description,
# type, body).
AUDIT_MEMORIES = {
    "redis-ttl": ("Session cache in Redis expires after 30 minutes", "project",
                  "TTL set in settings.SESSION_TTL=1800; raise it in settings only."),
    "id-helper": ("Always call getUserId instead of reading the session cookie", "feedback",
                  "The cookie format changes; getUserId hides it."),
    "uv-install": ("Use uv for Python installs, never pip", "feedback",
                   "uv is faster and locks versions; pip breaks the venv. Use uv add, not uv pip."),
    "logging": ("Use structlog for logging, JSON lines in production", "project", "Each log line carries request_id."),
    "user-svc": ("The user-service owns accounts and sessions", "project",
                 "It is written in Go; call it through the gateway."),
}


def embedded_audit_store(home, project, monkeypatch, names) -> Memory:
    """A ``Memory`` (vectors on, actor human) holding the :data:`AUDIT_MEMORIES` ``names``, in that order, each
    embedded in the foreground; the background embedder never starts (the test decides what is embedded when)."""
    from memdir.search import embedder, index, vectors
    from memdir.search.sync import sync

    monkeypatch.setattr(embedder, "schedule", lambda home: None)
    mem = Memory.open(home=home, project=project, actor="human", search_vectors="on")
    for name in names:
        description, kind, body = AUDIT_MEMORIES[name]
        mem.write(name, description, kind, body)
    sync(mem.home, mem.session.layers())
    assert vectors.embed_missing(index.connect(mem.home), None) == len(names)
    return mem
