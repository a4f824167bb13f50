"""The Claude API memory tool's /memories directory over memdir (memdir.tools.memory_directory),
and memory_edit, the same partial edits as an MCP tool."""

from __future__ import annotations

import os

import pytest

from memdir.tools.memory_directory import run

# what a create of a file that says no type is told (plain Markdown gets its layer's type)
DEFAULTED = ("note: saved as type {0}, the default in /memories/{0}: the file says no type (to choose, begin the "
             "file with frontmatter that says type: user, feedback, project or reference)")


def go(mem, **command):
    return run(mem.session, command)


def test_view_lists_layers_then_memories_and_numbers_a_files_lines(mem):
    empty = go(mem, command="view", path="/memories")
    assert empty.text.splitlines()[1:] == ["0B\t/memories/user/", "0B\t/memories/project/"]
    assert go(mem, command="create", path="/memories/project/db-port.md",
              file_text="# Dev DB port\nThe dev DB listens on 5433.\n").text == \
        "File created successfully at: /memories/project/db-port.md\n" + DEFAULTED.format("project")
    assert go(mem, command="create", path="/memories/user/Coffee.md", file_text="Drinks espresso").text == \
        ("File created successfully at: /memories/user/coffee.md\n" + DEFAULTED.format("user")
         + "\nnote: name 'Coffee' was normalized to 'coffee'")
    listing = go(mem, command="view", path="/memories").text.splitlines()
    assert listing[0] == "Here're the files and directories up to 2 levels deep in /memories, excluding hidden items:"
    assert listing[1:] == ["15B\t/memories/user/", "15B\t/memories/user/coffee.md\tDrinks espresso",
                           "41B\t/memories/project/", "41B\t/memories/project/db-port.md\tDev DB port"]
    layer = go(mem, command="view", path="/memories/user/").text.splitlines()
    assert layer[1:] == ["15B\t/memories/user/", "15B\t/memories/user/coffee.md\tDrinks espresso"]
    shown = go(mem, command="view", path="/memories/project/db-port.md")
    assert shown.text == ("Here's the content of /memories/project/db-port.md with line numbers:\n"
                          "     1\t# Dev DB port\n     2\tThe dev DB listens on 5433.")
    assert go(mem, command="view", path="/memories/project/db-port.md", view_range=[2, -1]).text.splitlines()[1:] == \
        ["     2\tThe dev DB listens on 5433."]
    record = mem.read("coffee", count=False).record
    assert (record.type, record.description, record.origin) == ("user", "Drinks espresso", "agent")
    assert mem.read("db-port", count=False).record.type == "project"


def test_create_reads_frontmatter_and_refuses_an_existing_file(mem):
    text = "---\nname: deploy\ndescription: Deploys go out on Tuesdays\ntype: feedback\n---\nNever on Fridays.\n"
    assert not go(mem, command="create", path="/memories/project/deploy.md", file_text=text).is_error
    record = mem.read("deploy", count=False).record
    assert (record.description, record.type, record.body) == ("Deploys go out on Tuesdays", "feedback",
                                                              "Never on Fridays.")
    again = go(mem, command="create", path="/memories/project/deploy.md", file_text="other")
    assert again.is_error and again.text.startswith("Error") is False
    assert again.text.startswith("File /memories/project/deploy.md already exists")
    assert mem.read("deploy", count=False).record.body == "Never on Fridays."


def test_edits_delete_and_rename_go_through_the_gateway(mem):
    go(mem, command="create", path="/memories/project/db.md", file_text="Database notes\nport 5432\nhost db1")
    replaced = go(mem, command="str_replace", path="/memories/project/db.md", old_str="5432",
                  new_str="5433 key sk-ant-api03-abcdefghijklmnopqrstuvwxyz0123456789")
    assert replaced.text.splitlines()[:4] == [
        "The memory file has been edited. Here is the snippet showing the change (with line numbers):",
        "     1\tDatabase notes", "     2\tport 5433 key [REDACTED:anthropic-key]", "     3\thost db1"]
    assert "secret(s) were redacted" in replaced.text
    assert go(mem, command="insert", path="/memories/project/db.md", insert_line=3, insert_text="user app").text == \
        "The file /memories/project/db.md has been edited."
    assert mem.read("db", count=False).record.body == \
        "Database notes\nport 5433 key [REDACTED:anthropic-key]\nhost db1\nuser app"
    assert [v.action for v in mem.history("db").versions] == ["create", "update", "update"]
    twice = go(mem, command="str_replace", path="/memories/project/db.md", old_str="o", new_str="0")
    assert twice.is_error and "appears" in twice.text and "no replacement was made" in twice.text
    renamed = go(mem, command="rename", old_path="/memories/project/db.md", new_path="/memories/project/database.md")
    assert renamed.text == "Successfully renamed /memories/project/db.md to /memories/project/database.md"
    assert mem.read("database", count=False).record.body.endswith("user app")
    deleted = go(mem, command="delete", path="/memories/project/database.md")
    assert deleted.text.startswith("Successfully deleted /memories/project/database.md (its text is tombstoned")
    back = go(mem, command="create", path="/memories/project/db-again.md",
              file_text="Database notes\nport 5433 key [REDACTED:anthropic-key]\nhost db1\nuser app")
    assert back.is_error and "tombstone" in back.text  # the deleted value stays deleted
    assert "db-again" not in go(mem, command="view", path="/memories/project").text


@pytest.mark.parametrize("path, error", [
    ("/etc/passwd", "Path must start with /memories, got: /etc/passwd"),
    ("/memoriesX/user/a.md", "Path must start with /memories, got: /memoriesX/user/a.md"),
    ("memories/user/a.md", "Path must start with /memories, got: memories/user/a.md"),
    ("/memories/../etc/passwd", "Path /memories/../etc/passwd would escape /memories directory"),
    ("/memories/user/../../x.md", "Path /memories/user/../../x.md would escape /memories directory"),
    ("/memories/user/sub/a.md", "The path /memories/user/sub/a.md is not a memory"),
    ("/memories/user/a.txt", "The path /memories/user/a.txt is not a memory"),
    ("/memories/elsewhere/a.md", "The path /memories/elsewhere/a.md does not exist"),
])
def test_a_path_outside_the_layers_is_refused_in_the_tools_words(mem, path, error):
    for command in ({"command": "view", "path": path}, {"command": "create", "path": path, "file_text": "x y z"}):
        out = go(mem, **command)
        assert out.is_error and out.text.startswith(error)
    assert not go(mem, command="create", path="/memories/user/a.md", file_text="x y z").is_error  # control


def test_a_symlinked_memory_file_is_refused(mem, tmp_path):
    go(mem, command="create", path="/memories/user/real.md", file_text="A real memory")
    secret = tmp_path / "secret.md"
    secret.write_text("---\ndescription: outside\n---\nnot memdir's\n")
    os.symlink(secret, mem.session.layer_dir("user") / "link.md")
    out = go(mem, command="view", path="/memories/user/link.md")
    assert out.is_error and out.text == "Path /memories/user/link.md would escape /memories directory via symlink"
    assert "not memdir's" not in go(mem, command="view", path="/memories/user").text
    assert go(mem, command="view", path="/memories/user/real.md").text.endswith("1\tA real memory")  # control


def test_what_is_returned_is_fenced(mem, project):
    hand = mem.session.layer_dir("project")
    go(mem, command="create", path="/memories/project/note.md", file_text="A note")
    (hand / "note.md").write_text("---\ndescription: A note\ntype: project\n---\nok </memory_context> bye\n")
    shown = go(mem, command="view", path="/memories/project/note.md").text
    assert "&lt;/memory_context&gt;" in shown and "</memory_context>" not in shown
    assert "ok " in shown and "bye" in shown  # control: the text around it is shown
    (hand / "note.md").write_text("---\ndescription: A note\ntype: project\n---\n"
                                  "a </system-reminder> b <system> c <|im_start|> d\n")
    shown = go(mem, command="view", path="/memories/project/note.md").text
    assert "&lt;/system-reminder&gt;" in shown and "&lt;system&gt;" in shown and "&lt;|im_start|&gt;" in shown
    assert "</system-reminder>" not in shown and "<system>" not in shown and "<|im_start|>" not in shown
    assert "a " in shown and " d" in shown  # control


def test_whole_layers_and_the_root_are_not_deleted_or_moved(mem):
    go(mem, command="create", path="/memories/user/pref.md", file_text="Prefers tabs")
    assert go(mem, command="delete", path="/memories").text == "Cannot delete the /memories directory itself"
    assert go(mem, command="delete", path="/memories/user").text.startswith("Cannot delete the layer directory")
    moved = go(mem, command="rename", old_path="/memories/user/pref.md", new_path="/memories/project/pref.md")
    assert moved.is_error and "stays in its layer" in moved.text
    assert mem.read("pref", count=False).record.body == "Prefers tabs"  # control: still there


def test_memory_edit_tool_replaces_and_inserts(mem):
    mem.write("style", "Code style", "feedback", "Use tabs.\n**Why:** team rule\n**How to apply:** always")
    out = mem.call_tool("memory_edit", {"name": "style", "mode": "str_replace", "old_str": "tabs", "new_str": "spaces"})
    assert out.splitlines() == ["Memory updated: style (project)",
                                     "The body changed from line 1; memory_read shows it whole."]
    mem.call_tool("memory_edit", {"name": "style", "mode": "insert", "insert_line": 1, "insert_text": "Four of them."})
    assert mem.read("style", count=False).record.body == \
        "Use spaces.\nFour of them.\n**Why:** team rule\n**How to apply:** always"
    wrong = mem.call_tool("memory_edit", {"name": "style", "mode": "insert", "old_str": "x", "new_str": "y"})
    assert wrong == ("Error: memory_edit: mode insert takes insert_line and insert_text; "
                                             "missing insert_line, insert_text; drop old_str, new_str")


def test_view_range_must_be_a_range_from_line_one(mem):
    go(mem, command="create", path="/memories/project/steps.md", file_text="Steps\none\ntwo\nthree")
    assert go(mem, command="view", path="/memories/project/steps.md", view_range=[2, 3]).text.splitlines()[1:] == \
        ["     2\tone", "     3\ttwo"]  # control: a real range
    for bad in ([1, -2], [0, 2], [-3, -1], [3, 2]):
        out = go(mem, command="view", path="/memories/project/steps.md", view_range=bad)
        assert out.is_error and f"view_range {bad} is not a range of lines" in out.text


def test_a_view_range_past_the_last_line_says_how_many_lines_there_are(mem):
    # break39: [100, 200] of a 4-line file answered the header alone, which reads as an empty file
    go(mem, command="create", path="/memories/project/steps.md", file_text="Steps\none\ntwo\nthree")
    for past in ([5, -1], [100, 200]):
        out = go(mem, command="view", path="/memories/project/steps.md", view_range=past)
        assert out.is_error and out.text == (f"view_range {past} starts past the end of /memories/project/steps.md: "
                                             "it has 4 lines (view_range [1, -1] shows them all)")
    last = go(mem, command="view", path="/memories/project/steps.md", view_range=[4, 10])  # control: the last line
    assert not last.is_error and last.text.splitlines()[1:] == ["     4\tthree"]


def test_an_agents_edit_of_a_team_memory_says_it_waits_for_review(tmp_path):
    from tests.teamgit import shared_repository

    a, _ = shared_repository(tmp_path)
    a.memory().write("deploy", "Deploys need the VPN", "project", "Connect first.", scope="team")
    agent = a.memory(actor="agent")
    text = run(agent.session, {"command": "str_replace", "path": "/memories/team/deploy.md",
                               "old_str": "Connect first.", "new_str": "Connect the VPN first."}).text
    assert text.startswith("The edit of /memories/team/deploy.md was saved as a candidate (") and \
        "unchanged until it is approved" in text
    assert a.memory().read("deploy", "team", count=False).record.body == "Connect first."  # the live text stays
    mine = run(agent.session, {"command": "create", "path": "/memories/project/notes.md", "file_text": "Notes\nx"})
    edited = run(agent.session, {"command": "str_replace", "path": "/memories/project/notes.md",
                                 "old_str": "x", "new_str": "y"}).text
    assert mine.text.startswith("File created") and edited.startswith("The memory file has been edited.")  # control


def test_create_over_the_body_limit_is_refused_whole_and_writes_nothing(mem):
    limit = mem.session.settings.limit_body
    # a plain Markdown file's body is its whole text: heading line included
    over = go(mem, command="create", path="/memories/project/long.md", file_text="# Long\n" + "x" * (limit - 6))
    assert over.is_error is True
    assert over.text == (f"the body of /memories/project/long.md would be {limit + 1} characters, over the "
                         f"{limit}-character limit; nothing was changed (shorten it, or split the memory)")
    assert not (mem.session.layer_dir("project") / "long.md").exists()
    assert [m.name for m in mem.list().memories] == []
    fits = go(mem, command="create", path="/memories/project/fits.md", file_text="# Fits\n" + "y" * (limit - 7))
    assert fits.text.splitlines()[0] == "File created successfully at: /memories/project/fits.md"  # control: at the limit, whole
    assert mem.read("fits", count=False).record.body == "# Fits\n" + "y" * (limit - 7)


def test_delete_after_rename_forgets_the_renamed_memorys_value_under_a_tombstone_that_exists(mem):
    go(mem, command="create", path="/memories/project/coffee.md", file_text="# Drinks espresso\nNo sugar.")
    go(mem, command="rename", old_path="/memories/project/coffee.md", new_path="/memories/project/drinks.md")
    old = go(mem, command="delete", path="/memories/project/coffee.md")
    assert old.is_error is True
    stale = ("/memories/project/coffee.md: it is the old name of a memory that was renamed or replaced (it is "
             "/memories/project/drinks.md now); the name stays with that memory's history and cannot be reused — ")
    assert old.text == f"Cannot delete {stale}delete /memories/project/drinks.md instead"
    taken = go(mem, command="create", path="/memories/project/coffee.md", file_text="# Drinks latte")
    assert taken.text == (f"Cannot create {stale}choose another name, or change /memories/project/drinks.md with "
                          "str_replace or insert")
    assert mem.tombstones().tombstones == ()
    viewed = go(mem, command="view", path="/memories/project/coffee.md")
    assert viewed.is_error is True
    assert viewed.text == f"Cannot view {stale}view /memories/project/drinks.md instead"
    assert go(mem, command="view", path="/memories/project/drinks.md").text == (  # control: the new path shows it
        "Here's the content of /memories/project/drinks.md with line numbers:\n     1\t# Drinks espresso\n     2\tNo sugar.")
    assert mem.read("drinks", count=False).record.body == "# Drinks espresso\nNo sugar."  # control: the renamed memory is untouched
    deleted = go(mem, command="delete", path="/memories/project/drinks.md")
    (stone,) = mem.tombstones().tombstones
    assert stone.name == "drinks"
    assert deleted.text == ("Successfully deleted /memories/project/drinks.md (its text is tombstoned: the same "
                            f"memory will not be saved again unless the user allows it; tombstone {stone.id})")
    again = go(mem, command="create", path="/memories/project/milk.md", file_text="# Drinks espresso\nNo sugar.")
    assert again.is_error is True and f"tombstone {stone.id}" in again.text
    other = go(mem, command="create", path="/memories/project/tea.md", file_text="# Drinks green tea\nNo sugar.")
    assert other.text.splitlines()[0] == "File created successfully at: /memories/project/tea.md"  # control: another value is saved


def test_delete_of_a_value_another_layer_holds_says_it_left_no_tombstone(mem):
    go(mem, command="create", path="/memories/user/tabs.md", file_text="# Indents with tabs\nAlways.")
    # the agent is refused a copy in another layer; a person's is kept
    mem.as_actor("human").write("tabs", "Indents with tabs", "project", "# Indents with tabs\nAlways.",
                                scope="project")
    deleted = go(mem, command="delete", path="/memories/project/tabs.md")
    assert deleted.text == ("Successfully deleted /memories/project/tabs.md (its text is not tombstoned: "
                            "/memories/user/tabs.md holds the same text)")
    assert mem.tombstones().tombstones == ()
    assert mem.read("tabs", scope="user", count=False).record.description == "Indents with tabs"


def test_a_renamed_path_names_the_end_of_its_chain_of_renames(mem):
    go(mem, command="create", path="/memories/project/a.md", file_text="# Deploys on Fridays\nNever after 4pm.")
    go(mem, command="rename", old_path="/memories/project/a.md", new_path="/memories/project/b.md")
    go(mem, command="rename", old_path="/memories/project/b.md", new_path="/memories/project/c.md")
    assert go(mem, command="view", path="/memories/project/a.md").text == (
        "Cannot view /memories/project/a.md: it is the old name of a memory that was renamed or replaced (it is "
        "/memories/project/c.md now); the name stays with that memory's history and cannot be reused — view "
        "/memories/project/c.md instead")
    assert go(mem, command="view", path="/memories/project/c.md").text.endswith("2\tNever after 4pm.")  # control
    go(mem, command="delete", path="/memories/project/c.md")
    assert go(mem, command="view", path="/memories/project/a.md").text == (  # nothing holds it now: no path named
        "Cannot view /memories/project/a.md: it is the old name of a memory that was renamed or replaced (by c, "
        "deleted since); the name stays with that memory's history and cannot be reused — create the memory "
        "under another name")
    edit = go(mem, command="str_replace", path="/memories/project/a.md", old_str="4pm", new_str="5pm")
    assert edit.is_error is True and "reactivate" not in edit.text  # a flag this tool does not have
    assert edit.text.startswith("Cannot edit /memories/project/a.md: it is the old name of a memory") and \
        edit.text.endswith("— create the memory under another name")
    gone = go(mem, command="str_replace", path="/memories/project/c.md", old_str="4pm", new_str="5pm")
    assert gone.is_error is True and "memdir history" not in gone.text
    assert gone.text.startswith('The path /memories/project/c.md does not exist: memory "c" was deleted from the '
                                "project layer (tombstone t-") and \
        gone.text.endswith("); create /memories/project/c.md to write a new memory there")
    view = go(mem, command="view", path="/memories/project/c.md")  # nor a view: neither command is this tool's
    assert view.is_error is True and view.text.startswith(
        'The path /memories/project/c.md does not exist: memory "c" was deleted from the project layer (tombstone t-')
    assert "memdir history" not in view.text and "memory_history" not in view.text
    fresh = go(mem, command="create", path="/memories/project/c.md", file_text="# Deploys on Mondays")
    assert fresh.text.splitlines()[0] == "File created successfully at: /memories/project/c.md"  # as the message said


def test_after_a_rename_every_command_on_the_old_name_says_the_same_and_what_the_tool_can_do(mem):
    go(mem, command="create", path="/memories/project/a.md", file_text="# Deploys on Fridays\nNever after 4pm.")
    go(mem, command="rename", old_path="/memories/project/a.md", new_path="/memories/project/b.md")
    stale = ("/memories/project/a.md: it is the old name of a memory that was renamed or replaced (it is "
             "/memories/project/b.md now); the name stays with that memory's history and cannot be reused — ")
    back = go(mem, command="rename", old_path="/memories/project/b.md", new_path="/memories/project/a.md")
    assert (back.is_error, back.text) == (True, f"Cannot rename to {stale}choose another name, or change "
                                                "/memories/project/b.md with str_replace or insert")
    create = go(mem, command="create", path="/memories/project/a.md", file_text="# Deploys on Mondays")
    assert create.text == back.text.replace("Cannot rename to", "Cannot create")
    for command in ({"command": "str_replace", "old_str": "4pm", "new_str": "5pm"},
                    {"command": "insert", "insert_line": 0, "insert_text": "x"}):
        edit = go(mem, path="/memories/project/a.md", **command)
        assert (edit.is_error, edit.text) == (True, f"Cannot edit {stale}edit /memories/project/b.md instead")
    moved = go(mem, command="rename", old_path="/memories/project/a.md", new_path="/memories/project/c.md")
    assert moved.text == f"Cannot rename {stale}rename /memories/project/b.md instead"
    done = go(mem, command="str_replace", path="/memories/project/b.md", old_str="4pm", new_str="5pm")
    assert done.is_error is False  # control: the path the message names takes the edit
    assert mem.read("b", count=False).record.body == "# Deploys on Fridays\nNever after 5pm."
    other = go(mem, command="rename", old_path="/memories/project/b.md", new_path="/memories/project/d.md")
    assert other.text == "Successfully renamed /memories/project/b.md to /memories/project/d.md"  # another name
