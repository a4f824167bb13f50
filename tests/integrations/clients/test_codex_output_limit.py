"""`memdir install codex` under a person's lower ``tool_output_token_limit``: the server it registers gets
``MEMDIR_TOOL_OUTPUT_CEILING`` (4 bytes a token, less 100: dialects.codex_kept_bytes), so memory_read comes in
parts Codex keeps whole; uninstall gives the person's config.toml back byte for byte."""

from __future__ import annotations

import os
import tomllib

import pytest

from memdir.integrations.clients import codex

PY = "/usr/bin/python3"
MINE = '# my settings\nmodel = "o3"  # mine\n{limit}\n[mcp_servers.other]\ncommand = "other-mcp"\n'


@pytest.mark.parametrize("limit, env", [
    ("tool_output_token_limit = 500", {"MEMDIR_TOOL_OUTPUT_CEILING": "1900"}),
    ("tool_output_token_limit = 100", {"MEMDIR_TOOL_OUTPUT_CEILING": "1000"}),  # the setting's floor
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
    assert _codex_env(tmp_path, isolated_home, project) == {"MEMDIR_TOOL_OUTPUT_CEILING": "1900"}

    config.write_text(config.read_text().replace("tool_output_token_limit = 500", "tool_output_token_limit = 400"))
    assert _doctor_lines(project) == [(
        f"codex: tool_output_token_limit in {config} is 400: memdir's server there gives memory_read in parts of "
        "up to 1900 bytes where that limit calls for 1500; run `memdir install codex --scope user` again")]
    assert run_cli("install", "codex").returncode == 0
    assert _doctor_lines(project) == []
    assert _codex_env(tmp_path, isolated_home, project) == {"MEMDIR_TOOL_OUTPUT_CEILING": "1500"}

    config.write_text(config.read_text().replace("tool_output_token_limit = 400\n", ""))  # back to Codex's default
    assert _doctor_lines(project) == [(
        f"codex: tool_output_token_limit in {config} is not set: memdir's server there gives memory_read in parts "
        "of up to 1500 bytes where that limit calls for 11900; run `memdir install codex --scope user` again")]
    assert run_cli("install", "codex").returncode == 0
    assert _doctor_lines(project) == []
    assert _codex_env(tmp_path, isolated_home, project) in (None, {})


TRUST = '[projects."{root}"]\ntrust_level = "trusted"\n'


@pytest.mark.parametrize("user, own, trust, expected", [
    ("tool_output_token_limit = 500\n", None, False, (500, "user")),  # control: the user's alone
    ("tool_output_token_limit = 500\n", "tool_output_token_limit = 300\n", True, (300, "project")),
    ("tool_output_token_limit = 500\n", "tool_output_token_limit = 300\n", False, (500, "user")),  # not trusted
    ("tool_output_token_limit = 300\n", "tool_output_token_limit = 20000\n", True, (20000, "project")),  # it wins
    ("", "tool_output_token_limit = 300\n", True, (300, "project")),
    ("", "model = 'o3'\n", True, (None, None)),  # none set: Codex's default
])
def test_the_limit_in_effect_is_the_last_layer_codex_reads_that_sets_it(tmp_path, user, own, trust, expected):
    from memdir.integrations.clients.outputlimit import token_limit

    root, config = tmp_path / "proj", tmp_path / "u" / ".codex" / "config.toml"
    config.parent.mkdir(parents=True)
    config.write_text(user + (TRUST.format(root=root) if trust else ""))
    if own is not None:
        (root / ".codex").mkdir(parents=True)
        (root / ".codex" / "config.toml").write_text(own)
    files = {"user": config, "project": root / ".codex" / "config.toml", None: None}
    assert token_limit(config, root) == (expected[0], files[expected[1]])
    assert token_limit(config)[0] == (500 if "500" in user else 300 if "300" in user else None)  # the user's alone


@pytest.mark.slow
def test_doctor_sees_a_lower_limit_in_a_trusted_projects_own_config(tmp_path, isolated_home, project):
    """trial22: doctor read `tool_output_token_limit` only in ~/.codex/config.toml; Codex 0.171 reads a trusted
    project's .codex/config.toml over it (measured: test_codex_applies_the_layers_the_reader_reads), so a project
    lowering it went unseen while Codex cut memdir's reads there. Now the user's entry, which serves every project,
    is sized by the smallest limit any trusted project applies, and doctor says when it is not; reinstalling writes
    it (read back by the real Codex). Control: the same file in an untrusted project (Codex ignores it) — silent."""
    from tests.conftest import run_cli

    user = tmp_path / "userhome" / ".codex" / "config.toml"
    user.parent.mkdir(parents=True)
    user.write_text('model = "o3"\n')
    own = project / ".codex" / "config.toml"
    own.parent.mkdir()
    own.write_text("tool_output_token_limit = 300\n")
    assert run_cli("install", "codex").returncode == 0
    assert _doctor_lines(project) == []  # control: an untrusted project's file, which Codex does not read
    assert _codex_env(tmp_path, isolated_home, project) is None

    user.write_text(user.read_text() + TRUST.format(root=project))  # the person trusts the project in Codex
    assert _doctor_lines(project) == [(
        f"codex: tool_output_token_limit in {own} is 300: memdir's server in {user} gives memory_read in parts of "
        "up to 11900 bytes where that limit calls for 1100; run `memdir install codex --scope user` again")]
    assert run_cli("install", "codex").returncode == 0
    assert _doctor_lines(project) == []
    assert _codex_env(tmp_path, isolated_home, project) == {"MEMDIR_TOOL_OUTPUT_CEILING": "1100"}


LINE = "x" * 59  # with its newline, 60 bytes: 100 of them are 6,000 bytes of a command's output


def _private_etc(tmp_path, system: dict) -> list[str]:
    """The command prefix that runs a program with ``/etc`` replaced, in a private mount namespace, by a copy of
    it whose ``codex/`` holds ``system`` ({file name: text}); the machine's /etc is never written. Skips, saying
    why, where this process may not make a mount namespace (unshare needs root or user namespaces)."""
    import shutil
    import subprocess

    etc = tmp_path / "etc"
    shutil.copytree("/etc", etc, symlinks=True, ignore_dangling_symlinks=True,
                    ignore=lambda folder, names: [n for n in names if not os.access(os.path.join(folder, n), os.R_OK)])
    (etc / "codex").mkdir(exist_ok=True)
    for name, text in system.items():
        (etc / "codex" / name).write_text(text)
    prefix = ["unshare", "-m", "--propagation", "private", "sh", "-c", f'mount --bind "{etc}" /etc && exec "$@"', "sh"]
    probe = subprocess.run([*prefix, "test", "-d", "/etc/codex"], capture_output=True, text=True, check=False)
    if probe.returncode != 0:
        pytest.skip(f"cannot give Codex its own /etc/codex here (unshare -m and mount need root): {probe.stderr.strip()}")
    return prefix


def _cuts(tmp_path, user: str, own, *extra, cwd: str = "", system: dict | None = None) -> bool:
    """Whether the real Codex cuts a command's 6,000-byte output, run in ``cwd`` (a folder of the project, a git
    work tree) with ``own`` as the project's .codex/config.toml (a text for the root's, {folder: text} for several,
    None: none), ``user`` as the user's config.toml ({root}: the project's path) and ``system`` as the files of
    /etc/codex (None: the machine's own /etc)."""
    import subprocess

    from tests.integrations.clients.realclients import binary
    from tests.responses_server import ResponsesServer

    home, root = tmp_path / "home", tmp_path / "proj"
    (home / ".codex").mkdir(parents=True)
    root.mkdir()
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    (home / ".codex" / "config.toml").write_text(user.format(root=root))
    for folder, text in ({"": own} if isinstance(own, str) else own or {}).items():
        (root / folder / ".codex").mkdir(parents=True)
        (root / folder / ".codex" / "config.toml").write_text(text)
    (root / cwd).mkdir(parents=True, exist_ok=True)
    prefix = _private_etc(tmp_path, system) if system is not None else []

    def script(body):
        items = body.get("input") or []
        if items and items[-1].get("type") == "function_call_output":
            return "done"
        return {"function_call": "exec_command", "arguments": {"cmd": f"for i in $(seq 100); do echo {LINE}; done"}}

    env = {k: v for k, v in os.environ.items() if not k.startswith(("OPENAI_", "CODEX_"))}
    env.update(HOME=str(home), CODEX_HOME=str(home / ".codex"), OPENAI_API_KEY="dummy", NO_COLOR="1")
    with ResponsesServer(script) as server:
        done = subprocess.run(
            [*prefix, binary("codex"), "exec", "--skip-git-repo-check", "--dangerously-bypass-approvals-and-sandbox",
             *extra, "-c", 'model_provider="scripted"', "-c", 'model="gpt-5.5"',
             "-c", f'model_providers.scripted={{name="scripted", base_url="{server.url}", wire_api="responses"}}',
             "run it"], capture_output=True, text=True, env=env, cwd=root / cwd, timeout=120,
            stdin=subprocess.DEVNULL, check=False)
        outputs = [item.get("output") for body in server.requests for item in body.get("input") or []
                   if item.get("type") == "function_call_output"]
    assert done.returncode == 0 and len(outputs) == 1, done.stderr[-2000:]
    return (LINE + "\n") * 100 not in str(outputs[0])


@pytest.mark.slow
@pytest.mark.parametrize("user, own, cut", [
    ("", None, False),  # control: Codex's default keeps it whole
    ("tool_output_token_limit = 300\n", None, True),
    (TRUST, "tool_output_token_limit = 300\n", True),  # a trusted project's own file
    ("", "tool_output_token_limit = 300\n", False),  # an untrusted project's: not read
    ("tool_output_token_limit = 300\n" + TRUST, "tool_output_token_limit = 20000\n", False),  # the project's wins
])
def test_codex_applies_the_layers_the_reader_reads(tmp_path, user, own, cut):
    """The facts memdir.integrations.clients.outputlimit is built on, read from the real Codex 0.171: which layer's
    tool_output_token_limit cuts a 6,000-byte command output (gpt-5.5 from its catalog keeps 18,039 bytes by
    default; a limit of 300 tokens keeps about 1,400) — and the reader names the same limit."""
    from memdir.integrations.clients.outputlimit import token_limit

    assert _cuts(tmp_path, user, own) is cut
    limit = token_limit(tmp_path / "home" / ".codex" / "config.toml", tmp_path / "proj")[0]
    assert (limit is not None and limit < 1000) is cut


@pytest.mark.parametrize("scope, own, trust, budget", [
    ("project", None, True, "1900"),  # the user's 500 applies in the project (was: none read, no env)
    ("project", "tool_output_token_limit = 300\n", True, "1100"),  # the project's own wins there
    ("project", "tool_output_token_limit = 300\n", False, "1900"),  # untrusted: Codex reads the user's alone
    ("user", "tool_output_token_limit = 300\n", True, "1100"),  # the user's entry serves that project too
    ("user", "tool_output_token_limit = 300\n", False, "1900"),  # control: a file Codex never reads
])
def test_install_sizes_the_server_by_the_limit_where_it_serves(tmp_path, monkeypatch, scope, own, trust, budget):
    import os
    import sys

    monkeypatch.setenv("PATH", os.path.dirname(sys.executable) + os.pathsep + os.environ.get("PATH", ""))  # memdir
    user, mem, root = tmp_path / "u", tmp_path / "mem", tmp_path / "proj"
    config = user / ".codex" / "config.toml"
    config.parent.mkdir(parents=True)
    config.write_text("tool_output_token_limit = 500\n" + (TRUST.format(root=root) if trust else ""))
    (root / ".codex").mkdir(parents=True)
    if own is not None:
        (root / ".codex" / "config.toml").write_text(own)
    codex.install(scope, mem, user_home=user, project=root, python=PY)
    written = codex.targets(scope, user, root)[0]
    assert tomllib.loads(written.read_text())["mcp_servers"]["memdir"]["env"] == {"MEMDIR_TOOL_OUTPUT_CEILING": budget}


@pytest.mark.parametrize("legacy, said", [
    ('MEMDIR_TOOL_OUTPUT_MAX_BYTES = "11900"', True),  # what a project install wrote before trial24
    ('MEMDIR_TOOL_OUTPUT_MAX_BYTES = "4000"', False),  # control: the person's own value, kept
])
def test_doctor_names_a_budget_an_older_install_wrote_and_the_install_replaces_it(tmp_path, isolated_home, legacy, said):
    """trial24: a project entry an older `memdir install codex` wrote states MEMDIR_TOOL_OUTPUT_MAX_BYTES = 11900,
    which overrides the person's own tool_output_max_bytes; doctor names it and the command, and that install
    rewrites the entry with the ceiling alone. A value the old rule would not have written there may be the person's
    (trial25: the older install recorded nothing of what it wrote): kept, and named as such."""
    import json
    import subprocess
    import sys

    from tests.conftest import run_cli

    root = tmp_path / "proj"
    root.mkdir()
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    path = os.path.dirname(sys.executable) + os.pathsep + os.environ.get("PATH", "")
    assert run_cli("--project", root, "install", "codex", "--scope", "project", env={"PATH": path}).returncode == 0
    own = root / ".codex" / "config.toml"
    own.write_text(own.read_text().replace('MEMDIR_TOOL_OUTPUT_CEILING = "11900"', legacy))
    manifest = isolated_home / "integrations" / "codex.json"  # an install before trial25 recorded no server_env
    manifest.write_text(json.dumps({k: {f: v for f, v in r.items() if f != "server_env"}
                                    for k, r in json.loads(manifest.read_text()).items()}))

    def notes():
        out = run_cli("--project", root, "doctor", "--json")
        return [n for n in json.loads(out.stdout)["notes"] if "MEMDIR_TOOL_OUTPUT_MAX_BYTES" in n]

    expected = [f"codex: memdir's server entry in {own} sets MEMDIR_TOOL_OUTPUT_MAX_BYTES = 11900 itself (an older "
                "`memdir install` wrote it), which overrides your own tool_output_max_bytes; run "
                "`memdir install codex --scope project` again (it states a ceiling instead)"]
    unknown = [(f"codex: memdir's server entry in {own} sets MEMDIR_TOOL_OUTPUT_MAX_BYTES = 4000, which overrides "
                "tool_output_max_bytes; an older `memdir install` wrote that variable and this one keeps it as yours: "
                "if you did not set it, remove the line and run `memdir install codex --scope project` again")]
    assert notes() == (expected if said else unknown)
    assert run_cli("--project", root, "install", "codex", "--scope", "project", env={"PATH": path}).returncode == 0
    env = tomllib.loads(own.read_text())["mcp_servers"]["memdir"]["env"]
    assert env == ({"MEMDIR_TOOL_OUTPUT_CEILING": "11900"} if said else
                   {"MEMDIR_TOOL_OUTPUT_MAX_BYTES": "4000", "MEMDIR_TOOL_OUTPUT_CEILING": "11900"})
    assert notes() == []  # the install recorded what it wrote now: the 4,000 it kept is the person's, unsaid


def _post_tool_use(hooks_json, project, body_text, home) -> str:
    """Run the PostToolUse command install wrote into ``hooks_json`` (with a shell, as Codex runs it) after a
    memory_read of ``body_text``'s memory whose output Codex's hook input holds whole; its stderr ("" when the
    hook recorded the body as given)."""
    import json
    import subprocess

    [group] = json.loads(hooks_json.read_text())["hooks"]["PostToolUse"]
    data = {"session_id": "s1", "hook_event_name": "PostToolUse", "cwd": str(project),
            "tool_name": "mcp__memdir__memory_read", "tool_input": {"name": "long"},
            "tool_response": {"content": [{"type": "text", "text": body_text}], "isError": False}}
    env = {k: v for k, v in os.environ.items() if not k.startswith("MEMDIR_TOOL_OUTPUT")}
    env["MEMDIR_LOG_LEVEL"] = "info"  # the skip is routine: said only when asked (RoutineSkip)
    done = subprocess.run(["/bin/sh", "-c", group["hooks"][0]["command"]], input=json.dumps(data),
                          capture_output=True, text=True, env={**env, "MEMDIR_HOME": str(home)}, timeout=60, check=False)
    assert done.returncode == 0 and done.stdout == "", done.stderr
    return done.stderr


@pytest.mark.parametrize("limit, ceiling", [
    ("tool_output_token_limit = 1000", "3900"),
    ("", None),  # control: Codex's default keeps the 6,000-byte read whole, the body counts as given
])
def test_each_hook_states_the_ceiling_of_the_servers_entry(tmp_path, isolated_home, project, limit, ceiling):
    """trial24 left the hooks' commands without the ceiling the server's entry states: the PostToolUse hook took
    a memory_read of 6,000 bytes for whole under a limit of 1,000 tokens (Codex keeps 3,900 bytes: the middle of
    the output is cut for the model, while the hook's input holds all of it), so the next prompts' recall named a
    body the model never saw whole. Now every hook command sets the entry's MEMDIR_TOOL_OUTPUT_CEILING."""
    import json
    import sys

    from memdir import Memory

    user = tmp_path / "u"
    (user / ".codex").mkdir(parents=True)
    (user / ".codex" / "config.toml").write_text(MINE.format(limit=limit))
    codex.install("user", isolated_home, user_home=user, python=sys.executable)
    server = tomllib.loads((user / ".codex" / "config.toml").read_text())["mcp_servers"]["memdir"]
    hooks = user / ".codex" / "hooks.json"
    commands = [g["hooks"][0]["command"] for groups in json.loads(hooks.read_text())["hooks"].values() for g in groups]
    prefix = f"MEMDIR_TOOL_OUTPUT_CEILING={ceiling} " if ceiling else ""
    assert [c.split()[-1] for c in commands] == list(codex.HOOK_EVENTS)
    assert commands == [f"{prefix}{sys.executable} -m memdir.hooks codex {event}" for event in codex.HOOK_EVENTS]
    assert (server.get("env") or {}).get("MEMDIR_TOOL_OUTPUT_CEILING") == ceiling  # the same as the server's
    mem = Memory.open(home=isolated_home, project=project, actor="human", search_vectors="off", limit_body=20_000)
    mem.write("long", "a long runbook", "project", "\n".join(f"step {n}: check the pump." for n in range(220)))
    text = Memory.open(home=isolated_home, project=project, search_vectors="off").call_tool(
        "memory_read", {"name": "long"})
    assert 3_900 < len(text.encode()) < 11_900  # what a server without the ceiling printed, in one output
    said = _post_tool_use(hooks, project, text, isolated_home)
    assert said == ("memdir hook PostToolUse: mcp__memdir__memory_read showed long in parts; recall may give it\n"
                    if ceiling else ""), said  # with the ceiling: the read Codex cut is not taken as given


@pytest.mark.parametrize("client, environ, kept", [
    ("codex", {"MEMDIR_TOOL_OUTPUT_CEILING": "3900"}, 3900),
    ("codex", {"MEMDIR_TOOL_OUTPUT_CEILING": "20000"}, 11900),  # a ceiling never raises what Codex keeps
    ("codex", {"MEMDIR_TOOL_OUTPUT_CEILING": "lots"}, 11900),  # not a number: no ceiling
    ("codex", {}, 11900),  # control: Codex's default
    ("claude-code", {"MEMDIR_TOOL_OUTPUT_CEILING": "3900"}, 3900),
    ("claude-code", {}, None),  # control: Claude Code keeps every memdir output whole
])
def test_the_hook_judges_whole_by_the_ceiling_it_is_given(client, environ, kept):
    from memdir.integrations.claude_code.dialects import kept_whole

    assert kept_whole(client, environ) == kept
