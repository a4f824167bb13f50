"""The settings-file formats memdir's installers edit (used by
:mod:`memdir.integrations.clients.edits`): JSON, TOML (tomlkit, keeping
comments and layout) and a text file with memdir's marked block. Reading
refuses what writing back would change for the client (a duplicate key, a
number a float would round, ``NaN``): :class:`InstallError`, nothing written.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from ...errors import InstallError


# ---------------------------------------------------------------- formats


class Format:
    """How one kind of settings file is read, compared and written. ``load``
    returns the parsed data (an empty value for an absent or blank file) and
    raises :class:`InstallError` for what it cannot parse."""

    name = "format"
    # True when a person's edit inside memdir's part cannot be told from memdir's own text
    editable_inside = False

    def load(self, raw: bytes | None, path: Path):
        raise NotImplementedError

    def dump(self, data, raw: bytes | None) -> bytes:
        raise NotImplementedError

    def plain(self, data):
        """A comparable plain value of ``data``."""
        return data

    def empty(self, data) -> bool:
        return not self.plain(data)


class JsonFormat(Format):
    """A JSON object (Claude Code, Gemini CLI, Cursor, OpenCode settings).
    Written with the file's own indentation (2 by default), UTF-8, a final newline."""

    name = "JSON"

    def load(self, raw, path):
        if raw is None or not raw.strip():
            return {}
        try:
            data = json.loads(raw.decode("utf-8-sig"), object_pairs_hook=_no_duplicates,
                              parse_constant=_no_constant, parse_float=_exact_float)
        except _Unfaithful as exc:
            raise InstallError(f"{path} holds {exc}, which memdir cannot write back as the client reads it; "
                               "memdir left it untouched") from None
        except (UnicodeDecodeError, ValueError, RecursionError) as exc:
            lenient = jsonc_data(raw)
            if isinstance(lenient, dict):
                raise JsoncFile(path, lenient) from None
            raise InstallError(f"{path} is not valid JSON ({exc}); fix it by hand — memdir left it untouched") \
                from None
        if not isinstance(data, dict):
            raise InstallError(f"{path} does not hold a JSON object; memdir left it untouched")
        return data

    def dump(self, data, raw):
        match = re.search(rb"\n([ ]+)\S", raw or b"")
        indent = len(match.group(1)) if match else 2
        text = json.dumps(data, indent=indent, ensure_ascii=False) + "\n"
        try:
            return text.encode("utf-8")
        except UnicodeEncodeError:  # a lone surrogate (a "\\udXXX" escape): kept as the escape it was
            return (json.dumps(data, indent=indent) + "\n").encode("ascii")


_STRING = r'"(?:\\.|[^"\\\n])*"'
_COMMENTS = re.compile(_STRING + r"|//[^\n]*|/\*.*?\*/", re.S)
_TRAILING = re.compile(_STRING + r"|,(?=\s*[}\]])")


def jsonc_data(raw: bytes):
    """The value of ``raw`` read as JSONC (JSON with ``//`` and ``/* */`` comments and trailing commas, which
    OpenCode and VS Code accept, and Gemini CLI's comments), or None when it does not read even so. Strings are left as they are."""
    try:
        text = raw.decode("utf-8-sig")
        text = _COMMENTS.sub(lambda m: m.group(0) if m.group(0).startswith('"') else " ", text)
        return json.loads(_TRAILING.sub(lambda m: m.group(0) if m.group(0).startswith('"') else "", text))
    except (UnicodeDecodeError, ValueError, RecursionError):
        return None


class JsoncFile(InstallError):
    """A settings file that is JSONC (comments, trailing commas), not JSON: memdir does not rewrite it, as a
    rewrite would drop the person's comments and uninstall could not give back exactly their text; the
    person makes the change by hand (:func:`by_hand` says which). ``data``: its value, read leniently."""

    def __init__(self, path: Path, data: dict):
        super().__init__(f"{path} holds comments or trailing commas (JSONC)")
        self.path, self.data = path, data


def by_hand(exc: JsoncFile, changed, verb: str, then: str = "") -> InstallError:
    """The refusal to edit the JSONC file of ``exc``, with the change to make by hand: ``changed`` (its data
    after memdir's edit) shown as a diff of the settings as plain JSON. It names no client: every client's JSON
    settings file is refused alike (trial35: a Gemini CLI settings.json with a comment was said to be a file
    "which OpenCode accepts"). ``then``: what to do once that is done, after the diff (the run's other files)."""
    import difflib

    before = json.dumps(exc.data, indent=2, ensure_ascii=False).splitlines(keepends=True)
    after = json.dumps(changed, indent=2, ensure_ascii=False).splitlines(keepends=True)
    lines = "".join(difflib.unified_diff(before, after, "now", "with memdir", n=1))
    return InstallError(f"{exc}; memdir edits only plain JSON, so that uninstall "
                        f"gives back exactly your text and no comment is lost; memdir left it untouched. "
                        f"{verb} by hand (keeping your comments):\n{lines}" + (f"\n{then}" if then else ""))


class _Unfaithful(ValueError):
    """A JSON value that reading and writing back would change."""


def _no_duplicates(pairs: list) -> dict:
    keys = [k for k, _ in pairs]
    if len(set(keys)) != len(keys):
        raise _Unfaithful(f"the key {next(k for k in keys if keys.count(k) > 1)!r} twice")
    return dict(pairs)


def _no_constant(name: str):
    raise _Unfaithful(f"{name} (not JSON)")


def _exact_float(text: str) -> float:
    from decimal import Decimal

    value = float(text)
    if value in (float("inf"), float("-inf")) or Decimal(repr(value)) != Decimal(text):
        raise _Unfaithful(f"the number {text[:40]} (a float would change it)")
    return value


class TomlFormat(Format):
    """A TOML document (Codex's ``config.toml``), edited with tomlkit so every
    comment, order and spelling of the rest of the file stays as written."""

    name = "TOML"

    def load(self, raw, path):
        import tomlkit
        from tomlkit.exceptions import TOMLKitError

        try:
            return tomlkit.parse((raw or b"").decode("utf-8-sig"))
        except (UnicodeDecodeError, TOMLKitError) as exc:
            raise InstallError(f"{path} is not valid TOML ({exc}); fix it by hand — memdir left it untouched") \
                from None

    def dump(self, data, raw):
        import tomlkit

        return tomlkit.dumps(data).encode("utf-8")

    def plain(self, data):
        return data.unwrap()


class TextFormat(Format):
    """A text file (an instructions file) where memdir owns one block between
    :data:`BLOCK_BEGIN` and :data:`BLOCK_END` lines; the data is the text. A
    person's words inside that block cannot be told from memdir's, so uninstall
    removes or restores such a file only while it holds what install wrote."""

    name = "text"
    editable_inside = True

    def load(self, raw, path):
        try:
            return (raw or b"").decode("utf-8-sig")
        except UnicodeDecodeError:
            raise InstallError(f"{path} is not UTF-8 text; memdir left it untouched") from None

    def dump(self, data, raw):
        return data.encode("utf-8")

    def plain(self, data):
        # Install puts its block after one blank line, whatever the file ended with: those newlines are not data.
        return data.rstrip("\n")

    def empty(self, data) -> bool:
        return not data.strip()


JSON, TOML, TEXT = JsonFormat(), TomlFormat(), TextFormat()
BLOCK_BEGIN = "<!-- memdir:begin (memdir install wrote this block; memdir uninstall removes it) -->"
BLOCK_END = "<!-- memdir:end -->"


class UnmatchedBlock(InstallError):
    """A text file holding one of memdir's block markers without the other (edited by hand): where
    memdir's block ends cannot be told, so memdir changes nothing in it."""


def strip_block(text: str) -> str:
    """``text`` without memdir's marked block (and the blank line install put before it).
    Raises :class:`UnmatchedBlock` when only one of the two markers is there."""
    pattern = re.compile(r"(?:(?<=\n)\n)?" + re.escape(BLOCK_BEGIN) + r".*?" + re.escape(BLOCK_END) + r"\n?", re.S)
    out = pattern.sub("", text, count=1)
    if BLOCK_BEGIN in out or BLOCK_END in out:
        raise UnmatchedBlock("memdir's block markers do not pair up (one without the other, edited by hand?)")
    return out


def with_block(text: str, body: str) -> str:
    """``text`` with memdir's block holding ``body`` (replacing an older one), at the end."""
    rest = strip_block(text)
    block = f"{BLOCK_BEGIN}\n{body.rstrip()}\n{BLOCK_END}\n"
    return block if not rest.strip() else rest.rstrip("\n") + "\n\n" + block


def copy_of(data):
    """A deep copy of parsed data of any :class:`Format` (tomlkit documents included)."""
    if isinstance(data, str):
        return data
    if isinstance(data, dict) and type(data) is dict:
        return json.loads(json.dumps(data))
    import tomlkit

    return tomlkit.parse(tomlkit.dumps(data))


__all__ = ["Format", "JsonFormat", "TomlFormat", "TextFormat", "JSON", "TOML", "TEXT", "BLOCK_BEGIN", "BLOCK_END",
           "strip_block", "with_block", "copy_of", "jsonc_data", "JsoncFile", "by_hand", "UnmatchedBlock"]
