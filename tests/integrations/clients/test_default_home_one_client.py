"""The default memdir home and another home installed into one client file (team41). A default-home install writes
no ``--home`` into its commands, so the two-homes check of team40 (which read only ``--home``) took its entries
for nobody's: home B's install replaced them unsaid, B's uninstall took them out, and doctor said nothing. Now a
user-scope command naming no home (``PY -m memdir.hooks …``, ``PY -m memdir.cli mcp``) is the default home's:
B's install is refused (every file untouched, byte for byte) unless --force, B's uninstall leaves them and says
whose, and a doctor of the home whose recorded file now holds the other's entries names them. Controls: the
default home installs again (nothing to change), its uninstall takes its entries out, and B's own entries are
B's (nothing said)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from memdir.errors import InstallError
from memdir.integrations.clients import edits, entries, gemini
from memdir.paths import resolve_home
from tests.conftest import run_cli
from tests.integrations.clients.userfiles import (
    FILES,
    GEMINI_ORIGINAL,
    PY,
    gemini_settings,
    snapshot,
)


@pytest.mark.parametrize("client", list(FILES), ids=lambda c: c.CLIENT)
def test_the_default_home_s_entries_are_neither_replaced_nor_taken_out(tmp_path, client):
    user = tmp_path / "user"
    path = user / FILES[client]
    default, b = resolve_home(None, {}), tmp_path / "home-b"
    assert entries.home_written(default) is None and entries.home_written(b) == str(b)
    client.install("user", default, user_home=user, python=PY)  # the default home: its commands name none
    before = snapshot(user)
    assert b"--home" not in path.read_bytes() and b"memdir" in path.read_bytes()
    with pytest.raises(InstallError) as refused:
        client.install("user", b, user_home=user, home=str(b), python=PY)
    assert str(refused.value).startswith(f"{path} holds memdir's entries of another memdir home, {default}; ")
    assert f"run `memdir --home {default} uninstall {client.CLIENT}` first" in str(refused.value)
    assert snapshot(user) == before  # untouched, byte for byte
    out = client.uninstall(None, b, user_home=user, home=str(b))
    assert f"{path} holds memdir's entries of another memdir home, {default}, not this one's: left as they are " \
           f"(`memdir --home {default} uninstall {client.CLIENT}` takes them out)" in out.notes
    assert out.changes == ()
    assert snapshot(user) == before
    # control: the default home again changes nothing, doctor names no other home, its uninstall takes them out
    again = client.install("user", default, user_home=user, python=PY)
    assert again.changes == ()
    assert [p for p in edits.problems(default, [client.CLIENT]) if "another memdir home" in p] == []
    removed = client.uninstall(None, default, user_home=user)
    assert removed.changes != () and not any(n.startswith(f"{path} holds") for n in removed.notes)
    assert not any(b"memdir" in raw for raw in snapshot(user).values())


def test_b_s_entries_replaced_by_the_default_home_are_named_by_b_s_doctor(tmp_path):
    user, path = gemini_settings(tmp_path)
    default, b = resolve_home(None, {}), tmp_path / "home-b"
    gemini.install("user", b, user_home=user, home=str(b), python=PY)
    assert edits.problems(b, ["gemini"]) == []  # control: B's own entries, before
    with pytest.raises(InstallError) as refused:  # the other way round: B's named entries, the default installing
        gemini.install("user", default, user_home=user, python=PY)
    assert str(refused.value).startswith(f"{path} holds memdir's entries of another memdir home, {b}; ")
    forced = gemini.install("user", default, user_home=user, python=PY, force=True)
    assert f"replaced memdir home {b}'s entries in {path} (--force); that home's `memdir uninstall gemini` now " \
           "leaves this file alone" in forced.notes
    assert str(b).encode() not in path.read_bytes() and b"-m memdir.hooks gemini" in path.read_bytes()
    assert edits.problems(b, ["gemini"]) == [
        (f"gemini: {path} holds another memdir home's entries ({default}), not this home's: its hooks and server "
         f"read and write that home; `memdir --home {default} uninstall gemini`, then `memdir install gemini` here, "
         "if this home is the one to use")]
    assert [p for p in edits.problems(default, ["gemini"]) if "another memdir home" in p] == []  # control
    gemini.uninstall(None, b, user_home=user, home=str(b))
    assert b"-m memdir.hooks gemini" in path.read_bytes()  # the default home's entries kept
    gemini.uninstall(None, default, user_home=user)  # its backup held B's entries: put back as it found it
    gemini.uninstall(None, b, user_home=user, home=str(b))
    assert path.read_bytes() == GEMINI_ORIGINAL


def test_a_project_s_files_name_no_home_and_stay_nobody_s(tmp_path, monkeypatch):
    """Control: a project-scope install writes portable commands (``memdir hook …``), which name no home in any
    home's install, so another home's project install into the same files is not refused (whose they are cannot
    be told), as before."""
    monkeypatch.setattr(edits, "check_on_path", lambda client, environ=None: "/usr/bin/memdir")
    project = tmp_path / "project"
    project.mkdir()
    gemini.install("project", resolve_home(None, {}), project=project)
    plan = gemini.install("project", tmp_path / "home-b", project=project, home=str(tmp_path / "home-b"))
    assert plan.changes == ()  # the same portable entries: nothing to change, nothing refused
    assert entries.entry_homes(json.loads((project / ".gemini" / "settings.json").read_text())) == []


CLI_FILES = {"claude-code": ".claude/settings.json", "codex": ".codex/config.toml", "gemini": ".gemini/settings.json",
             "opencode": ".config/opencode/opencode.json"}


@pytest.mark.slow
@pytest.mark.parametrize("client", list(CLI_FILES))
def test_the_cli_without_home_then_with_another(tmp_path, monkeypatch, client):
    """The real CLI, MEMDIR_HOME unset and no --home (the default home, the platform data dir under the test's
    HOME), then `memdir --home B`: install refused (exit 1, file untouched), uninstall leaves them; doctor of the
    default home names B's after B's --force, and B's control says nothing of another home."""
    monkeypatch.delenv("MEMDIR_HOME")
    import os

    path = Path(os.path.expanduser("~/" + CLI_FILES[client]))
    default, b = resolve_home(None, {}), tmp_path / "home-b"
    first = run_cli("install", client)
    assert first.returncode == 0, first.stderr
    before = path.read_bytes()
    assert b"--home" not in before and b"memdir" in before
    refused = run_cli("--home", b, "install", client)
    assert refused.returncode == 1
    assert f"holds memdir's entries of another memdir home, {default}; " in refused.stderr
    assert path.read_bytes() == before
    left = run_cli("--home", b, "uninstall", client)
    assert left.returncode == 0, left.stderr
    assert f"holds memdir's entries of another memdir home, {default}, not this one's" in left.stdout
    assert path.read_bytes() == before
    forced = run_cli("--home", b, "install", client, "--force")
    assert forced.returncode == 0, forced.stderr
    assert str(b) in path.read_text(encoding="utf-8")
    said = run_cli("doctor")  # the default home: its recorded file now holds B's entries
    assert f"holds another memdir home's entries ({b}), not this home's" in said.stdout + said.stderr
    control = run_cli("--home", b, "doctor")
    assert "another memdir home" not in control.stdout + control.stderr
