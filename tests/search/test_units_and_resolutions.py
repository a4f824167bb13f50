"""A unit of bits is no unit of bytes, and a resolution is no count of thousands (recall47), each with its control.

* "Mb" after a number (a capital prefix, a small b: :data:`memdir.text.words.BIT_UNITS`) is a megabit: search read
  it as "mb", a megabyte, so "50 Mb" found the note on a 50-megabyte upload limit. "MB", "mb" and "MiB" stay bytes.
* "4K display" (a capital K before a noun of pictures: :func:`memdir.search.wordterms.is_resolution`) is a
  resolution: words46's thousands rule read it as 4000 too. "10k users", "2K requests" and "4k monitors" stay
  thousands.
"""

from __future__ import annotations

import pytest

from memdir import Memory
from memdir.search.tokenize import tokens

from .ranked import top
from .surfaces import cli_search, lexical_env, mcp_search


@pytest.fixture
def store(isolated_home, project):
    mem = Memory.open(home=isolated_home, project=project, actor="human", search_vectors="off")
    mem.write("upload", "Upload limit", "project", "Max upload size is 50 megabytes.")
    mem.write("uplink", "Office uplink", "project", "The office uplink is 50 Mb.")
    mem.write("screens", "Design screens", "project", "Designers review mockups on a 4K display.")
    mem.write("quota", "Event quota", "project", "Each tenant may send 4000 events an hour.")
    return mem


def names(mem, query: str) -> list[str]:
    return [name for name, _ in top(mem, query)]


def test_a_unit_of_bits_reads_as_its_word():
    assert tokens("50 Mb") == ["50", "megabit"] and tokens("50Mb") == ["50mb", "50", "megabit"]
    assert tokens("Mb") == ["megabit"] and tokens("2 Gb link") == ["2", "gigabit", "link"]
    assert tokens("50 MB") == tokens("50 mb") == tokens("50 megabytes") == ["50", "megabyt"]  # controls: bytes
    assert tokens("50MB") == ["50mb", "50", "megabyt"] and tokens("100 Mbps") == ["100", "mbps"]


def test_a_resolution_is_no_thousands():
    assert tokens("4K display") == ["4k", "4", "display"] and tokens("8K video") == ["8k", "8", "video"]
    assert tokens("2K monitors") == ["2k", "2", "monitor"]
    # controls: a count of thousands, a small k, a K before another noun or alone
    assert tokens("10k users") == ["10k", "10", "10000", "user"]
    assert tokens("2K requests") == ["2k", "2", "2000", "request"]
    assert tokens("4k monitors") == ["4k", "4", "4000", "monitor"]
    assert tokens("we serve 4K") == ["we", "serv", "4k", "4", "4000"]
    assert tokens("2K images") == ["2k", "2", "2000", "imag"]


def test_search_finds_the_unit_and_the_count_written(store):
    assert names(store, "Mb") == ["uplink"] and names(store, "megabits") == ["uplink"]  # "Mb" found the upload note
    assert names(store, "MB") == ["upload"] == names(store, "mb")  # controls: bytes
    assert names(store, "50 Mb")[:1] == ["uplink"] and names(store, "50 MB")[:1] == ["upload"]
    assert names(store, "4000")[:1] == ["quota"] and "screens" not in names(store, "4000")
    assert names(store, "4K display")[:1] == ["screens"] and "quota" not in names(store, "4K display")


@pytest.mark.slow
def test_the_cli_and_mcp_read_them_alike(store, isolated_home, project):
    env = lexical_env(isolated_home, project)
    assert [n for n, _ in cli_search(env, "Mb")] == ["uplink"]
    assert [n for n, _ in cli_search(env, "4000")] == ["quota"]
    bits, count = mcp_search(isolated_home, project, "megabytes", "4000 events")
    assert "upload" in bits and "uplink" not in bits
    assert "quota" in count and "screens" not in count
