"""A memory file edited in place (same inode: VS Code, many editors) reaches the context: at once
after any command that scans the layer, and within the sweep interval with no other command
(``MEMDIR_SWEEP_INTERVAL`` sets it for the fresh processes these tests run)."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from tests.conftest import run_cli

pytestmark = pytest.mark.slow  # fresh processes


def _edit_in_place(path: Path, old: str, new: str) -> None:
    inode = path.stat().st_ino
    text = path.read_text(encoding="utf-8").replace(old, new)
    with open(path, "r+", encoding="utf-8") as handle:
        handle.seek(0)
        handle.write(text)
        handle.truncate()
    assert path.stat().st_ino == inode  # the same file, as an editor writing in place leaves it


def _line(out: str, name: str) -> str:
    return next(line for line in out.splitlines() if f"[{name}]" in line)


def _write_alpha(*cli) -> Path:
    done = run_cli(*cli, "write", "alpha", "--scope", "user", "--type", "user",
                   "-d", "Alpha original description", "--body", "body one")
    assert done.returncode == 0, done.stderr
    return next(Path(os.environ["MEMDIR_HOME"]).rglob("alpha.md"))


def test_a_list_takes_an_in_place_edit_up_for_the_context(isolated_home):
    path = _write_alpha()
    assert "Alpha original description" in _line(run_cli("context").stdout, "alpha")
    _edit_in_place(path, "Alpha original", "Alpha CHANGED")
    assert "Alpha CHANGED description" in run_cli("list").stdout
    assert "Alpha CHANGED description" in _line(run_cli("context").stdout, "alpha")
    history = run_cli("history", "alpha").stdout
    assert "external-edit" in history and "create" in history  # journaled as the gateway journals hand edits


def test_the_context_sees_an_in_place_edit_after_the_interval_with_no_other_command(isolated_home):
    path = _write_alpha()
    long, none = {"MEMDIR_SWEEP_INTERVAL": "3600"}, {"MEMDIR_SWEEP_INTERVAL": "0"}
    assert "Alpha original description" in _line(run_cli("context", env=long).stdout, "alpha")
    swept = isolated_home / "_user" / ".memdir" / "swept"
    before = swept.stat().st_mtime_ns
    _edit_in_place(path, "Alpha original", "Alpha CHANGED")
    # within the interval: not looked at (no sweep recorded), the index as it was
    assert "Alpha original description" in _line(run_cli("context", env=long).stdout, "alpha")
    assert swept.stat().st_mtime_ns == before
    # the interval passed: the files are stat'ed, the edit journaled and shown
    assert "Alpha CHANGED description" in _line(run_cli("context", env=none).stdout, "alpha")
    assert "Alpha CHANGED description" in _line(run_cli("context", env=long).stdout, "alpha")
    assert "external-edit" in run_cli("history", "alpha").stdout


def test_an_unchanged_layer_within_the_interval_stats_no_memory_file(isolated_home):
    """Control: within the interval the context costs the same few stats whatever the layer holds."""
    from memdir import Memory

    mem = Memory.open(home=isolated_home, actor="human", use_cwd=False)  # through the gateway, as the CLI writes
    for i in range(30):  # here, not 30 CLI processes (122 s of this test on a loaded machine)
        assert mem.write(f"m{i}", f"memory number {i}", "user", scope="user").operation == "created"
    assert run_cli("context", env={"MEMDIR_SWEEP_INTERVAL": "0"}).returncode == 0  # a sweep now: recorded
    code = ("import os\n"
            "from memdir.prompt import context\n"
            "from memdir.session import open_session\n"
            "listed = []\n"
            "real = os.scandir\n"
            "os.scandir = lambda p='.': (listed.append(str(p)), real(p))[1]\n"
            "block = context.session_block(open_session(use_cwd=False))\n"
            "print('memory number 7' in block, len(listed))\n")
    # within the interval no directory is listed, no memory file stat'ed; control: past it, one listing
    for interval, shown in (("3600", ["True", "0"]), ("0", ["True", "1"])):
        done = subprocess.run([os.sys.executable, "-c", code], capture_output=True, text=True, timeout=60,
                              env={**os.environ, "MEMDIR_SWEEP_INTERVAL": interval})
        assert done.stdout.split() == shown, done.stderr


def test_the_team_layer_in_the_repository_takes_an_in_place_edit_up(tmp_path):
    root, home = tmp_path / "app", tmp_path / "home"
    subprocess.run(["git", "init", "-q", "-b", "main", str(root)], check=True)
    cli = ("--home", home, "--project", root)
    assert run_cli(*cli, "team", "init").returncode == 0
    done = run_cli(*cli, "write", "lint", "-d", "Lint with ruff before pushing", "-t", "project", "--scope", "team")
    assert done.returncode == 0, done.stderr
    path = next(p for p in root.rglob("lint.md"))
    assert "Lint with ruff" in _line(run_cli(*cli, "context").stdout, "lint")
    _edit_in_place(path, "with ruff", "with flake8")
    long, none = {"MEMDIR_SWEEP_INTERVAL": "3600"}, {"MEMDIR_SWEEP_INTERVAL": "0"}
    assert "Lint with ruff" in _line(run_cli(*cli, "context", env=long).stdout, "lint")  # within the interval
    assert "Lint with flake8" in _line(run_cli(*cli, "context", env=none).stdout, "lint")
    assert not (root / ".claude" / "memory" / ".memdir").exists()  # nothing derived written in the repository
    _edit_in_place(path, "with flake8", "with pylint")
    assert "Lint with pylint" in run_cli(*cli, "list", env=long).stdout
    assert "Lint with pylint" in _line(run_cli(*cli, "context", env=long).stdout, "lint")
