"""The memory tools a model calls — one definition shared by MCP and any harness.

Each tool is a :class:`ToolSpec`: a name, a 2–5 line description (paid for in
every session, so kept short), a JSON schema for its arguments and MCP
annotations (``readOnlyHint`` on reads, ``destructiveHint`` on
delete/prune/delete_all). :func:`run_tool` executes one against a
:class:`memdir.Memory` and returns a :class:`ToolOutput`; :func:`call_tool`
returns just the text a model should see; :func:`tool_schemas` gives the
OpenAI-style ``{"type": "function", "function": {...}}`` definitions.

Outputs are bounded so a large store cannot flood a context window:
``memory_list`` pages (``offset``/``limit``, at most :data:`MAX_LIST` rows),
``memory_search`` returns at most :data:`MAX_SEARCH` hits with cut snippets,
``memory_read`` returns a body in chunks of :data:`READ_CHUNK` characters with
``truncated``, the total size and the ``offset`` to continue from, and any
output is cut at :data:`MAX_OUTPUT` characters with a marker saying so.

Domain errors (:class:`memdir.errors.MemdirError`) become an error result whose
text tells the model what to do; the project never comes from an argument
(DESIGN §2), so an argument like ``project`` or ``cwd`` is refused by name.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from ..store.errors import InvalidInput, MemdirError

READ_CHUNK = 8000        # characters of a body per memory_read call
MAX_LIST = 100           # rows per memory_list page
DEFAULT_LIST = 50
MAX_SEARCH = 20          # hits per memory_search
DEFAULT_SEARCH = 5
SNIPPET = 300            # characters of a search snippet or a listed description
MAX_HISTORY = 50         # versions shown by memory_history
MAX_OUTPUT = 20_000      # characters of any tool output (final safety net)

TYPES = ("user", "feedback", "project", "reference")
_SCOPE = {"type": "string", "enum": ["user", "project"],
          "description": "user (about the person, every project) or project (this project)"}
_NAME = {"type": "string", "description": "memory name (kebab-case, e.g. db-port)"}


@dataclass(frozen=True)
class ToolSpec:
    """One tool: what the model reads (``description``, ``schema``) and how
    clients may treat it (``read_only``, ``destructive``, ``idempotent``)."""

    name: str
    title: str
    description: str
    schema: dict
    read_only: bool = False
    destructive: bool = False
    idempotent: bool = False

    def annotations(self) -> dict:
        """MCP tool annotations (camelCase hint names, as on the wire)."""
        return {"title": self.title, "readOnlyHint": self.read_only, "destructiveHint": self.destructive,
                "idempotentHint": self.idempotent, "openWorldHint": False}


def _schema(properties: dict, required: tuple[str, ...] = ()) -> dict:
    return {"type": "object", "properties": properties, "required": list(required),
            "additionalProperties": False}


TOOLS: tuple[ToolSpec, ...] = (
    ToolSpec(
        "memory_write", "Write memory",
        "Save or update a long-term memory (same name = update). Types: user (who the person is), "
        "feedback (how to work; end the body with **Why:** and **How to apply:** lines), project "
        "(goals, decisions, deadlines as absolute dates), reference (outside resources).\n"
        "Never store secrets or what the code and git already say. Link others with [[name]].",
        _schema({"name": _NAME,
                 "description": {"type": "string", "description": "one line, ≤ 160 characters"},
                 "type": {"type": "string", "enum": list(TYPES)},
                 "body": {"type": "string", "description": "Markdown, ≤ 2000 characters"},
                 "title": {"type": "string", "description": "optional display title, any language"},
                 "pinned": {"type": "boolean", "description": "keep at the top of the index"},
                 "scope": _SCOPE}, ("name", "description", "type", "body")),
        idempotent=True),
    ToolSpec(
        "memory_read", "Read memory",
        "Read one memory's full text and the memories it links to. A long body comes in chunks: "
        "when the result says truncated, call again with the offset it gives.",
        _schema({"name": _NAME, "scope": _SCOPE,
                 "offset": {"type": "integer", "minimum": 0, "description": "character offset into the body"}},
                ("name",)),
        read_only=True),
    ToolSpec(
        "memory_list", "List memories",
        "List memories (user layer first, then project) with name, type and description, in index "
        "order. Paged: at most 100 per call; use offset to see more.",
        _schema({"scope": _SCOPE,
                 "offset": {"type": "integer", "minimum": 0},
                 "limit": {"type": "integer", "minimum": 1, "maximum": MAX_LIST},
                 "include_all": {"type": "boolean", "description": "also candidates, superseded, expired"}}),
        read_only=True),
    ToolSpec(
        "memory_search", "Search memories",
        "Find memories relevant to a query (words, identifiers, any language), best first. "
        "Open a hit with memory_read.",
        _schema({"query": {"type": "string"},
                 "k": {"type": "integer", "minimum": 1, "maximum": MAX_SEARCH, "description": "hits (default 5)"},
                 "scope": _SCOPE}, ("query",)),
        read_only=True),
    ToolSpec(
        "memory_delete", "Delete memory",
        "Delete a memory that is wrong or obsolete. Its value is tombstoned: the same fact cannot "
        "be written again unless a person allows it. To correct a fact, delete it and write the new one.",
        _schema({"name": _NAME, "scope": _SCOPE,
                 "reason": {"type": "string", "description": "why (kept in the journal)"}}, ("name",)),
        destructive=True, idempotent=True),
    ToolSpec(
        "memory_prune", "Prune old memories",
        "List (dry run, the default) or delete memories not updated for older_than_days days; "
        "pinned ones are kept. Deletes only with dry_run: false — ask the user first.",
        _schema({"older_than_days": {"type": "integer", "minimum": 1}, "scope": _SCOPE,
                 "dry_run": {"type": "boolean", "description": "default true"}}, ("older_than_days",)),
        destructive=True),
    ToolSpec(
        "memory_delete_all", "Delete all memories",
        "Delete every memory of a scope (both scopes when none is given). Destructive: only when "
        "the user asked for it, and only with confirm: true.",
        _schema({"confirm": {"type": "boolean"}, "scope": _SCOPE}, ("confirm",)),
        destructive=True),
    ToolSpec(
        "memory_history", "Memory history",
        "List the saved versions of a memory (also of a deleted one); with version, show that "
        "version's text. Use memory_restore to bring one back.",
        _schema({"name": _NAME, "scope": _SCOPE, "version": {"type": "integer", "minimum": 1}}, ("name",)),
        read_only=True),
    ToolSpec(
        "memory_restore", "Restore memory version",
        "Write an earlier version of a memory back (see memory_history for version numbers). "
        "A value that was deliberately deleted stays refused.",
        _schema({"name": _NAME, "version": {"type": "integer", "minimum": 1}, "scope": _SCOPE},
                ("name", "version")),
        idempotent=True),
    ToolSpec(
        "memory_status", "Memory status",
        "Show where memories are stored, how many each layer holds, files that could not be read, "
        "and how much of the context budget the index uses.",
        _schema({}),
        read_only=True),
)
TOOL_NAMES = tuple(t.name for t in TOOLS)
_BY_NAME = {t.name: t for t in TOOLS}
_SESSION_ARGS = ("project", "project_root", "cwd", "root", "path", "home")


@dataclass(frozen=True)
class ToolOutput:
    """A tool's result: ``text`` for the model, ``is_error`` when it failed."""

    text: str
    is_error: bool = False


def get_tool(name: str) -> ToolSpec:
    """The :class:`ToolSpec` called ``name``. Raises :class:`InvalidInput`."""
    spec = _BY_NAME.get(name)
    if spec is None:
        raise InvalidInput(f"unknown tool {name!r}; memory tools are: {', '.join(TOOL_NAMES)}")
    return spec


def tool_schemas(mem=None) -> list[dict]:
    """The tools as OpenAI-style function definitions (``tools=`` of a chat
    completion request): ``[{"type": "function", "function": {"name",
    "description", "parameters"}}]``, in :data:`TOOLS` order. ``mem`` is
    accepted for the facade's signature; the list does not depend on it."""
    return [{"type": "function",
             "function": {"name": t.name, "description": t.description, "parameters": t.schema}}
            for t in TOOLS]


def call_tool(mem, name: str, arguments: dict | None = None) -> str:
    """Run tool ``name`` with ``arguments`` (a dict, or a JSON string as some
    APIs deliver it) and return the text a model should see. A domain error
    becomes text starting with ``Error:``; other exceptions propagate."""
    return run_tool(mem, name, arguments).text


def run_tool(mem, name: str, arguments: dict | str | None = None) -> ToolOutput:
    """Run one tool; :class:`MemdirError` becomes ``ToolOutput(is_error=True)``."""
    try:
        spec = get_tool(name)
        args = _check_arguments(spec, arguments)
        text = _HANDLERS[name](mem, args)
    except MemdirError as exc:
        return ToolOutput(_bounded(f"Error: {exc}"), True)
    return ToolOutput(_bounded(text))


# ---------------------------------------------------------------- arguments


def _check_arguments(spec: ToolSpec, arguments) -> dict:
    if arguments is None or arguments == "":
        arguments = {}
    if isinstance(arguments, str):
        import json

        try:
            arguments = json.loads(arguments)
        except ValueError as exc:
            raise InvalidInput(f"{spec.name}: arguments are not valid JSON ({exc})") from None
    if not isinstance(arguments, dict):
        raise InvalidInput(f"{spec.name}: arguments must be a JSON object")
    props = spec.schema["properties"]
    for key in arguments:
        if key in props:
            continue
        if key in _SESSION_ARGS:
            raise InvalidInput(f"{spec.name}: the project comes from the session, not from an argument; "
                               f"drop {key!r} (a person sets it with --project or MEMDIR_PROJECT)")
        raise InvalidInput(f"{spec.name}: unknown argument {key!r}; allowed: {', '.join(props) or 'none'}")
    out = {}
    for key in spec.schema["required"]:
        if arguments.get(key) is None:
            raise InvalidInput(f"{spec.name}: missing required argument {key!r}")
    for key, value in arguments.items():
        if value is None:
            continue
        kind = props[key].get("type")
        ok = {"string": isinstance(value, str),
              "boolean": isinstance(value, bool),
              "integer": isinstance(value, int) and not isinstance(value, bool)}.get(kind, True)
        if not ok and kind == "integer" and isinstance(value, str) and value.strip().isdigit():
            value, ok = int(value), True  # some models send numbers as strings
        if not ok:
            article = "an" if kind[:1] in "aeiou" else "a"
            raise InvalidInput(f"{spec.name}: {key!r} must be {article} {kind}, got {type(value).__name__}")
        if "enum" in props[key] and value not in props[key]["enum"]:
            raise InvalidInput(f"{spec.name}: {key!r} must be one of {', '.join(props[key]['enum'])}")
        if kind == "integer":
            low, high = props[key].get("minimum"), props[key].get("maximum")
            if low is not None and value < low:
                raise InvalidInput(f"{spec.name}: {key!r} must be ≥ {low}")
            if high is not None and value > high:
                value = high  # a too-large page size is clamped, not an error
        out[key] = value
    return out


# ---------------------------------------------------------------- rendering helpers


def _cut(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _one_line(text: str | None) -> str:
    return " ".join((text or "").split())


def _bounded(text: str) -> str:
    if len(text) <= MAX_OUTPUT:
        return text
    marker = f"\n…(output cut at {MAX_OUTPUT} characters)"
    return text[: MAX_OUTPUT - len(marker)] + marker


def _line(m) -> str:
    pin = " 📌" if m.pinned else ""
    state = "" if m.state == "active" else f" [{m.state}]"
    origin = " (auto-extracted)" if m.origin == "extracted" else ""
    return f"- {m.name}{pin} ({m.scope}/{m.type}){origin} — {_cut(_one_line(m.description), SNIPPET)}{state}"


# ---------------------------------------------------------------- handlers


def _write(mem, a: dict) -> str:
    result = mem.write(a["name"], a["description"], a["type"], a["body"], title=a.get("title"),
                       scope=a.get("scope"), pinned=a.get("pinned"))
    text = f"Memory {result.operation}: {result.name} ({result.scope}{', pinned' if result.pinned else ''})"
    if result.status == "candidate":
        text += "\nSaved as a candidate: a person reviews it before it joins the index."
    if result.redactions:
        kinds = ", ".join(f"{k}×{v}" for k, v in sorted(result.redaction_kinds.items()))
        text += f"\n{result.redactions} secret(s) were redacted before saving ({kinds})."
    for warning in result.warnings:
        text += f"\nwarning: {warning}"
    return text


def _read(mem, a: dict) -> str:
    offset = a.get("offset", 0)
    result = mem.read(a["name"], a.get("scope"), count=offset == 0)
    r = result.record
    body = r.body
    total = len(body)
    if offset > total:
        raise InvalidInput(f"memory_read: offset {offset} is past the end of the body ({total} characters)")
    chunk = body[offset: offset + READ_CHUNK]
    end = offset + len(chunk)
    head = [f"--- name: {r.name}", f"description: {_one_line(r.description)}", f"type: {r.type}",
            f"scope: {result.scope}"]
    if r.title:
        head.append(f"title: {_one_line(r.title)}")
    if r.status != "active":
        head.append(f"status: {r.status}")
    if offset or end < total:
        head.append(f"body: characters {offset}–{end} of {total}")
    text = "\n".join(head) + "\n---\n\n" + chunk
    if end < total:
        text += (f"\n\n[truncated: {total - end} more characters; total size {total} characters — "
                 f"call memory_read with offset={end} for the next part]")
    if result.linked and offset == 0:
        text += "\n\nLinked memories:\n" + "\n".join(
            f"- {l['name']} — {_cut(_one_line(l['description']), SNIPPET)}" for l in result.linked)
    return text


def _list(mem, a: dict) -> str:
    result = mem.list(a.get("scope"), include_all=bool(a.get("include_all")))
    offset, limit = a.get("offset", 0), a.get("limit", DEFAULT_LIST)
    total = len(result.memories)
    page = result.memories[offset: offset + limit]
    if not total:
        lines = ["No memories yet."]
    else:
        lines = [f"Memories {offset + 1}–{offset + len(page)} of {total}:" if page
                 else f"No memories at offset {offset} (there are {total})."]
        lines += [_line(m) for m in page]
        if offset + len(page) < total:
            lines.append(f"…{total - offset - len(page)} more — call memory_list with offset={offset + len(page)}")
    if mem.project_root is None and a.get("scope") != "user":
        lines.append(f"(project memories unavailable: {mem.project_error})")
    bad = result.malformed
    for item in bad[:10]:
        lines.append(f"! unreadable file: {item.path}: {_cut(_one_line(item.error), SNIPPET)}")
    if len(bad) > 10:
        lines.append(f"! …and {len(bad) - 10} more unreadable files (see memory_status)")
    return "\n".join(lines)


def _hit_dict(hit) -> dict:
    if isinstance(hit, dict):
        return hit
    if hasattr(hit, "to_dict"):
        return hit.to_dict()
    if dataclasses.is_dataclass(hit):
        return dataclasses.asdict(hit)
    return {"name": str(hit)}


def _search(mem, a: dict) -> str:
    query = a["query"].strip()
    if not query:
        raise InvalidInput("memory_search: query is empty")
    k = a.get("k", DEFAULT_SEARCH)
    try:
        hits = mem.search(query, k=k, scope=a.get("scope"))
    except ImportError:
        raise MemdirError("search is not available in this installation (memdir.search is missing); "
                          "use memory_list and memory_read instead") from None
    hits = getattr(hits, "hits", hits)
    rows = [_hit_dict(h) for h in list(hits)[:k]]
    if not rows:
        return f"No memories match {_cut(_one_line(query), 120)!r}."
    lines = [f"{len(rows)} result(s) for {query!r}:"]
    for row in rows:
        scope = row.get("scope", "?")
        kind = row.get("type")
        where = f"{scope}/{kind}" if kind else scope
        lines.append(f"- {row.get('name')} ({where}) — {_cut(_one_line(row.get('description')), SNIPPET)}")
        snippet = row.get("snippet") or row.get("text")
        if snippet:
            lines.append(f"  {_cut(_one_line(str(snippet)), SNIPPET)}")
    return "\n".join(lines)


def _delete(mem, a: dict) -> str:
    result = mem.delete(a["name"], a.get("scope"), reason=a.get("reason"))
    return (f"Deleted memory: {result['name']} ({result['scope']}). Its value is tombstoned and will "
            f"not be written again" + (f" (tombstone {result['tombstone']})." if result["tombstone"] else "."))


def _prune(mem, a: dict) -> str:
    dry_run = a.get("dry_run", True) is not False
    result = mem.prune(a["older_than_days"], a.get("scope"), dry_run=dry_run)
    cands = result["candidates"]
    if dry_run:
        head = (f"Prune dry-run: {len(cands)} candidate(s) not updated for {a['older_than_days']}+ days"
                + (" — call again with dry_run: false to delete them (ask the user first)" if cands else "."))
    else:
        head = f"Pruned {result['deleted']} of {len(cands)} candidate(s)" + ("" if cands else ".")
    lines = [head] + [f"- {c['name']} ({c['scope']}, {c['days_since_update']}d since update) — "
                      f"{_cut(_one_line(c['description']), SNIPPET)}" for c in cands[:MAX_LIST]]
    if len(cands) > MAX_LIST:
        lines.append(f"…and {len(cands) - MAX_LIST} more")
    return "\n".join(lines)


def _delete_all(mem, a: dict) -> str:
    result = mem.clear(a.get("scope"), confirm=a.get("confirm") is True)
    return "Deleted " + ", ".join(f"{s['deleted']} in {s['scope']}" for s in result["scopes"]) + \
        " (tombstones stay)."


def _history(mem, a: dict) -> str:
    if a.get("version") is not None:
        text = mem.show(a["name"], a["version"], a.get("scope"))
        return f"Version {a['version']} of {a['name']}:\n\n" + _cut(text, READ_CHUNK)
    versions = mem.history(a["name"], a.get("scope"))
    shown = versions[-MAX_HISTORY:]
    lines = [f"{len(versions)} version(s) of {a['name']}" + (f" (last {len(shown)} shown)" if len(shown) < len(versions) else "")
             + ":"]
    for v in shown:
        what = "deleted" if v.digest is None else _cut(_one_line(v.description), 120)
        lines.append(f"v{v.version}  {v.ts}  {v.actor} {v.action} — {what}")
    return "\n".join(lines)


def _restore(mem, a: dict) -> str:
    result = mem.restore(a["name"], a["version"], a.get("scope"))
    return f"Restored {result.name} to version {a['version']} ({result.scope}, {result.operation})."


def _status(mem, a: dict) -> str:
    return status_text(mem.status())


def status_text(status: dict, max_malformed: int = 10) -> str:
    """:meth:`Memory.status` as lines a person or a model reads (the CLI's
    ``memdir status`` too); at most ``max_malformed`` unreadable files listed per layer."""
    lines = [f"home: {status['home']}",
             f"project: {status['project_root'] or '(none — ' + str(status['project_error']) + ')'}",
             f"search: {status['search']}",
             f"context: {status['context_bytes']} of {status['context_budget']} bytes"]
    for layer in status["layers"]:
        lines.append(f"{layer['scope']}: {layer['memories']} memories ({layer['visible']} in the index, "
                     f"{layer['candidates']} candidates, {layer['tombstones']} tombstones)")
        for bad in layer["malformed"][:max_malformed]:
            lines.append(f"  ! unreadable: {bad['path']}: {_cut(_one_line(bad['error']), SNIPPET)}")
        if len(layer["malformed"]) > max_malformed:
            lines.append(f"  ! …and {len(layer['malformed']) - max_malformed} more unreadable files")
    return "\n".join(lines)


_HANDLERS = {
    "memory_write": _write, "memory_read": _read, "memory_list": _list, "memory_search": _search,
    "memory_delete": _delete, "memory_prune": _prune, "memory_delete_all": _delete_all,
    "memory_history": _history, "memory_restore": _restore, "memory_status": _status,
}
assert set(_HANDLERS) == set(TOOL_NAMES)

__all__ = ["TOOLS", "TOOL_NAMES", "ToolSpec", "ToolOutput", "get_tool", "tool_schemas", "call_tool", "run_tool",
           "READ_CHUNK", "MAX_LIST", "MAX_SEARCH", "MAX_OUTPUT"]
