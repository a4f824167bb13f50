"""Session transcripts: read what the person and the assistant said, nothing else.

Five formats, detected from the content:

* **Claude Code JSONL** (``~/.claude/projects/<project>/<session>.jsonl``; see
  ``../shared/data/README.md``): one JSON object per line. ``user`` lines hold
  what the person typed (a string or text blocks) — or, as ``tool_result``
  blocks, tool output, which is skipped. ``assistant`` lines may carry one
  content block each: blocks are grouped by ``message.id`` and only their
  ``text`` is kept (no thinking, no tool calls). Lines marked ``isMeta``,
  ``isSidechain``, ``isCompactSummary`` or ``isApiErrorMessage`` are not the
  person speaking and are skipped, as are unknown line types. A line that is
  not a JSON object is counted as malformed and skipped.
* **Codex JSONL** (``~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl``, as Codex
  CLI 0.171 writes it): one ``{"timestamp", "type", "payload"}`` object per line;
  ``response_item`` lines whose payload is a ``message`` of role ``user`` or
  ``assistant`` are the conversation (``input_text``/``output_text`` blocks);
  ``developer`` messages, tool calls and their output, reasoning, ``event_msg``
  (the same messages again, as events) and ``session_meta`` (read for the
  session id and cwd) are not. Codex puts its ``<environment_context>`` and the
  AGENTS.md text in user messages: those are injected and removed.
* **Gemini CLI JSONL** (``~/.gemini/tmp/<project>/chats/session-*.jsonl``, as
  Gemini CLI 0.61 writes it): a header ``{"sessionId", "projectHash", …}``,
  message records ``{"id", "timestamp", "type": "user"|"gemini"|"info"|…,
  "content"}`` (text or parts), ``{"$set": {…}}`` updates (``messages``
  replaces the whole list, as a resumed session writes it) and ``{"$rewindTo":
  id}`` (drops that message and those after it), replayed in order as the
  client does; a record with an id seen before replaces it in place. Only
  ``user`` and ``gemini`` messages count; the ``<session_context>`` the client
  injects is removed. Older Gemini CLI versions' one JSON document
  (``{"sessionId", "messages": [...]}``) is read as a list of messages.
* **A JSON list of messages** ``[{"role": "user"|"assistant", "content": …}]``
  (also ``{"messages": [...]}``); content is a string or OpenAI/Anthropic-style
  text blocks; ``timestamp``/``ts``/``created_at`` are read when present.
* **Plain text** with ``USER:`` / ``ASSISTANT:`` prefixes (the seed's buffer
  format, seed-behaviour §A11); a line without a prefix continues the message.

Injected context is removed from every message: ``<memory_context>``,
``<memory_recall>``, ``<memory_pending>``, ``<system-reminder>`` and hook/command blocks, and user
messages that a harness wrote (Stop hook feedback, interruptions, slash
command echoes) are dropped whole.

Bounds follow the seed's consolidation buffer (§A11): user text 2,000
characters and assistant text 500 per message (cut with ``…``), at most 24,000
characters in all (messages joined as ``ROLE: text`` lines with a blank line
between), newest kept.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any, Iterable

from ..errors import InvalidInput
from ..files.fsio import DIRECTORY, MISSING, read_foreign
from ..files.memfile import parse_time

USER_LIMIT = 2000
ASSISTANT_LIMIT = 500
TOTAL_LIMIT = 24_000
MAX_TRANSCRIPT_BYTES = 256 * 1024 * 1024  # a larger file is refused unread (a session's is megabytes)

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
_PREFIX = re.compile(r"^\s*(USER|HUMAN|ASSISTANT|AI)\s*:\s?(.*)$", re.I)
_ROLES = {"user": "user", "human": "user", "assistant": "assistant", "ai": "assistant", "model": "assistant",
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
    unreadable lines; ``skipped`` counts dropped lines by reason; ``dropped``
    counts messages left out by the 24,000-character bound (the oldest).
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
                                 dict(self.skipped), self.dropped, sum(1 for t in self.turns if t.cut))


@dataclass(frozen=True)
class TranscriptSummary:
    """A transcript as a report shows it: its ``format`` and ``digest``, where
    it came from (``source``, ``session_id``), how many messages were kept
    (``turns``, ``user_turns`` from the person) and left out (``malformed``
    lines, ``skipped`` by reason, ``dropped`` by the size bound) and how many
    kept messages were ``cut`` to the per-message bound)."""

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

    def to_dict(self) -> dict:
        return {"format": self.format, "digest": self.digest, "source": self.source,
                "session_id": self.session_id, "turns": self.turns, "user_turns": self.user_turns,
                "malformed": self.malformed, "skipped": dict(self.skipped), "dropped": self.dropped,
                "cut": self.cut}


# ---------------------------------------------------------------- cleaning


def strip_injected(text: str) -> str:
    """``text`` without injected context blocks (memory fences, system
    reminders, hook and slash-command blocks), trimmed."""
    text = _INJECTED.sub("", text)
    text = _INJECTED_OPEN.sub("", text)
    return text.strip()


def _block_text(content: Any) -> tuple[str, bool]:
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


def _bump(counts: dict, reason: str) -> None:
    counts[reason] = counts.get(reason, 0) + 1


def _user_text(raw: str, skipped: dict) -> str | None:
    if _HARNESS_MESSAGE.match(raw):
        _bump(skipped, "harness")
        return None
    text = strip_injected(raw)
    if not text:
        _bump(skipped, "injected" if raw.strip() else "empty")
        return None
    return text


# ---------------------------------------------------------------- readers


def parse_claude_code(lines: Iterable[str]) -> tuple[list[Turn], dict]:
    """Turns of a Claude Code JSONL transcript, plus ``{"malformed", "skipped",
    "session_id", "cwd"}``. Assistant blocks are grouped by ``message.id``."""
    turns: list[Turn | None] = []
    assistant_at: dict[str, int] = {}
    assistant_parts: dict[str, list[str]] = {}
    info: dict = {"malformed": 0, "skipped": {}, "session_id": None, "cwd": None}
    skipped = info["skipped"]
    for raw in lines:
        if not raw.strip():
            continue
        try:
            obj = _loads(raw)
        except ValueError:
            info["malformed"] += 1
            continue
        if not isinstance(obj, dict):
            info["malformed"] += 1
            continue
        kind = obj.get("type")
        if kind not in ("user", "assistant"):
            _bump(skipped, str(kind or "untyped"))
            continue
        flag = next((f for f in ("isSidechain", "isMeta", "isCompactSummary", "isApiErrorMessage",
                                 "isVisibleInTranscriptOnly") if obj.get(f)), None)
        if flag:
            _bump(skipped, flag)
            continue
        info["session_id"] = info["session_id"] or obj.get("sessionId")
        info["cwd"] = obj.get("cwd") or info["cwd"]
        message = obj.get("message")
        if not isinstance(message, dict):
            info["malformed"] += 1
            continue
        ts = parse_time(obj.get("timestamp"))
        text, tool = _block_text(message.get("content"))
        if kind == "user":
            if tool and not text.strip():
                _bump(skipped, "tool_result")
                continue
            clean = _user_text(text, skipped)
            if clean is not None:
                turns.append(Turn("user", clean, ts))
            continue
        # assistant: one message may arrive as several lines, one block each
        key = str(message.get("id") or obj.get("uuid") or len(turns))
        if key not in assistant_at:
            assistant_at[key] = len(turns)
            assistant_parts[key] = []
            turns.append(Turn("assistant", "", ts))
        if text.strip():
            assistant_parts[key].append(text.strip())
    for key, index in assistant_at.items():
        joined = strip_injected("\n".join(assistant_parts[key]))
        turns[index] = Turn("assistant", joined, turns[index].ts) if joined else None
    out = [t for t in turns if t is not None]
    return out, info


def parse_messages(messages: list) -> tuple[list[Turn], dict]:
    """Turns of a JSON list of ``{role, content}`` messages (or Gemini CLI's
    ``{type, content}``), plus counts. System, tool and unknown roles are
    skipped; non-objects are malformed."""
    info: dict = {"malformed": 0, "skipped": {}, "session_id": None, "cwd": None}
    turns: list[Turn] = []
    for item in messages:
        if not isinstance(item, dict):
            info["malformed"] += 1
            continue
        said = item.get("role") or item.get("type")  # Gemini CLI's messages say who by "type"
        role = _ROLES.get(str(said or "").lower())
        if role is None:
            _bump(info["skipped"], str(said or "no-role"))
            continue
        text, tool = _block_text(item.get("content"))
        if role == "user":
            if tool and not text.strip():
                _bump(info["skipped"], "tool_result")
                continue
            clean = _user_text(text, info["skipped"])
        else:
            clean = strip_injected(text) or None
        if clean:
            ts = parse_time(item.get("timestamp") or item.get("ts") or item.get("created_at"))
            turns.append(Turn(role, clean, ts))
    return turns, info


def _loads(text: str):
    """``json.loads``, with JSON nested too deeply to parse (RecursionError) raised as ValueError:
    one bad line of a transcript is malformed, never a crash."""
    try:
        return json.loads(text)
    except RecursionError:
        raise ValueError("JSON nested too deeply") from None


def _json_lines(lines: Iterable[str], info: dict):
    """Each line of ``lines`` that holds a JSON object; other non-empty lines count as malformed."""
    for raw in lines:
        if not raw.strip():
            continue
        try:
            obj = _loads(raw)
        except ValueError:
            obj = None
        if isinstance(obj, dict):
            yield obj
        else:
            info["malformed"] += 1


def parse_codex(lines: Iterable[str]) -> tuple[list[Turn], dict]:
    """Turns of a Codex rollout (``rollout-*.jsonl``), plus ``{"malformed",
    "skipped", "session_id", "cwd"}``: the ``message`` payloads of
    ``response_item`` lines with role user or assistant."""
    info: dict = {"malformed": 0, "skipped": {}, "session_id": None, "cwd": None}
    turns: list[Turn] = []
    for obj in _json_lines(lines, info):
        payload = obj.get("payload") if isinstance(obj.get("payload"), dict) else {}
        if obj.get("type") == "session_meta":
            info["session_id"] = info["session_id"] or payload.get("id") or payload.get("session_id")
            info["cwd"] = payload.get("cwd") or info["cwd"]
            continue
        if obj.get("type") != "response_item" or payload.get("type") != "message":
            _bump(info["skipped"], str(payload.get("type") or obj.get("type") or "untyped"))
            continue
        role = _ROLES.get(str(payload.get("role", "")).lower())
        if role is None:
            _bump(info["skipped"], str(payload.get("role") or "no-role"))
            continue
        text, _ = _block_text(payload.get("content"))
        clean = _user_text(text, info["skipped"]) if role == "user" else (strip_injected(text) or None)
        if clean:
            turns.append(Turn(role, clean, parse_time(obj.get("timestamp"))))
    return turns, info


def parse_gemini(lines: Iterable[str]) -> tuple[list[Turn], dict]:
    """Turns of a Gemini CLI session (``session-*.jsonl``), plus counts: its
    records replayed as the client replays them (module docstring), then its
    ``user`` and ``gemini`` messages read as :func:`parse_messages` reads
    messages."""
    info: dict = {"malformed": 0, "skipped": {}, "session_id": None, "cwd": None}
    messages: dict[str, dict] = {}  # in order; a record with a known id replaces it in place
    for obj in _json_lines(lines, info):
        if isinstance(obj.get("$rewindTo"), str):
            ids = list(messages)
            cut = ids.index(obj["$rewindTo"]) if obj["$rewindTo"] in ids else 0
            for gone in ids[cut:]:
                del messages[gone]
        elif isinstance(obj.get("id"), str):
            messages[obj["id"]] = obj
        elif isinstance(obj.get("$set"), dict) or isinstance(obj.get("sessionId"), str):
            update = obj["$set"] if isinstance(obj.get("$set"), dict) else obj
            info["session_id"] = info["session_id"] or update.get("sessionId")
            if isinstance(update.get("messages"), list):
                if update is obj.get("$set"):
                    messages.clear()
                messages.update((m["id"], m) for m in update["messages"]
                                if isinstance(m, dict) and isinstance(m.get("id"), str))
        else:
            info["malformed"] += 1
    turns, counts = parse_messages(list(messages.values()))
    info["malformed"] += counts["malformed"]
    for reason, count in counts["skipped"].items():
        info["skipped"][reason] = info["skipped"].get(reason, 0) + count
    return turns, info


_JSONL_READERS = {"claude-code": parse_claude_code, "codex": parse_codex, "gemini": parse_gemini}
"""The readers of one JSON object per line, by the format :func:`_detect` names."""


def parse_plain(text: str) -> tuple[list[Turn], dict]:
    """Turns of plain text with ``USER:`` / ``ASSISTANT:`` prefixes (``HUMAN:``
    and ``AI:`` too). Lines before the first prefix are skipped."""
    info: dict = {"malformed": 0, "skipped": {}, "session_id": None, "cwd": None}
    current: list = []
    messages: list[tuple[str, list[str]]] = []
    for line in text.splitlines():
        match = _PREFIX.match(line)
        if match:
            current = [match.group(2)]
            messages.append((_ROLES[match.group(1).lower()], current))
        elif messages:
            current.append(line)
        elif line.strip():
            _bump(info["skipped"], "no-prefix")
    turns = []
    for role, parts in messages:
        body = "\n".join(parts)
        clean = _user_text(body, info["skipped"]) if role == "user" else (strip_injected(body) or None)
        if clean:
            turns.append(Turn(role, clean))
    return turns, info


# ---------------------------------------------------------------- bounds


def bound(turns: list[Turn], user_limit: int = USER_LIMIT, assistant_limit: int = ASSISTANT_LIMIT,
          total_limit: int = TOTAL_LIMIT) -> tuple[list[Turn], int]:
    """Cut each message to its role's limit (``…`` appended), then drop the
    oldest messages until the ``ROLE: text`` lines joined by blank lines fit
    ``total_limit`` characters (one message is always kept). Returns the kept
    turns and how many were dropped. Limits are code points."""
    cut: list[Turn] = []
    for turn in turns:
        limit = user_limit if turn.role == "user" else assistant_limit
        text = turn.text.strip()
        if len(text) > limit:
            cut.append(Turn(turn.role, text[:limit].rstrip() + "…", turn.ts, True))
        else:
            cut.append(Turn(turn.role, text, turn.ts, turn.cut))
    total = sum(len(t.line()) for t in cut) + 2 * max(0, len(cut) - 1)
    start = 0
    while total > total_limit and len(cut) - start > 1:
        total -= len(cut[start].line()) + 2
        start += 1
    return cut[start:], start


def _digest(turns: list[Turn]) -> str:
    h = hashlib.sha256()
    for turn in turns:
        h.update(turn.role.encode() + b"\x01" + turn.text.encode("utf-8") + b"\x02")
    return h.hexdigest()


# ---------------------------------------------------------------- entry point


def _detect(text: str) -> str:
    stripped = text.lstrip("\ufeff \t\r\n")
    if stripped.startswith("["):
        return "messages"
    if stripped.startswith("{"):
        # One JSON document holding {"messages": [...]}, else Claude Code JSONL.
        try:
            whole = _loads(stripped)
        except ValueError:
            whole = None
        if isinstance(whole, dict) and isinstance(whole.get("messages"), list):
            return "messages"
        return _jsonl_format(stripped)
    # A torn or junk first line before JSON lines (a crash mid-write): the JSON lines decide.
    if any(line.lstrip().startswith("{") for line in stripped.splitlines()[1:20]) and _PREFIX.match(stripped) is None:
        found = _jsonl_format(stripped)
        if found != "claude-code" or _first_object(stripped):
            return found
    return "text"


def _first_object(text: str) -> bool:
    """Whether one of the first 20 lines of ``text`` is a JSON object with a ``type`` (a JSONL record)."""
    for line in text.splitlines()[:20]:
        try:
            obj = _loads(line)
        except ValueError:
            continue
        if isinstance(obj, dict) and "type" in obj:
            return True
    return False


def _jsonl_format(text: str) -> str:
    """Which client wrote a JSONL transcript, from its first JSON object: Codex
    (``{"type", "payload"}`` lines), Gemini CLI (a ``sessionId`` +
    ``projectHash`` header, a ``$set`` or ``$rewindTo`` record, or a message
    of type ``gemini``), else Claude Code."""
    for line in text.splitlines()[:20]:
        try:
            first = _loads(line)
        except ValueError:
            continue
        if not isinstance(first, dict):
            continue
        if "payload" in first and first.get("type") in ("session_meta", "response_item", "event_msg", "turn_context"):
            return "codex"
        if ("projectHash" in first and "sessionId" in first) or "$set" in first or "$rewindTo" in first \
                or (first.get("type") == "gemini" and "id" in first):
            return "gemini"
        return "claude-code"
    return "claude-code"


def _looks_like_path(text: str) -> bool:
    """A one-line string naming a transcript file (a path with a separator and a known suffix)."""
    text = text.strip()
    return (len(text) < 4096 and "\n" not in text and not _PREFIX.match(text)
            and bool(re.fullmatch(r"[^\n]*[/\\][^\n]*\.(?:jsonl|json|txt|log)|\S+\.(?:jsonl|json|txt|log)", text)))


def _is_file(text: str) -> bool:
    """True when ``text`` names an existing file other than a directory (a FIFO or a device too:
    :func:`read_transcript` then refuses it, naming it, rather than read the path as a transcript)."""
    if "\n" in text or len(text) > 4096 or text.lstrip()[:1] in ("[", "{"):
        return False
    try:
        return Path(text).exists() and not Path(text).is_dir()
    except (OSError, ValueError):
        return False


def read_transcript(source: Any, *, user_limit: int = USER_LIMIT, assistant_limit: int = ASSISTANT_LIMIT,
                    total_limit: int = TOTAL_LIMIT) -> Transcript:
    """Read and bound a transcript.

    ``source`` is a path (``str``/``PathLike`` to an existing file), the text
    itself, bytes, a list of message dicts, or a :class:`Transcript` (returned
    as is). The format is detected from the content. Raises
    :class:`~memdir.errors.InvalidInput` for an unreadable file, one that
    is not a regular file (a FIFO, a device: never waited on), one over
    :data:`MAX_TRANSCRIPT_BYTES`, one nested too deeply to read, or an
    unsupported value. A line that does not parse (too deep included) is
    counted as ``malformed`` and skipped.
    """
    if isinstance(source, Transcript):
        return source
    path = None
    if isinstance(source, str) and not _is_file(source) and _looks_like_path(source):
        raise InvalidInput(f"transcript {source} does not exist")
    if isinstance(source, os.PathLike) or (isinstance(source, str) and _is_file(source)):
        path = Path(source)
        found = read_foreign(path, MAX_TRANSCRIPT_BYTES)  # a FIFO or a device fails here, never blocks
        if found.why == MISSING:
            raise InvalidInput(f"transcript {path} does not exist")
        if found.why == DIRECTORY:
            raise InvalidInput(f"transcript {path} is a directory, not a transcript file")
        if found.data is None:
            raise InvalidInput(f"transcript {path} is {found.why}")
        source = found.data
    if isinstance(source, bytes):
        source = source.decode("utf-8", "replace")
    try:
        turns, info, fmt = _parse(source)
    except RecursionError:  # a structure nested too deeply to walk: refused, named, never a crash
        raise InvalidInput("transcript is nested too deeply to read") from None
    kept, dropped = bound(turns, user_limit, assistant_limit, total_limit)
    return Transcript(tuple(kept), fmt, _digest(kept), str(path) if path else None, info["session_id"],
                      info["cwd"], info["malformed"], info["skipped"], dropped)


def _parse(source) -> tuple[list[Turn], dict, str]:
    if isinstance(source, (list, tuple)):
        turns, info = parse_messages(list(source))
        fmt = "messages"
    elif isinstance(source, str):
        fmt = _detect(source)
        if fmt == "messages":
            try:
                data = _loads(source.lstrip("\ufeff"))
            except ValueError as exc:
                raise InvalidInput(f"transcript is not valid JSON: {exc}") from None
            if isinstance(data, dict):
                data = data.get("messages", [])
            turns, info = parse_messages(data)
        elif fmt in _JSONL_READERS:
            turns, info = _JSONL_READERS[fmt](source.lstrip("\ufeff").splitlines())
        else:
            turns, info = parse_plain(source)
    else:
        raise InvalidInput(f"unsupported transcript value: {type(source).__name__}")
    return turns, info, fmt


__all__ = ["Turn", "Transcript", "read_transcript", "parse_claude_code", "parse_codex", "parse_gemini",
           "parse_messages", "parse_plain",
           "bound", "strip_injected", "USER_LIMIT", "ASSISTANT_LIMIT", "TOTAL_LIMIT", "MAX_TRANSCRIPT_BYTES"]
