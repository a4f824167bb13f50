"""What a text writes in pieces that search reads as one word (DESIGN §6), in memories and queries alike.

Rewrites of the text the tokenizer (:mod:`memdir.search.tokenize`) applies before it segments words, each a
closed rule with its reason:

* a language named by a letter and signs is its word (``C++`` → ``cpp``, ``C#`` → ``csharp``; break11);
* a word and its inflection in parentheses is the word (``file(s)`` → ``file``);
* a phrasal verb whose joined form is a noun of its own is that noun (``Log in with SSO`` → ``Login with SSO``,
  ``log-in page`` → ``login page``, ``signed up.`` → ``signup.``): "log in" is no "log" (``which logging
  library`` listed the note saying "Log in with the seed user" at 0.957, each read as ``log``);
* a name whose one-letter particle an apostrophe sets apart is also a compound, its whole and its name
  (``O'Brien``, ``D’Angelo`` → ``O O-Brien``, ``D D-Angelo``: ``o obrien brien``), as a person types it without
  the apostrophe (``obrien`` found nothing beside "Talk to O'Brien"); the name's capital tells it from a French
  or Italian elision (``c'est``, ``l'équipe``, ``d'accord``), whose letter before the apostrophe is an article or
  a pronoun and no word of the text (``c'est`` is ``est``: no ``c``, no ``cest``; a search for the C language found
  French notes, words46); not ``I'm``, ``I'll`` (``ill``), nor a contraction (``don't``) or a
  possessive (``user's``), whose first part is longer or second shorter.
"""

from __future__ import annotations

import re
from functools import lru_cache

# A language named by a letter and signs, "C++", "C#", "F#" (also "C++20"): the word a code base writes for it, "cpp",
# "csharp", "fsharp" (a letter alone is no term: "C#" found the memory on C++ as strongly as its own, break11).
_SIGNED_NAME = re.compile(r"(?<![\w+#])(?:([Cc])\+\+|([CcFf])#)(?![^\W\d]|[+#])")
_SIGNED_WORD = {"+": "pp", "#": "sharp"}
# A word and its inflection in parentheses, "file(s)", "process(es)", "entry(ies)", "child(ren)", "use(d)": the word
# (its inflected form stems alike), no "s", "es" or "ie" of its own; not a call's argument ("client.search(es)").
_INFLECTED = re.compile(r"(?<![\w.])([^\W\d_]+)\((?:s|es|ies|ren|ed|d)\)(?![\w(])", re.IGNORECASE)
# A one-letter particle and a name written with its capital after an apostrophe, "O'Brien", "D’Angelo", "L'API": the
# particle as it was read and the compound (a hyphen in the apostrophe's place); not "I'm", "I'll", "I've" (the
# pronoun), "don't", "it's", "A's". A French elision before a small letter ("c'est", "n'est", "l'équipe") is the word
# after it alone (no c, no cest).
_ELIDED = re.compile(r"(?<![\w'’])([^\W\d_Ii])['’](?=[^\W\d_]{2})")


def _elided(match: re.Match) -> str:
    """``O'`` before ``Brien`` → ``O O-``; before a small letter, an elided article or pronoun, nothing (``c'est``
    → ``est``, ``l'équipe`` → ``équipe``)."""
    return f"{match.group(1)} {match.group(1)}-" if match.string[match.end()].isupper() else ""


PHRASAL_VERBS = {"log": ("log", "logs", "logged", "logging", ("in", "on", "out", "off")),
                 "sign": ("sign", "signs", "signed", "signing", ("in", "on", "up", "out", "off"))}
"""``{verb: (its forms…, (its particles))}``: the phrasal verbs whose joined form is a noun of its own (login, logout,
signup) while the verb alone is another word (a log, logging; a sign, signing a webhook). Closed: a phrasal verb
whose verb means the same alone (``set up`` / ``set``) is left as written."""
PHRASAL_NOUNS = frozenset(verb + particle for verb, forms in PHRASAL_VERBS.items() for particle in forms[-1])
"""The joined nouns of :data:`PHRASAL_VERBS` (``login``, ``signup``; each its own stem): the tokenizer writes the
phrasal verb so wherever it reads one, so the two words left apart in a memory are no phrasal verb ("logs in Loki")
and search never looks for such a noun as two words (:func:`memdir.search.terms.compounds`)."""
PHRASAL_FOLLOWERS = ("to", "with", "as", "via", "using", "through", "from", "again", "first", "once", "now", "and",
                     "or", "but", "before", "after", "when", "while", "until", "if", "so", "then", "because", "for",
                     "at", "successfully", "automatically", "page", "pages", "screen", "form", "button", "flow",
                     "flows", "session", "sessions", "attempt", "attempts", "credentials", "endpoint", "redirect",
                     "prompt", "link", "url", "token", "cookie",
                     "yesterday", "today", "tonight", "already", "twice", "yet", "anymore")
"""The words after which a verb and its particle written apart are the phrasal verb ("log in with SSO", "logged in
to staging", "the log in page"), besides a line's or a clause's end ("can't log in."). Elsewhere "in" is read as a
preposition and the verb as itself: "logs in Loki", "logging in production", "errors are logged in Sentry" keep
``log``. Written with a hyphen, a verb and its particle are always the phrasal verb ("log-in", "logged-in users").
Among them the adverbs of time that no preposition takes ("I logged in yesterday", "signed in twice", "can't log
in anymore", "haven't signed in yet"), each any form's; not one a preposition's object may begin with ("last",
"earlier", "this": "errors logged in last week's run", "logs in earlier versions"), nor a possessive ("logs in
today's run"). The verb's ``-s`` form is read by the same rule: "logs in Loki" is a plural and a place."""
PHRASAL_ALWAYS = {"sign": ("up", "out", "off")}
"""``{verb: its particles}`` after which any form of the verb is the phrasal verb whatever follows ("we signed up
last week", "she signs out every night", "the lead signed off the release"): no sign is up, out or off in a store's
prose. Not ``in``, ``on`` (a signature may be "signed in the handler"), nor any of "log"'s ("logging out the
payload" writes it to the log)."""


def _phrasal() -> re.Pattern:
    verbs = "|".join(f"(?P<{verb}>{'|'.join(forms[:-1])})(?P<{verb}_s>[ \\t]+|-)(?P<{verb}_p>{'|'.join(forms[-1])})"
                     for verb, forms in PHRASAL_VERBS.items())
    return re.compile(f"\\b(?:{verbs})\\b", re.IGNORECASE)


_PHRASAL = _phrasal()
# What follows a verb and its particle written apart that makes them the phrasal verb (PHRASAL_FOLLOWERS).
# A day's name ends a possessive as often ("logs in today's run"): there it is the preposition's object.
_DAYS = ("yesterday", "today", "tonight")


@lru_cache(maxsize=1)
def _followed() -> re.Pattern:
    """What follows a phrasal verb written apart (above), compiled on the first verb and particle found
    (:func:`_joined`): most texts hold none, and its alternation of every follower is ≈ 0.7 ms (hot46)."""
    return re.compile("[ \\t]*(?:[.,;:!?)\\]\\n\"']|$)|[ \\t]+(?:" + "|".join(
        word + ("(?!['’]s\\b)" if word in _DAYS else "") for word in PHRASAL_FOLLOWERS) + ")\\b", re.IGNORECASE)


def _joined(match: re.Match) -> str:
    for verb in PHRASAL_VERBS:
        form = match.group(verb)
        if form:
            if match.group(f"{verb}_s") == "-" or match.group(f"{verb}_p").lower() in PHRASAL_ALWAYS.get(verb, ()) \
                    or _followed().match(match.string, match.end()):
                return form[:len(verb)] + match.group(f"{verb}_p")
            return match.group(0)
    return match.group(0)


def one_words(text: str) -> str:
    """``text`` with what it writes in pieces and search reads as one word written as that word (the module's
    rules): ``C++`` → ``cpp``, ``file(s)`` → ``file``, ``Log in with SSO`` → ``Login with SSO``, ``O'Brien`` →
    ``O O-Brien``. Offsets move; a
    text with none of them is returned as it is. Pure."""
    if "+" in text or "#" in text:
        text = _SIGNED_NAME.sub(lambda m: (m.group(1) or m.group(2)) + _SIGNED_WORD[m.group(0)[1]], text)  # C++ is cpp
    if "'" in text or "’" in text:
        text = _ELIDED.sub(_elided, text)  # O'Brien is O O-Brien: o, obrien, brien
    if "(" in text:
        text = _INFLECTED.sub(r"\1", text)  # file(s), process(es), entry(ies): the word, its plural the same term
    lowered = text.lower()
    if "log" in lowered or "sign" in lowered:
        text = _PHRASAL.sub(_joined, text)
    return text


def writes_elision(text: str) -> bool:
    """True when ``text`` writes a French or Italian elision (``c'est``, ``l'équipe``, ``n’est``: an article or a
    pronoun's letter and an apostrophe before a small letter), which :func:`one_words` reads as the word after it
    alone. Pure."""
    return ("'" in text or "’" in text) and any(
        not text[m.end()].isupper() for m in _ELIDED.finditer(text))


__all__ = ["PHRASAL_ALWAYS", "PHRASAL_FOLLOWERS", "PHRASAL_NOUNS", "PHRASAL_VERBS", "one_words", "writes_elision"]
