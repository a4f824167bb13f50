"""A snippet's passage (:func:`memdir.search.passage.located`) is found from the text's positions by word, not by
reading every token through the query's reader (issue 28, the calling thread's CPU): the same occurrences, so the
same passage, as reading every token in turn; the positions are kept per text, so a changed text is read anew."""

from __future__ import annotations

from memdir.search import passage, relevance

TEXT = ("Intro words about nothing in particular. The staging PostgreSQL cluster listens on port 5433, "
        "and pgbouncer pools its connections. Later the portal team moved the ports of postgres replicas.")


def _every_token(text: str, terms: list[str], width: int = relevance.NEAR_TOKENS):
    weights, read = passage._reading(tuple(dict.fromkeys(terms)))
    toks, spans, _ = passage._words(text)
    first, last, found = relevance.best_window(read(list(toks)), weights, width)
    return (spans[2 * first], spans[2 * last + 1]) if found else None


def test_the_passage_from_positions_is_the_passage_from_every_token():
    for terms in (["postgr", "port"], ["pgbouncer", "pool"], ["staging", "cluster"], ["nothing"], ["absent"]):
        for width in (4, relevance.NEAR_TOKENS):
            found = passage.located(TEXT, terms, width)
            every = _every_token(TEXT, terms, width)
            assert (found is None) == (every is None) and (found is None or found[1] == every[1]), terms
    # "postgr" (a prefixed term) stands for PostgreSQL and postgres: the passage ends at the cluster's port
    start, end = passage.located(TEXT, ["postgr", "port"])
    assert TEXT[start:end] == "The staging PostgreSQL cluster listens on port"
    assert passage.located(TEXT, ["absent"]) is None  # control: a term the text lacks finds no passage


def test_a_changed_text_is_read_anew():
    passage_of = "The staging PostgreSQL cluster listens on port 5433, and pgbouncer"
    assert TEXT[slice(*passage.located(TEXT, ["pgbouncer"]))] == passage_of
    changed = TEXT.replace("and pgbouncer pools", "and nothing pools")
    assert passage.located(changed, ["pgbouncer"]) is None  # the positions of the text as it is now
    assert TEXT[slice(*passage.located(TEXT, ["pgbouncer"]))] == passage_of  # control: the first text still
