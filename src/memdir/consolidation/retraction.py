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
back a test run, not a request; "Scratch that, rerun the tests" asks for something new (see replacements below).
"That's wrong." alone is no retraction either: it is the gate's correction of what the assistant said.

Which request it cancels:

* by **adjacency**: the person's last sentence before it that says something (a content word or a request:
  "thanks", "ok", "looks good" do not count; other retractions neither), when that sentence is a request the gate counts (any of its rules,
  or a bare yes to the assistant's proposal). Another sentence of the person's between them — "Run the tests."
  — and the retraction is about that one: the request stays. The assistant's turns between do not count;
* by **naming**: "ignore/forget/disregard what I said about the deploy day" cancels the latest earlier request
  of the session sharing a content word with what it names (the most shared, then the latest); none shares one:
  nothing is cancelled.

A take-back followed by what replaces it in the same sentence ("Scratch that, we deploy on Thursdays.",
"Actually no, forget that — use pnpm", "Never mind, it's port 5434": :func:`replacement`) cancels the request
before it, by adjacency, when it is clearly the same fact with a new value (:func:`replaced_request`: the request's
subject kept, one of its values put right, or one word swapped), and is read as the request it in effect makes:
"Remember: we deploy on Thursdays.", or the request with its value changed ("Remember the db is on port 5434.";
in a request of several facts only the one value: "Remember we deploy on Thursdays and the db is on port
5433."), which the gate counts and the extractors keep (``replaced``). One that denies the request ("Never
mind, it's not port 5433") and names nothing else cancels it with nothing in its place ("Forget that — we don't
use npm" after "Remember to use pnpm." names npm: it cancels nothing, take46); one that denies it and puts
something in its place ("Scratch that. Don't use pnpm for installs, use bun.": :func:`denies_and_puts`) is read as
the request it makes ("Remember: don't use pnpm for installs, use bun."). Any other takes back nothing: the
person's earlier fact is never lost to a doubtful replacement ("Never mind" is no rule "never …" either). Of
those, a fact with a value of its own ("Never mind, the cache is on port 6380." after "Remember the db is on port
5433.": :func:`another_fact`) is kept beside the request, as the request it in effect makes ("Remember: the cache
is on port 6380."); the rest ("Scratch that, rerun the tests.") is read as it is.

Of a request of several values of one kind ("Remember: the db is on port 5433 and the cache on port 6379."), a
replacement puts right the one whose place its words name ("the cache port is 6380": the cache's). Fillers that
put something right followed by a value ("Sorry, the db is on port 5434.": :func:`correction`) put a value right
the same way, and do nothing else. When nothing says which ("Sorry, it's port 5434."), neither the request as
said (one of its values is wrong) nor a guess is kept: both are held, together, pending for a person
(``held``: :func:`held_text`; the extractors keep it as a pending finding, :mod:`memdir.prompt.pending`).

A retraction alone ("Scratch that.") followed in the same turn by a sentence that is clearly the same fact with
a new value ("We deploy on Thursdays.") and asks nothing itself: that sentence is read as the replacement, as if
said in the retraction's sentence (take46: it was not kept).

A sentence that says something and takes it back in its last clauses ("Remember we deploy on Fridays — no
wait, scratch that.") keeps nothing either (:func:`takes_itself_back`).

A request pointing back at the sentences before it ("We deploy on Fridays. Remember that.") is cancelled with
them. The retraction itself fires nothing ("Never mind." is no rule "never …").

Also here: a correction naming what is wrong and what is right, "The db-port memory is wrong: dev postgres is on
5432 again", "The db port is wrong, it's 5432" (:func:`wrong_and_right`), which the gate counts as a correction
and the rules extractor turns into an update (a candidate) of the memory it names or speaks about.

What one sentence takes back, and what it puts in place, is read in :mod:`memdir.consolidation.takeback`
(re-exported here); which request it cancels, here. Every expression is read in linear time: clauses are matched
whole by anchored expressions of fixed words.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from .gate import WRONG_AND_RIGHT_RULE
from .said import turn_number
from .takeback import (
    NOD,
    Unclear,
    another_fact,
    correction,
    denies_and_puts,
    denies_request,
    held_text,
    is_retraction,
    named,
    negates,
    replaced_request,
    replacement,
    takes_itself_back,
)

_I = re.IGNORECASE


_IT_IS = re.compile(r"^(?:(?:actually|now|but|and)[, ]+)?(?:it's|it is|it should be|that's|that is|they're|they are)\s+",
                    _I)
_MEMORY_NAMED = re.compile(r"^(?:the\s+)?(?:memory\s+(?P<after>[\w.-]+)|(?P<before>[\w.-]+)\s+(?:memory|note))$", _I)


# What a person says before the subject of "X is wrong": the last clause only (after , ; : — –), then after its
# last "and"/"but"/"so"/"because", then from its first article or possessive ("I checked and the db port",
# "Heads up: the db-port memory", "I think the staging URL in the README"), else without the words that open it.
_CLAUSE_BREAK = re.compile(r"[,;:\u2014\u2013]|\s-\s")
_JOINS = re.compile(r"\b(?:and|but|so|because|since|though|although)\s+", _I)
_DETERMINER = re.compile(r"\b(?:the|your|my|our|their|its|this|these|those)\b", _I)
_OPENING = re.compile(r"^(?:(?:actually|also|btw|by the way|oh|ok(?:ay)?|well|hey|heads up|fyi|note|sorry|so|just"
                      r"|i (?:think|believe|guess|noticed|checked|see|realized|realised|found|just (?:checked|noticed))"
                      r"|it (?:seems|looks like)|turns out|looks like|apparently|i'm afraid)\b[\s,]*)+", _I)


def subject_phrase(before: str) -> str:
    """The subject's phrase of what comes before "is wrong" in a correction (``before``): its last clause, after
    its last joining word, from its first article or possessive, else without its opening words ("I think",
    "actually", "heads up": :data:`_OPENING`); ``before`` stripped when that leaves nothing. Linear in its length.

    "I checked and the db port" → "the db port"; "Heads up: the db-port memory" → "the db-port memory"; "I
    think the staging URL in the README" → "the staging URL in the README"; "Actually port 5433" → "port
    5433"; "The db port" → "The db port"."""
    whole = before.strip(" ,")
    parts = _CLAUSE_BREAK.split(whole)
    phrase = parts[-1].strip(" ,") if parts else whole
    joins = list(_JOINS.finditer(phrase))
    if joins and phrase[joins[-1].end():].strip():
        phrase = phrase[joins[-1].end():]
    article = _DETERMINER.search(phrase)
    phrase = phrase[article.start():] if article else phrase[_OPENING.match(phrase).end() if _OPENING.match(phrase)
                                                                else 0:]
    return phrase.strip(" ,") or whole


def wrong_and_right(sentence: str) -> tuple[str, str, str | None] | None:
    """``(what is wrong, what is right, the memory name it names or None)`` for a correction of the form "X is
    wrong: Y" / "X is wrong, it's Y" ("The db-port memory is wrong: dev postgres is on 5432 again." →
    ``("The db-port memory", "Dev postgres is on 5432 again.", "db-port")``; "The db port is wrong, it's 5432."
    → ``("The db port", "The db port is 5432.", None)``); what is wrong is the subject's phrase only, not what
    the person said before it (:func:`subject_phrase`: "I checked and the db port is wrong, it's 5432" →
    ``("the db port", "The db port is 5432.", None)``). None for any other sentence, and for a denial ("Nothing
    is wrong: …", "No part of it was wrong, …": :func:`memdir.consolidation.denial.denies_wrong`)."""
    found = WRONG_AND_RIGHT_RULE.search(sentence)  # "Nothing about the db port is wrong, …": denied, none (break43)
    if found is None:
        return None
    subject = subject_phrase(sentence[:found.start()])
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
    :func:`memdir.consolidation.gate.sentences`), the request it cancelled (``cancelled``: turn, sentence
    index, the sentence) or None when it referred to none, and what it put in that request's place
    (``replaced_by``: the sentence the person in effect said, :func:`replacement`) or None; ``held``: when it puts
    right one of several values of a kind and nothing says which (:class:`Unclear`), the request and the
    correction together, kept pending for a person (:func:`held_text`) instead of either, else None."""

    turn: int
    index: int
    said: str
    cancelled: tuple[int, int, str] | None = None
    replaced_by: str | None = None
    held: str | None = None

    def to_dict(self) -> dict:
        out = {"turn": turn_number(self.turn), "said": self.said}  # turns as a person counts them, from 1
        if self.cancelled is not None:
            out["cancelled"] = {"turn": turn_number(self.cancelled[0]), "sentence": self.cancelled[2]}
        if self.replaced_by is not None:
            out["replaced_by"] = self.replaced_by
        if self.held is not None:
            out["held"] = self.held
        return out


@dataclass(frozen=True)
class Withdrawals:
    """What the person took back in a transcript: ``skipped`` maps a user turn's index to the indexes of its
    sentences that keep nothing (cancelled requests, what they pointed back to, and the retractions);
    ``confirmations`` the turns whose bare yes was cancelled; ``said`` every retraction, in order;
    ``replaced`` maps a user turn's index to ``{sentence index: the sentence read in its place}`` for each
    take-back that put something in the cancelled request's place ("Scratch that, we deploy on Thursdays.");
    ``held`` ``(turn, text)`` for each correction held for a person (:meth:`holds`)."""

    skipped: dict = field(default_factory=dict)
    confirmations: frozenset = frozenset()
    said: tuple = ()
    replaced: dict = field(default_factory=dict)
    held: tuple = ()

    def holds(self) -> list[tuple[int, str]]:
        """``(turn, text)`` of each correction held for a person (:attr:`Withdrawal.held`), in order: what the
        extractors keep pending (:mod:`memdir.prompt.pending`) rather than save or drop."""
        return list(self.held)

    def skip(self, turn: int) -> frozenset:
        """The indexes of turn ``turn``'s sentences that keep nothing."""
        return self.skipped.get(turn, frozenset())

    def replacements(self, turn: int) -> dict:
        """``{sentence index: the sentence read in its place}`` of turn ``turn`` (empty: none)."""
        return self.replaced.get(turn, {})

    def cancelled(self) -> list[Withdrawal]:
        """The retractions that cancelled a request, in order."""
        return [w for w in self.said if w.cancelled is not None]


NONE = Withdrawals()

class _Requests:
    """The requests said so far that a named retraction may cancel, by the content words (stems) they hold: for
    each stem, the order numbers of the requests holding it, in order (a cancelled one stays until it is at the list's
    end: each list shrinks from its end)."""

    __slots__ = ("by_stem", "dead", "stems")

    def __init__(self):
        self.by_stem: dict[str, list[int]] = {}
        self.stems: list[frozenset] = []
        self.dead: set[int] = set()

    def add(self, stems: frozenset) -> int:
        """Index a request holding ``stems``; its order number."""
        number = len(self.stems)
        self.stems.append(stems)
        for stem in stems:
            self.by_stem.setdefault(stem, []).append(number)
        return number

    def best(self, wanted: set) -> int | None:
        """The standing request sharing the most of ``wanted`` (then the latest); None when none shares one.

        Exact, with no cap (hand-45r: a look at the 256 latest lost "the Friday deploy" behind 300 requests on
        the deploy's region): the latest standing request sharing any is the one to beat, sharing ``c``; one
        sharing more holds ``c + 1`` of the stems, so it is in one of the ``len(lists) - c`` rarest stems' lists
        (pigeonhole), and only those are read. Time: the lengths of those lists, at most; nothing when the latest
        shares every stem named ("ignore what I said about the deploy" after many deploy requests)."""
        lists = []
        for stem in wanted:
            numbers = self.by_stem.get(stem)
            while numbers and numbers[-1] in self.dead:
                numbers.pop()
            if numbers:
                lists.append(numbers)
        if not lists:
            return None
        best = max(numbers[-1] for numbers in lists)
        shared = len(wanted & self.stems[best])
        if shared >= len(lists):
            return best
        lists.sort(key=len)
        for numbers in lists[:len(lists) - shared]:
            for number in reversed(numbers):
                if number in self.dead or number == best:
                    continue
                count = len(wanted & self.stems[number])
                if count > shared or (count == shared and number > best):
                    best, shared = number, count
        return best


def withdrawn(transcript) -> Withdrawals:
    """What the person took back in ``transcript`` (:class:`~memdir.consolidation.transcripts.Transcript`): its
    retractions (:func:`is_retraction`), the requests they cancel (module docstring: adjacency or naming), and what
    a take-back puts in a request's place in the same sentence (:func:`replacement`). :data:`NONE` when no
    sentence of the person's takes anything back. Time linear in the transcript's sentences, plus, for each named
    retraction, the requests holding its rarer words (:meth:`_Requests.best`). Never raises for text."""
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
    if not any(is_retraction(s) or takes_itself_back(s) or replacement(s) is not None or correction(s) is not None
               for _, said in turns for s in said):
        return NONE
    held: list[tuple[int, str]] = []
    after: dict[tuple[int, int], str] = {}  # (position, sentence index) -> what it is read as (a next sentence's)
    skipped: dict[int, set[int]] = {}
    replaced: dict[int, dict[int, str]] = {}
    confirmations: set[int] = set()
    out: list[Withdrawal] = []
    spoken: list[tuple[int, int]] = []  # (position in turns, sentence index) of what the person said, in order
    dead: set[tuple[int, int]] = set()
    requests = _Requests()
    numbered: dict[tuple[int, int], int] = {}  # (position, sentence index) of a request -> its order number
    positions: list[tuple[int, int]] = []  # and back
    confirmed: dict[int, str | None] = {}
    rules: dict[tuple[int, int], list] = {}
    where: dict[int, dict[str, list[int]]] = {}  # per turn position: a sentence -> its indexes

    def yes(pos: int) -> str | None:  # the proposal a bare yes confirmed (read once per turn)
        if pos not in confirmed:
            confirmed[pos] = confirmed_suggestion(transcript, turns[pos][0])
        return confirmed[pos]

    def asks(pos: int, i: int) -> list:  # the sentence's rules (read once per sentence)
        if (pos, i) not in rules:
            rules[pos, i] = said_rules(turns[pos][1], i)
        return rules[pos, i]

    def request(pos: int, i: int) -> bool:
        if (pos, i) in dead:
            return False
        return yes(pos) is not None or bool(asks(pos, i))

    def carried(pos: int, i: int) -> list[str]:
        said = turns[pos][1]
        back = pointed_to(said, i)
        if back is None and any(rule == "remember" and re.search(r"\b(?:this|that|it|these|those)\b", cue, _I)
                                for rule, cue in asks(pos, i)):
            back = said_before(said, i)  # "put this into CLAUDE.md"
        return back or []

    def cancel(pos: int, i: int) -> tuple[int, int, str]:
        index, said = turns[pos]
        dead.add((pos, i))
        if (pos, i) in numbered:
            requests.dead.add(numbered[pos, i])
        gone = skipped.setdefault(index, set())
        gone.add(i)
        if yes(pos) is not None:
            confirmations.add(index)
            return index, i, transcript.turns[index].text.strip()
        back = carried(pos, i)
        if back:
            if pos not in where:
                where[pos] = {}
                for j, text in enumerate(said):
                    where[pos].setdefault(text, []).append(j)
            gone.update(j for text in back for j in where[pos].get(text, ()) if j < i)
        return index, i, said[i]

    def speak(pos: int, i: int, words: set) -> None:
        spoken.append((pos, i))
        if request(pos, i):
            numbered[pos, i] = requests.add(frozenset(words))
            positions.append((pos, i))

    for pos, (index, said) in enumerate(turns):
        if yes(pos) is not None:
            speak(pos, 0, stems(yes(pos)))  # a bare yes to the assistant's proposal: said, as the proposal
            continue
        for i, sentence in enumerate(said):
            if takes_itself_back(sentence):  # "Remember we deploy on Fridays — no wait, scratch that."
                asked = request(pos, i)
                skipped.setdefault(index, set()).add(i)
                out.append(Withdrawal(index, i, sentence, cancel(pos, i) if asked else None))
                continue
            if (pos, i) in after:  # "Scratch that. We deploy on Thursdays.": read as what it puts in place
                speak(pos, i, stems(after[pos, i]))
                continue
            if not is_retraction(sentence):
                rest, soft = replacement(sentence), False
                if rest is None:  # "Sorry, it's port 5434.": a value put right, nothing else
                    rest = correction(sentence)
                    soft = rest is not None
                if rest is not None and spoken and request(*spoken[-1]):
                    at = spoken[-1]  # "Scratch that, we deploy on Thursdays.": the request before, if on that
                    target = turns[at[0]][1][at[1]] if yes(at[0]) is None else yes(at[0])
                    about = [target, *carried(*at)] if yes(at[0]) is None else [target]
                    if not soft and denies_request(about, rest):  # "Never mind, it's not port 5433": nothing in its place
                        skipped.setdefault(index, set()).add(i)
                        out.append(Withdrawal(index, i, sentence, cancel(*at)))
                        continue
                    instead = replaced_request(target, about, rest, values_only=soft)
                    if isinstance(instead, Unclear):  # which of its ports: not clear, so neither kept nor dropped
                        text = held_text([*about[1:], about[0]], sentence, instead.values)
                        skipped.setdefault(index, set()).add(i)
                        out.append(Withdrawal(index, i, sentence, cancel(*at), held=text))
                        held.append((index, text))
                        continue
                    if instead is not None:
                        replaced.setdefault(index, {})[i] = instead
                        rules[pos, i] = [("remember", instead)]  # a request now: a later "Scratch that." cancels it
                        out.append(Withdrawal(index, i, sentence, cancel(*at), instead))
                        speak(pos, i, stems(instead))  # what it says now is said, and may be taken back in turn
                        continue
                    other = another_fact(rest) if not soft else None
                    if other is not None:  # "Never mind, the cache is on 6380." after the db's port: both kept
                        replaced.setdefault(index, {})[i] = other
                        rules[pos, i] = [("remember", other)]
                        speak(pos, i, stems(other))
                        continue
                words = stems(sentence)
                if not NOD.fullmatch(sentence) and (words or asks(pos, i)):  # "Remember that." says no content word, but asks
                    speak(pos, i, words)
                continue
            skipped.setdefault(index, set()).add(i)
            about = named(sentence)
            target = None
            if about is not None:
                number = requests.best(stems(about))
                target = positions[number] if number is not None else None
            elif spoken and request(*spoken[-1]):
                target = spoken[-1]
            instead = None
            if about is None and target is not None and i + 1 < len(said):
                instead = _next_replacing(turns, target, carried(*target), yes(target[0]), said[i + 1], asks(pos, i + 1))
                if instead is not None:  # "Scratch that. We deploy on Thursdays.": the next sentence replaces it
                    after[pos, i + 1] = instead
                    replaced.setdefault(index, {})[i + 1] = instead
                    rules[pos, i + 1] = [("remember", instead)]
            out.append(Withdrawal(index, i, sentence, cancel(*target) if target is not None else None, instead))
    return Withdrawals({k: frozenset(v) for k, v in skipped.items()}, frozenset(confirmations), tuple(out),
                       {k: dict(v) for k, v in replaced.items()}, tuple(held))


def _next_replacing(turns, target: tuple[int, int], back: list[str], confirmed: str | None, following: str,
                    rules: list) -> str | None:
    """What the sentence ``following`` a retraction ("Scratch that." then "We deploy on Thursdays.") puts in the
    place of the request the retraction cancelled (``target``: its position; ``back``: what it pointed back to;
    ``confirmed``: the proposal a bare yes confirmed, else None), or None: it must be no take-back or question of
    its own, ask nothing itself (a request is kept as it is), and be clearly the same fact with a new value
    (:func:`replaced_request`; a value put right when several could be is not guessed)."""
    if rules or is_retraction(following) or takes_itself_back(following):
        return None
    if replacement(following) is not None or correction(following) is not None:
        return None
    request = confirmed if confirmed is not None else turns[target[0]][1][target[1]]
    about = [request, *back] if confirmed is None else [request]
    if negates(following) and not denies_and_puts(about, following):
        return None  # a denial alone puts nothing in the request's place ("Scratch that. We don't use npm.")
    if following[:1].isupper() and following[1:2].islower():
        following = following[:1].lower() + following[1:]  # "We deploy on Thursdays." → "Remember: we deploy …"
    instead = replaced_request(request, about, following)
    return instead if isinstance(instead, str) else None


__all__ = ["NONE", "Unclear", "Withdrawal", "Withdrawals", "correction", "held_text", "is_retraction", "named",
           "replacement", "subject_phrase",
           "takes_itself_back", "withdrawn", "wrong_and_right"]
