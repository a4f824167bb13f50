"""`memdir doctor` repeats install's note: a project-scope install into a home other than the default names no
home in the project's files, so its hooks and server read MEMDIR_HOME from the client's environment, else the
default home — another one (ux49: install said it once, doctor never). A warning, in the CLI's text and JSON and in
:meth:`memdir.Memory.doctor` alike (the rule is :func:`memdir.operations.installed.home_warnings`). Controls: the
same install into the default home warns nothing; a user-scope install (its commands name the home) neither."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from memdir import Memory
from memdir.paths import resolve_home
from tests.conftest import run_cli


def test_doctor_warns_when_project_scope_hooks_would_read_another_home(tmp_path, isolated_home, project):
    bindir = Path(sys.executable).parent
    env = {"PATH": f"{bindir}{os.pathsep}{os.environ.get('PATH', '')}", "HOME": str(tmp_path / "userhome")}
    before = json.loads(run_cli("--project", project, "doctor", "--json", env=env).stdout)
    assert before["warnings"] == []  # nothing installed yet
    done = run_cli("--project", project, "install", "claude-code", "--scope", "project", env=env)
    assert done.returncode == 0, done.stderr
    text = run_cli("--project", project, "doctor", env=env)
    doc = json.loads(run_cli("--project", project, "doctor", "--json", env=env).stdout)
    [warning] = doc["warnings"]
    default = warning.rsplit("they read ", 1)[1].rstrip(")")
    assert default != str(isolated_home) and Path(default).name == "memdir"
    assert warning == (
        "claude-code: its project-scope install's hooks would read another home: the project's files name no home; "
        f"this home ({isolated_home}) is not the default, so give Claude Code MEMDIR_HOME in its environment, or "
        f"install with --scope user (without it, they read {default})")
    assert text.returncode == 0 and doc["state"] == "warning" and doc["ok"] is True
    lines = text.stdout.splitlines()
    assert f"warning: {warning}" in lines
    assert lines[-1] == ("warning: claude-code will not run memdir's install here until you act (trust it, turn it "
                         "back on, or give it MEMDIR_HOME): each warning above says how")
    # the Python API gives the same warning (ux49: Memory.doctor() gave none)
    mem = Memory.open(home=isolated_home, project=project, use_cwd=False)
    here = str(resolve_home(None, {}))  # this process's default home (its HOME is not the subprocesses')
    assert mem.doctor().warnings == (warning.replace(f"they read {default})", f"they read {here})"),)


def test_no_warning_for_the_default_home_or_a_user_scope_install(tmp_path, isolated_home, project):
    bindir = Path(sys.executable).parent
    userhome = tmp_path / "userhome"
    env = {"PATH": f"{bindir}{os.pathsep}{os.environ.get('PATH', '')}", "HOME": str(userhome)}
    # a user-scope install names this home in its commands: nothing to warn of
    assert run_cli("--project", project, "install", "claude-code", "--scope", "user", env=env).returncode == 0
    doc = json.loads(run_cli("--project", project, "doctor", "--json", env=env).stdout)
    assert not [w for w in doc["warnings"] if "another home" in w]
    # the default home (MEMDIR_HOME unset): a project-scope install there reads it without MEMDIR_HOME
    plain = {k: v for k, v in os.environ.items() if k not in ("MEMDIR_HOME", "DSH_HOME", "XDG_DATA_HOME")}
    plain.update(env, HOME=str(tmp_path / "otherhome"))
    other = tmp_path / "other"
    (other / ".git").mkdir(parents=True)

    def memdir(*args):
        return subprocess.run([sys.executable, "-m", "memdir.cli", "--project", str(other), *args],
                              capture_output=True, text=True, env=plain, timeout=120, check=False)

    assert memdir("install", "claude-code", "--scope", "project").returncode == 0
    doc = json.loads(memdir("doctor", "--json").stdout)
    assert doc["home"] == str(tmp_path / "otherhome" / ".local" / "share" / "memdir")  # the default home
    assert not [w for w in doc["warnings"] if "another home" in w], doc["warnings"]
    assert [c["scope"] for c in doc["clients"] if c["client"] == "claude-code"] == ["project"]  # control: installed
