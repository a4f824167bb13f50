"""A memory file a person placed under a stem that is not a memory name (``Upper.Case name.md``, Claude Code's
``project_Foo_Bar.md``) is indexed with a link to that file — the file that is there — not to
``<name>.md``, which does not exist; a file of a space goes in angle brackets (CommonMark). A file named
``<name>.md`` keeps its plain link (the control), and a hand-named file memdir writes moves to ``<name>.md``,
its link with it. The context block reads those lines (a pinned hand-named memory keeps its pin)."""

from __future__ import annotations

from memdir.files.memfile import MemoryRecord
from memdir.layer.index import index_line, link


def _place(path, text: str) -> None:
    path.write_text(text, encoding="utf-8")


def test_a_hand_named_file_is_linked_by_its_own_file_name(mem):
    mem.write("seed", "seed memory", "project", "x")
    layer = mem.session.layer("project").path
    _place(layer / "Upper.Case name.md", "---\ndescription: hand made upper case\ntype: project\npinned: true\n"
                                         "---\nbody text\n")
    _place(layer / "project_Foo_Bar.md", "---\ndescription: claude style\ntype: project\n---\nbody text\n")
    assert [m.name for m in mem.list().memories] == ["upper-case-name", "project-foo-bar", "seed"]
    lines = (layer / "MEMORY.md").read_text(encoding="utf-8").splitlines()
    assert lines == ["- [upper-case-name](<Upper.Case name.md>) 📌 — hand made upper case",
                     "- [project-foo-bar](project_Foo_Bar.md) — claude style",
                     "- [seed](seed.md) — seed memory"]
    assert (layer / "Upper.Case name.md").is_file() and (layer / "project_Foo_Bar.md").is_file()
    assert not (layer / "upper-case-name.md").exists()
    block = mem.context()
    assert "- [upper-case-name](<Upper.Case name.md>) 📌 — hand made upper case" in block
    assert "- [seed](seed.md) — seed memory" in block
    # memdir's write moves the file to its name: the link follows
    mem.write("upper-case-name", "now written by memdir", "project", "y")
    assert (layer / "upper-case-name.md").is_file() and not (layer / "Upper.Case name.md").exists()
    assert "- [upper-case-name](upper-case-name.md) 📌 — now written by memdir" in (
        (layer / "MEMORY.md").read_text(encoding="utf-8").splitlines())


def test_link_forms():
    plain = MemoryRecord(name="db-port", description="d")
    assert link(plain) == "db-port.md" and index_line(plain) == "- [db-port](db-port.md) — d"
    assert link(MemoryRecord(name="feedback-x", description="d", file_stem="feedback_x")) == "feedback_x.md"
    assert link(MemoryRecord(name="a-b", description="d", file_stem="a (b)")) == "<a (b).md>"
    assert link(MemoryRecord(name="a-b", description="d", file_stem="a<b>\\")) == "<a\\<b\\>\\\\.md>"
    assert link(MemoryRecord(name="a-b", description="d", file_stem="a\u00a0b")) == "<a\u00a0b.md>"
    # a stem that is not one clean line cannot be linked on a line: the name stands in
    assert link(MemoryRecord(name="a-b", description="d", file_stem="a\nb")) == "a-b.md"


def test_a_saved_index_whose_first_line_links_a_hand_named_file_is_taken_up():
    from datetime import UTC, datetime

    from memdir.layer.index import IndexBuilder

    now = datetime(2026, 12, 6, tzinfo=UTC)
    records = {"upper-case-name": MemoryRecord(name="upper-case-name", description="hand", pinned=True,
                                               file_stem="Upper.Case name"),
               "project-foo-bar": MemoryRecord(name="project-foo-bar", description="claude", file_stem="project_Foo_Bar"),
               "seed": MemoryRecord(name="seed", description="seed", importance=1)}
    built = IndexBuilder()
    text = built.render(records, now)
    assert text.splitlines()[0] == "- [upper-case-name](<Upper.Case name.md>) 📌 — hand"
    again = IndexBuilder()
    assert again.restore(built.keys(), text, built.deadline) is True  # taken up: no full render in a new process
    # the control: a text whose first line links another memory is not taken up
    wrong = text.replace("<Upper.Case name.md>", "seed.md", 1)
    assert IndexBuilder().restore(built.keys(), wrong, built.deadline) is False
