"""The bounds of a transcript (the seed's consolidation buffer, seed-behaviour §A11): each message redacted,
then cut to its role's limit, then the oldest messages dropped until the whole fits.

Redaction comes first (:func:`memdir.text.redact.redact`): a cut keeps a long message's start and its end, and a
secret standing across the cut lost the half a pattern needed to know it, so the other half reached the
extractor, a model and the receipt (inject40). A message over its limit keeps its start, its end and — for the
person's — the requests to remember between them, as the gate reads them (:func:`memdir.consolidation.gate.said_hits`):
"remember that …" in the middle of a 5 KB paste was lost when only the start and the end were kept. They take
at most a quarter of the limit more (:data:`REQUEST_SHARE`), in order, so a paste of requests adds that much at
most; one request longer than that, up to :data:`REQUEST_LIMIT` characters, is kept whole when it comes first (a
request of 700 characters in the middle was lost when only a quarter's room was read); a longer sentence is not
read at all.
"""

from __future__ import annotations

import re

from .turns import Turn

USER_LIMIT = 2000
ASSISTANT_LIMIT = 500
TOTAL_LIMIT = 24_000
REQUEST_SHARE = 4
"""A cut message keeps the requests from between its start and its end in at most ``limit // 4`` more
characters (markers counted)."""

REQUEST_LIMIT = 1500
"""The longest request (characters, with what it points back to) a cut message keeps whole from its middle when it
does not fit the quarter's room: kept when no request before it was, so the requests a cut keeps add at most
``max(limit // REQUEST_SHARE, REQUEST_LIMIT + 3)`` characters; a longer one is left out."""

_MARK = "\n…\n"
_SENTENCE_END = re.compile(r"[.!?;][ \t]+|[。！？；]|\n")
_REACH = 400  # characters looked back (and on) for where the sentence the start (the end) is cut in begins (ends)


def cut_message(text: str, limit: int, *, requests: bool = True) -> str:
    """``text`` (stripped, secrets redacted before: :func:`bound`) within ``limit`` code points and its markers:
    when longer, its start and its end — ``limit - limit // 2`` characters of the start, then ``\\n…\\n``, then
    at most ``limit // 2`` of the end, from the first line that begins in them (a whole line when there is
    one); a redaction placeholder is kept whole or left out, never cut. A person pastes a long trace and says "Remember that …" after it; the end is where that is, and the
    assistant's closing proposal ("Shall I always …?") that a bare yes confirms: a cut keeping the start alone
    lost both (break39). With ``requests`` (the person's messages), the requests to remember between the start
    and the end ("Remember that …", "… Remember it." with what it points to: the gate's ``remember`` rule) are
    kept too, each on its own line between markers, in order, in at most ``limit // REQUEST_SHARE`` more
    characters; one that does not fit is left out (inject40), except a first one of at most
    :data:`REQUEST_LIMIT` characters, kept whole and alone."""
    text = text.strip()
    if len(text) <= limit:
        return text
    head_end = _before_placeholder(text, limit - limit // 2)
    head = text[:head_end].rstrip()
    start = len(text) - limit // 2 if limit // 2 else len(text)
    tail = text[start:]
    line = tail.find("\n")
    if 0 <= line < len(tail) - 1:
        start += line + 1
    start = _before_placeholder(text, start)
    tail = text[start:]
    kept = _requests(text, head_end, start, limit // REQUEST_SHARE, head, tail) if requests else []
    return head + "".join(_MARK + unit for unit in kept) + "\n…" + ("\n" + tail.strip() if tail.strip() else "")


def _before_placeholder(text: str, at: int) -> int:
    """``at``, or the start of the redaction placeholder (:func:`memdir.text.redact.placeholder`) that ``at`` falls inside: a
    cut keeps a placeholder whole or leaves it out, so what is kept still says a secret was there."""
    from ...text.redact import PLACEHOLDER_PATTERN

    for found in re.finditer(PLACEHOLDER_PATTERN, text[max(0, at - 40):at + 40]):
        begin = max(0, at - 40) + found.start()
        if begin < at < begin + len(found.group()):
            return begin
    return at


def _requests(text: str, head_end: int, tail_start: int, room: int, head: str, tail: str) -> list[str]:
    """The requests to remember of ``text`` between ``head_end`` and ``tail_start`` (from the start of the
    sentence the head is cut in to the end of the one the tail is), those the head or the tail holds left out,
    in order, as many as fit ``room`` characters (markers counted), or the first alone when it is longer and
    at most :data:`REQUEST_LIMIT` characters."""
    # late: the hooks' queue imports this package, never the gate's patterns
    from ..gate import said_hits

    begin = head_end
    for found in _SENTENCE_END.finditer(text, max(0, head_end - _REACH), head_end):
        begin = found.end()
    end = tail_start
    if tail_start and text[tail_start - 1] != "\n":
        found = _SENTENCE_END.search(text, tail_start, tail_start + _REACH)
        end = found.end() if found else tail_start
    region = text[begin:end]
    if text.count("```", 0, begin) % 2:  # the head opened a code block the region goes on with: still code
        region = "```\n" + region
    shown = " ".join(f"{head} {tail}".split())
    chosen: list[str] = []
    used = 0
    for sentence, _ in said_hits(region, requests=max(room - len(_MARK), REQUEST_LIMIT)):
        cost = len(sentence) + len(_MARK)
        fits = used + cost <= room or (not chosen and len(sentence) <= REQUEST_LIMIT)
        if fits and sentence not in chosen and " ".join(sentence.split()) not in shown:
            chosen.append(sentence)
            used += cost
    return chosen


def bound(turns: list[Turn], user_limit: int = USER_LIMIT, assistant_limit: int = ASSISTANT_LIMIT,
          total_limit: int = TOTAL_LIMIT) -> tuple[list[Turn], int, dict[str, int]]:
    """Redact each message (:func:`memdir.text.redact.redact`), cut it to its role's limit (its start and its
    end kept, ``…`` between them, and a person's requests from between: :func:`cut_message`), then drop the
    oldest messages until the ``ROLE: text`` lines joined by blank lines fit ``total_limit`` characters (one
    message is always kept). Returns the kept turns, how many were dropped and how many secrets were redacted, by
    kind (``{"github-token": 2, "basic-auth": 1}``: :data:`memdir.text.redact.KINDS`; ``{}`` for none). Limits are
    code points."""
    # late: the hooks' queue imports this package, never the secret patterns
    from ...text.redact import redact

    cut: list[Turn] = []
    secrets: dict[str, int] = {}
    for turn in turns:
        limit = user_limit if turn.role == "user" else assistant_limit
        found = redact(turn.text.strip())
        for kind, count in found.counts.items():
            secrets[kind] = secrets.get(kind, 0) + count
        text = found.text
        if len(text) > limit:
            cut.append(Turn(turn.role, cut_message(text, limit, requests=turn.role == "user"), turn.ts, True))
        else:
            cut.append(Turn(turn.role, text, turn.ts, turn.cut))
    total = sum(len(t.line()) for t in cut) + 2 * max(0, len(cut) - 1)
    start = 0
    while total > total_limit and len(cut) - start > 1:
        total -= len(cut[start].line()) + 2
        start += 1
    return cut[start:], start, secrets


__all__ = ["ASSISTANT_LIMIT", "REQUEST_LIMIT", "REQUEST_SHARE", "TOTAL_LIMIT", "USER_LIMIT", "bound", "cut_message"]
