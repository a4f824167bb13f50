"""What a session start injects (DESIGN §6, §10): the one rule the SessionStart hooks print and
``status``/``doctor`` report, so what they say the block holds is what the agent receives.

Within the session start's budget (:func:`start_budget`: ``context_max_bytes``, at most the
characters a harness shows in full), in order of precedence: the agent extractor's pending findings
take at most half (:func:`memdir.prompt.pending.with_pending`); the rest holds the context block
(:func:`memdir.prompt.context.session_layout`) — or, with no memory saved yet, the guidance — followed
by the note naming memdir's MCP tools (:data:`memdir.prompt.context.TOOLS_NOTE`; the commands instead,
:data:`memdir.prompt.context.CLI_NOTE`, where the agent cannot call them: :func:`mcp_reachable`), whose room the
block leaves (unless that room would leave no index line: then the block alone). ``memdir context``
prints this text (issue 28: what ``status`` and ``doctor`` count per layer is what it prints and what
the hooks inject); :meth:`memdir.Memory.context` is the block alone, for a harness of one's own
(no MCP tools to name, no cap but the setting's). On the hot path: no YAML, no SQLite.

Once per session (issue 28 item 3, as recall's bodies): a session start whose conversation still holds
the block an earlier start of the session gave (a resume: Codex 0.171's ``exec resume`` keeps every
earlier block, so each resume added another copy) gives it again only when it changed; unchanged,
:data:`UNCHANGED` stands in for it (:func:`start_text`'s ``given``) — one line telling the model the
index it holds is current (a resume may come days later), where nothing would leave it guessing.
"""

from __future__ import annotations

import os
import sys

from ..files.layout import INSTALLS_DIR
from .context import (
    CLI_NOTE,
    HOOK_CONTEXT_MAX_CHARS,
    TOOLS_NOTE,
    byte_budget,
    guidance_block,
    session_layout,
    warning,
)
from .pending import with_pending
from .shown import digest

# What stands in for a context block the conversation holds already, unchanged (no tag of the block's own).
UNCHANGED = ("(memdir: the memory context block given earlier in this session is unchanged; its index and "
             "guidance are current)")


def start_budget(session, max_bytes: int | None = None) -> int:
    """The UTF-8 byte budget of a session start: ``max_bytes`` (default the ``context_max_bytes``
    setting), at most :data:`~memdir.prompt.context.HOOK_CONTEXT_MAX_CHARS` (a UTF-8 byte is at most
    one character). Raises :class:`InvalidInput` as :func:`~memdir.prompt.context.byte_budget`."""
    return min(byte_budget(max_bytes, session.settings.context_max_bytes), HOOK_CONTEXT_MAX_CHARS)


def mcp_reachable(home: str, client: str | None = None) -> bool:
    """Whether the agent a session start speaks to can call memdir's MCP tools: the ``mcp`` package is
    importable by this interpreter (the one an install names to run ``memdir mcp``; the test
    :func:`memdir.operations.maintenance.unserved` makes for ``memdir doctor``), and — for a start that names no
    client (``memdir context``, ``client`` None) — memdir is installed into some client (a record in ``home``'s
    :data:`~memdir.files.layout.INSTALLS_DIR`, :mod:`memdir.operations.installed`). A client's own hook was
    registered by the install that registered its server. On the hot path: no import, one directory read;
    never raises."""
    if client is None and not _recorded(os.path.join(home, INSTALLS_DIR)):
        return False  # no install recorded: nothing registered memdir's server with a client
    return mcp_importable()


def mcp_importable() -> bool:
    """Whether this interpreter can import the ``mcp`` package (what ``memdir mcp`` needs), found as
    ``importlib.util.find_spec`` finds a top-level package — a module set to None in ``sys.modules`` cannot be
    imported — without importing ``importlib.util`` (the session start's hot path). Never raises."""
    if "mcp" in sys.modules:
        return sys.modules["mcp"] is not None
    return any(finder.find_spec("mcp", None) is not None
               for finder in sys.meta_path if hasattr(finder, "find_spec"))


def _recorded(folder: str) -> bool:
    """Whether ``folder`` holds an install record naming a file: a ``<client>.json`` other than the ``{}`` an
    uninstall of its last install leaves (:func:`memdir.integrations.clients.edits.apply`)."""
    try:
        names = [name for name in os.listdir(folder) if name.endswith(".json")]
    except OSError:
        return False
    for name in names:
        try:
            with open(os.path.join(folder, name), "rb") as file:
                if file.read(64).strip() not in (b"", b"{}"):
                    return True
        except OSError:
            continue
    return False


def tools_line(home: str, note: str = TOOLS_NOTE, client: str | None = None) -> str:
    """The line a session start puts after its block: ``note`` (memdir's MCP tools as the client names them)
    when :func:`mcp_reachable`, else :data:`~memdir.prompt.context.CLI_NOTE` (the commands to run instead)."""
    return note if mcp_reachable(home, client) else CLI_NOTE


def start_layout(session, budget: int, warn=None,
                 note: str | None = None) -> tuple[str, tuple[tuple[str, int, int], ...]]:
    """The text a session start injects within ``budget`` UTF-8 bytes (``""`` when nothing fits) and
    what its context block holds per layer, ``(scope, index lines shown, index lines in all)`` as
    :func:`memdir.prompt.context.layout` gives it (``()`` when no block was rendered). Reads the
    pending findings without marking them shown: the hook that prints the text marks them
    (:func:`memdir.prompt.pending.mark_shown` with the same ``budget``). ``warn`` as
    :func:`~memdir.prompt.context.session_block`'s. ``note``: the tools note as the client names the tools
    (:func:`memdir.prompt.context.tools_note`); default :func:`tools_line` of no client (Claude Code's names, or
    the commands when memdir's MCP server is not installed or cannot start: what ``memdir context`` prints)."""
    return start_text(session, budget, warn, note)[:2]


def start_text(session, budget: int, warn=None, note: str | None = None, given: str | None = None,
               resumed: bool = False, findings: bool = True) -> tuple[str, tuple, str | None]:
    """:func:`start_layout`'s ``(text, per layer)`` and the :func:`~memdir.prompt.shown.digest` of
    the context block rendered (None when none was). ``given``: the digest of the block the
    session's conversation holds already (:func:`memdir.prompt.recalled.start_given`); a block of
    that digest is not given again: :data:`UNCHANGED` stands in its place (the pending findings
    still follow). Any change of the block (an index line, the budget that cut it) gives it whole.
    ``resumed``: the conversation holds what earlier starts of the session gave, so the pending
    findings already shown in this session are not shown again (``once_per_session``: the hook
    marks them with the same flag). ``findings``: False leaves the pending findings out, the whole
    budget to the block — for a start whose text a later prompt gives, whose recall then gives the
    findings and counts them as shown (:func:`memdir.search.recall.recall_with_pending`). ``note`` as
    :func:`start_layout`'s."""
    if note is None:
        note = tools_line(session.home_path)
    room = len(note.encode("utf-8")) + 1
    held: list = [(), None]

    def block(rest: int) -> str:
        out = whole(rest)
        held[1] = digest(out) if out else None
        if out and held[1] == given and len(UNCHANGED.encode("utf-8")) <= rest:
            return UNCHANGED  # the conversation holds this very block
        return out

    def whole(rest: int) -> str:
        said: list[str] = []
        text, shown = session_layout(session, max(1, rest - room), said.append, guidance=True)
        if any(total for _scope, _shown, total in shown) and not any(n for _scope, n, _total in shown):
            # The note's room leaves not one index line: the block alone, in the whole of ``rest`` (a
            # budget too small even so is said in its own figure, not in what the note left of it).
            alone, held[0] = session_layout(session, rest, warn, guidance=True)
            return alone
        for message in said:  # a layer left out: said once, as the block was rendered
            (warn or warning)(message)
        held[0] = shown
        text = text or guidance_block(rest)
        # The note names the MCP tools as the client names them, when it fits.
        out = f"{text}\n{note}" if text else ""
        return out if out and len(out.encode("utf-8")) <= rest else text

    text = with_pending(session, budget, block, once_per_session=resumed) if findings else block(budget)
    return text, held[0], held[1]


__all__ = ["UNCHANGED", "mcp_reachable", "start_budget", "start_layout", "start_text", "tools_line"]
