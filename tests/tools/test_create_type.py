"""The memory tool's ``create`` of a file that says no type tells which type the memory got (hostile testers,
tools40: frontmatter without ``type:`` was saved as ``reference`` in silence, and ``type: decision`` became
``project`` in silence). A type the file does not say is its layer's — ``user`` in /memories/user, else
``project``, as a new memory without a type is on every other path — and the answer says so; a type outside
the four is refused, naming them; a type the file says is taken as said, and nothing is added."""

from __future__ import annotations

from memdir.tools.memory_directory import run

NOTE = ("note: saved as type {0}, the default in /memories/{0}: the file says no type (to choose, begin the file "
        "with frontmatter that says type: user, feedback, project or reference)")


def create(mem, path: str, text: str):
    return run(mem.session, {"command": "create", "path": path, "file_text": text})


def test_frontmatter_without_a_type_gets_its_layers_and_is_told(mem):
    told = create(mem, "/memories/project/deploy.md", "---\ndescription: Deploys go out on Tuesdays\n---\nNot Fridays.")
    assert (told.is_error, told.text) == (False, "File created successfully at: /memories/project/deploy.md\n"
                                                 + NOTE.format("project"))
    mine = create(mem, "/memories/user/tea.md", "---\ndescription: Drinks green tea\n---\nNo sugar.")
    assert (mine.is_error, mine.text) == (False, "File created successfully at: /memories/user/tea.md\n"
                                                 + NOTE.format("user"))
    assert {m.name: m.type for m in mem.list().memories} == {"tea": "user", "deploy": "project"}


def test_a_type_the_file_says_is_kept_and_nothing_is_added(mem):
    """Control: said (in any case, at the top or under metadata), no note."""
    told = create(mem, "/memories/project/lint.md", "---\ndescription: Run ruff first\ntype: Feedback\n---\nWhy: CI.")
    assert (told.is_error, told.text) == (False, "File created successfully at: /memories/project/lint.md")
    nested = create(mem, "/memories/project/docs.md",
                    "---\ndescription: The API docs live on the wiki\nmetadata:\n  type: reference\n---\nwiki/api")
    assert (nested.is_error, nested.text) == (False, "File created successfully at: /memories/project/docs.md")
    assert {m.name: m.type for m in mem.list().memories} == {"lint": "feedback", "docs": "reference"}


def test_a_type_outside_the_four_is_refused_naming_them(mem):
    told = create(mem, "/memories/project/adr.md", "---\ndescription: We chose Postgres\ntype: decision\n---\nADR 7.")
    assert (told.is_error, told.text) == (
        True, "type must be one of user, feedback, project, reference (got 'decision')")
    assert mem.list().memories == ()  # nothing written
