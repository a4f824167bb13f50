"""Session transcripts: read what the person and the assistant said, nothing else.

Five formats, detected from the content, each read by its own module
(:mod:`.claude`, :mod:`.codex`, :mod:`.gemini`, :mod:`.messages`; what a
reader returns and the cleaning they share: :mod:`.turns`):

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
  (also ``{"messages": [...]}``, or JSONL of one such message per line); content is a string or OpenAI/Anthropic-style
  text blocks; ``timestamp``/``ts``/``created_at`` are read when present.
* **Plain text** with ``USER:`` / ``ASSISTANT:`` prefixes (the seed's buffer
  format, seed-behaviour §A11); a line without a prefix continues the message.

The format is the one most of the first 50 JSONL records belong to (:func:`_detect`), so a line
of an unexpected shape — a nested array, another client's record, a torn write, binary junk —
costs that line alone: it is counted as ``malformed`` and named by number (``bad_lines``), and
the consolidation report says so. JSONL is split at ``\n`` only: a JSON string may hold U+2028,
U+2029 or U+0085 unescaped.

Injected context is removed from every message: ``<memory_context>``,
``<memory_recall>``, ``<memory_pending>``, ``<system-reminder>`` and hook/command blocks, and user
messages that a harness wrote (Stop hook feedback, interruptions, slash
command echoes) are dropped whole.

Bounds follow the seed's consolidation buffer (§A11; :mod:`.cutting`): each message redacted first, then user
text 2,000 characters and assistant text 500 per message (cut in the middle, ``…`` between its start and its
end; a person's requests from between kept in a quarter more), at most 24,000 characters in all (messages
joined as ``ROLE: text`` lines with a blank line between), newest kept.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path
from typing import Any

from ...errors import InvalidInput
from ...files.fsio import DIRECTORY, MISSING, foreign_text, read_foreign
from .claude import parse_claude_code
from .codex import parse_codex
from .cutting import ASSISTANT_LIMIT, TOTAL_LIMIT, USER_LIMIT, bound, cut_message
from .gemini import parse_gemini
from .messages import PREFIX, parse_message_lines, parse_messages, parse_plain
from .turns import (
    Transcript,
    TranscriptSummary,
    Turn,
    jsonl_lines,
    loads,
    strip_injected,
)

MAX_TRANSCRIPT_BYTES = 256 * 1024 * 1024  # a larger file is refused unread (a session's is megabytes)

_JSONL_READERS = {"claude-code": parse_claude_code, "codex": parse_codex, "gemini": parse_gemini,
                  "messages-jsonl": parse_message_lines}
"""The readers of one JSON object per line, by the format :func:`_detect` names."""


def _digest(turns: list[Turn]) -> str:
    h = hashlib.sha256()
    for turn in turns:
        h.update(turn.role.encode() + b"\x01" + turn.text.encode("utf-8") + b"\x02")
    return h.hexdigest()


# ---------------------------------------------------------------- entry point


def _detect(text: str) -> tuple[str, Any]:
    """The format of transcript ``text`` and, for one JSON document of messages, its parsed value.

    A whole document that parses as a list, or as an object holding a ``messages`` list, is that
    list. Anything else is read line by line: the JSONL format most of its first
    :data:`VOTE_LINES` lines are records of (:func:`_record_format`; a tie goes to the format seen
    first), so one line of an unexpected shape — a nested array, another client's record, a torn
    write — costs that line alone, never the transcript. Text with no JSON record is plain text
    (``USER:``/``ASSISTANT:``), unless it opens like JSON (then Claude Code JSONL, its lines counted
    malformed)."""
    stripped = text.lstrip("\ufeff \t\r\n")
    if stripped[:1] in ("[", "{"):
        try:
            whole = loads(stripped)
        except ValueError:
            whole = None
        if isinstance(whole, list):
            return "messages", whole
        if isinstance(whole, dict) and isinstance(whole.get("messages"), list):
            return "messages", whole["messages"]
        return _jsonl_format(stripped) or "claude-code", None
    if PREFIX.match(stripped):
        return "text", None
    # A torn or junk first line before JSON lines (a crash mid-write): the JSON lines decide.
    return _jsonl_format(stripped) or ("claude-code" if _first_object(stripped) else "text"), None


VOTE_LINES = 50
"""Lines of a JSONL transcript whose records decide its format."""


def _first_object(text: str) -> bool:
    """Whether one of the first 20 lines of ``text`` is a JSON object with a ``type`` (a JSONL record)."""
    for line in jsonl_lines(_head(text, 20)):
        try:
            obj = loads(line)
        except ValueError:
            continue
        if isinstance(obj, dict) and "type" in obj:
            return True
    return False


def _head(text: str, lines: int) -> str:
    """The first ``lines`` lines of ``text`` (split at ``\n``), without splitting the rest of a large transcript."""
    return "\n".join(text.split("\n", lines)[:lines])


def _record_format(record: dict) -> str | None:
    """Which client's JSONL record ``record`` is, or None for a shape no reader knows. Codex:
    ``{"type": session_meta|response_item|event_msg|turn_context, "payload": {…}}``; Gemini CLI: a
    ``sessionId`` + ``projectHash`` header, a ``$set`` or ``$rewindTo`` record, or a message record
    ``{"id", "type": user|gemini|info|…, "content"}`` (no ``message``); one message per line:
    ``{"role", "content"}`` without ``type``; Claude Code: a ``type`` with a ``message``, a
    ``uuid`` or a ``sessionId``."""
    kind = record.get("type")
    if isinstance(record.get("payload"), dict) and kind in ("session_meta", "response_item", "event_msg",
                                                            "turn_context"):
        return "codex"
    if ("projectHash" in record and "sessionId" in record) or isinstance(record.get("$set"), dict) \
            or isinstance(record.get("$rewindTo"), str) \
            or (isinstance(record.get("id"), str) and kind in ("user", "gemini", "info", "error", "warning")
                and "content" in record and "message" not in record):
        return "gemini"
    if isinstance(record.get("role"), str) and "content" in record and "type" not in record \
            and "message" not in record:
        return "messages-jsonl"
    if isinstance(kind, str) and ("message" in record or "uuid" in record or "sessionId" in record):
        return "claude-code"
    return None


def _jsonl_format(text: str) -> str | None:
    """Which client wrote a JSONL transcript: the format most of the records among its first
    :data:`VOTE_LINES` lines belong to (:func:`_record_format`; a tie: the one seen first), or
    None when none of them is a record."""
    votes: dict[str, int] = {}
    for line in jsonl_lines(_head(text, VOTE_LINES)):
        try:
            record = loads(line)
        except ValueError:
            continue
        found = _record_format(record) if isinstance(record, dict) else None
        if found is not None:
            votes[found] = votes.get(found, 0) + 1
    return max(votes, key=votes.get) if votes else None  # max keeps the first of equals: the one seen first


def _looks_like_path(text: str) -> bool:
    """A one-line string naming a transcript file (a path with a separator and a known suffix)."""
    text = text.strip()
    if len(text) >= 4096 or "\n" in text or PREFIX.match(text):
        return False
    # a separator before the suffix, or no space at all (as one expression, a line of "////…" was split every way
    # between its parts before the suffix it lacked: 2 s at 2,000 characters)
    stem = next((text[:-len(suffix)] for suffix in (".jsonl", ".json", ".txt", ".log") if text.endswith(suffix)), None)
    return stem is not None and ("/" in stem or "\\" in stem or (stem != "" and not any(c.isspace() for c in text)))


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
    unsupported value. A line that does not parse (too deep included), or
    holds no object, is counted as ``malformed`` (the first named by number in
    ``bad_lines``) and skipped: it never costs the other lines. Secrets are redacted from every
    message before it is cut (:func:`~memdir.consolidation.transcripts.cutting.bound`; counted in
    ``redactions``).
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
        source = foreign_text(source, "replace")
    try:
        turns, info, fmt = _parse(source)
    except RecursionError:  # a structure nested too deeply to walk: refused, named, never a crash
        raise InvalidInput("transcript is nested too deeply to read") from None
    kept, dropped, secrets = bound(turns, user_limit, assistant_limit, total_limit)
    return Transcript(tuple(kept), fmt, _digest(kept), str(path) if path else None, info["session_id"],
                      info["cwd"], info["malformed"], info["skipped"], dropped, tuple(info["bad_lines"]), secrets)


def _parse(source) -> tuple[list[Turn], dict, str]:
    if isinstance(source, (list, tuple)):
        turns, info = parse_messages(list(source))
        fmt = "messages"
    elif isinstance(source, str):
        source = source.removeprefix("\ufeff")  # a UTF-8 mark read as text: never part of the first line
        fmt, data = _detect(source)
        if fmt == "messages":
            turns, info = parse_messages(data)
        elif fmt in _JSONL_READERS:
            turns, info = _JSONL_READERS[fmt](jsonl_lines(source))
        else:
            turns, info = parse_plain(source)
    else:
        raise InvalidInput(f"unsupported transcript value: {type(source).__name__}")
    return turns, info, fmt


__all__ = ["Turn", "Transcript", "TranscriptSummary", "read_transcript", "parse_claude_code", "parse_codex", "parse_gemini",
           "parse_messages", "parse_plain",
           "bound", "cut_message", "strip_injected", "USER_LIMIT", "ASSISTANT_LIMIT", "TOTAL_LIMIT", "MAX_TRANSCRIPT_BYTES"]
