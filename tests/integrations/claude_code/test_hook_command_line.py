"""A hook never fails its client, whatever its command line: ``--home`` without a value, empty, twice,
relative or a file, an unknown event, stdin closed — for every client, through ``memdir hook`` and
``python -m memdir.hooks`` alike: exit 0, nothing on stdout, one line on stderr saying why. Never the
default home in place of the one the command line meant. The CLI keeps its errors (exit 2 / 1)."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys

import pytest

from memdir.integrations.claude_code import hooks
from memdir.prompt import recalled
from tests.conftest import run_cli

USAGE = "usage: memdir hook {claude-code,codex,gemini,cursor} EVENT [--home DIR]"
NO_VALUE = f"memdir hook: option --home needs a value (the memdir home, an absolute path); nothing done; {USAGE}\n"
# client -> (its session-start event, its prompt event or None)
EVENTS = {"claude-code": ("SessionStart", "UserPromptSubmit"), "codex": ("SessionStart", "UserPromptSubmit"),
          "gemini": ("SessionStart", "BeforeAgent"), "cursor": ("sessionStart", None)}


def _input(client: str, project) -> str:
    key = "workspace_roots" if client == "cursor" else "cwd"
    return json.dumps({key: [str(project)] if client == "cursor" else str(project), "session_id": "s1",
                       "prompt": "which port does the dev postgres listen on"})


def _main(argv: list[str], stdin: str, capsys, monkeypatch) -> tuple[int, str, str]:
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    code = hooks.main(argv)
    out = capsys.readouterr()
    return code, out.out, out.err


def _cases(home, file_home):
    """(extra argv, the exact stderr line, or a function of the event giving it)."""
    return [
        (["--home"], NO_VALUE),
        (["--home="], NO_VALUE),
        (["--home", "--json"], NO_VALUE),
        (["--home", str(home), "--home", str(home)],
         f"memdir hook: option --home is given 2 times ({str(home)!r}, {str(home)!r}); give it once; nothing done; "
         f"{USAGE}\n"),
        (["--home", "rel/home"], lambda event: f"memdir hook {event}: the memdir home 'rel/home' (--home) is a "
                                               "relative path, which would put a different home in every directory "
                                               "memdir runs from; give an absolute path\n"),
        (["--home", str(file_home)], lambda event: f"memdir hook {event}: the memdir home {str(file_home)!r} "
                                                   "(--home) is not a directory; give a directory (it is created "
                                                   "when missing)\n"),
    ]


@pytest.mark.parametrize("client", list(EVENTS))
def test_a_bad_hook_command_line_is_one_line_and_exit_0_for_every_client(client, mem, project, isolated_home,
                                                                          capsys, monkeypatch):
    mem.write("db-port", "Dev PostgreSQL listens on 5433", "project", "The dev postgres port is 5433.")
    file_home = project / "home-file"
    file_home.write_text("x")
    stdin = _input(client, project)
    for event in [e for e in EVENTS[client] if e]:
        # control: the same command with a good --home prints the memory (MEMDIR_HOME names the same home,
        # so a --home without a value falling back to it would print it too)
        code, out, err = _main([client, event, "--home", str(isolated_home)], stdin, capsys, monkeypatch)
        if client == "gemini" and event == "SessionStart":  # held for the next prompt (dialects.START_AT_PROMPT)
            assert out == "" and "db-port" in recalled.take_start(isolated_home, "s1", mem.session.project_root)[0], event
            out = "db-port"
        assert code == 0 and err == "" and "db-port" in out, (client, event)
        for extra, line in _cases(isolated_home, file_home):
            code, out, err = _main([client, event, *extra], stdin, capsys, monkeypatch)
            assert (code, out, err) == (0, "", line(event) if callable(line) else line), (client, event, extra)
        code, out, err = _main([client, "NoSuchEvent", "--home", str(isolated_home)], stdin, capsys, monkeypatch)
        assert (code, out) == (0, "") and err == (f"memdir hook NoSuchEvent: unknown hook event 'NoSuchEvent' of "
                                                  f"{client} (handled: {', '.join(hooks.DIALECTS[client])})\n")


def test_a_hook_with_stdin_closed_says_so(mem, project, isolated_home, capsys, monkeypatch):
    mem.write("db-port", "Dev PostgreSQL listens on 5433", "project", "")
    for client, (start, prompt) in EVENTS.items():
        for event in [e for e in (start, prompt) if e]:
            monkeypatch.setattr(sys, "stdin", None)
            assert hooks.main([client, event]) == 0
            out = capsys.readouterr()
            assert (out.out, out.err) == ("", f"memdir hook {event}: no hook input (stdin is closed)\n"), client


def test_a_failure_outside_the_hook_itself_is_still_exit_0(monkeypatch, capsys):
    def broken(argv):
        raise RuntimeError("boom")

    monkeypatch.setattr(hooks, "_main", broken)
    assert hooks.main(["claude-code", "SessionStart"]) == 0
    assert capsys.readouterr().err == "memdir hook: skipped after an error: RuntimeError: boom\n"


def _run(argv: list[str], stdin: str | None, entry: str) -> subprocess.CompletedProcess:
    command = [sys.executable, "-m", "memdir", "hook"] if entry == "cli" else [sys.executable, "-m", "memdir.hooks"]
    kwargs = {"stdin": subprocess.DEVNULL} if stdin is None else {"input": stdin}
    return subprocess.run([*command, *argv], capture_output=True, text=True, timeout=60, env=dict(os.environ),
                          **kwargs)


@pytest.mark.parametrize("entry", ["cli", "module"])
def test_both_entry_points_never_fail_the_client(entry, mem, project, isolated_home, tmp_path, monkeypatch):
    mem.write("db-port", "Dev PostgreSQL listens on 5433", "project", "The dev postgres port is 5433.")
    default_home = tmp_path / "userhome" / ".local" / "share" / "memdir"
    monkeypatch.delenv("MEMDIR_HOME")  # nothing to fall back to but the platform default (under the temp HOME)
    home = str(isolated_home)
    stdin = _input("claude-code", project)
    for event in ("SessionStart", "UserPromptSubmit"):
        for extra in (["--home"], ["--home="]):
            done = _run(["claude-code", event, *extra], stdin, entry)
            assert (done.returncode, done.stdout, done.stderr) == (0, "", NO_VALUE), (event, extra)
        assert not default_home.exists()  # the default home was not opened in its place
        done = _run(["claude-code", event, "--home", home], stdin, entry)  # control: named, it answers
        assert done.returncode == 0 and "db-port" in done.stdout and done.stderr == "", event
    empty = _run(["claude-code", "UserPromptSubmit", "--home", home], None, entry)
    assert (empty.returncode, empty.stdout, empty.stderr) == (
        0, "", "memdir hook UserPromptSubmit: empty hook input on stdin\n")
    command = "memdir hook" if entry == "cli" else "memdir.hooks"
    closed = subprocess.run(f"'{sys.executable}' -m {command} claude-code UserPromptSubmit --home '{home}' <&-",
                            shell=True, capture_output=True, text=True, timeout=60)
    assert (closed.returncode, closed.stdout, closed.stderr) == (
        0, "", "memdir hook UserPromptSubmit: no hook input (stdin is closed)\n")  # was a traceback, exit 1


def test_the_cli_keeps_its_errors_for_the_same_options(isolated_home):
    missing = run_cli("list", "--home")
    assert missing.returncode == 2 and "argument --home: expected one argument" in missing.stderr
    empty = run_cli("list", "--home=")
    assert empty.returncode == 1 and empty.stderr == (
        "memdir: the memdir home '' (--home) is empty; give an absolute path, or leave --home out for the default "
        "home\n")
    relative = run_cli("list", "--home", "rel/home")
    assert relative.returncode == 1 and "is a relative path" in relative.stderr
    assert run_cli("list", "--home", str(isolated_home)).returncode == 0  # control


def test_an_empty_home_is_refused_by_the_one_rule_and_none_is_the_default(isolated_home):
    from memdir.errors import InvalidInput
    from memdir.paths import resolve_home

    with pytest.raises(InvalidInput, match=r"the memdir home '' \(--home\) is empty"):
        resolve_home("", {"MEMDIR_HOME": str(isolated_home)})
    assert resolve_home(None, {"MEMDIR_HOME": str(isolated_home)}) == isolated_home  # control


def test_an_option_without_its_value_before_hook_is_the_hook_s_to_report():
    for option in ("--home", "--project"):
        done = subprocess.run([sys.executable, "-m", "memdir", option, "hook", "claude-code", "SessionStart"],
                              input="{}", capture_output=True, text=True, timeout=60)
        what = ("needs a value (the memdir home, an absolute path)" if option == "--home" else
                "is not taken (a hook takes only --home; its project is its input's cwd)")
        assert (done.returncode, done.stdout, done.stderr) == (0, "", f"memdir hook: option {option} {what}; nothing "
                                                                      f"done; {USAGE}\n")  # was argparse's exit 2
    control = run_cli("--home", "list")  # not a hook: the CLI's usage error
    assert control.returncode == 2 and control.stderr.startswith("usage: memdir ")
