"""A project-scope install without `memdir` on PATH says how to put this installation's `memdir` there (trial26:
it said `pipx install memdir`, a package the README never names: memdir installs from a clone into a virtualenv).
Control: with the virtualenv's bin on PATH the install goes through."""

from __future__ import annotations

import os
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
