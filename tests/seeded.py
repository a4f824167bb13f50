"""A project layer seeded with many plain memory files, adopted once, and a count of the files a
step parses — for the tests that a fresh process reads only what changed (issue 28 item 7)."""

from __future__ import annotations

import time

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
