"""A memory file still on disk that memdir cannot read is not journaled as deleted (DESIGN §3, §5).

An editor's save caught half-way (an empty file), a YAML alias memdir refuses or a file mode a person got wrong made
the next operation journal an ``external-delete`` by "human": history said the person deleted the
memory, ``memdir read`` said "deleted", while the file was there and reported as unreadable. It is now
reported only; its history keeps its last version, and its next readable bytes are an external-edit.
"""

from __future__ import annotations

import pytest

BROKEN = {
    "empty": "",
    "yaml-alias": "---\nname: fact\ndescription: &d The build runs on Tuesdays\ntitle: *d\ntype: project\n---\nbody\n",
}


def _actions(mem, name):
    return [v.action for v in mem.history(name).versions]


@pytest.mark.parametrize("broken", sorted(BROKEN))
def test_an_unreadable_file_keeps_its_history_and_comes_back_as_an_edit(person, broken):
    person.write("fact", "The build runs on Tuesdays", "project", "nightly")
    person.write("other", "A control memory", "project", "text")
    path = person.session.layer("project").path / "fact.md"
    path.write_text(BROKEN[broken], encoding="utf-8")

    person.write("other", "A control memory, changed", "project")  # the next operation sweeps the layer
    assert _actions(person, "fact") == ["create"]
    assert [m.path for m in person.list().malformed] == [str(path)]

    path.write_text("---\nname: fact\ndescription: The build runs on Wednesdays\ntype: project\n---\nnightly\n",
                    encoding="utf-8")
    person.write("other", "A control memory, changed again", "project")
    assert _actions(person, "fact") == ["create", "external-edit"]
    assert person.read("fact", count=False).record.description == "The build runs on Wednesdays"

    path.unlink()  # control: a file really removed by hand is an external delete
    person.write("other", "A control memory, changed a third time", "project")
    assert _actions(person, "fact") == ["create", "external-edit", "external-delete"]
    assert person.verify().ok
