"""What a new user meets at the CLI: the help, the messages and the counts say what is true."""

from __future__ import annotations

import json

import pytest

from memdir.integrations.claude_code import hooks
from tests.conftest import run_cli


@pytest.mark.parametrize("option", ["--json", "--project", "--project=/tmp"])
def test_a_hook_names_the_option_it_does_not_take(option, capsys):
    assert hooks.main(["claude-code", "SessionStart", option]) == 0  # a hook never fails its client
    out = capsys.readouterr()
    assert out.out == "" and out.err == (
        f"memdir hook: option {option.partition('=')[0]} is not taken (a hook takes only --home; its project is its "
        "input's cwd); nothing done; usage: memdir hook {claude-code,codex,gemini,cursor} EVENT [--home DIR]\n")


def test_a_hook_without_an_event_prints_the_usage_alone(capsys):
    assert hooks.main(["claude-code"]) == 0  # control: no option, the plain usage line
    assert capsys.readouterr().err == "memdir hook: usage: memdir hook {claude-code,codex,gemini,cursor} EVENT [--home DIR]\n"


@pytest.mark.slow
def test_the_hook_help_lists_what_it_takes_and_names_every_client():
    done = run_cli("hook", "--help")
    assert done.returncode == 0
    assert done.stdout.startswith("usage: memdir hook [-h] [--home HOME] {claude-code,codex,gemini,cursor} event\n")
    text = " ".join(done.stdout.split())
    assert "Run one hook of a coding agent (Claude Code, Codex, Gemini CLI or Cursor)" in text
    assert "--home HOME" in text and "--json" not in text and "--project" not in text
    assert "gemini: SessionStart, BeforeAgent, SessionEnd, PreCompress, AfterTool" in text
    control = " ".join(run_cli("list", "--help").stdout.split())  # control: a command that takes them lists them
    assert "--json" in control and "--project PROJECT" in control


def test_a_name_not_found_offers_the_closest_names(person):
    from memdir.errors import NotFound

    for name, description in [("office-wifi", "Office wifi password is on the fridge"),
                              ("Zoë Martin", "Zoë Martin is the designer"), ("deploy-window", "Deploys on Tuesday")]:
        person.write(name, description, "project", "")
    said = {}
    for asked in ("officce-wifi", "zoe", "nothing-like-it"):
        with pytest.raises(NotFound) as caught:
            person.read(asked)
        said[asked] = str(caught.value)
    assert said["officce-wifi"] == 'memory not found: "officce-wifi" in any layer; did you mean \'office-wifi\'?'
    assert said["zoe"] == 'memory not found: "zoe" in any layer; did you mean \'zoe-martin\'?'
    assert said["nothing-like-it"] == 'memory not found: "nothing-like-it" in any layer'  # control: none is close
    assert person.read("office-wifi").record.description == "Office wifi password is on the fridge"  # control
    # newuser49: a history of a mistyped name said only 'no history for "officce-wifi"'; it offers the same names
    for asked in ("officce-wifi", "nothing-like-it"):
        with pytest.raises(NotFound) as caught:
            person.history(asked)
        said[asked] = str(caught.value)
    assert said["officce-wifi"] == 'no history for "officce-wifi"; did you mean \'office-wifi\'?'
    assert said["nothing-like-it"] == 'no history for "nothing-like-it"'  # control: none is close
    assert [v.version for v in person.history("office-wifi").versions] == [1]  # control: the right name has one


@pytest.mark.slow
def test_the_cli_says_the_closest_name_and_an_empty_prompt(project):
    assert run_cli("--project", project, "write", "office-wifi", "-d", "Office wifi password is on the fridge",
                   "--body", "Ask the front desk.").returncode == 0
    typo = run_cli("--project", project, "read", "officce-wifi")
    assert typo.returncode == 1 and typo.stderr == ('memdir: memory not found: "officce-wifi" in any layer; did you '
                                                    "mean 'office-wifi'? — `memdir list` shows the names\n")
    empty = run_cli("--project", project, "recall", input="")  # ux49: a usage error, exit 2, as a missing argument
    assert empty.returncode == 2 and empty.stdout == "" and empty.stderr == (
        "memdir: the prompt was empty (stdin gave nothing): nothing recalled; give it as text, with --prompt, "
        "or on stdin\n")
    blank = run_cli("--project", project, "recall", "--json", "--prompt", "  ")
    assert blank.returncode == 2 and json.loads(blank.stdout) == {
        "error": "the prompt was empty: nothing recalled; give it as text, with --prompt, or on stdin",
        "kind": "UsageError"}
    # control: the prompt hook, whose client sent an empty prompt, stays silent and exits 0; a prompt recalls
    hook_input = {"session_id": "ux49", "transcript_path": "/tmp/none.jsonl", "cwd": str(project),
                  "hook_event_name": "UserPromptSubmit"}
    hooked = run_cli("hook", "claude-code", "UserPromptSubmit", input=json.dumps({**hook_input, "prompt": ""}))
    assert (hooked.returncode, hooked.stdout, hooked.stderr) == (0, "", "")
    hooked = run_cli("hook", "claude-code", "UserPromptSubmit",
                     input=json.dumps({**hook_input, "prompt": "where is the office wifi password?"}))
    assert hooked.returncode == 0 and "Ask the front desk." in hooked.stdout, hooked.stderr
    asked = run_cli("--project", project, "recall", input="where is the office wifi password?")  # control
    assert asked.returncode == 0 and asked.stderr == "" and "Ask the front desk." in asked.stdout
    unrelated = run_cli("--project", project, "recall", "rename the signup button")  # newuser44: said, not silent
    assert unrelated.returncode == 0 and unrelated.stdout == "" and unrelated.stderr == (
        "memdir: nothing recalled: no memory bears on this prompt closely enough (`memdir search` also lists "
        "weaker matches, with their scores)\n")
    as_json = run_cli("--project", project, "recall", "--json", "rename the signup button")
    assert as_json.stderr == "" and json.loads(as_json.stdout)["recall"] == ""  # --json says it in its value
    # try48: a memory that bears on the prompt but has no body is named with the reason --json gives, not "no memory
    # bears on this prompt"
    assert run_cli("--project", project, "write", "ci", "-d", "CI runs on GitHub Actions", "-t",
                   "project").returncode == 0
    bodiless = run_cli("--project", project, "recall", "which CI do we use?")
    reasons = json.loads(run_cli("--project", project, "recall", "--json", "which CI do we use?").stdout)
    assert reasons["not_recalled"] == [{"name": "ci", "scope": "project",
                                        "reason": "no body: its index line says all of it"}]
    assert bodiless.returncode == 0 and bodiless.stdout == "" and bodiless.stderr == (
        "memdir: nothing recalled: 'ci' (project) bears on it but is not given: no body: its index line says all "
        "of it\n")


def test_a_query_that_starts_with_a_dash_is_told_to_follow_double_dash(project, capsys):
    from memdir.integrations.cli.main import main

    assert main(["--project", str(project), "search", "--max-retries"]) == 2
    assert capsys.readouterr().err.splitlines()[-1] == (
        "memdir search: error: the following arguments are required: query ('--max-retries' is not an option "
        "here: a value that starts with \"-\" goes after \"--\", as in `memdir search -- --max-retries`)")
    assert main(["--project", str(project), "search", "--json"]) == 2  # control: no stray option, no hint
    assert capsys.readouterr().err.splitlines()[-1] == (
        "memdir search: error: the following arguments are required: query")
    assert main(["--project", str(project), "search", "--", "--max-retries"]) == 0  # the way it names works
    assert capsys.readouterr().out == "No memories match '--max-retries'.\n"


@pytest.mark.parametrize("option", ["--help", "-h"])
def test_a_hook_asked_for_help_names_every_client_s_events_on_stderr(option, capsys):
    assert hooks.main(["claude-code", option]) == 0  # a hook never fails its client, nor writes to its stdout
    out = capsys.readouterr()
    assert out.out == "" and out.err == (
        "memdir hook: usage: memdir hook {claude-code,codex,gemini,cursor} EVENT [--home DIR]; EVENT: claude-code: "
        "SessionStart, UserPromptSubmit, SessionEnd, PreCompact, PostToolUse; codex: SessionStart, UserPromptSubmit, Stop, "
        "PreCompact, PostToolUse; gemini: SessionStart, BeforeAgent, SessionEnd, PreCompress, "
        "AfterTool; cursor: sessionStart, sessionEnd; "
        "the client's hook JSON on stdin (`memdir hook --help` explains)\n")
    assert hooks.main(["claude-code", "SessionStart", "--json"]) == 0  # control: another option is still refused
    assert "option --json is not taken" in capsys.readouterr().err
