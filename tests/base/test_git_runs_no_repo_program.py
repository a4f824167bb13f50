"""A folder that arrives with its own ``.git`` (an archive, a shared disk) brings a ``.git/config`` that can name a
program git runs while it only reads: ``core.fsmonitor`` at every ``status`` and ``ls-files``, a filter's ``clean``
at a ``status`` that compares a file whose stat changed. memdir's reads of such a folder (``memdir import dir``,
``memdir team status``) ran that program (break37); now git runs with ``core.fsmonitor`` off and every configured
filter emptied. Each test shows that plain ``git`` in the same folder does run the program (the setup is live),
and that memdir's answer is still the right one."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from tests.conftest import run_cli
from tests.teamgit import git


def _program(tmp_path: Path) -> tuple[Path, str]:
    """A marker file and a shell command that appends one line to it (and succeeds, printing its stdin)."""
    marker = tmp_path / "ran"
    return marker, f"sh -c 'echo ran >> {marker}; cat'"


def _lines(marker: Path) -> int:
    return len(marker.read_text().splitlines()) if marker.exists() else 0


def test_import_dir_of_a_folder_with_an_fsmonitor_runs_no_program(isolated_home, tmp_path, project):
    source = tmp_path / "their-memories"
    git(tmp_path, "init", "-q", str(source))
    marker, command = _program(tmp_path)
    git(source, "config", "core.fsmonitor", command)
    (source / "a-fact.md").write_text("---\nname: a-fact\ndescription: a fact from elsewhere\ntype: project\n---\nb\n")
    (source / ".gitignore").write_text("drafts/\n")
    (source / "drafts").mkdir()
    (source / "drafts" / "draft.md").write_text("---\nname: draft\ndescription: not yet\ntype: project\n---\n")

    done = run_cli("import", "dir", source, "--dry-run", "--project", project)

    assert done.returncode == 0, done.stderr
    assert "would-import     a-fact (project)  ← a-fact.md" in done.stdout  # the memory is still found
    assert "  skipped          -  ← drafts/  — ignored by git" in done.stdout  # git's ignore rule still read
    assert _lines(marker) == 0
    git(source, "status", "--porcelain")  # control: git itself runs the folder's program
    assert _lines(marker) >= 1


def test_team_status_runs_no_filter_or_fsmonitor_the_repository_config_names(isolated_home, tmp_path):
    root = tmp_path / "repo"
    git(tmp_path, "init", "-q", str(root))
    git(root, "config", "user.email", "a@b.c")
    git(root, "config", "user.name", "a")
    assert run_cli("team", "init", "--project", root).returncode == 0
    assert run_cli("write", "ci", "-d", "CI runs on GitHub Actions", "-t", "project", "--scope", "team",
                   "--project", root).returncode == 0
    team = root / ".claude" / "memory"
    with open(team / ".gitattributes", "a") as handle:
        handle.write("*.md filter=strip.v2\n")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "team")
    marker, command = _program(tmp_path)
    git(root, "config", "filter.strip.v2.clean", command)
    git(root, "config", "filter.strip.v2.required", "true")
    git(root, "config", "core.fsmonitor", command)
    with open(team / "ci.md", "a") as handle:
        handle.write("One more line.\n")

    done = run_cli("team", "status", "--project", root, "--json")

    assert done.returncode == 0, done.stderr
    # the change is still reported
    assert json.loads(done.stdout)["changes"] == [{"path": ".claude/memory/ci.md", "state": "modified", "code": " M"}]
    assert _lines(marker) == 0
    subprocess.run(["git", "status", "--porcelain"], cwd=root, capture_output=True, check=True)  # control
    assert _lines(marker) >= 1
