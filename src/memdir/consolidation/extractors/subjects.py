"""What a memory is about: subject matching and topic drift for consolidation (DESIGN §7).

Two questions, one word model:

* :func:`same_subject` — which existing memory does a new statement speak
  about? The offline extractor turns such a statement into an update of that
  memory (a candidate when a person or the agent wrote it) instead of a
  near-duplicate beside it.
* :func:`drifts` — does an update change what the memory is about (low
  similarity between old and new text) or more than double its body? Such an
  update is applied only as a candidate.

Words are lower-cased, stop words dropped, and cut to their first five
letters (``listens``/``listening``, ``integration``/``integrated``); CJK runs
become character bigrams; numbers are kept whole. Pure functions.
"""

from __future__ import annotations

import re

from ...text.words import CHAT_WORDS, FUNCTION_WORDS

_WORD = re.compile(r"[a-z0-9]+|[\u4e00-\u9fff]+", re.I)
# Words that say nothing of a subject: the function words (memdir.text.words) and chat words, but
# _COUNTED (function words the subject figures were measured with as content), plus _VAGUE (verbs, adverbs
# and nouns any statement may hold; "ll", "re", "ve" are what is left of we'll, you're, I've) and _FRAME
# (what the offline extractor puts around a quote).
_COUNTED = frozenset("am her his".split())
_VAGUE = frozenset("""
across against always between both default dev doing each even every like ll make makes need needs never
new now old one ones only over per re run runs say said sure still tell thing things told too under use used
uses using ve via want wants within without
""".split())
_FRAME = frozenset("user said stated apply follow whenever applies ask before departing wants done work".split())
_STOP = FUNCTION_WORDS - _COUNTED | CHAT_WORDS | _VAGUE | _FRAME
MIN_SHARED = 2         # content words a statement shares with a memory on the same subject, at least
SUBJECT_SHARE = 0.75   # … and this share of the statement's (or the memory's description's) words
DRIFT_SIMILARITY = 0.2  # below this, an update is about something else
DRIFT_GROWTH = 2.0     # a body more than this many times as long is not an update but a new memory


def stems(text: str) -> set[str]:
    """The content words of ``text`` as comparison keys (see the module docstring)."""
    out: set[str] = set()
    for token in _WORD.findall(text.lower()):
        if not token.isascii():
            out.update(token[i:i + 2] for i in range(max(1, len(token) - 1)))
        elif token.isdigit():
            out.add(token)
        elif token not in _STOP and len(token) > 1:
            out.add(token[:5])
    return out


def similarity(a: str, b: str) -> float:
    """Shared content words over the smaller text's content words (0–1; 0 when either has none)."""
    left, right = stems(a), stems(b)
    if not left or not right:
        return 0.0
    return len(left & right) / min(len(left), len(right))


def same_subject(statement: str, memories) -> tuple[str, str] | None:
    """``(scope, name)`` of the memory among ``memories`` (objects with
    ``scope``, ``name``, ``description``, ``body``, ``status``) that
    ``statement`` speaks about, or None.

    Numbers are left out of the comparison (a changed port is the same
    subject). A memory qualifies when it shares at least :data:`MIN_SHARED`
    words with the statement and either :data:`SUBJECT_SHARE` of the
    statement's words are in its name, description or body, or that share of
    its name's and description's words are in the statement; the best share
    wins. ``service alpha on port 8001`` and ``service bravo on port 8002``
    are different subjects; ``dev postgresql listens on port 5435`` and
    ``db-port: Dev PostgreSQL listens on 5434`` are one. Superseded memories
    are never chosen."""
    words = {w for w in stems(statement) if not w.isdigit()}
    if len(words) < MIN_SHARED:
        return None
    best, best_score = None, 0.0
    for memory in memories:
        if getattr(memory, "status", "active") == "superseded":
            continue
        described = {w for w in stems(f"{memory.name.replace('-', ' ')} {memory.description}") if not w.isdigit()}
        whole = described | {w for w in stems(getattr(memory, "body", "") or "") if not w.isdigit()}
        shared = words & whole
        if len(shared) < MIN_SHARED:
            continue
        score = max(len(shared) / len(words), len(words & described) / len(described) if described else 0.0)
        if score >= SUBJECT_SHARE and score > best_score:
            best, best_score = (memory.scope, memory.name), score
    return best


def _sentences(text: str) -> list[str]:
    return [" ".join(p.split()).lower() for p in re.split(r"(?<=[.!?。！？])\s+|\n+", text) if p.strip()]


def drifts(old_description: str, old_body: str, new_description: str, new_body: str) -> str | None:
    """Why an update is not an update of the same memory, or None.

    * the topic changed: what the update adds (its sentences not in the old
      text) shares less than :data:`DRIFT_SIMILARITY` of its content words
      with the old description and body — so appending an unrelated fact
      drifts as surely as replacing the text;
    * the body more than doubled (:data:`DRIFT_GROWTH`).
    """
    old_text, new_text = f"{old_description}\n{old_body}", f"{new_description}\n{new_body}"
    before = set(_sentences(old_text))
    added = stems(" ".join(s for s in _sentences(new_text) if s not in before))
    if added and stems(old_text):
        score = len(added & stems(old_text)) / len(added)
        if score < DRIFT_SIMILARITY:
            return f"the update changes the memory's topic (similarity {score:.2f} < {DRIFT_SIMILARITY})"
    if old_body.strip() and len(new_body) > DRIFT_GROWTH * len(old_body):
        return f"the update more than doubles the body ({len(old_body)} → {len(new_body)} characters)"
    return None


__all__ = ["drifts", "same_subject", "similarity", "stems"]
