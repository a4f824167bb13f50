"""A prompt in a language the store's words cannot hold is read by meaning alone (:mod:`memdir.search.foreign`; issue
28: "Speichere den Zeitstempel der Bestellung in der Datenbank", a German task of the fit data, shares no word with
the English note that timestamps are stored in UTC, though that note is the nearest of all 45 memories in meaning and
stands 0.053 above the median; recall gave nothing). Chosen by pooled 2-fold cross-validation on the fit data
(evals/recall/meaning.py ``foreign``)."""

from __future__ import annotations

import math

from memdir.search import foreign, relevance
from memdir.search.relevance import Evidence

from .evalstore import cli_recaller, needs_vectors


def _ev(**kw) -> Evidence:
    base = dict(coverage=0.0, head=0.0, mass=0.0, cosine=0.84, matched=(), gap=0.053, lead=0.009, missing=2.5,
                query=2.5, foreign=True)
    base.update(kw)
    return Evidence(**base)


def test_a_prompt_in_another_language_is_told_by_its_function_words():
    assert foreign.in_other_language("Speichere den Zeitstempel der Bestellung in der Datenbank")  # der ×2, in
    assert foreign.in_other_language("¿Dónde está el puerto de la base de datos?")
    assert not foreign.in_other_language("store the order's timestamp in the database")  # control: English
    assert not foreign.in_other_language("Danke!")  # no function word of any language
    assert not foreign.in_other_language("what is the Dockerfile der Build uses?")  # more English than German


def test_the_share_of_content_terms_no_memory_holds():
    assert foreign.unheld_share(["zeitstempel", "bestellung", "datenbank"], {"datenbank": 0}) == 1.0
    assert foreign.unheld_share(["zeitstempel", "postgr"], {"postgr": 3}) == 0.5
    assert foreign.unheld_share([], {}) == 1.0
    german, terms = "Speichere den Zeitstempel der Bestellung in der Datenbank", ["speicher", "zeitstempel", "datenbank"]
    assert foreign.reads_foreign(german, terms, {"speicher": 0})
    # control: the same German prompt to a store holding its words is read by its words
    assert not foreign.reads_foreign(german, terms, {"zeitstempel": 2, "datenbank": 5})
    assert not foreign.in_other_language("Speichere den Zeitstempel in der Datenbank")  # der 1, in 1: not more


def test_the_nearest_memory_of_a_foreign_prompt_standing_out_is_returned_at_any_score():
    assert (foreign.LEAD, foreign.GAP, foreign.UNHELD) == (0.005, 0.05, 0.75)
    assert relevance.bar(_ev()) == 0.0
    assert relevance.returned(_ev(), 0.056)  # the score the word models give it
    assert relevance.bar(_ev(foreign=False)) == relevance.THRESHOLD  # an English prompt: its words decide
    assert relevance.bar(_ev(lead=0.004)) == relevance.THRESHOLD  # not clearly the nearest
    assert relevance.bar(_ev(gap=0.049)) == relevance.THRESHOLD  # not standing out of the crowd
    assert relevance.bar(_ev(shared=("datenbank",))) != 0.0  # a shared word: the word models decide
    assert relevance.bar(_ev(kin=(0.03, 0.02))) != 0.0  # another script: its kin decide (scripts)
    assert relevance.bar(_ev(cosine=None)) == relevance.THRESHOLD  # no vector
    assert relevance.bar(_ev(general=True)) == math.inf  # a general question: the general rule first
    assert relevance.bar(_ev(), min_score=0.3) == 0.3  # a caller asking for its own bar gets it


@needs_vectors
def test_a_german_task_recalls_the_english_note_it_needs_and_german_chat_recalls_nothing(tmp_path):
    recalled = cli_recaller(tmp_path)  # the evaluation's 45 memories, the real embedder, in a fresh process
    # the fit set's example: the note on UTC timestamps alone (not de-invoices, the one German note, nor any other)
    assert recalled("Speichere den Zeitstempel der Bestellung in der Datenbank") == ["timezone-utc"]
    assert recalled("store the order's timestamp in the database") == ["timezone-utc"]  # control: as in English
    assert recalled("Danke, das hat funktioniert.") == []  # German chat: no memory stands out
    assert recalled("Schreib mir ein Gedicht über den Herbst") == []  # unrelated: nothing
