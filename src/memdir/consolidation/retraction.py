"""What the person took back in the session: a later retraction cancels the earlier request it refers to.

"Remember: we deploy on Fridays." … "Scratch that, that was wrong." keeps nothing: the gate does not count the
request, and neither the rules extractor nor the agent extractor (its pending findings) keeps it. One rule, read
by all three (:func:`withdrawn`).

A **retraction** is a sentence of the person's made only of taking back and of fillers, each clause (split at
``, ; : — –``) one of them: "scratch that", "forget that/it", "never mind", "don't save/remember that", "ignore
that", "disregard that", "strike that", "that was wrong", "I was wrong", "I misspoke" (and in German, French,
Spanish, Portuguese, Russian, Chinese, Korean, Japanese: "vergiss das", "oublie ça", "olvídalo", "esqueça
isso", "забудь это", 算了, 别记了, 취소해, 忘れて …), with "it's wrong", "that's not true", "wait", "no", "sorry",
"actually" beside them. A clause with more in it is no retraction: "Scratch that last test run, rerun it" takes
back a test run, not a request; "Scratch that, rerun the tests" asks for something new and takes back nothing.
"That's wrong." alone is no retraction either: it is the gate's correction of what the assistant said.

Which request it cancels:

* by **adjacency**: the person's last sentence before it that says something (a content word or a request:
  "thanks", "ok", "looks good" do not count; other retractions neither), when that sentence is a request the gate counts (any of its rules,
  or a bare yes to the assistant's proposal). Another sentence of the person's between them — "Run the tests."
  — and the retraction is about that one: the request stays. The assistant's turns between do not count;
* by **naming**: "ignore/forget/disregard what I said about the deploy day" cancels the latest earlier request
  of the session sharing a content word with what it names (the most shared, then the latest); none shares one:
  nothing is cancelled.

A sentence that says something and takes it back in its last clauses ("Remember we deploy on Fridays — no
wait, scratch that.") keeps nothing either (:func:`takes_itself_back`).

A request pointing back at the sentences before it ("We deploy on Fridays. Remember that.") is cancelled with
them. The retraction itself fires nothing ("Never mind." is no rule "never …").

Also here: a correction naming what is wrong and what is right, "The db-port memory is wrong: dev postgres is on
5432 again", "The db port is wrong, it's 5432" (:func:`wrong_and_right`), which the gate counts as a correction
and the rules extractor turns into an update (a candidate) of the memory it names or speaks about.

Every expression here is read in linear time: clauses are matched whole by anchored expressions of fixed words.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from .gate import WRONG_AND_RIGHT_RULE

_I = re.IGNORECASE

# Words a person says around taking something back.
_FILLER = (r"(?:wait|no|nope|nah|oh|oops|whoops|hmm+|um+|uh+|ah|sorry|actually|ok(?:ay)?|well|please|hold on"
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
# Where a clause ends: a comma, a semicolon, a colon or a dash.
_CLAUSE = re.compile(r"\s*(?:[,;:，、；：\u2014\u2013]|\s-\s)\s*")
# "ignore what I said about the deploy day": what it names is the rest.
_NAMED = re.compile(
    r"^(?:" + _FILLER + r"(?!\w)[ ,]+)*+(?:(?:just|please|and) )*+"
    r"(?:ignore|forget|disregard|scratch|drop|never mind) (?:what|everything|the thing|the part) i (?:just |had )?"
    r"(?:said|told you|asked(?: you)?(?: to remember)?) (?:about|regarding|on|of) (?P<about>\S.*)$", _I)
# Thanks and nods between a request and its retraction ("Thanks! Never mind, don't save it."): said, but about nothing.
_NOD = re.compile(r"(?:(?:thanks|thank you|thx|great|cool|ok(?:ay)?|perfect|good|nice|awesome|sure|yes|yeah|yep"
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


_IT_IS = re.compile(r"^(?:(?:actually|now|but|and)[, ]+)?(?:it's|it is|it should be|that's|that is|they're|they are)\s+",
                    _I)
_MEMORY_NAMED = re.compile(r"^(?:the\s+)?(?:memory\s+(?P<after>[\w.-]+)|(?P<before>[\w.-]+)\s+(?:memory|note))$", _I)


def wrong_and_right(sentence: str) -> tuple[str, str, str | None] | None:
    """``(what is wrong, what is right, the memory name it names or None)`` for a correction of the form "X is
    wrong: Y" / "X is wrong, it's Y" ("The db-port memory is wrong: dev postgres is on 5432 again." →
    ``("The db-port memory", "Dev postgres is on 5432 again.", "db-port")``; "The db port is wrong, it's 5432."
    → ``("The db port", "The db port is 5432.", None)``); None for any other sentence, and for a denial ("Nothing
    is wrong: …", "No part of it was wrong, …": :func:`memdir.consolidation.gate.denies_wrong`)."""
    found = WRONG_AND_RIGHT_RULE.search(sentence)  # "Nothing about the db port is wrong, …": denied, none (break43)
    if found is None:
        return None
    subject = sentence[:found.start()].strip(" ,")
    right = sentence[found.end():].strip()
    if not subject or not right:
        return None
    it_is = _IT_IS.match(right)
    if it_is:
        right = f"{subject} is {right[it_is.end():]}"
    right = right[:1].upper() + right[1:]
    if not right.endswith((".", "!", "。", "！")):
        right += "."
    name = _MEMORY_NAMED.match(subject)
    return subject, right, (name.group("after") or name.group("before")).lower() if name else None


@dataclass(frozen=True)
class Withdrawal:
    """One retraction: the person's sentence ``said`` (turn ``turn``, sentence ``index`` of
    :func:`memdir.consolidation.gate.sentences`) and the request it cancelled (``cancelled``: turn, sentence
    index, the sentence) or None when it referred to none."""

    turn: int
    index: int
    said: str
    cancelled: tuple[int, int, str] | None = None

    def to_dict(self) -> dict:
        out = {"turn": self.turn, "said": self.said}
        if self.cancelled is not None:
            out["cancelled"] = {"turn": self.cancelled[0], "sentence": self.cancelled[2]}
        return out


@dataclass(frozen=True)
class Withdrawals:
    """What the person took back in a transcript: ``skipped`` maps a user turn's index to the indexes of its
    sentences that keep nothing (cancelled requests, what they pointed back to, and the retractions);
    ``confirmations`` the turns whose bare yes was cancelled; ``said`` every retraction, in order."""

    skipped: dict = field(default_factory=dict)
    confirmations: frozenset = frozenset()
    said: tuple = ()

    def skip(self, turn: int) -> frozenset:
        """The indexes of turn ``turn``'s sentences that keep nothing."""
        return self.skipped.get(turn, frozenset())

    def cancelled(self) -> list[Withdrawal]:
        """The retractions that cancelled a request, in order."""
        return [w for w in self.said if w.cancelled is not None]


NONE = Withdrawals()


def withdrawn(transcript) -> Withdrawals:
    """What the person took back in ``transcript`` (:class:`~memdir.consolidation.transcripts.Transcript`): its
    retractions (:func:`is_retraction`) and the requests they cancel (module docstring: adjacency or naming).
    :data:`NONE` when no sentence of the person's is a retraction. Never raises for text."""
    from .extractors.subjects import stems
    from .gate import (
        confirmed_suggestion,
        pointed_to,
        said_before,
        said_rules,
        sentences,
    )

    turns = []  # (turn index, sentences)
    for index, turn in transcript.user_turns():
        turns.append((index, sentences(turn.text)))
    if not any(is_retraction(s) or takes_itself_back(s) for _, said in turns for s in said):
        return NONE
    skipped: dict[int, set[int]] = {}
    confirmations: set[int] = set()
    out: list[Withdrawal] = []
    spoken: list[tuple[int, int]] = []  # (position in turns, sentence index) of what the person said, in order
    dead: set[tuple[int, int]] = set()

    def request(pos: int, i: int) -> bool:
        index, said = turns[pos]
        if (pos, i) in dead:
            return False
        return confirmed_suggestion(transcript, index) is not None or bool(said_rules(said, i))

    def cancel(pos: int, i: int) -> tuple[int, int, str]:
        index, said = turns[pos]
        dead.add((pos, i))
        gone = skipped.setdefault(index, set())
        gone.add(i)
        if confirmed_suggestion(transcript, index) is not None:
            confirmations.add(index)
            return index, i, transcript.turns[index].text.strip()
        carried = pointed_to(said, i)
        if carried is None and any(rule == "remember" and re.search(r"\b(?:this|that|it|these|those)\b", cue, _I)
                                   for rule, cue in said_rules(said, i)):
            carried = said_before(said, i)  # "put this into CLAUDE.md"
        for text in carried or []:
            for j in range(i):
                if said[j] == text:
                    gone.add(j)
        return index, i, said[i]

    for pos, (index, said) in enumerate(turns):
        if confirmed_suggestion(transcript, index) is not None:
            spoken.append((pos, 0))  # a bare yes to the assistant's proposal: said, if in no content word
            continue
        for i, sentence in enumerate(said):
            if takes_itself_back(sentence):  # "Remember we deploy on Fridays — no wait, scratch that."
                asked = request(pos, i)
                skipped.setdefault(index, set()).add(i)
                out.append(Withdrawal(index, i, sentence, cancel(pos, i) if asked else None))
                continue
            if not is_retraction(sentence):
                if not _NOD.fullmatch(sentence) and (stems(sentence) or said_rules(said, i)):  # "Remember that." says no content word, but asks
                    spoken.append((pos, i))
                continue
            skipped.setdefault(index, set()).add(i)
            about = named(sentence)
            target = None
            if about is not None:
                wanted = stems(about)
                best = 0
                for at in reversed(spoken):
                    shared = len(wanted & stems(turns[at[0]][1][at[1]]))
                    if shared > best and request(*at):
                        target, best = at, shared
            elif spoken and request(*spoken[-1]):
                target = spoken[-1]
            out.append(Withdrawal(index, i, sentence, cancel(*target) if target is not None else None))
    return Withdrawals({k: frozenset(v) for k, v in skipped.items()}, frozenset(confirmations), tuple(out))


__all__ = ["NONE", "Withdrawal", "Withdrawals", "is_retraction", "named", "takes_itself_back", "withdrawn",
           "wrong_and_right"]
