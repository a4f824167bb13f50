"""The words of a statement, and how a statement becomes a memory's name, title and description.

Shared by the offline extractor (:mod:`memdir.consolidation.extractors.rules`), the
agent mode's pending items (:mod:`memdir.consolidation.extractors.agent`) and
:mod:`memdir.consolidation.extractors.persona`: which words carry content (stop words
dropped; a CJK run read as character bigrams), a name from the first five of
them, and a description cut at a word to at most :data:`DESCRIPTION_LIMIT`
characters — a statement joined to the sentence it needs
(:func:`joined`) keeps its own words whole and shortens the sentence before it.
"""

from __future__ import annotations

import re

from ...text.names import normalize_name
from ...text.words import CHAT_WORDS, FUNCTION_WORDS

# A description's length in characters (an index line stays one short line).
DESCRIPTION_LIMIT = 160

# The words a statement's content, and a memory's name, leave out: the function words
# (memdir.text.words) and chat words, but _COUNTED (he, she, they, have: a memory about someone keeps them,
# as it always has), plus _EMPTY (what a request to remember says around its content: "remember",
# "note", "keep in mind", "let's", "I like", "stuff"; "dont", "lets" written without the apostrophe;
# "ll", "re", "ve" what is left of we'll, you're, I've). WORD splits at an apostrophe, so no entry holds one.
_COUNTED = frozenset("am had has have he her his she their them they".split())
_EMPTY = frozenset("""
again dont each every get go going got keep let lets like ll love made make mind mine more most need note
over re remember some stuff sure thing things under ve want
""".split())
STOP_WORDS = FUNCTION_WORDS - _COUNTED | CHAT_WORDS | _EMPTY
# Latin words with their accents ("größe", not "gr" and "e"); CJK ideographs, kana and Hangul as runs.
WORD = re.compile(r"[a-z0-9\u00c0-\u00d6\u00d8-\u00f6\u00f8-\u024f]+|[\u4e00-\u9fff\u3040-\u30ff\uac00-\ud7af]+", re.I)
_RUN = re.compile(r"[\u4e00-\u9fff\u3040-\u30ff\uac00-\ud7af]")


def content_words(text: str) -> list[str]:
    """Lower-case words of ``text`` without stop words, in order, de-duplicated;
    CJK, kana and Hangul runs become character bigrams."""
    out: list[str] = []
    for token in WORD.findall(text.lower()):
        if _RUN.match(token):
            grams = [token[i:i + 2] for i in range(len(token) - 1)] or [token]
            out.extend(g for g in grams if g not in out)
        elif token not in STOP_WORDS and token not in out and (len(token) > 1 or token.isdigit()):
            out.append(token)
    return out


def name_for(statement: str) -> str:
    """A memory name from the first five content words of ``statement``
    (ASCII, at most 48 characters); for CJK text a stable hashed slug
    (:func:`memdir.text.names.normalize_name`), the text kept as the title."""
    words = [w for w in WORD.findall(statement.lower()) if w.isascii()]
    picked: list[str] = []
    for word in words:
        if word in STOP_WORDS or word in picked or (len(word) < 2 and not word.isdigit()):
            continue
        picked.append(word)
        if len(picked) == 5:
            break
    if picked:
        return "-".join(picked)[:48].strip("-")
    return normalize_name(statement[:24]).name


# A title's length in characters, and what a title does not end in (before its "…" either).
TITLE_LIMIT = 40
_TITLE_END = "，。、,.;；：:!！?？ "


def title_for(statement: str) -> str | None:
    """The title of a memory whose name cannot carry its words: a non-ASCII statement, without the punctuation
    that ends it, cut to at most :data:`TITLE_LIMIT` characters by :func:`cut` (at a word, when one falls in
    its second half, ending in "…", as every cut text of memdir ends: newuser31 met "Zoë prefers tabs over
    spaces in every Pyt"); None for ASCII, and for a statement of punctuation alone."""
    if statement.isascii():
        return None
    title = cut(statement.strip().rstrip(_TITLE_END), TITLE_LIMIT)
    if title.endswith("…"):
        title = title[:-1].rstrip(_TITLE_END) + "…"
    return title if title.strip("…") else None


def cut(text: str, limit: int) -> str:
    """``text`` cut to at most ``limit`` characters at a word (when one
    falls in the second half), ending in "…"; unchanged when it fits."""
    if len(text) <= limit:
        return text
    head = text[:limit - 1]
    space = head.rfind(" ")
    return (head[:space] if space > limit // 2 else head).rstrip(" ,;:") + "…"


def capital(text: str) -> str:
    """``text`` with its first letter upper-cased (when it is lower-case)."""
    return text[:1].upper() + text[1:] if text[:1].islower() else text


def joined(before: str, statement: str, limit: int = DESCRIPTION_LIMIT) -> str:
    """``before`` and ``statement`` as one text, capitalized; when the two
    run past ``limit`` characters, ``before`` is shortened (:func:`cut`) so
    ``statement`` — the rule or fact itself — stays whole ("We maintain the
    legacy payments service in services/recon, which… It must never be
    deployed on Fridays."). A ``statement`` longer than half the limit
    leaves ``before`` whole (the description is then cut at its end)."""
    room = limit - len(statement) - 1
    if len(before) > room and room >= limit // 2:
        before = cut(before, room)
    return capital(f"{before} {statement}")


__all__ = ["DESCRIPTION_LIMIT", "STOP_WORDS", "WORD", "capital", "content_words", "cut", "joined", "name_for",
           "title_for"]
