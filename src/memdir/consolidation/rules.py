"""The offline extractor: explicit statements by the person, in their words.

No model, no network. It reads only the person's turns (never the
assistant's text, never tool output) and keeps a sentence only when it is an
explicit statement of one of these kinds (cues from :mod:`memdir.consolidation.gate`):

* a request to remember something → the remembered part, typed by what it is;
* a standing rule ("always …", "never …", "only ever …") or a correction that
  says what to do instead ("use X, not Y", "X instead of Y") → ``feedback``;
* a stated preference or a fact about the person ("I prefer …", "I'm a …")
  → ``user`` (user layer: it holds in every project);
* a decision or a deadline ("we decided …", "the deadline is …") → ``project``.

Questions, hedges and hypotheticals are never kept (the gate's filter).
Relative dates are made absolute from the message time ("next Friday" →
"next Friday (2026-12-04)"; "next <weekday>" is that weekday in the following
Monday-based week, "this/on/by <weekday>" the next such day from the message
date). A statement the workspace's AGENTS.md/CLAUDE.md already says, or that
an existing memory already holds, is left out. Every proposal is a ``create``:
this extractor never targets an existing memory.
"""

from __future__ import annotations

import re
from datetime import datetime, timedelta, timezone

from .proposals import ExtractionContext, ExtractionResult, Proposal
from .gate import is_question_or_hedge, sentence_rules, sentences
from ..store.names import normalize_name

_I = re.I
_WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_ZH_DAYS = {"一": 0, "二": 1, "三": 2, "四": 3, "五": 4, "六": 5, "日": 6, "天": 6}

# Leading words that ask to remember rather than say the fact.
_REMEMBER_LEAD = re.compile(
    r"^(?:(?:ok(?:ay)?|so|also|and|btw|fyi|oh|yes|no)[,.!]?\s+)*(?:please\s+|pls\s+|plz\s+|just\s+)?"
    r"(?:remember|memori[sz]e|note|keep in mind|don'?t forget|do not forget|for future reference|make a note)"
    r"(?:\s+(?:that|this))?\s*[:,-]?\s*"
    r"|^(?:请)?(?:记住|记一下|记下来|别忘了|不要忘记|不要忘了)[:：，,]?\s*", _I)
_INSTEAD = re.compile(
    r"\binstead\b|\brather than\b|,?\s+not\s+\w+|\bnot\b.{1,60}\bbut\b|\bshould (?:be|use)\b"
    r"|不是.{1,30}(?:而是|是)|应该|改用|换成", _I)
_USER_SUBJECT = re.compile(r"^(?:i\b|i'm\b|i'd\b|i've\b|my\b|我)", _I)
_HERE = re.compile(r"\b(?:this|the) (?:project|repo|repository|codebase|code base)\b|\bhere\b|本项目|这个项目", _I)
_STOP = frozenset("""
a an the and or but so to of in on at by for with from as is are was were be been being it its it's this that
these those there here i i'm i'd i've me my mine we we're our us you you're your please pls plz just also then
than very really remember note keep mind don't dont do does did not no yes ok okay let let's lets make made go
going get got want need would will shall should can could may might must about into over under again more
most some any all every each which who what when where why how thing things stuff sure like love
""".split())
_WORD = re.compile(r"[a-z0-9]+|[\u4e00-\u9fff]+", _I)
_PREFERENCE_VERBS = frozenset({"enjoy", "prefer", "hate", "dislike", "stand", "fan", "favorite", "favourite"})


# ---------------------------------------------------------------- dates


def _day(ref: datetime, days: int) -> str:
    return (ref + timedelta(days=days)).strftime("%Y-%m-%d")


def _weekday_offset(ref: datetime, weekday: int, next_week: bool) -> int:
    if next_week:
        # "next Friday": the Friday of the following Monday-based week.
        return (7 - ref.weekday()) + weekday
    return (weekday - ref.weekday()) % 7


_REL_EN = re.compile(
    r"\b(the day after tomorrow|tomorrow|today|tonight|yesterday|next week|next month"
    r"|in (\d{1,3}) (day|days|week|weeks)|end of (?:the )?(week|month)"
    r"|(next|this|coming|on|by|until|before) (" + "|".join(_WEEKDAYS) + r"))\b(?! ?\(\d{4}-)", _I)
_REL_ZH = re.compile(r"(后天|明天|今天|昨天|下个?月|(下|本|这)周([一二三四五六日天])|(\d{1,3})天后)")


def absolutize(text: str, ref: datetime | None) -> str:
    """``text`` with each relative date followed by its absolute date in
    parentheses, computed from ``ref`` (the message time, UTC). Unchanged
    when ``ref`` is None. Pure."""
    if ref is None:
        return text
    ref = ref.astimezone(timezone.utc)

    def en(match: re.Match) -> str:
        word = match.group(0)
        low = word.lower()
        if low in ("today", "tonight"):
            date = _day(ref, 0)
        elif low == "tomorrow":
            date = _day(ref, 1)
        elif low == "the day after tomorrow":
            date = _day(ref, 2)
        elif low == "yesterday":
            date = _day(ref, -1)
        elif low == "next week":
            date = "week of " + _day(ref, 7 - ref.weekday())
        elif low == "next month":
            year, month = (ref.year + 1, 1) if ref.month == 12 else (ref.year, ref.month + 1)
            date = f"{year:04d}-{month:02d}"
        elif match.group(2):
            count = int(match.group(2))
            date = _day(ref, count * (7 if match.group(3).lower().startswith("week") else 1))
        elif match.group(4):
            if match.group(4).lower() == "week":
                date = _day(ref, (4 - ref.weekday()) % 7)
            else:
                first_next = (ref.replace(day=1) + timedelta(days=32)).replace(day=1)
                date = (first_next - timedelta(days=1)).strftime("%Y-%m-%d")
        else:
            weekday = _WEEKDAYS.index(match.group(6).lower())
            date = _day(ref, _weekday_offset(ref, weekday, match.group(5).lower() == "next"))
        return f"{word} ({date})"

    def zh(match: re.Match) -> str:
        word = match.group(0)
        fixed = {"今天": 0, "明天": 1, "后天": 2, "昨天": -1}
        if word in fixed:
            date = _day(ref, fixed[word])
        elif word.startswith("下") and word.endswith("月"):
            year, month = (ref.year + 1, 1) if ref.month == 12 else (ref.year, ref.month + 1)
            date = f"{year:04d}-{month:02d}"
        elif match.group(4):
            date = _day(ref, int(match.group(4)))
        else:
            date = _day(ref, _weekday_offset(ref, _ZH_DAYS[match.group(3)], match.group(2) == "下"))
        return f"{word}（{date}）"

    return _REL_ZH.sub(zh, _REL_EN.sub(en, text))


# ---------------------------------------------------------------- words


def content_words(text: str) -> list[str]:
    """Lower-case words of ``text`` without stop words, in order, de-duplicated;
    CJK runs become character bigrams."""
    out: list[str] = []
    for token in _WORD.findall(text.lower()):
        if not token.isascii():
            grams = [token[i:i + 2] for i in range(len(token) - 1)] or [token]
            out.extend(g for g in grams if g not in out)
        elif token not in _STOP and token not in out and (len(token) > 1 or token.isdigit()):
            out.append(token)
    return out


def _name_for(statement: str) -> str:
    words = [w for w in _WORD.findall(statement.lower()) if w.isascii()]
    picked: list[str] = []
    for word in words:
        if word in _STOP or word in picked or (len(word) < 2 and not word.isdigit()):
            continue
        picked.append(word)
        if len(picked) == 5:
            break
    if picked:
        return "-".join(picked)[:48].strip("-")
    return normalize_name(statement[:24]).name  # CJK: a stable hashed slug, the text kept as title


def _title_for(statement: str) -> str | None:
    if statement.isascii():
        return None
    return statement[:40].rstrip("，。,.;；：: ") or None


def _cut(text: str, limit: int) -> str:
    if len(text) <= limit:
        return text
    head = text[:limit - 1]
    space = head.rfind(" ")
    return (head[:space] if space > limit // 2 else head).rstrip(" ,;:") + "…"


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:] if text[:1].islower() else text


# ---------------------------------------------------------------- classification


def classify(sentence: str) -> tuple[str, str] | None:
    """``(kind, statement)`` for a sentence worth keeping, else None. ``kind``
    is the memory type (user, feedback, project); ``statement`` the person's
    words without a leading "remember that"."""
    rules = {rule for rule, _ in sentence_rules(sentence)}
    if not rules:
        return None
    statement = sentence
    if "remember" in rules:
        statement = _REMEMBER_LEAD.sub("", sentence).strip()
        if len(statement) < 4 or is_question_or_hedge(statement):
            return None
        inner = {rule for rule, _ in sentence_rules(statement)}
        if inner & {"rule", "correction", "constraint"} and not _USER_SUBJECT.match(statement):
            return "feedback", statement
        if inner & {"personal", "preference"} or _USER_SUBJECT.match(statement):
            return "user", statement
        return "project", statement
    if "correction" in rules and _INSTEAD.search(sentence):
        return "feedback", statement
    if "rule" in rules:
        return "feedback", statement
    if rules & {"preference", "personal"} and not set(content_words(statement)) - _PREFERENCE_VERBS:
        return None  # "I really enjoy it": nothing to remember without its object
    if "preference" in rules:
        return ("feedback" if not _USER_SUBJECT.match(sentence) else "user"), statement
    if "personal" in rules and _USER_SUBJECT.match(sentence):
        return "user", statement
    if rules & {"decision", "deadline"}:
        return "project", statement
    return None


def _body(kind: str, quote: str, when: datetime | None) -> str:
    stamp = f" on {when.strftime('%Y-%m-%d')}" if when else ""
    lines = [f"The user said{stamp}: “{quote}”"]
    if kind == "feedback":
        lines += ["", f"**Why:** the user stated this{stamp} as how they want the work done.",
                  "**How to apply:** follow it whenever this applies; ask before departing from it."]
    return "\n".join(lines)


class RulesExtractor:
    """The offline :class:`~memdir.consolidation.proposals.Extractor` (``name = "rules"``).

    ``extract`` returns ``create`` proposals only, at most
    ``context.max_proposals`` × 2 (the caller applies at most the setting),
    in transcript order. Never raises for text it cannot use: it just keeps
    nothing.
    """

    name = "rules"
    model = None

    def extract(self, transcript, context: ExtractionContext) -> ExtractionResult:
        proposals: list[Proposal] = []
        notes: list[str] = []
        names: set[str] = set()
        seen: set[str] = set()
        known = [set(content_words(d)) for d in context.existing_descriptions()]
        docs = set(content_words(context.workspace_text or ""))
        for index, turn in transcript.user_turns():
            for sentence in sentences(turn.text):
                found = classify(sentence)
                if found is None:
                    continue
                kind, statement = found
                words = content_words(statement)
                key = " ".join(words)
                if not words or key in seen:
                    continue
                seen.add(key)
                if docs and len(words) >= 3 and sum(w in docs for w in words) / len(words) >= 0.8:
                    notes.append(f"turn {index}: already in AGENTS.md/CLAUDE.md: {statement[:80]}")
                    continue
                if any(len(words) >= 2 and sum(w in k for w in words) / len(words) >= 0.9 for k in known):
                    notes.append(f"turn {index}: an existing memory already says: {statement[:80]}")
                    continue
                when = turn.ts or context.reference_time
                dated = absolutize(statement, when)
                name = _name_for(statement)
                base, n = name, 2
                while name in names:
                    name = f"{base[:44]}-{n}"
                    n += 1
                names.add(name)
                scope = "user" if kind == "user" and not _HERE.search(statement) else "project"
                proposals.append(Proposal(
                    action="create", name=name, type=kind, scope=scope,
                    description=_cut(_capital(dated), 160), body=_body(kind, dated, when),
                    title=_title_for(statement), evidence=sentence, turn=index,
                ))
                if len(proposals) >= context.max_proposals * 2:
                    return ExtractionResult(proposals, notes=notes)
        return ExtractionResult(proposals, notes=notes)


__all__ = ["RulesExtractor", "absolutize", "classify", "content_words"]
