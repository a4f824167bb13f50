"""One session rule for every entry point: missing projects, deleted working
directories, $HOME, symlinks and git worktrees (memdir.session)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from memdir import Memory, ScopeError
from memdir.integrations.cli.main import main
from memdir.integrations.cli.search import NOTHING_RECALLED
from memdir.paths import CWD_GONE, project_layer_dir
from memdir.session import open_session
from tests.conftest import run_cli

# Every command that reads or writes a project, with the arguments it needs.
PROJECT_COMMANDS = [
    ["write", "x", "-d", "a fact", "-t", "project", "--body", "b"],
    ["read", "x"], ["list"], ["delete", "x"], ["forget", "x"], ["prune", "--older-than", "1"],
    ["clear", "--scope", "project", "--yes"], ["context"], ["status"], ["doctor"], ["verify"],
    ["history", "x"], ["show", "x", "--version", "1"], ["restore", "x", "--version", "1"],
    ["tombstones"], ["tombstone", "lift", "t-000000000000"], ["review"], ["approve", "x"], ["reject", "x"],
    ["pin", "x"], ["unpin", "x"], ["mute", "x"], ["unmute", "x"], ["search", "port"], ["recall", "port"],
    ["reindex", "--quiet"], ["consolidate", "--queue"], ["ingest", "--claude-code"],
    ["install", "claude-code", "--scope", "project"], ["uninstall", "claude-code", "--scope", "project"],
    ["mcp"],
]


@pytest.mark.parametrize("command", PROJECT_COMMANDS, ids=lambda c: " ".join(c[:2]))
def test_a_missing_project_directory_is_refused_by_every_command(command, tmp_path, isolated_home, capsys):
    ghost = tmp_path / "no" / "such" / "project"
    code = main(["--project", str(ghost), *command])
    err = capsys.readouterr().err
    assert code == 1, err
    assert f"project directory '{ghost}' does not exist" in err
    assert not (isolated_home / "projects").exists()  # nothing created for it


@pytest.mark.slow
def test_a_missing_project_is_refused_with_json_and_an_existing_one_works(tmp_path, project):
    ghost = tmp_path / "ghost"
    done = run_cli("--project", ghost, "--json", "list")
    assert done.returncode == 1
    assert json.loads(done.stdout) == {
        "error": f"project directory '{ghost}' does not exist; give an existing directory "
                 "(--project DIR or MEMDIR_PROJECT)", "kind": "ScopeError"}
    ok = run_cli("--project", project, "--json", "list")  # control
    assert ok.returncode == 0 and json.loads(ok.stdout) == {"memories": [], "malformed": [], "unavailable": None}


def test_memdir_project_pointing_nowhere_is_refused_too(tmp_path, isolated_home):
    with pytest.raises(ScopeError, match="does not exist"):
        open_session(isolated_home, environ={"MEMDIR_PROJECT": str(tmp_path / "gone")})
    a_file = tmp_path / "file.txt"
    a_file.write_text("x")
    with pytest.raises(ScopeError, match="is not a directory"):
        Memory.open(home=isolated_home, project=a_file)


def _in_deleted_cwd(tmp_path, *args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    """Run the CLI from a working directory that is deleted before memdir starts."""
    doomed = tmp_path / "doomed"
    doomed.mkdir()
    script = (f"cd {doomed} && rmdir {doomed} && exec {sys.executable} -m memdir "
              + " ".join(f"'{a}'" for a in args))
    full = dict(os.environ, **(env or {}))
    return subprocess.run(["/bin/sh", "-c", script], capture_output=True, text=True, env=full, timeout=120)


@pytest.mark.slow
def test_a_deleted_working_directory_keeps_the_user_layer_and_refuses_project_work(tmp_path, project, person):
    person.write("tz", "The person works in UTC+8", "user", "")
    listed = _in_deleted_cwd(tmp_path, "list")
    assert listed.returncode == 0, listed.stderr
    assert "- tz (type: user; layer: user) — The person works in UTC+8" in listed.stdout
    assert f"(project memories unavailable: {CWD_GONE})" in listed.stdout
    context = _in_deleted_cwd(tmp_path, "context")
    assert context.returncode == 0 and "## User memories" in context.stdout
    assert "## Project memories" not in context.stdout
    for command in (["write", "p", "-d", "a project fact", "-t", "project"], ["ingest", "--claude-code"],
                    ["install", "claude-code", "--scope", "project"]):
        done = _in_deleted_cwd(tmp_path, *command)
        assert done.returncode == 1, (command, done.stderr)
        assert CWD_GONE in done.stderr and "Traceback" not in done.stderr, command
    control = _in_deleted_cwd(tmp_path, "--project", str(project), "write", "p", "-d", "a project fact",
                              "-t", "project")
    assert control.returncode == 0 and control.stdout.strip() == "Memory created: p (project)"


def test_a_deleted_working_directory_in_the_api(tmp_path, isolated_home):
    doomed = tmp_path / "doomed"
    doomed.mkdir()
    here = os.getcwd()
    os.chdir(doomed)
    try:
        doomed.rmdir()
        mem = Memory.open(home=isolated_home)
    finally:
        os.chdir(here)
    assert mem.project_root is None and mem.project_error == CWD_GONE
    with pytest.raises(ScopeError, match="working directory no longer exists"):
        mem.write("p", "a project fact", "project", "")
    assert mem.write("u", "a user fact", "user", "").scope == "user"  # control


@pytest.mark.slow
def test_home_as_the_project_is_the_same_rule_everywhere(isolated_home, project, person):
    home_dir = os.environ["HOME"]
    session = open_session(isolated_home, home_dir)
    assert session.project_root is None and "it is / or $HOME" in session.project_error
    done = run_cli("--project", home_dir, "write", "p", "-d", "a project fact", "-t", "project")
    assert done.returncode == 1 and "it is / or $HOME" in done.stderr
    hook = subprocess.run([sys.executable, "-m", "memdir.hooks", "claude-code", "SessionStart"],
                          input=json.dumps({"cwd": home_dir, "hook_event_name": "SessionStart"}),
                          capture_output=True, text=True, timeout=60)
    context = json.loads(hook.stdout)["hookSpecificOutput"]["additionalContext"]
    assert hook.returncode == 0 and "No memory is saved yet" in context  # nothing stored yet: the guidance alone
    person.write("tz", "The person works in UTC+8", "user", "")
    hook = subprocess.run([sys.executable, "-m", "memdir.hooks", "claude-code", "SessionStart"],
                          input=json.dumps({"cwd": home_dir, "hook_event_name": "SessionStart"}),
                          capture_output=True, text=True, timeout=60)
    context = json.loads(hook.stdout)["hookSpecificOutput"]["additionalContext"]
    assert "The person works in UTC+8" in context and "## Project memories" not in context


def test_a_hook_from_a_missing_directory_says_its_project_is_its_cwd(tmp_path, isolated_home):
    ghost = tmp_path / "gone"
    hook = subprocess.run([sys.executable, "-m", "memdir.hooks", "claude-code", "SessionStart"],
                          input=json.dumps({"cwd": str(ghost), "hook_event_name": "SessionStart"}),
                          capture_output=True, text=True, timeout=60)
    assert hook.returncode == 0 and hook.stdout == ""
    assert hook.stderr == (f"memdir hook SessionStart: project directory '{ghost}' does not exist: a hook takes "
                           "its project from its input's cwd (the directory the agent runs in); nothing done\n")
    ghost.mkdir()  # control: the same input from a directory that exists is the hook's context, silently
    hook = subprocess.run([sys.executable, "-m", "memdir.hooks", "claude-code", "SessionStart"],
                          input=json.dumps({"cwd": str(ghost), "hook_event_name": "SessionStart"}),
                          capture_output=True, text=True, timeout=60)
    assert hook.returncode == 0 and hook.stderr == "" and "additionalContext" in hook.stdout


def test_symlinks_subdirectories_and_worktrees_share_one_layer(tmp_path, isolated_home):
    repo = tmp_path / "repo"
    repo.mkdir()
    git = ["git", "-c", "user.name=t", "-c", "user.email=t@example.com", "-c", "init.defaultBranch=main"]
    subprocess.run([*git, "init", "-q", str(repo)], check=True)
    (repo / "src").mkdir()
    (repo / "README").write_text("x")
    subprocess.run([*git, "-C", str(repo), "add", "README"], check=True)
    subprocess.run([*git, "-C", str(repo), "commit", "-q", "-m", "one"], check=True)
    subprocess.run([*git, "-C", str(repo), "worktree", "add", "-q", str(tmp_path / "wt"), "-b", "side"],
                   check=True)
    (tmp_path / "link").symlink_to(repo)
    where = {str(open_session(isolated_home, place).layer_dir("project"))
             for place in (repo, repo / "src", tmp_path / "link", tmp_path / "wt")}
    assert where == {str(project_layer_dir(isolated_home, repo.resolve()))}
    other = tmp_path / "other"
    (other / ".git").mkdir(parents=True)
    assert open_session(isolated_home, other).layer_dir("project") != next(iter(where))  # control


NEEDS_THE_PROJECT = {"write", "clear", "ingest", "install", "uninstall"}
# Commands that look a name up: from a deleted directory only the user layer is searched, and it is empty.
LOOK_UP_A_NAME = {"read", "delete", "forget", "history", "show", "restore", "tombstone", "approve", "reject",
                  "pin", "unpin", "mute", "unmute"}


@pytest.mark.parametrize("command", [c for c in PROJECT_COMMANDS if c[0] != "mcp"], ids=lambda c: " ".join(c[:2]))
def test_every_command_from_a_deleted_working_directory(command, tmp_path, isolated_home, capsys, monkeypatch):
    """The user layer still answers; what needs the project says why it cannot — never a traceback."""
    doomed = tmp_path / "doomed"
    doomed.mkdir()
    monkeypatch.chdir(doomed)
    doomed.rmdir()
    code = main(list(command))
    err = capsys.readouterr().err
    if command[0] in NEEDS_THE_PROJECT:
        assert code == 1 and err.startswith("memdir: ") and CWD_GONE in err, err
    elif command[0] in LOOK_UP_A_NAME:
        assert code == 1 and err.startswith("memdir: ") and CWD_GONE in err, err  # says the project was not searched
        assert "not found" in err or "no history" in err or "no tombstone" in err, err
    elif command[0] == "recall":  # the empty user layer recalls nothing, and says so (newuser44)
        assert (code, err) == (0, f"memdir: {NOTHING_RECALLED}\n"), command
    else:
        assert (code, err) == (0, ""), command
    assert len(err.strip().splitlines()) <= 1


def test_odd_project_and_home_values_get_the_session_message(tmp_path, isolated_home, capsys, monkeypatch):
    with pytest.raises(ScopeError, match="is not a valid path"):
        open_session(isolated_home, "/x\0y")
    doomed = tmp_path / "doomed"
    doomed.mkdir()
    monkeypatch.chdir(doomed)
    doomed.rmdir()
    for argv, env, says in ((["--project", ".", "list"], {}, CWD_GONE), (["list"], {"MEMDIR_PROJECT": "sub"}, CWD_GONE),
                            (["--home", "rel", "list"], {}, "is a relative path")):
        for name, value in env.items():
            monkeypatch.setenv(name, value)
        assert main(argv) == 1
        err = capsys.readouterr().err
        assert err.startswith("memdir: ") and says in err and len(err.strip().splitlines()) == 1, err
        for name in env:
            monkeypatch.delenv(name)
    assert main(["--home", str(isolated_home), "list"]) == 0  # control: an absolute home still answers


def test_a_project_whose_name_is_not_utf8(tmp_path, isolated_home, capsys):
    odd = tmp_path / os.fsdecode(b"proj-\xff")
    (odd / ".git").mkdir(parents=True)
    mem = Memory.open(home=isolated_home, project=odd, actor="human")
    assert mem.write("p", "a project fact", "project", "").operation == "created"
    assert "a project fact" in mem.context()
    assert main(["--project", str(odd), "--json", "status"]) == 0
    status = json.loads(capsys.readouterr().out)
    assert [layer["memories"] for layer in status["layers"]] == [0, 1]


@pytest.mark.slow
def test_hooks_need_an_absolute_cwd_for_every_event(project):
    for event in ("SessionStart", "UserPromptSubmit", "SessionEnd"):
        for cwd, reason in ((".", "is not an absolute path"), (None, "hook input has no cwd")):
            payload = {"hook_event_name": event, "prompt": "x", "transcript_path": "/tmp/t.jsonl", "cwd": cwd}
            done = subprocess.run([sys.executable, "-m", "memdir.hooks", "claude-code", event],
                                  input=json.dumps(payload), capture_output=True, text=True, timeout=60)
            assert done.returncode == 0 and done.stdout == "" and reason in done.stderr, (event, cwd, done.stderr)


def test_usage_errors_with_json_print_json_too(project):
    done = run_cli("--project", project, "--json", "clear", "--scope", "project")
    assert done.returncode == 2
    assert json.loads(done.stdout) == {"error": "clear deletes every memory of the scope; add --yes to confirm",
                                       "kind": "UsageError"}
    parsed = run_cli("--json", "write", "x", "-d", "a fact", "-t", "bogus")  # refused by the parser itself
    assert parsed.returncode == 2 and "invalid choice: 'bogus'" in parsed.stderr
    assert json.loads(parsed.stdout)["kind"] == "UsageError" and "invalid choice: 'bogus'" in json.loads(
        parsed.stdout)["error"]
    plain = run_cli("write", "x", "-d", "a fact", "-t", "bogus")
    assert plain.returncode == 2 and plain.stdout == ""  # control: without --json, stdout stays empty


GIT = ["git", "-c", "user.name=t", "-c", "user.email=t@example.com", "-c", "init.defaultBranch=main",
       "-c", "protocol.file.allow=always"]


def _repo_with_worktree(repo, worktree):
    """A git repository at ``repo`` (one commit) and its linked worktree at ``worktree``."""
    repo.mkdir()
    subprocess.run([*GIT, "init", "-q", str(repo)], check=True)
    subprocess.run([*GIT, "-C", str(repo), "commit", "-q", "--allow-empty", "-m", "one"], check=True)
    subprocess.run([*GIT, "-C", str(repo), "worktree", "add", "-q", str(worktree), "-b", f"side-{worktree.name}"],
                   check=True, capture_output=True)


def test_worktrees_of_a_repository_whose_path_is_not_utf8_share_its_layer(tmp_path, isolated_home):
    """git writes the paths in a .git file and a git directory's config as the file system's bytes: a
    worktree of /w/caf\\xe9 shares its layer (as one of /w/café does), read as the file system names it
    (before: decoded with U+FFFD, the git directory was not found and the worktree had a layer of its own)."""
    latin = tmp_path / os.fsdecode(b"caf\xe9")  # Latin-1: not UTF-8
    _repo_with_worktree(latin, tmp_path / "wt-latin")
    utf8 = tmp_path / "café"
    _repo_with_worktree(utf8, tmp_path / "wt-utf8")
    layer = {place: str(open_session(isolated_home, place).layer_dir("project"))
             for place in (latin, tmp_path / "wt-latin", utf8, tmp_path / "wt-utf8")}
    assert layer[tmp_path / "wt-latin"] == layer[latin] == str(project_layer_dir(isolated_home, latin.resolve()))
    assert layer[tmp_path / "wt-utf8"] == layer[utf8] == str(project_layer_dir(isolated_home, utf8.resolve()))
    assert layer[latin] != layer[utf8]  # control: two repositories, two layers
    # a submodule checked out at a Latin-1 path: its worktree shares the submodule checkout's layer
    # (core.worktree in super/.git/modules/<name>/config names it in those bytes)
    lib, sup = tmp_path / "lib", tmp_path / "super"
    lib.mkdir()
    sup.mkdir()
    subprocess.run([*GIT, "-C", str(lib), "init", "-q"], check=True)
    subprocess.run([*GIT, "-C", str(lib), "commit", "-q", "--allow-empty", "-m", "lib"], check=True)
    subprocess.run([*GIT, "-C", str(sup), "init", "-q"], check=True)
    sm = sup / os.fsdecode(b"sm\xe9")
    subprocess.run([*GIT, "-C", str(sup), "submodule", "add", "-q", str(lib), sm.name], check=True, capture_output=True)
    subprocess.run([*GIT, "-C", str(sm), "worktree", "add", "-q", str(tmp_path / "wt-sm")], check=True,
                   capture_output=True)
    assert open_session(isolated_home, tmp_path / "wt-sm").project_root == sm.resolve()
    assert open_session(isolated_home, sup).project_root == sup.resolve()  # control: the superproject its own


def test_a_worktree_whose_commondir_is_not_text_or_holds_a_nul_is_no_traceback(tmp_path, isolated_home):
    """A linked worktree's ``commondir`` naming the repository in bytes that are not UTF-8 is read as the
    file system names it (the worktree shares the repository's layer); one holding a NUL names no
    directory: the worktree is its own top, as when its .git file cannot be read. Before: `memdir context`
    ended in a traceback (UnicodeDecodeError, ValueError: embedded null byte) and every hook of the
    project was skipped."""
    latin = tmp_path / os.fsdecode(b"caf\xe9")
    _repo_with_worktree(latin, tmp_path / "wt")
    (commondir,) = (latin / ".git" / "worktrees").glob("*/commondir")
    commondir.write_bytes(os.fsencode(latin / ".git") + b"\n")  # absolute: as valid as git's own "../.."
    _repo_with_worktree(tmp_path / "plain", tmp_path / "wt-nul")
    (broken,) = (tmp_path / "plain" / ".git" / "worktrees").glob("*/commondir")
    broken.write_bytes(b"../..\0x\n")
    env = {"MEMDIR_HOME": str(isolated_home)}
    run_cli("write", "latin-fact", "-d", "A fact of the Latin-1 repository", "-t", "project", "--body", "b",
            "--project", latin, env=env)
    shown = run_cli("context", "--project", tmp_path / "wt", env=env)
    assert (shown.returncode, shown.stderr) == (0, "") and "latin-fact" in shown.stdout
    assert open_session(isolated_home, tmp_path / "wt").project_root == latin.resolve()
    alone = run_cli("context", "--project", tmp_path / "wt-nul", env=env)
    assert (alone.returncode, alone.stderr) == (0, "") and "latin-fact" not in alone.stdout
    assert "No memory is saved yet" in alone.stdout
    assert open_session(isolated_home, tmp_path / "wt-nul").project_root == (tmp_path / "wt-nul").resolve()
    hook = subprocess.run([sys.executable, "-m", "memdir.hooks", "claude-code", "SessionStart"],
                          input=json.dumps({"cwd": str(tmp_path / "wt-nul"), "session_id": "s"}), env=dict(os.environ, **env),
                          capture_output=True, text=True, timeout=60)
    assert hook.returncode == 0 and hook.stderr == "" and "additionalContext" in hook.stdout


def test_an_untrusted_team_layer_at_a_path_that_is_not_utf8_is_told_not_a_traceback(tmp_path, isolated_home):
    """The note of an untrusted team layer names its directory; one whose name is not UTF-8 is shown with
    its bytes as \\xNN (the block and the hooks' JSON are UTF-8). Before: `memdir context` ended in a
    traceback (UnicodeEncodeError: surrogates not allowed) and the SessionStart hook injected nothing."""
    latin, utf8 = tmp_path / os.fsdecode(b"caf\xe9"), tmp_path / "café"
    env = {"MEMDIR_HOME": str(isolated_home)}
    for repo in (latin, utf8):
        (repo / ".claude" / "memory").mkdir(parents=True)
        subprocess.run([*GIT, "init", "-q", str(repo)], check=True)
        run_cli("write", "deploy-fact", "-d", "Deploys go through the blue lever", "-t", "project", "--body", "b",
                "--project", repo, env=env)
    shown = {repo: run_cli("context", "--project", repo, env=env) for repo in (latin, utf8)}
    assert (shown[latin].returncode, shown[latin].stderr) == (0, "")
    assert f"team memory layer ({tmp_path}/caf\\xe9/.claude/memory) not trusted" in shown[latin].stdout
    assert "blue lever" in shown[latin].stdout
    assert f"team memory layer ({tmp_path}/café/.claude/memory) not trusted" in shown[utf8].stdout  # control
    hook = subprocess.run([sys.executable, "-m", "memdir.hooks", "claude-code", "SessionStart"],
                          input=json.dumps({"cwd": str(latin), "session_id": "s"}).encode(),
                          env=dict(os.environ, **env), capture_output=True, timeout=60)
    assert hook.returncode == 0 and hook.stderr == b""
    context = json.loads(hook.stdout)["hookSpecificOutput"]["additionalContext"]
    assert f"team memory layer ({tmp_path}/caf\\xe9/.claude/memory) not trusted" in context and "blue lever" in context
