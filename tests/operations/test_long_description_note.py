"""trial29: doctor said "over limit_description 160; the index line shows its first 163" of a 163-character
description — the whole of it, so the note read as a cut that is not there. It now says what the index line
(:func:`memdir.layer.index.index_line`) shows: all of it, or its first N characters."""

from __future__ import annotations

from memdir.operations.maintenance import long_descriptions
from tests.conftest import run_cli


def _place(mem, name: str, description: str):
    path = mem.session.layer("project").path / f"{name}.md"
    path.write_text(f"---\nname: {name}\ndescription: {description}\ntype: project\n---\nbody\n", encoding="utf-8")
    return path


def test_a_description_over_the_limit_the_index_line_shows_whole_is_said_to_be_shown_whole(mem, project):
    just_over = "Dev PostgreSQL listens on 5433 " + "x" * 132  # 163 characters: over 160, one index line holds it
    long = "Dev PostgreSQL listens on 5433 " + "y" * 400  # 431 characters: the index line cuts it
    mem.write("short", "Project uses pnpm workspaces", "project", "x")  # control: under the limit, no note
    over, cut = _place(mem, "just-over", just_over), _place(mem, "long", long)
    assert long_descriptions(mem.session) == [
        f"{over}: its description is 163 characters, over limit_description 160; the index line shows all of "
        "it (a line is cut past 300 UTF-8 bytes) — shorten it (a write keeps the whole text in the body)",
        f"{cut}: its description is 431 characters, over limit_description 160; the index line shows its first "
        "299 — shorten it (a write keeps the whole text in the body)"]
    index = (over.parent / "MEMORY.md").read_text(encoding="utf-8")
    assert f"(just-over.md) — {just_over}\n" in index  # the whole of it, as the note says
    assert f"(long.md) — {long[:299]}…\n" in index  # its first 299, as the note says
    doctor = run_cli("doctor", cwd=project).stdout
    assert "just-over.md: its description is 163 characters" in doctor and "shows its first 163" not in doctor
    assert "short.md: its description" not in doctor
