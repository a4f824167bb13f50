"""A number written in the digits of another script is the number (break13).

Before: the tombstones read ``٥٤٣٣`` as ``5433`` (their own digit rule) but search and names did not:
``memdir search 5433`` found nothing of "منفذ قاعدة البيانات ٥٤٣٣" (Arabic-Indic digits) or "पोर्ट ५४३३"
(Devanagari), and ``port-٥٤٣٣`` was a memory of its own beside ``port-5433``. :func:`memdir.text.fold.fold`
reads the digits of every script as ASCII digits now — the one rule names, search and values share. Through
the API, the CLI, the prompt hook and the MCP SDK's client, beside a control. Vectors off.
"""

from __future__ import annotations

import pytest

from memdir import Memory
from memdir.search.tokenize import tokens
from memdir.text.fold import fold
from memdir.text.names import legacy_names, normalize_name

from .surfaces import block_names, cli_search, hook_block, lexical_env, mcp_search


@pytest.fixture
def store(isolated_home, project):
    mem = Memory.open(home=isolated_home, project=project, actor="human", search_vectors="off")
    mem.write("ar-port", "Arabic port note", "project", "منفذ قاعدة البيانات ٥٤٣٣")
    mem.write("hi-port", "Hindi port note", "project", "डेटाबेस पोर्ट ५४३४ है")
    mem.write("fa-port", "Persian port note", "project", "پورت پایگاه داده ۶۳۷۹ است")
    mem.write("en-port", "English port note", "project", "The cache listens on 8080")
    return mem


def test_the_digits_of_every_script_are_ascii_digits():
    assert fold("٥٤٣٣") == fold("۵۴۳۳") == fold("५४३३") == fold("５４３３") == "5433"
    assert tokens("منفذ ٥٤٣٣") == tokens("منفذ 5433")
    assert fold("五") == "五" and fold("Ⅻ") == "xii"  # control: numerals that are words stay words
    assert normalize_name("port-٥٤٣٣").name == normalize_name("port-5433").name == "port-5433"
    assert "m-53509bbc9a" in legacy_names("port-٥٤٣٣")  # the hash an older memdir gave it is still found


def test_search_finds_the_number_however_its_digits_are_drawn(store):
    def found(query):
        return [h.name for h in store.search(query)]

    assert found("5433") == ["ar-port"]  # was: nothing
    assert found("5434") == ["hi-port"] and found("६३७९") == found("6379") == ["fa-port"]  # were: nothing
    assert found("٨٠٨٠") == ["en-port"]  # was: nothing
    assert found("5435") == []  # control: another number
    assert [m.name for m in store.recall_result("Which port is 5433 for?").memories] == ["ar-port"]


def test_one_memory_for_a_name_written_in_either_digits(isolated_home, project):
    mem = Memory.open(home=isolated_home, project=project, actor="human", search_vectors="off")
    mem.write("port-٥٤٣٣", "port note", "project", "first")
    mem.write("port-5433", "port note", "project", "second")  # an update, not a second memory
    mem.write("port-5434", "other note", "project", "third")  # control
    assert sorted(m.name for m in mem.list().memories) == ["port-5433", "port-5434"]
    assert mem.read("port-٥٤٣٣").record.body == "second"


@pytest.mark.slow
def test_the_cli_the_prompt_hook_and_mcp_read_other_digits(store, isolated_home, project):
    env = lexical_env(isolated_home, project)
    assert cli_search(env, "5433") == [("ar-port", 1.0)]
    assert cli_search(env, "5435") == []  # control
    assert block_names(hook_block(project, env, "what is port 5434 used for?", "d")) == ["hi-port"]
    ar, control = mcp_search(isolated_home, project, "5433", "5435")
    assert "ar-port" in ar and "en-port" not in ar
    assert "ar-port" not in control
