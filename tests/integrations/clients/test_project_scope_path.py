"""A project-scope install without `memdir` on PATH says how to put this installation's `memdir` there (trial26:
it said `pipx install memdir`, a package the README never names: memdir installs from a clone into a virtualenv).
Control: with the virtualenv's bin on PATH the install goes through."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tests.conftest import run_cli


def test_the_refusal_names_this_installations_memdir_and_the_control_installs(isolated_home, project):
    bindir = Path(sys.executable).parent
    assert (bindir / "memdir").is_file()  # the test's virtualenv holds memdir's script
    bare = os.pathsep.join(p for p in os.environ.get("PATH", "").split(os.pathsep)
                           if p and not (Path(p) / "memdir").exists())
    refused = run_cli("--project", project, "install", "claude-code", "--scope", "project", env={"PATH": bare})
    assert refused.returncode == 1
    assert "pipx install memdir" not in refused.stderr
    assert f"ln -s {bindir / 'memdir'} ~/.local/bin/memdir" in refused.stderr
    assert not (project / ".mcp.json").exists()  # nothing written

    done = run_cli("--project", project, "install", "claude-code", "--scope", "project",
                   env={"PATH": f"{bindir}{os.pathsep}{bare}"})
    assert done.returncode == 0, done.stderr
    assert (project / ".mcp.json").is_file()


CLIENTS = {"claude-code": "Claude Code", "codex": "Codex", "gemini": "Gemini CLI", "cursor": "Cursor",
           "opencode": "OpenCode"}


def test_each_client_says_its_project_files_name_no_home_only_for_a_home_other_than_the_default(
        tmp_path, isolated_home, project):
    """newuser39: a project-scope install with MEMDIR_HOME (or --home) set drops that home from the files (they name
    no machine path); only Claude Code's install said so, and Codex's, Gemini CLI's, Cursor's and OpenCode's hooks
    and servers then silently used the default home, an empty store. Each says it now, naming the client and the
    home. Control: installed into the default home (MEMDIR_HOME unset), none says it."""
    bindir = Path(sys.executable).parent
    env = {"PATH": f"{bindir}{os.pathsep}{os.environ.get('PATH', '')}", "HOME": str(tmp_path / "userhome")}
    for client, label in CLIENTS.items():
        done = run_cli("--project", project, "install", client, "--scope", "project", env=env)
        assert done.returncode == 0, done.stderr
        assert (f"note: the project's files name no home; this home ({isolated_home}) is not the default, so give "
                f"{label} MEMDIR_HOME in its environment, or install with --scope user") in done.stdout, client
    default = {k: v for k, v in os.environ.items() if k != "MEMDIR_HOME"}
    default.update(env, HOME=str(tmp_path / "otherhome"))
    other = tmp_path / "other"
    (other / ".git").mkdir(parents=True)
    for client in CLIENTS:
        done = subprocess.run([sys.executable, "-m", "memdir.cli", "--project", str(other), "install", client,
                               "--scope", "project"], capture_output=True, text=True, env=default, timeout=120, check=False)
        assert done.returncode == 0, done.stderr
        assert "note:" in done.stdout and "name no home" not in done.stdout, (client, done.stdout)
