"""Every snippet of README.md runs as written (issue 11): the Python block in a
temp project, and every `memdir …` line of the shell blocks through the real
CLI, in order, on a temp home. Lines that are not memdir commands (`make`,
`pip install`, the benchmark scripts) are listed and left out on purpose:
they build environments or run for minutes."""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys

import pytest

from memdir import Memory
from tests.conftest import REPO

README = (REPO / "README.md").read_text(encoding="utf-8")
NOT_RUN = ("make ", "python3 -m venv ", "pip install", ".venv/bin/python benchmarks/", ".venv/bin/python evals/")
SERVERS = ("memdir panel", "memdir mcp")  # serve until stopped: their line is checked against their --help


def _blocks(language: str) -> list[str]:
    return re.findall(rf"```{language}\n(.*?)```", README, re.S)


@pytest.mark.slow
def test_the_python_snippet_runs_as_written(tmp_path, isolated_home):
    (code,) = _blocks("python")
    project = tmp_path / "app"
    (project / ".git").mkdir(parents=True)  # nothing else: the snippet needs no file of its own (trial18)
    # what the snippet's recall gave, on a store holding only the memory it wrote
    shown = "\nprint('recalled:', [m.name for m in mem.recall_result(user_prompt).memories])"
    done = subprocess.run([sys.executable, "-c", code + shown], cwd=project, capture_output=True, text=True,
                          timeout=120, env=dict(os.environ, MEMDIR_SEARCH_VECTORS="off"))
    assert done.returncode == 0, done.stderr
    # report.status and report.applied: the VPN fact was saved; the recall found the indent memory
    assert done.stdout == "ok 1\nrecalled: ['indent-style']\n", done.stdout
    assert list((isolated_home / "projects").glob("*/indent-style.md"))  # the tool call wrote it
    (saved,) = [m for m in Memory.open(home=isolated_home, project=project).list().memories if m.origin == "extracted"]
    assert saved.description == "Staging deploys need the VPN."  # what consolidate() took from the messages


@pytest.mark.slow
def test_the_claude_api_memory_tool_snippet_runs_as_written(tmp_path, isolated_home):
    """The `py` block (the anthropic SDK's tool runner with memdir's memory tool) as a new user runs it, the
    SDK's own client pointed by its environment at a scripted Messages API (tests/messages_server.py)."""
    pytest.importorskip("anthropic", reason="the anthropic extra is not installed (pip install memdir[anthropic])")
    from tests.messages_server import MessagesServer

    (code,) = _blocks("py")
    project = tmp_path / "app"
    (project / ".git").mkdir(parents=True)
    memory = "memory"  # the tool's name in the Claude API
    replies = [{"tool_use": memory, "input": {"command": "view", "path": "/memories"}},
               {"tool_use": memory, "input": {"command": "create", "path": "/memories/user/package-manager.md",
                                              "file_text": "# Prefers pnpm over npm\nIn every JavaScript project."}},
               "Noted: pnpm."]
    with MessagesServer(replies) as server:
        done = subprocess.run([sys.executable, "-c", code], cwd=project, capture_output=True, text=True, timeout=120,
                              env=dict(os.environ, ANTHROPIC_BASE_URL=server.url, ANTHROPIC_API_KEY="dummy",
                                       MEMDIR_SEARCH_VECTORS="off"), check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout == "Noted: pnpm.\n"
    assert server.requests[0]["tools"] == [{"type": "memory_20250818", "name": "memory"}]
    assert server.tool_results(2)[0]["content"].splitlines()[0] == \
        "File created successfully at: /memories/user/package-manager.md"
    record = Memory.open(home=isolated_home, project=project).read("package-manager", count=False).record
    assert (record.description, record.type, record.origin) == ("Prefers pnpm over npm", "user", "agent")


@pytest.mark.slow
def test_every_memdir_line_of_the_shell_snippets_runs(tmp_path, isolated_home):
    project = tmp_path / "app"
    (project / ".git").mkdir(parents=True)
    env = dict(os.environ, MEMDIR_SEARCH_VECTORS="off", CLAUDE_CONFIG_DIR=str(tmp_path / "claude"),
               DSH_HOME=str(tmp_path / "dsh"))
    # something for the import lines to bring (an import of nothing exits 1, issue 25)
    from memdir.importing.sources import claude_code_dir, dsh_key
    auto = claude_code_dir(project.resolve(), {"CLAUDE_CONFIG_DIR": env["CLAUDE_CONFIG_DIR"]})
    auto.mkdir(parents=True)
    (auto / "testing.md").write_text("---\nname: testing\ndescription: Tests use the docker database\n---\n")
    dsh = tmp_path / "dsh" / "memory" / dsh_key(str(project.resolve()))
    dsh.mkdir(parents=True)
    (dsh / "ci.md").write_text("---\nname: ci\ndescription: CI runs on GitHub Actions\ntype: project\n---\n")
    bin_dir = tmp_path / "bin"  # `memdir` on PATH, as after `pip install`
    bin_dir.mkdir()
    (bin_dir / "memdir").write_text(f"#!/bin/sh\nexec {sys.executable} -m memdir.cli \"$@\"\n")
    (bin_dir / "memdir").chmod(0o755)
    env["PATH"] = f"{bin_dir}{os.pathsep}{env['PATH']}"
    ran, skipped = [], []
    for block in _blocks("sh"):
        for line in block.replace("\\\n", " ").splitlines():  # a line continued with a backslash is one command
            command = line.split("#", 1)[0].strip()  # no snippet quotes a '#'

            if not command:
                continue
            if command.startswith("echo ") and "| memdir hook " in command:  # a hook fed its JSON, through a shell
                done = subprocess.run(["bash", "-c", command], cwd=project, capture_output=True, text=True, timeout=120,
                                      env=env)
                assert done.returncode == 0 and not done.stderr, (command, done.stdout, done.stderr)
                if "SessionStart" in command:  # what the agent is given: the context block
                    assert '"additionalContext": "<memory_context>' in done.stdout, done.stdout
                ran.append(command)
                continue
            if command.startswith("printf ") and command.endswith(" > session.txt"):  # the transcript consolidated
                done = subprocess.run(["bash", "-c", command], cwd=project, capture_output=True, text=True, timeout=120,
                                      env=env, check=False)
                assert done.returncode == 0 and not done.stderr, (command, done.stderr)
                ran.append(command)
                continue
            if not command.startswith("memdir "):
                skipped.append(command)
                continue
            if command.startswith(SERVERS):  # every option the line names is one the command takes
                words = shlex.split(command)
                done = subprocess.run(words[:2] + ["--help"], cwd=project, capture_output=True, text=True,
                                      timeout=120, env=env)
                options = re.findall(r"--[a-z][a-z-]*", command)
                assert options and all(option in done.stdout for option in options), (command, done.stdout)
            else:
                done = subprocess.run(shlex.split(command), cwd=project, capture_output=True, text=True, timeout=120,
                                      env=env)
            if command == "memdir sync":  # the README's remote is an example no test reaches: the documented warning
                from memdir.operations.sync import OFFLINE_EXIT

                assert done.returncode == OFFLINE_EXIT and "remote not reachable" in done.stdout, (done.stdout, done.stderr)
                continue
            assert done.returncode == 0, (command, done.stdout, done.stderr)
            if command.startswith("memdir recall "):  # what it shows is what a user sees: the memory written above
                assert [m["name"] for m in json.loads(done.stdout)["memories"]] == ["db-port"], done.stdout
            if command.startswith("memdir consolidate session.txt"):  # the README's own transcript, read as text
                assert "transcript: session.txt (text, 2 messages, 1 from the person" in done.stdout, done.stdout
                assert "create → staging-deploy-needs-vpn" in done.stdout, done.stdout  # what a new user sees
            ran.append(command)
    assert len(ran) >= 17 and "memdir read db-port" in ran and "memdir uninstall claude-code" in ran
    assert "memdir consolidate session.txt --dry-run --explain" in ran  # checked above, on the file the README writes
    assert sum("| memdir hook claude-code " in command for command in ran) == 2  # SessionStart, UserPromptSubmit
    assert all(any(command.startswith(prefix) for prefix in NOT_RUN) for command in skipped), skipped


def test_every_setting_and_memdir_variable_is_in_the_readme():
    from memdir.settings import DEFAULTS

    settings = README[README.index("## Settings"):README.index("## Benchmarks")]
    # every setting, in the table (each is also MEMDIR_<NAME>); before: search_vectors was missing
    for name in DEFAULTS:
        assert f"`{name}`" in settings, name
    assert "`MEMDIR_<NAME>`" in settings and "MEMDIR_SEARCH_VECTORS=off" in settings
    # every other MEMDIR_ variable the code reads, in the table of variables
    used = set()
    for path in (REPO / "src").rglob("*.py"):
        used |= set(re.findall(r"MEMDIR_[A-Z_]*[A-Z]", path.read_text(encoding="utf-8")))
    others = used - {"MEMDIR_" + name.upper() for name in DEFAULTS}
    assert others == {"MEMDIR_HOME", "MEMDIR_PROJECT", "MEMDIR_LOG_LEVEL", "MEMDIR_SWEEP_INTERVAL",
                      "MEMDIR_STARTING_WAIT", "MEMDIR_TOOL_OUTPUT_CEILING", "MEMDIR_EXTRACTOR_RUN"}
    for variable in others | {"DSH_HOME"}:
        assert f"| `{variable}` |" in settings, variable
    assert "DSH agent harness" in settings  # $DSH_HOME is explained, not only named
