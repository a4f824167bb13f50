"""Transcripts no one client owns: a JSON list of messages ``[{"role": "user"|"assistant",
"content": …}]`` (also ``{"messages": [...]}``, or one such message per line, JSONL; content a string or
OpenAI/Anthropic-style text blocks; ``timestamp``/``ts``/``created_at`` read when present), and plain text with ``USER:`` /
``ASSISTANT:`` prefixes (the seed's buffer format, seed-behaviour §A11), where a line without a
prefix continues the message."""

from __future__ import annotations

import re

from ...files.memfile import parse_time
from .turns import (
    MAX_NAMED_LINES,
    ROLES,
    Turn,
    block_text,
    bump,
    loads,
    new_info,
    strip_injected,
    unreadable,
    user_text,
)

PREFIX = re.compile(r"^\s*(USER|HUMAN|ASSISTANT|AI)\s*:\s?(.*)$", re.I)


def parse_messages(messages: list, numbers: list[int] | None = None) -> tuple[list[Turn], dict]:
    """Turns of a JSON list of ``{role, content}`` messages (or Gemini CLI's
    ``{type, content}``), plus counts. System, tool and unknown roles are
    skipped; non-objects are malformed, named by ``numbers[i]`` (the line of
    item ``i``) when given, else by their 1-based place in the list."""
    info = new_info()
    turns: list[Turn] = []
    for index, item in enumerate(messages):
        if not isinstance(item, dict):
            unreadable(info, numbers[index] if numbers else index + 1)
            continue
        said = item.get("role") or item.get("type")  # Gemini CLI's messages say who by "type"
        role = ROLES.get(said.lower()) if isinstance(said, str) else None
        if role is None:
            bump(info["skipped"], said or "no-role")
            continue
        text, tool = block_text(item.get("content"))
        if role == "user":
            if tool and not text.strip():
                bump(info["skipped"], "tool_result")
                continue
            clean = user_text(text, info["skipped"])
        else:
            clean = strip_injected(text) or None
        if clean:
            ts = parse_time(item.get("timestamp") or item.get("ts") or item.get("created_at"))
            turns.append(Turn(role, clean, ts))
    return turns, info


def parse_message_lines(lines) -> tuple[list[Turn], dict]:
    """Turns of JSONL with one ``{role, content}`` message per line (what a harness appends as it goes),
    read as :func:`parse_messages` reads the list; a line that is not JSON is counted as malformed."""
    items, numbers, bad = [], [], new_info()
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            items.append(loads(line))
            numbers.append(number)
        except ValueError:
            unreadable(bad, number)
    turns, info = parse_messages(items, numbers)
    info["malformed"] += bad["malformed"]
    info["bad_lines"] = sorted(info["bad_lines"] + bad["bad_lines"])[:MAX_NAMED_LINES]
    return turns, info


def parse_plain(text: str) -> tuple[list[Turn], dict]:
    """Turns of plain text with ``USER:`` / ``ASSISTANT:`` prefixes (``HUMAN:``
    and ``AI:`` too). Lines before the first prefix are skipped."""
    info = new_info()
    current: list = []
    messages: list[tuple[str, list[str]]] = []
    for line in text.splitlines():
        match = PREFIX.match(line)
        if match:
            current = [match.group(2)]
            messages.append((ROLES[match.group(1).lower()], current))
        elif messages:
            current.append(line)
        elif line.strip():
            bump(info["skipped"], "no-prefix")
    turns = []
    for role, parts in messages:
        body = "\n".join(parts)
        clean = user_text(body, info["skipped"]) if role == "user" else (strip_injected(body) or None)
        if clean:
            turns.append(Turn(role, clean))
    return turns, info


__all__ = ["parse_messages", "parse_message_lines", "parse_plain", "PREFIX"]
