"""Fixtures and helpers shared by the search tests."""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

import pytest


@pytest.fixture
def short_home(monkeypatch):
    """A home of its own under /tmp, not yet made (the warm process's socket lives in the runtime directory,
    named by the home, whatever its path); a warm process a hook started there is stopped after the test."""
    from memdir.search import warm

    home = Path(tempfile.mkdtemp(prefix="mw", dir="/tmp")) / "h"
    monkeypatch.setenv("MEMDIR_HOME", str(home))
    yield home
    warm.stop(home)  # a warm process a hook started must not outlive its test
    shutil.rmtree(home.parent, ignore_errors=True)


@pytest.fixture
def runtime(tmp_path, monkeypatch):
    """A private XDG runtime directory of the test's own, a fallback of its own instead of /tmp
    (shared with every other run on this machine) and a cache directory of its own (``<base>/cache``, not made:
    the last fallback's parent). Every path is short."""
    base = tempfile.mkdtemp(prefix="rt", dir="/tmp")
    run, tmp = os.path.join(base, "run"), os.path.join(base, "tmp")
    os.mkdir(run, 0o700)
    os.mkdir(tmp, 0o1777)
    os.chmod(tmp, 0o1777)
    monkeypatch.setenv("XDG_RUNTIME_DIR", run)
    monkeypatch.setenv("XDG_CACHE_HOME", os.path.join(base, "cache"))  # the last place: short, made when needed
    from memdir import runtime as sockets

    monkeypatch.setattr(sockets, "SHARED_TMP", tmp)
    yield run, tmp
    shutil.rmtree(base, ignore_errors=True)


def counting_embeds(monkeypatch) -> list[str]:
    """Every memory text (not a query) the real encoder (:func:`memdir.search.vectors.embed`) embeds from now on,
    in order: the list returned grows as it does; the encoder still embeds them."""
    from memdir.search import vectors

    embedded: list[str] = []
    real = vectors.embed

    def embed(texts, *, query=False):
        if not query:
            embedded.extend(texts)
        return real(texts, query=query)

    monkeypatch.setattr(vectors, "embed", embed)
    return embedded
