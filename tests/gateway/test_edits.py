"""Partial edits of a body (memdir.gateway.edits): one unique replacement, lines inserted, through the gateway."""

from __future__ import annotations

import pytest

from memdir.errors import InvalidInput, NotFound, TombstoneRefused
from memdir.gateway.edits import BodyEdit


def test_apply_replaces_the_one_occurrence_and_says_its_line():
    body = "first\nport 5432\nthird"
    assert BodyEdit(old="5432", new="5433").apply(body, "db") == ("first\nport 5433\nthird", 2)
    assert BodyEdit(old="port 5432\n", new="").apply(body, "db") == ("first\nthird", 2)


def test_apply_refuses_missing_and_repeated_text_naming_the_lines():
    body = "a x\nb\nc x"
    with pytest.raises(InvalidInput, match="does not appear verbatim in 'db'"):
        BodyEdit(old="zzz", new="y").apply(body, "db")
    with pytest.raises(InvalidInput, match=r"appears 2 times in 'db' \(at lines 1, 3\)"):
        BodyEdit(old="x", new="y").apply(body, "db")
    assert BodyEdit(old="c x", new="c y").apply(body, "db") == ("a x\nb\nc y", 3)  # control: unique is fine


def test_apply_inserts_after_a_line_zero_being_the_top():
    body = "one\ntwo"
    assert BodyEdit(line=0, text="zero\n").apply(body, "n") == ("zero\none\ntwo", 1)
    assert BodyEdit(line=1, text="a\nb").apply(body, "n") == ("one\na\nb\ntwo", 2)
    assert BodyEdit(line=2, text="three").apply(body, "n") == ("one\ntwo\nthree", 3)
    assert BodyEdit(line=0, text="only").apply("", "n") == ("only", 1)
    with pytest.raises(InvalidInput, match="line 3 is past the end of 'n': it must be from 0 to 2"):
        BodyEdit(line=3, text="x").apply(body, "n")


@pytest.mark.parametrize("kwargs", [{}, {"old": "a", "new": "b", "line": 1, "text": "c"}, {"old": "", "new": "b"},
                                    {"old": "a"}, {"line": -1, "text": "x"}, {"line": True, "text": "x"},
                                    {"line": 1}])
def test_an_edit_is_one_well_formed_mode(kwargs):
    with pytest.raises(InvalidInput):
        BodyEdit(**kwargs)


def test_edit_goes_through_the_gateway_history_redaction_and_tombstones(mem):
    mem.write("db-port", "Dev DB port", "project", "The dev DB listens on 5432.\nSee the wiki.")
    done = mem.edit("db-port", BodyEdit(old="5432", new="5433 (token ghp_abcdefghijklmnopqrstuvwxyz0123456789)"))
    assert (done.operation, done.line, done.redactions) == ("updated", 1, 1)
    record = mem.read("db-port", count=False).record
    assert record.body == "The dev DB listens on 5433 (token [REDACTED:github-token]).\nSee the wiki."
    assert record.description == "Dev DB port" and record.origin == "agent"
    assert len(mem.history("db-port").versions) == 2  # the edit kept the version before it
    mem.write("old-host", "Staging runs on host-a", "project", "since the move")
    mem.delete("old-host")
    with pytest.raises(TombstoneRefused):  # an edit that recreates a forgotten value is refused like a write
        mem.edit("db-port", BodyEdit(old="The dev DB listens on 5433 (token [REDACTED:github-token]).\nSee the wiki.",
                                     new="Staging runs on host-a, said the wiki."))
    assert mem.read("db-port", count=False).record.body.startswith("The dev DB listens on 5433")
    with pytest.raises(NotFound):
        mem.edit("no-such", BodyEdit(line=0, text="x"))


def test_edit_never_cuts_a_body_past_its_limit(isolated_home, project):
    from memdir import Memory

    mem = Memory.open(project=project, limit_body=200)
    mem.write("short", "A short one", "project", "x" * 195)
    with pytest.raises(InvalidInput, match="over the 200-character limit; nothing was changed"):
        mem.edit("short", BodyEdit(line=1, text="y" * 10))
    assert mem.edit("short", BodyEdit(line=1, text="yy")).operation == "updated"  # control: within the limit
    assert mem.read("short", count=False).record.body == "x" * 195 + "\nyy"


def test_old_text_in_another_unicode_form_is_the_text():
    """break13: a body stored decomposed (a macOS client's ``e`` + U+0301) and an edit's old text composed (or the
    other way round) are one text; the edit said "does not appear verbatim" on every path."""
    decomposed = "The Cafe\u0301 menu changes on Mondays.\nKo\u0308ln office"
    assert BodyEdit(old="Café menu changes", new="Café menu changes weekly").apply(decomposed, "cafe") == (
        "The Café menu changes weekly on Mondays.\nKöln office", 1)
    assert BodyEdit(old="Cafe\u0301 menu", new="Bistro menu").apply("The Café menu", "cafe") == ("The Bistro menu", 1)
    assert BodyEdit(old="Café", new="x").apply("Café", "c") == ("x", 1)  # as written: as before
    with pytest.raises(InvalidInput, match="does not appear verbatim"):  # control: another word is not the text
        BodyEdit(old="Cafe menu", new="y").apply(decomposed, "cafe")
    with pytest.raises(InvalidInput, match="appears 2 times"):  # one text in either form twice: ambiguous
        BodyEdit(old="Café", new="y").apply("Cafe\u0301 and Café", "cafe")


@pytest.mark.slow
def test_an_edit_in_another_unicode_form_through_the_tool_and_mcp(mem, project):
    import anyio
    from mcp import Client

    from memdir.integrations.mcp.server import MemoryServer, build_server

    mem.write("cafe", "Café menu", "project", "The Cafe\u0301 menu changes on Mondays.\nKo\u0308ln office opens at 9.")
    out = mem.call_tool("memory_edit", {"name": "cafe", "mode": "str_replace", "old_str": "Café menu changes",
                                        "new_str": "Café menu changes weekly"})
    assert out.startswith("Memory updated: cafe"), out

    async def call():
        async with Client(build_server(MemoryServer(home=mem.home, project=project))) as client:
            return (await client.call_tool("memory_edit", {"name": "cafe", "mode": "str_replace",
                                                           "old_str": "Köln office", "new_str": "Cologne office"})
                    ).content[0].text

    assert anyio.run(call).startswith("Memory updated: cafe")
    assert mem.read("cafe").record.body == "The Café menu changes weekly on Mondays.\nCologne office opens at 9."
    miss = mem.call_tool("memory_edit", {"name": "cafe", "mode": "str_replace", "old_str": "Koln", "new_str": "x"})
    assert "does not appear verbatim" in miss  # control: the text without its umlaut is another text
