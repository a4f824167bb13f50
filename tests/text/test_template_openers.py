"""Every template opener in stored text is broken before it reaches a model (left32): ``{{`` was, but a
Jinja statement ``{% … %}`` and comment ``{# … #}`` went through whole. The rule is
:func:`memdir.text.fence.neutralize_braces`, which :func:`escape_stored` applies for the context block,
recall and every tool result; :func:`unescaped` takes a copy of the shown text back."""

from __future__ import annotations

import pytest

from memdir.text.fence import escape_stored, neutralize_braces, unescaped


@pytest.mark.parametrize(("stored", "shown"), [
    ("{% if x %}yes{% endif %}", "{ % if x %}yes{ % endif %}"),
    ("{# a note #}", "{ # a note #}"),
    ("{{ var }}", "{ { var }}"),
    ("{%- trim -%}", "{ %- trim -%}"),
    ("{{%", "{ { %"),    # a run: each brace followed by an opener's second character gets its space
    ("{#{", "{ #{"),
    ("{{{", "{ { {"),
])
def test_each_opener_is_broken_and_comes_back(stored, shown):
    assert neutralize_braces(stored) == escape_stored(stored) == shown
    assert escape_stored(shown) == shown  # idempotent
    assert unescaped(shown) == stored


def test_braces_that_open_no_template_are_kept_byte_for_byte():
    # Control: Python's format fields, a dict, a percent sign after a space: none is an opener.
    for text in ("{user} {0} %(x)s ${PATH}", "{'a': 1}", "{ %", "50% {done}", "#{ruby}"):
        assert escape_stored(text) == text


def test_the_context_block_and_a_tool_result_show_no_opener(mem):
    mem.write("tpl", "Jinja {% raw %} and {# note #} and {{ var }}", "project", "use {% if x %}yes{% endif %}")
    block = mem.context()
    assert "Jinja { % raw %} and { # note #} and { { var }}" in block
    shown = mem.call_tool("memory_read", {"name": "tpl"})
    assert "> use { % if x %}yes{ % endif %}" in shown.splitlines()
    for text in (block, shown):
        assert "{%" not in text and "{#" not in text and "{{" not in text
    assert mem.read("tpl").record.body == "use {% if x %}yes{% endif %}"  # control: stored as written
