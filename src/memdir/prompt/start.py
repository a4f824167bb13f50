"""What a session start injects (DESIGN §6, §10): the one rule the SessionStart hooks print and
``status``/``doctor`` report, so what they say the block holds is what the agent receives.

Within the session start's budget (:func:`start_budget`: ``context_max_bytes``, at most the
characters a harness shows in full), in order of precedence: the agent extractor's pending findings
take at most half (:func:`memdir.prompt.pending.with_pending`); the rest holds the context block
(:func:`memdir.prompt.context.session_layout`) — or, with no memory saved yet, the guidance — followed
by the note naming memdir's MCP tools (:data:`memdir.prompt.context.TOOLS_NOTE`), whose room the
block leaves. On the hot path: no YAML, no SQLite.
"""

from __future__ import annotations

from .context import HOOK_CONTEXT_MAX_CHARS, TOOLS_NOTE, byte_budget, guidance_block, session_layout
from .pending import with_pending


def start_budget(session, max_bytes: int | None = None) -> int:
    """The UTF-8 byte budget of a session start: ``max_bytes`` (default the ``context_max_bytes``
    setting), at most :data:`~memdir.prompt.context.HOOK_CONTEXT_MAX_CHARS` (a UTF-8 byte is at most
    one character). Raises :class:`InvalidInput` as :func:`~memdir.prompt.context.byte_budget`."""
    return min(byte_budget(max_bytes, session.settings.context_max_bytes), HOOK_CONTEXT_MAX_CHARS)


def start_layout(session, budget: int, warn=None) -> tuple[str, tuple[tuple[str, int, int], ...]]:
    """The text a session start injects within ``budget`` UTF-8 bytes (``""`` when nothing fits) and
    what its context block holds per layer, ``(scope, index lines shown, index lines in all)`` as
    :func:`memdir.prompt.context.layout` gives it (``()`` when no block was rendered). Reads the
    pending findings without marking them shown: the hook that prints the text marks them
    (:func:`memdir.prompt.pending.mark_shown` with the same ``budget``). ``warn`` as
    :func:`~memdir.prompt.context.session_block`'s."""
    note = len(TOOLS_NOTE.encode("utf-8")) + 1
    held: list = [()]

    def block(rest: int) -> str:
        text, held[0] = session_layout(session, max(1, rest - note), warn, guidance=True)
        text = text or guidance_block(rest)
        # The note names the MCP tools for a client that defers them (Claude Code 2.x), when it fits.
        out = f"{text}\n{TOOLS_NOTE}" if text else ""
        return out if out and len(out.encode("utf-8")) <= rest else text

    return with_pending(session, budget, block), held[0]


__all__ = ["start_budget", "start_layout"]
