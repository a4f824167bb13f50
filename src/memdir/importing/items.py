"""The items of an import before anything is written (:func:`memdir.importing.run.run` writes them):
read from their source by kind (:func:`gather`, the readers of :mod:`memdir.importing.sources`), named
apart per layer (:func:`distinct_names`), and their ``[[links]]`` made memdir names (:func:`resolve_links`).
"""

from __future__ import annotations

from dataclasses import replace

from ..errors import InvalidInput
from ..gateway.fields import free_name
from ..session import Session
from ..text.names import normalize_name
from ..vocabulary import IMPORT_SOURCES
from .sources import WIKI_LINK, Item

RENAMED_FROM = "import_renamed_from"  # extra: the name an item had, taken here by another memory

KINDS = IMPORT_SOURCES


def gather(session: Session, kind: str, path: str | None = None, environ=None, *, include: tuple[str, ...] = (),
           exclude: tuple[str, ...] = ()) -> tuple[str, list]:
    """``(where it was read, the items)`` of source ``kind`` (:data:`KINDS`):
    ``claude-code`` and ``dsh`` find the session project's directories
    themselves; ``dir``, ``mcp-memory``, ``basic-memory`` and ``jsonl`` (memdir's own
    export) read ``path``;
    ``claude-mem`` reads ``path`` or ``~/.claude-mem/claude-mem.db`` (its
    ``CLAUDE_MEM_DATA_DIR`` honoured) for the session's project. ``include`` and
    ``exclude`` patterns choose a folder's files (:mod:`memdir.importing.folders`);
    a file over :data:`memdir.importing.sources.MAX_SOURCE_BYTES` is skipped (one over ``max_file_bytes``
    is read, its body cut to fit when imported). Raises :class:`InvalidInput`,
    :class:`NotFound`, :class:`ScopeError`."""
    import os
    from pathlib import Path

    from . import claude_mem, mcp_memory
    from . import sources as importers

    if kind not in KINDS:
        raise InvalidInput(f"unknown import source {kind!r} (expected one of {', '.join(KINDS)})")
    if (include or exclude) and kind not in ("dir", "basic-memory"):
        raise InvalidInput(f"--include and --exclude choose the files of a folder: import {kind} reads none")
    limit = max(importers.MAX_SOURCE_BYTES, session.settings.max_file_bytes)
    if kind in ("claude-code", "dsh"):
        if path:
            raise InvalidInput(f"import {kind} finds its directories from the project; give no path")
        root = session.project()
        if kind == "claude-code":
            where = importers.claude_code_dir(root, environ)
            if not where.is_dir():  # nothing to bring: said in the report
                return str(where), [importers.Skip(str(where), "no Claude Code auto memory for this project")]
            items = importers.read_directory(where, recursive=False, max_bytes=limit)
            # Claude Code names its folder by the path with `/` and `-` alike: another project's memories may be here
            shared = importers.claude_code_sharers(where, root)
            if shared:
                items.insert(0, importers.Skip(str(where), (
                    f"Claude Code keeps this one folder for {' and '.join(shared)} too (it names a project's folder "
                    f"by its path with every character but A-Z, a-z and 0-9 made '-'): its memories may be that "
                    f"project's, and are imported as {root}'s; look them over (`memdir list`)")))
            return str(where), items
        items, found = [], []
        for directory, scope in importers.dsh_dirs(root, environ):
            if directory.is_dir():
                found.append(str(directory))
                items += importers.read_directory(directory, scope, recursive=False, max_bytes=limit)
        if not found:
            base = str(importers.dsh_dirs(root, environ)[0][0].parent)
            return base, [importers.Skip(base, "no dsh-auto-memory store for this project")]
        return ", ".join(found), items
    if kind == "claude-mem":
        where = Path(path).expanduser() if path else claude_mem.default_database(os.environ if environ is None
                                                                                  else environ)
        return str(where), claude_mem.read_claude_mem(where, session.project())
    if not path:
        raise InvalidInput(f"import {kind} needs a path")
    target = Path(path).expanduser()
    if kind == "dir":
        return str(target), importers.read_directory(target, include=include, exclude=exclude, max_bytes=limit)
    if kind == "mcp-memory":
        return str(target), mcp_memory.read_mcp_memory(target)
    if kind == "jsonl":
        return str(target), importers.read_jsonl(target)
    return str(target), importers.read_basic_memory(target, include=include, exclude=exclude, max_bytes=limit)


def resolve_links(session: Session, items: list, target) -> list:
    """``items`` with the ``[[links]]`` of those that ask for it (``Item.links``: basic-memory's
    relations, the MCP graph's) rewritten to memdir names, once every item is named
    (:func:`distinct_names`): a link names the item of the same layer (``target(item)``) whose name,
    title or spelling it is (case aside), else a memory of that layer by its name or title; a link
    naming nothing is kept as written. A ``|label`` is kept."""
    known: dict = {}
    for item in items:
        if isinstance(item, Item):
            permalink = str(item.extra.get("permalink") or "").rsplit("/", 1)[-1]
            for said in (item.name, item.title, item.spelled, item.extra.get(RENAMED_FROM), permalink):
                if said:
                    known.setdefault((target(item), str(said).strip().casefold()), item.name)
    titles: dict = {}

    def in_layer(scope: str, said: str) -> str | None:
        layer = session.layer(scope)
        if scope not in titles:
            titles[scope] = {(e.record.title or "").casefold(): key for key, e in layer.scan().entries.items()}
        try:
            name = normalize_name(said).name
        except InvalidInput:
            name = None
        return name if name and layer.lookup(name) is not None else titles[scope].get(said.casefold())

    out = []
    for item in items:
        if isinstance(item, Item) and item.links:
            scope = target(item)

            def relink(found, scope=scope) -> str:
                said = found.group(1).strip()
                name = known.get((scope, said.casefold())) or in_layer(scope, said)
                return f"[[{name}{found.group(2) or ''}]]" if name else found.group(0)

            item = replace(item, body=WIKI_LINK.sub(relink, item.body))
        out.append(item)
    return out


def distinct_names(items: list, target) -> list:
    """``items`` with every name unique per layer: when several items
    normalize to the same name (``Foo Bar.md``, ``foo-bar.md``, entities
    ``Alice`` and ``alice``), the first in source order keeps it and the
    next ones get ``<name>-2``, ``<name>-3``… (the smallest suffix no other
    item uses, :func:`memdir.gateway.fields.free_name`), noted in
    ``extra['import_renamed_from']``. Deterministic for
    the same source, so a second run maps each item to the same memory.
    ``target(item)`` is the scope the item goes to."""
    taken = {(target(i), i.name) for i in items if isinstance(i, Item)}
    seen: set = set()
    out = []
    for item in items:
        if isinstance(item, Item):
            key = (target(item), item.name)
            if key in seen:  # the new name is its own spelling: the source's would name the first item's memory
                renamed = free_name(item.name, "", lambda name, scope=key[0]: (scope, name) in taken)
                taken.add((key[0], renamed))
                item = replace(item, name=renamed, spelled=None, extra={**item.extra, RENAMED_FROM: item.name})
                key = (key[0], renamed)
            seen.add(key)
        out.append(item)
    return out


__all__ = ["KINDS", "RENAMED_FROM", "distinct_names", "gather", "resolve_links"]
