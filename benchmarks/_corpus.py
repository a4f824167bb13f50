"""The benchmarks' one corpus: technical notes of one company's systems, with planted facts.

A helper of the benchmarks (``_``-prefixed: never run as one). :func:`corpus` makes
``count`` notes of 100–400 body words (seeded: the same seed and count give the same
notes, byte for byte) about a dozen services, ten stores, six environments and twenty
people, repeated across notes in sentences of incidents, reviews, migrations and
settings — including the same kinds of settings for *other* service/store/environment
triples, so a question's words are everywhere and only the right sentence answers it.
``facts`` notes each hold one planted sentence ("The staging Redis instance for
billing listens on port 6391.") at a random place in the body, asked as a plain
question ("What is the port of the staging Redis instance for billing?").

Used by ``planted_facts.py`` (ranking), ``compare_basic_memory.py`` (side by side
with basic-memory), ``bench_core.py`` and ``bench_hooks.py`` (through ``_fresh.py``).
"""

from __future__ import annotations

import json
import random
from pathlib import Path

SERVICES = ["billing", "checkout", "search", "auth", "inventory", "notifications", "ledger", "shipping", "catalog",
            "analytics", "payments", "identity"]
STORES = ["Redis", "PostgreSQL", "Kafka", "Elasticsearch", "S3", "MySQL", "RabbitMQ", "Memcached", "ClickHouse",
          "MongoDB"]
ENVS = ["staging", "production", "dev", "qa", "sandbox", "canary"]
PEOPLE = ["Alice", "Bob", "Chen", "Dana", "Emil", "Farah", "Grace", "Hiro", "Ines", "Jonas", "Kemal", "Lena", "Marco",
          "Nadia", "Oskar", "Priya", "Quentin", "Rosa", "Sven", "Tomas"]
TOPICS = ["latency spike", "failover drill", "schema migration", "capacity review", "cost review", "upgrade plan",
          "incident review", "backup restore test", "alert tuning", "access audit", "load test", "config cleanup"]
MIN_WORDS, MAX_WORDS = 100, 400

# (attribute, fact sentence, question, value maker): the fact and the question share the triple's words.
ATTRIBUTES = [
    ("port", "The {env} {store} instance for {service} listens on port {value}.",
     "What is the port of the {env} {store} instance for {service}?", lambda r: str(r.randint(1025, 65000))),
    ("owner", "The {env} {store} instance for {service} is owned by {value}.",
     "Who owns the {env} {store} instance for {service}?", lambda r: r.choice(PEOPLE)),
    ("timeout", "Connections from {service} to the {env} {store} time out after {value} milliseconds.",
     "What is the connection timeout from {service} to the {env} {store}?", lambda r: str(r.randint(100, 9000))),
    ("retention", "The {env} {store} for {service} keeps data for {value} days.",
     "How many days does the {env} {store} for {service} keep data?", lambda r: str(r.randint(2, 400))),
    ("version", "The {env} {store} used by {service} runs version {value}.",
     "Which version does the {env} {store} used by {service} run?",
     lambda r: f"{r.randint(2, 9)}.{r.randint(0, 20)}.{r.randint(0, 9)}"),
    ("host", "The {env} {store} for {service} is reachable at {value}.",
     "What is the hostname of the {env} {store} for {service}?",
     lambda r: f"{r.choice(['db', 'node', 'mq', 'cache'])}-{r.randint(10, 99)}.{r.choice(['eu', 'us', 'ap'])}.internal"),
]

FILLER = [
    "{person} looked at the {topic} for {service} on the {env} {store} and wrote down what changed.",
    "During the {topic}, {person} saw the {service} workers reconnect to {store} several times.",
    "The {env} environment of {service} shares its {store} cluster with {service2}, which makes the {topic} harder.",
    "{person} and {person2} agreed to repeat the {topic} next quarter for every {store} instance in {env}.",
    "Dashboards for {service} now show {store} queue depth, error rate and p99 latency side by side.",
    "The runbook for {service} explains how to drain traffic from the {env} {store} before maintenance.",
    "Alerts for {service2} fired twice during the {topic}; both were noise from the {env} {store} metrics exporter.",
    "{person} suggested moving the {service} cache from {store} to {store2} after the {topic}.",
    "Nobody changed the {env} {store} settings of {service} during this review; the numbers stayed the same.",
    "We still need a decision from {person} on whether {service} may read from the {env} {store} replica.",
    "The {topic} took longer than planned because the {env} {store2} for {service2} was under load.",
    "Access to the {env} {store} of {service} goes through the bastion, and {person} keeps the list of keys.",
    "Most of the time went into the {topic}; the {service} team will write a short summary for {person2}.",
    "Settings such as port, owner, timeout, retention, version and host of each {store} are tracked in the wiki.",
]

# Words a keyword query leaves out of a question (see :func:`keywords`).
QUESTION_WORDS = frozenset("what which who how many is the of for to from does do by used".split())


def _fill(rng: random.Random, template: str) -> str:
    return template.format(person=rng.choice(PEOPLE), person2=rng.choice(PEOPLE), topic=rng.choice(TOPICS),
                           service=rng.choice(SERVICES), service2=rng.choice(SERVICES), env=rng.choice(ENVS),
                           store=rng.choice(STORES), store2=rng.choice(STORES))


def _trim(sentences: list[str], keep: int | None) -> None:
    """Drop sentences from the end (never the one at index ``keep``) until the
    body has at most :data:`MAX_WORDS` words; the last sentence added may pass it."""
    words = sum(len(s.split()) for s in sentences)
    at = len(sentences) - 1
    while words > MAX_WORDS and at >= 0:
        if at != keep:
            words -= len(sentences.pop(at).split())
            if keep is not None and keep > at:
                keep -= 1
        at -= 1


def corpus(count: int, seed: int = 7, facts: int = 50) -> tuple[list[tuple[str, str, str]], list[tuple[str, str]]]:
    """``(notes, questions)``: ``count`` notes as ``(name, description, body)``,
    bodies of :data:`MIN_WORDS`–:data:`MAX_WORDS` words, and ``min(facts, count)``
    ``(question, name of the note that answers it)``. Distractor sentences state
    the same attributes for triples no question asks about. Names are
    ``note-<5 digits>-<service>-<topic>``, unique."""
    rng = random.Random(seed)
    facts = min(facts, count)
    triples = [(s, st, e) for s in SERVICES for st in STORES for e in ENVS]
    rng.shuffle(triples)
    asked = {t: ATTRIBUTES[i % len(ATTRIBUTES)] for i, t in enumerate(triples[:facts])}
    others = triples[facts:]
    planted = set(rng.sample(range(count), facts))
    questions: list[tuple[str, str]] = []
    notes = []
    fact_items = iter(asked.items())
    for i in range(count):
        service, env = rng.choice(SERVICES), rng.choice(ENVS)
        topic = rng.choice(TOPICS)
        name = f"note-{i:05d}-{service}-{topic.replace(' ', '-')}"
        description = f"{service.capitalize()} {topic} notes ({env}), {rng.choice(PEOPLE)}"
        target = rng.randint(MIN_WORDS, MAX_WORDS)
        sentences: list[str] = []
        words = 0
        while words < target:
            if rng.random() < 0.15:  # a setting of a triple nobody asks about: the question's words, another answer
                s, st, e = rng.choice(others)
                _attr, fact, _q, value = rng.choice(ATTRIBUTES)
                sentence = fact.format(env=e, store=st, service=s, value=value(rng))
            else:
                sentence = _fill(rng, rng.choice(FILLER))
            sentences.append(sentence)
            words += len(sentence.split())
        kept = None
        if i in planted:
            (s, st, e), (_attr, fact, question, value) = next(fact_items)
            kept = rng.randint(1, len(sentences))
            sentences.insert(kept, fact.format(env=e, store=st, service=s, value=value(rng)))
            questions.append((question.format(env=e, store=st, service=s), name))
        _trim(sentences, kept)
        body = "\n\n".join(" ".join(sentences[j:j + 4]) for j in range(0, len(sentences), 4))
        notes.append((name, description, body))
    return notes, questions


def keywords(question: str) -> str:
    """The question's content words in order: "What is the port of the staging
    Redis instance for billing?" → "port staging Redis instance billing"."""
    return " ".join(w for w in question.rstrip("?").split() if w.lower() not in QUESTION_WORDS)


def vocabulary_queries(count: int, seed: int) -> list[str]:
    """``count`` queries of one to three words of the domain (services, stores,
    environments, people, topics), seeded."""
    rng = random.Random(seed)
    pool = SERVICES + STORES + ENVS + PEOPLE + TOPICS
    return [" ".join(rng.sample(pool, rng.randint(1, 3))) for _ in range(count)]


def memory_file(name: str, description: str, body: str, stamp: str | None = None) -> str:
    """A project memory file's text (``updated: stamp`` when given)."""
    updated = f"updated: {stamp}\n" if stamp else ""
    return f"---\nname: {name}\ndescription: {json.dumps(description)}\ntype: project\n{updated}---\n\n{body}\n"


def write_notes(folder: Path, notes, stamp: str | None = None) -> None:
    """Each of ``notes`` (from :func:`corpus`) as ``<name>.md`` in ``folder`` (made)."""
    folder.mkdir(parents=True, exist_ok=True)
    for name, description, body in notes:
        (folder / f"{name}.md").write_text(memory_file(name, description, body, stamp), encoding="utf-8")
