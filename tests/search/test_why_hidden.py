"""``why.terms`` of a query or prompt holding what shows as nothing, or longer than what recall reads (break16).

A word with a zero-width space, soft hyphen or word joiner inside (``oper<U+200B>ations``) is one word to the
tokenizer (:func:`memdir.text.printable.without_hidden`), but :func:`memdir.search.why.written` split it there
and showed the stem ``oper`` as the word the query wrote. Recall read the written words of the whole prompt
while ranking reads at most :data:`memdir.search.tokenize.MAX_QUERY_CHARS` of it (:func:`memdir.search.pasted.read`):
a 1 MB prompt took 6.3-6.5 s against 2.0-2.1 s before why16 (one run each, twice); now the words are those of
the text ranking read (2.4-2.5 s)."""

from __future__ import annotations

from memdir import Memory
from memdir.search import pasted
from memdir.search.why import written


def test_a_hidden_character_is_no_part_of_a_written_word():
    assert written("oper\u200bations sta\u00adging re\u2060lease") == {"oper": "operations", "stage": "staging",
                                                                      "releas": "release"}
    assert written("operations staging") == {"oper": "operations", "stage": "staging"}  # control: as typed


def test_search_shows_the_word_a_hidden_character_sits_in(isolated_home, project):
    mem = Memory.open(home=isolated_home, project=project, search_vectors="off")
    mem.write("ops", "Operations team", "project", "The operations team owns staging.")
    found = mem.search("oper\u200bations")
    assert [(r.name, r.why["terms"]) for r in found] == [("ops", ["operations"])]
    found = mem.search("operations")  # control
    assert [(r.name, r.why["terms"]) for r in found] == [("ops", ["operations"])]


def test_recall_reads_the_written_words_of_the_text_ranking_read(isolated_home, project):
    mem = Memory.open(home=isolated_home, project=project, search_vectors="off")
    mem.write("db-port", "Dev PostgreSQL port", "project", "Dev PostgreSQL listens on 5433 for the billing services.")
    # one long line: its ends are read first, then its middle, cut; the middle writes "ports" where it is cut
    filler = "and the " * 1000  # function words: no term of their own
    prompt = f"where does the dev postgresql listen? {filler} ports {filler} the dev postgresql port"
    read = pasted.read(prompt)
    assert "ports" not in read.split() and "port" in read.split()  # the setup: "ports" is not read
    recalled = mem.recall_result(prompt).memories
    assert [(m.name, m.why["terms"]) for m in recalled] == [("db-port", ["dev", "postgresql", "listen", "port"])]
    recalled = mem.recall_result("which ports does the dev postgresql listen on?").memories  # control: "ports"
    assert [(m.name, m.why["terms"]) for m in recalled] == [("db-port", ["ports", "dev", "postgresql", "listen"])]
