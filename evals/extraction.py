"""Extraction eval on Multi-Session Chat (MSC): do the memories match what people said about themselves?

Usage::

    python evals/extraction.py --data ../shared/data/msc/personasummary-session1-test.jsonl \
        [--extractor rules|llm] [--limit N] [--examples K]

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

* precision = memories matching some fact of the speaker / memories;
* recall = facts matched by some memory / facts;
* other_speaker = memories whose source words come from the other speaker's
  turns (must be 0: the assistant's words are never the person's facts).

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


def evaluate(path: Path, extractor_name: str, limit: int | None = None, examples: int = 0) -> dict:
    """Run one extractor over the dialogues of ``path``; return the figures."""
    from memdir.consolidation.consolidate import ExtractionContext, resolve_extractor
    from memdir.store.errors import ModelError
    from memdir.consolidation.gate import check
    from memdir.store.settings import load_settings
    from memdir.consolidation.transcripts import read_transcript

    settings = load_settings(None)
    extractor = resolve_extractor(extractor_name, settings)
    context = ExtractionContext(max_proposals=20)
    totals = {"dialogues": 0, "speakers": 0, "facts": 0, "memories": 0, "correct": 0, "recalled": 0,
              "other_speaker": 0, "gate_fired": 0, "errors": 0, "seed_facts": 0, "seed_correct": 0,
              "seed_recalled": 0}
    shown = []
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
                totals["memories"] += len(result.proposals)
                for prefix, read, match in (("", words, matches), ("seed_", seed_words, seed_matches)):
                    descriptions = [read(p.description) for p in result.proposals]
                    gold = [read(f) for f in facts if read(f)]
                    totals[prefix + "facts"] += len(gold)
                    totals[prefix + "correct"] += sum(any(match(g, m) for g in gold) for m in descriptions)
                    totals[prefix + "recalled"] += sum(any(match(g, m) for m in descriptions) for g in gold)
                totals["other_speaker"] += sum(source_side(t, own, other) == "other" for t in texts)
                if len(shown) < examples and result.proposals:
                    shown.append({"facts": facts, "memories": [p.description for p in result.proposals]})
    memories, facts = totals["memories"], totals["facts"]
    seed = {key[5:]: totals.pop(key) for key in ("seed_facts", "seed_correct", "seed_recalled")}
    seed["precision"] = round(seed["correct"] / memories, 4) if memories else None
    seed["recall"] = round(seed["recalled"] / seed["facts"], 4) if seed["facts"] else None
    return {
        "eval": "msc-extraction", "extractor": extractor.name, "model": extractor.model, "data": str(path),
        **totals,
        "precision": round(totals["correct"] / memories, 4) if memories else None,
        "recall": round(totals["recalled"] / facts, 4) if facts else None,
        "seed_scorer": seed,
        "seconds": round(time.monotonic() - started, 2),
        **({"examples": shown} if shown else {}),
    }


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description="Score memdir's extractors on MSC persona facts.")
    parser.add_argument("--data", type=Path,
                        default=Path(__file__).resolve().parents[2] / "shared/data/msc/personasummary-session1-test.jsonl")
    parser.add_argument("--extractor", choices=("rules", "llm", "both"), default="both")
    parser.add_argument("--limit", type=int, help="first N dialogues only")
    parser.add_argument("--examples", type=int, default=0, help="print K example dialogues' facts and memories")
    args = parser.parse_args(argv)
    if not args.data.is_file():
        print(f"skipped: MSC data not found at {args.data} (../shared/data is absent?)", file=sys.stderr)
        return 0
    names = ["rules", "llm"] if args.extractor == "both" else [args.extractor]
    for name in names:
        if name == "llm":
            from memdir.consolidation.llm import api_key
            from memdir.store.settings import load_settings

            if not api_key(load_settings(None)):
                print("skipped llm: no API key (set DEEPSEEK_API_KEY or OPENAI_API_KEY)", file=sys.stderr)
                continue
        print(json.dumps(evaluate(args.data, name, args.limit, args.examples), ensure_ascii=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
