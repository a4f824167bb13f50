"""Which files of a folder an import reads (``memdir import dir``, basic-memory, issue 25).

A repository holds much Markdown that is not memory: the READMEs of its
dependencies and build output (``node_modules/``, ``target/``, ``dist/`` — a
bug basic-memory's users hit, basic-memory #287). :func:`walk` goes down a
folder in path order and leaves out, each said once with the reason, never
silently:

* hidden folders (``.git``, ``.venv``, ``.cache`` …) and the dependency and
  build folders of :data:`SKIPPED_FOLDERS`;
* inside a git work tree, whatever git ignores there (:func:`memdir.git.ignored`:
  ``.gitignore``, ``.git/info/exclude``, the global excludes);
* linked folders (a symbolic link is never followed out of the folder);
* what ``exclude`` patterns name, and — when ``include`` patterns are given —
  every file none of them names.

A pattern is a shell pattern (``fnmatch``: ``*``, ``?``, ``[…]``) matched
against the path relative to the folder, with ``/`` separators, and against
its last part: ``drafts`` and ``*.draft.md`` name a folder or file anywhere,
``docs/*`` everything under ``docs/``.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from fnmatch import fnmatchcase
from pathlib import Path

from ..errors import NotFound
from ..files.layout import INDEX_FILE, is_memory_file_name
from ..git import ignored

# Folders of dependencies, virtual environments and build output: never a person's notes.
SKIPPED_FOLDERS = frozenset({
    "node_modules", "bower_components", "jspm_packages", "vendor", "target", "dist", "build", "out",
    "__pycache__", "venv", "site-packages", "coverage", "htmlcov", "Pods", "DerivedData", "_build",
})
HIDDEN = "a hidden folder"
DEPENDENCY = "a dependency or build folder"
GIT_IGNORED = "ignored by git"
LINKED = "a linked folder (symbolic link), not followed"
EXCLUDED = "excluded by --exclude"
NOT_INCLUDED = "not named by --include"
INDEX_READ_BYTES = 65536  # of a folder's MEMORY.md, read to say what it holds beyond links (index_leftovers)
_LINK = re.compile(r"\]\(<?([^)>\s]+)>?\)")  # the target of a Markdown link: [text](target)
_TARGET = re.compile(r"[^)>\s]*")


def _link_targets(line: str) -> list[str]:
    """``_LINK.findall(line)`` in linear time: a "](" that is no link's start is passed over with the target it
    would have had, since a "](" inside that target ends where it ends and fails too. (Read from each "](" of
    "](](](…" to the end of the line, the line cost the square of its length: 3 s at 32,000 characters.)"""
    out, at = [], 0
    while (start := line.find("](", at)) >= 0:
        found = _LINK.match(line, start)
        if found is None:
            at = max(_TARGET.match(line, start + 2).end(), start + 1)
            continue
        out.append(found.group(1))
        at = found.end()
    return out


@dataclass(frozen=True)
class Walk:
    """What :func:`walk` found: ``files`` (memory files to read, in path order, as
    ``(path, path relative to the folder)``; a linked file among them is the reader's to refuse) and
    ``left`` (``(relative path, why)`` of each folder — with a trailing ``/`` — or file left out by a
    rule of this module, ``.git`` aside: it is never anything but git's)."""

    files: list[tuple[Path, str]] = field(default_factory=list)
    left: list[tuple[str, str]] = field(default_factory=list)


def named(rel: str, patterns: tuple[str, ...]) -> bool:
    """True when one of ``patterns`` names the relative path ``rel`` (see the module docstring)."""
    last = rel.rsplit("/", 1)[-1]
    return any(fnmatchcase(rel, p.strip("/")) or fnmatchcase(last, p.strip("/")) for p in patterns)


def walk(root: Path, *, recursive: bool = True, include: tuple[str, ...] = (),
         exclude: tuple[str, ...] = ()) -> Walk:
    """The memory files under ``root`` (``*.md``, not ``MEMORY.md`` nor dot-files:
    :func:`memdir.files.layout.is_memory_file_name`) and what was left out, and why (the module
    docstring's rules; ``recursive`` False: ``root``'s own files only). Raises :class:`NotFound` for a
    missing directory."""
    root = Path(root)
    if not root.is_dir():
        raise NotFound(f"no directory {str(root)!r} to import from")
    ignores = ignored(root) or set()
    found = Walk()
    for current, dirs, files in os.walk(root):
        here = Path(current)
        base = here.relative_to(root).as_posix()
        prefix = "" if base == "." else base + "/"
        kept = []
        for name in sorted(dirs) if recursive else []:
            rel = prefix + name
            why = (LINKED if (here / name).is_symlink() else HIDDEN if name.startswith(".")
                   else DEPENDENCY if name in SKIPPED_FOLDERS else GIT_IGNORED if rel + "/" in ignores
                   else EXCLUDED if named(rel, exclude) else None)
            if why is None:
                kept.append(name)
            elif name != ".git":
                found.left.append((rel + "/", why))
        dirs[:] = kept
        for name in sorted(files):
            if name == INDEX_FILE and not prefix and (why := index_leftovers(here / name)):
                found.left.append((name, why))  # never a memory, but what it holds besides links is said
            if not is_memory_file_name(name):
                continue
            rel = prefix + name
            why = (GIT_IGNORED if rel in ignores else EXCLUDED if named(rel, exclude)
                   else NOT_INCLUDED if include and not named(rel, include) else None)
            if why is None:
                found.files.append((here / name, rel))
            else:
                found.left.append((rel, why))
    return found


def index_leftovers(path: Path) -> str | None:
    """Why a folder's ``MEMORY.md`` (an index such as Claude Code's, never imported: the memory files are) leaves
    text behind, or None when it holds only headings, blank lines and links to files beside it. Its lines of
    own text and its links to files not there are counted (the first :data:`INDEX_READ_BYTES`; newuser33: an
    auto memory folder holding only its ``MEMORY.md`` imported "no memory found", with not a word of the
    index's own paragraphs or of the dozen files it named). A link to another site or an anchor is text, not
    a missing file. Never raises: an index that cannot be read is None."""
    try:
        with open(path, "rb") as file:
            text = file.read(INDEX_READ_BYTES).decode("utf-8", "replace")
    except OSError:
        return None
    own = missing = 0
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith("#") or set(line) <= set("-*_= "):
            continue
        targets = [t for t in _link_targets(line) if "://" not in t and not t.startswith(("#", "mailto:"))]
        if not targets:
            own += 1
        missing += sum(1 for t in targets if not (path.parent / t.split("#", 1)[0]).is_file())
    if not (own or missing):
        return None
    said = [f"{own} line{'s' if own != 1 else ''} of its own text" if own else "",
            f"links to {missing} file{'s' if missing != 1 else ''} not here" if missing else ""]
    return (f"an index, not imported ({'; '.join(s for s in said if s)}): put what it says in a memory file "
            "here, or write it with `memdir write`")


__all__ = ["DEPENDENCY", "EXCLUDED", "GIT_IGNORED", "HIDDEN", "LINKED", "NOT_INCLUDED", "SKIPPED_FOLDERS", "Walk",
           "index_leftovers", "named", "walk"]
