"""Codex CLI's transcripts (``~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl``, as Codex CLI 0.171
writes them): one ``{"timestamp", "type", "payload"}`` object per line; ``response_item`` lines whose
payload is a ``message`` of role ``user`` or ``assistant`` are the conversation
(``input_text``/``output_text`` blocks); ``developer`` messages, tool calls and their output,
reasoning, ``event_msg`` (the same messages again, as events) and ``session_meta`` (read for the
session id and cwd) are not. Codex puts its ``<environment_context>`` and the AGENTS.md text in user
messages: those are injected and removed."""

from __future__ import annotations

from typing import Iterable

from ...files.memfile import parse_time
from .turns import ROLES, Turn, block_text, bump, json_lines, new_info, strip_injected, user_text


def parse_codex(lines: Iterable[str]) -> tuple[list[Turn], dict]:
    """Turns of a Codex rollout (``rollout-*.jsonl``), plus ``{"malformed",
    "skipped", "session_id", "cwd"}``: the ``message`` payloads of
    ``response_item`` lines with role user or assistant."""
    info = new_info()
    turns: list[Turn] = []
    for _, obj in json_lines(lines, info):
        payload = obj.get("payload") if isinstance(obj.get("payload"), dict) else {}
        if obj.get("type") == "session_meta":
            found = payload.get("id") or payload.get("session_id")
            info["session_id"] = info["session_id"] or (found if isinstance(found, str) else None)
            info["cwd"] = (payload.get("cwd") if isinstance(payload.get("cwd"), str) else None) or info["cwd"]
            continue
        if obj.get("type") != "response_item" or payload.get("type") != "message":
            bump(info["skipped"], payload.get("type") or obj.get("type") or "untyped")
            continue
        role = ROLES.get(str(payload.get("role", "")).lower())
        if role is None:
            bump(info["skipped"], payload.get("role") or "no-role")
            continue
        text, _ = block_text(payload.get("content"))
        clean = user_text(text, info["skipped"]) if role == "user" else (strip_injected(text) or None)
        if clean:
            turns.append(Turn(role, clean, parse_time(obj.get("timestamp"))))
    return turns, info


__all__ = ["parse_codex"]
