"""The stem of a word, by its script: the one rule for which Snowball stemmer reads a word (DESIGN §6).

A word reaches :func:`stem` folded (:func:`memdir.text.fold.fold`: case-folded, Latin accents dropped, Greek
accents dropped and ``ς`` written ``σ``, Cyrillic ``ё`` written ``е``), in documents and queries alike, so
both sides meet on one stem:

* ASCII letters: the Snowball English stemmer with memdir's English rules — short forms
  (:data:`memdir.text.words.SHORT_FORMS`), irregular plurals and past forms (``wrote`` is ``write``), a final
  ``e`` kept where it makes the word (:data:`memdir.text.words.KEPT_E`: ``route`` is no ``rout``), a name's JS kind the name (``nodejs`` is ``node``:
  :func:`kinds_joined`, :func:`kind_spelled`), one word not a word derived from it
  (:func:`memdir.search.spelling.derived`), the -yze verb and its -ysis noun, a British spelling its American
  word (:func:`american`: ``colour`` is ``color``, ``organisation`` ``organization``). A Latin word with accents is
  ASCII once folded (``Zürich`` → ``zurich``), so English rules are the Latin script's.
* Russian letters (``а``–``я``): the Snowball Russian stemmer (``логи``, ``логах``, ``логов`` → ``лог``;
  ``лось`` → ``ло``). A Cyrillic word with a letter of another alphabet (Ukrainian ``і ї є ґ``, Serbian ``ј``,
  Belarusian ``ў``) is not Russian and stays as it is.
* Greek letters (``α``–``ω``): the Snowball Greek stemmer (``διακομιστής``, ``διακομιστη``, ``διακομιστών`` →
  ``διακομ``).

A stem of fewer than :data:`MIN_STEM` letters stands for too many words (Greek ``μου`` → ``μ``, ``για`` → ``γ``):
the word stays whole. Any other word (digits, mixed scripts, other scripts) is its own term. The stemmers come from
the ``snowballstemmer`` package (the ``search`` extra).
"""

from __future__ import annotations

import re
from functools import lru_cache

from ..text.words import (BRITISH_ISE, BRITISH_OUR, BRITISH_WORDS, IRREGULAR_PLURALS, IRREGULAR_VERBS, KEPT_E,
                          SHORT_FORMS)
from . import spelling

MIN_STEM = 2
"""Letters at least of a Russian or Greek stem; a shorter stem leaves the word whole."""

_SCRIPTS = (("russian", re.compile("[а-я]+")), ("greek", re.compile("[α-ω]+")))
"""Each stemmer other than English with the folded words it reads (whole words of its alphabet)."""


_ALONE = "_memdir_snowball"  # the package's directory under this name: its stemmers without its __init__


def _alone(language: str):
    """The pure-Python stemmer class of ``language`` loaded from ``snowballstemmer``'s own files without its
    ``__init__``, which imports the stemmers of all 34 languages (≈ 75M instructions of a fresh process) where a
    query uses one to three. None where the package would not be read so: it is loaded or blocked already, it
    would hand out PyStemmer's C stemmers (``Stemmer`` installed), or its files are laid out otherwise."""
    import sys
    from importlib import import_module
    from importlib.machinery import PathFinder

    if "snowballstemmer" in sys.modules or PathFinder.find_spec("Stemmer") is not None:
        return None
    try:
        if _ALONE not in sys.modules:
            spec = PathFinder.find_spec("snowballstemmer")
            if spec is None or not spec.submodule_search_locations:
                return None
            package = type(sys)(_ALONE)
            package.__path__ = list(spec.submodule_search_locations)
            sys.modules.setdefault(_ALONE, package)
        return getattr(import_module(f"{_ALONE}.{language}_stemmer"), f"{language.capitalize()}Stemmer")
    except (ImportError, AttributeError):
        return None


@lru_cache(maxsize=None)
def _stemmer(language: str = "english"):
    alone = _alone(language)
    if alone is not None:
        return alone()
    try:
        import snowballstemmer
    except ImportError:
        from ..errors import MissingExtra

        raise MissingExtra("search", "search", "snowballstemmer") from None
    return snowballstemmer.stemmer(language)


def snowball() -> str | None:
    """The Snowball release the English stemmer was generated from (``"3.1.1"``, as its class says), None when
    it does not say (PyStemmer's C stemmer): what :mod:`memdir.search.wordstems` was computed with. Raises
    :class:`memdir.errors.MissingExtra` without ``snowballstemmer``."""
    found = re.search(r"Snowball (\d[\w.]*)", type(_stemmer()).__doc__ or "")
    return found.group(1) if found else None


def available() -> bool:
    """True when the tokenizer can run (the ``search`` extra is installed)."""
    from ..errors import MissingExtra

    try:
        _stemmer()
    except MissingExtra:
        return False
    return True


def require() -> None:
    """Check that the tokenizer can run: raises :class:`MissingExtra` naming
    the ``search`` extra when ``snowballstemmer`` is not installed, before any
    text is indexed or searched half-stemmed."""
    _stemmer()


def language(word: str) -> str | None:
    """The Snowball stemmer that reads the folded ``word`` (see the module): ``"english"`` for ASCII letters,
    ``"russian"`` for Russian letters, ``"greek"`` for Greek ones; None for any other word (digits, mixed
    scripts, other alphabets). Pure."""
    if word.isascii():
        return "english" if word.isalpha() else None
    for name, letters in _SCRIPTS:
        if letters.fullmatch(word):
            return name
    return None


@lru_cache(maxsize=65536)
def stem(word: str) -> str:
    """The stem of a folded ``word`` (:func:`memdir.text.fold.fold`) by its script's stemmer (:func:`language`;
    the module): Snowball English for ASCII letters with memdir's English rules, Snowball Russian for Russian
    letters (``логах`` → ``лог``), Snowball Greek for Greek ones (``διακομιστησ`` → ``διακομ``); any other word
    unchanged. In English a short form of :data:`memdir.text.words.SHORT_FORMS`, or its
    plural, stems as its long form (``prod``, ``prods`` → ``product``;
    ``db`` → ``databas``); an irregular plural of
    :data:`memdir.text.words.IRREGULAR_PLURALS` as its singular (``mice`` →
    ``mous``); a past form of :data:`memdir.text.words.IRREGULAR_VERBS` as its base (``wrote``, ``written`` →
    ``write``); a word of :data:`memdir.text.words.KEPT_E` keeps its ``e`` (``routes``, ``routing`` → ``route``;
    ``rout`` → ``rout``); a -yze verb and its -ysis noun alike (``analyze``,
    ``analyses``, ``analysis`` → ``analys``). Raises :class:`memdir.errors.MissingExtra` without
    ``snowballstemmer``."""
    script = language(word)
    if script is None:
        return word
    if script != "english":
        out = _stemmer(script).stemWord(word)
        return out if len(out) >= MIN_STEM else word
    if word in SHORT_FORMS:
        return stem(SHORT_FORMS[word])
    word = american(word)  # colour is color, organise organize: one stem for both spellings
    if word.endswith("js") and len(word) >= 3 + len("js"):  # nodejs, vuejs: Node, Vue (no English word ends so)
        return stem(word[:-2])
    word = IRREGULAR_PLURALS.get(word, word)  # mice is mouse
    word = IRREGULAR_VERBS.get(word, word)  # wrote, written are write
    if len(word) < 3:
        return word
    english = _stemmer().stemWord
    out = english(word)
    if out + "e" in KEPT_E and word not in (out, out + "s") and (word in (out + "e", out + "es") or KEPT_E[out + "e"]):
        return out + "e"  # route, routes, routing: not rout; suite(s), not suit, suited
    if out != word:  # a word, not one derived from it (publicity is not public): spelling.derived
        kept = spelling.derived(word, out, english)
        if kept != out:
            return kept
    if out in SHORT_FORMS:
        return stem(SHORT_FORMS[out])
    # The -yze verb and its -ysis noun are one word (analyze, analyse, analysis, analyses: analys); Snowball
    # leaves analyz, analys and analysi. Only those two families end so after stemming.
    if out.endswith("yz"):
        return out[:-1] + "s"
    return out[:-1] if out.endswith("ysi") else out


# The endings a British -our noun or -ise verb is written with (memdir.text.words.BRITISH_OUR, BRITISH_ISE).
_OUR = re.compile(r"([a-z]+our)(s|ed|ing|ful|fully|less|able|ably|ite|ites|ism|ist|ists|al|ally|er|ers|y|hood|hoods)?")
_ISE = re.compile(r"([a-z]+)is(e|es|ed|ing|er|ers|ation|ations|ational|able)")
_WORD_FORMS = ("", "s")  # a single word's forms (BRITISH_WORDS); an -re noun also -red and -ring (centred)


@lru_cache(maxsize=1)
def _british_words() -> dict[str, str]:
    out: dict[str, str] = {}
    for british, us in BRITISH_WORDS.items():
        out.update({british + end: us + end for end in _WORD_FORMS})
        if british.endswith("re") and us.endswith("er"):
            out.update({british + "d": us + "ed", british[:-1] + "ing": us + "ing"})
    return out


def american(word: str) -> str:
    """A folded English ``word`` written in a British spelling as the American one, else ``word`` unchanged: an -our
    noun of :data:`memdir.text.words.BRITISH_OUR` with its endings (``colour``, ``coloured``, ``favourite`` →
    ``color``, ``colored``, ``favorite``), an -ise verb of :data:`~memdir.text.words.BRITISH_ISE`'s bases with its
    endings (``organise``, ``serialiser``, ``initialisation`` → ``organize``, ``serializer``, ``initialization``)
    and a word of :data:`~memdir.text.words.BRITISH_WORDS` with its plural (``centres``, ``licence``, ``grey`` →
    ``centers``, ``license``, ``gray``; an -re noun also ``centred``, ``centring``). Closed lists: a word spelled
    alike on both sides of the ocean (``revise``, ``contour``) is itself. Pure."""
    if len(word) < 4 or not word.isascii():
        return word
    if "our" in word and (found := _OUR.fullmatch(word)) and found.group(1) in BRITISH_OUR:
        return found.group(1)[:-2] + "r" + (found.group(2) or "")
    if "is" in word and (found := _ISE.fullmatch(word)) and found.group(1) in BRITISH_ISE:
        return found.group(1) + "iz" + found.group(2)
    return _british_words().get(word, word)


# A name and its JavaScript kind as a code base writes them: "Node.js", "Node.JS", "NodeJS", "nodejs"; the name of
# three letters or more, not after a dot (a file's "webpack.config.js"), the kind not running on into a word.
_NAME_JS = re.compile(r"(?<![\w.])([^\W\d_]{3,})\.?js(?![\w]|\.\w)", re.IGNORECASE)


def kinds_joined(text: str) -> str:
    """``text`` with each name written with its JavaScript kind one word of the name and ``js``: ``Node.js``,
    ``Node.JS``, ``NodeJS`` → ``Nodejs``, which :func:`stem` reads as the name and :func:`kind_spelled` also as
    itself; ``webpack.config.js`` and ``.js`` alone unchanged. Pure."""
    return _NAME_JS.sub(r"\1js", text) if "js" in text or "JS" in text or "Js" in text else text


def kind_spelled(word: str) -> tuple[tuple[str, str], ...]:
    """``((the word as its own term, the name's term),)`` for a name written with its JavaScript kind
    (``Nodejs`` → ``(("nodejs", "node"),)``; :func:`kinds_joined` wrote ``Node.js`` so): a second spelling of the
    name, as an umlaut written out is (:func:`memdir.search.compounds.joined_parts`: it weighs nothing of its own),
    so ``Node``, ``Node.js`` and ``nodejs`` meet in memories and queries alike; ``()`` for any other word."""
    folded = word.casefold()
    if len(folded) < 5 or not folded.endswith("js") or not folded.isascii() or not folded.isalpha():
        return ()
    return ((folded, stem(folded)),)


__all__ = ["MIN_STEM", "american", "available", "kind_spelled", "kinds_joined", "language", "require", "snowball",
           "stem"]
