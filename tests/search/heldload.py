"""A store whose embedding model's load is a stand-in held on an event, for the warm process's states (loading,
ready) without the real model: tests/search/test_warm_probe.py and test_doctor_warm_lines.py. Tests that need the
real load use it (tests/search/test_warm_exit.py)."""

from __future__ import annotations

import threading

from memdir import Memory
from memdir.search import vectors


def held_store(home, project, monkeypatch) -> tuple[Memory, threading.Event]:
    """A ``Memory`` with vectors on holding one memory (``db-port``), and the event the model's load waits on (up
    to 60 s): set it to end the load."""
    monkeypatch.setattr(vectors, "installed", lambda: True)
    monkeypatch.setattr(vectors, "importable", lambda: True)
    loaded = threading.Event()
    monkeypatch.setattr(vectors, "query_vector", lambda text: loaded.wait(60))  # the load, until set
    mem = Memory.open(home=home, project=project, search_vectors="on")
    mem.write("db-port", "Dev PostgreSQL listens on 5433", "project", "b")
    return mem, loaded
