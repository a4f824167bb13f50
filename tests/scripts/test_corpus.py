"""benchmarks/_corpus.py: the benchmarks' one corpus is the same for a seed,
its bodies stay within 100–400 words, its vocabulary recurs across notes, and
each planted fact sits in the note its question names while the question's
words also stand in other notes."""

from __future__ import annotations

import re
import sys
from collections import Counter

from tests.conftest import REPO

sys.path.insert(0, str(REPO / "benchmarks"))

import _corpus  # noqa: E402
from _corpus import ATTRIBUTES, ENVS, PEOPLE, SERVICES, STORES, corpus, keywords, vocabulary_queries  # noqa: E402


def words_of(text: str) -> set[str]:
    return set(re.findall(r"[A-Za-z0-9]+", text))


def test_same_seed_same_corpus_and_another_seed_another():
    notes, questions = corpus(25, seed=3, facts=5)
    assert (notes, questions) == corpus(25, seed=3, facts=5)
    other, _ = corpus(25, seed=4, facts=5)
    assert [n[0] for n in notes] != [n[0] for n in other]
    assert len({n[0] for n in notes}) == 25 and notes[7][0].startswith("note-00007-")
    assert corpus(25, seed=3, facts=0)[1] == [] and len(corpus(3, seed=3)[1]) == 3  # facts at most the notes


def test_bodies_hold_100_to_400_words_of_one_domain_that_recurs_across_notes():
    notes, questions = corpus(120, seed=5, facts=12)
    lengths = [len(body.split()) for _, _, body in notes]
    assert min(lengths) >= 100 and max(lengths) <= 400
    assert max(lengths) - min(lengths) > 200  # spread over the range, not one size
    seen = Counter(word for _, description, body in notes for word in words_of(description + " " + body))
    for name in SERVICES + STORES + ENVS:
        assert seen[name] >= 30, name  # each service, store and environment in a quarter of the notes or more
    assert sum(seen[person] >= 5 for person in PEOPLE) >= 18  # people recur too
    assert seen["6391"] <= 2 and "Lorem" not in seen  # control: a given number is rare, foreign words absent


def test_each_planted_fact_is_in_its_note_and_its_words_are_in_others():
    notes, questions = corpus(120, seed=5, facts=12)
    bodies = {name: body for name, _, body in notes}
    vocab = {name: words_of(body) for name, body in bodies.items()}
    assert len(questions) == 12 and len({name for _, name in questions}) == 12
    for question, name in questions:
        words = question.rstrip("?").split()
        triple = {"env": next(w for w in words if w in ENVS), "store": next(w for w in words if w in STORES),
                  "service": next(w for w in words if w in SERVICES)}
        _attr, fact, _question, _value = next(a for a in ATTRIBUTES if a[2].format(**triple) == question)
        planted = re.escape(fact.format(value="VALUE", **triple)).replace("VALUE", r"\S+")
        holders = [n for n, body in bodies.items() if re.search(planted, body)]
        assert holders == [name], question  # the fact is in its note, and only there
        others = [n for n in vocab if n != name and set(triple.values()) <= vocab[n]]
        assert others, question  # control: the question's words are not unique to the note that answers


def test_trim_never_drops_the_planted_sentence():
    sentence = " ".join(["word"] * 50) + "."
    sentences = [sentence] * 10  # 500 words
    _corpus._trim(sentences, keep=9)
    assert len(sentences) == 8 and sum(len(s.split()) for s in sentences) == 400
    kept = [sentence] * 9 + ["The staging Redis instance for billing listens on port 6391."]
    _corpus._trim(kept, keep=9)
    assert kept[-1].endswith("port 6391.") and sum(len(s.split()) for s in kept) <= 400


def test_keywords_and_vocabulary_queries():
    assert keywords("What is the port of the staging Redis instance for billing?") == \
        "port staging Redis instance billing"
    assert keywords("How many days does the qa Kafka for ledger keep data?") == "days qa Kafka ledger keep data"
    queries = vocabulary_queries(20, seed=2)
    assert queries == vocabulary_queries(20, seed=2) and len(queries) == 20
    assert all(1 <= len(q.split()) <= 4 for q in queries)  # a topic is two words
