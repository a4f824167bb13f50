"""Shared setups of the real-client tests: a person's OpenCode user config directory (:func:`opencode_user`)."""

from __future__ import annotations

import subprocess
from types import SimpleNamespace

import pytest

from tests.integrations.clients.realclients import binary


@pytest.fixture
def opencode_user(tmp_path, project) -> SimpleNamespace:
    """A person who runs the real OpenCode in ``project`` (a git repository): ``exe`` (skips without the binary),
    ``user_home`` (their HOME), ``base`` (``~/.config/opencode``, made, empty) and ``mine`` (an instructions file of
    their own, outside it, saying "Answer in plain English (the person's own instructions).")."""
    exe = binary("opencode")
    subprocess.run(["git", "init", "-q", str(project)], check=True)
    user_home = tmp_path / "userhome"
    base = user_home / ".config" / "opencode"
    base.mkdir(parents=True)
    mine = tmp_path / "style.md"
    mine.write_text("Answer in plain English (the person's own instructions).\n")
    return SimpleNamespace(exe=exe, user_home=user_home, base=base, mine=mine)
