"""Claude Code names its memory files ``<type>_<topic>.md`` (user_role.md, feedback_testing.md, project_*.md) and
adds no frontmatter to a file that has none. Such a file imported as ``reference`` (newuser36: ``project_release.md``
became a reference memory): the forgiving reader, which reads a file memdir's parser refuses, defaulted the type
instead of reading it from the file name as the parser does (:func:`memdir.files.memfile.type_from_stem`)."""

from __future__ import annotations

import re


def test_a_claude_code_file_without_frontmatter_takes_its_type_from_its_name(tmp_path, project, monkeypatch, person):
    config = tmp_path / "claude-config"
    memory = config / "projects" / re.sub(r"[^A-Za-z0-9]", "-", str(project)) / "memory"
    memory.mkdir(parents=True)
    (memory / "project_release.md").write_text("# Release freeze\n\nNo deploys from Dec 18 to Jan 2.\n")
    (memory / "feedback_tests.md").write_text("# Tests\n\nNever mock the database.\n")
    (memory / "user_role.md").write_text("# Role\n\nI am a backend engineer.\n")
    (memory / "oncall.md").write_text("# On-call\n\nThe rotation is in PagerDuty.\n")  # control: no type in its name
    (memory / "project_typed.md").write_text("---\nname: project-typed\ndescription: Typed\ntype: reference\n---\nB.\n")
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(config))
    person.import_from("claude-code")
    got = {(m.name, m.type, m.scope) for m in person.list().memories}
    assert got == {("project-release", "project", "project"), ("feedback-tests", "feedback", "project"),
                   ("user-role", "user", "user"), ("oncall", "project", "project"),  # no type: its layer's
                   ("project-typed", "reference", "project")}  # a type written in the file wins over its name
