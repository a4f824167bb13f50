"""A transcript as memdir reads it, whichever client wrote it: :class:`Turn` (one message),
:class:`Transcript` (the bounded conversation) and :class:`TranscriptSummary` (what a report says
of it), and the cleaning every reader applies: injected context removed (:func:`strip_injected`),
messages a harness wrote on the person's behalf dropped (:func:`user_text`), text read out of
content blocks (:func:`block_text`), one JSON object per line (:func:`json_lines`)."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Iterable

# Blocks a harness or memdir injects into a user message; never the person's words.
_INJECTED = re.compile(
    r"<(memory_context|memory_recall|memory_pending|system-reminder|user-prompt-submit-hook|local-command-stdout|"
    r"environment_context|session_context|user_instructions|"
    r"local-command-stderr|command-name|command-message|command-args|command-stdout|bash-stdout|"
    r"bash-stderr|bash-input)\b[^>]*>.*?</\1\s*>",
    re.S | re.I,
)
# An opening tag left without its closing tag: everything after it is injected.
_INJECTED_OPEN = re.compile(r"<(memory_context|memory_recall|memory_pending|system-reminder|session_context)\b[^>]*>.*\Z",
                            re.S | re.I)
# Whole user messages a harness writes on the person's behalf.
_HARNESS_MESSAGE = re.compile(
    r"\A\s*(?:Stop hook feedback:|\[Request interrupted by user|Caveat: The messages below were generated"
    r"|This session is being continued from|# AGENTS\.md instructions for )",
    re.I,
)
ROLES = {"user": "user", "human": "user", "assistant": "assistant", "ai": "assistant", "model": "assistant",
          "gemini": "assistant"}


@dataclass(frozen=True)
class Turn:
    """One message: ``role`` is ``"user"`` or ``"assistant"``; ``ts`` the
    message time (UTC) when the transcript has one; ``cut`` True when the text
    was shortened to the per-message bound."""

    role: str
    text: str
    ts: datetime | None = None
    cut: bool = False

    def line(self) -> str:
        """The seed's buffer line: ``USER: …`` / ``ASSISTANT: …``."""
        return f"{self.role.upper()}: {self.text}"


@dataclass(frozen=True)
class Transcript:
    """A bounded transcript.

    ``turns`` oldest first; ``format`` is ``claude-code`` | ``codex`` |
    ``gemini`` | ``messages`` | ``text``; ``digest`` is SHA-256 of the kept turns (role and text), so the
    same conversation read twice has the same digest; ``malformed`` counts
    unreadable lines and ``bad_lines`` names the first of them (1-based line
    numbers, at most :data:`MAX_NAMED_LINES`); ``skipped`` counts dropped
    lines by reason; ``dropped`` counts messages left out by the
    24,000-character bound (the oldest); ``redaction_kinds`` counts the secrets
    redacted from the messages before they were cut, by kind (``{"github-token": 1}``), ``redactions`` in all.
    """

    turns: tuple[Turn, ...]
    format: str
    digest: str
    source: str | None = None
    session_id: str | None = None
    cwd: str | None = None
    malformed: int = 0
    skipped: dict = field(default_factory=dict)
    dropped: int = 0
    bad_lines: tuple[int, ...] = ()
    redaction_kinds: dict = field(default_factory=dict)

    @property
    def redactions(self) -> int:
        """How many secrets were redacted from the messages before they were cut (all kinds)."""
        return sum(self.redaction_kinds.values())

    def text(self) -> str:
        """The turns as ``ROLE: text`` lines separated by blank lines."""
        return "\n\n".join(t.line() for t in self.turns)

    def user_turns(self) -> list[tuple[int, Turn]]:
        """``(index, turn)`` for every user turn."""
        return [(i, t) for i, t in enumerate(self.turns) if t.role == "user"]

    def with_turns(self, turns: Iterable[Turn]) -> "Transcript":
        """A copy holding ``turns`` (the digest is kept: it names the input)."""
        from dataclasses import replace

        return replace(self, turns=tuple(turns))

    def summary(self) -> "TranscriptSummary":
        """What a report and a receipt say about this transcript."""
        return TranscriptSummary(self.format, self.digest, self.source, self.session_id, len(self.turns),
                                 sum(1 for t in self.turns if t.role == "user"), self.malformed,
                                 dict(self.skipped), self.dropped, sum(1 for t in self.turns if t.cut),
                                 self.bad_lines)


@dataclass(frozen=True)
class TranscriptSummary:
    """A transcript as a report shows it: its ``format`` and ``digest``, where
    it came from (``source``, ``session_id``), how many messages were kept
    (``turns``, ``user_turns`` from the person) and left out (``malformed``
    lines, the first named in ``bad_lines``, ``skipped`` by reason, ``dropped``
    by the size bound) and how many kept messages were ``cut`` to the
    per-message bound)."""

    format: str
    digest: str
    source: str | None
    session_id: str | None
    turns: int
    user_turns: int
    malformed: int = 0
    skipped: dict = field(default_factory=dict)
    dropped: int = 0
    cut: int = 0
    bad_lines: tuple[int, ...] = ()

    def to_dict(self) -> dict:
        return {"format": self.format, "digest": self.digest, "source": self.source,
                "session_id": self.session_id, "turns": self.turns, "user_turns": self.user_turns,
                "malformed": self.malformed, "skipped": dict(self.skipped), "dropped": self.dropped,
                "cut": self.cut, "bad_lines": list(self.bad_lines)}


# ---------------------------------------------------------------- cleaning


def strip_injected(text: str) -> str:
    """``text`` without injected context blocks (memory fences, system
    reminders, hook and slash-command blocks), trimmed."""
    text = _INJECTED.sub("", text)
    text = _INJECTED_OPEN.sub("", text)
    return text.strip()


def block_text(content: Any) -> tuple[str, bool]:
    """Text of a message content (string or blocks) and whether it held a tool result."""
    if isinstance(content, str):
        return content, False
    if isinstance(content, dict):
        content = [content]
    if not isinstance(content, list):
        return "", False
    parts, tool = [], False
    for block in content:
        if isinstance(block, str):
            parts.append(block)
        elif isinstance(block, dict):
            kind = block.get("type")
            if kind in ("tool_result", "tool_use", "function_call", "function_call_output"):
                tool = True
            elif kind in ("text", "input_text", "output_text", None) and isinstance(block.get("text"), str):
                parts.append(block["text"])
    return "\n".join(parts), tool


MAX_REASONS = 20
"""Distinct reasons a ``skipped`` count keeps besides ``other``, where later new ones are counted."""
MAX_NAMED_LINES = 10
"""Line numbers of unreadable lines a transcript names (the count goes on past them)."""
_REASON = re.compile(r"[A-Za-z0-9_.$-]{1,40}")


def bump(counts: dict, reason) -> None:
    """Count one more message or line left out for ``reason`` in ``counts``. The reason is often
    a value the transcript holds (a line's ``type``, a message's role): one that is not a short
    word (a nested object, a long or odd string) is counted as ``other``, as is a new reason past
    :data:`MAX_REASONS`, so hostile input cannot fill a report or a receipt."""
    reason = reason if isinstance(reason, str) and _REASON.fullmatch(reason) else "other"
    if reason not in counts and len(counts) >= MAX_REASONS:
        reason = "other"
    counts[reason] = counts.get(reason, 0) + 1


def unreadable(info: dict, number: int) -> None:
    """Count line ``number`` (1-based) of a transcript as malformed in ``info``, naming the first
    :data:`MAX_NAMED_LINES` such lines in ``info["bad_lines"]``."""
    info["malformed"] += 1
    if len(info["bad_lines"]) < MAX_NAMED_LINES:
        info["bad_lines"].append(number)


def jsonl_lines(text: str) -> list[str]:
    """The lines of JSONL ``text``: split at ``\n`` alone (a ``\r`` before it dropped). Never
    :meth:`str.splitlines`: JSON strings may hold U+2028, U+2029 and U+0085 unescaped (Node's
    ``JSON.stringify`` leaves them), and splitting there would turn one message into two
    unreadable lines. A byte-order mark opening a line (files joined with ``cat``) is dropped: no JSON
    line starts with one."""
    return [line.removesuffix("\r").removeprefix("\ufeff") for line in text.split("\n")]


def user_text(raw: str, skipped: dict) -> str | None:
    """What the person said in ``raw`` (injected blocks removed), or None — counted in ``skipped`` —
    for a message a harness wrote or one that held only injected text."""
    if _HARNESS_MESSAGE.match(raw):
        bump(skipped, "harness")
        return None
    text = strip_injected(raw)
    if not text:
        bump(skipped, "injected" if raw.strip() else "empty")
        return None
    return text


def loads(text: str):
    """``json.loads``, with JSON nested too deeply to parse (RecursionError) raised as ValueError:
    one bad line of a transcript is malformed, never a crash."""
    try:
        return json.loads(text)
    except RecursionError:
        raise ValueError("JSON nested too deeply") from None


def json_lines(lines: Iterable[str], info: dict):
    """``(line number, object)`` (1-based) for each line of ``lines`` that holds a JSON object; other
    non-empty lines count as malformed (:func:`unreadable`, by line number)."""
    for number, raw in enumerate(lines, 1):
        if not raw.strip():
            continue
        try:
            obj = loads(raw)
        except ValueError:
            obj = None
        if isinstance(obj, dict):
            yield number, obj
        else:
            unreadable(info, number)


def new_info() -> dict:
    """The counts a reader returns beside its turns: ``malformed`` lines (the first line numbers in
    ``bad_lines``), ``skipped`` by reason, the ``session_id`` and ``cwd`` when the transcript says them."""
    return {"malformed": 0, "bad_lines": [], "skipped": {}, "session_id": None, "cwd": None}


__all__ = ["Turn", "Transcript", "TranscriptSummary", "strip_injected", "block_text", "user_text", "bump",
           "loads", "json_lines", "jsonl_lines", "new_info", "unreadable", "ROLES", "MAX_NAMED_LINES", "MAX_REASONS"]
