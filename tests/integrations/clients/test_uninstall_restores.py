"""Uninstall gives back exactly what was there: the bytes of a file whose only change was memdir's
entries (containers install filled included), no file or directory install created, and never a
file a person edited inside memdir's block (kept, and the plan says so)."""

from __future__ import annotations

import pytest

from memdir.integrations.claude_code import install as claude_code
from memdir.integrations.clients import codex, cursor, edits, gemini, opencode
from tests.integrations.clients.userfiles import PY
from tests.integrations.clients.userfiles import homes as _home

CLIENTS = [claude_code, codex, gemini, cursor, opencode]


def _opencode_installed(tmp_path, existed: bool):
    """``(user, mem, instructions)``: OpenCode installed in user scope, its instructions file (``instructions``)
    holding ``# Mine`` before the install when ``existed``."""
    user, mem = _home(tmp_path)
    _config, instructions = opencode.targets("user", user)
    if existed:
        instructions.parent.mkdir(parents=True)
        instructions.write_text("# Mine\n")
    opencode.install("user", mem, user_home=user, python=PY)
    return user, mem, instructions


def _tree(root):
    return sorted(str(p.relative_to(root)) for p in root.rglob("*"))


@pytest.mark.parametrize("rel, original", [
    (".cursor/hooks.json", b'{"version":1}'),
    (".cursor/hooks.json", b'{\n    "version": 1,\n    "hooks": {}\n}\n'),
    (".cursor/mcp.json", b'{"mcpServers": {}}\n'),
    (".gemini/settings.json", b'{"mcpServers": {}, "hooks": {}, "theme": "dark"}'),
    (".codex/hooks.json", b'{"hooks": {}}'),
    (".config/opencode/opencode.json", b'{"mcp": {}, "instructions": []}'),
    (".claude/settings.json", b'{"hooks": {}}'),
    (".config/opencode/memdir.md", b"# Mine"),
    (".config/opencode/memdir.md", b"# Mine\n\n\n"),
])
def test_a_file_that_held_only_empty_containers_comes_back_byte_identical(tmp_path, rel, original):
    user, mem = _home(tmp_path)
    path = user / rel
    path.parent.mkdir(parents=True)
    path.write_bytes(original)
    client = {".cursor": cursor, ".gemini": gemini, ".codex": codex, ".config": opencode, ".claude": claude_code}[
        rel.split("/")[0]]
    client.install("user", mem, user_home=user, python=PY)
    assert b"memdir" in path.read_bytes()  # control: install did add memdir's entries to this very file
    client.uninstall("user", mem, user_home=user)
    assert path.read_bytes() == original


def test_cursor_hooks_json_install_created_is_removed_not_left_as_a_version(tmp_path):
    user, mem = _home(tmp_path)
    cursor.install("user", mem, user_home=user, python=PY)
    hooks = user / ".cursor" / "hooks.json"
    assert hooks.read_text().count("memdir.hooks cursor") == 2
    cursor.uninstall("user", mem, user_home=user)
    assert not hooks.exists() and not (user / ".cursor").exists()


def test_cursor_a_persons_hook_added_after_install_keeps_the_file_and_its_version(tmp_path):
    user, mem = _home(tmp_path)
    cursor.install("user", mem, user_home=user, python=PY)
    hooks = user / ".cursor" / "hooks.json"
    hooks.write_text(hooks.read_text().replace('"sessionEnd": [', '"sessionEnd": [{"command": "notify"}, ', 1))
    cursor.uninstall("user", mem, user_home=user)
    assert hooks.read_text() == '{\n  "version": 1,\n  "hooks": {\n    "sessionEnd": [\n      {\n' \
                                '        "command": "notify"\n      }\n    ]\n  }\n}\n'


@pytest.mark.parametrize("client", CLIENTS, ids=lambda c: c.__name__.rsplit(".", 1)[-1])
def test_uninstall_removes_every_directory_install_created_and_none_that_was_there(tmp_path, client):
    user, mem = _home(tmp_path)
    user.mkdir()
    (user / ".config").mkdir()  # there before: OpenCode's parent, and a sibling of the others
    client.install("user", mem, user_home=user, python=PY)
    assert len(_tree(user)) > 1  # control: install created files (and directories) here
    client.uninstall("user", mem, user_home=user)
    assert _tree(user) == [".config"]
    assert edits.read_manifest(mem, getattr(client, "CLIENT", "claude-code")) == {}


def test_a_client_directory_that_existed_empty_before_install_stays(tmp_path):
    user, mem = _home(tmp_path)
    (user / ".cursor").mkdir(parents=True)
    cursor.install("user", mem, user_home=user, python=PY)
    assert sorted(p.name for p in (user / ".cursor").iterdir()) == ["hooks.json", "mcp.json"]
    cursor.uninstall("user", mem, user_home=user)
    assert _tree(user) == [".cursor"]


def test_opencode_instructions_without_the_end_marker_are_kept_and_the_plan_says_so(tmp_path):
    user, mem = _home(tmp_path)
    opencode.install("user", mem, user_home=user, python=PY)
    config, instructions = opencode.targets("user", user)
    edited = instructions.read_text().replace(edits.BLOCK_END, "My own line.")
    instructions.write_text(edited)
    plan = opencode.uninstall("user", mem, user_home=user)
    assert instructions.read_text() == edited
    assert plan.notes == (f"{instructions}: memdir's block markers do not pair up (one without the other, edited by "
                          "hand?); memdir left the file as it is — remove its block by hand",)
    assert not config.exists()  # control: the rest of the uninstall went ahead
    with pytest.raises(edits.InstallError, match="markers do not pair up"):  # and install does not stack a block
        opencode.install("user", mem, user_home=user, python=PY)
    assert instructions.read_text() == edited


@pytest.mark.parametrize("existed", [False, True])
def test_opencode_words_written_inside_memdirs_block_are_never_removed_silently(tmp_path, existed):
    user, mem, instructions = _opencode_installed(tmp_path, existed)
    edited = instructions.read_text().replace(edits.BLOCK_END, "Also: never push on Fridays.\n" + edits.BLOCK_END)
    instructions.write_text(edited)
    plan = opencode.uninstall("user", mem, user_home=user)
    assert instructions.read_text() == edited
    assert plan.notes == (f"{instructions} was edited inside memdir's block since install; memdir left the file as "
                          "it is — delete the block (or the file) by hand if you do not need it",)


@pytest.mark.parametrize("existed", [False, True])
def test_opencode_an_unedited_block_is_removed_and_words_outside_it_stay(tmp_path, existed):
    user, mem, instructions = _opencode_installed(tmp_path, existed)
    instructions.write_text("Above.\n" + instructions.read_text())  # outside the block: the person's, kept
    plan = opencode.uninstall("user", mem, user_home=user)
    assert plan.notes == ()
    assert instructions.read_text() == ("Above.\n# Mine\n" if existed else "Above.\n")
