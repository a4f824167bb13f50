"""Installers against the person's own settings in shapes a breaker found: dotted TOML keys, a hand-made
``memdir`` server, symlinks, JSON the client reads differently, concurrent installs."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import tomlkit

from memdir.errors import InstallError
from memdir.integrations.claude_code import install as claude_code
from memdir.integrations.clients import codex, cursor, gemini, opencode
from tests.integrations.clients.userfiles import PY
from tests.integrations.clients.userfiles import homes as _home


def test_codex_dotted_keys_keep_their_paths_and_uninstall_leaves_them(tmp_path):
    user, mem = _home(tmp_path)
    config = user / ".codex" / "config.toml"
    config.parent.mkdir(parents=True)
    original = 'mcp_servers.other.command = "o"\nmodel = "o3"\napproval_policy = "never"\n'
    config.write_text(original)
    codex.install("user", mem, user_home=user, python=PY)
    data = tomlkit.parse(config.read_text()).unwrap()
    assert data["model"] == "o3" and data["approval_policy"] == "never"  # still top-level keys
    assert data["mcp_servers"]["other"] == {"command": "o"}
    assert data["mcp_servers"]["memdir"] == {"command": PY, "args": ["-m", "memdir.cli", "mcp"]}
    codex.uninstall("user", mem, user_home=user)
    assert config.read_text() == original


def test_codex_an_empty_mcp_servers_header_of_the_persons_stays(tmp_path):
    user, mem = _home(tmp_path)
    config = user / ".codex" / "config.toml"
    config.parent.mkdir(parents=True)
    config.write_text('model = "o3"\n\n[mcp_servers]\n')
    codex.install("user", mem, user_home=user, python=PY)
    assert tomlkit.parse(config.read_text()).unwrap()["mcp_servers"]["memdir"]["command"] == PY
    config.write_text(config.read_text() + '\n[tui]\nnotifications = true\n')  # a later change by the person
    codex.uninstall("user", mem, user_home=user)
    assert tomlkit.parse(config.read_text()).unwrap() == {"model": "o3", "mcp_servers": {},
                                                           "tui": {"notifications": True}}


HAND_MADE = {"command": "node", "args": ["/opt/my-memdir/server.js"]}


@pytest.mark.parametrize("client, rel, key", [
    (codex, ".codex/config.toml", "mcp_servers"), (gemini, ".gemini/settings.json", "mcpServers"),
    (cursor, ".cursor/mcp.json", "mcpServers"), (opencode, ".config/opencode/opencode.json", "mcp"),
    (claude_code, ".claude.json", "mcpServers")])
def test_a_hand_made_memdir_server_is_refused_then_forced_and_uninstall_puts_it_back(tmp_path, client, rel, key):
    user, mem = _home(tmp_path)
    path = user / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    if path.suffix == ".toml":
        original = 'model = "o3"\n\n[mcp_servers.memdir]\ncommand = "node"\nargs = ["/opt/my-memdir/server.js"]\n'
    else:
        original = json.dumps({"theme": "x", key: {"memdir": HAND_MADE}}, indent=2) + "\n"
    path.write_text(original)
    with pytest.raises(InstallError, match="already has a server named memdir that memdir did not write"):
        client.install("user", mem, user_home=user, python=PY)
    assert path.read_text() == original  # refused: nothing written anywhere
    assert not (mem / "integrations").exists()
    plan = client.install("user", mem, user_home=user, python=PY, force=True)
    assert any("replaced your own memdir server" in n for n in plan.notes)
    data = tomlkit.parse(path.read_text()).unwrap() if path.suffix == ".toml" else json.loads(path.read_text())
    entry = data[key]["memdir"]
    assert "memdir.cli" in json.dumps(entry) and entry != HAND_MADE  # replaced by memdir's
    client.uninstall("user", mem, user_home=user)
    assert path.read_text() == original  # the person's entry back, byte for byte


def test_opencode_keeps_the_persons_own_file_named_memdir_md(tmp_path):
    user, mem = _home(tmp_path)
    config = user / ".config" / "opencode" / "opencode.json"
    config.parent.mkdir(parents=True)
    original = json.dumps({"instructions": ["docs/memdir.md", "notes/team-memdir.md"]}) + "\n"
    config.write_text(original)
    opencode.install("user", mem, user_home=user, python=PY)
    ours = str(config.parent / "memdir.md")
    assert json.loads(config.read_text())["instructions"] == ["docs/memdir.md", "notes/team-memdir.md", ours]
    assert json.loads((mem / "integrations" / "opencode.json").read_text())[str(config)]["reference"] == ours
    opencode.uninstall("user", mem, user_home=user)
    assert config.read_text() == original  # the person's two entries stay, memdir's is gone


def test_a_dangling_symlink_as_a_settings_file_is_refused_and_a_live_one_written_through(tmp_path):
    user, mem = _home(tmp_path)
    settings = user / ".gemini" / "settings.json"
    settings.parent.mkdir(parents=True)
    target = tmp_path / "dotfiles" / "gemini.json"
    settings.symlink_to(target)
    with pytest.raises(InstallError, match="is a symlink to .*which does not exist"):
        gemini.install("user", mem, user_home=user, python=PY)
    assert not target.exists() and not target.parent.exists() and settings.is_symlink()
    target.parent.mkdir()
    target.write_text('{"theme": "x"}\n')  # control: a live link is written through, the link stays
    gemini.install("user", mem, user_home=user, python=PY)
    assert settings.is_symlink() and "memdir" in json.loads(target.read_text())["mcpServers"]


@pytest.mark.parametrize("text, why", [
    ('{"a": 1e999}', "the number 1e999"), ('{"a": 0.10000000000000000000001}', "a float would change it"),
    ('{"a": 1, "a": 2}', "the key 'a' twice"), ('{"a": NaN}', "NaN")])
def test_json_the_client_would_read_differently_after_a_rewrite_is_refused(tmp_path, text, why):
    user, mem = _home(tmp_path)
    path = user / ".cursor" / "mcp.json"
    path.parent.mkdir(parents=True)
    path.write_text(text)
    with pytest.raises(InstallError, match=why):
        cursor.install("user", mem, user_home=user, python=PY)
    assert path.read_text() == text and not (user / ".cursor" / "hooks.json").exists()


def test_exact_numbers_and_a_lone_surrogate_are_kept_as_written(tmp_path):
    user, mem = _home(tmp_path)
    path = user / ".cursor" / "mcp.json"
    path.parent.mkdir(parents=True)
    path.write_text('{"a": 0.5, "b": 12345678901234567890, "c": "x\\ud800y", "d": "é"}')
    cursor.install("user", mem, user_home=user, python=PY)
    written = path.read_text()
    assert '"b": 12345678901234567890' in written and '"a": 0.5' in written and "\\ud800" in written
    assert json.loads(written)["d"] == "é" and "memdir" in json.loads(written)["mcpServers"]


def test_an_inline_mcp_servers_table_is_refused_with_a_reason(tmp_path):
    user, mem = _home(tmp_path)
    config = user / ".codex" / "config.toml"
    config.parent.mkdir(parents=True)
    original = 'mcp_servers = { other = { command = "o" } }\nmodel = "o3"\n'
    config.write_text(original)
    with pytest.raises(InstallError, match="memdir"):
        codex.install("user", mem, user_home=user, python=PY)
    assert config.read_text() == original and not (user / ".codex" / "hooks.json").exists()


def test_concurrent_installs_keep_every_manifest_record(tmp_path):
    from concurrent.futures import ThreadPoolExecutor

    mem = tmp_path / "mem"
    homes = [tmp_path / f"u{i}" for i in range(8)]
    with ThreadPoolExecutor(8) as pool:
        list(pool.map(lambda h: cursor.install("user", mem, user_home=h, python=PY), homes))
    recorded = json.loads((mem / "integrations" / "cursor.json").read_text())
    assert sorted(recorded) == sorted(str(h / ".cursor" / n) for h in homes for n in ("mcp.json", "hooks.json"))
