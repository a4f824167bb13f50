"""Reading frontmatter: YAML nodes, the line fallback, and what is refused (DESIGN §3).

The YAML is composed into nodes, never constructed, so scalars keep their
text (``name: no`` stays ``no``) and nothing is expanded. Refused before any
node is built (:class:`Hostile`; no line fallback for these): a frontmatter
over :data:`MAX_FRONTMATTER_BYTES` and any YAML anchor or alias (``&a`` /
``*a``), which lets a few hundred bytes expand into gigabytes. Frontmatter
that is not YAML at all (about 2 % of real Claude Code files) is read as plain
``key: value`` lines by :func:`read_lines`.
"""

from __future__ import annotations

import re
from typing import Any

from ..errors import InvalidInput

MAX_FRONTMATTER_BYTES = 16 * 1024  # real frontmatter is under 1 KB; a cap keeps parsing bounded
# A frontmatter integer memdir keeps as a number: the signed 64-bit range other tools' YAML readers keep.
# A longer run of digits is read as text (Python refuses to parse one of over 4,300 digits at all).
MAX_INTEGER = 2 ** 63 - 1
_NULLS = ("", "~", "null", "Null", "NULL")


def _loader():
    """PyYAML's safe loader: libyaml's C one, several times faster, else the pure one (the same nodes). PyYAML is
    imported by the first frontmatter read (≈ 120M instructions): a process that reads no file (a search of an
    index in step, the prompt hook) never loads it."""
    import yaml

    return getattr(yaml, "CSafeLoader", None) or yaml.SafeLoader


class MalformedMemory(InvalidInput):
    """A file that cannot be read as a memory; ``str()`` is the reason."""


class Hostile(MalformedMemory):
    """Frontmatter refused outright (anchors, aliases, size): no line fallback either."""


_FIELD_LINE = re.compile(r"[A-Za-z_][\w-]*\s*:(\s|$)")  # a line of frontmatter: ``key:`` at its start


def split(text: str) -> tuple[str, str] | None:
    """(frontmatter, body) or None when the text does not open with ``---``. Raises :class:`MalformedMemory`
    when no ``---`` line closes it, naming the line to put one after: the last of the run of ``key:``, indented
    and comment lines that opens the file (newuser33: a person who typed a memory and left out the closing
    ``---`` was told only that it was never closed): ``frontmatter opened with --- but never closed: put a line
    --- after line 3 (description: Redis on 6380), before the body``."""
    if not text.startswith("---\n") and text != "---":
        return None
    lines = text.split("\n")
    for index in range(1, len(lines)):
        if lines[index].rstrip() == "---":
            return "\n".join(lines[1:index]), "\n".join(lines[index + 1:])
    last = 0
    for index in range(1, len(lines)):
        line = lines[index]
        if not _FIELD_LINE.match(line) and not (line.strip() and line[:1] in " \t#"):
            break
        last = index
    where = f": put a line --- after line {last + 1} ({lines[last].strip()[:80]}), before the body" if last else ""
    raise MalformedMemory(f"frontmatter opened with --- but never closed{where}")


def _scalar_text(node) -> str | None:
    """The text of a scalar node; None for a YAML null (plain ``~``/``null``/empty)."""
    import yaml

    if not isinstance(node, yaml.ScalarNode):
        return None
    if node.style in (None, "") and node.value in _NULLS:
        return None
    return node.value


def oversize(front: str) -> int | None:
    """The size of frontmatter ``front`` (the text between the ``---`` lines) in UTF-8 bytes when it is
    over :data:`MAX_FRONTMATTER_BYTES`, which the reader refuses; None when it is within. The one
    measure of the cap: the reader (:func:`refuse_hostile`) and the gateway, which never writes a
    file it could not read back, both ask it."""
    size = len(front.encode("utf-8", "surrogatepass"))
    return size if size > MAX_FRONTMATTER_BYTES else None


def refuse_hostile(front: str) -> None:
    """Raise :class:`Hostile` for frontmatter over the size cap (:func:`oversize`) or holding a
    YAML anchor or alias. Tokens only (no node is built), in milliseconds
    whatever the nesting; skipped when no ``&`` or ``*`` occurs at all."""
    import yaml

    size = oversize(front)
    if size is not None:
        raise Hostile(f"frontmatter is {size} bytes, over the {MAX_FRONTMATTER_BYTES}-byte cap")
    if "&" not in front and "*" not in front:
        return
    try:
        for token in yaml.scan(front, Loader=_loader()):
            if isinstance(token, (yaml.AnchorToken, yaml.AliasToken)):
                raise Hostile("frontmatter uses YAML anchors or aliases (&name / *name), "
                               "which memdir refuses to expand")
    except yaml.YAMLError:
        return  # not YAML: the line fallback reads it, and it knows no aliases


def read_yaml(front: str) -> tuple[dict[str, Any], dict[str, str], tuple[str, ...]]:
    """Frontmatter as {key: node-or-value}: known keys keep their YAML node;
    the source text of each top-level key of a block mapping (from its
    line to the next key's line); and the keys written more than once (the
    last one is read, as YAML loaders do)."""
    import yaml

    refuse_hostile(front)
    try:
        root = yaml.compose(front, Loader=_loader())
    except yaml.YAMLError as exc:
        raise MalformedMemory(f"frontmatter is not valid YAML: {str(exc).splitlines()[0]}") from None
    if root is None:
        return {}, {}, ()
    if not isinstance(root, yaml.MappingNode):
        raise MalformedMemory("frontmatter is not a YAML mapping")
    out: dict[str, Any] = {}
    starts: list[tuple[str, int]] = []
    twice: list[str] = []
    lines = front.split("\n")
    for key_node, value_node in root.value:
        if not isinstance(key_node, yaml.ScalarNode):
            continue
        if key_node.value in out and key_node.value not in twice:
            twice.append(key_node.value)
        out[key_node.value] = value_node
        starts.append((key_node.value, _entry_line(key_node, lines)))
    sources: dict[str, str] = {}
    if not root.flow_style and all(line >= 0 for _, line in starts):
        for index, (key, line) in enumerate(starts):
            end = starts[index + 1][1] if index + 1 < len(starts) else len(lines)
            text = "\n".join(lines[line:end]).rstrip()
            if text:
                sources[key] = text + "\n"
    return out, sources, tuple(twice)


def _entry_line(key_node, lines: list[str]) -> int:
    """The line a top-level entry of a block mapping starts on: its key's, at column 0, or the ``?`` line of
    an explicit key (``? bin`` then ``: !!binary aGVsbG8=``: its key starts after the ``? ``); -1 for any
    other (the mapping is not one whose entries' text can be cut out line by line)."""
    line, column = key_node.start_mark.line, key_node.start_mark.column
    if column == 0:
        return line
    if line < len(lines) and lines[line][:column].rstrip() == "?":
        return line
    if line > 0 and column == 2 and lines[line - 1].rstrip() == "?":  # "?" alone, its key on the next line
        return line - 1
    return -1


def read_lines(front: str) -> dict[str, Any]:
    """Fallback for frontmatter that is not valid YAML: plain ``key: value``
    lines, one level of nesting (``metadata:`` then indented lines)."""
    out: dict[str, Any] = {}
    parent: dict[str, Any] | None = None
    for line in front.split("\n"):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        indented = line[:1] in (" ", "\t")
        key, sep, value = line.strip().partition(":")
        if not sep or not key:
            continue
        value = value.strip()
        if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
            value = value[1:-1]
        if indented and parent is not None:
            parent[key.strip()] = value
        elif not value:
            parent = {}
            out[key.strip()] = parent
        else:
            parent = None
            out[key.strip()] = value
    return out


def read_front(front: str) -> tuple[dict[str, Any], dict[str, str], tuple[str, ...], bool]:
    """Frontmatter read as YAML (:func:`read_yaml`: key → node, the keys' source lines, the keys written twice,
    and False), else line by line (:func:`read_lines`: key → plain value, ``{}``, ``()`` and True: the
    fallback). Raises :class:`Hostile` as :func:`read_yaml` does, never falling back past it, and
    :class:`MalformedMemory` when neither reads a key out of ``front``."""
    try:
        nodes, sources, twice = read_yaml(front)
    except Hostile:
        raise
    except MalformedMemory:
        lines = read_lines(front)
        if not lines:
            raise
        return lines, _line_sources(front, lines), (), True
    return nodes, sources, twice, False


def _line_sources(front: str, read: dict[str, Any]) -> dict[str, str]:
    """The source text of each top-level key :func:`read_lines` read from a line that is YAML alone (``tags:
    [cache, events]``, indented with a tab or not), as ``read_yaml``'s sources: the line, unindented, so a write
    of the memory keeps that field as the person wrote it (a list stays a list) rather than the plain text the
    fallback read (``tags: '[cache]'``, newuser36). A key read twice, or from a line YAML does not read alone,
    has none (its text is kept as the fallback read it)."""
    sources: dict[str, str] = {}
    seen: set[str] = set()
    parent = False
    for line in front.split("\n"):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        key, sep, value = line.strip().partition(":")
        key = key.strip()
        if not sep or not key:
            continue
        if line[:1] in (" ", "\t") and parent:
            continue  # nested under the key above (read_lines' one level)
        parent = not value.strip()
        if key in seen:
            sources.pop(key, None)
            continue
        seen.add(key)
        if not parent and isinstance(read.get(key), str) and _composes(line.strip()):
            sources[key] = line.strip() + "\n"
    return sources


def fallback_fix(front: str) -> str:
    """How to make ``front`` (frontmatter the line fallback read: :func:`read_front`) YAML again, naming the first
    line that is not YAML even alone, by its line in the file (the frontmatter opens on line 2, after ``---``):
    ``line 2 (description: …) is not valid YAML: quote its value: description: '…'`` (YAML single quotes, ``'``
    doubled inside), for the common fault, a plain value holding ``: `` or opening with a YAML indicator (trial31:
    ``description: CI runs on GitHub Actions: the "main" workflow``); without a value, ``line N (…) is not valid
    YAML``; ``""`` when no line alone is at fault (the fault spans lines). A line indented with a tab, which
    YAML never reads as indentation, is named with the spaces to write instead (newuser33: ``<TAB>description:
    tabbed`` was told to quote a value that needs no quotes): ``line 3 (description: tabbed) is not valid YAML:
    it is indented with a tab (YAML indents with spaces only): description: tabbed``. Never raises."""
    lines = front.split("\n")
    for index, line in enumerate(lines):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        if _composes(line):  # composed, not constructed: only its syntax is asked ("a: 0000-01-01" is YAML)
            continue
        # this line alone is not YAML: the fault is on it (aliases were refused before)
        where = f"line {index + 2} ({line.strip()[:80]}) is not valid YAML"
        indent = line[:len(line) - len(line.lstrip())]
        spaces = indent.replace("\t", "  ")  # a tab is never YAML's indentation
        if spaces != indent and _composes(line.strip()):  # the tab is the one fault: nested, or at the top?
            above = [a for a in lines[:index] if a.strip() and not a.lstrip().startswith("#")]
            nested = bool(above) and above[-1].rstrip().endswith(":")  # the line above opens a mapping for it
            spaces = next((i for i in ((spaces, "") if nested else ("", spaces))
                           if _composes("\n".join([*lines[:index], i + line.strip(), *lines[index + 1:]]))), spaces)
            return f"{where}: it is indented with a tab (YAML indents with spaces only): {spaces}{line.strip()}"
        key, sep, value = line.strip().partition(":")
        if not (sep and key and value.strip()):
            return where
        quoted = "'" + value.strip().replace("'", "''") + "'"
        return f"{where}: quote its value: {spaces}{key.strip()}: {quoted}"
    return ""


def _composes(text: str) -> bool:
    """Whether ``text`` is YAML by its syntax alone (composed, never constructed: "a: 0000-01-01" is YAML, though
    no date). True when it nests past the stack or memory: that is no fault of one line a note could name."""
    import yaml

    try:
        yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.YAMLError:
        return False
    except (RecursionError, MemoryError):
        return True  # nested past the stack: not a fault of this line's syntax that a note could name
    return True


def read_plain(front: str) -> dict[str, Any]:
    """Frontmatter as plain Python values (:func:`construct`: text, ``int``,
    ``bool``, ``None``, lists and dicts; dates and ``yes``/``no`` kept as
    text), for a lenient reader of other systems' files that does not take
    memdir's vocabulary (:mod:`memdir.importing.sources`). The same safety as
    a layer's reader (:func:`read_front`): raises :class:`Hostile` for anchors, aliases or
    frontmatter over :data:`MAX_FRONTMATTER_BYTES`; frontmatter that is not
    YAML is read by :func:`read_lines`. Raises :class:`MalformedMemory` when
    neither reads a mapping out of it."""
    data, _, _, fallback = read_front(front)
    return data if fallback else {key: construct(value) for key, value in data.items()}


def as_written(value: Any, lines: list[str]) -> str | None:
    """The text a person reads on the line, for a one-line plain scalar YAML
    would change: a leading ``!`` read as a tag, a `` #`` read as a comment."""
    import yaml

    text = text_of(value)
    if (isinstance(value, yaml.ScalarNode) and value.style in (None, "")
            and value.start_mark.line == value.end_mark.line and value.start_mark.line < len(lines)):
        raw = lines[value.start_mark.line][value.start_mark.column:].rstrip()
        if raw and raw != text and (raw.startswith("!") or " #" in raw):
            return raw
    return text


def items_written(value: Any, lines: list[str]) -> str | None:
    """:func:`as_written` of a scalar; of a list or a mapping a person wrote where memdir takes one line of text
    (``description:`` and ``- kafka retention`` / ``- seven days`` under it), its scalars in order joined by
    ``"; "`` (a mapping's as ``key: value``): ``"kafka retention; seven days"``, so no word of it is lost to search or
    to the next write (break11: they were read as no description and dropped). None when it holds no text."""
    import yaml

    if isinstance(value, yaml.SequenceNode):
        parts = [items_written(item, lines) for item in value.value]
    elif isinstance(value, yaml.MappingNode):
        parts = [": ".join(t for t in (items_written(k, lines), items_written(v, lines)) if t) for k, v in value.value]
    else:
        return as_written(value, lines)
    return "; ".join(p for p in parts if p) or None


def text_of(value: Any) -> str | None:
    import yaml

    if isinstance(value, yaml.Node):
        return _scalar_text(value)
    if value is None:
        return None
    return str(value)


def construct(node: Any) -> Any:
    """A Python value for an unknown key, with dates and yes/no kept as text, and an integer
    outside the range of :data:`MAX_INTEGER` or not written as Python writes it (``01234``, ``+3``, ``-0``)
    kept as text too. A plain decimal fraction is a float
    when the float writes back as the same text (``0.25``: what a write of 0.25 leaves in the file);
    any other (``1.10``, ``1e3``, ``.inf``) stays text."""
    import yaml

    if not isinstance(node, yaml.Node):
        return node
    if isinstance(node, yaml.ScalarNode):
        text = _scalar_text(node)
        if text is None:
            return None
        if node.style in (None, ""):
            if text in ("true", "True", "TRUE"):
                return True
            if text in ("false", "False", "FALSE"):
                return False
            # Only an integer that writes back as the same text: ``01234`` (a post code) and ``+3`` stay text.
            if (re.fullmatch(r"-?\d{1,19}", text) and -MAX_INTEGER - 1 <= int(text) <= MAX_INTEGER
                    and str(int(text)) == text):
                return int(text)
            if re.fullmatch(r"-?\d{1,17}\.\d{1,17}", text) and repr(float(text)) == text:
                return float(text)
        return text
    if isinstance(node, yaml.SequenceNode):
        return [construct(item) for item in node.value]
    if isinstance(node, yaml.MappingNode):
        return {str(construct(k)): construct(v) for k, v in node.value}
    return None


def flag(value: Any) -> bool:
    text = text_of(value)
    return text is not None and text.strip().lower() == "true"


def integer(value: Any) -> int | None:
    text = text_of(value)
    if text is None or not re.fullmatch(r"\s*\d{1,9}\s*", text):
        return None
    return int(text)


def first_heading(body: str) -> str:
    for line in body.split("\n"):
        stripped = line.strip()
        if stripped.startswith("#"):
            return stripped.lstrip("#").strip()
    for line in body.split("\n"):
        if line.strip():
            return line.strip().lstrip(">").strip()
    return ""


__all__ = [
    "MAX_FRONTMATTER_BYTES", "MAX_INTEGER", "Hostile", "MalformedMemory", "as_written", "construct", "first_heading",
    "items_written",
    "flag", "integer", "oversize", "read_front", "read_lines", "read_plain", "read_yaml", "refuse_hostile", "split", "text_of",
]
