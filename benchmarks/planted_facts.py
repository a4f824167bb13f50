"""Planted one-sentence facts in long notes of one domain's vocabulary, asked as plain questions.

    python benchmarks/planted_facts.py [--notes 1000] [--modes bm25,hybrid] [--seed 7] [--keep DIR]

Generates ``--notes`` technical notes of 100–400 words (seeded, so every run
of a size is the same corpus) about one company's systems: a dozen services,
ten stores, six environments and twenty people, repeated across notes in
sentences of incidents, reviews, migrations and settings — including the same
kinds of settings for *other* service/store/environment triples, so a
question's words are everywhere and only the right sentence answers it. Fifty
notes each hold one planted fact ("The staging Redis instance for billing
listens on port 6391.") at a random place in the body; each fact is asked as
a plain question ("What is the port of the staging Redis instance for
billing?"). Notes are written as memory files straight into a project layer
and indexed (``hybrid`` also embeds them, in the foreground).

Prints one JSON line per mode: ``first`` (questions whose note is ranked
first, of 50), hit@5, ``empty`` (questions with no result at all), and p50/p95
search latency in ms. The corpus is this generator's own; nothing in
memdir's ranking was tuned on another.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "src"))

SERVICES = ["billing", "checkout", "search", "auth", "inventory", "notifications", "ledger", "shipping", "catalog",
            "analytics", "payments", "identity"]
STORES = ["Redis", "PostgreSQL", "Kafka", "Elasticsearch", "S3", "MySQL", "RabbitMQ", "Memcached", "ClickHouse",
          "MongoDB"]
ENVS = ["staging", "production", "dev", "qa", "sandbox", "canary"]
PEOPLE = ["Alice", "Bob", "Chen", "Dana", "Emil", "Farah", "Grace", "Hiro", "Ines", "Jonas", "Kemal", "Lena", "Marco",
          "Nadia", "Oskar", "Priya", "Quentin", "Rosa", "Sven", "Tomas"]
TOPICS = ["latency spike", "failover drill", "schema migration", "capacity review", "cost review", "upgrade plan",
          "incident review", "backup restore test", "alert tuning", "access audit", "load test", "config cleanup"]

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


def _fill(rng: random.Random, template: str) -> str:
    return template.format(person=rng.choice(PEOPLE), person2=rng.choice(PEOPLE), topic=rng.choice(TOPICS),
                           service=rng.choice(SERVICES), service2=rng.choice(SERVICES), env=rng.choice(ENVS),
                           store=rng.choice(STORES), store2=rng.choice(STORES))


def corpus(count: int, seed: int = 7, facts: int = 50) -> tuple[list[tuple[str, str, str]], list[tuple[str, str]]]:
    """``(notes, questions)``: notes as ``(name, description, body)``, and
    ``facts`` ``(question, name of the note that answers it)``. Distractor
    sentences state the same attributes for triples no question asks about."""
    rng = random.Random(seed)
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
        target = rng.randint(100, 400)
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
        if i in planted:
            (s, st, e), (_attr, fact, question, value) = next(fact_items)
            sentences.insert(rng.randint(1, len(sentences)), fact.format(env=e, store=st, service=s, value=value(rng)))
            questions.append((question.format(env=e, store=st, service=s), name))
        body = "\n\n".join(" ".join(sentences[j:j + 4]) for j in range(0, len(sentences), 4))
        notes.append((name, description, body))
    return notes, questions


def _store(base: Path, notes, vectors: str):
    from memdir import Memory
    from memdir.search.sync import prepare

    project = base / "proj"
    (project / ".git").mkdir(parents=True, exist_ok=True)
    mem = Memory.open(home=base / "home", project=project, search_vectors=vectors, actor="human")
    layer = mem.session.layer("project").path
    layer.mkdir(parents=True, exist_ok=True)
    if not any(layer.glob("note-*.md")):
        for name, description, body in notes:
            front = f"---\nname: {name}\ndescription: {json.dumps(description)}\ntype: project\n---\n\n"
            (layer / f"{name}.md").write_text(front + body + "\n", encoding="utf-8")
    prepare(mem.session)
    return mem


def run(count: int, mode: str, seed: int, keep: Path | None) -> dict:
    notes, questions = corpus(count, seed)
    with tempfile.TemporaryDirectory() as tmp:
        base = (keep / f"planted-{count}-{seed}") if keep else Path(tmp)
        start = time.perf_counter()
        mem = _store(base, notes, "on" if mode == "hybrid" else "off")
        built = time.perf_counter() - start
        first = top5 = empty = 0
        times, misses = [], []
        for question, name in questions:
            t0 = time.perf_counter()
            got = [r.name for r in mem.search(question, k=5)]
            times.append((time.perf_counter() - t0) * 1000)
            first += got[:1] == [name]
            top5 += name in got
            empty += not got
            if got[:1] != [name]:
                misses.append({"question": question, "want": name, "got": got[:3]})
        times.sort()
        return {"bench": "planted_facts", "notes": count, "mode": mode, "seed": seed, "questions": len(questions),
                "first": first, "hit5": top5, "empty": empty, "build_s": round(built, 1),
                "p50_ms": round(statistics.median(times), 1), "p95_ms": round(times[int(0.95 * (len(times) - 1))], 1),
                "misses": misses[:5]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--notes", type=int, default=1000)
    parser.add_argument("--modes", default="bm25")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--keep", type=Path)
    args = parser.parse_args()
    for mode in (m.strip() for m in args.modes.split(",") if m.strip()):
        print(json.dumps(run(args.notes, mode, args.seed, args.keep)), flush=True)


if __name__ == "__main__":
    main()
