"""Memory names: the kebab-case file stem every memory is addressed by.

Rules (seed-behaviour §A3, with DESIGN §3's fixes):

* NFC (a name composed and the same name decomposed are one name), trim,
  fold as search folds (:func:`memdir.text.fold.fold`: NFKC, case-folded, Latin
  letters without accents and spelled in ASCII: ``Café`` → ``cafe``, ``Łódź`` →
  ``lodz``, ``Straße`` → ``strasse``), every run outside ``[a-z0-9]`` becomes one ``-``, strip
  ``-`` at both ends, cut to 64 characters, strip a ``-`` the cut exposed (the
  seed threw there);
* a name holding a letter or digit the fold leaves outside ASCII (``中文记忆``,
  ``Заметки-Проекта``, ``배포-v2``) gets a stable slug ``m-<10 hex of SHA-256
  of the name's spelling>`` (:func:`spelling`: folded, without spaces, ``-``
  and ``_``) and the original is kept as the memory's ``title``: so a name in a
  compatibility form (half-width ``ｿｰｽ``, ``ｶﾞｲﾄﾞ``; an ideographic space), in
  capitals, without its accents or spaced otherwise (``ЗАМЕТКИ-ПРОЕКТА``,
  ``Σημειωσεις``, ``заметки проекта``) is the memory of its usual form, and two
  names spelled otherwise (``C++ ドキュメント``, ``C# ドキュメント``) never share a
  file; of the whole name, so ``배포-v2`` and ``デプロイ-v2`` are two names (their
  Latin part alone named both ``v2`` before);
* a memory an older memdir stored under another file name is still the memory of
  its name (:func:`legacy_names`, which every lookup and the write gateway try
  next: :mod:`memdir.gateway.naming`): before issue 28 a hash was of the NFC text
  (``ｿｰｽ``), and letters that do not decompose were dropped (``Łódź-notes`` was
  ``odz-notes``, ``Straße`` ``stra-e``, ``Ø`` a hash); until a name's other
  scripts were folded, a hash was of the NFKC text as written (``Заметки`` and
  ``ЗАМЕТКИ`` two hashes), and a name with a Latin letter or digit was named by
  its Latin part alone (``배포-v2`` was ``v2``);
* a trailing ``.md`` in any case names the same memory (``my-rules.md`` is
  ``my-rules``: the index links file names and models call them so);
* ``memory`` (collides with ``MEMORY.md`` on case-insensitive file systems) and
  the Windows device names are reserved; control characters (C0, DEL, C1) and
  line breaks (U+2028, U+2029 too) are rejected, on every path alike (a write that dropped a C1
  control from a name left a memory its own spelling could not read — issue 13).

**Characters that show as nothing** (Unicode's format characters, Cf, and the other default ignorables):
one rule, every path alike — the CLI, the MCP tools, the memory tool, the panel, imports and
consolidation all normalize a name here, reads and writes (names26):

* **Dropped**: every character :mod:`memdir.text.printable` says is hidden in a one-line field
  (:func:`memdir.text.printable.unhidden`, by Unicode class: every format character, Cf — the zero-width
  space, word joiner, BOM, soft hyphen, LRM/RLM/ALM marks, the bidi embeddings, overrides and isolates, the
  tag characters, the shorthand and Egyptian hieroglyph format controls — and every other default
  ignorable: the Hangul fillers, a variation selector that draws nothing; text38). A
  person reads ``deploy\\u200bnotes`` as ``deploynotes``, so that is its name: a read of either spelling
  finds the memory, and a write says what it dropped (:func:`hidden_note`). Before, a zero-width
  character was dropped with a warning that called it a "control or bidi character" while a bidi
  control was refused — by one path (the operations' lookup) and dropped by another (the gateway's
  field cleaning, which an import reached directly): two rules. Refusing them all would refuse a name
  a person cannot see anything wrong with, and lose an import's memory; dropping them, with the write
  saying which, loses nothing and is what every other one-line field (title, description) already does.
  A bidi override is dropped too: the name is then stored in its logical order, which is what every
  renderer shows (none of them ever shows a bidi control), and the warning names the override.
* **ZWJ and ZWNJ** (U+200D, U+200C) choose how letters join, never which letters they are: a
  Persian plural (``یادداشت\\u200cها``), an Indic half form after a virama (``क्\\u200dष``), an emoji sequence
  (👩\\u200d💻). Where a script joins with them — between two characters that are letters, marks or
  symbols of a script other than Latin and ASCII (:func:`_joins`) — they are kept in the name as written
  (its title); anywhere else (``deploy\\u200dnotes``) they show as nothing and are dropped as above.
  Kept or not, they are no part of a name's identity (:func:`spelling`, the hash slug): ``یادداشت\\u200cها``,
  ``یادداشتها`` and ``یادداشت ها`` — the same word typed with a ZWNJ, without it, or with a space, as
  Persian keyboards differ — are one name, as spaces are no part of one. A memory stored before under
  the spelling that counted them is still found (:func:`legacy_names`).
* **Controls** (C0, DEL, C1) and **line breaks** (U+2028, U+2029 too) are refused, as before: they show as
  something broken, not as nothing — a name that holds one is not text a person meant as a name. Leading
  and trailing ones too (``seed\n`` is refused as ``seed\x00`` is, not read as ``seed``: text38).
* **Characters memdir cannot name** are refused: unassigned in this Python's Unicode (Cn: perhaps a later
  Unicode's format control — U+13439 is one in Unicode 15, unassigned in Python 3.11's 14 — or a letter
  whose slug would change once Python knows it) and private use (Co): what printable's rule drops from a
  one-line field for what it is not (:func:`_unknown`). A code point of the blocks Unicode reserves for
  pictographs, unassigned in this Python (a newer emoji: 🩵 U+1FA75 on Python 3.11), is kept by that rule and
  named as every emoji is (a separator of the slug). A memory stored under a name that
  held a format character outside printable's list of then (U+1BCA0, a separator of its slug then) is
  still found by that name (:func:`legacy_names`).

Two raw names that normalize to one file name are **the same name** only when
they are spelled alike (:func:`spelling`: differing in case, accents, spaces,
``-`` and ``_`` only). ``C++ tips`` and ``C# tips`` both give ``c-tips`` but
are different names: the gateway refuses the second rather than overwrite
the first, and :func:`memdir.gateway.fields.distinct_name` suggests another.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from ..errors import InvalidName
from ..paths import sha256
from .fence import escape_fence_tags
from .fold import fold
from .printable import (
    BIDI_CONTROLS,
    INVISIBLE,
    JOINERS,
    LINE_BREAKS,
    TAGS,
    clipped,
    one_line,
    unhidden,
    visible,
)

MAX_NAME_CHARS = 64
_NON_SLUG = re.compile(r"[^a-z0-9]+")
_VALID = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")
# The controls (Cc: C0, DEL, C1) and every line break a reader splits on (printable.LINE_BREAKS, U+2028/U+2029 among
# them): refused, where printable's rule drops or breaks on them (a name holding one is not text meant as a name).
_CONTROL = re.compile(f"[\x00-\x1f\x7f-\x9f{LINE_BREAKS}]")
# What showed as nothing before text38 (printable's list then: INVISIBLE, the bidi controls, the tag characters): no
# rule of today (today's is printable.unhidden, :func:`_visible_text`), only the reading of the file names an older
# memdir gave (legacy_names); printable keeps those lists as they were for it.
_HIDDEN = re.compile(f"[{INVISIBLE}{BIDI_CONTROLS}{TAGS}]")
# The interlinear annotation marks, hidden since left27: before, a name's slug read them as a separator.
_ANNOTATION_BEFORE = re.compile("[\ufff9-\ufffb]")
_JOINER = re.compile(f"[{JOINERS}]")
_MD_SUFFIX = re.compile(r"\.md\Z", re.I)
_DASHES = "\u2010-\u2015\u2212"  # hyphen, non-breaking hyphen, figure, en and em dash, bar, minus: a "-" typeset
_SPELLING_IGNORED = re.compile(f"[\\s_\\-{_DASHES}{JOINERS}]+")
_SPELLING_BEFORE = re.compile(f"[\\s_\\-{_DASHES}]+")  # before joiners were no part of a spelling (names26)
_HYPHENS_BEFORE = re.compile(r"[\s_\-]+")  # what a spelling dropped before break11 (a hash name of then)
RESERVED = frozenset(
    {"memory", "con", "prn", "aux", "nul"}
    | {f"com{i}" for i in range(10)}
    | {f"lpt{i}" for i in range(10)}
)


@dataclass(frozen=True)
class NormalizedName:
    """A normalized name and, for hash slugs, the original text to keep as title."""

    name: str
    title: str | None = None


def normalize_name(raw: str) -> NormalizedName:
    """Normalize ``raw`` to a memory name.

    Returns the kebab-case name (≤ 64 chars, ``[a-z0-9-]``) and, when the name
    had to be derived from a hash, the original as ``title``.

    Raises :class:`InvalidName` for a non-string, an empty name (or one of combining marks and
    spaces only: ``"\u0301\u0301"`` draws nothing of its own), a name holding
    control characters (``a\\x00b``, ``a\\x85b``), bidi controls
    (``a\\u202eb``) or a lone surrogate (bytes that were not UTF-8), or a
    reserved name (``memory``, ``CON``…).
    """
    if not isinstance(raw, str):
        raise InvalidName(f"memory name must be a string (got {type(raw).__name__})")
    # Checked on the name as given, before it is trimmed: "seed\n" is refused as "seed\x00" is (a panel URL's
    # seed%0a read as seed, text38), not read as another name.
    if _CONTROL.search(raw):
        raise InvalidName(f"memory name must not contain control characters or line breaks (got {raw!r})")
    if any("\ud800" <= c <= "\udfff" for c in raw):
        raise InvalidName(f"memory name is not valid Unicode text (undecodable bytes? got {raw!r})")
    unknown = _unknown(raw)
    if unknown:
        raise InvalidName(f"memory name holds {unknown}, which this memdir cannot name (got {raw!r})")
    text = raw_name(raw)
    if not text or not _unmarked(text).strip():  # combining marks alone ("\u0301\u0301") draw nothing of their own
        raise InvalidName("memory name is empty")
    return _named(text, raw)


def _named(text: str, raw: str) -> NormalizedName:
    """The normalized name of ``text`` (``raw`` as :func:`raw_name` gives it, non-empty)."""
    folded = fold(text)  # as search folds: Café → cafe, Łódź → lodz, ЗАМЕТКИ → заметки
    slug = _slug(folded)
    title = None
    if not slug or _other_script(folded):
        # Letters no slug spells (中文记忆, Заметки-v2): a stable slug of the whole name folded, the words kept.
        slug = _hashed(_SPELLING_IGNORED.sub("", folded))  # its spelling (see spelling): one hash per name
        title = text
    if slug in RESERVED:
        raise InvalidName(
            f"memory name {raw!r} is reserved ({slug!r} collides with MEMORY.md or a "
            "Windows device name); choose another name"
        )
    assert _VALID.match(slug), slug
    return NormalizedName(slug, title)


def _unknown(raw: str) -> str:
    """``""``, or what makes ``raw`` no name memdir can spell: a character printable's rule drops from a one-line
    field (:func:`memdir.text.printable.unhidden`) for what it is not — unassigned in this Python's Unicode (Cn: a
    later Unicode's format control, or a letter whose name would change once Python knows it) or of private use
    (Co: a glyph of a private font, one reader's letter and another's box) —, refused where a format character is
    dropped: a name that held one would be another name on a newer Python or another reader. A code point
    printable keeps (a newer emoji than this Python knows, in the blocks Unicode reserves for pictographs: 🩵
    U+1FA75 on Python 3.11) is named as every emoji is, a separator of the slug, never a letter of it."""
    if raw.isascii() or raw.isprintable():  # every Cn and Co is not printable
        return ""
    for c in raw:
        category = unicodedata.category(c)
        if category in ("Cn", "Co") and not unhidden(c):
            return f"U+{ord(c):04X} ({'unassigned' if category == 'Cn' else 'a private-use character'})"
    return ""


def _unmarked(text: str) -> str:
    """``text`` without its combining marks (Unicode categories Mn, Mc, Me): what a name shows of its own."""
    return "".join(c for c in text if not unicodedata.category(c).startswith("M"))


def _slug(folded: str) -> str:
    return _NON_SLUG.sub("-", folded).strip("-")[:MAX_NAME_CHARS].strip("-")


def _hashed(text: str) -> str:
    return "m-" + sha256(text.encode("utf-8")).hexdigest()[:10]


def _other_script(folded: str) -> bool:
    """True when ``folded`` (a folded name) holds a letter or digit outside ASCII, which a slug would drop."""
    return not folded.isascii() and any(c.isalnum() and not c.isascii() for c in folded)


_HASH_NAME = re.compile(r"m-[0-9a-f]{10}")


def hash_named(name: str) -> bool:
    """True when ``name`` is the form of a hash memdir gives a name with letters other than a-z
    (``m-c3f8ff75a0`` of ``部署流程``, ``m-7fc07a4770`` of ``Заметки-Проекта``; an older memdir's of
    ``ｿｰｽ`` or ``Ø`` too): a name that says nothing of the memory, whose title (the name as written)
    is what a person tells it by."""
    return _HASH_NAME.fullmatch(name) is not None


def shown_name(name: str, title: str | None) -> str:
    """A memory's name as a line that names it shows it (a listing, search hits, a recall block's heading and
    pointers): ``name``, and its title in quotes after it when the name is a hash (:func:`hash_named`:
    ``m-c3f8ff75a0 “部署流程”``, the title on one line, at most 120 UTF-8 bytes) — two such names alone cannot
    be told apart. Either name finds the memory. Not made printable here: a renderer or a fence does that."""
    return f"{name} “{clipped(' '.join(one_line(title).split()), 120)}”" if title and hash_named(name) else name


def asked_name(raw: str, name: str | None = None) -> str:
    """How an answer about a name (a "not found", a refusal) names it: as the person or the model
    asked it (``raw``, trimmed, every hidden character shown as its escape: :func:`visible`), in
    double quotes, and, when that differs, what memdir read it as (``name``, else ``raw``'s
    normalized name): ``"Deploy Notes" (read as "deploy-notes")``, ``"部署流程" (read as
    "m-c3f8ff75a0")``, ``"deploy\\u200bnotes" (read as "deploynotes")``; ``"deploy-notes"`` alone for a
    name asked as it is stored. A name that does not normalize (:class:`InvalidName`) is shown as
    asked. The one rule of every path (the CLI, the MCP tools, the API, the memory tool)."""
    asked = visible(raw.strip()) if isinstance(raw, str) else repr(raw)
    if name is None:
        try:
            name = normalize_name(raw).name
        except InvalidName:
            return f'"{asked}"'
    return f'"{asked}"' if asked == name else f'"{asked}" (read as "{name}")'


def legacy_names(raw: str) -> tuple[str, ...]:
    """The file names an older memdir gave ``raw`` where they differ from
    :func:`normalize_name`'s, the likelier first: the slug of the fold before
    issue 28 (NFKD, combining marks dropped, lower-cased: ``Łódź-notes`` →
    ``odz-notes``, ``Straße-notes`` → ``stra-e-notes``; a name left with no
    ``a-z`` or digit so, ``Ø`` or ``ß``, had the hash of its NFKC text), and
    the hash of the NFC text of a name hashed as written before NFKC
    (``ｿｰｽ`` → ``m-cef79eb96c``); before other scripts were folded, the slug of
    a name's Latin part (``배포-v2`` → ``v2``), and the hash of the NFKC text as
    written of a name with none (``Заметки-Проекта`` → ``m-664a715272``); before break13, the hash of a name
    spelled with its Hebrew points or Arabic harakat (``שָׁלוֹם-notes`` → ``m-59dbd3f329``) or with digits of
    another script (``port-٥٤٣٣``, today ``port-5433``).
    ``()`` for a name every memdir named alike (``db-port``, ``Café``,
    ``ソース``). Only names: whether the memory stored there is ``raw``'s is
    :func:`same_name`'s to say. Raises :class:`InvalidName` as
    :func:`normalize_name` does."""
    normalized = normalize_name(raw)
    text = raw_name(raw)
    # the fold before issue 28: letters that do not decompose (ł ø ß æ) were not letters of a name
    older = _slug("".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c)).lower())
    latin = _slug(fold(text))  # before other scripts were folded: the Latin part alone (배포-v2 was v2)
    found = [latin] if latin else []
    found.append(older if older else _hashed(unicodedata.normalize("NFKC", text)))  # NFKC as written: Заметки
    if not older:
        found.append(_hashed(text))  # before NFKC: the hash of the name as written (NFC)
    if normalized.title is not None:  # before break11 a typeset dash was part of a hash name's spelling
        found.append(_hashed(_HYPHENS_BEFORE.sub("", fold(text))))
    older_fold = fold(text, older=True)  # before break13: Hebrew points, Arabic harakat, tatweel, other digits kept
    if older_fold != fold(text) and _other_script(older_fold):  # a hash of then (שָׁלוֹם-notes, port-٥٤٣٣)
        found += [_hashed(_SPELLING_IGNORED.sub("", older_fold)), _hashed(_HYPHENS_BEFORE.sub("", older_fold))]
    if _ANNOTATION_BEFORE.search(raw):  # before left27 they were not hidden: a separator (deploy-notes)
        found.append(normalize_name(_ANNOTATION_BEFORE.sub("-", raw)).name)
    nfc = unicodedata.normalize("NFC", raw)
    if not raw.isascii() and _older_visible_text(nfc) != _visible_text(nfc):  # before text38: a format character
        older_text = _MD_SUFFIX.sub("", escape_fence_tags(_older_visible_text(nfc)).strip()).strip()  # a separator
        if older_text and _unmarked(older_text).strip():
            found.append(_named(older_text, raw).name)
    if _JOINER.search(raw):  # before names26 a ZWJ/ZWNJ was part of a name: deploy\u200dnotes was deploy-notes
        before = _MD_SUFFIX.sub("", escape_fence_tags(_HIDDEN.sub("", unicodedata.normalize("NFC", raw))).strip())
        folded = fold(before.strip())
        slug = _slug(folded)
        found.append(_hashed(_SPELLING_BEFORE.sub("", folded)) if not slug or _other_script(folded) else slug)
    return tuple(dict.fromkeys(n for n in found if n != normalized.name and n not in RESERVED))


def _joins(before: str, after: str) -> bool:
    """The joiners' rule of :func:`_older_visible_text` (frozen: today's is
    :func:`memdir.text.printable.unhidden`'s): True when a ZWJ or ZWNJ between ``before`` and ``after`` is one a
    script joins with — both letters, marks or symbols, neither ASCII nor a Latin letter."""
    return all(c and not c.isascii() and unicodedata.category(c)[0] in "LMS"
               and not unicodedata.name(c, "").startswith("LATIN") for c in (before, after))


def _visible_text(text: str) -> str:
    """``text`` (NFC) without what shows as nothing (the module docstring): one-line fields' rule,
    :func:`memdir.text.printable.unhidden` (a ZWJ or ZWNJ kept only where a script joins with it)."""
    if text.isascii():  # the common name: nothing hidden, no joiner
        return text
    return unhidden(text)


def _older_visible_text(text: str) -> str:
    """:func:`_visible_text` before text38: the characters of printable's list then, and a ZWJ or ZWNJ where no
    script joins with it (a shorthand format control, U+1BCA0, was a separator of a name's slug)."""
    text = _HIDDEN.sub("", text)
    if _JOINER.search(text) is None:
        return text
    out = []
    for i, c in enumerate(text):
        if c in JOINERS and not _joins(out[-1] if out else "", text[i + 1] if i + 1 < len(text) else ""):
            continue
        out.append(c)
    return "".join(out)


def hidden_note(raw: str) -> str | None:
    """What a write of a memory named ``raw`` says of the characters its name lost by the module docstring's rule, or
    None when it lost none: ``U+200B ZERO WIDTH SPACE removed from the name (it shows as nothing; the name is
    read as 'deploynotes')``, each character once, in order."""
    if not isinstance(raw, str) or raw.isascii():
        return None
    text = unicodedata.normalize("NFC", raw)
    kept = _visible_text(text)
    if kept == text:
        return None
    gone = list(text)
    for c in kept:  # what is left of text once kept's characters are taken out in order: the dropped ones
        gone.remove(c)
    shown = ", ".join(f"U+{ord(c):04X} {unicodedata.name(c, 'FORMAT CHARACTER')}" for c in dict.fromkeys(gone))
    return (f"{shown} removed from the name (a character that shows as nothing is no part of a name; it is read as "
            f"{raw_name(raw)!r})")


def raw_name(raw: str) -> str:
    """The name as written, in Unicode NFC, trimmed, without a trailing ``.md``
    (any case), without invisible characters (``部署\u200b流程`` is ``部署流程``)
    and with fence tags escaped as the gateway stores them
    (``<memory_context>`` is ``&lt;memory_context&gt;``), so a write and a
    read of one spelling reach the same memory (issue 13). NFC because a
    name arrives composed from one client and decomposed from another (macOS
    file names, a Korean or Japanese input method: ``회의`` as jamo, ``が`` as
    ``か`` + U+3099); the hash slug, the title and every lookup see one form
    (issue 28)."""
    text = escape_fence_tags(_visible_text(unicodedata.normalize("NFC", raw))).strip()
    stem = _MD_SUFFIX.sub("", text).strip()
    return stem if stem else text


def spelling(raw: str) -> str:
    """What two raw names must share to be the same name: the raw name
    without ``.md``, folded (:func:`memdir.text.fold.fold`: case, accents,
    ``Łódź`` = ``Lodz``), with spaces, ``-`` and ``_`` dropped, and the dashes a typesetter or a word processor
    writes for ``-`` (:data:`_DASHES`: ``pg‐port``, ``pg–port`` = ``pg-port``; ``DB Port`` = ``db-port``;
    ``C++ tips`` ≠ ``C# tips``)."""
    return _SPELLING_IGNORED.sub("", fold(raw_name(raw)))


def spelled_name(name: str, title: str | None) -> str:
    """The name a memory (``name``, normalized, with ``title``) is spelled by: its title when
    that normalizes to ``name`` — the name as it was written, kept as the title (``C# tips`` of
    ``c-tips``, ``部署流程`` of ``m-…``; or that an older memdir named so: ``Łódź-notes`` of
    ``odz-notes``, :func:`legacy_names`) —, else ``name`` itself. What :func:`same_name` tells
    apart from another spelling when a memory arrives under that file name (a promotion, an
    imported file)."""
    if title:
        try:
            if normalize_name(title).name == name or name in legacy_names(title):  # odz-notes of Łódź-notes
                return title
        except InvalidName:
            pass
    return name


def older_file_name(raw: str, name: str, title: str | None) -> bool:
    """True when ``raw`` (a name as written) reaches the memory called ``name`` with ``title`` only by
    its file name, and that file name is one an older memdir gave the title, which today is another
    name (:func:`legacy_names`: ``v2`` of ``배포-v2``, whose Latin part alone named it; ``odz-notes`` of
    ``Łódź-notes``): in a fresh store ``raw`` and the title are two memories, so a write of ``raw``
    is not an update of this one. False for ``raw`` spelled like the title (``Lodz-notes``), for a
    hash file name (``m-664a715272`` of ``Заметки-Проекта``: a file's address, no name a person
    gives another memory), for a title that names this file today (``C# tips`` of ``c-tips``) or
    one no older memdir stored here (a title a person gave: ``Database port`` of ``db-port``)."""
    if not title or hash_named(name):
        return False
    written = raw_name(raw)
    if spelling(written) == spelling(title):
        return False
    try:
        return normalize_name(title).name != name and name in legacy_names(title)
    except InvalidName:
        return False


def same_name(raw: str, name: str, title: str | None) -> bool:
    """True when ``raw`` (a name as written, normalizing to ``name``) names
    the memory called ``name`` with ``title``: it is the normalized name
    itself, or spelled like the name or the title (:func:`spelling`).
    Exact, never a prefix: two long names sharing their first characters are
    two names (a write refuses a name the title limit would cut —
    :func:`memdir.gateway.fields.prepare`)."""
    written = raw_name(raw)
    return written == name or spelling(written) in (spelling(name), spelling(title or ""))
