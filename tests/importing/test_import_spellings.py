"""An imported item keeps its source's spelling of its name as its title, by the rule of every write
(:func:`memdir.gateway.fields.kept_spelling`): a file stem or a JSON line's ``name`` that differs from
its normalized name by more than case.

break49: ``import dir`` of ``C# tips.md`` (no ``name:`` key) made ``c-tips`` with no title, so
``memdir read "C# tips"`` answered "not found", and a later import of ``C++ tips.md`` reported
"updated ... the source changed" and replaced the C# text (``memdir write "C# tips"`` keeps the title
and a later ``C++ tips`` is another memory). ``import jsonl`` of ``{"name": "café"}`` lost the accent
the same way."""

from __future__ import annotations

import json

from tests.conftest import run_cli


def test_a_file_stem_spelled_by_more_than_case_is_kept_as_the_title_and_another_spelling_named_apart(
        tmp_path, project, person):
    first = tmp_path / "first"
    first.mkdir()
    (first / "C# tips.md").write_text("---\ndescription: Prefer LINQ over loops\n---\nC# stuff\n")
    (first / "Deploy.md").write_text("---\ndescription: Deploys run on Fridays\n---\n")  # control: case only
    text = run_cli("--project", project, "import", "dir", first).stdout.splitlines()
    assert text[1:3] == ["  imported         c-tips (project)  ← C# tips.md",
                         "  imported         deploy (project)  ← Deploy.md"]
    sharp = person.read("C# tips", count=False).record  # its own spelling finds it
    assert (sharp.name, sharp.title, sharp.description, sharp.body) == (
        "c-tips", "C# tips", "Prefer LINQ over loops", "C# stuff")
    assert person.read("deploy", count=False).record.title is None  # a name differing by case keeps no title
    second = tmp_path / "second"
    second.mkdir()
    (second / "C++ tips.md").write_text("---\ndescription: Use RAII for every resource\n---\nC++ stuff\n")
    report = person.import_from("dir", str(second))
    assert [(o.source, o.result, o.name) for o in report.outcomes] == [
        ("C++ tips.md", "imported", "c-plus-plus-tips")]
    assert person.read("C# tips", count=False).record.description == "Prefer LINQ over loops"  # not replaced
    cpp = person.read("C++ tips", count=False).record
    assert (cpp.name, cpp.title, cpp.description) == ("c-plus-plus-tips", "C++ tips", "Use RAII for every resource")
    again = person.import_from("dir", str(first))  # the digest is the source's: a rerun changes nothing
    assert [(o.source, o.result) for o in again.outcomes] == [("C# tips.md", "unchanged"), ("Deploy.md", "unchanged")]


def test_a_json_line_name_keeps_its_accent_as_the_title(tmp_path, project, person):
    lines = tmp_path / "memories.jsonl"
    lines.write_text("\n".join(json.dumps(line) for line in (
        {"name": "café", "description": "The café opens at 8", "type": "user", "body": "b"},
        {"name": "Dup", "description": "A case-only name", "type": "user", "body": "d"},  # control
        {"name": "ci", "title": "CI notes", "description": "CI runs on Actions", "body": "c"},  # a title given wins
    )) + "\n", encoding="utf-8")
    report = person.import_from("jsonl", str(lines), scope="user")
    assert [(o.name, o.result) for o in report.outcomes] == [("cafe", "imported"), ("dup", "imported"),
                                                             ("ci", "imported")]
    cafe = person.read("café", count=False).record
    assert (cafe.name, cafe.title, cafe.description) == ("cafe", "café", "The café opens at 8")
    assert (person.read("dup", count=False).record.title, person.read("ci", count=False).record.title) == (
        None, "CI notes")
