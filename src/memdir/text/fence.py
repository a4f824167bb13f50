"""Escaping that keeps stored text inside the fence it is injected in.

* :func:`escape_fence_tags` turns any ``memory_context``/``memory_recall``/``memory_pending`` tag
  (any case, spaces, attributes, newlines inside: ``</Memory_Context >``,
  ``<memory_context foo=bar>``, ``</memory_context\n>``; seed-behaviour §A7)
  into ``&lt;…&gt;``, so stored text can never open or close the fence.
* :func:`neutralize_braces` breaks ``{{`` so a harness's ``{{var}}``
  templating cannot fire on stored text (seed-behaviour §A6).

Applied at write time (the gateway) and again at render time (context and
recall), so a hand-edited file cannot break out either. Kept apart from the
secret patterns: the hook path imports only this.
"""

from __future__ import annotations

import re

_FENCE_TAG = re.compile(r"<\s*/?\s*memory_(?:context|recall|pending)[^>]*>", re.I)


def escape_fence_tags(text: str) -> str:
    """Escape every ``memory_context``/``memory_recall``/``memory_pending`` tag as ``&lt;…&gt;``."""
    return _FENCE_TAG.sub(lambda m: m.group(0).replace("<", "&lt;").replace(">", "&gt;"), text)


def neutralize_braces(text: str) -> str:
    """Break every ``{{`` into ``{ {`` until none is left (any run length),
    so a harness's ``{{var}}`` templating cannot fire on stored text."""
    while "{{" in text:
        text = text.replace("{{", "{ {")
    return text
