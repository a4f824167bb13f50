"""Imports of files a Windows tool or an old editor wrote (break32): a memory file in UTF-16 or UTF-32 with
its byte-order mark (PowerShell's ``>`` writes UTF-16 LE) is read as the text it is, through the one rule that
also reads transcripts (:func:`memdir.files.fsio.foreign_text`); before, it was skipped as "not valid UTF-8".
A Latin-1 file is still refused, never stored with a replaced byte, and the refusal names the byte, where it
is and how to convert the file; the source is left as it was."""

from __future__ import annotations

import codecs
import json

import pytest

from tests.conftest import run_cli

MEMORY = "---\nname: build tool\ndescription: We build with pnpm, café-style\ntype: feedback\n---\nNever npm: pnpm only.\n"


@pytest.mark.parametrize("encoding, mark", [("utf-16-le", codecs.BOM_UTF16_LE), ("utf-16-be", codecs.BOM_UTF16_BE),
                                            ("utf-32-le", codecs.BOM_UTF32_LE), ("utf-8", codecs.BOM_UTF8)])
def test_a_memory_file_with_a_byte_order_mark_is_imported_as_its_text(tmp_path, project, isolated_home,
                                                                         encoding, mark):
    source = tmp_path / "src"
    source.mkdir()
    (source / "build-tool.md").write_bytes(mark + MEMORY.replace("\n", "\r\n").encode(encoding))
    (source / "latin.md").write_bytes(MEMORY.replace("build tool", "latin").encode("latin-1"))
    before = (source / "latin.md").read_bytes()
    out = run_cli("import", "dir", source, "--project", project, "--json")
    assert out.returncode == 0, out.stderr
    results = {o["source"]: (o["name"], o["result"], o["detail"]) for o in json.loads(out.stdout)["outcomes"]}
    assert results["build-tool.md"][:2] == ("build-tool", "imported")
    read = run_cli("read", "build-tool", "--project", project, "--json")
    record = json.loads(read.stdout)
    assert (record["description"], record["body"]) == ("We build with pnpm, café-style", "Never npm: pnpm only.")
    name, result, reason = results["latin.md"]
    assert (name, result) == (None, "skipped")
    assert reason.startswith("not valid UTF-8: byte 0xe9 at offset ") and "iconv" in reason
    assert (source / "latin.md").read_bytes() == before


def test_an_mcp_memory_graph_in_utf16_is_imported_and_one_in_latin1_is_refused_naming_the_byte(tmp_path, project,
                                                                                                isolated_home):
    graph = json.dumps({"type": "entity", "name": "Build", "entityType": "tool",
                        "observations": ["pnpm only, café"]}, ensure_ascii=False)
    (tmp_path / "u16.json").write_bytes(codecs.BOM_UTF16_LE + graph.encode("utf-16-le"))
    (tmp_path / "latin.json").write_bytes(graph.encode("latin-1"))
    refused = run_cli("import", "mcp-memory", tmp_path / "latin.json", "--project", project)
    assert refused.returncode == 1 and "not valid UTF-8: byte 0xe9 at offset" in refused.stderr
    done = run_cli("import", "mcp-memory", tmp_path / "u16.json", "--project", project)
    assert done.returncode == 0, done.stderr
    listed = run_cli("list", "--project", project).stdout
    assert "build" in listed


def test_a_lone_surrogate_escape_in_a_json_source_skips_that_item_alone(tmp_path, project, isolated_home):
    """break45: ``\\ud800`` written as a JSON escape in an MCP memory graph (no UTF-8 holds it) crashed the
    whole import with a UnicodeEncodeError traceback while taking the item's digest. Now that item is skipped
    with the gateway's reason; the good entity beside it (the control) is imported."""
    graph = tmp_path / "memory.jsonl"
    graph.write_text('{"type":"entity","name":"bad-one","entityType":"project","observations":["hi \\ud800 x"]}\n'
                     '{"type":"entity","name":"good-one","entityType":"project","observations":["fine"]}\n',
                     encoding="utf-8")
    out = run_cli("import", "mcp-memory", graph, "--project", project, "--json")
    assert out.returncode == 0, out.stderr
    results = {o["name"]: (o["result"], o["detail"]) for o in json.loads(out.stdout)["outcomes"]}
    assert results["good-one"][0] == "imported"
    assert results["bad-one"] == ("skipped", "description is not valid Unicode text (undecodable bytes?)")
