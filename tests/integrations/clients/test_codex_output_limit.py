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


def _doctor_lines(project) -> list[str]:
    import json

    from tests.conftest import run_cli

    done = run_cli("--project", project, "doctor", "--json")
    return [n for n in json.loads(done.stdout)["notes"] if "tool_output_token_limit" in n]


def _codex_env(tmp_path, isolated_home, project) -> dict | None:
    """memdir's server entry's env as the real Codex reads it back (`codex mcp get memdir --json`)."""
    import json
    import subprocess

    from tests.integrations.clients.realclients import binary, client_env

    done = subprocess.run([binary("codex"), "mcp", "get", "memdir", "--json"], capture_output=True, text=True,
                          env=client_env(tmp_path / "userhome", isolated_home), cwd=project, timeout=120,
                          stdin=subprocess.DEVNULL, check=False)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)["transport"].get("env")


@pytest.mark.slow
def test_doctor_rechecks_a_limit_changed_after_install(tmp_path, isolated_home, project):
    """A person lowers (then drops) `tool_output_token_limit` in ~/.codex/config.toml after `memdir install codex`:
    doctor names the limit, both budgets and the command; the install it names rewrites the entry (read back by the
    real Codex), after which doctor is silent on it. Control: the limit unchanged since install, doctor is silent."""
    from tests.conftest import run_cli

    config = tmp_path / "userhome" / ".codex" / "config.toml"
    config.parent.mkdir(parents=True)
    config.write_text('model = "o3"\ntool_output_token_limit = 500\n')
    assert run_cli("install", "codex").returncode == 0
    assert _doctor_lines(project) == []  # control: the limit install read
    assert _codex_env(tmp_path, isolated_home, project) == {"MEMDIR_TOOL_OUTPUT_MAX_BYTES": "1900"}

    config.write_text(config.read_text().replace("tool_output_token_limit = 500", "tool_output_token_limit = 400"))
    assert _doctor_lines(project) == [(
        f"codex: tool_output_token_limit in {config} is 400: memdir's server there gives memory_read in parts of "
        "up to 1900 bytes where that limit calls for 1500; run `memdir install codex --scope user` again")]
    assert run_cli("install", "codex").returncode == 0
    assert _doctor_lines(project) == []
    assert _codex_env(tmp_path, isolated_home, project) == {"MEMDIR_TOOL_OUTPUT_MAX_BYTES": "1500"}

    config.write_text(config.read_text().replace("tool_output_token_limit = 400\n", ""))  # back to Codex's default
    assert _doctor_lines(project) == [(
        f"codex: tool_output_token_limit in {config} is not set: memdir's server there gives memory_read in parts "
        "of up to 1500 bytes where that limit calls for 11900; run `memdir install codex --scope user` again")]
    assert run_cli("install", "codex").returncode == 0
    assert _doctor_lines(project) == []
    assert _codex_env(tmp_path, isolated_home, project) in (None, {})
