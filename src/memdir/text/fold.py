"""Folding: the one rule for which letters a person types alike, used by memory names
(:func:`memdir.text.names.normalize_name`, :func:`~memdir.text.names.spelling`) and by search's
tokenizer (:mod:`memdir.search.tokenize`), so a name and a search term fold the same way.

:func:`fold` of a text is the text:

* in Unicode NFKC (``ｃａｆｅ`` is ``cafe``, ``ﬁ`` is ``fi``, ``①`` is ``1``), case-folded
  (``Straße`` is ``strasse``, ``İ`` is ``i`` with a dot above);
* with the accents of Latin letters dropped, as a person types a word without them: a letter
  whose decomposition (NFKD) is an ASCII letter and combining marks is that letter (``Zürich``
  → ``zurich``, ``Nẵng`` → ``nang``), and a combining mark written after a Latin letter is dropped
  (``i̇stanbul`` → ``istanbul``);
* with the Latin letters that do not decompose spelled as they are typed in ASCII
  (:data:`LATIN_SPELLED`: ``ø`` → ``o``, ``æ`` → ``ae``, ``ł`` → ``l``, ``þ`` → ``th``…), also
  under an accent (``ǿ`` → ``o``, ``ǣ`` → ``ae``).

* Greek without its accents and breathings, as Greek is typed and capitalized: a letter whose
  decomposition is a Greek letter and combining marks is that letter, and a combining mark after a
  Greek letter is dropped (``Σημειώσεις`` → ``σημειωσεισ``, ``ΐ`` → ``ι``, ``Ϊ`` → ``ι``; case-folding
  already makes the final ``ς`` and capital ``Σ`` one ``σ``);
* Cyrillic ``ё`` as ``е`` (:data:`CYRILLIC_SPELLED`: Russian is written and searched without its
  dots: ``Ёлка`` → ``елка``), and a stress mark (a combining acute) after a Cyrillic letter dropped
  (``заме́тки`` → ``заметки``). ``й`` stays ``й`` (another letter than ``и``: ``мой`` is not ``мои``),
  as do the letters that carry a mark in their own alphabet (Ukrainian ``ї``, Macedonian ``ѓ``,
  Belarusian ``ў``).
* Hebrew without its points and cantillation (niqqud: ``שָׁלוֹם`` → ``שלום``) and Arabic without its harakat
  (``الخادِمُ`` → ``الخادم``, Persian and Urdu alike) nor the tatweel that stretches a word (``قاعـــدة`` →
  ``قاعدة``): marks a person writes only in teaching texts, scripture and names, and types without (break13).
  The hamza and madda that make a letter (``أ``, ``آ``, composed by NFKC) stay.
* the digits of every script as ASCII digits (Arabic-Indic ``٥٤٣٣``, Persian ``۵۴۳۳``, Devanagari ``५४३३`` →
  ``5433``: a port, a version or a date is one number however its digits are drawn; break13). Numerals that
  are words (``五``, ``Ⅻ`` is ``xii`` by NFKC) are not digits.

German umlauts have a second spelling (:func:`umlauts_spelled`): ``Müller`` is also written ``Mueller``,
``Göthe`` ``Goethe``. Search reads a word written with one as both (``muller`` and ``mueller``); a word written
without one is only itself, so no ``ue`` of another word is read as an umlaut (``blue``, ``queue``, ``does``,
``canoe``, ``aerial``).

Japanese writes one word in katakana or in hiragana (``カナダ``, ``かなだ``; ``ドッカー``, ``どっかー``): search reads
a query's term in either script as the same term written in the other (:func:`kana_spellings`, half-width
katakana by NFKC first; small kana stay small, the long-vowel mark ``ー`` stays: hiragana writes it too). The text
itself keeps its script, in the index and in names (a name's hash, its file's address in every store, is as it
was): hiragana is what Japanese writes its grammar in, and search weighs a query's hiragana so.

Arabic and Persian draw two letters with two code points each (Arabic ``ك ي``, Persian ``ک ی``: the key a
keyboard of either gives), and Arabic writes a noun with or without its article (``خادم``, ``الخادم``: server, the
server) as Hebrew does (``שרת``, ``השרת``): search reads a query's term in these spellings too
(:func:`script_spellings`; break40recall). The index and names keep the text as written.

Other scripts keep their marks: a Devanagari vowel sign or a kana's dakuten is part of the word
(``ガイド`` is not ``カイト``), not an accent.

Pure, standard library only.
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache

LATIN_SPELLED = {
    "ø": "o", "æ": "ae", "œ": "oe", "ł": "l", "đ": "d", "ð": "d", "þ": "th", "ı": "i", "ħ": "h", "ŧ": "t",
    "ß": "ss", "ȷ": "j",
}
"""Latin letters (case-folded) with no decomposition, and how a person types each without it:
Danish and Norwegian ``ø æ``, French ``œ``, Polish ``ł``, Vietnamese and Croatian ``đ``, Icelandic
``ð þ``, Turkish ``ı``, Maltese ``ħ``, Sámi ``ŧ``, German ``ß`` (case-folding already spells it
``ss``), the dotless ``ȷ``."""


CYRILLIC_SPELLED = {"ё": "е"}
"""Cyrillic letters (case-folded) a person types as another: Russian ``ё`` as ``е``."""

UMLAUTS = {"ä": "ae", "ö": "oe", "ü": "ue"}
"""The German umlauts (case-folded) and how German writes each without it."""

UMLAUT_MIN = 4
"""Letters of the shortest word whose umlauts :func:`umlauts_spelled` writes out: a shorter one's second spelling
is mostly another word (``hü`` → ``hue``, ``dö`` → ``doe``, ``blü`` → ``blue``)."""

ARABIC_LETTERS = {"\u0643": "\u06a9", "\u064a": "\u06cc"}
"""Arabic letters (``ك`` kaf, ``ي`` yeh) and the Persian letter that is the same letter drawn apart (``ک``, ``ی``)."""
_ARABIC_OF = {v: k for k, v in ARABIC_LETTERS.items()}

ARABIC_ARTICLE = "\u0627\u0644"
"""Arabic's definite article ``ال``, written joined to its noun."""

HEBREW_ARTICLE = "\u05d4"
"""Hebrew's definite article ``ה``, written joined to its noun (one of the prefixes
:func:`memdir.search.terms.near_forms` takes off a query's word: :data:`memdir.text.words.HEBREW_PREFIXES`)."""

ARTICLE_MIN = 3
"""Letters at least of a noun :func:`script_spellings` reads with its article (or, Arabic, without it): a shorter
one is mostly another word (Hebrew ``הר`` is a mountain, not the article before ``ר``); Hebrew's own rule is as
long (:data:`memdir.text.words.HEBREW_REST`)."""

_KATAKANA_FIRST, _KATAKANA_LAST, _KANA_OFFSET = 0x30A1, 0x30F6, 0x60  # ァ..ヶ, each its hiragana 0x60 before
_HIRAGANA_FIRST, _HIRAGANA_LAST = _KATAKANA_FIRST - _KANA_OFFSET, _KATAKANA_LAST - _KANA_OFFSET  # ぁ..ゖ
_ITERATION = {"\u30fd": "\u309d", "\u30fe": "\u309e"}  # ヽ ヾ: the katakana iteration marks, hiragana ゝ ゞ
_ITERATION_BACK = {v: k for k, v in _ITERATION.items()}

_STRESS = "\u0301"  # COMBINING ACUTE ACCENT: a stress mark on a Cyrillic vowel
_HEBREW_POINTS = ("\u0591", "\u05c7")  # cantillation and points (niqqud): every combining mark of the Hebrew block
_ARABIC_MARKS = frozenset(map(chr, [*range(0x0610, 0x061B), *range(0x064B, 0x0653), *range(0x0656, 0x0660), 0x0670,
                                    *range(0x06D6, 0x06DD), *range(0x06DF, 0x06E5), 0x06E7, 0x06E8,
                                    *range(0x06EA, 0x06EE)]))
"""Arabic's optional marks: harakat (fatha, damma, kasra, sukun, shadda, tanwin), the dagger alef and Quranic
annotation; not the hamza and madda above or below (U+0653-U+0655), which make a letter (``أ`` is ``ا`` + hamza)."""
_TATWEEL = "\u0640"  # ARABIC TATWEEL (kashida): stretches a word in print, no letter of it


@lru_cache(maxsize=4096)
def _fold_letter(letter: str) -> str:
    spelled = LATIN_SPELLED.get(letter) or CYRILLIC_SPELLED.get(letter)
    if spelled is not None:
        return spelled
    parts = unicodedata.normalize("NFKD", letter)
    base = parts[:1]
    if not all(unicodedata.combining(c) for c in parts[1:]):
        return letter
    if (base.isascii() and base.isalpha()) or _greek(base):
        return base
    return LATIN_SPELLED.get(base, letter)  # ǿ is ø under an accent


def _latin(c: str) -> bool:
    return c.isascii() and c.isalpha()


def _greek(c: str) -> bool:
    return ("\u0370" <= c <= "\u03ff" or "\u1f00" <= c <= "\u1fff") and c.isalpha()


def _cyrillic(c: str) -> bool:
    return "\u0400" <= c <= "\u04ff" and c.isalpha()


def _hebrew(c: str) -> bool:
    return "\u05d0" <= c <= "\u05f2" and c.isalpha()


def _arabic(c: str) -> bool:
    return ("\u0620" <= c <= "\u06ff" or "\u0750" <= c <= "\u077f" or "\u08a0" <= c <= "\u08ff") and c.isalpha()


def _accent_of(mark: str, letter: str, older: bool = False) -> bool:
    """True when the combining ``mark`` written after ``letter`` (a folded letter, or '') is an accent a
    person types the word without: any mark on a Latin or Greek letter, a stress mark on a Cyrillic one, a point
    on a Hebrew letter, a haraka on an Arabic one (those two not when ``older``: before break13)."""
    return (_latin(letter) or _greek(letter) or (mark == _STRESS and _cyrillic(letter))
            or (not older and _HEBREW_POINTS[0] <= mark <= _HEBREW_POINTS[1] and _hebrew(letter))
            or (not older and mark in _ARABIC_MARKS and _arabic(letter)))


def fold(text: str, older: bool = False) -> str:
    """``text`` as a person types it (see the module): NFKC, case-folded, Latin letters without
    their accents and spelled in ASCII (``Łódź`` → ``lodz``, ``København`` → ``kobenhavn``,
    ``Straße`` → ``strasse``, ``Đà Nẵng`` → ``da nang``, ``Cœur`` → ``coeur``, ``Işık`` →
    ``isik``, ``İstanbul`` → ``istanbul``), Greek letters without their accents (``Συστήματος`` →
    ``συστηματοσ``), Cyrillic ``ё`` as ``е`` (``Ёлка`` → ``елка``), Hebrew without points and Arabic without
    harakat or tatweel (``שָׁלוֹם`` → ``שלום``, ``قاعـــدة`` → ``قاعدة``), the digits of every script as ASCII
    digits (``٥٤٣٣``, ``५४३३``, ``۵۴۳۳`` → ``5433``); other characters (other scripts and their marks,
    punctuation, spaces) as NFKC and case-folding leave them. Never raises for a ``str``; an ASCII text is only
    lower-cased. ``older``: the fold before break13 — Hebrew points, Arabic harakat, tatweel and other scripts'
    digits kept (what a hash name of then was made of: :func:`memdir.text.names.legacy_names`)."""
    if text.isascii():
        return text.lower()
    out: list[str] = []
    for c in unicodedata.normalize("NFKC", text).casefold():
        if c.isascii():
            out.append(c)
        elif unicodedata.combining(c):
            if not (out and _accent_of(c, out[-1][-1:], older)):  # an accent (a mark on a Latin letter…): dropped
                out.append(c)
        elif older:
            out.append(_fold_letter(c))
        elif c.isdecimal():  # a digit of any script: a person types the number in ASCII digits
            out.append(str(unicodedata.decimal(c)))
        elif c != _TATWEEL:
            out.append(_fold_letter(c))
    return "".join(out)


def lone_letter(word: str) -> str | None:
    """``word`` as search reads it when it is one Latin letter written with an accent or a letter of its own
    (``ở``, ``É``, ``à``, ``ø``): case-folded, NFC, the accent kept (``ở``, ``é``) — folded it would be another
    word, the letter alone (Vietnamese ``ở``, "at", was found by a search of ``o``; search41). None for any other
    word (``o``, ``ab``, ``é1``; a letter whose fold is no ASCII letter, ``я``, ``ß``). Pure; never raises for a ``str``."""
    if len(word) != 1 or word.isascii() or not word.isalpha():
        return None
    folded, alone = fold(word), unicodedata.normalize("NFC", word.casefold())
    return alone if len(folded) == 1 and folded.isascii() and alone != folded else None


def umlauts_spelled(word: str) -> str | None:
    """``word`` (one word, as written) with its German umlauts written out (:data:`UMLAUTS`: ``ä`` → ``ae``,
    ``ö`` → ``oe``, ``ü`` → ``ue``), then folded (:func:`fold`): ``Müller`` → ``mueller``, ``Göthe`` →
    ``goethe``, ``Größe`` → ``groesse``. None for a word without an umlaut (``Mueller``, ``blue``) or of fewer
    than :data:`UMLAUT_MIN` letters (``blü``). Pure; never raises for a ``str``."""
    if word.isascii() or len(word) < UMLAUT_MIN:
        return None
    text = unicodedata.normalize("NFKC", word).casefold()
    if not any(c in UMLAUTS for c in text):
        return None
    return fold("".join(UMLAUTS.get(c, c) for c in text))


def hiragana(text: str) -> str:
    """``text`` with its katakana written in hiragana (NFKC first: half-width ``ｶﾞ`` is ``ガ``): ``ドッカー`` →
    ``どっかー``, small ones small (``ッ`` → ``っ``, ``ヵ`` → ``ゕ``), voiced ones voiced (``ガ`` → ``が``), ``ヽヾ``
    → ``ゝゞ``; the long-vowel mark ``ー``, the katakana with no hiragana (``ヷ``–``ヺ``) and every other character as
    they are. Pure."""
    out = []
    for c in unicodedata.normalize("NFKC", text):
        code = ord(c)
        out.append(chr(code - _KANA_OFFSET) if _KATAKANA_FIRST <= code <= _KATAKANA_LAST else _ITERATION.get(c, c))
    return "".join(out)


def katakana(text: str) -> str:
    """``text`` with its hiragana written in katakana, the inverse of :func:`hiragana`: ``かなだ`` → ``カナダ``,
    ``っ`` → ``ッ``, ``ー`` and every other character as they are. Pure."""
    out = []
    for c in unicodedata.normalize("NFKC", text):
        code = ord(c)
        out.append(chr(code + _KANA_OFFSET) if _HIRAGANA_FIRST <= code <= _HIRAGANA_LAST else _ITERATION_BACK.get(c, c))
    return "".join(out)


def kana_spellings(term: str) -> tuple[str, ...]:
    """The other spellings of ``term`` (a search term: a CJK bigram or one character) in kana: all its kana in
    hiragana and all in katakana, those that differ from it (``カナ`` → ``("かな",)``, ``かー`` → ``("カー",)``,
    ``イか`` → ``("いか", "イカ")``); ``()`` for a term without kana (``部署``, ``docker``). Pure."""
    if term.isascii():
        return ()
    return tuple(dict.fromkeys(t for t in (hiragana(term), katakana(term)) if t != term))


def script_spellings(term: str) -> tuple[str, ...]:
    """The other spellings of ``term`` (a folded search term) that search reads as the same term: its other kana
    (:func:`kana_spellings`), its Arabic letters in Persian and its Persian ones in Arabic (:data:`ARABIC_LETTERS`:
    ``كرمانشاه`` → ``کرمانشاه``), and each of those with Arabic's article (:data:`ARABIC_ARTICLE`) taken off or put
    on (``خادم`` → ``الخادم``, ``الخادم`` → ``خادم``); a Hebrew word with its article put on (:data:`HEBREW_ARTICLE`:
    ``שרת`` → ``השרת``; taking Hebrew's prefixes off a query's word is :func:`memdir.search.terms.near_forms`'s). A
    noun of :data:`ARTICLE_MIN` letters at least, all of the article's script. Those that differ from ``term``, in
    that order; ``()`` for an ASCII term. Pure."""
    if term.isascii():
        return ()
    found = list(kana_spellings(term))
    persian = "".join(ARABIC_LETTERS.get(c, c) for c in term)
    arabic = "".join(_ARABIC_OF.get(c, c) for c in term)
    for form in dict.fromkeys((term, persian, arabic)):
        found.append(form)
        bare = form.removeprefix(ARABIC_ARTICLE)
        if len(bare) >= ARTICLE_MIN and all(_arabic(c) for c in bare):
            found.append(ARABIC_ARTICLE + bare if bare == form else bare)
    if len(term) >= ARTICLE_MIN and all(_hebrew(c) for c in term):
        found.append(HEBREW_ARTICLE + term)
    return tuple(dict.fromkeys(t for t in found if t != term))


__all__ = [
    "ARABIC_ARTICLE",
    "ARABIC_LETTERS",
    "ARTICLE_MIN",
    "CYRILLIC_SPELLED",
    "HEBREW_ARTICLE",
    "LATIN_SPELLED",
    "UMLAUTS",
    "UMLAUT_MIN",
    "fold",
    "hiragana",
    "kana_spellings",
    "katakana",
    "lone_letter",
    "script_spellings",
    "umlauts_spelled",
]
