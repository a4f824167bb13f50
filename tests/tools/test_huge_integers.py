"""An integer argument of more than 18 digits is refused by the one argument rule (memdir.tools.specs.as_json_type),
and the refusal never writes the number out (break39): ``insert_line=10**5000`` raised ValueError (Python writes no
int of more than 4,300 digits) from the "past the end" message — a traceback in place of the tool's answer — and
``1e300`` was echoed as 301 digits."""

from __future__ import annotations

import pytest

from memdir.tools.handlers import run_tool
from memdir.tools.memory_directory import run

PATH = "/memories/project/steps.md"


@pytest.mark.parametrize("number", [10**5000, 10**18, 1e300, float("inf")], ids=["5001-digits", "19-digits", "1e300", "inf"])
def test_a_number_of_too_many_digits_is_refused_without_being_written(mem, number):
    run(mem.session, {"command": "create", "path": PATH, "file_text": "Steps\none"})
    insert = run(mem.session, {"command": "insert", "path": PATH, "insert_line": number, "insert_text": "x"})
    assert insert.is_error and insert.text == "insert: insert_line must be an integer, got a number of more than 18 digits"
    view = run(mem.session, {"command": "view", "path": PATH, "view_range": [number, -1]})
    assert view.is_error and view.text == ("view_range must be two line numbers [start, end] (end -1: to the last "
                                           "line), got a number of more than 18 digits")
    read = run_tool(mem.session, "memory_read", {"name": "steps", "offset": number})
    assert read.is_error and read.text == "Error: memory_read: 'offset' must be an integer, got a number of more than 18 digits"
    assert mem.read("steps", count=False).record.body == "Steps\none"


def test_eighteen_digits_are_still_a_number(mem):
    # control: the largest integer argument read is a number, and its refusal (past the end) is the usual one
    run(mem.session, {"command": "create", "path": PATH, "file_text": "Steps\none"})
    insert = run(mem.session, {"command": "insert", "path": PATH, "insert_line": 10**18 - 1, "insert_text": "x"})
    assert insert.is_error and insert.text == "line 999999999999999999 is past the end of 'steps': it must be from 0 to 2"
    read = run_tool(mem.session, "memory_read", {"name": "steps", "offset": "999999999999999999"})
    assert read.is_error and read.text.startswith("Error: memory_read: offset 999999999999999999 is past the end")


def test_the_python_apis_edit_refuses_a_line_of_too_many_digits(mem):
    from memdir.errors import InvalidInput
    from memdir.gateway.edits import BodyEdit

    mem.write("steps", "Steps", "project", "one")
    with pytest.raises(InvalidInput, match=r"^line must be a whole number of at most 18 digits \(got a larger one\)$"):
        mem.edit("steps", BodyEdit(line=10**5000, text="x"))
    with pytest.raises(InvalidInput, match=r"^line must be a whole number ≥ 0 \(got a number of more than 18 digits\)$"):
        BodyEdit(line=-10**5000, text="x")
    mem.edit("steps", BodyEdit(line=1, text="two"))  # control: a line in range is inserted
    assert mem.read("steps", count=False).record.body == "one\ntwo"
