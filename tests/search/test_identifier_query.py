"""A query written as an identifier of letters and digits (``tok050``): the memory holding it comes first, and
the memories sharing only its letter part are listed below the threshold, never by a prefix of a word.

The tokenizer keeps ``tok050`` whole and also as its parts ``tok`` and ``050`` (DESIGN §6: ``python3`` finds
``python``), so a memory writing ``tok049`` shares the word ``tok`` with the query; an explicit search lists
every memory sharing a content word, by the relevance it prints. A part of three letters is no prefix: it does
not reach ``Tokyo``. Real SQLite and memory files, vectors off."""

from __future__ import annotations

import pytest

from memdir import Memory
from memdir.search import relevance


@pytest.mark.slow
def test_an_identifier_query_finds_its_memory_first_and_parts_only_below(isolated_home, project):
    mem = Memory.open(home=isolated_home, project=project, search_vectors="off")
    for i in ("049", "050", "051"):
        mem.write(f"svc-{i}", f"Service svc{i} listens on port 5{i}", "project", f"Owner team; token tok{i}; tag x.")
    mem.write("city", "Office city", "project", "The office is in Tokyo, next to the coffee shop.")
    found = mem.search("tok050", k=10)
    scores = {r.name: r.score for r in found}
    assert found[0].name == "svc-050" and found[0].score >= relevance.THRESHOLD
    assert set(scores) == {"svc-049", "svc-050", "svc-051"}  # the identifier, then those sharing its part "tok"
    assert all(scores[n] < relevance.THRESHOLD for n in ("svc-049", "svc-051"))
    assert "city" not in scores  # "tok" is no prefix query: "Tokyo" is not its word
    # control: the part alone is a word those memories hold, strongly; "tokyo" finds the city
    assert {r.name for r in mem.search("tok") if r.score >= relevance.THRESHOLD} == {"svc-049", "svc-050", "svc-051"}
    assert [r.name for r in mem.search("tokyo")] == ["city"]
