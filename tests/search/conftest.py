"""Fixtures shared by the search tests."""

from __future__ import annotations

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
