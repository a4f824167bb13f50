"""An edit whose old text is copied from a tool's view of the body replaces what the view showed (break39).

A view shows a body printable and read as data: a zero-width space or word joiner in a hand-edited file is not
shown, ``{{`` shows as ``{ {``, a U+2028 inside a line as ``\\u2028`` (the memory tool's view). The model's copy
of such a line matched nothing and its str_replace was refused, though it quoted exactly what it was shown."""

from __future__ import annotations

from memdir import Memory
from memdir.tools.handlers import run_tool
from memdir.tools.memory_directory import run

PATH = "/memories/project/notes.md"


def _hand_edited(isolated_home, project, body: str) -> tuple[Memory, Memory]:
    person = Memory.open(home=isolated_home, project=project, actor="human")
    person.write("notes", "Notes", "project", "x")
    path = next((isolated_home / "projects").iterdir()) / "notes.md"
    path.write_text(f"---\nname: notes\ndescription: Notes\ntype: project\n---\n{body}\n", encoding="utf-8")
    return person, Memory.open(home=isolated_home, project=project, actor="agent")


def _viewed_line(agent: Memory, number: int) -> str:
    out = run(agent.session, {"command": "view", "path": PATH}).text.splitlines()
    return out[number].split("\t", 1)[1]


def test_a_viewed_line_holding_hidden_characters_is_replaced(isolated_home, project):
    person, agent = _hand_edited(isolated_home, project, "port\u200b 5432 on db\u2060one\nhost db1")
    line = _viewed_line(agent, 1)
    assert line == "port 5432 on dbone"  # what the model was shown: the hidden characters are not
    done = run(agent.session, {"command": "str_replace", "path": PATH, "old_str": line, "new_str": "port 5433"})
    assert not done.is_error, done.text
    assert person.read("notes", count=False).record.body == "port 5433\nhost db1"
    # control: a text the body does not show is still refused, and the body stays as it is
    missing = run(agent.session, {"command": "str_replace", "path": PATH, "old_str": "port 9999", "new_str": "x"})
    assert missing.is_error and missing.text == "no replacement was made: the old text does not appear verbatim in 'notes'"
    assert person.read("notes", count=False).record.body == "port 5433\nhost db1"


def test_old_text_with_a_zero_width_space_matches_the_clean_body(mem):
    mem.write("notes", "Notes", "project", "foobar baz\nqux")
    done = run(mem.session, {"command": "str_replace", "path": PATH, "old_str": "foo\u200bbar", "new_str": "FOO"})
    assert not done.is_error, done.text
    assert mem.read("notes", count=False).record.body == "FOO baz\nqux"


def test_a_hidden_reading_found_twice_is_refused_as_ambiguous(isolated_home, project):
    person, agent = _hand_edited(isolated_home, project, "a\u200bb one\nab two")
    twice = run(agent.session, {"command": "str_replace", "path": PATH, "old_str": "a\u2060b", "new_str": "X"})
    assert twice.is_error and "appears 2 times" in twice.text and "(at lines 1, 2)" in twice.text
    assert person.read("notes", count=False).record.body == "a\u200bb one\nab two"
    # control: the whole viewed line is unique, and replaced
    once = run(agent.session, {"command": "str_replace", "path": PATH, "old_str": "ab two", "new_str": "X"})
    assert not once.is_error
    assert person.read("notes", count=False).record.body.split("\n")[1] == "X"


def test_a_viewed_template_brace_is_replaced_and_the_new_text_read_as_shown(isolated_home, project):
    person, agent = _hand_edited(isolated_home, project, "use {{name}} here\nkeep")
    line = _viewed_line(agent, 1)
    assert line == "use { {name}} here"
    done = run(agent.session, {"command": "str_replace", "path": PATH, "old_str": line,
                               "new_str": "use { {user}} here"})
    assert not done.is_error, done.text
    assert person.read("notes", count=False).record.body == "use {{user}} here\nkeep"


def test_a_viewed_line_break_escape_is_replaced(isolated_home, project):
    person, agent = _hand_edited(isolated_home, project, "one\u2028two\nthree")
    line = _viewed_line(agent, 1)
    assert line == "one\\u2028two"
    done = run(agent.session, {"command": "str_replace", "path": PATH, "old_str": line, "new_str": "joined"})
    assert not done.is_error, done.text
    assert person.read("notes", count=False).record.body == "joined\nthree"


def test_memory_edit_replaces_a_line_copied_from_memory_read(isolated_home, project):
    person, agent = _hand_edited(isolated_home, project, "soft\u00adware on\u200b db\nhost db1")
    shown = run_tool(agent.session, "memory_read", {"name": "notes"}).text
    line = next(line for line in shown.splitlines() if "software" in line)
    assert line == "> software on db"
    done = run_tool(agent.session, "memory_edit", {"name": "notes", "mode": "str_replace", "old_str": line,
                                                   "new_str": "> hardware"})
    assert not done.is_error, done.text
    assert person.read("notes", count=False).record.body == "hardware\nhost db1"


def test_a_fence_tag_the_model_wrote_is_found_as_it_was_stored(mem):
    mem.write("notes", "Notes", "project", "wrap it in </memory_context> tags\nkeep")
    assert mem.read("notes", count=False).record.body == "wrap it in &lt;/memory_context&gt; tags\nkeep"
    done = run(mem.session, {"command": "str_replace", "path": PATH, "old_str": "wrap it in </memory_context> tags",
                             "new_str": "wrap it in quotes"})
    assert not done.is_error, done.text
    assert mem.read("notes", count=False).record.body == "wrap it in quotes\nkeep"
    # control: a tag the body does not hold is still refused
    missing = run(mem.session, {"command": "str_replace", "path": PATH, "old_str": "</memory_recall>", "new_str": "x"})
    assert missing.is_error and "does not appear verbatim" in missing.text
