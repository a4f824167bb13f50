"""`memdir doctor` reads whether Codex trusts memdir's hooks from Codex's own record (`[hooks.state."<key>"]
trusted_hash` in the user's config.toml; memdir.integrations.clients.hooktrust), and agrees with the real Codex
0.171, asked through its `codex app-server` (`hooks/list`: each hook's key, currentHash and trustStatus)."""

from __future__ import annotations

import json
import subprocess

import pytest
import tomlkit

from memdir.integrations.clients import codex
from memdir.integrations.clients.hooktrust import hook_hash, states
from tests.conftest import run_cli
from tests.integrations.clients.realclients import binary, client_env

EVENTS = ["PostToolUse", "PreCompact", "SessionStart", "Stop", "UserPromptSubmit"]


def _listed(env: dict, cwd) -> dict:
    """``{key: hook}`` of every hook the real Codex lists for ``cwd`` (its app-server's ``hooks/list``)."""
    calls = [{"id": 1, "method": "initialize", "params": {"clientInfo": {"name": "memdir-test", "version": "1"}}},
             {"method": "initialized"}, {"id": 2, "method": "hooks/list", "params": {"cwds": [str(cwd)]}}]
    server = subprocess.Popen([binary("codex"), "app-server"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              stderr=subprocess.DEVNULL, text=True, env=env, cwd=cwd)
    try:
        server.stdin.write("".join(json.dumps({"jsonrpc": "2.0", **c}) + "\n" for c in calls))
        server.stdin.flush()
        for line in server.stdout:
            message = json.loads(line)
            if message.get("id") == 2:
                return {h["key"]: h for entry in message["result"]["data"] for h in entry["hooks"]}
    finally:
        server.kill()
        server.wait(timeout=30)
    raise AssertionError("codex app-server gave no hooks/list answer")


def _trust_lines(project) -> list[str]:
    """Doctor's warnings of memdir's hooks Codex does not run (warnings since newuser46: never under an "ok"), none
    of them a note; doctor's state says ``warning`` exactly when there is one."""
    done = run_cli("--project", project, "doctor", "--json")
    report = json.loads(done.stdout)
    assert [n for n in report["notes"] if "memdir's hooks" in n and "Codex does not run" in n] == []
    said = [n for n in report["warnings"] if "memdir's hooks" in n]
    assert done.returncode == 0 and (report["state"] == "warning") == bool(said)
    return said


@pytest.mark.slow
def test_doctor_says_which_hooks_codex_does_not_run_as_codex_itself_does(tmp_path, isolated_home, project):
    env = client_env(tmp_path / "userhome", isolated_home)
    codex_dir = tmp_path / "userhome" / ".codex"
    config, hooks = codex_dir / "config.toml", codex_dir / "hooks.json"
    assert run_cli("install", "codex").returncode == 0
    real = _listed(env, project)
    assert sorted(h["eventName"][0].upper() + h["eventName"][1:] for h in real.values()) == EVENTS
    assert {h["trustStatus"] for h in real.values()} == {"untrusted"}
    for hook in real.values():  # memdir's rule gives the hash Codex gives
        event = next(e for e in EVENTS if e[0].lower() + e[1:] == hook["eventName"])
        assert hook_hash(event, hook["matcher"], hook["command"], hook["timeoutSec"]) == hook["currentHash"]
    assert _trust_lines(project) == [(
        f"codex: Codex does not run 5 of memdir's hooks in {hooks}: SessionStart (not trusted yet), UserPromptSubmit "
        "(not trusted yet), Stop (not trusted yet), PreCompact (not trusted yet), PostToolUse (not trusted yet) "
        f"(its record: {config}); start `codex` and review them in /hooks")]

    # The person trusts them (what Codex's /hooks review writes): Codex and doctor both see them trusted
    doc = tomlkit.parse(config.read_text())
    state = doc.setdefault("hooks", tomlkit.table()).setdefault("state", tomlkit.table())
    for key, hook in real.items():
        state[key] = {"trusted_hash": hook["currentHash"]}
    config.write_text(tomlkit.dumps(doc))
    assert {h["trustStatus"] for h in _listed(env, project).values()} == {"trusted"}
    assert _trust_lines(project) == []  # control: every hook runs, doctor is silent

    # The person changes Stop's timeout in hooks.json and turns SessionStart off in /hooks
    data = json.loads(hooks.read_text())
    data["hooks"]["Stop"][0]["hooks"][0]["timeout"] = 7
    hooks.write_text(json.dumps(data, indent=2))
    doc = tomlkit.parse(config.read_text())
    doc["hooks"]["state"][f"{hooks}:session_start:0:0"]["enabled"] = False
    config.write_text(tomlkit.dumps(doc))
    real = {h["eventName"]: (h["trustStatus"], h["enabled"]) for h in _listed(env, project).values()}
    assert real == {"sessionStart": ("trusted", False), "userPromptSubmit": ("trusted", True),
                    "stop": ("modified", True), "preCompact": ("trusted", True), "postToolUse": ("trusted", True)}
    assert states(hooks, config, codex._ours) == [
        ("SessionStart", "disabled"), ("UserPromptSubmit", "trusted"), ("Stop", "modified"),
        ("PreCompact", "trusted"), ("PostToolUse", "trusted")]
    assert _trust_lines(project) == [(
        f"codex: Codex does not run 2 of memdir's hooks in {hooks}: SessionStart (turned off), Stop (changed since "
        f"you trusted it) (its record: {config}); start `codex` and review them in /hooks")]


MINE = """# my codex config, by hand
model = "gpt-5.5"  # the one I use

[mcp_servers.other]
command = "other-mcp"
"""


def _trust_all(env, project, config) -> list[str]:
    """What Codex's /hooks review writes once the person approves every hook the real Codex lists; the keys."""
    doc = tomlkit.parse(config.read_text())
    state = doc.setdefault("hooks", tomlkit.table()).setdefault("state", tomlkit.table())
    listed = _listed(env, project)
    for key, hook in listed.items():
        state[key] = {"trusted_hash": hook["currentHash"]}
    config.write_text(tomlkit.dumps(doc))
    return sorted(listed)


@pytest.mark.slow
def test_uninstall_takes_codexs_trust_records_of_memdirs_hooks_out_with_them(tmp_path, isolated_home, project):
    """newuser37: after the person approved memdir's hooks in Codex's /hooks, `memdir uninstall codex` left five
    `[hooks.state."…/hooks.json:…"]` tables in ~/.codex/config.toml for hooks no longer there: the file was not
    as it was before install. Now it is, byte for byte; control: a record of the person's own (another hooks.json)
    and a line they changed after install stay, while memdir's records go."""
    env = client_env(tmp_path / "userhome", isolated_home)
    config = tmp_path / "userhome" / ".codex" / "config.toml"
    config.parent.mkdir(parents=True)
    config.write_text(MINE)
    assert run_cli("install", "codex").returncode == 0
    keys = _trust_all(env, project, config)
    assert len(keys) == 5 and config.read_text().count("trusted_hash") == 5  # Codex's own keys, recorded
    assert run_cli("uninstall", "codex").returncode == 0
    assert config.read_text() == MINE

    assert run_cli("install", "codex").returncode == 0
    assert _trust_all(env, project, config) == keys
    mine = tmp_path / "elsewhere" / "hooks.json"
    doc = tomlkit.parse(config.read_text().replace('model = "gpt-5.5"', 'model = "gpt-5.4"'))
    doc["hooks"]["state"][f"{mine}:stop:0:0"] = {"trusted_hash": "sha256:" + "0" * 64}
    config.write_text(tomlkit.dumps(doc))
    assert run_cli("uninstall", "codex").returncode == 0
    left = tomlkit.parse(config.read_text()).unwrap()
    assert left["hooks"] == {"state": {f"{mine}:stop:0:0": {"trusted_hash": "sha256:" + "0" * 64}}}
    assert left["model"] == "gpt-5.4" and "memdir" not in left["mcp_servers"] and "other" in left["mcp_servers"]


@pytest.mark.slow
@pytest.mark.parametrize("how", [("--scope", "project"), ()])  # that scope, and every recorded install
def test_a_project_uninstall_takes_its_trust_records_out_of_the_users_config(tmp_path, isolated_home, project, how):
    """newuser38: Codex keeps its trust in a project's hooks in the user's ~/.codex/config.toml too; after
    `memdir uninstall codex --scope project` the five `[hooks.state."<project>/.codex/hooks.json:…"]` tables stayed
    there. Now the user's file is byte for byte as before install; control: another project's record of memdir's
    hooks (installed there too) stays, and so does the project's trust line."""
    import os
    import sys

    user_home = tmp_path / "userhome"
    path = os.path.dirname(sys.executable) + os.pathsep + os.environ.get("PATH", "")  # `memdir` for project scope
    env = client_env(user_home, isolated_home, PATH=path)
    config = user_home / ".codex" / "config.toml"
    config.parent.mkdir(parents=True)
    other = tmp_path / "other"
    other.mkdir()
    for where in (project, other):
        done = run_cli("--project", where, "install", "codex", "--scope", "project",
                       env={"PATH": path, "HOME": str(user_home)}, cwd=where)
        assert done.returncode == 0, done.stderr
    before = MINE + "".join(f'\n[projects."{where}"]\ntrust_level = "trusted"\n' for where in (project, other))
    config.write_text(before)
    keys = _trust_all(env, project, config)
    theirs = _trust_all(env, other, config)
    assert len(keys) == 5 and all(k.startswith(f"{project / '.codex' / 'hooks.json'}:") for k in keys)
    assert len(theirs) == 5 and config.read_text().count("trusted_hash") == 10  # both projects' records, Codex's keys
    with_other = tomlkit.parse(before)
    with_other["hooks"] = {"state": {k: tomlkit.parse(config.read_text())["hooks"]["state"][k].unwrap()
                                     for k in theirs}}
    args = ("--project", project, "uninstall", "codex", *how)
    done = run_cli(*args, env={"PATH": path, "HOME": str(user_home)}, cwd=project)
    assert done.returncode == 0, done.stderr
    if how:
        assert tomlkit.parse(config.read_text()).unwrap() == with_other.unwrap()  # the other project's stay
        assert sorted(tomlkit.parse(config.read_text())["hooks"]["state"]) == theirs
        assert not (project / ".codex").exists() and (other / ".codex" / "hooks.json").exists()
        done = run_cli("--project", other, "uninstall", "codex", "--scope", "project",
                       env={"PATH": path, "HOME": str(user_home)}, cwd=other)
        assert done.returncode == 0, done.stderr
    assert config.read_text() == before  # byte for byte, the trust lines of both projects with it
    assert not (other / ".codex").exists()
