"""The offline extractor: explicit statements by the person, in their words.

No model, no network. It reads only the person's turns (never the
assistant's text, never tool output) and keeps a sentence only when it is an
explicit statement of one of these kinds (cues from :mod:`memdir.consolidation.gate`):

* a request to remember or write something down ("remember …", "important:
  …", "put this into CLAUDE.md", 记住, 把这个写进 CLAUDE.md) → its content —
  for "put this into …" the turn's sentences before it — typed by what it is;
* a standing rule ("always …", "never …", "only ever …") or a correction that
  says what to do instead ("use X, not Y", "X instead of Y") → ``feedback``;
* a preference or a fact about the person ("I prefer …", "I'm a …", a
  first-person statement about their life, also after a lead-in: "That is
  great, I love hiking" → "I love hiking") or with "I" left out ("Grew up in
  Tallahassee") → ``user`` (user layer: it holds
  in every project); a feeling of the moment or a hypothetical ("I'm a
  little stressed", "I wish …", "I may …", "I hear they …") is not one, nor a
  statement that only points back at what was said before ("I love him!",
  "It's my favorite activity") or a fragment ("My best friend."), whichever
  rule fired (:mod:`memdir.consolidation.extractors.persona`); the person's own taste
  ("Punk is my favorite") is ``user``, a preference about the work
  ``feedback``;
* a decision, a deadline or a constraint ("we decided …", "the deadline is
  …", "must stay …") → ``project``.

Never kept: questions, hedges and hypotheticals (the gate's filter);
instructions about this session's files and steps ("as you go", "for now",
"in a notes.md file"); a statement whose point is a secret's value; what the
workspace's AGENTS.md/CLAUDE.md already says. What an existing memory already says
(:func:`memdir.consolidation.restating.said_by_any`, the one rule) is proposed as an
update of that memory, outside the cap, which the apply step reports ``unchanged``. Leading
conjunctions and fillers ("And", "So", "first of all,") are dropped. Relative
dates are made absolute from the message time
(:mod:`memdir.consolidation.extractors.dates`: "next Friday" → "next Friday (2026-12-04)").
A statement on the subject of an existing memory
(:func:`memdir.consolidation.extractors.subjects.same_subject`) becomes an ``update`` of
it; a later statement on the subject of an earlier one in the session
replaces it.
"""

from __future__ import annotations

import re
from datetime import datetime

from ...gateway.fields import free_name
from ...text.redact import PLACEHOLDER_PATTERN, holds_redaction
from ..gate import (REMEMBER_BACK_FR_ES_PT_RU, REMEMBER_DE, REMEMBER_FR_ES_PT_RU, REMEMBER_KO_JA, confirmed_suggestion,
                    is_question_or_hedge, pointed_to, said_before, sentence_rules, sentences)
from ..proposals import ExtractionContext, ExtractionResult, Proposal
from ..retraction import withdrawn, wrong_and_right
from ..said import turn_number
from .dates import absolutize
from .persona import (
    FIRST_PERSON,
    after_passing,
    is_fragment,
    is_life_statement,
    is_passing,
    own_clause,
    points_back,
    refers_back,
    without_subject,
)
from .wording import DESCRIPTION_LIMIT, capital, content_words, cut, joined, name_for, title_for

_I = re.I

# Leading words that ask to remember rather than say the fact.
_REMEMBER_LEAD = re.compile(
    r"^(?:(?:ok(?:ay)?|so|also|and|btw|fyi|oh|yes|no)[,.!]?\s+)*(?:please\s+|pls\s+|plz\s+|just\s+)?"
    r"(?:remember|memori[sz]e|note|keep in mind|don'?t forget|do not forget|for future reference|make a note)"
    r"(?:\s+(?:that|this))?\s*[:,-]?\s*"
    r"|^(?:请)?(?:记住|记一下|记下来|别忘了|不要忘记|不要忘了)[:：，,]?\s*"
    # the German, Korean, Japanese, French, Spanish, Portuguese and Russian requests the gate fires on
    r"|^(?:(?:bitte|und|auch|also|übrigens)\s+)?" + REMEMBER_DE + r"\s*[:,]?\s*(?:dass\s+)?"
    r"|^" + REMEMBER_KO_JA + r"[:：,，、。.]?\s*"
    r"|^(?:(?:et|y|e|и|s['’]il\s+te\s+plaît|por\s+favor|пожалуйста)\s+)?" + REMEMBER_FR_ES_PT_RU
    + r"\s*[:,]?\s*(?:(?:que|de\s+que|что)\s+)?", _I)
# The same request after what it asks to keep ("…, 기억해 줘", "…、忘れないでください。", "…, merk dir das").
# (It starts where no space is before it: from inside a run of spaces each start read the run again, quadratic; a
# match from there also matched from the run's start, the one taken.)
_REMEMBER_TAIL = re.compile(
    r"(?<!\s)\s*[,，、:：;]\s*(?:(?:bitte\s+)?merk(?:e)?\s+(?:dir|euch)\s+(?:das|es)(?:\s+bitte)?|vergiss\s+(?:das|es)\s+nicht"
    r"|" + REMEMBER_KO_JA + r"|" + REMEMBER_BACK_FR_ES_PT_RU + r")[.!。！]*$", _I)
# Asking to write something down: with its content after it ("important: X",
# "add to CLAUDE.md: X") or pointing back at what the turn said ("put this into CLAUDE.md"): the ask, then where
# to on the same line (:func:`_asks_to_write_down`).
_WRITE_DOWN_ASK = re.compile(
    r"\b(?:put(?:ting)?|add(?:ing)?|writ(?:e|ing)|sav(?:e|ing)|record(?:ing)?|stor(?:e|ing)|keep(?:ing)?)\s+"
    r"(?:this|that|it|these|those)\b", _I)
_WRITE_DOWN_TO = re.compile(r"\b(?:in|into|to)\s+(?:the\s+|your\s+|our\s+)?(?:claude\.md|agents\.md|memory|memories)\b", _I)
_WRITE_DOWN_ZH = re.compile(r"把.{0,12}(?:记|写|加|存)(?:到|进|入)(?:CLAUDE\.md|AGENTS\.md|记忆)?", _I)
_WRITE_DOWN_LEAD = re.compile(
    r"^\**(?:important|note)\**\s*[:：]\s*|^(?:please\s+|pls\s+)?(?:add|write|put)\s+(?:to|in|into)\s+"
    r"(?:the\s+|your\s+)?(?:claude\.md|agents\.md|memory)\s*[:：]\s*|^重要[:：]\s*", _I)
# Leading conjunctions and fillers: the statement starts with its subject.
_FILLER = re.compile(
    r"^(?:(?:and|so|also|but|oh|well|yeah|yes|ok(?:ay)?|alright|btw|fyi|anyway|plus|first of all|firstly|"
    r"actually|now|hey|right|then|one more thing|another thing|last thing|same here|same as me|me too|cool|wow|"
    r"nice|great|haha|lol|hi|hello|hey there|sure|true|thanks|thank you|that'?s (?:cool|great|awesome|nice))\b"
    r"[,.!:]?\s*|(?:please|pls|plz)\s+"
    r"(?=always|never|use|don'?t|do not|keep|make)|(?:还有|另外|然后|那么|而且|对了)[，,]?\s*)+", _I)
# This session's files and steps, not a standing rule.
_TASK_ONLY = re.compile(
    r"\bas you go\b|\b(?:for|in) (?:this|the current) (?:task|session|run|step|exercise)\b|\bfor now\b"
    r"|\bthis time\b|\bat the end of this\b|\bright now\b|\bfor the moment\b|\bin an? \S+\.\w{1,5} file\b"
    r"|\bbefore moving on\b|\bthe next one\b"
    r"|这次|暂时|先这样", _I)
# (", not" starts at its comma, or where no space nor comma is before its spaces: from inside a run of spaces each
# start read the run again, quadratic; a match from there also matched from the run's start or its comma.)
_INSTEAD = re.compile(
    r"\binstead\b|\brather than\b|(?:,|(?<![\s,]))\s+not\s+\w+|\bnot\b.{1,60}\bbut\b|\bshould (?:be|use)\b"
    r"|不是.{1,30}(?:而是|是)|应该|改用|换成", _I)
# 我 is "I", 我们/我們 "we": "我们的发布分支是 release/2026" (our release branch) is the project's, never the person's
# (break39: it was saved in the user layer, shown in every project).
_USER_SUBJECT = re.compile(r"^(?:i\b|i'm\b|i'd\b|i've\b|my\b|我(?![们們]))", _I)
# A preference that is the person's own taste, and one about how the work is done (to the agent, the code).
_OWN_TASTE = re.compile(r"\bmy (?:all[- ]time )?favou?rite\b|\bi (?:\w+ )?(?:like|love|enjoy|prefer|hate)\b"
                        r"|\bi'?m (?:really )?into\b|我(?![们們])", _I)
_TO_THE_WORK = re.compile(r"\b(?:you|your|u|please|pls|use|using|code|commits?|tests?|answers?|replies|docs?)\b", _I)
_HERE = re.compile(r"\b(?:this|the) (?:project|repo|repository|codebase|code base)\b|\bhere\b|本项目|这个项目", _I)
_PREFERENCE_VERBS = frozenset({"enjoy", "prefer", "hate", "dislike", "stand", "fan", "favorite", "favourite"})


# ---------------------------------------------------------------- classification


def strip_filler(text: str) -> str:
    """``text`` without leading conjunctions and fillers ("And", "So", "first
    of all,", "pls" before a rule, 另外), capitalized."""
    return capital(_FILLER.sub("", text.strip()).strip())


def is_task_only(sentence: str) -> bool:
    """True for an instruction about this session's files and steps ("as you
    go", "for now", "in a notes.md file") rather than a standing rule."""
    return bool(_TASK_ONLY.search(sentence))


def write_down(sentences_of_turn: list[str], i: int) -> str | None:
    """The content of an explicit request to write something down, sentence
    ``i`` of a turn: what follows "important:"/"add to CLAUDE.md:", else —
    for "put this into CLAUDE.md" or a request pointing back ("… Remember
    it.", "the port is 6543, remember that": :func:`memdir.consolidation.gate.pointed_to`)
    — what it points to (fillers dropped, at most three sentences). None when
    the sentence is no such request or nothing is left."""
    sentence = sentences_of_turn[i]
    lead = _WRITE_DOWN_LEAD.match(sentence)
    if lead and len(content_words(sentence[lead.end():])) >= 2:
        return strip_filler(sentence[lead.end():])
    before = pointed_to(sentences_of_turn, i)  # "… Remember it.", "Keep that in mind.": the gate's one rule
    if before is None and _asks_to_write_down(sentence):  # "put this into CLAUDE.md": the turn's sentences before it
        before = said_before(sentences_of_turn, i)
    before = [strip_filler(s) for s in before or []]
    if not before:
        return None
    return " ".join(s if s.endswith((".", "!", "。", "！")) else s + "." for s in before)


def is_personal_fact(statement: str) -> bool:
    """True for a first-person statement about the person's life worth
    keeping as a ``user`` memory (at least three content words; not a
    feeling of the moment, not about this conversation or this session's
    work, not ending by pointing back at what was said before:
    :func:`memdir.consolidation.extractors.persona.is_life_statement`)."""
    return (is_life_statement(statement) and len(content_words(statement)) >= 3
            and not is_question_or_hedge(statement))


_QUESTION_TAIL = re.compile(r",\s*(?:and |but |so )?(?:what|where|how|who|which|when|why|do|does|did|are|is|have"
                            r"|can|would|could|will|you)\b[^,]*\?$"
                            r"|(?<!\s)\s+(?:do|did|are|have|would|can|will) (?:you|u)\b[^,]*\?$", _I)


def _without_question_tail(sentence: str) -> str:
    """``sentence`` with a question after it ("…, where do you go?") made a full stop: ``_QUESTION_TAIL.sub(".", …)``
    in linear time. Every match ends the sentence with "?" (or "?" and one newline) and holds no comma after its
    first character: it is looked for from the last comma on only. (Read from every "do you" of a long sentence on to
    its end or to a comma, "do you do you …" cost the square of its length; so did every start inside a run of
    spaces: the second way starts where no space is before it, as a match from the run's start is taken first.)"""
    if not sentence.endswith(("?", "?\n")):
        return sentence
    found = _QUESTION_TAIL.search(sentence, max(sentence.rfind(","), 0))
    return sentence if found is None else sentence[:found.start()] + "." + sentence[found.end():]


def _asks_to_write_down(sentence: str) -> bool:
    """Whether ``sentence`` asks to write something down (``put this into CLAUDE.md``, 把这个写进 CLAUDE.md), as one
    expression of ask, anything on the same line, then where to (which may go on past the line's end: "into\\nthe
    memory") read in linear time: the first place to write to after an ask is looked for once and kept for the later asks
    before it; when it starts past the ask's line, no later ask of that line has one either, so the line is passed
    over. (As one expression each ask of "put this put this …" was read on to the line's end: quadratic.)"""
    if _WRITE_DOWN_ZH.search(sentence):
        return True
    at, to = 0, None
    while (ask := _WRITE_DOWN_ASK.search(sentence, at)) is not None:
        if to is None or to.start() < ask.end():
            to = _WRITE_DOWN_TO.search(sentence, ask.end())
            if to is None:
                return False
        end = sentence.find("\n", ask.end())
        if end < 0 or to.start() < end:
            return True
        at = end
    return False


_STANDING = frozenset({"remember", "rule", "correction", "constraint", "decision", "deadline"})


def classify(sentence: str) -> tuple[str, str] | None:
    """``(kind, statement)`` for a sentence worth keeping, else None (see
    :func:`_classify`). A statement about the person or their taste that
    only points back at what was said before ("I love him!", "It's my
    favorite activity": :func:`memdir.consolidation.extractors.persona.points_back`) or
    is a fragment ("My best friend.": :func:`~memdir.consolidation.extractors.persona.is_fragment`)
    keeps nothing, whichever rule fired — a standing rule, correction,
    decision or a request to remember is not judged so."""
    found = _classify(sentence)
    if found is None or found[0] == "project":
        return found
    if (points_back(found[1]) or is_fragment(found[1])) and not {r for r, _ in sentence_rules(sentence)} & _STANDING:
        return None
    return found


def _classify(sentence: str) -> tuple[str, str] | None:
    """``(kind, statement)`` for a sentence worth keeping, else None. ``kind``
    is the memory type (user, feedback, project); ``statement`` the person's
    words without a leading "remember that" or filler ("And", "So"). A
    statement followed by a question ("I hike in the mountains, where do you
    go?") is kept without the question."""
    sentence = _without_question_tail(sentence.replace("\u2019", "'"))
    # "I may not have finished college but I love to read", "I'm so excited, I love concerts": the fact
    sentence = after_passing(strip_filler(sentence)) or sentence
    rules = {rule for rule, _ in sentence_rules(sentence)}
    statement = strip_filler(sentence)
    if is_task_only(sentence):
        return None
    if not rules and not is_personal_fact(statement):
        clause = own_clause(statement)  # "Luckily I spend most of my time at work": the statement
        if clause and is_personal_fact(clause) and not is_passing(clause):
            return "user", clause
        if without_subject(statement) and len(content_words(statement)) >= 2 and not is_question_or_hedge(statement):
            return "user", statement  # "Grew up in Tallahassee": the person's, "I" left out
        return None
    corrected = wrong_and_right(sentence) if "correction" in rules and "remember" not in rules else None
    if corrected is not None:  # "The db-port memory is wrong: dev postgres is on 5432 again": what is right
        return _kind_of(corrected[1]), corrected[1]
    if FIRST_PERSON.match(statement) and is_passing(statement) and "remember" not in rules:
        return None  # a feeling of the moment or a hypothetical, whichever rule fired
    if rules & {"preference", "personal"} and not FIRST_PERSON.match(statement):
        clause = own_clause(statement)  # "That is great, I love nature also": the person's own part
        statement = clause if clause and not is_passing(clause) else statement
    if "remember" in rules:
        statement = strip_filler(_REMEMBER_TAIL.sub("", _REMEMBER_LEAD.sub("", statement)).strip())
        if len(statement) < 4 or is_question_or_hedge(statement):
            return None
        inner = {rule for rule, _ in sentence_rules(statement)}
        if inner & {"personal", "preference"} and _USER_SUBJECT.match(statement):
            return "user", statement
        if inner & {"rule", "correction", "constraint"}:
            return "feedback", statement
        if _USER_SUBJECT.match(statement):
            return "user", statement
        return "project", statement
    if rules & {"preference", "personal"} and not set(content_words(statement)) - _PREFERENCE_VERBS:
        return None  # "I really enjoy it": nothing to remember without its object
    if "preference" in rules and _USER_SUBJECT.match(statement):
        return "user", statement  # a preference about the person: the user layer, in every project
    if "correction" in rules and _INSTEAD.search(sentence):
        return "feedback", statement
    if "rule" in rules:
        return "feedback", statement
    if "preference" in rules:  # "Punk is my favorite", "In my spare time I enjoy gardening": the person's taste
        return ("user" if _OWN_TASTE.search(statement) and not _TO_THE_WORK.search(statement) else "feedback"), statement
    if "personal" in rules and _USER_SUBJECT.match(statement):
        return "user", statement
    if rules & {"decision", "deadline", "constraint", "schedule"}:
        return "project", statement
    if is_personal_fact(statement):
        return "user", statement
    return None


def _body(kind: str, quote: str, when: datetime | None, confirmed: bool = False) -> str:
    stamp = f" on {when.strftime('%Y-%m-%d')}" if when else ""
    lines = [f"The user confirmed{stamp} the assistant's proposal: “{quote}”" if confirmed
             else f"The user said{stamp}: “{quote}”"]
    if kind == "feedback":
        lines += ["", f"**Why:** the user stated this{stamp} as how they want the work done.",
                  "**How to apply:** follow it whenever this applies; ask before departing from it."]
    return "\n".join(lines)


def _kind_of(statement: str) -> str:
    """The type of what a person asked to write down."""
    inner = {rule for rule, _ in sentence_rules(statement)}
    if inner & {"personal", "preference"} and _USER_SUBJECT.match(statement):
        return "user"
    return "feedback" if inner & {"rule", "correction", "constraint"} else "project"


# The verbs redact's stated secrets hold (English, German, French, Spanish, Portuguese, Chinese, Japanese):
# "数据库密码是 <placeholder>" keeps as little as "the password is <placeholder>".
_SECRET_VALUE = re.compile(rf"(?:\b(?:is|are|was|ist|war|est|es|é)|[:=：是为は])\s*{PLACEHOLDER_PATTERN}\W*$"
                           rf"|^\W*{PLACEHOLDER_PATTERN}\W*$")


def secret_value_only(statement: str) -> bool:
    """Whether what ``statement`` says is a secret's value, redacted ("the deploy token is [REDACTED]"):
    nothing is left to keep. The one test of every extractor that keeps the person's sentences (the rules'
    proposals, the agent's pending findings)."""
    return _SECRET_VALUE.search(statement) is not None


def statement_of(said: list[str], i: int) -> tuple[str, str] | None:
    """``(kind, statement)`` for sentence ``i`` of a turn's sentences: an
    explicit request to write something down (with its content), else
    :func:`classify`; a statement ending in ``;`` goes on with the next
    sentence. None when the sentence keeps nothing — also when what it says
    is a secret's value ("the deploy token is [REDACTED]": nothing left to keep)."""
    content = write_down(said, i)
    if content is not None:
        if is_task_only(content) or len(content_words(content)) < 2:
            return None
        found = _kind_of(content), content
    else:
        found = classify(said[i])
    if found is None or secret_value_only(found[1]):
        return None
    kind, statement = found
    if statement.endswith((";", "；")) and i + 1 < len(said):
        statement = f"{statement} {said[i + 1]}"
    return kind, statement


def turn_statements(transcript, index: int, withdrawals=None) -> list[tuple[str, tuple[str, str] | None]]:
    """``(evidence, (kind, statement) or None)`` for each sentence of the
    person's turn ``index`` (:func:`statement_of`) — or, when the whole turn
    is a bare yes to the assistant's proposal of a standing rule
    (:func:`memdir.consolidation.gate.confirmed_suggestion`), one item: the
    turn and ``("confirmed", the proposal as a statement)``; a proposal about
    this session's steps only keeps nothing. ``withdrawals``: what the person took back
    (:func:`memdir.consolidation.retraction.withdrawn`): those sentences, and a cancelled yes, keep nothing; a
    take-back with what replaces it is read as the sentence it in effect says."""
    turn = transcript.turns[index]
    confirmed = confirmed_suggestion(transcript, index)
    if confirmed is not None:
        if is_task_only(confirmed) or (withdrawals is not None and index in withdrawals.confirmations):
            return []
        return [(turn.text.strip(), ("confirmed", confirmed))]
    said = sentences(turn.text)
    skip = withdrawals.skip(index) if withdrawals is not None else ()
    for i, instead in (withdrawals.replacements(index) if withdrawals is not None else {}).items():
        said[i] = instead  # "Scratch that, we deploy on Thursdays.": read as "Remember: we deploy on Thursdays."
    return _with_antecedents(said, [(_evidence(said, i), None if i in skip else statement_of(said, i))
                                    for i in range(len(said))])


def _evidence(said: list[str], i: int) -> str:
    """The person's words sentence ``i`` of a turn keeps a fact from: the sentence, and before it the sentences it
    points back to ("We deploy on Fridays. Remember that.": both, as :func:`write_down` reads them). The
    evidence is what consolidation checks against what the agent saved during the session; "Remember that."
    alone matched nothing, so a fact the agent had just saved was proposed again (trial29)."""
    sentence = said[i]
    if _WRITE_DOWN_LEAD.match(sentence):
        return sentence
    before = pointed_to(said, i)
    if before is None and _asks_to_write_down(sentence):
        before = said_before(said, i)
    before = [s for s in before or [] if s not in sentence]  # "the port is 6543, remember that": one sentence
    return " ".join([*before, sentence])


def _with_antecedents(said: list[str], items: list) -> list:
    """``items`` with each statement about the person that is about a
    pronoun (:func:`memdir.consolidation.extractors.persona.refers_back`: "I enjoy
    learning them.") joined to the sentence before it in the same turn —
    to that sentence's own statement of the same kind when it made one — so
    the memory says what the pronoun stands for. When the turn opens with
    it, or the sentence before says too little (fewer than three content
    words) or held a secret (redacted: it is no antecedent, and a memory
    must not carry it), a statement about the person keeps nothing (what it
    stands for was the other speaker's) and a standing rule or request to
    remember is kept as it is — when it has two content words of its own
    ("Never push it to main.", not "Always do it.")."""
    out: list = []
    for i, (sentence, found) in enumerate(items):
        if found is None or not refers_back(found[1]):
            out.append((sentence, found))
            continue
        kind = found[0]
        before, kept = out[i - 1] if i else (None, None)
        if kept is not None and kept[0] == kind:
            out[i - 1] = (f"{before} {sentence}", (kind, joined(kept[1], found[1])))
            out.append((sentence, None))
        elif i and len(content_words(said[i - 1])) >= 3 and not holds_redaction(said[i - 1]):
            out.append((f"{said[i - 1]} {sentence}", (kind, joined(strip_filler(said[i - 1]), found[1]))))
        else:
            standing = kind == "confirmed" or {rule for rule, _ in sentence_rules(sentence)} & _STANDING
            # "Always do it.": a rule with nothing of its own left to say keeps nothing either
            out.append((sentence, found if standing and len(content_words(found[1])) >= 2 else None))
    return out


def _named_memory(corrected: tuple, existing) -> tuple[str, str] | None:
    """``(scope, name)`` of the existing memory a correction names ("The db-port memory is wrong: …",
    :func:`memdir.consolidation.retraction.wrong_and_right`), the project's before the user's; None when it
    names none of ``existing`` (or no memory at all)."""
    name = corrected[2]
    found = [(m.scope, m.name) for m in existing if name and m.name == name and m.status != "superseded"]
    return min(found, key=lambda f: f[0] != "project") if found else None


class _Made:
    """A proposal made in this run, as :func:`~memdir.consolidation.extractors.subjects.same_subject` sees it."""

    def __init__(self, index: int, proposal: Proposal):
        self.index, self.scope, self.name = index, "run", str(index)
        self.description, self.body, self.status = proposal.description, "", "active"


class RulesExtractor:
    """The offline :class:`~memdir.consolidation.proposals.Extractor` (``name = "rules"``).

    ``extract`` returns at most ``context.max_proposals`` × 2 proposals (the
    caller applies at most the setting; the statements found beyond them are
    counted in ``left_out`` and named in a note, never dropped unsaid), in transcript order: a ``create``
    per kept statement, or an ``update`` of the existing memory on the same
    subject (:func:`memdir.consolidation.extractors.subjects.same_subject`: names,
    descriptions and bodies searched). A later statement on the subject of an
    earlier one in the same session replaces it. Never raises for text it
    cannot use: it just keeps nothing.
    """

    name = "rules"
    model = None

    def extract(self, transcript, context: ExtractionContext) -> ExtractionResult:
        from ..restating import in_workspace, said_by_any
        from .subjects import same_subject

        proposals: list[Proposal] = []
        made: list[_Made] = []
        notes: list[str] = []
        names: set[str] = set()
        seen: set[str] = set()
        cap, left = context.max_proposals * 2, []
        restating = 0  # proposals restating the memory they update: outside the cap (the apply step writes nothing)
        by_name = {(m.scope, m.name): m for m in context.existing}
        withdrawals = withdrawn(transcript)
        for index, turn in transcript.user_turns():
            for sentence, found in turn_statements(transcript, index, withdrawals):
                if found is None:
                    continue
                kind, statement = found
                corrected = wrong_and_right(sentence)  # "The db-port memory is wrong: dev postgres is on 5432"
                named = _named_memory(corrected, context.existing) if corrected else None
                if corrected and named is None and same_subject(statement, context.existing) is None:
                    notes.append(f"turn {turn_number(index)}: a correction of nothing stored: {statement[:80]}")
                    continue
                confirmed = kind == "confirmed"  # the assistant's proposal, the person's yes
                kind = "feedback" if confirmed else kind
                words = content_words(statement)
                key = " ".join(words)
                if not words or key in seen:
                    continue
                seen.add(key)
                if in_workspace(statement, context.workspace_text):
                    notes.append(f"turn {turn_number(index)}: already in AGENTS.md/CLAUDE.md: {statement[:80]}")
                    continue
                # a memory saying it already (the one rule, restating.saved_by): an update of that memory, which
                # the apply step reports unchanged and why (written during the session, already says it), beyond
                # the cap; a negation built of its words ("no longer needs the VPN") is no restatement
                sayer = said_by_any(context.existing, statement)
                when = turn.ts or context.reference_time
                dated = absolutize(statement, when)
                scope = "user" if kind == "user" and not _HERE.search(statement) else "project"
                description, body = cut(capital(dated), DESCRIPTION_LIMIT), _body(kind, dated, when, confirmed)
                earlier = same_subject(statement, made)
                if earlier is not None:  # the session came back to this subject: the later word wins
                    old = proposals[int(earlier[1])]
                    proposals[int(earlier[1])] = Proposal(
                        action=old.action, name=old.name, target=old.target, type=kind, scope=old.scope,
                        description=description, body=body, title=title_for(statement), evidence=sentence,
                        turn=index)
                    made[int(earlier[1])].description = description
                    continue
                if len(proposals) - restating >= cap and sayer is None:  # a new subject past the cap: named
                    left.append(statement)
                    continue
                target = named or ((sayer.scope, sayer.name) if sayer is not None else None) \
                    or same_subject(statement, context.existing)
                restating += sayer is not None
                if target is not None:
                    existing = by_name[target]
                    # an update keeps the memory's type (Proposal.type None): a rule's guess does not retype it
                    proposal = Proposal(action="update", target=existing.name, type=None, scope=existing.scope,
                                        description=description, body=_body(existing.type, dated, when, confirmed),
                                        title=title_for(statement), evidence=sentence, turn=index)
                else:
                    name = free_name(name_for(statement), "", names.__contains__)  # another subject, same words
                    names.add(name)
                    proposal = Proposal(action="create", name=name, type=kind, scope=scope, description=description,
                                        body=body, title=title_for(statement), evidence=sentence, turn=index)
                made.append(_Made(len(proposals), proposal))
                proposals.append(proposal)
        if left:
            notes.append(f"{len(left)} more statement(s) not proposed: at most {cap} proposals per run "
                         f"(first left out: {left[0][:80]})")
        held = []  # "Sorry, it's port 5434." after two ports: which one is not clear, so a person is asked
        for index, text in withdrawals.holds():
            ts = transcript.turns[index].ts
            held.append(("remember", text, ts.strftime("%Y-%m-%d") if ts else None))
            notes.append(f"turn {turn_number(index)}: which value a correction puts right is not clear: held for a person")
        return ExtractionResult(proposals, notes=notes, left_out=len(left), pending=held)


__all__ = ["RulesExtractor", "absolutize", "classify", "content_words", "is_task_only", "secret_value_only", "statement_of",
           "strip_filler", "turn_statements", "write_down"]
