"""A team memory's git commit from before it was renamed can be restored (keep32).

``memdir history`` lists a team memory's git commits with ``git log --follow``, so the commits of its earlier name
are there; ``restore --commit`` then read ``<team dir>/<current name>.md`` at that commit, which git has not:
"git has no .claude/memory/http-port.md at …". Now the file's path at that commit is the one its followed
history gives (:func:`memdir.git.path_at`), and the version is written under the current name (its frontmatter
name is the memory's, not the earlier one)."""

from __future__ import annotations

import pytest

from memdir.errors import NotFound
from tests.teamgit import git, shared_repository

BODY = ("Set in config/dev.toml; the docker compose file maps it to 80 on the host. Ask ops before changing it: "
        "the staging proxy and two dashboards point at it.")


def test_a_commit_from_before_a_rename_restores_under_the_current_name(tmp_path):
    a, _b = shared_repository(tmp_path)
    mem = a.memory()
    mem.write("web-port", "The web server listens on 8080 in development", "project", BODY, scope="team")
    a.commit_all("web port 8080")
    first = git(a.root, "rev-parse", "HEAD").stdout.strip()
    mem.write("web-port", "The web server listens on 8081 in development", scope="team")
    a.commit_all("web port 8081")
    mem.write("http-port", rename_from="web-port", scope="team")
    a.commit_all("web-port is http-port")
    renamed = git(a.root, "rev-parse", "HEAD").stdout.strip()
    history = mem.history("http-port", scope="team")
    assert [c.message for c in history.commits] == ["web-port is http-port", "web port 8081", "web port 8080"]
    restored = mem.restore("http-port", commit=first[:12], scope="team")  # before: NotFound (no http-port.md there)
    assert (restored.name, restored.operation) == ("http-port", "updated")
    text = (a.team_dir / "http-port.md").read_text(encoding="utf-8")
    assert text.startswith("---\nname: http-port\ndescription: The web server listens on 8080 in development\n")
    assert BODY in text
    assert mem.read("http-port", scope="team").record.description == "The web server listens on 8080 in development"
    # controls: a commit of its current name restores as before; a commit of none of its history is not found
    assert mem.restore("http-port", commit=renamed, scope="team").operation == "updated"
    assert "8081" in (a.team_dir / "http-port.md").read_text(encoding="utf-8")
    root = git(a.root, "rev-list", "--max-parents=0", "HEAD").stdout.strip()  # the README's commit: no memory yet
    with pytest.raises(NotFound, match="git has no .claude/memory/http-port.md"):
        mem.restore("http-port", commit=root, scope="team")
