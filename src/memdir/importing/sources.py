"""Reading memories kept by other systems, for :mod:`memdir.importing.run`.

Each reader turns a foreign store into :class:`Item` values — what one memory
would be — and :class:`Skip` values for what cannot be read (with the reason).
Readers are lenient: a file memdir's own parser refuses (a type or status
outside memdir's vocabulary, ``type`` under ``metadata:``, no description)
is read by a second, forgiving pass. An item that says no type memdir reads — none
written, or one outside memdir's four (kept as ``original_type``, and said in the
import's report) — has ``type`` None: the import gives it its layer's type, as every
write does (:func:`memdir.vocabulary.default_type`, :func:`memdir.importing.run.run`).
Nothing here writes.

Sources:

* **Claude Code auto memory** (landscape §2.2): ``<config>/projects/<project>/memory/``
  where ``<config>`` is ``$CLAUDE_CONFIG_DIR`` or ``~/.claude`` and
  ``<project>`` is ``$CLAUDE_CODE_PROJECT_DIR_NAME`` or the repository root
  with every character outside ``[A-Za-z0-9]`` replaced by ``-``; an
  ``autoMemoryDirectory`` in ``<config>/settings.json`` (absolute or ``~/``)
  replaces the whole path.
* **dsh-auto-memory** (seed-behaviour §A4): ``$DSH_HOME/memory/_user/`` and
  ``$DSH_HOME/memory/--<key>--/`` (``$DSH_HOME`` defaults to ``~/.dsh``).
* **A directory of Markdown memory files** (``memory/``, ``docs/memory/``,
  ``.claude/agent-memory/<agent>/``…), read recursively.
* **The reference MCP memory server**'s ``memory.json``: read by :mod:`memdir.importing.mcp_memory`
  (its :class:`Item` values are these).
* **basic-memory** projects: Markdown notes with frontmatter (``title``,
  ``permalink``, ``tags``), observations ``- [category] text`` and relations
  ``- relation [[Target]]``; links are rewritten to memdir names.
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import InvalidInput, NotFound
from ..files.frontmatter import read_plain, split
from ..files.fsio import DIRECTORY, MISSING, foreign_text, not_utf8, read_foreign
from ..files.layout import is_memory_file_name
from ..files.memfile import TYPES, MalformedMemory, parse, parse_time, stem_type
from ..gateway.fields import shortened
from ..text.names import normalize_name, spelled_name
from ..text.printable import trimmed_body, without_hidden
from .folders import walk

# A source file larger than this is skipped with that reason: the top of the max_file_bytes setting's range.
# Anything smaller is read whole; a body past max_file_bytes is cut to fit by the import, marked [cut]
# (:func:`memdir.importing.run.run`), never skipped for its size.
MAX_SOURCE_BYTES = 16 * 1024 * 1024
MAX_SETTINGS_BYTES = 256 * 1024  # Claude Code's settings.json: read for one key
MAX_GRAPH_BYTES = 64 * 1024 * 1024  # an MCP memory graph file: one file holds every memory
# A memory its source retired for a newer one: never brought back to life by an import (an export leaves it
# out too, :mod:`memdir.importing.export`); a candidate stays one (:attr:`Item.candidate`).
SUPERSEDED = "superseded at its source (the memory that replaced it is imported instead)"
# A [[link]] as other systems write it: its target as written (a title, an entity), an optional |label.
WIKI_LINK = re.compile(r"\[\[([^\[\]\n|]{1,120})(\|[^\]\n]*)?\]\]")


@dataclass(frozen=True)
class Item:
    """One memory to import: ``source`` (where it came from, for the report),
    its ``name``, ``description``, ``type`` (None: the source says none memdir reads; the import gives it
    its layer's, :func:`memdir.vocabulary.default_type`), ``body``, ``title``, the
    ``scope`` it belongs in (None: the import's), ``extra`` keys to keep,
    whether it was muted at its source (``disabled``: dsh's ``status:
    disabled``, or ``disabled: true``) and ``spelled``, the name as the
    source writes it (a file stem, an entity) when that is more than
    ``name``: what tells it from another memory of the same file name
    (``C# tips`` is not ``C++ tips``: :func:`memdir.text.names.same_name`).
    ``links``: its body's ``[[links]]`` name other items as their source wrote
    them (a title, an entity), resolved to memdir names once every item is named
    (:func:`memdir.importing.run.run`). ``candidate``: it waits for a person's
    review when new (what its source holds as less settled: a claude-mem session
    summary's lessons, a memory file or line whose status is ``candidate``). ``kept``: what memdir's own formats (an export) say beyond the text, kept on
    import — ``created``/``updated``/``valid_from``/``valid_until`` (aware datetimes), ``pinned``,
    ``importance`` — only the keys the source gives (:func:`kept_fields`). ``original_type``: the type the
    source wrote when it is none of memdir's (``decision``; also kept in ``extra``), for the report.
    ``drawn``: the description is no text of its own but drawn from the body (its first line, its first
    observation), which holds it whole: the import shortens it to ``limit_description`` (:func:`drawn_description`)
    so that the write does not carry it into the body a second time. ``left_out``: what the reader left out of
    the item's text, each with its reason (``2 observations that are null``), said in the import's outcome."""

    source: str
    name: str
    description: str
    type: str | None
    body: str = ""
    title: str | None = None
    scope: str | None = None
    extra: dict = field(default_factory=dict)
    disabled: bool = False
    spelled: str | None = None
    links: bool = False
    candidate: bool = False
    kept: dict = field(default_factory=dict)
    original_type: str | None = None
    drawn: bool = False
    left_out: tuple[str, ...] = ()


def drawn_description(text: str, limit: int) -> str:
    """A description drawn from a body's text (one of its lines, an observation: ``text``, any length): its
    first line, shortened to at most ``limit`` characters as every write shortens one
    (:func:`memdir.gateway.fields.shortened`: at a sentence end, else at a word with "…"). The body keeps
    the whole text, so nothing is lost; a line of at most ``limit`` characters is returned as it is."""
    line = text.strip().split("\n")[0].strip()
    return line if len(line) <= limit else shortened(line, limit)


def _typed(written: str, extra: dict) -> tuple[str | None, str | None]:
    """``(type, original_type)`` of an item whose source wrote the type ``written`` (any case; "" for
    none): one of memdir's types as such; none, ``(None, None)``; another, ``(None, written)``, kept in
    ``extra`` as ``original_type``. None: the import gives the item its layer's type."""
    kind = written.strip()
    if kind.lower() in TYPES:
        return kind.lower(), None
    if not kind:
        return None, None
    extra["original_type"] = kind
    return None, kind


KEPT_TIMES = ("created", "updated", "valid_from", "valid_until")


def kept_fields(values: dict) -> dict:
    """The :attr:`Item.kept` of a source's ``values`` (a parsed memory's fields, or a jsonl line): its
    times read by :func:`memdir.files.memfile.parse_time` (one that does not read is left out), ``pinned``
    when true, ``importance`` when an integer from 1 to 10."""
    out = {key: parse_time(values.get(key), end_of_day=key == "valid_until") for key in KEPT_TIMES}
    out = {key: value for key, value in out.items() if value is not None}
    if values.get("pinned") is True:
        out["pinned"] = True
    importance = values.get("importance")
    if isinstance(importance, int) and not isinstance(importance, bool) and 1 <= importance <= 10:
        out["importance"] = importance
    return out


def _origin(extra: dict, origin) -> dict:
    """``extra`` with ``original_origin``: who wrote the memory at its source (an export's ``human``,
    ``agent``…); the import itself is the new memory's origin (provenance), the source's is kept here."""
    return {**extra, "original_origin": str(origin)} if origin and origin != "import" else extra


@dataclass(frozen=True)
class Skip:
    """Something found that is not imported, and why."""

    source: str
    reason: str


def load_json(text: str | bytes):
    """``text`` parsed as JSON. Raises :class:`ValueError` for text that is not JSON, including JSON nested
    too deep to read (Python's recursion limit: ``"[" * 100000``), so one such line or row is skipped
    like any other that is not JSON."""
    try:
        return json.loads(text)
    except RecursionError:
        raise ValueError("JSON nested too deep") from None


# ---------------------------------------------------------------- one Markdown file


def _forgiving(text: str) -> tuple[dict, str]:
    """Frontmatter (plain values) and body, without memdir's vocabulary but
    with its safety: anchors, aliases and oversize frontmatter are refused
    (:func:`memdir.files.frontmatter.read_plain`). Raises :class:`MalformedMemory`."""
    text = text.lstrip("\ufeff").replace("\r\n", "\n")
    parts = split(text)
    if parts is None:
        return {}, text
    front, body = parts
    return read_plain(front), body.lstrip("\n")


def _first_line(body: str) -> str:
    for line in body.split("\n"):
        stripped = line.strip().lstrip("#>-* ").strip()
        if stripped:
            return stripped
    return ""


def _spelled(name: str, title: str | None, stem: str) -> str | None:
    """How a file's memory is spelled, when that is more than ``name``: the title when it is the
    name as written (:func:`memdir.text.names.spelled_name`), else the file stem."""
    written = spelled_name(name, title)
    written = written if written != name else stem
    return written if written != name else None


def read_markdown(path: Path, source: str, scope: str | None = None, *, follow: bool = True,
                  max_bytes: int = MAX_SOURCE_BYTES) -> Item | Skip:
    """One Markdown memory file as an :class:`Item` (or why not: a
    :class:`Skip`). Its name is the normalized file stem. Read as every
    foreign file is (:func:`memdir.files.fsio.read_foreign`): a FIFO, a
    device or a file over ``max_bytes`` (:data:`MAX_SOURCE_BYTES`; a file over the
    ``max_file_bytes`` setting is read whole and its body cut to fit by the import) is a
    :class:`Skip`, as is a symbolic link when ``follow`` is False."""
    found = read_foreign(path, max_bytes, follow=follow)
    if found.data is None:
        return Skip(source, found.why)
    try:
        text = foreign_text(found.data)
    except UnicodeDecodeError as exc:
        return Skip(source, not_utf8(exc))
    stem = path.name[:-3]
    try:
        name = normalize_name(stem).name
    except InvalidInput as exc:
        return Skip(source, str(exc))
    try:
        parsed = parse(text, stem)
        record = parsed.record
        extra = {k: v for k, v in record.extra if k != "metadata"}
        # read as written; one memdir does not know is kept as original_type; none said: the stem's, else the layer's
        kind, unknown = _typed(record.type if parsed.type_said else stem_type(stem) or "", extra)
        written = (record.written_status or record.status).strip().lower()
        if written not in ("active", "candidate", "superseded"):
            extra["original_status"] = record.written_status or record.status
        if written == "superseded":
            return Skip(source, SUPERSEDED)
        kept = kept_fields({key: getattr(record, key) for key in (*KEPT_TIMES, "pinned", "importance")})
        return Item(source, name, record.description, kind, record.body, record.title, scope,
                    _origin(extra, record.origin), record.disabled or written == "disabled",
                    _spelled(name, record.title, stem), kept=kept, candidate=written == "candidate",
                    original_type=unknown)
    except MalformedMemory:
        pass
    try:
        front, body = _forgiving(text)
    except MalformedMemory as exc:
        return Skip(source, str(exc))
    meta = front.get("metadata") if isinstance(front.get("metadata"), dict) else {}
    # no type written (Claude Code adds no frontmatter to a file that has none): its file name's, else the layer's
    extra: dict = {}
    kind, unknown = _typed(str(front.get("type") or meta.get("type") or stem_type(stem) or ""), extra)
    title = front.get("title") or (front.get("name") if front.get("name") != stem else None)
    given = front.get("description") or meta.get("description") or title
    # a description written is kept whole (the write makes it one line, or carries a long one into the body);
    # one drawn from the body's first line is shortened by the import (Item.drawn)
    description = str(given).strip() if given else _first_line(body)
    if not description:
        return Skip(source, "empty: no description, title or text")
    for key in ("status", "tags", "permalink", "originSessionId"):
        if front.get(key) is not None:
            extra["original_" + key if key == "status" else key] = front[key]
    status = str(front.get("status") or "").strip().lower()
    if status == "superseded":
        return Skip(source, SUPERSEDED)
    muted = status == "disabled" or front.get("disabled") is True
    title = str(title) if title else None
    return Item(source, name, description, kind, trimmed_body(body), title, scope, extra, muted,
                _spelled(name, title, stem), candidate=status == "candidate", original_type=unknown,
                drawn=not given)


def read_directory(root: Path, scope: str | None = None, *, recursive: bool = True, include: tuple[str, ...] = (),
                   exclude: tuple[str, ...] = (), max_bytes: int = MAX_SOURCE_BYTES) -> list[Item | Skip]:
    """Every memory file under ``root`` (``MEMORY.md`` and dot-files aside), in path order, as
    :func:`memdir.importing.folders.walk` chooses them (hidden, dependency, build and git-ignored
    folders, linked folders, ``include``/``exclude`` patterns: each left-out folder or file a
    :class:`Skip` saying why); a linked file and a file that is not a regular file are each a
    :class:`Skip`, never followed or read. Raises :class:`NotFound` for a missing directory."""
    found = walk(Path(root), recursive=recursive, include=include, exclude=exclude)
    out: list[Item | Skip] = [Skip(rel, why) for rel, why in found.left]
    for path, rel in found.files:  # a link is never followed out of the directory: a Skip
        out.append(read_markdown(path, rel, scope, follow=False, max_bytes=max_bytes))
    return out


# ---------------------------------------------------------------- Claude Code, dsh


def claude_code_dir(root: Path, environ=None, home: Path | None = None) -> Path:
    """The auto memory directory Claude Code keeps for the project at
    ``root`` (see the module docstring)."""
    environ = os.environ if environ is None else environ
    home = Path(home or os.path.expanduser("~"))
    config = Path(environ.get("CLAUDE_CONFIG_DIR") or home / ".claude").expanduser()
    try:  # a settings file that cannot be read (or is no file) is passed over: the default path
        settings = load_json(read_foreign(config / "settings.json", MAX_SETTINGS_BYTES).data or b"{}")
    except ValueError:
        settings = {}
    custom = settings.get("autoMemoryDirectory") if isinstance(settings, dict) else None
    if isinstance(custom, str) and (custom.startswith("~/") or os.path.isabs(custom)):
        return Path(os.path.expanduser(custom) if custom.startswith("~/") else custom)
    project = environ.get("CLAUDE_CODE_PROJECT_DIR_NAME") or re.sub(r"[^A-Za-z0-9]", "-", str(root))
    return config / "projects" / project / "memory"


def claude_code_sharers(memory_dir: Path, root: Path, *, files: int = 50, head: int = 65536) -> list[str]:
    """The other projects whose Claude Code sessions share the folder ``memory_dir`` (:func:`claude_code_dir`) with
    the project at ``root``: Claude Code names it by the root with every character outside ``[A-Za-z0-9]``
    made ``-``, so ``/x/a-b`` and ``/x/a/b`` (or ``/x/a.b``, ``/x/a_b``) get one folder and one auto memory.
    Told by the ``cwd`` of the session transcripts beside it (``<session>.jsonl``: the newest ``files``, the
    first ``head`` bytes of each): a cwd that is neither within ``root`` nor holds it is another project's.
    Sorted; [] when none is seen (or none can be read). Never raises."""
    try:
        logs = sorted(Path(memory_dir).parent.glob("*.jsonl"), key=lambda p: p.stat().st_mtime, reverse=True)[:files]
    except OSError:
        return []
    mine, others = str(root).rstrip("/") or "/", set()
    for log in logs:
        try:
            with open(log, "rb") as file:
                lines = file.read(head).splitlines()
        except OSError:
            continue
        for line in lines:
            try:
                cwd = json.loads(line).get("cwd")
            except (ValueError, AttributeError, RecursionError):
                continue
            if isinstance(cwd, str) and cwd and cwd != mine and not cwd.startswith(mine.rstrip("/") + "/") \
                    and not mine.startswith(cwd.rstrip("/") + "/"):
                others.add(cwd)
            if isinstance(cwd, str):
                break  # a session's first cwd is where it ran
    return sorted(others)


def dsh_key(cwd: str) -> str:
    """dsh-auto-memory's project key of ``cwd`` (seed-behaviour §A4):
    ``D:\\work\\proj`` → ``--D-work-proj--``, ``a b`` → ``--a~0020b--``."""
    if not cwd:
        raise InvalidInput("a dsh project key needs a directory")
    out, previous_sep = [], False
    raw = cwd.encode("utf-16-le", "surrogatepass")
    for i in range(0, len(raw), 2):
        unit = int.from_bytes(raw[i:i + 2], "little")
        ch = chr(unit)
        if ch in "/\\:":
            if not previous_sep:
                out.append("-")
            previous_sep = True
            continue
        previous_sep = False
        if ch.isascii() and (ch.isalnum() or ch in "._-"):
            out.append(ch)
        else:
            out.append(f"~{unit:04X}")
    slug = "".join(out).lstrip("-") or "root"
    return f"--{slug[:251]}--"


def dsh_dirs(root: Path, environ=None, home: Path | None = None) -> list[tuple[Path, str]]:
    """The dsh-auto-memory directories to import for the project at
    ``root``: ``(path, scope)`` for the user layer and the project's."""
    environ = os.environ if environ is None else environ
    dsh_home = Path(environ.get("DSH_HOME") or Path(home or os.path.expanduser("~")) / ".dsh").expanduser()
    base = dsh_home / "memory"
    return [(base / "_user", "user"), (base / dsh_key(str(root)), "project")]


# ---------------------------------------------------------------- values meant as text


def json_text(value: object) -> str:
    """A JSON value that is not text, written as its JSON (``42``, ``["a", "b"]``), never Python's repr."""
    return json.dumps(value, ensure_ascii=False)


def said_nothing(values: list) -> tuple[list[str], dict[str, int]]:
    """``(texts, left out)`` of a list of JSON values meant as text (an entity's observations, a record's facts):
    each as its text — a number, true/false, a list or object as its JSON (``5``, ``["a"]``), never Python's
    repr — but a null or blank one (nothing but whitespace or characters that show as nothing:
    :func:`memdir.text.printable.without_hidden`), which says nothing and would be an empty bullet: left out,
    counted by reason (``{"null": 1, "blank": 2}``, only reasons met; said by :func:`left_out_said`). Pure."""
    texts: list[str] = []
    counts: dict[str, int] = {}
    for value in values:
        text = None if value is None else value if isinstance(value, str) else json_text(value)
        why = "null" if text is None else "blank" if not without_hidden(text).strip() else None
        if why is None:
            texts.append(text)
        else:
            counts[why] = counts.get(why, 0) + 1
    return texts, counts


def left_out_said(counts: dict[str, int], noun: str) -> tuple[str, ...]:
    """An :attr:`Item.left_out` from :func:`said_nothing`'s ``counts``: ``("1 null and 2 blank observations
    left out: they say nothing",)``; ``noun`` is what was counted, singular (``observation``, ``fact``); () for
    none."""
    if not counts:
        return ()
    said = " and ".join(f"{n} {why}" for why, n in counts.items())
    return (f"{said} {noun}{'' if sum(counts.values()) == 1 else 's'} left out: they say nothing",)


# ---------------------------------------------------------------- basic-memory (the MCP memory graph: mcp_memory)


def slug(text: str) -> str | None:
    """The memory name ``text`` (a permalink, an entity) normalizes to; None when it makes none."""
    try:
        return normalize_name(str(text)).name
    except InvalidInput:
        return None



def read_basic_memory(root: Path, *, include: tuple[str, ...] = (), exclude: tuple[str, ...] = (),
                      max_bytes: int = MAX_SOURCE_BYTES) -> list[Item | Skip]:
    """A basic-memory project directory (its folders chosen as :func:`read_directory` does): one
    memory per note, named by its ``permalink`` (else its file stem), its whole text kept: the
    observations (``- [category] text #tag``) stay a list in the body with their categories and
    tags, the relations (``- relation_type [[Target]]``) ``[[links]]`` resolved to memdir names once
    every note is named (``Item.links``); the first observation (else the first line) is the
    description. Raises :class:`NotFound`."""
    found = read_directory(root, include=include, exclude=exclude, max_bytes=max_bytes)
    out: list[Item | Skip] = []
    for item in found:
        if isinstance(item, Skip):
            out.append(item)
            continue
        permalink = str(item.extra.get("permalink") or "").rsplit("/", 1)[-1]
        name = (slug(permalink) if permalink else None) or item.name
        observation = re.search(r"^- \[[^\]]+\]\s*(.+)$", item.body, re.M)
        description, drawn = item.description, item.drawn
        if item.original_type or description == item.title:
            from_body = observation.group(1).strip() if observation else _first_line(item.body)
            description, drawn = (from_body, True) if from_body else (description, drawn)
        extra = {k: v for k, v in item.extra.items() if k in ("tags", "permalink", "original_type")}
        out.append(Item(item.source, name, description, item.type, item.body, item.title, item.scope, extra,
                        spelled=item.spelled if name == item.name else None, links=True,
                        original_type=item.original_type, drawn=drawn))
    return out


def read_jsonl(path: Path) -> list[Item | Skip]:
    """A ``memdir export --format jsonl`` file (or any JSON Lines of memories): one memory per line
    with ``name`` and ``description`` (``type``, ``body``, ``title``, ``disabled``, ``scope`` — one of
    memdir's layers — and ``extra`` when there; ``"status": "candidate"`` waits for review); a line with
    ``"live": false`` (a deleted memory's history) is passed over, a line that is not such an object, or
    that is ``"status": "superseded"``, is a :class:`Skip`. Raises
    :class:`NotFound` for a missing file, a directory or one that is not UTF-8."""
    found = read_foreign(path, MAX_GRAPH_BYTES)
    if found.why in (MISSING, DIRECTORY):
        raise NotFound(f"no file {str(path)!r} to import from" if found.why == MISSING
                       else f"cannot read {str(path)!r}: it is a directory")
    if found.data is None:
        return [Skip(str(path), found.why)]
    try:
        lines = foreign_text(found.data).lstrip("\ufeff").splitlines()
    except UnicodeDecodeError as exc:
        raise NotFound(f"cannot read {str(path)!r}: {not_utf8(exc)}") from None
    out: list[Item | Skip] = []
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            obj = load_json(line)
        except ValueError as exc:
            out.append(Skip(f"line {number}", "JSON nested too deep" if "too deep" in str(exc) else "not JSON"))
            continue
        if isinstance(obj, dict) and obj.get("live") is False:
            continue
        if not isinstance(obj, dict) or not str(obj.get("name") or "").strip() \
                or not str(obj.get("description") or "").strip():
            out.append(Skip(f"line {number}", "not a memory: it needs a name and a description"))
            continue
        try:
            name = normalize_name(str(obj["name"])).name
        except InvalidInput as exc:  # a reserved name (`con`, `memory`): the reason, not "no name"
            out.append(Skip(f"line {number}", str(exc)))
            continue
        status = str(obj.get("status") or "").strip().lower()
        if status == "superseded":
            out.append(Skip(f"line {number}", SUPERSEDED))
            continue
        extra = dict(obj.get("extra") or {}) if isinstance(obj.get("extra"), dict) else {}
        kind, unknown = _typed(str(obj.get("type") or ""), extra)  # none, or not memdir's: the layer's type
        scope = obj.get("scope") if obj.get("scope") in ("user", "team", "project") else None
        title = str(obj["title"]) if obj.get("title") else None
        out.append(Item(f"line {number}", name, str(obj["description"]), kind, str(obj.get("body") or ""), title,
                        scope, _origin(extra, obj.get("origin")), obj.get("disabled") is True,
                        _spelled(name, title, str(obj["name"])), kept=kept_fields(obj), candidate=status == "candidate",
                        original_type=unknown))
    return out


__all__ = ["KEPT_TIMES", "MAX_SOURCE_BYTES", "SUPERSEDED", "WIKI_LINK", "Item", "Skip", "claude_code_dir", "claude_code_sharers", "drawn_description",
           "dsh_dirs", "dsh_key", "json_text", "kept_fields", "left_out_said", "load_json", "read_basic_memory", "read_directory", "read_jsonl",
           "read_markdown", "said_nothing", "slug"]
