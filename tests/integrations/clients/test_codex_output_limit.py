"""`memdir install codex` under a person's lower ``tool_output_token_limit``: the server it registers gets
``MEMDIR_TOOL_OUTPUT_MAX_BYTES`` (4 bytes a token, less 100: dialects.codex_kept_bytes), so memory_read comes in
parts Codex keeps whole; uninstall gives the person's config.toml back byte for byte."""

from __future__ import annotations

import tomllib

import pytest

from memdir.integrations.clients import codex

PY = "/usr/bin/python3"
MINE = '# my settings\nmodel = "o3"  # mine\n{limit}\n[mcp_servers.other]\ncommand = "other-mcp"\n'


@pytest.mark.parametrize("limit, env", [
    ("tool_output_token_limit = 500", {"MEMDIR_TOOL_OUTPUT_MAX_BYTES": "1900"}),
    ("tool_output_token_limit = 100", {"MEMDIR_TOOL_OUTPUT_MAX_BYTES": "1000"}),  # the setting's floor
    ("tool_output_token_limit = 4000", None),  # keeps more than memdir's default budget: nothing to say
    ("", None),  # control: no limit of the person's
])
def test_the_server_gets_the_budget_of_a_lower_limit_and_uninstall_restores_the_bytes(tmp_path, limit, env):
    user, mem = tmp_path / "u", tmp_path / "mem"
    config = user / ".codex" / "config.toml"
    config.parent.mkdir(parents=True)
    original = MINE.format(limit=limit).encode()
    config.write_bytes(original)
    codex.install("user", mem, user_home=user, python=PY)
    server = tomllib.loads(config.read_text())["mcp_servers"]["memdir"]
    assert server["command"] == PY  # control: install did write memdir's server
    assert server.get("env") == env
    codex.uninstall("user", mem, user_home=user)
    assert config.read_bytes() == original
