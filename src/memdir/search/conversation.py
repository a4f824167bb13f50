"""Words a prompt points at the conversation with: a thing of the chat itself is no topic of the project.

"summarise the diff above", "the answer is yes", "このコードを読みやすくして" ("make this code readable") name a
thing the conversation holds — a diff, an answer, a piece of code shown a moment ago — not one of the project. A
memory that shares only those words with the prompt ("the user reads the diff" of the note asking for short
answers; コード of "コードレビューのコメントは日本語で書く") is about another diff, answer or code: it matched by the
pointer's noun, not by what the prompt is about. :func:`pointed_terms` gives the terms written only in such
pointers, and :func:`memdir.search.ranking.ranked` marks a memory sharing nothing but them
(:attr:`memdir.search.relevance.Evidence.pointed`), which :func:`memdir.search.relevance.bar` never returns at the
threshold; a memory sharing another word of the prompt, or none at all (carried by meaning), is read as before.
Recall's only: an explicit search's words are what the person looks for.

A pointer is one of (case folded; no constant, the forms are the language's own):

* a noun after a determiner and before ``above`` or ``below`` at the end of its phrase: "the diff above", "the
  error below:" (not "above 1000 jobs": a number or an article after it makes it a comparison);
* a thing of the chat after ``your`` or ``my``, or after ``the`` where it ends the phrase or is what ``is``/``was``
  says something of (:data:`CHAT_NOUNS`, singular: one answer of this chat, not "your replies" in general, which
  asks how to answer); and the same after ``the last``/``your previous``: "the last question", "your previous
  answer";
* a piece of shown text after ``this`` or ``these`` (:data:`SHOWN_NOUNS`): "this loop", "this regex", "these
  lines"; in Japanese, Chinese and Korean the demonstrative or "above" before code, function or text
  (このコード, 上記の関数, 这段代码, 上面的函数, 이 코드).
* the session's own checks said to succeed (``_PASSING``, false35): "the tests pass now, thanks", "make sure the
  tests pass", "the build is green": a report or a check of the work in this chat, not a topic ("the tests fail on
  CI" is not one: a failure is a problem a note may bear on).

Chosen on the fit data's pooled folds (evals/recall/conversation.py, 2026-12-06 false33; never a held-out line):
see that script for the figures. The checks said to succeed (false35, evals/recall/false35.py): one fit row in each
fold ("make sure the tests pass" in fold 0, "the tests pass now, thanks" in fold 1), each recalling three notes holding
"tests pass"; chosen on either fold it reads −1 false recall on the other, vectors on and off, and no hit moves.
Pure; the patterns compile at import (:mod:`memdir.search.general` does the same, on the same path).
"""

from __future__ import annotations

import re

from ..text.words import (
    NEGATED_VERBS,
    NOT_WORDS,
    OPENING_VERBS,
    PLEASE_WORDS,
    PRAISE_WORDS,
    QUESTION_WORDS,
    TROUBLE_WORDS,
    WANTING_WORDS,
    WORK_VERBS,
)
from .tokenize import tokens

CHAT_NOUNS = ("answer", "reply", "response", "question", "message", "explanation", "suggestion", "summary", "diff",
              "snippet", "math")
"""Things a conversation holds that a project does not: said by the person or the agent in the chat."""
SHOWN_NOUNS = ("code", "snippet", "loop", "regex", "block", "function", "paragraph", "sentence", "diff", "output",
               "text", "line")
"""Pieces of text shown in the chat that ``this``/``these`` point at ("this loop", "these lines")."""

_CHAT = "(?:" + "|".join(CHAT_NOUNS) + ")"
_SHOWN = "(?:" + "|".join(SHOWN_NOUNS) + ")s?"
# The session's own checks reported or asked to succeed: "the tests pass now, thanks", "make sure the tests pass",
# "the build is green" (false35). Success only: "the tests fail on CI" names a problem a note may bear on.
_PASSING = re.compile(r"\b(?:the\s+|all\s+(?:the\s+)?)?(?:tests?|test\s+suite|build|ci|checks|linters?)\s+"
                      r"(?:(?:now|all|still)\s+)?(?:pass(?:es|ed)?|(?:is|are)\s+(?:(?:now|all|still)\s+)?"
                      r"(?:passing|green))\b", re.IGNORECASE)
_POINTERS = (
    re.compile(r"\b(?:the|this|that|these|those)\s+(?:[\w-]+\s+)?[\w-]+\s+(?:above|below)\b(?!\s*(?:\d|(?:the|an?)\b))",
               re.IGNORECASE),
    re.compile(r"\b(?:your|my|the)\s+(?:last|previous)\s+" + _CHAT + r"\b", re.IGNORECASE),
    re.compile(r"\b(?:your|my)\s+" + _CHAT + r"\b", re.IGNORECASE),
    re.compile(r"\bthe\s+" + _CHAT + r"\b(?=\s*(?:$|[.,;:!?]|(?:is|was)\b))", re.IGNORECASE),
    re.compile(r"\b(?:this|these)\s+" + _SHOWN + r"\b", re.IGNORECASE),
    re.compile(r"(?:この|その|上の|上記の|这段|这个|上面的|刚才的|이\s|위의\s?)(?:コード|関数|文章|差分|代码|函数|코드)"),
    _PASSING,
)


def pointed_terms(query: str) -> frozenset[str]:
    """The terms (stemmed, as :func:`memdir.search.tokenize.tokens` gives them) that ``query`` writes only in phrases
    pointing at the conversation itself (the module docstring): ``"summarise the diff above"`` → ``{"diff", "abov"}``
    (and the stopword ``the``), ``"このコードを読みやすくして"`` → the bigrams of このコード; a term the query also
    writes outside every pointer is not one. Empty for a prompt with no pointer. Pure; linear in the query."""
    spans = [m.span() for pattern in _POINTERS for m in pattern.finditer(query)]
    if not spans:
        return frozenset()
    inside, rest, at = set(), [], 0
    for start, end in sorted(spans):
        inside.update(tokens(query[start:end].lower()))
        rest.append(query[at:start])
        at = max(at, end)
    rest.append(query[at:])
    return frozenset(inside - set(tokens(" ".join(rest).lower())))


def only_pointed(shared: tuple[str, ...], pointed: frozenset[str]) -> bool:
    """True when a memory's ``shared`` content terms (:attr:`memdir.search.relevance.Evidence.shared`) are some and
    all of ``pointed`` (:func:`pointed_terms`): it matched the prompt by the words of a thing of the conversation alone."""
    return bool(shared) and pointed.issuperset(shared)


# A remark asks nothing: what marks a request (a verb of the work, a modal, "let's", "please"), a question (besides
# "?" and QUESTION_WORDS) or trouble a note may bear on ("still", "but", a failure). English; folded words. Verbs of
# being are asking only before a clause opens a question ("is it down?"); in a remark they describe ("redis is
# awesome", "the worker in the image is funny"): read as asking only at the prompt's start.
_ASKING = WORK_VERBS | WANTING_WORDS | OPENING_VERBS | PLEASE_WORDS
_TROUBLE = TROUBLE_WORDS | NOT_WORDS | NEGATED_VERBS
_BEING = OPENING_VERBS
_WORDS = re.compile(r"[^\W\d_]+(?:'[^\W\d_]+)?")


def remarks(query: str) -> bool:
    """True when ``query`` (a prompt as written) is a remark of the chat, not a request or a question about the
    project: it holds a word of thanks, praise or laughter (:data:`memdir.text.words.PRAISE_WORDS`: "thanks",
    "great", "awesome", "lol", "funny"), no "?", no question word (:data:`~memdir.text.words.QUESTION_WORDS`), no
    request (a verb of the work, a modal, "please"; "is"/"can"/"do" … only opening a sentence) and no word of
    trouble ("but", "still", "fails", "not"). "I love the new feature, thanks! the flag looks great", "lol the worker
    in the image is funny", "great job on the session, redis is awesome" → True; "Add the new feature. Put it behind
    a flag.", "thanks, now add a flag for checkout", "thanks, but the worker still crashes", "great, can you bump
    redis?" → False. Where a prompt is ranked by words alone its first memory's lead is then not read
    (:func:`memdir.search.relevance.led_by_words`; recall47: the three remarks recalled feature-flags, oom-worker and
    redis-sessions at 0.34–0.48 by two shared words), and a memory is returned only where its words alone reach the
    threshold (:attr:`memdir.search.relevance.Evidence.anyone`), never by its cosine (recall49: vectors on, the three
    recalled the same notes by meaning). English only. Pure; linear in the query."""
    if "?" in query:
        return False
    text = query.lower().replace("\u2019", "'")
    words = _WORDS.findall(text)
    if not PRAISE_WORDS.intersection(words) or QUESTION_WORDS.intersection(words) or _TROUBLE.intersection(words):
        return False
    opening = {first[0] for part in re.split(r"[.!;:,\n]+", text) if (first := _WORDS.findall(part))}
    return not any(w in _ASKING and (w not in _BEING or w in opening) for w in words)


__all__ = ["CHAT_NOUNS", "SHOWN_NOUNS", "only_pointed", "pointed_terms", "remarks"]
