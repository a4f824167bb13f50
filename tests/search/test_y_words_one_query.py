"""A prompt's -y words are read with one query (issue 28 §7, the hot path). A query word ending in -y
(``expiry``) stands for the memories writing a word of its family ("expires", "expiration"), not "factor" for
``factory`` (memdir.search.spelling.continues); which memories write one was read by one FTS query per such word.
Measured at 1,000 memories, a prompt of 6 -y words: 6 statements, 11.6 ms → 1 statement, 5.2 ms (median of 30).
Now one statement reads the rows of every start and the rows are read per start in Python, with the same result."""

from __future__ import annotations

import io
import json

import pytest

from memdir.integrations.claude_code import hooks
from memdir.search import index, spelling, terms
from memdir.search.tokenize import query_terms, word_forms

from ..conftest import indexed_store, traced

PROMPT = "Check the expiry of tokens, the registry mirror, the delivery queue, the retention policy and the inventory"
# name -> (description, body)
NOTES = {
    "token-ttl": ("Tokens expire after an hour", "Expired tokens are refreshed by the gateway."),
    "cert-dates": ("Certificate expiration dates", "Renew two weeks before expiration."),
    "scaling-factor": ("Autoscaling factor is 1.5", "The HPA scales by a factor of 1.5."),      # not expiry, not factory
    "registry-mirror": ("Docker registry mirror", "Pull through registry.internal; registries are cached."),
    "register-form": ("The register form", "Users register with their email."),            # "register": no registry
    "courier": ("Deliveries go through the courier API", "Packages delivered before noon."),
    "deliverable": ("Sprint deliverables", "Each deliverable has an owner."),                 # a deliverable: another word
    "police-note": ("Security policies", "The policy is reviewed yearly."),
    "stock": ("Inventory counts", "The inventory service owns stock levels."),
    "inventor-credit": ("Inventor credit", "Name the inventor on the patent filing."),       # not inventory
    "snake-case": ("expiry_date column", "Stored as expiry_date in UTC."),                  # _ ends a word
    "digits": ("Version 2expiry", "A build tag 2expiry."),                                  # 2expiry: no word of it
    "caps": ("EXPIRES HEADER", "The EXPIRES header is set by nginx."),
}


@pytest.fixture
def store(isolated_home, project):
    return indexed_store(isolated_home, project, NOTES)


def _per_word(conn, starts):  # what y_writers did before: one query per -y word
    out = {}
    for term, begun in starts.items():
        if spelling.from_y(term, begun):
            rows = conn.execute("SELECT d.id, d.name || ' ' || coalesce(d.title, '') || ' ' || d.description || ' ' || "
                                "coalesce(d.body, '') FROM fts JOIN docs d ON d.id = fts.rowid WHERE fts MATCH ?",
                                ('"' + begun + '"*',))
            out[term] = frozenset(rowid for rowid, text in rows if spelling.continues(text, begun))
    return out


def test_the_y_words_of_a_prompt_are_read_by_one_statement_with_the_same_rows(store, isolated_home):
    starts = spelling.starts(query_terms(PROMPT), word_forms(PROMPT))
    ys = {t: b for t, b in starts.items() if spelling.from_y(t, b)}
    assert ys == {"expiri": "expir", "registri": "registr", "deliveri": "deliver",
                  "inventori": "inventor"}  # four -y words: policy's start keeps its i (polici), no police
    conn = index.connect(isolated_home)
    names = dict(conn.execute("SELECT id, name FROM docs").fetchall())
    conn.execute("BEGIN")
    try:
        found, seen = traced(conn, lambda: terms.y_writers(conn, starts))
        before, old = traced(conn, lambda: _per_word(conn, starts))
    finally:
        conn.execute("COMMIT")
    seen = [s for s in seen if "key = 'generation'" not in s]  # the generation their rows are kept by (memo)
    assert (len(seen), len(old)) == (1, 4)  # one statement for the four words (was one each)
    assert found == before  # the same rows
    assert {t: sorted(names[i] for i in rows) for t, rows in found.items()} == {
        "expiri": ["caps", "cert-dates", "snake-case", "token-ttl"],  # not scaling-factor, nor digits' 2expiry
        "registri": ["registry-mirror"],                # not register-form
        "deliveri": ["courier"],                        # not deliverable
        "inventori": ["stock"],                         # not inventor-credit
    }


def test_the_prompt_hook_reads_its_prefixes_in_two_statements_whatever_the_words(store, isolated_home, project):
    """The whole hook, in this process: the -y words' rows in one statement, every other prefixed word's indexed
    terms in one (a range each); the recall block still names the memories of the y-words."""
    conn = index.connect(isolated_home)
    prompt = "Do expired tokens get refreshed by the gateway? expiry registry delivery policy inventory"
    payload = json.dumps({"cwd": str(project), "session_id": "s1", "prompt": prompt})
    out, seen = traced(conn, lambda: hooks.run("UserPromptSubmit", stdin=io.StringIO(payload), home=isolated_home))
    y_reads = [s for s in seen if "coalesce(d.body, '') FROM fts JOIN docs" in s]
    ranges = [s for s in seen if s.startswith("SELECT") and "FROM fts_terms WHERE term >=" in s
              and "LIMIT" not in s]  # terms.compounds' own vocabulary reads (at most COMPOUND_LOOKUPS) apart
    assert len(y_reads) == 1 and y_reads[0].count('*') == 4  # the four starts in one MATCH
    assert len(ranges) == 1 and ranges[0].count("UNION ALL") >= 1  # token and gateway, one statement
    context = json.loads(out)["hookSpecificOutput"]["additionalContext"]
    assert "token-ttl" in context  # recalled: "expiry" reads "expire"
    assert "scaling-factor" not in context and "inventor-credit" not in context  # control


def test_continued_reads_each_start_as_continues_does():
    text = "Sessions EXPIRE; a factor of 2; expiry_date; 2expiry; the director; inventories"
    begins = ("expir", "factor", "director", "inventor")
    assert spelling.continued(text, begins) == {"expir", "inventor"}
    assert {b for b in begins if spelling.continues(text, b)} == {"expir", "inventor"}
    assert spelling.continued("nothing here", begins) == frozenset()
