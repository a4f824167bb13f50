"""Claude Code's transcripts (``~/.claude/projects/<project>/<session>.jsonl``; see
``../shared/data/README.md``): one JSON object per line. ``user`` lines hold what the person typed
(a string or text blocks) — or, as ``tool_result`` blocks, tool output, which is skipped.
``assistant`` lines may carry one content block each: blocks are grouped by ``message.id`` and only
their ``text`` is kept (no thinking, no tool calls). Lines marked ``isMeta``, ``isSidechain``,
``isCompactSummary`` or ``isApiErrorMessage`` are not the person speaking and are skipped, as are
unknown line types. A line that is not a JSON object is counted as malformed and skipped."""

from __future__ import annotations

from typing import Iterable

from ...files.memfile import parse_time
from .turns import (
    Turn,
    block_text,
    bump,
    loads,
    new_info,
    strip_injected,
    unreadable,
    user_text,
)


def parse_claude_code(lines: Iterable[str]) -> tuple[list[Turn], dict]:
    """Turns of a Claude Code JSONL transcript, plus ``{"malformed", "skipped",
    "session_id", "cwd"}``. Assistant blocks are grouped by ``message.id``."""
    turns: list[Turn | None] = []
    assistant_at: dict[str, int] = {}
    assistant_parts: dict[str, list[str]] = {}
    info = new_info()
    skipped = info["skipped"]
    for number, raw in enumerate(lines, 1):
        if not raw.strip():
            continue
        try:
            obj = loads(raw)
        except ValueError:
            obj = None
        if not isinstance(obj, dict):
            unreadable(info, number)
            continue
        kind = obj.get("type")
        if kind not in ("user", "assistant"):
            bump(skipped, kind or "untyped")
            continue
        flag = next((f for f in ("isSidechain", "isMeta", "isCompactSummary", "isApiErrorMessage",
                                 "isVisibleInTranscriptOnly") if obj.get(f)), None)
        if flag:
            bump(skipped, flag)
            continue
        info["session_id"] = info["session_id"] or _text(obj.get("sessionId"))
        info["cwd"] = _text(obj.get("cwd")) or info["cwd"]
        message = obj.get("message")
        if not isinstance(message, dict):
            unreadable(info, number)
            continue
        ts = parse_time(obj.get("timestamp"))
        text, tool = block_text(message.get("content"))
        if kind == "user":
            if tool and not text.strip():
                bump(skipped, "tool_result")
                continue
            clean = user_text(text, skipped)
            if clean is not None:
                turns.append(Turn("user", clean, ts))
            continue
        # assistant: one message may arrive as several lines, one block each
        key = str(_text(message.get("id")) or _text(obj.get("uuid")) or len(turns))
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


def _text(value) -> str | None:
    """``value`` when it is a string (an id, a path), else None: a line of another shape names nothing."""
    return value if isinstance(value, str) else None


__all__ = ["parse_claude_code"]
