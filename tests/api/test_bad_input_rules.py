"""Bad input gets one answer on every path (audit 18): the core decides (memdir.search.query, the
context block's budget, the hook's input), the adapters translate — the CLI exits 1 with the message on
stderr, ``memory_search`` answers a tool error, a hook exits 0 with one line on stderr."""

from __future__ import annotations

import json
import re
import subprocess
import sys

import anyio
import pytest
from mcp import Client

from memdir import InvalidInput, Memory
from memdir.search import ranking
from memdir.integrations.mcp.server import MemoryServer, build_server
from tests.conftest import run_cli

KAFKA = ("kafka-retention", "Kafka topics keep events for 7 days", "project",
         "Retention is set with retention.ms on the orders topic.")


@pytest.fixture
def store(isolated_home, project, person) -> Memory:
    person.write(*KAFKA)
    person.write("ci-cache", "CI caches node_modules keyed by the lockfile hash", "project",
                 "Bust the cache by editing .ci/cache-version.")
    return Memory.open(home=isolated_home, project=project, actor="human", search_vectors="off")


@pytest.mark.slow
def test_a_query_or_prompt_that_is_not_text_is_invalid_input_on_search_and_recall(store):
    for bad, kind in ((b"kafka", "bytes"), (123, "int"), (None, "NoneType")):
        with pytest.raises(InvalidInput, match=rf"^query must be text \(got {kind}\)$"):
            store.search(bad)
        with pytest.raises(InvalidInput, match=rf"^prompt must be text \(got {kind}\)$"):
            store.recall(bad)
        with pytest.raises(InvalidInput, match=rf"^query must be text \(got {kind}\)$"):
            ranking.search(store.session, bad)  # the core's own search too, not only its callers
    for blank in ("", "  \n"):
        with pytest.raises(InvalidInput, match="^query is empty$"):
            store.search(blank)
        assert store.recall(blank) == ""  # a blank prompt recalls nothing: no mistake
    # Controls: the same words as text are found and recalled.
    assert [r.name for r in store.search("kafka")] == ["kafka-retention"]
    assert "kafka-retention" in store.recall("how long does kafka keep events?")


def test_a_query_of_characters_that_show_as_nothing_is_empty_on_every_path(store):
    """break46a: a query of zero-width spaces, word joiners or a joiner alone ran a search every path reads as
    of no word and said "No memories match '\\u200b\\u2060'". Controls: the same characters inside a word are
    read as absent and the word is found; a control character is no hidden one and is searched."""
    said = "query is empty (it holds only characters that show as nothing, such as U+200B)"
    with pytest.raises(InvalidInput, match=rf"^{re.escape(said)}$"):
        store.search("\u200b\u2060 \u200d")
    with pytest.raises(InvalidInput, match=r"^query is empty \(.*such as U\+001B\)$"):
        store.search("\x1b[31m\x1b[0m")  # pasted colour codes alone
    assert store.call_tool("memory_search", {"query": "\u200b\u2060 \u200d"}) == f"Error: {said}"
    assert [r.name for r in store.search("kaf\u200bka")] == ["kafka-retention"]  # control: read as kafka
    assert [r.name for r in store.search("\x1b[31mkafka\x1b[0m")] == ["kafka-retention"]  # control
    assert store.call_tool("memory_search", {"query": "\x07"}).startswith("No memories match")  # control
    assert store.recall("\u200b\u2060") == ""  # a prompt of them recalls nothing, no mistake (as a blank one)


def test_k_is_an_integer_in_the_core_and_text_adapters_read_its_digits(store):
    with pytest.raises(InvalidInput, match=r"^k must be a positive integer \(got '1'\)$"):
        store.search("kafka OR cache", "1")
    assert len(store.search("kafka cache", 2)) == 2  # control: the integer


def test_a_bad_argument_is_named_as_each_interface_names_it(isolated_home, project, store):
    """trial31: `memdir search kafka -k 0` said "k must be a positive integer" (its flag is --limit) and an
    ambiguous `memdir forget` said "(the scope argument of the tools)": the CLI names its flags, the library and
    the tools their arguments, from one message (InvalidInput.worded). Controls: the same errors in the library."""
    cli = ("--home", isolated_home, "--project", project)
    done = run_cli("search", "kafka", "-k", "0", *cli)
    assert (done.returncode, done.stderr) == (1, "memdir: --limit must be a positive integer (got 0)\n")
    done = run_cli("search", "kafka", "--offset", "5000", *cli)
    assert done.stderr == "memdir: --offset must be an integer from 0 to 1000 (got 5000)\n"
    with pytest.raises(InvalidInput, match=r"^k must be a positive integer \(got 0\)$"):
        store.search("kafka", 0)
    assert store.call_tool("memory_search", {"query": "kafka", "k": 0}) == "Error: memory_search: 'k' must be ≥ 1"
    store.write("kafka-retention", "Kafka keeps events 7 days here", "project", scope="user")
    done = run_cli("forget", "kafka-retention", *cli)
    assert done.stderr == ("memdir: 'kafka-retention' is in the user (personal, every project) and project (personal) "
                           "layers; say which to delete with --scope user or project\n")
    assert store.call_tool("memory_delete", {"name": "kafka-retention"}) == (
        "Error: 'kafka-retention' is in the user (personal, every project) and project (personal) layers; say which "
        "to delete with scope user or project")


@pytest.mark.slow
def test_an_empty_query_is_one_error_on_the_cli_and_through_mcp(isolated_home, project, store):
    cli = ("--home", isolated_home, "--project", project)
    empty = run_cli("search", "", *cli)
    assert (empty.returncode, empty.stdout, empty.stderr) == (1, "", "memdir: query is empty\n")
    hidden = run_cli("search", "\u200b\u2060", *cli)  # break46a: was "No memories match '\\u200b\\u2060'."
    assert (hidden.returncode, hidden.stdout, hidden.stderr) == (
        1, "", "memdir: query is empty (it holds only characters that show as nothing, such as U+200B)\n")
    found = run_cli("search", "kafka", *cli)  # control
    assert found.returncode == 0 and "kafka-retention" in found.stdout and found.stderr == ""
    # k as the digits of text: the CLI's -k is text by nature and reads it; a tool argument has the
    # schema's JSON type, strictly (tests/integrations/mcp/test_argument_types.py), and is refused
    # saying how to send it; text that is no number: refused.
    by_cli = run_cli("search", "kafka cache", "-k", "1", *cli)
    assert by_cli.returncode == 0 and by_cli.stdout.startswith("1 result(s)")

    async def main():
        async with Client(build_server(MemoryServer(home=isolated_home, project=project))) as client:
            out = []
            for arguments in ({"query": "  "}, {"query": "kafka"}, {"query": "kafka cache", "k": "1"},
                              {"query": "kafka cache", "k": 1}, {"query": "kafka", "k": "one"}):
                r = await client.call_tool("memory_search", arguments)
                out.append((r.is_error, r.content[0].text))
            return out

    blank, kafka, k_text, k_int, k_word = anyio.run(main)
    assert blank == (True, "Error: query is empty")
    assert not kafka[0] and "kafka-retention" in kafka[1]  # control
    assert not k_int[0] and k_int[1].startswith("1 result(s)")  # control
    assert k_text == k_int  # a quoted number is that number (tools.specs.as_json_type)
    assert k_word == (True, "Error: memory_search: 'k' must be an integer, got str")


def _hook(stdin: bytes, project) -> tuple[int, str, str]:
    done = subprocess.run([sys.executable, "-m", "memdir.hooks", "claude-code", "UserPromptSubmit"],
                          input=stdin, capture_output=True, timeout=60)
    return done.returncode, done.stdout.decode(), done.stderr.decode()


@pytest.mark.slow
def test_a_prompt_hook_says_in_one_line_what_was_wrong_with_its_input(isolated_home, project, store):
    from memdir.integrations.claude_code.hooks import MAX_STDIN

    def payload(prompt) -> bytes:
        return json.dumps({"session_id": "s", "cwd": str(project), "prompt": prompt}).encode()

    assert _hook(payload(123), project) == (0, "", "memdir hook UserPromptSubmit: prompt must be text (got int)\n")
    over = payload("kafka retention? " + "x" * MAX_STDIN)
    assert len(over) > MAX_STDIN
    assert _hook(over, project) == (0, "", f"memdir hook UserPromptSubmit: hook input is larger than {MAX_STDIN} "
                                          "bytes (4 MiB), the most a hook reads; nothing done\n")
    # Controls: a prompt of text recalls; JSON just under the limit is read (its prompt, cut to the query's
    # length, recalls too); a blank prompt is quietly nothing.
    code, out, err = _hook(payload("how long does kafka keep events?"), project)
    assert (code, err) == (0, "") and "kafka-retention" in out
    under = payload("how long does kafka keep events? " + "x" * (MAX_STDIN - 200))
    assert len(under) <= MAX_STDIN
    code, out, err = _hook(under, project)
    assert code == 0 and "larger than" not in err and "not JSON" not in err
    assert _hook(payload("  "), project) == (0, "", "")


@pytest.mark.slow
def test_a_context_budget_too_small_for_any_line_says_so(isolated_home, project, store, tmp_path):
    cli = ("--home", isolated_home, "--project", project)
    tiny = run_cli("context", "--max-bytes", "10", *cli)
    assert (tiny.returncode, tiny.stdout) == (0, "")
    assert tiny.stderr == ("memdir: warning: max_bytes 10 is too small for the context block (its frame and one "
                           "index line do not fit; the context_max_bytes setting is at least 1536): none of its 2 "
                           "index lines is shown\n")
    roomy = run_cli("context", "--max-bytes", "1536", *cli)  # control: the setting's least shows the lines
    assert roomy.returncode == 0 and "kafka-retention" in roomy.stdout and roomy.stderr == ""
    empty = run_cli("context", "--max-bytes", "10", "--home", tmp_path / "other", "--project", project)
    assert (empty.returncode, empty.stdout, empty.stderr) == (0, "", "")  # nothing to show: nothing to say
