"""Escaping that keeps stored text inside the fence it is injected in.

* :func:`escape_fence_tags` turns any ``memory_context``/``memory_recall``/``memory_pending`` tag
  (any case, spaces, attributes, newlines inside: ``</Memory_Context >``,
  ``<memory_context foo=bar>``, ``</memory_context\n>``; seed-behaviour §A7)
  into ``&lt;…&gt;``, so stored text can never open or close the fence.
* :func:`neutralize_braces` breaks ``{{`` so a harness's ``{{var}}``
  templating cannot fire on stored text (seed-behaviour §A6).
* :func:`escape_stored` is the one rule for stored text on its way to a model: the two above,
  and the harness's own frame — a ``system-reminder`` or ``system`` tag (Claude Code wraps hook
  output in ``<system-reminder>``, which a stored ``</system-reminder>`` would close), a chat
  template's special token (``<|im_start|>``, ``<|endoftext|>``) and a line opening with
  ``Human:`` or ``Assistant:`` (a turn of the plain-text chat format) — escaped as entities
  (``&lt;``, ``&gt;``, ``&#58;``), so the text still reads but frames nothing. The context block,
  the recall block, the pending findings and every tool result (MCP ``memory_read``,
  ``memory_search``, ``memory_list`` …) use it.

The fence tags are escaped at write time too (the gateway), so a stored
value never holds one; the render-time pass catches hand-edited files.
Kept apart from the secret patterns: the hook path imports only this.
"""

from __future__ import annotations

import re

_FENCE_TAG = re.compile(r"<\s*/?\s*memory_(?:context|recall|pending)[^>]*>", re.I)
# The harness's frame: its wrapper tags (any case, spaces, attributes) and chat templates' special tokens.
_FRAME_TAG = re.compile(r"<\s*/?\s*(?:system-reminder|system)\b[^>]*>|<\|[^|<>\n]{1,40}\|>", re.I)
_TURN = re.compile(r"^([ \t]*)(human|assistant)([ \t]*):", re.I | re.M)


def _entities(found: re.Match) -> str:
    return found.group(0).replace("<", "&lt;").replace(">", "&gt;")


def escape_fence_tags(text: str) -> str:
    """Escape every ``memory_context``/``memory_recall``/``memory_pending`` tag as ``&lt;…&gt;``."""
    return _FENCE_TAG.sub(_entities, text)


def neutralize_braces(text: str) -> str:
    """Break every ``{{`` into ``{ {`` until none is left (any run length),
    so a harness's ``{{var}}`` templating cannot fire on stored text."""
    while "{{" in text:
        text = text.replace("{{", "{ {")
    return text


def escape_stored(text: str) -> str:
    """``text`` safe to put before a model (see the module docstring): fence tags, ``system-reminder``
    and ``system`` tags and special tokens as ``&lt;…&gt;``, a line-initial ``Human:``/``Assistant:``
    as ``Human&#58;``, ``{{`` as ``{ {``. Idempotent; text holding none of these is returned as it is."""
    if "<" in text:
        text = _FRAME_TAG.sub(_entities, _FENCE_TAG.sub(_entities, text))
    if ":" in text:
        text = _TURN.sub(lambda m: f"{m.group(1)}{m.group(2)}{m.group(3)}&#58;", text)
    return neutralize_braces(text)
