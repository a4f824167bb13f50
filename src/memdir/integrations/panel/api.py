"""The web panel's JSON API under ``/api/`` and its OpenAPI schema.

Every route answers one JSON document: a read gives the typed results'
``to_dict()`` forms (what ``memdir … --json`` prints); a change gives
``{"result": …, "text": …}``, the text being the line ``memdir`` prints
(:mod:`memdir.render.memories`) and, for a write, ``"warnings"`` (every cut and
normalization). A memdir error becomes ``{"error", "kind"}`` with a 4xx
status (:data:`STATUS`). Changes are POSTs with a JSON body and the CSRF
header (:mod:`.security`). :data:`ROUTES` is the one table the router
and the schema at ``/api/openapi.json`` are both built from.
"""

from __future__ import annotations

import dataclasses
import json
import re
import types
import typing
from urllib.parse import quote

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from ...errors import (
    Conflict,
    InvalidInput,
    LockTimeout,
    MemdirError,
    MissingExtra,
    NotFound,
    Refused,
    ScopeError,
    TombstoneRefused,
)
from ...files.memfile import format_time
from ...files.scan import Malformed
from ...layer.history import HistoryEntry
from ...render import memories as render
from ...results import Result
from ...results import findings as finding_results
from ...results import maintenance as maintenance_results
from ...results import memories as memory_results
from ...results import trust as trust_results
from ...results import writes as write_results
from ...tombstones.refusals import lift_command, refusal
from ...version import VERSION
from ...vocabulary import ACTORS, CLEARABLE
from . import views

# The HTTP status of each memdir error (the first base class listed that matches).
STATUS = ((NotFound, 404), (Conflict, 409), (Refused, 409), (InvalidInput, 400), (ScopeError, 400),
          (LockTimeout, 503), (MissingExtra, 501))


def error_response(exc: MemdirError) -> JSONResponse:
    """``{"error", "kind"}`` with the status :data:`STATUS` gives (500 for others); a value refused by a
    tombstone names the panel's way to lift it (:func:`lifted_here`), not the command line's."""
    status = next((code for kind, code in STATUS if isinstance(exc, kind)), 500)
    return JSONResponse({"error": lifted_here(exc), "kind": type(exc).__name__}, status_code=status)


def lifted_here(exc: MemdirError) -> str:
    """The text of ``exc`` in the panel's words: a rename refused because the name is another memory's
    (``Conflict.taken``) says to save it under the free name or edit that memory; a
    :class:`~memdir.errors.TombstoneRefused` names the Lift
    button of its tombstone on the Tombstones page where the refusal (:func:`memdir.tombstones.refusals.refusal`,
    rendered from the tombstone and how the value matched it) names ``memdir tombstone lift``; what follows
    the refusal (why a superseded memory holds that value) is kept; a refusal to change a superseded memory
    (:class:`~memdir.errors.Refused` with ``lift``) names that button where it names the command, and one that
    says to reactivate a memory (``reactivate``) says the panel does not and the command that does. Any other
    error: its text."""
    text = str(exc)
    if isinstance(exc, Conflict) and exc.taken:  # a rename onto another memory's name: the panel's way on
        held, _, free = exc.taken
        return f"{text} (save it with the name {free!r}, or open {held!r} and edit it)"
    if isinstance(exc, TombstoneRefused) and exc.stone is not None:
        told = refusal(exc.stone, exc.why)
        if text.startswith(told):
            button = f"the Lift button of {exc.stone.id} on the Tombstones page (/tombstones)"
            text = refusal(exc.stone, exc.why, lift=button) + text[len(told):]
    if isinstance(exc, Refused) and exc.lift and not isinstance(exc, TombstoneRefused):  # a superseded memory's
        stone, scope = exc.lift
        text = text.replace(f"`{lift_command(stone, scope)}`",
                            f"the Lift button of {stone} on the Tombstones page (/tombstones)")
    if isinstance(exc, Refused) and exc.reactivate:  # the panel has no reactivate: a person's way back
        text += f"; the panel does not reactivate a memory: run `memdir write {exc.reactivate} --reactivate`"
    return text


def stale_response(home, ref: str, exc: Conflict) -> JSONResponse:
    """409 for a change the gateway refused because memory ``exc.memory`` is no longer the version the
    page showed (:func:`memdir.gateway.compare.unchanged`): ``{"error", "kind": "Conflict", "current"}``,
    the error saying so in the page's words and ``current`` the version there is now — ``name``,
    ``digest`` (None: deleted), ``url`` (its page: the current text, or the history to restore from) and
    ``memory`` (its full text as ``GET`` gives it, None when deleted). Nothing was changed."""
    name = exc.memory
    read = views.current(home, ref, name) if exc.current is not None else None
    url = f"/layer/{quote(ref, safe=':')}/m/{quote(name, safe='')}"
    if exc.current is None:
        text = (f"memory {name!r} was deleted since this page was loaded; nothing was changed. "
                "Its history can restore it.")
    else:
        text = (f"memory {name!r} changed since this page was loaded; nothing was changed. "
                "Look at the current version, then try again.")
    current = {"name": name, "digest": read.digest if read else exc.current, "url": url,
               "memory": read.to_dict() if read else None}
    return JSONResponse({"error": text, "kind": type(exc).__name__, "current": current}, status_code=409)


async def _body(request: Request):
    raw = await request.body()
    if not raw.strip():
        return {}
    try:
        return json.loads(raw)
    except ValueError as exc:
        if "integer string conversion" in str(exc):  # Python's own words name a setting of its own
            raise InvalidInput("the request body is not JSON: a number of more than 4300 digits") from None
        raise InvalidInput(f"the request body is not JSON: {exc}") from None
    except RecursionError:
        raise InvalidInput("the request body nests too deeply to be an edit") from None


def _change(result, text) -> dict:
    out = {"result": result.to_dict(), "text": text}
    if hasattr(result, "warnings"):
        out["warnings"] = list(render.warnings(result))
    return out


# ---------------------------------------------------------------- handlers: request → view → JSON


def _layers(home, request, p):
    return {"layers": [view.to_dict() for view in views.layers(home)],
            "unavailable": [info.to_dict() for info in home.unavailable()]}


def _memories(home, request, p):
    page = views.layer(home, p["ref"], request.query_params.get("q", ""))
    return {"ref": page.ref, "scope": page.scope, "root": page.root, "query": page.query, "error": page.error,
            **page.listing.to_dict()}


def _memory(home, request, p):
    page = views.memory(home, p["ref"], p["name"])
    if page.read is None and page.pending is not None:
        raise NotFound(f"{page.name!r} is a candidate waiting for review, not a memory yet (/api/review shows it)")
    if page.read is None:
        raise NotFound(f"memory {page.name!r} was deleted; its history can restore it")
    record = page.read.record
    return {"ref": page.ref, **page.read.to_dict(), "importance": record.importance,
            "valid_from": format_time(record.valid_from) if record.valid_from else None,
            "valid_until": format_time(record.valid_until) if record.valid_until else None, "digest": page.digest}


def _history(home, request, p):
    return views.memory(home, p["ref"], p["name"]).history.to_dict()


def _version(home, request, p):
    return views.memory(home, p["ref"], p["name"], version=p["version"]).shown.to_dict()


def _diff(home, request, p):
    a, b = (request.query_params.get(k, "") for k in ("a", "b"))
    page = views.memory(home, p["ref"], p["name"], diff=(a, b))
    return {"name": page.name, "a": page.diff_of[0], "b": page.diff_of[1], "diff": page.diff}


def _review(home, request, p):
    return {"candidates": [{"ref": item.ref, "candidate": item.candidate.to_dict()} for item in views.review(home)]}


def _tombstones(home, request, p):
    return {"tombstones": [{"ref": ref, **stone.to_dict()} for ref, stone in views.tombstones(home)]}


def _journal(home, request, p):
    q = request.query_params
    page = views.journal(home, q.get("layer", ""), q.get("actor", ""), q.get("action", ""), q.get("name", ""),
                         integer(q.get("limit", "200"), "limit"), everything=q.get("all", "") not in ("", "0"))
    return {"entries": [{"ref": ref, **entry.to_dict()} for ref, entry in page.entries], "total": page.total,
            "hidden": page.hidden}


def integer(text: str, label: str) -> int:
    """``text`` (a path or query parameter) as an integer: ASCII digits, an optional ``-``, nothing
    else (``int()`` alone would take ``"٥"``, ``"1_0"`` and ``" 1"``, and the error then names a
    number the person never typed). Raises :class:`InvalidInput`."""
    if not isinstance(text, str) or re.fullmatch(r"-?[0-9]{1,18}", text) is None:
        raise InvalidInput(f"{label} must be an integer (got {text!r})")
    return int(text)


def _edit(home, request, p, body):
    return _change(*views.edit(home, p["ref"], p["name"], body))


def _pin(home, request, p, body):
    return _change(*views.flag(home, p["ref"], p["name"], "pin", body))


def _mute(home, request, p, body):
    return _change(*views.flag(home, p["ref"], p["name"], "mute", body))


def _delete(home, request, p, body):
    return _change(*views.delete(home, p["ref"], p["name"], body))


def _restore(home, request, p, body):
    return _change(*views.restore(home, p["ref"], p["name"], body))


def _approve(home, request, p, body):
    return _change(*views.decide(home, p["ref"], p["name"], "approve", body))


def _reject(home, request, p, body):
    return _change(*views.decide(home, p["ref"], p["name"], "reject", body))


def _dismiss(home, request, p, body):
    return _change(*views.decide(home, p["ref"], p["name"], "dismiss", body))


def _lift(home, request, p, body):
    return _change(*views.lift(home, p["ref"], p["id"], body))


# ---------------------------------------------------------------- the table

S, I, B = {"type": "string"}, {"type": "integer"}, {"type": "boolean"}


def _ref(name: str) -> dict:
    return {"$ref": f"#/components/schemas/{name}"}


def _null(schema: dict) -> dict:
    return {"anyOf": [schema, {"type": "null"}]}


def _obj(props: dict, *base: str) -> dict:
    """An object with exactly ``props`` (all required), merged with the components named in ``base``."""
    own = {"type": "object", "properties": props, "required": sorted(props)}
    return {"allOf": [*(_ref(b) for b in base), own]} if base else own


def _arr(item: dict) -> dict:
    return {"type": "array", "items": item}


def _changed(result: str) -> dict:
    return {"type": "object", "required": ["result", "text"], "properties": {
        "result": _ref(result), "text": S, "warnings": _arr(S)}}


M = "/api/layers/{ref}/memories/{name}"
EXPECT = ("; expect_digest, the digest of the version the page showed, refuses it with 409 and the current "
          "version when the memory changed since")
NS = _null(S)
JOURNAL_QUERY = (("layer", S, False, "a layer ref: its events only"), ("actor", S, False, " | ".join(ACTORS)),
                 ("action", S, False, "create | update | delete | …"), ("name", S, False, "one memory's events"),
                 ("limit", I, False, "at most this many events shown (default 200)"),
                 ("all", S, False, "1: consolidation receipts too (left out and counted in hidden by default)"))
# (method, path, handler, summary, request body fields or None, 200 response schema, query parameters)
ROUTES = (
    ("GET", "/api/layers", _layers, "Every layer: status, malformed files, context budget use", None,
     _obj({"layers": _arr(_ref("LayerView")), "unavailable": _arr(_ref("ProjectInfo"))}), ()),
    ("GET", "/api/layers/{ref}/memories", _memories, "A layer's memories in index order; ?q= searches", None,
     _obj({"ref": S, "scope": S, "root": NS, "query": S, "error": NS}, "ListResult"),
     (("q", S, False, "search words: the memories found, best first"),)),
    ("GET", M, _memory, "A memory's full text and current digest (not counted as a read)", None,
     _obj({"ref": S, "importance": _null(I), "valid_from": NS, "valid_until": NS}, "ReadResult"), ()),
    ("POST", M, _edit, "Edit or rename a memory through the write gateway (as `memdir write`); \"\" clears an "
     "optional field" + EXPECT, views.EDIT_FIELDS, _changed("WriteResult"), ()),
    ("POST", M + "/pin", _pin, "Pin (value true) or unpin a memory" + EXPECT, views.FLAG_FIELDS,
     _changed("FlagResult"), ()),
    ("POST", M + "/mute", _mute, "Mute (value true) or unmute a memory" + EXPECT, views.FLAG_FIELDS,
     _changed("FlagResult"), ()),
    ("POST", M + "/delete", _delete, "Delete a memory; its value is tombstoned" + EXPECT, views.DELETE_FIELDS,
     _changed("DeleteResult"), ()),
    ("GET", M + "/history", _history, "Every version of a memory, oldest first", None, _ref("HistoryResult"), ()),
    ("GET", M + "/versions/{version}", _version, "The stored text of one version", None, _ref("VersionResult"), ()),
    ("GET", M + "/diff", _diff, "A unified diff between versions ?a= and ?b=", None,
     _obj({"name": S, "a": I, "b": I, "diff": S}), (("a", I, True, "a version"), ("b", I, True, "another"))),
    ("POST", M + "/restore", _restore, "Write an old version (or a team memory's git commit) back" + EXPECT + " (\"\": the page showed it deleted)",
     views.RESTORE_FIELDS, _changed("RestoreResult"), ()),
    ("GET", "/api/review", _review, "Candidates: a new memory's whole text, or the live and the proposed text "
     "of the memory it changes with their diff; the digest a decision carries", None,
     _obj({"candidates": _arr(_obj({"ref": S, "candidate": _ref("Candidate")}))}), ()),
    ("POST", M + "/approve", _approve, "Approve the candidate review showed (digest), optionally after editing it",
     {"reason": str, "edit": dict, "digest": str}, _changed("Decision"), ()),
    ("POST", M + "/reject", _reject, "Reject the candidate review showed (digest): the fact is wrong, its value "
     "is tombstoned", {"reason": str, "digest": str}, _changed("Decision"), ()),
    ("POST", M + "/dismiss", _dismiss, "Dismiss the candidate review showed (digest): no tombstone; the same "
     "proposal is not proposed again", {"reason": str, "digest": str}, _changed("Decision"), ()),
    ("GET", "/api/tombstones", _tombstones, "Every tombstone in force", None,
     _obj({"tombstones": _arr(_obj({"ref": S}, "TombstoneInfo"))}), ()),
    ("POST", "/api/layers/{ref}/tombstones/{id}/lift", _lift, "Lift a tombstone of that layer (journaled)",
     {"reason": str}, _changed("LiftResult"), ()),
    ("GET", "/api/journal", _journal, "Journal events of every layer, newest first", None,
     _obj({"entries": _arr(_obj({"ref": S}, "JournalEntry")), "total": I, "hidden": I}), JOURNAL_QUERY),
)


def routes(home) -> list[Route]:
    """The Starlette routes of :data:`ROUTES` plus ``/api/openapi.json``, bound to ``home``."""
    def endpoint(handler, mutation):
        async def run(request: Request):
            try:
                # The store's work (files, locks) runs in a worker thread: a lock wait never stalls the event loop.
                if mutation:
                    data = await run_in_threadpool(handler, home, request, request.path_params, await _body(request))
                else:
                    data = await run_in_threadpool(handler, home, request, request.path_params)
            except Conflict as exc:
                if mutation and exc.memory is not None and "ref" in request.path_params:
                    return await run_in_threadpool(stale_response, home, request.path_params["ref"], exc)
                return error_response(exc)
            except MemdirError as exc:
                return error_response(exc)
            return JSONResponse(data)
        return run

    out = [Route(path, endpoint(handler, method == "POST"), methods=[method], name=f"{method} {path}")
           for method, path, handler, *_ in ROUTES]
    out.append(Route("/api/openapi.json", lambda request: JSONResponse(openapi()), methods=["GET"]))
    return out


# ---------------------------------------------------------------- OpenAPI


def _schema(hint) -> dict:
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin in (typing.Union, types.UnionType):
        inner = [a for a in args if a is not type(None)]
        return _null(_schema(inner[0])) if len(inner) == 1 else {}
    if origin in (tuple, list):
        return {"type": "array", "items": _schema(args[0]) if args else {}}
    if origin is dict or hint is dict:
        return {"type": "object"}
    if dataclasses.is_dataclass(hint):  # a result type, or a record whose JSON form its result's to_dict() gives
        return _ref(hint.__name__) if hint in _component_types() else {"type": "object"}
    return {str: S, int: I, bool: B, float: {"type": "number"}}.get(hint, {})


def _component_types() -> list:
    return [*(obj for module in (memory_results, write_results, trust_results, maintenance_results, finding_results)
              for obj in vars(module).values()
              if isinstance(obj, type) and obj.__module__ == module.__name__ and dataclasses.is_dataclass(obj)
              and issubclass(obj, Result) and "to_dict" not in vars(obj)), HistoryEntry, Malformed]


def _components() -> dict:
    """A schema per result type whose JSON form is its fields (``asdict``), plus the forms built by hand."""
    out = {}
    types = _component_types()
    named = {kind.__name__: kind for kind in types}  # a hint naming a type its module imports only to check types
    for kind in types:
        hints = typing.get_type_hints(kind, localns=named)
        props = {f.name: _schema(hints[f.name]) for f in dataclasses.fields(kind)}
        out[kind.__name__] = {"type": "object", "description": (kind.__doc__ or "").split("\n\n")[0].strip(),
                              "properties": props, "required": sorted(props)}
    record = {"name": S, "scope": S, "type": S, "title": NS, "description": S, "body": S, "pinned": B,
              "disabled": B, "status": S, "origin": NS, "created": NS, "updated": NS, "reads": I,
              "linked": _arr({"type": "object"}), "truncated": B, "digest": NS,
              "successor": _null(_obj({"name": S, "via": _arr(S), "state": S, "tombstone": NS}))}
    out["ReadResult"] = {"type": "object", "description": "A memory's full text (ReadResult.to_dict).",
                         "properties": record, "required": sorted(record)}
    view = {"ref": S, "scope": S, "root": NS, "status": _ref("LayerStatus"), "context_bytes": I,
            "context_budget": I, "budget_percent": I}
    out["LayerView"] = {"type": "object", "description": "A layer as the panel lists it.", "properties": view,
                        "required": sorted(view)}
    current = _obj({"name": S, "digest": NS, "url": S, "memory": _null(_ref("ReadResult"))})
    out["Error"] = {"type": "object", "required": ["error", "kind"], "properties": {
        "error": S, "kind": S, "current": current}}  # current: a 409 of a change asked on a stale page
    return out


def _body_field(key: str, kind) -> dict:
    accepted = [_schema(kind), {"type": "null"}]
    if key in CLEARABLE:
        accepted.append({"const": ""})  # "" empties the field
    return {"anyOf": accepted}


def openapi() -> dict:
    """The OpenAPI 3.1 document of :data:`ROUTES`: path and query
    parameters, request bodies, the 200 response of each route (the result
    dataclasses of :mod:`memdir.results` as components) and the error
    shape. ``tests/integrations/panel/test_trial.py`` validates real responses against it."""
    paths: dict = {}
    for method, path, _handler, summary, body, response, query in ROUTES:
        params = [{"name": part[1:-1], "in": "path", "required": True, "schema": S}
                  for part in path.split("/") if part.startswith("{")]
        params += [{"name": name, "in": "query", "required": required, "schema": schema, "description": text}
                   for name, schema, required, text in query]
        op = {"summary": summary, "parameters": params, "responses": {
            "200": {"description": "OK", "content": {"application/json": {"schema": response}}},
            **{str(code): {"description": kind.__name__, "content": {"application/json": {"schema": _ref("Error")}}}
               for kind, code in STATUS},
            "403": {"description": "Not loopback, foreign Origin, no token, or a change without JSON and CSRF"}}}
        if body is not None:
            op["requestBody"] = {"required": True, "content": {"application/json": {"schema": {
                "type": "object", "additionalProperties": False,
                "properties": {k: _body_field(k, v) for k, v in body.items()}}}}}
            op["parameters"].append({"name": "X-CSRF-Token", "in": "header", "required": True, "schema": S})
            op["responses"]["413"] = {"description": "The body is over the size limit"}
        paths.setdefault(path, {})[method.lower()] = op
    return {"openapi": "3.1.0", "info": {"title": "memdir panel", "version": VERSION,
                                         "description": "Review, correct and audit memdir memories."},
            "paths": paths, "components": {"schemas": _components(), "securitySchemes": {
                "token": {"type": "apiKey", "in": "header", "name": "X-Memdir-Token"}}},
            "security": [{"token": []}]}


__all__ = ["ROUTES", "STATUS", "error_response", "integer", "lifted_here", "openapi", "routes", "stale_response"]
