"""What one sentence of the person's takes back, and what it puts in place: the sentence-level reading behind
:func:`memdir.consolidation.retraction.withdrawn` (which says which request each one cancels).

* :func:`is_retraction`: a sentence made only of taking back and fillers ("Scratch that, that was wrong.");
  :func:`takes_itself_back`: one that says something and takes it back in its last clauses; :func:`named`: what
  "ignore what I said about …" names.
* :func:`replacement`: a take-back, then what replaces it ("Scratch that, we deploy on Thursdays." → "we deploy
  on Thursdays."); :func:`correction`: fillers that put something right, then a value ("Sorry, it's port 5434."
  → "it's port 5434.").
* :func:`replaced_request`: the request as the replacement makes it (one value put right: the one whose place in the
  request the replacement's words name, :func:`_which`; or one word swapped), an :class:`Unclear` when it puts
  right one of several values of a kind and nothing says which, or None; :func:`denies_request`: a replacement that
  only denies the request ("Never mind, it's not port 5433") and names nothing else ("Forget that — we don't use
  npm" after "Remember to use pnpm." names npm: it denies nothing of the request).

Every expression here is read in linear time: clauses are matched whole by anchored expressions of fixed words.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_I = re.IGNORECASE

# Words a person says around taking something back.
_FILLER = (r"(?:wait|no|nope|nah|oh|oops|whoops|hmm+|um+|uh+|ah|sorry|actually|correction|ok(?:ay)?|well|please|hold on"
           r"|my bad|my mistake|on second thought|sorry about that|doch|nein|warte|non|attends|pardon"
           r"|espera|perdón|perdona|não|desculpa|нет|стоп|извини(?:те)?|不|等等|不对|아니|잠깐|いや|待って|ちょっと待って)")
_THAT = r"(?:that|this|it|all that|all of that|all of it|what i (?:just )?said|everything i (?:just )?said)"
# Saving: a verb of memory alone, or one of keeping anything with where ("don't add it" is about a file).
_SAVE = (r"(?:(?:save|remember|memori[sz]e|note) (?:that|this|it)(?: down)?(?:{where})?"
         r"|write (?:that|this|it) down(?:{where})?"
         r"|(?:store|keep|record|write|add|put) (?:that|this|it)(?: down)?{where_needed})")
_WHERE = r" (?:to|in|into) (?:the |your |our )?(?:memory|memories|claude\.md|agents\.md)"
_SAVE = _SAVE.format(where=_WHERE, where_needed=_WHERE)
# A clause that takes something back, whole (after its fillers: see _clause_kind). Only words about what was said:
# "delete it", "undo that", "cancel it", "ignore it", "drop it", "egal" are as often about the assistant's work (a
# file it made, a warning, a commit) and took back a request said before (break43); naming what was said stays
# ("ignore what I said about …": _NAMED).
_STRONG = re.compile(
    r"(?:(?:just|and|so|then|please|pls) )*+"
    r"(?:(?:scratch|strike|forget|disregard) " + _THAT
    + r"(?: (?:too|please|then|again|now|for now|after all))?"
    r"|forget (?:i said (?:that|it|anything)|about (?:it|that))"
    r"|never ?mind(?: (?:that|this|then|please|about (?:it|that)))?"
    r"|(?:that|this|it|what i said) was (?:wrong|not right|not true|incorrect|a mistake|a typo|my mistake|wrong of me)"
    r"|i was wrong(?: about (?:that|it))?|i misspoke|i made a mistake|i got (?:that|it) wrong"
    # German, French, Spanish, Portuguese, Russian ("vergiss das nicht" is a request to remember: a clause is whole)
    r"|(?:vergiss|vergesst|vergessen sie) (?:das|es)(?: wieder| bitte)?|streich das|das war falsch|ich habe mich geirrt"
    r"|oublie(?:z)? (?:ça|cela|ce que j'ai dit)|laisse(?:z)? tomber|c'[ée]tait faux|je me suis tromp[ée]e?"
    r"|olv[ií]dalo|olv[ií]dese|olvida (?:eso|lo que dije)|eso (?:estaba mal|era incorrecto)|me equivoqu[ée]"
    r"|esque[çc]a (?:isso|o que eu disse)|esquece (?:isso|o que eu disse)|deixa pra l[áa]|isso estava errado"
    r"|eu me enganei|забудь(?:те)? (?:это|об этом|что я сказал)|это было неправильно|я ошибся|я ошиблась)", _I)
_STRONG_CJK = re.compile(
    r"算了(?:吧)?|(?:别|不要|不用|无需)(?:再)?(?:记|记住|记下|保存|存)(?:了|这个|它)?(?:吧)?|忘(?:掉|了)(?:它|这个|刚才(?:说的|那句))(?:吧)?"
    r"|(?:刚才|我)(?:说错了|搞错了)|撤回"
    r"|(?:잊어\s*(?:버려|줘|주세요|버리세요)|방금\s*(?:건|말은)\s*틀렸어(?:요)?"
    r"|기억하지\s*(?:마|마세요)|저장하지\s*(?:마|마세요))"
    r"|忘れて(?:ください|いい|いいです)?|今の(?:は)?(?:なし|取り消し)(?:で)?|間違いでした"
    r"|覚えなくて(?:いい|いいです)|保存しないで(?:ください)?", _I)
# "Don't save that": a retraction alone or after a request, never in the request's own sentence, where "it" is
# what the sentence is about ("Remember: load the token from the vault — don't store it", break43).
_DONT_SAVE = re.compile(r"(?:(?:just|and|so|then|please|pls) )*+(?:don'?t|do not|no need to|you don'?t need to"
                        r"|please don'?t) " + _SAVE + r"(?: (?:anywhere|please|after all|then))?", _I)
# Beside a strong clause, not alone: "it's wrong", "that's not true".
_WEAK = re.compile(r"(?:(?:that|it|this)(?:'s| is| was)|that isn't|it isn't|that wasn't|it wasn't) "
                   r"(?:not )?(?:wrong|true|right|correct|incorrect|a mistake)|(?:it's|that's) not (?:right|true)"
                   r"|(?:that's|it's) (?:wrong|incorrect|not what i meant)|don'?t save (?:it|that)", _I)
_FILLER_CLAUSE = re.compile(r"(?:" + _FILLER + r"(?!\w)[ ,]*)++", _I)
# Fillers that say the person put something right ("Sorry, it's port 5434", "No wait, the cache is on 6380"): such an
# opening, then a value, may put a value of the request before right (:func:`correction`), never cancel it by itself.
# "Correction: the cache port is 6380." (break47: not read, the wrong port saved)
_CORRECTING = re.compile(r"\b(?:sorry|oops|whoops|my bad|my mistake|actually|correction|wait|no|nope)\b", _I)
# Where a clause ends: a comma, a semicolon, a colon or a dash.
_CLAUSE = re.compile(r"\s*(?:[,;:，、；：\u2014\u2013]|\s-\s)\s*")
# "ignore what I said about the deploy day": what it names is the rest.
_NAMED = re.compile(
    r"^(?:" + _FILLER + r"(?!\w)[ ,]+)*+(?:(?:just|please|and) )*+"
    r"(?:ignore|forget|disregard|scratch|drop|never mind) (?:what|everything|the thing|the part) i (?:just |had )?"
    r"(?:said|told you|asked(?: you)?(?: to remember)?) (?:about|regarding|on|of) (?P<about>\S.*)$", _I)
# Thanks and nods between a request and its retraction ("Thanks! Never mind, don't save it."): said, but about nothing.
NOD = re.compile(r"(?:(?:thanks|thank you|thx|great|cool|ok(?:ay)?|perfect|good|nice|awesome|sure|yes|yeah|yep"
                  r"|alright|fine|got it|sounds good|looks good|so much|very much|much|done)\b[\s,.!]*)++", _I)
# Cheap look before the rules: a retraction holds one of these (lower case).
_WORDS = ("scratch", "strike", "forget", "ignore", "disregard", "cancel", "undo", "drop", "delete", "remove", "erase",
          "mind", "save", "remember", "store", "keep", "record", "note", "memor", "write", "add", "put", "wrong",
          "misspoke", "mistake", "vergiss", "vergess", "streich", "falsch", "geirrt", "egal", "oubli", "tomber",
          "faux", "tromp", "olvid", "olvíd", "importa", "mal", "incorrecto", "equivoq", "esque", "deixa", "errado", "engan",
          "забуд", "неважно", "неправильно", "ошиб", "算了", "记", "存", "忘", "错", "撤回", "取消", "잊어", "취소", "틀렸",
          "기억하지", "저장하지", "忘れて", "取り消", "なし", "間違い", "覚えなくて", "保存しない")


def _clause_kind(clause: str) -> str | None:
    """``strong``, ``unsave`` ("don't save that": :data:`_DONT_SAVE`), ``weak``, ``filler`` or None (a clause that
    says something else) for one clause."""
    text = clause.strip().strip(".!。！…").strip().replace("\u2019", "'")
    if not text:
        return "filler"
    if _FILLER_CLAUSE.fullmatch(text):
        return "filler"
    words = text.split(" ")
    # fillers before a strong clause: "oh wait forget that", "no, don't save it"
    for start in range(min(len(words), 6)):
        rest = " ".join(words[start:])
        if start and not _FILLER_CLAUSE.fullmatch(" ".join(words[:start])):
            break
        if _STRONG.fullmatch(rest) or _STRONG_CJK.fullmatch(rest):
            return "strong"
        if _DONT_SAVE.fullmatch(rest):
            return "unsave"
        if _WEAK.fullmatch(rest):
            return "weak"
    return None


def is_retraction(sentence: str) -> bool:
    """Whether ``sentence`` (one of the person's, :func:`memdir.consolidation.gate.sentences`) only takes back
    what was said: its clauses each a retraction, a "that's wrong" or a filler, at least one a retraction (see
    the module docstring), or it names what it takes back (:func:`named`). Linear in the sentence's length."""
    low = sentence.lower()
    if not any(word in low for word in _WORDS):
        return False
    if named(sentence) is not None:
        return True
    kinds = [_clause_kind(part) for part in _CLAUSE.split(sentence.strip())]
    return ("strong" in kinds or "unsave" in kinds) and None not in kinds


def takes_itself_back(sentence: str) -> bool:
    """Whether ``sentence`` says something, then takes it back in its last clauses ("Remember we deploy on
    Fridays — no wait, scratch that."): those clauses each a retraction, a "that's wrong" or a filler, one a
    retraction, after a clause that is none of them. Linear in the sentence's length."""
    low = sentence.lower()
    if not any(word in low for word in _WORDS):
        return False
    kinds = [_clause_kind(part) for part in _CLAUSE.split(sentence.strip())]
    end = len(kinds)
    while end and kinds[end - 1] is not None:
        end -= 1
    return 0 < end < len(kinds) and "strong" in kinds[end:]


def named(sentence: str) -> str | None:
    """What a retraction naming it takes back ("Ignore what I said about the deploy day." → "the deploy day"),
    or None when ``sentence`` names nothing so."""
    match = _NAMED.match(sentence.strip().rstrip(".!。！"))
    return match.group("about").strip() if match else None


# A value in what was said: "5434", "v1.2.3", "3.12", "09:30"; and a day ("Mondays").
_VALUE = re.compile(r"\d[\w:/-]*(?:\.\w[\w:/-]*)*")  # (no full stop at its end: "on port 5433.")
_DAY = re.compile(r"\b(?:mon|tues|wednes|thurs|fri|satur|sun)days?\b", _I)
_TOKEN = re.compile(r"[\w'\u2019]+")


def _values(text: str) -> dict[str, tuple[str, str]]:
    """The values ``text`` says: ``{normal form: (kind, as written)}``, kind ``number`` (a run holding a digit:
    "5433", "v1.2.3") or ``day`` ("Mondays" → "monday")."""
    out: dict[str, tuple[str, str]] = {}
    for found in _VALUE.finditer(text):
        start = found.start()
        while start and (text[start - 1].isalnum() or text[start - 1] in "._-"):
            start -= 1  # "v1.2.3": the run the digit stands in
        word = text[start:found.end()]
        out.setdefault(word.lower(), ("number", word))
    for found in _DAY.finditer(text):
        out.setdefault(found.group(0).lower().removesuffix("s"), ("day", found.group(0)))
    return out


def _subject(text: str, *, ordered: bool = False):
    """The content words of ``text`` that are no value (:func:`_values`): what it is about, a set (a list in
    their order when ``ordered``), a short form read as its long word (:data:`memdir.text.words.SHORT_FORMS`: "the
    database is on port 5434" names the place of "the db is on port 5433", as search and the tombstones read them)."""
    from ..text.words import SHORT_FORMS
    from .extractors.wording import content_words

    out = [SHORT_FORMS.get(w, w) for w in content_words(text) if not any(c.isdigit() for c in w)
           and not _DAY.fullmatch(w)]
    return out if ordered else set(out)


def negates(text: str) -> bool:
    """Whether ``text`` holds a word that turns it around (:func:`_negation`: "not", "no", "never" …, a word ending
    in "n't", German "kein", "nicht", and in a Chinese or Japanese run a character of negation such as 不 or 没
    outside a word that denies nothing: "我们不用 pnpm 了" negates, "pnpm 非常不错" does not): "it's not port 5433"
    denies the value it names. Linear."""
    return any(_negation(token) for token in _TOKEN.findall(text.lower().replace("\u2019", "'")))


def _negation(token: str) -> bool:
    """Whether the word ``token`` (lower case) turns what is said around: one of
    :data:`memdir.text.words.NEGATIONS` or :data:`~memdir.text.words.GERMAN_NEGATIONS`, a word ending in "n't", or a
    CJK run holding a one-character negation of :data:`~memdir.text.words.NEGATIONS` outside the words of
    :data:`~memdir.text.words.CJK_NOT_NEGATING` (不 in 不错 "not bad", 不过 "but"; 非 in 非常 "very"). Linear in
    the token's length times that list's (fixed) size."""
    from ..text.words import CJK_NOT_NEGATING, GERMAN_NEGATIONS, NEGATIONS

    if token in NEGATIONS or token in GERMAN_NEGATIONS or token.endswith("n't"):
        return True
    if token.isascii() or not any(ch in NEGATIONS for ch in token):
        return False
    for word in CJK_NOT_NEGATING:
        token = token.replace(word, " ")
    return any(ch in NEGATIONS for ch in token)


def replacement(sentence: str) -> str | None:
    """What a take-back followed by what replaces it, in one sentence, puts in place: its clauses after the
    take-back ("Scratch that, we deploy on Thursdays." → "we deploy on Thursdays."; "Actually no, forget that —
    use pnpm" → "use pnpm"; "Never mind, it's port 5434" → "it's port 5434"). None when ``sentence`` opens with no
    retraction ("scratch that", "forget that", "never mind", "don't save that" after fillers: :func:`_clause_kind`),
    says nothing after it, or is a retraction whole (:func:`is_retraction`). Whether it replaces a request is
    :func:`withdrawn`'s to say (the request must be on what the replacement is about). Linear in its length."""
    text = sentence.strip()
    low = text.lower()
    if not any(word in low for word in _WORDS):
        return None
    kinds: list = []
    at = 0
    for cut in _CLAUSE.finditer(text):
        kind = _clause_kind(text[at:cut.start()])
        if kind is None:
            break
        kinds.append(kind)
        at = cut.end()
    rest = text[at:].strip()
    if _clause_kind(rest) is not None:
        return None  # the last clause is a retraction or a filler too: the sentence takes back, whole
    if not rest or not ("strong" in kinds or "unsave" in kinds):
        return None
    return rest


def correction(sentence: str) -> str | None:
    """What a sentence opening with fillers that put something right ("sorry", "oops", "actually", "no", "wait":
    :data:`_CORRECTING`) and then saying a value (:func:`_values`) puts in place: its clauses after those fillers
    ("Sorry, it's port 5434." → "it's port 5434."). None for any other sentence (no such opening, no value after
    it, a take-back: :func:`replacement`). Such a sentence cancels nothing by itself: it only puts right one value
    of the request just before it (:func:`withdrawn`, :func:`replaced_request`), never swaps a word or denies. Linear."""
    from .gate import is_question_or_hedge

    text = sentence.strip()
    at, opened = 0, []
    for cut in _CLAUSE.finditer(text):
        if _clause_kind(text[at:cut.start()]) != "filler":
            break
        opened.append(text[at:cut.start()])
        at = cut.end()
    rest = text[at:].strip()
    if not opened or not _CORRECTING.search(" ".join(opened)) or not rest or _clause_kind(rest) is not None:
        return None
    return rest if _values(rest) and not is_question_or_hedge(rest) else None


@dataclass(frozen=True)
class Unclear:
    """What :func:`replaced_request` says when a replacement puts right one value of a kind the request holds several
    of, and nothing in it says which ("Sorry, it's port 5434." after "Remember: the db is on port 5433 and the
    cache on port 6379."): ``values``, those values as written, in the request's order."""

    values: tuple


def _which(request: str, candidates: list[tuple[str, str]], words: set) -> tuple[str, str] | None:
    """Of ``candidates`` (``(normal form, as written)`` of values of one kind in ``request``), the one whose place
    in the request the replacement's subject ``words`` name: each value's context is the request's words after the
    value before it up to it ("the db is on port 5433" | "and the cache on port 6379"); a word of ``words`` in
    the contexts of some candidates but not all tells them apart (the caller leaves out the word just before the
    replacement's own value: "port" in "it's port 5434" names the value's kind, not its place). None when no
    such word picks exactly one."""
    spots = []
    for key, written in candidates:
        found = list(re.finditer(r"(?<![\w.-])" + re.escape(written) + r"(?![\w-]|\.\w)", request))
        if len(found) != 1:
            return None
        spots.append((found[0].start(), found[0].end(), (key, written)))
    spots.sort()
    contexts, start = [], 0
    for begin, end, value in spots:
        contexts.append((_subject(request[start:begin]), value))
        start = end
    telling = {w for w in words if 0 < sum(w in ctx for ctx, _ in contexts) < len(contexts)}
    picked = {value for ctx, value in contexts if ctx & telling}
    return picked.pop() if len(picked) == 1 else None


def replaced_request(request: str, about: list[str], rest: str, *, values_only: bool = False) -> str | Unclear | None:
    """The sentence the person in effect said when ``rest`` (:func:`replacement`) replaced ``request`` (the
    cancelled request's sentence; ``about``: it and what it pointed back to), or None when ``rest`` is not clearly
    the same fact with a new value (hand-45r: "Never mind, the cache is on port 6380." cancelled "Remember the db
    is on port 5433."). It replaces when it either

    * keeps the request's subject (its content words that are no value: no new one, :func:`_subject`) and puts
      one value of the request right (one number for a number, one day for a day: :func:`_values`): the request
      with that value changed ("Never mind, it's port 5434" after "Remember the db is on port 5433." → "Remember
      the db is on port 5434."; "Scratch that, we deploy on Thursdays." after "Remember we deploy on Mondays and
      the db is on port 5433." → "Remember we deploy on Thursdays and the db is on port 5433."), or, the request
      holding that one value only and ``rest`` its whole subject, ``rest`` as a request ("Remember: we deploy on
      Thursdays.", also with several values of its kind for it: "We deploy on Thursdays and Fridays."); or
    * says the request's whole subject and every value of it again, and more ("Scratch that. Use pnpm for installs
      and bun for scripts." after "Remember: use pnpm for installs."): ``rest`` as a request (break47: nothing was
      kept); or
    * swaps one word of a request of no value for another, the rest kept ("Actually no, forget that — use pnpm"
      after "Remember to use npm." → "Remember: use pnpm.").

    None for a replacement that negates (:func:`negates`: "Never mind, it's not port 5433" saves no value it
    denies), asks or hedges, names another subject ("the tests run on Mondays" after "we deploy on Mondays"),
    drops the subject with no value to put right ("it's the other db"), or cannot say which value it puts right
    (two numbers in the request, one in ``rest``, and no word of ``rest`` naming the place of one of them: an
    :class:`Unclear`, which :func:`withdrawn` holds for a person). Of several values of the kind, the one whose
    place in the request ``rest`` names is put right ("the cache port is 6380" after "Remember: the db is on port
    5433 and the cache on port 6379." → "…the cache on port 6380.": :func:`_which`). ``values_only``: a value put
    right, nothing else (:func:`correction`)."""
    from .gate import is_question_or_hedge, sentence_rules

    if is_question_or_hedge(rest):
        return None
    said = " ".join(about)
    sentence = rest if rest.endswith((".", "!", "。", "！")) else rest + "."
    as_request = (sentence[:1].upper() + sentence[1:] if any(rule == "remember" for rule, _ in sentence_rules(sentence))
                  else "Remember: " + sentence)
    if negates(rest):  # "Don't use pnpm for installs, use bun.": the request denied and something in its place
        return as_request if not values_only and denies_and_puts(about, rest) else None
    new_words, old_words = _subject(rest), _subject(said)
    new_values, old_values = _values(rest), _values(said)
    put = {k: v for k, v in new_values.items() if k not in old_values}
    gone = {k: v for k, v in old_values.items() if k not in new_values}
    whole = bool(old_words) and old_words <= new_words  # every word of the request's subject said again
    if new_words - old_words:  # a word the request did not say: one word swapped, no value changed, or none
        swapped = len(new_words - old_words) == 1 and len(old_words - new_words) == 1 and new_words & old_words
        more = whole and not gone and not values_only  # the request said again whole, and more with it
        return as_request if (swapped and not put and not gone and not values_only) or more else None
    if len(put) != 1:
        kinds = {kind for kind, _ in put.values()} | {kind for kind, _ in gone.values()}
        # one fact said again whole with its one value put right by several of its kind ("We deploy on Thursdays
        # and Fridays." after "Remember we deploy on Mondays."): the new sentence
        return as_request if put and len(old_values) == len(gone) == 1 and whole and len(kinds) == 1 else None
    (kind, written), = put.values()
    same = [(k, v) for k, v in gone.items() if v[0] == kind]
    if not same:
        return None  # no value of its kind to put right
    if len(same) > 1:  # several: the one whose place the replacement names, else which one is not clear
        before = re.findall(r"[\w'\u2019]+", rest[:max(rest.find(written), 0)])
        kind_word = {before[-1].lower()} if before else set()  # "it's port 5434": "port" names its kind, no place
        chosen = _which(request, [(k, v[1]) for k, v in same], new_words - kind_word)
        if chosen is None:
            return Unclear(tuple(v[1] for _, v in sorted(same, key=lambda kv: request.find(kv[1][1]))))
        same = [(chosen[0], (kind, chosen[1]))]
    elif len(old_values) == 1 and old_words <= new_words and old_words:
        return as_request  # one fact, said again whole
    found = list(re.finditer(r"(?<![\w.-])" + re.escape(same[0][1][1]) + r"(?![\w-]|\.\w)", request))
    if len(found) != 1:
        return None  # the value is in what the request pointed back to, or said twice
    return request[:found[0].start()] + written + request[found[0].end():]


# What a result says, not a setting: a verb of what happened, or a duration or a count of things ("the tests took
# 12 minutes", "the build is 12 minutes", "it's 3 tests"; review of rev49c: a result after "never mind" was kept as a
# memory). A setting keeps its value ("the cache is on 6380", "we release on Thursdays").
_RESULT = re.compile(r"\b(?:took|takes|was|were|ran|failed|passed|lasted|cost)\b|\d[\d.,]*\s*(?:minutes?|mins?|"
                     r"seconds?|secs?|hours?|hrs?|times?|tests?|files?|lines?|ms|s|h)\b", _I)


def another_fact(rest: str) -> str | None:
    """What a take-back with a sentence after it in the same sentence (:func:`replacement`) says when that sentence
    is no new value of the request before it (:func:`replaced_request` gave None) but a fact of its own: a statement
    naming its subject and a value (:func:`_values`), negating nothing, no question or hedge ("Never mind, the cache
    is on 6380." after "Remember the db is on port 5433."). The person let the request go on ("never mind") to
    the fact they meant: both are kept — the request, as no doubtful replacement takes a fact away, and this fact,
    as the request it in effect is ("Remember: the cache is on 6380.", saved as the plain statement "The cache is on
    6380."; rev49c: it was read as it is, no rule fired, and the port the person gave was lost). None for anything
    else ("Scratch that, rerun the tests.": no value; "Never mind, it's not 5433": a denial). Linear."""
    from .gate import is_question_or_hedge, sentence_rules

    if is_question_or_hedge(rest) or negates(rest) or not _values(rest) or not _subject(rest) \
            or _RESULT.search(rest):
        return None
    sentence = rest if rest.endswith((".", "!", "。", "！")) else rest + "."
    if any(rule == "remember" for rule, _ in sentence_rules(sentence)):
        return sentence[:1].upper() + sentence[1:]
    return "Remember: " + sentence


# Where a denial and what it puts in place part: a clause mark (_CLAUSE), "but", "instead", German "sondern",
# "stattdessen" and Chinese 而是, 改用, 换成 ("Don't use pnpm, use bun", "不用 pnpm 了，改用 bun").
_PARTS = re.compile(r"\s*(?:[,;:，、；：。\u2014\u2013]|\s-\s|\b(?:but|instead|sondern|stattdessen)\b|而是|改用|换成)\s*", _I)
_PARTS_KEPT = re.compile(f"({_PARTS.pattern})", _I)  # the same marks, kept: which one opened a part
_REPLACING = re.compile(r"\b(?:but|instead|sondern|stattdessen)\b|而是|改用|换成", _I)  # marks that say "in its place"


def denies_and_puts(about: list[str], rest: str) -> bool:
    """Whether ``rest`` (:func:`replacement`, or the sentence after a bare take-back) denies the request it follows
    (``about``: the request and what it pointed back to) in one part and puts something in its place in another
    (:data:`_PARTS`): a part that negates (:func:`negates`) and shares a word of the request's subject, and a part
    that negates nothing and says a word or a value the request does not ("Don't use pnpm for installs, use bun."
    after "Remember to use pnpm for installs."; rev49c: bun was lost, nothing kept). Then the take-back's whole
    ``rest`` is what the person asks to keep. Linear in the length of ``rest``."""
    said = " ".join(about)
    subject, values, frame = _subject(said), _values(said), _claim(said)
    pieces = _PARTS_KEPT.split(rest)  # [part, mark, part, mark, …]: each part after the mark that opened it
    parts = [(pieces[i], pieces[i - 1] if i else "") for i in range(0, len(pieces), 2) if pieces[i].strip()]
    denied = any(negates(p) and _claim(p) & subject for p, _ in parts)
    # what is put in its place: a part in the request's own frame ("use bun" beside "use pnpm for installs") or
    # after a word that says so (instead, but, sondern, 改用); review: "we don't use pnpm anymore, sadly", "…, ever",
    # "…, it's slow" were read as replacements and kept as memories
    put = any(not negates(p) and (_claim(p) & frame or _REPLACING.search(mark))
              and (_subject(p) - subject or set(_values(p)) - set(values)) for p, mark in parts)
    return denied and put


def denies_request(about: list[str], rest: str) -> bool:
    """Whether ``rest`` (:func:`replacement`) denies the request it follows (``about``: the request and what it
    pointed back to) and says nothing new: it negates (:func:`negates`), shares a content word with it, and puts
    no value of its own ("Never mind, it's not port 5433" after "Remember the db is on port 5433."). Then the
    take-back cancels the request and nothing stands in its place (hand-45r: the denied value was saved). A denial
    naming another thing denies nothing: one holding a word the request does not in place of one it does ("we don't
    use npm" after "Remember to use pnpm."); one holding every word of the request's and more ("we don't use pnpm
    anymore", "we no longer use pnpm", "… in this repo") denies the request itself (break47: pnpm was saved)."""
    if not negates(rest) or denies_and_puts(about, rest):
        return False  # nothing denied, or something put in the request's place ("don't use pnpm, use bun")
    said = " ".join(about)
    new_values = _values(rest)
    if any(value not in _values(said) for value in new_values):
        return False  # "it's not 5433, it's 5434": a value of its own, read as said
    if _in_place_of(_claim(rest, ordered=True), _subject(said, ordered=True)):
        return False  # "Forget that — we don't use npm" after "Remember to use pnpm.": npm in pnpm's place
    return bool(_subject(rest) & _subject(said)) or bool(new_values)


def _in_place_of(claim: list[str], subject: list[str]) -> bool:
    """Whether the words ``claim`` (in order) say the words ``subject`` (in order) with one of them, absent from
    ``claim``, put in place by a word ``subject`` does not hold: ``[use, npm]`` for ``[use, pnpm]``, also with words
    around (``[use, npm, here]``); not ``[use, pnpm, anymore]`` (nothing left out) nor ``[pnpm, need]`` for ``[use,
    pnpm]`` (nothing where "use" stood). Linear in ``len(subject)`` times ``len(claim)`` (a sentence's words)."""
    said = set(subject)
    for i, word in enumerate(subject):
        if word in claim:
            continue
        at = 0
        for j, want in enumerate(subject):
            if j == i:
                while at < len(claim) and claim[at] in said:
                    at += 1
            else:
                while at < len(claim) and claim[at] != want:
                    at += 1
            if at == len(claim):
                break
            at += 1
        else:
            return True
    return False


# The stems "n't" leaves of a negated verb ("don't" → "don"): words of no subject.
_NOT_STEMS = frozenset({"don", "doesn", "didn", "isn", "aren", "wasn", "weren", "won", "can", "couldn", "shouldn",
                        "wouldn", "hasn", "haven", "hadn", "mustn", "needn", "ain"})


def _claim(text: str, *, ordered: bool = False):
    """:func:`_subject` of ``text`` without its words of negation ("we don't use npm" → {"use", "npm"}; a list in
    their order when ``ordered``)."""
    out = [w for w in _subject(text, ordered=True) if not _negation(w) and w not in _NOT_STEMS]
    return out if ordered else set(out)


def held_text(about: list[str], sentence: str, values: tuple) -> str:
    """What is kept pending for a person when ``sentence`` puts right one of ``values`` (of one kind) of the
    request said just before it (``about``: what it carries, then the request) and nothing says which: the
    request, what the person said after it, and the question ("Remember: the db is on port 5433 and the cache on
    port 6379. Then: “Sorry, it's port 5434.” Which of 5433 or 6379 it puts right is not clear: ask the
    person.")."""
    said = " ".join(t if t.endswith((".", "!", "。", "！")) else t + "." for t in about)
    which = ", ".join(values[:-1]) + " or " + values[-1]
    return f"{said} Then: \u201c{sentence}\u201d Which of {which} it puts right is not clear: ask the person."


__all__ = ["NOD", "Unclear", "another_fact", "correction", "denies_and_puts", "denies_request", "held_text", "is_retraction", "named", "negates",
           "replaced_request", "replacement", "takes_itself_back"]
