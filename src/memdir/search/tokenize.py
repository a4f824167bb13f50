"""The one tokenizer for memory text and search queries (DESIGN §6).

Documents and queries go through :func:`tokens`, so they always meet on the
same terms:

* Characters that show as nothing (a zero-width space, a soft hyphen, bidi controls, a ZWJ no script joins with)
  and terminal escape sequences (pasted colours: :func:`memdir.text.printable.without_hidden`) are read as absent:
  ``stag\u200bing`` and ``post\u200dgres`` are ``staging`` and ``postgres``, ``ESC[31mkafka ESC[0m`` is ``kafka``.
* Unicode NFKC, then each word folded as memory names are
  (:func:`memdir.text.fold.fold`, the one rule): case-folded (``Ｄｏｃｋｅｒ`` and
  ``docker`` meet), accents on Latin letters dropped and the letters that do
  not decompose spelled as a person types them (``Zürich`` → ``zurich``,
  ``Øresund`` → ``oresund``, ``Łódź`` → ``lodz``, ``İstanbul`` → ``istanbul``).
  Other scripts keep their marks (a Devanagari vowel sign or a kana's dakuten
  is part of the word, not an accent).
* Code identifiers and compounds are kept whole (stemmed as the word written
  joined: ``jetpack-compose`` → ``jetpackcompos``) *and* split into their parts:
  ``getUserById`` → ``getuserbyid get user by id``; ``OPENAI_API_KEY``,
  ``openai-api-key`` and ``openai api key`` meet on ``openai api key`` (and
  the first two also on the whole ``openaiapikey``). Parts break at ``_`` and
  ``-``, at lower→upper case changes, before the last capital of a capital run
  (``HTMLResponse`` → ``html response``) and between letters and digits. Digits written against
  the letters before them are the name's, no number of their own (``A100`` is no ``100``; ``sha256`` →
  ``sha256 sha``, ``python3`` → ``python3 python``); a plural ``s`` after digits is dropped (``429s``,
  ``A100s``); a unit after digits reads as its word (``90d`` → ``90d 90 day``, ``100/min``;
  :data:`memdir.text.words.UNITS`); a number of two digits led by a zero is its digit (``09:00`` is ``9:00``).
  A letter or digit alone split out of a word is no term (``i18n``, ``gRPC`` → ``grpc rpc``, ``gpt-4`` → ``gpt4
  gpt``; not a number first with its unit, ``2GB``), nor a digit group of a dotted number (a pair with a slash
  keeps them, ``1/2``); a dotted one is its leading parts (``v2.3.1-rc1`` → ``v2 rc 2⋅3 2⋅3⋅1 2⋅3⋅1⋅rc1 rc1``,
  written ``2.3.1.rc1`` or ``2.3.1-rc.1`` alike; ``python3.11`` →
  ``python3 python 3⋅11``, ``1.5GB`` → ``gigabyt 1⋅5``: :mod:`memdir.search.versions`), its later groups no
  numbers and its digits not run together (no ``11``, ``5``, ``v321``); a date written with its year last is also
  its ISO digits, with slashes or hyphens each order the calendar reads (``04.12.2026`` → ``20261204``;
  ``04/12/2026`` → ``20260412 20261204``: :func:`memdir.search.numbergroups.year_first`); a network or a version range is also its span (``10.0.0.1/24``, ``^18.17.0``: :mod:`memdir.search.ranges`). An acronym's plural is the acronym (``JWTs``, ``PRs``, ``OSes``; not ``AWS``).
* Each word is stemmed by its script's Snowball stemmer (:func:`memdir.search.stemming.stem`, the
  ``snowballstemmer`` package): English for Latin letters (``running`` → ``run``), Russian for Cyrillic
  (``логах`` → ``лог``), Greek for Greek (``διακομιστής`` → ``διακομ``). The whole form of a
  compound identifier is not stemmed. A few short forms stem as their long word (:data:`memdir.text.words.SHORT_FORMS`:
  ``prod`` is ``production``); a name's JS kind is the name, its joined form a second spelling (``Node.js`` → ``node nodejs``).
* A number written with thousands separators is one number: ``5,433`` is
  ``5433`` (``1,2,3`` stays three numbers). A number written in groups is
  also the number run together, whole and each of its ends
  (``+1 (555) 010-2030`` → ``15550102030 5550102030``; an IBAN's groups).
  A query's compounds and grouped numbers (:func:`compound_groups`) are read
  as either form (:mod:`memdir.search.compounds`).
* A typeset hyphen (U+2010, U+2011) is ``-`` (``jetpack‐compose`` is ``jetpack-compose``).
* A language named by a letter and signs is the word a code base writes for it (``C++`` → ``cpp``, ``C#`` →
  ``csharp``, ``F#`` → ``fsharp``; ``C++20`` → ``cpp20 cpp 20``).
* A plural or past written in parentheses is the word's (``file(s)``, ``process(es)``, ``entry(ies)``:
  ``file``, ``process``, ``entri``, as ``files``, ``processes``, ``entries`` read).
* A phrasal verb whose joined form is a noun is that noun (``Log in with SSO``, ``log-in`` → ``login``; not
  ``logs in Loki``): these three rewrites are :func:`memdir.search.oneword.one_words`.
* Irregular plurals read as their singular (``mice`` → ``mous``); a -yze verb and its -ysis noun are one word.
* An emoji is a term of its own (``🚀``: :mod:`memdir.search.emoji`), a sequence joined by U+200D one (``👨‍👩‍👦``),
  a keycap one (``#️⃣``); other symbols are breaks.
* An IPv6 address is its groups written out as one term and each leading run of them, its later groups no words
  (``fe80::1``, ``[2001:db8::1]:8080``: :mod:`memdir.search.ipv6`).
* A name written in syllables with their marks is also the syllables joined (``Hà Nội`` → ``ha noi hanoi``:
  :mod:`memdir.search.syllables`).
* A word of one letter keeps its accent (``ở``, ``é``: no ``o``, ``e``); other words drop theirs (above).
* CJK runs (Han, Japanese kana, Hangul) become overlapping character bigrams;
  a run of one character stays a single character (the usual scheme of
  CJK-aware full-text engines, e.g. Lucene's CJKBigramFilter). A Hangul
  word is read without the particles it ends in (``배포를`` → ``배포``).

Case is folded, with one exception read from the raw text, never from the
index: a function word a query writes in capitals (``IT``, ``OR``, ``AS``;
two letters or more, :func:`acronyms`) is an acronym, a content word for
the memories that write it in capitals too (:func:`writes_in_capitals`),
and stays a function word for the others. A query in capitals throughout
(``IS IT OK``) is shouted, not spelled: its case says nothing.

The output tokens hold only letters and digits (a version's parts also U+E000, an emoji's U+E001, an IPv6 address's
U+E002: token characters to FTS5), so they
are safe inside a quoted FTS5 string; :func:`fts_query` builds the one query form memdir sends,
every token quoted, so user text never reaches FTS syntax.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

from ..text.names import hash_named
from ..text.printable import without_hidden
from ..text.words import REQUEST_WORDS, UNITS
from . import ranges, spelling, wordstems
from .emoji import terms as emoji_terms
from .oneword import one_words
from .segmenting import has_cjk, identifier_parts, name_parts, segments, word_forms, word_parts
from .stemming import available, kind_spelled, kinds_joined, require, stem
from .stopwords import HANGUL_FIRST as _HANGUL_FIRST, HANGUL_LAST as _HANGUL_LAST
from .syllables import joined_syllables
from .stopwords import STOPWORDS, is_chat, is_cjk_grammar, is_stopword, without_thai_grammar  # the tokenizer's words
from .numbergroups import run_end as number_run_end
from .numbergroups import DOTTED, GROUPED, MAX_GROUPS, NUMBER_GROUP, SPACED, ungrouped, within_numbers, year_first
from .versions import RANGE_MARK, VERSION_JOIN, dotted_versions, marked_majors, query_prefixes, word_terms
from .addressing import addresses  # search.ipv6 loaded for a text holding a colon alone
from .wordterms import AFTER_NUMBER, cjk_bigrams, is_resolution, korean_word, read_word, umlauts_spelled


MAX_QUERY_TERMS = 64  # longer queries (a whole prompt) keep their first distinct terms
MAX_QUERY_CHARS = 4096
"""Characters of a search query: ``memory_search``/``memdir search`` refuse a longer one; recall reads at most this
much of a prompt, its ends first (:func:`memdir.search.pasted.read`)."""


def _analysed(text: str, groups: dict[str, tuple[str, ...]] | None) -> list[str]:
    """The tokens of ``text`` (:func:`tokens`); with ``groups``, each compound's whole written together is added
    to it with its parts (:func:`compound_groups`)."""
    if not text:
        return []
    text = kinds_joined(unicodedata.normalize("NFKC", without_hidden(text)))  # stag<U+200B>ing is staging; Node.js Nodejs
    if "\u2010" in text:  # the hyphen a typesetter writes (U+2010; NFKC made U+2011 so) is "-": jetpack‐compose
        text = text.replace("\u2010", "-")
    text = one_words(text)  # C++ is cpp, file(s) file, "Log in with SSO" login (search.oneword)
    if "," in text:
        text = GROUPED.sub(ungrouped, text)  # 5,433 is the number 5433
    versions = dotted_versions(text, MAX_GROUPS) if "." in text else []
    within = within_numbers(text, {v.start for v in versions}) if "." in text or "/" in text else frozenset()
    dates = sorted((year_first(text) if "." in text or "/" in text or "-" in text else []) + ranges.span_terms(text))  # 04.12.2026 is also 20261204; ^18.17.0 its span
    unjoined = [(v.start, v.end) for v in versions if not v.joined]  # a version's digits are not run together
    addrs = addresses(text) if ":" in text else []  # fe80::1: one address (search.ipv6)

    def run_end(run: list, dotted: bool, groups: dict | None) -> list[str]:
        return [] if any(start <= run_start < end for start, end in unjoined) else number_run_end(run, dotted, groups)

    out: list[str] = []
    run: list[tuple[tuple[str, ...], tuple[str, ...]]] = []  # (parts as written, tokens) of the number groups read
    dotted, run_start = False, -1
    last_end, last_word, last_number = -1, False, False
    for match in segments(text):
        cjk = match.group("cjk")
        if cjk:
            if run:
                out.extend(run_end(run, dotted, groups))
                run = []
            if _HANGUL_FIRST <= ord(cjk[-1]) <= _HANGUL_LAST:
                cjk = korean_word(cjk, last_word and match.start() == last_end)
            if cjk:
                out.extend(cjk_bigrams(cjk.casefold()))
            last_end, last_word, last_number = match.end(), False, False
            continue
        if match.group("emoji"):  # 🚀: a term of its own (search.emoji), a break to the words around it
            if run:
                out.extend(run_end(run, dotted, groups))
                run = []
            out.extend(emoji_terms(match.group("emoji")))
            last_end, last_word, last_number = match.end(), False, False
            continue
        word = match.group("word")
        while addrs and addrs[0].end <= match.start():  # one ended before an emoji or a CJK run
            out.extend(addrs.pop(0).terms)
        if addrs and addrs[0].first_end <= match.start() < addrs[0].end:  # 1ff of fe80::1ff:…: the address's
            if run:
                out.extend(run_end(run, dotted, groups))
                run = []
            last_end, last_word, last_number = match.end(), True, False
            while addrs and addrs[0].end <= last_end:
                out.extend(addrs.pop(0).terms)
            continue
        toks, grouped, written = read_word(word)
        if versions and versions[0].start <= match.start() < versions[0].end:  # 1.5GB: no 5, 5gb (versions)
            kept = word_terms(versions[0], match.start(), toks)
            toks, grouped = kept, grouped if kept == toks else ()
        if groups is not None and len(toks) > 1 and len(grouped) > 1:  # a group of one part is a second spelling
            groups.setdefault(toks[0], grouped)
        if last_number and (len(word) > 1 or word in "sS") and toks and toks[0] in UNITS \
                and AFTER_NUMBER.fullmatch(text, last_end, match.start()):
            toks = (stem(UNITS[toks[0]]),)  # 100/min, 5 mins: minutes; 900 s: seconds (UNITS)
        if toks and toks[-1].endswith("000") and is_resolution(word, text, match.end()):
            toks = toks[:-1]  # 4K display: a resolution, no 4000 (wordterms.is_resolution)
        if not word.isascii() or word[-2:] in ("js", "JS", "Js"):  # Müller is also Mueller, Nodejs also Node
            for spelled, plain in umlauts_spelled(word) if not word.isascii() else kind_spelled(word):
                if spelled not in toks:
                    toks = (*toks, spelled)
                    if groups is not None:
                        groups.setdefault(spelled, (plain,))
        # 2.3.1-rc1: the 1 of 1-rc1 is the version's, its rc1 its own
        out.extend(toks if match.start() not in within else () if word.isdigit() else (t for t in toks if not t.isdigit()))
        if NUMBER_GROUP.fullmatch(word):
            gap = text[last_end:match.start()] if run else ""
            if run and (SPACED.fullmatch(gap) or DOTTED.fullmatch(gap)):
                dotted = dotted or gap in "./"
                run.append((written, toks))
            else:
                if run:
                    out.extend(run_end(run, dotted, groups))
                run, dotted, run_start = [(written, toks)], False, match.start()
        elif run:
            out.extend(run_end(run, dotted, groups))
            run = []
        last_end, last_word, last_number = match.end(), True, word.isdigit()
        while versions and versions[0].end <= last_end:  # v2.3.1-rc1: after the word 1-rc1
            out.extend(versions.pop(0).terms)
        while dates and dates[0][0] <= last_end:
            out.extend(dates.pop(0)[1])
        while addrs and addrs[0].end <= last_end:
            out.extend(addrs.pop(0).terms)
    if run:
        out.extend(run_end(run, dotted, groups))
    out.extend([*(t for address in addrs for t in address.terms), *(t for _, ts in dates for t in ts)])  # fe80::, 18.* at the end
    out.extend(joined_syllables(text))  # Hà Nội is also hanoi (search.syllables)
    return out


def tokens(text: str) -> list[str]:
    """Search terms of ``text`` in order, duplicates kept (document frequencies
    matter to BM25). Pure; never raises for any ``str``."""
    return _analysed(text, None)


def compound_groups(text: str) -> dict[str, tuple[str, ...]]:
    """``{whole: its parts}`` for each word of ``text`` that :func:`tokens` reads as a whole and its parts (a
    hyphenated, joined-by-underscore or camel-cased compound: ``back-off`` → ``{"backoff": ("back", "off")}``) and
    each number written in groups (``+1 (555) 010-2030`` → ``15550102030`` and ``5550102030`` with their groups'
    digits), the parts as :func:`tokens` gives them, function words included. A memory holding the whole holds the
    parts, and one holding the parts one after another holds the whole (:class:`memdir.search.relevance.Prefixes`).
    Pure."""
    groups: dict[str, tuple[str, ...]] = {}
    _analysed(text[:MAX_QUERY_CHARS], groups)
    return groups


@lru_cache(maxsize=16384)
def word_tokens(word: str) -> tuple[str, ...]:
    """:func:`tokens` of one word of a text (a match of :func:`segments`),
    the last 16,384 words kept: a search's snippets look at the words of
    notes that share one vocabulary."""
    return tuple(tokens(word))


def document_text(text: str) -> str:
    """``text`` as the space-joined token string stored in the FTS5 index; a name's JS kind also ``js`` (Node.js)."""
    return " ".join(t for tok in tokens(text) for t in ((tok, "js") if tok[-2:] == "js" and kind_spelled(tok) else (tok,)))


def document_fields(name: str, title: str | None, description: str, body: str) -> tuple[str, str, str, str]:
    """A memory's four FTS5 fields (:data:`memdir.search.index.FIELDS`: name, title, description, body), each
    its :func:`document_text`. A hash name (:func:`memdir.text.names.hash_named`: ``m-c3f8ff75a0`` of
    ``部署流程``) is no words: its field is empty (the name as written is the title, indexed in its own field
    with the name's weight), so ``s3`` or ``c3f8`` never find a memory by the letters of its hash."""
    named = "" if hash_named(name) else name
    return document_text(named), document_text(title or ""), document_text(description), document_text(body)


@lru_cache(maxsize=1)
def _cjk_requests() -> re.Pattern:
    """The CJK requests of two characters or more, longest first; a Hangul
    one only where it ends a word (Korean writes a space between words, and
    its requests are endings: ``배포해줘`` is ``배포 해줘`` but ``알려진``,
    "known", keeps its ``알려``) or runs into another request (``알려주세요``); and
    a verb's ``해`` after a noun of two syllables or more (``배포해 주세요``)."""
    words = sorted((w for w in REQUEST_WORDS if has_cjk(w) and len(w) >= 2), key=len, reverse=True)
    hangul = [w for w in words if all(_HANGUL_FIRST <= ord(c) <= _HANGUL_LAST for c in w)]
    ends = f"(?=\\W|$|{'|'.join(map(re.escape, hangul))})"
    made_verb = f"(?<=[\uac00-\ud7a3]{{2}})해{ends}"  # 배포해 주세요, "deploy it, please"; 이해, 피해 are nouns
    return re.compile("|".join([*(re.escape(w) + (ends if w in hangul else "") for w in words), made_verb]))


def query_tokens(query: str) -> list[str]:
    """:func:`tokens` of a query, each CJK request of
    :data:`memdir.text.words.REQUEST_WORDS` of two characters or more read as
    a word of its own (``帮我审查一下代码`` → ``帮我 审查 一下 代码``: no
    bigram straddles the request and its topic), and a Thai run of function words alone dropped (``ของ และ ใน``,
    ``คืออะไร``: :data:`memdir.text.words.THAI_FUNCTION_WORDS`; inside a run of other words they stay), and a
    version's mark and major (``v2`` of ``v2.3``: :func:`memdir.search.versions.marked_majors`) dropped, and a
    dotted number's shorter leading parts and bare major (``10``, ``10.0``, ``10.0.0`` of ``10.0.0.10``:
    :func:`memdir.search.versions.query_prefixes`): a query's dotted number is that number, exact; so is its IPv6
    address (``fe80::1``: its first group's word and its leading runs dropped, the network a trailing ``::`` writes
    kept, ``fe80::``: :attr:`memdir.search.ipv6.Address.dropped`); no span of a range (``^18.17.0``: search.ranges). Pure."""
    if has_cjk(query):
        query = _cjk_requests().sub(lambda m: f" {m.group(0)} ", query)
        query = without_thai_grammar(query)
    out = [t for t in tokens(query) if t[:1] != RANGE_MARK]  # a range asks its numbers as written (search.ranges)
    if "." in query:
        for dropped in (*marked_majors(query, MAX_GROUPS), *query_prefixes(query, MAX_GROUPS)):
            if dropped in out:
                out.remove(dropped)
    for address in addresses(query) if ":" in query else ():  # fe80::1 exact: no fe80, nor its leading runs
        for dropped in (*address.dropped, *word_tokens(query[address.start:address.first_end])):
            if dropped in out:
                out.remove(dropped)
    return out


@lru_cache(maxsize=1)
def request_terms() -> frozenset[str]:
    """The terms of :data:`memdir.text.words.REQUEST_WORDS` as a query reads
    them (stemmed; a CJK request's bigrams): ``remind``, ``detail``, ``알려``, ``려줘``."""
    return wordstems.REQUESTS if wordstems.hold() else request_terms_of_words()


def request_terms_of_words() -> frozenset[str]:
    """:func:`request_terms` computed from the word list: the rule :data:`memdir.search.wordstems.REQUESTS` holds."""
    return frozenset(t for word in REQUEST_WORDS for t in query_tokens(word))


def query_terms(query: str, limit: int = MAX_QUERY_TERMS) -> list[str]:
    """Distinct terms of a query (:func:`query_tokens`), in order, stopwords
    dropped unless nothing else is left; at most ``limit`` terms."""
    seen: dict[str, None] = {}
    for token in query_tokens(query):
        seen.setdefault(token, None)
    terms = list(seen)
    content = [t for t in terms if not is_stopword(t)]
    return (content or terms)[:limit]


def fts_query(terms: list[str], phrases: dict[str, tuple[str, str]] | None = None,
              starts: dict[str, str] | None = None) -> str:
    """An FTS5 MATCH expression that ORs ``terms``, each one quoted (``"` `"``
    doubled inside), so no user text is read as FTS syntax; a term of
    ``starts`` (:func:`memdir.search.spelling.starts`; None: every term
    :func:`~memdir.search.spelling.prefixable` as it is) as a prefix query of
    its start (``"postgr"*``); a term of ``phrases`` (a compound and its two
    words, :func:`compound_splits`) also as that two-word phrase
    (``"timeout" OR "time out"``). ``""`` for no terms."""
    if starts is None:
        starts = spelling.starts(terms)

    def one(t: str) -> str:
        if t in starts:
            return '"' + spelling.fetch(t, starts[t]).replace('"', '""') + '"*'
        return '"' + t.replace('"', '""') + '"'

    parts = []
    for t in terms:
        parts.append(one(t))
        if phrases and t in phrases:
            parts.append('"' + " ".join(phrases[t]).replace('"', '""') + '"')
    return " OR ".join(parts)


COMPOUND_MIN = 5
"""A query term of at least this many ASCII letters may be a compound a
document writes as two words (``timeout``/``time out``, ``setup``/``set up``,
``login``/``log in``, ``hostname``/``host name``): :func:`compound_splits`."""


def compound_splits(term: str) -> list[tuple[str, str]]:
    """``(first word, start of the second)`` for every way to cut ``term`` (a
    stemmed query term of :data:`COMPOUND_MIN`+ ASCII letters) into two
    parts of at least 2 letters: ``timeout`` → ``[("ti", "meout"), …,
    ("time", "out"), …]``. Which cut is real is the caller's question (the
    index's vocabulary, :func:`is_compound`). ``[]`` for other terms."""
    if len(term) < COMPOUND_MIN or not term.isascii() or not term.isalpha():
        return []
    return [(term[:i], term[i:]) for i in range(2, len(term) - 1)]


def is_compound(term: str, first: str, second: str) -> bool:
    """True when the two document tokens ``first second`` (stemmed, as
    :func:`tokens` gives them) written together read as ``term``:
    ``time out`` → ``timeout``, ``host name`` → ``hostnam``; the second
    word is the rest of ``term``, at most one letter longer (the stemmer's
    spelling of the word's end): ``back offic`` (office) is no ``backoff``,
    though Snowball stems ``backoffic`` so."""
    rest = term[len(first):] if term.startswith(first) else ""
    return bool(rest) and second.startswith(rest) and len(second) - len(rest) <= 1 and stem(first + second) == term


def acronyms(query: str) -> dict[str, str]:
    """``{term: spelling}`` of the function words ``query`` writes in capitals
    (two letters or more, the term a stopword: ``"The IT team"`` →
    ``{"it": "IT"}``); ``{}`` when there is none or when every cased word of a
    query of several is in capitals (``"IS IT OK"``: shouted, not spelled). Pure."""
    text = unicodedata.normalize("NFKC", without_hidden(query[:MAX_QUERY_CHARS]))
    if not any("A" <= c <= "Z" for c in text):
        return {}
    parts = [p for m in segments(text) if m.group("word") for p in word_parts(m.group("word"))]
    if shouted(parts):
        return {}
    out: dict[str, str] = {}
    for part in parts:
        if len(part) >= 2 and part.isascii() and part.isalpha() and part.isupper():
            term = stem(part.lower())
            if is_stopword(term):
                out.setdefault(term, part)
    return out


def shouted(words: list[str]) -> bool:
    """True when ``words`` (as written) are several cased words all in capitals (``IS IT OK``): their case says
    nothing of a name (:func:`acronyms`; :func:`memdir.search.comparison.compares` reads ``VS`` so). Pure."""
    cased = [w for w in words if w.upper() != w.lower()]
    return len(cased) > 1 and all(w.isupper() for w in cased)


def writes_in_capitals(text: str, spelling: str) -> bool:
    """True when ``text`` (as written, not normalized) holds ``spelling`` (an
    :func:`acronyms` spelling, ``IT``) as a whole word or a whole part of an
    identifier (``IT-team``, ``ITTeam``); not inside a longer word (``ITEM``). Pure."""
    if spelling not in text:
        return False
    return any(spelling in m.group("word") and spelling in word_parts(m.group("word"))
               for m in segments(text) if m.group("word"))


__all__ = ["identifier_parts", "name_parts", "word_forms", "word_parts", "COMPOUND_MIN", "MAX_GROUPS", "compound_groups", "acronyms", "shouted",
           "VERSION_JOIN", "writes_in_capitals", "MAX_QUERY_CHARS", "STOPWORDS", "compound_splits", "is_compound", "document_fields",
           "document_text", "fts_query", "has_cjk", "is_chat", "is_cjk_grammar", "is_stopword", "query_terms",
           "query_tokens", "request_terms", "available", "require", "segments", "stem", "tokens", "word_tokens"]
