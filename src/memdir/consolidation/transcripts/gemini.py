"""Gemini CLI's transcripts (``~/.gemini/tmp/<project>/chats/session-*.jsonl``, as Gemini CLI 0.61
writes them): a header ``{"sessionId", "projectHash", …}``, message records ``{"id", "timestamp",
"type": "user"|"gemini"|"info"|…, "content"}`` (text or parts), ``{"$set": {…}}`` updates
(``messages`` replaces the whole list, as a resumed session writes it) and ``{"$rewindTo": id}``
(drops that message and those after it), replayed in order as the client does; a record with an id
seen before replaces it in place. A ``$rewindTo`` naming no message read so far drops nothing (a
rewind the reader cannot place must not erase the session) and is counted in ``skipped`` as
``rewind-unknown``. Only ``user`` and ``gemini`` messages count; the ``<session_context>`` the client
injects is removed, and so is each ``<hook_context>…</hook_context>`` block: Gemini CLI 0.61 writes a hook's
additionalContext (memdir's context, recall and pending blocks among them) into the chat as a user message of its
own, with ``<`` and ``>`` escaped inside, so no memory fence there matches the cleaning of
:func:`~.turns.strip_injected`; the first ``</hook_context>`` closes it (the hook's own text cannot hold one). Older Gemini CLI versions' one JSON document (``{"sessionId", "messages":
[...]}``) is read as a list of messages (:mod:`.messages`)."""

from __future__ import annotations

import re
from typing import Iterable

from .messages import parse_messages
from .turns import Turn, bump, json_lines, new_info, unreadable

UNKNOWN_REWIND = "rewind-unknown"  # the skipped-count reason of a $rewindTo naming no message read
_HOOK_CONTEXT = re.compile(r"<hook_context>.*?</hook_context>", re.S)  # a hook's output, as Gemini CLI wraps it


def _without_hooks(message: dict) -> dict:
    """``message`` with every hook block taken out of a user message's text (module docstring)."""
    if message.get("type") != "user":
        return message
    content = message.get("content")
    if isinstance(content, str):
        return {**message, "content": _HOOK_CONTEXT.sub("", content)}
    if isinstance(content, list):
        parts = [{**part, "text": _HOOK_CONTEXT.sub("", part["text"])}
                 if isinstance(part, dict) and isinstance(part.get("text"), str) else part for part in content]
        return {**message, "content": parts}
    return message


def parse_gemini(lines: Iterable[str]) -> tuple[list[Turn], dict]:
    """Turns of a Gemini CLI session (``session-*.jsonl``), plus counts: its
    records replayed as the client replays them (module docstring), then its
    ``user`` and ``gemini`` messages read as :func:`~.messages.parse_messages`
    reads messages."""
    info = new_info()
    messages: dict[str, dict] = {}  # in order; a record with a known id replaces it in place
    for number, obj in json_lines(lines, info):
        if isinstance(obj.get("$rewindTo"), str):
            ids = list(messages)
            if obj["$rewindTo"] not in ids:
                bump(info["skipped"], UNKNOWN_REWIND)
                continue
            for gone in ids[ids.index(obj["$rewindTo"]):]:
                del messages[gone]
        elif isinstance(obj.get("id"), str):
            messages[obj["id"]] = obj
        elif isinstance(obj.get("$set"), dict) or isinstance(obj.get("sessionId"), str):
            update = obj["$set"] if isinstance(obj.get("$set"), dict) else obj
            found = update.get("sessionId")
            info["session_id"] = info["session_id"] or (found if isinstance(found, str) else None)
            if isinstance(update.get("messages"), list):
                if update is obj.get("$set"):
                    messages.clear()
                messages.update((m["id"], m) for m in update["messages"]
                                if isinstance(m, dict) and isinstance(m.get("id"), str))
        else:
            unreadable(info, number)
    turns, counts = parse_messages([_without_hooks(m) for m in messages.values()])
    info["malformed"] += counts["malformed"]
    for reason, count in counts["skipped"].items():
        info["skipped"][reason] = info["skipped"].get(reason, 0) + count
    return turns, info


__all__ = ["parse_gemini", "UNKNOWN_REWIND"]
