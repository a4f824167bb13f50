"""Running a memory tool: arguments checked, the operation done, its text rendered.

:func:`run_tool` executes one tool of :mod:`memdir.tools.specs` for a
:class:`~memdir.session.Session` and returns a :class:`ToolOutput`:
the text a model should see (made by :mod:`memdir.render.memories`, the same
text the CLI prints) and whether it failed. Domain errors
(:class:`~memdir.errors.MemdirError`) become an error result whose text
tells the model what to do; anything else propagates.

Outputs are bounded so a large store cannot flood a context window:
``memory_list`` pages (``offset``/``limit``, at most ``MAX_LIST`` rows),
``memory_search`` returns at most ``MAX_SEARCH`` hits with cut snippets,
``memory_read`` returns a body in chunks of at most ``READ_CHUNK`` characters
and ``tool_output_max_bytes`` UTF-8 bytes of output with the ``offset`` to
continue from, and any output is cut at ``MAX_OUTPUT``
characters with a marker saying so. Every output is escaped as the context
block is (:func:`memdir.text.fence.escape_stored`).

:func:`status` and :func:`doctor` compose the whole status — the store's
(:mod:`memdir.operations.maintenance`) with the search state and the
consolidation extractor — once, for the ``memory_status`` tool and the
facade alike.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from ..errors import Conflict, InvalidInput, MemdirError, NotFound, Refused
from ..gateway.edits import BodyEdit
from ..gateway.fields import MemoryChange
from ..operations import maintenance, versions
from ..operations import memories as operations
from ..render import maintenance as render_maintenance
from ..render import memories as render
from ..render import shown_text
from ..results.maintenance import DoctorResult, StatusResult
from ..session import Session
from ..text.fence import escape_stored, quoted
from ..text.printable import well_formed
from .specs import (
    DEFAULT_LIST,
    DEFAULT_SEARCH,
    MAX_HISTORY,
    MAX_LIST,
    MAX_OUTPUT,
    READ_CHUNK,
    TOOL_NAMES,
    check_arguments,
    get_tool,
)


@dataclass(frozen=True)
class ToolOutput:
    """A tool's result: ``text`` for the model, ``is_error`` when it failed."""

    text: str
    is_error: bool = False


def run_tool(session: Session, name: str, arguments: dict | str | None = None) -> ToolOutput:
    """Run tool ``name`` with ``arguments`` (a dict, or a JSON string) as
    ``session``'s actor; a :class:`MemdirError` becomes ``ToolOutput(is_error=True)``
    with text starting ``Error:``."""
    try:
        spec = get_tool(name, session.settings)
        args = check_arguments(spec, arguments)
        text = _HANDLERS[name](session, args)
    except MemdirError as exc:
        hint = " — call memory_list to see the names" if str(exc).startswith("memory not found") else ""
        if isinstance(exc, NotFound) and exc.deleted:  # the tools' way to the versions (a person's is memdir history)
            hint = f"; memory_history with name {exc.deleted!r} shows its versions"
        elif isinstance(exc, NotFound) and exc.elsewhere:  # the tools' way to that layer (a person's is --scope)
            hint = f": leave scope out or give scope {exc.elsewhere!r}"
        elif isinstance(exc, Conflict) and exc.taken:  # the tools' way to rename or change (a person's: memdir write)
            held, moving, free = exc.taken
            hint = f" (memory_write name {free!r} rename_from {moving!r}, or name {held!r} without rename_from)"
        elif isinstance(exc, Refused) and exc.reactivate:  # the tools' way back (a person's: --reactivate)
            hint = (f"; reactivate it with memory_write name {exc.reactivate!r} reactivate true (a version of it: "
                    "memory_restore with reactivate true)")
        return ToolOutput(answer(f"Error: {exc}{hint}"), True)
    return ToolOutput(answer(text))


def answer(text: str) -> str:
    """``text`` as a tool's result shows it to a model, the one rule of every tool (these and the memory
    tool's, :mod:`memdir.tools.memory_directory`): valid Unicode (:func:`memdir.text.printable.well_formed`),
    printable and read as data (:func:`memdir.render.shown_text`), at most :data:`MAX_OUTPUT` characters
    (cut with a marker)."""
    # An error can quote a file name or a value, a result holds stored text: no control character, fence
    # tag, harness tag or template brace reaches the model (the context block's rule, text.fence), and no
    # lone surrogate an argument held (no client's encoder takes it).
    text = shown_text(well_formed(text))
    if len(text) <= MAX_OUTPUT:
        return text
    marker = f"\n…(output cut at {MAX_OUTPUT} characters)"
    return text[: MAX_OUTPUT - len(marker)] + marker


def seen_in_conversation(session: Session, tool: str, arguments, response=None, kept: int | None = None) -> str | None:
    """After tool ``tool`` ran with ``arguments`` (a dict) in ``session``'s conversation: when the conversation
    now holds a memory's body whole, record so (:func:`memdir.search.recall.mark_seen`: recall names it on the
    pointer line instead of giving the body again, until it changes; issue 28 item 3) and return None; else the
    reason nothing was recorded. Whole: a ``memory_read`` from offset 0 of a body of at most :data:`READ_CHUNK`
    characters whose quoted text fits ``tool_output_max_bytes`` (one call shows it all), a ``memory_write`` whose ``body`` argument is the body now stored (a body
    redaction changed, or an update that kept the body, is not in the conversation), or that gave no body for a memory
    stored without one (trial28: a description-only write made Gemini CLI show the person "the body … is not the one
    … was given; recall may give it", though recall never gives a memory without a body); a read only when ``response``
    (what the client kept of the tool's output: text, or JSON holding it) shows the body stored now as the tool
    shows it (another session may have changed it since: break16), in an output of at most ``kept`` UTF-8 bytes
    when the client cuts longer ones for the model (Codex: :data:`memdir.integrations.claude_code.dialects.
    KEEPS_TOOL_OUTPUT`; its hook input still holds the whole output). ``tool`` is a name of
    :data:`TOOL_NAMES` or an MCP client's name for it (Claude Code's ``mcp__memdir__memory_read``). Raises
    :class:`NotFound` (no such memory now), :class:`InvalidInput`, :class:`~memdir.errors.ScopeError`."""
    from ..operations.lookup import find
    from ..search.recall import mark_seen

    action = tool.rpartition("__")[2]
    if action not in ("memory_read", "memory_write"):
        return f"{tool} shows no memory's body whole"
    if not isinstance(arguments, dict) or not isinstance(arguments.get("name"), str):
        return f"{tool} was given no memory name"
    scope = arguments.get("scope") if isinstance(arguments.get("scope"), str) else None
    layer, entry = find(session, arguments["name"], scope)
    body = entry.record.body
    shown = answer(quoted(escape_stored(body)))
    if action == "memory_read" and ((arguments.get("offset") or 0) != 0 or len(body) > READ_CHUNK
                                    or len(shown.encode("utf-8", "replace")) > session.settings.tool_output_max_bytes):
        return f"{tool} showed {entry.record.name} in parts"
    if action == "memory_read":
        texts = _texts(response)
        if shown not in "\n".join(texts):
            return f"{tool}'s output does not show the body of {entry.record.name} stored now"
        if kept is not None and min((len(text.encode("utf-8", "replace")) for text in texts if shown in text),
                                    default=kept + 1) > kept:
            return f"{tool}'s output of {entry.record.name} is over the {kept} bytes the client keeps whole"
    given = arguments.get("body")  # none given, none stored: the conversation holds all there is
    whole = not body.strip() if given is None else isinstance(given, str) and given.strip() == body.strip()
    if action == "memory_write" and not whole:
        return f"the body of {entry.record.name} stored is not the one {tool} was given"
    mark_seen(session, layer.scope, entry.record)
    return None


def _texts(value) -> list[str]:
    """Every string in ``value`` (a client's record of a tool's output: a string, or lists and dicts of them)."""
    if isinstance(value, str):
        return [value]
    items = value.values() if isinstance(value, dict) else value if isinstance(value, list) else ()
    return [text for item in items for text in _texts(item)]


# ---------------------------------------------------------------- handlers


def _write(session: Session, a: dict) -> str:
    change = MemoryChange(a["name"], a.get("description"), a.get("type"), a.get("body"), title=a.get("title"),
                          pinned=a.get("pinned"), reactivate=a.get("reactivate") is True,
                          rename_from=a.get("rename_from"))
    result = operations.write(session, change, a.get("scope"))
    return "\n".join([render.write(result), *render.warnings(result)])


def _edit(session: Session, a: dict) -> str:
    asked = ("old_str", "new_str") if a["mode"] == "str_replace" else ("insert_line", "insert_text")
    missing = [key for key in asked if key not in a]
    stray = [key for key in ("old_str", "new_str", "insert_line", "insert_text") if key in a and key not in asked]
    if missing or stray:
        raise InvalidInput(f"memory_edit: mode {a['mode']} takes {' and '.join(asked)}"
                           + (f"; missing {', '.join(missing)}" if missing else "")
                           + (f"; drop {', '.join(stray)}" if stray else ""))
    change = (BodyEdit(old=a["old_str"], new=a["new_str"], quoted=True) if a["mode"] == "str_replace"
              else BodyEdit(line=a["insert_line"], text=a["insert_text"]))
    result = operations.edit(session, a["name"], change, a.get("scope"))
    return "\n".join([render.edit(result), *render.warnings(result)])


def _read(session: Session, a: dict) -> str:
    offset = a.get("offset", 0)
    result = operations.read(session, a["name"], a.get("scope"), count=offset == 0)
    if offset > len(result.record.body):
        raise InvalidInput(f"memory_read: offset {offset} is past the end of the body "
                           f"({len(result.record.body)} characters)")
    return render.read(result, offset=offset, chunk=READ_CHUNK, max_bytes=session.settings.tool_output_max_bytes,
                       more=" — call memory_read with offset={offset} for the next part")


def _list(session: Session, a: dict) -> str:
    result = operations.list_memories(session, a.get("scope"), include_all=bool(a.get("include_all")))
    return render.listing(result, offset=a.get("offset", 0), limit=a.get("limit", DEFAULT_LIST),
                          more=" — call memory_list with offset={offset}", max_malformed=10)


def _search(session: Session, a: dict) -> str:
    from ..search.query import checked_query
    from ..search.ranking import find

    query = checked_query(a["query"]).strip()
    offset, k = a.get("offset", 0), a.get("k", DEFAULT_SEARCH)
    results = find(session, query, k=k, scope=a.get("scope"), type=a.get("type"),
                   origin=a.get("origin"), pinned=a.get("pinned"), since=a.get("since"), until=a.get("until"),
                   offset=offset)
    return render.search(results, query, offset=offset, page=k)


def _delete(session: Session, a: dict) -> str:
    return render.delete(operations.delete(session, a["name"], a.get("scope"), reason=a.get("reason")))


def _prune(session: Session, a: dict) -> str:
    result = operations.prune(session, a["older_than_days"], a.get("scope"), dry_run=a.get("dry_run", True) is not False)
    return render.prune(result, apply="call again with dry_run: false to delete them (ask the user first)",
                        limit=MAX_LIST)


def _delete_all(session: Session, a: dict) -> str:
    return render.clear(operations.clear(session, a.get("scope"), confirm=a.get("confirm") is True))


def _history(session: Session, a: dict) -> str:
    if a.get("version") is not None:
        return render.version(versions.show(session, a["name"], a["version"], a.get("scope")), limit=READ_CHUNK)
    return render.history(versions.history(session, a["name"], a.get("scope")), limit=MAX_HISTORY)


def _restore(session: Session, a: dict) -> str:
    result = versions.restore(session, a["name"], a["version"], a.get("scope"),
                              reactivate=a.get("reactivate") is True)
    return "\n".join([render.restore(result), *render.warnings(result)])


def _status(session: Session, a: dict) -> str:
    return render_maintenance.status(status(session))


# ---------------------------------------------------------------- status and doctor, whole


def status(session: Session) -> StatusResult:
    """:func:`memdir.operations.maintenance.status` with what only the layers
    above the store can tell: the search state
    (:func:`memdir.search.embedder.search_state`) and the consolidation
    extractor in effect and why (:func:`memdir.consolidation.extractors.in_effect`), and the warm search
    process's state (``warm``: :func:`memdir.search.warmth.probe`, one look waiting at most
    :data:`~memdir.search.warmth.STATUS_TIMEOUT`) and its socket's directory (``socket_dir``:
    :func:`memdir.search.warmth.socket_dir`: which, and why each one before it was passed over). The one composition: the ``memory_status`` tool, :meth:`memdir.Memory.status`
    and ``memdir status`` all show it. Here because tools is the lowest
    package that may import search and consolidation both."""
    from ..consolidation.extractors import in_effect
    from ..search.embedder import search_state
    from ..search.warmth import STATUS_TIMEOUT, probe, socket_dir

    result = maintenance.status(session, search_state(session), in_effect(session.settings))
    # one look, a short wait: status stays quick
    return replace(result, warm=probe(session.home, STATUS_TIMEOUT), socket_dir=socket_dir())


def doctor(session: Session, notes: tuple[str, ...] = ()) -> DoctorResult:
    """:func:`memdir.operations.maintenance.doctor` with the search state and
    the extractor of :func:`status`, a note when the search index was damaged
    (``PRAGMA quick_check``: moved aside, rebuilt by the next search,
    :func:`memdir.search.rebuild.check`) or held rows that fail their checksum
    (read again from their files, :func:`memdir.search.sync.check_rows`), is kept in
    memory (a read-only home: search scans the files) or read as it is (a full
    disk: :func:`memdir.search.index.open_read_only`), one when the warm search
    process is off and why (:func:`memdir.search.warmth.why_off`), and ``notes`` from an
    integration (``memdir doctor``: Claude Code hooks registered twice). Its ``warm`` is the warm search
    process's state (:func:`memdir.search.warmth.probe`, looked at once: the note says why from the same look, and
    its ``status`` holds the same look, as :func:`status` would). Its ``warnings``: a project-scope install whose
    hooks would read another home (:func:`memdir.operations.installed.home_warnings`)."""
    from ..consolidation.extractors import in_effect
    from ..search.embedder import search_state
    from ..search.index import in_memory, read_only_reason
    from ..search.rebuild import check
    from ..search.sync import check_rows
    from ..search.warmth import probe, socket_dir, why_off

    damaged = check(session.home)  # before anything opens it
    search = search_state(session)  # first: it opens the index, which learns whether it must live in memory
    try:
        rows = None if damaged else check_rows(session.home, session.layers())  # valid pages whose text changed
    except MemdirError as exc:
        rows = str(exc)
    warm = probe(session.home)
    found = (damaged, rows, in_memory(session.home), read_only_reason(session.home),
             why_off(session.home, session.settings, warm))
    checked = maintenance.doctor(session, search, in_effect(session.settings),
                                 notes=(*(n for n in found if n is not None), *notes))
    where = socket_dir()
    from ..operations.installed import home_warnings

    return replace(checked, warm=warm, status=replace(checked.status, warm=warm, socket_dir=where),  # one look, both
                   warnings=(*checked.warnings, *home_warnings(session.home)))


_HANDLERS = {
    "memory_write": _write, "memory_edit": _edit, "memory_read": _read, "memory_list": _list, "memory_search": _search,
    "memory_delete": _delete, "memory_prune": _prune, "memory_delete_all": _delete_all,
    "memory_history": _history, "memory_restore": _restore, "memory_status": _status,
}
assert set(_HANDLERS) == set(TOOL_NAMES)

__all__ = ["ToolOutput", "answer", "doctor", "run_tool", "seen_in_conversation", "status"]
