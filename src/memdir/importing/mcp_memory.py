"""The reference MCP memory server's knowledge graph as memories to import (:func:`read_mcp_memory`), for
:mod:`memdir.importing.run`: one memory per entity (``name``, ``entityType``, ``observations``), each relation
(``from``, ``to``, ``relationType``) a ``[[link]]`` in its ``from`` entity's body. Its values are JSON of any
kind: an observation that says nothing (null, blank) is left out and counted
(:func:`memdir.importing.sources.said_nothing`), a number
is its text. Nothing here writes.
"""

from __future__ import annotations

from pathlib import Path

from ..errors import NotFound
from ..files.fsio import DIRECTORY, MISSING, foreign_text, not_utf8, read_foreign
from .sources import (
    MAX_GRAPH_BYTES,
    Item,
    Skip,
    json_text,
    left_out_said,
    load_json,
    said_nothing,
    slug,
)


def _graph_records(text: str) -> tuple[list[tuple[str, object]], list[Skip]]:
    """The records of an MCP memory graph's text, each with where it was (``line N``, ``record N``):
    one JSON array of records, one object (``{"entities": [...], "relations": [...]}`` or a single
    record), or JSON Lines (blank lines, CRLF and a leading BOM are fine). A line that is not JSON is a
    :class:`Skip`."""
    text = text.lstrip("\ufeff")
    try:
        whole = load_json(text)
    except ValueError:
        whole = None
    if isinstance(whole, list):
        return [(f"record {n}", obj) for n, obj in enumerate(whole, 1)], []
    if isinstance(whole, dict) and any(isinstance(whole.get(key), list) for key in ("entities", "relations")):
        listed = ([({"type": "entity", **obj} if isinstance(obj, dict) else obj) for obj in whole.get("entities") or []]
                  + [({"type": "relation", **obj} if isinstance(obj, dict) else obj)
                     for obj in whole.get("relations") or []])
        return [(f"record {n}", obj) for n, obj in enumerate(listed, 1)], []
    records, skips = [], []
    for number, line in enumerate(text.splitlines(), 1):
        if line.strip():
            try:
                records.append((f"line {number}", load_json(line)))
            except ValueError as exc:
                skips.append(Skip(f"line {number}", "JSON nested too deep" if "too deep" in str(exc) else "not JSON"))
    return records, skips


def _said(value: object) -> str:
    """``value`` as a report names it: its text, at most 80 characters."""
    text = value if isinstance(value, str) else repr(value)[:80]
    return text[:80]


def _what(value: object) -> str:
    """What a report says a value is that should have been text: ``null``, ``missing``, ``empty``, or its JSON kind."""
    if value is None:
        return "null or missing"
    if isinstance(value, str):
        return "empty"
    return {bool: "true/false", int: "a number", float: "a number", list: "a list", dict: "an object"}.get(
        type(value), type(value).__name__)


def _kind_of(obj: object) -> str | None:
    """``entity``, ``relation`` or None: a record's ``type``, else what its keys say it is (some tools
    write the graph without ``type``)."""
    if not isinstance(obj, dict):
        return None
    kind = obj.get("type")
    if kind in ("entity", "relation"):
        return kind
    if kind is None and obj.get("name") and "entityType" in obj:
        return "entity"
    if kind is None and obj.get("from") and obj.get("to"):
        return "relation"
    return None


def read_mcp_memory(path: Path) -> list[Item | Skip]:
    """The reference MCP memory server's knowledge graph file: one memory per
    entity (its observations as the body), each relation a ``[[link]]`` line
    in the body of its ``from`` entity, naming its ``to`` entity as written
    (resolved to memdir names once every item is named: ``Item.links``). The file
    is JSON Lines or one JSON value (:func:`_graph_records`: modelcontextprotocol/servers
    #2036, #1481); a path that is not a regular file (a FIFO, a device) or is over
    :data:`MAX_GRAPH_BYTES` is one :class:`Skip`. Raises :class:`NotFound` for a
    missing file, a directory or one that is not UTF-8."""
    found = read_foreign(path, MAX_GRAPH_BYTES)
    if found.why == MISSING:
        raise NotFound(f"no file {str(path)!r} to import from")
    if found.why == DIRECTORY:
        raise NotFound(f"cannot read {str(path)!r}: it is a directory")
    if found.data is None:
        return [Skip(str(path), found.why)]
    try:
        text = foreign_text(found.data)
    except UnicodeDecodeError as exc:
        raise NotFound(f"cannot read {str(path)!r}: {not_utf8(exc)}") from None
    records, out = _graph_records(text)
    entities: dict[str, dict] = {}
    relations: list[dict] = []
    for where, obj in records:
        try:
            kind = _kind_of(obj)
            if kind == "entity":
                entity = obj.get("name")
                if not isinstance(entity, str) or not entity.strip():
                    out.append(Skip(where, f"an entity whose name is {_what(entity)}: it needs a name (text)"))
                    continue
                if obj.get("observations") is not None and not isinstance(obj["observations"], list):
                    out.append(Skip(f"entity {_said(entity)}", "its observations are not a list"))
                    continue
                # an observation of null or blank says nothing (left out, counted); a number, a list… as its text
                observations, nothing = said_nothing(obj.get("observations") or [])
                entities.setdefault(entity, {"entityType": obj.get("entityType"), "observations": [], "nothing": {}})
                entities[entity]["observations"] += observations
                for why, n in nothing.items():  # an entity written in several records: counted together
                    entities[entity]["nothing"][why] = entities[entity]["nothing"].get(why, 0) + n
            elif kind == "relation" and isinstance(obj.get("from"), str) and isinstance(obj.get("to"), str):
                kind_said = obj.get("relationType")
                relations.append({"from": obj["from"], "to": obj["to"],
                                  "relationType": (kind_said if isinstance(kind_said, str) else
                                                   json_text(kind_said) if kind_said is not None else "") or None})
            elif kind == "relation":
                out.append(Skip(where, "a relation whose from and to are not both names (text)"))
            else:
                out.append(Skip(where, "neither an entity nor a relation"))
        except (RecursionError, TypeError, ValueError):  # a value nested too deep to write out: this record only
            out.append(Skip(where, "a value in it is nested too deep to read"))
    for entity, data in entities.items():
        name = slug(entity)
        if name is None:
            out.append(Skip(entity, "the entity name cannot be a memory name"))
            continue
        written = data["entityType"]
        kind = (written if isinstance(written, str) else json_text(written) if written is not None else "") or "thing"
        observations = data["observations"]
        links = [f"- {r.get('relationType') or 'related to'} [[{r['to']}]]"
                 for r in relations if r["from"] == entity]
        body = "\n".join([f"- {o}" for o in observations] + ([""] + links if links else []))
        # drawn from the first observation, which the body holds whole: shortened by the import (Item.drawn)
        description = f"{entity} ({kind})" + (f": {observations[0]}" if observations else "")
        # an entity's entityType (person, project…) is no memdir type: kept as entity_type, the layer's type given.
        # One whose observations all said nothing is kept as one with none (the server makes such entities): its
        # name and type, and its relations' links, which other entities' links may point to; the report says why.
        out.append(Item(f"entity {entity}", name, description, None, body,
                        entity if entity != name else None, None, {"entity_type": kind},
                        spelled=entity if entity != name else None, links=True, drawn=True,
                        left_out=left_out_said(data["nothing"], "observation") + (
                            ("no observation left: imported with its name and type only",)
                            if data["nothing"] and not observations else ())))
    return out


__all__ = ["read_mcp_memory"]
