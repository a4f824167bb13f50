"""The words' evidence is read without a pass over every token, and the cosine is added after it (issue 28,
search through MCP speed): the same occurrences, the same evidence, as reading every token in order."""

from __future__ import annotations

from memdir.search import relevance, weighing
from memdir.search.tokenize import document_text, query_terms

BODY = document_text("Configuration of the staging PostgreSQL cluster: postgres listens on port 5433; the portal "
                     "uses port 443. Configure pgbouncer before the staging postgresql upgrade. Port port port.")


def _read_every_token(text: str, prefixes: relevance.Prefixes) -> list[tuple[int, str]]:
    return [(i, tok) for i, tok in enumerate(prefixes(text.split())) if tok in prefixes.weights]


def _weights(query: str) -> dict[str, float]:
    terms = query_terms(query)
    return weighing.term_weights(terms, {t: 3 for t in terms}, 100)


def test_reading_a_body_finds_every_occurrence_as_a_pass_over_its_tokens_does():
    for query in ("postgres port", "configur staging postgresql", "config configuration port", "portal",
                  "nothing here", "5433 pgbouncer", "port"):
        prefixes = relevance.Prefixes(_weights(query))
        read = relevance.read_body(BODY, prefixes)
        assert read.hits == _read_every_token(BODY, prefixes), query
    prefixes = relevance.Prefixes(_weights("postgres port"))
    hits = relevance.read_body(BODY, prefixes).hits
    # "postgres" (postgr, prefixable) stands for postgresql twice and postgr twice; "port" is whole: not "portal"
    assert [BODY.split()[i] for i, t in hits if t == "postgr"] == ["postgresql", "postgr", "postgr", "postgresql"]
    assert [i for i, t in hits if t == "port"] == [11, 16, 25, 26, 27]
    assert BODY.split()[14] == "portal" and 14 not in [i for i, _ in hits]  # control: the word is there


def test_a_word_two_prefixable_terms_begin_is_the_first_terms_as_before():
    prefixes = relevance.Prefixes({"postg": 1.0, "postgs": 2.0})
    text = "postgs postgsql postg postgql"  # postgsql: postg + sql and postgs + ql: the first term's
    read = relevance.read_body(text, prefixes)
    assert read.hits == _read_every_token(text, prefixes) == [(0, "postgs"), (1, "postg"), (2, "postg"),
                                                               (3, "postg")]
    # a word a term begins counts only when it runs on by an inflection or a name's tail (spelling.begins):
    # configurs is configur's, not config + urs; configuration (a syllable on) is neither's
    prefixes = relevance.Prefixes({"config": 1.0, "configur": 2.0})
    text = "configur configurs config configs configuration"
    read = relevance.read_body(text, prefixes)
    assert read.hits == _read_every_token(text, prefixes) == [(0, "configur"), (1, "configur"), (2, "config"),
                                                               (3, "config")]


def test_odd_spacing_is_read_token_by_token():
    prefixes = relevance.Prefixes({"port": 1.0})
    for text in ("port  port", " port", "port ", "a port\tport", "a port\u2003port\nport"):
        assert relevance.read_body(text, prefixes).hits == _read_every_token(text, prefixes), repr(text)


def test_evidence_from_a_read_body_equals_evidence_from_its_tokens_with_the_cosine_added_after():
    weights = _weights("staging postgres port")
    prefixes = relevance.Prefixes(weights)
    strong = set(weights)
    listed = relevance.evidence(weights, {"stage"}, prefixes(BODY.split()), strong, True, 0.83, 0.8, (0.9, 0.85))
    read = relevance.evidence(weights, {"stage"}, relevance.read_body(BODY, prefixes), strong, True, None)
    assert relevance.with_cosine(read, 0.83, 0.8, (0.9, 0.85)) == listed
    assert listed.cosine == 0.83 and round(listed.gap, 6) == 0.03 and round(listed.lead, 6) == -0.07
    assert read.cosine is None and read.lead == 0.0 and read.coverage == listed.coverage  # control: words alone
    # A query with no term weight keeps its lead where it always sat (query), so its scores do not move.
    empty = relevance.evidence({}, set(), [], set(), False, 0.9, 0.8, (0.9, 0.85))
    assert empty == relevance.with_cosine(relevance.evidence({}, set(), [], set(), False, None), 0.9, 0.8, (0.9, 0.85))
    assert round(empty.query, 6) == 0.05 and empty.lead == 0.0


def test_a_version_joiner_leaves_a_body_single_spaced_and_its_positions_kept():
    from memdir.search import rowwords
    from memdir.search.reading import single_spaced

    # vers19 indexes v2.3.1 as 2 3 2\ue0003 2\ue0003\ue0001: U+E000 is not printable, and such a body was read token
    # by token on every search (295 of the 1,000 notes of compare_basic_memory's corpus), its positions never kept
    body = document_text("The staging port moved to 5433 in v2.3.1 of the sdk; the port map came with it.")
    assert "\ue000" in body and not body.isprintable()
    assert single_spaced(body)
    for text in ("port  port", " port", "port ", "a port\tport", "a port\u2003port\nport", "a\ue000b \u2003c"):
        assert not single_spaced(text), repr(text)  # control: whitespace other than one space is not
    prefixes = relevance.Prefixes(_weights("staging port 2.3"))
    fresh = relevance.read_body(body, prefixes)
    assert fresh.hits == _read_every_token(body, prefixes)
    assert [t for _, t in fresh.hits] == ["stage", "port", "2\ue0003", "port"]
    row = rowwords.Row("name", None, "description", body, "raw", "called")
    for _ in range(3):  # as it is, then by its words' positions
        assert row.read(prefixes).hits == fresh.hits
    assert row._places is not None and row.body() == body
