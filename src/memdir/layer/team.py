"""The team layer: memory kept inside the project's repository (DESIGN §2).

The files live in ``<repository root>/<team_dir>`` (the ``team_dir`` setting,
default ``.claude/memory``) and travel with git; everything derived or
personal stays on this machine under ``<home>/team/<key>``
(:func:`memdir.paths.team_meta_dir`): the journal and version objects
(what *this* machine changed — git's history is the shared one), the lock,
``MEMORY.md`` and its stamp, and the candidates the agent or consolidation
proposed for the team, waiting for this person's approval.

What the team layer adds to a :class:`~memdir.layer.layer.Layer`:

* only a person writes it (``human``): an agent's or consolidation's change
  is a candidate in the home (:func:`candidate_layer`), never a file in the
  repository;
* text that still looks like a credential after redaction is refused
  (:func:`memdir.text.redact.looks_like_credential`);
* tombstones are one file each in ``<team_dir>/tombstones/``
  (:class:`~memdir.tombstones.stones.TombstoneDir`), so they merge;
* a directory that already holds memory files is adopted as it is
  (:func:`init` adds only what is missing: a README line, ``.gitignore``,
  ``.gitattributes``);
* the directory is text from other people, arriving by ``git pull``: only
  memdir's regular files are read, within their caps (:mod:`memdir.files.scan`,
  :class:`~memdir.tombstones.stones.TombstoneDir`); a ``MEMORY.md`` or ``.memdir``
  committed into it is never read or written (memdir keeps those in the home),
  and one that is a symlink is reported (:meth:`TeamLayer.scan`), never a reason
  to refuse a write in this or any other layer.
"""

from __future__ import annotations

import os
from contextlib import contextmanager
from pathlib import Path

from ..errors import MemdirError, Refused, StoreError
from ..files.fsio import atomic_write, ensure_dir
from ..files.layout import (
    INDEX_FILE,
    META_DIR,
    SEEN_TOMBSTONES_FILE,
    TEAM_TOMBSTONE_DIR,
    read_layer_info,
    symlink_refusal,
)
from ..files.memfile import MemoryRecord
from ..files.merge import ATTRIBUTE as MERGE_ATTRIBUTE
from ..files.scan import Malformed, Scan
from ..paths import CANDIDATE_DIR, TEAM_DIR, team_files_dir, team_meta_dir
from ..settings import Settings
from ..text.printable import line_of
from ..text.redact import credential_in, looks_like_credential
from ..tombstones.stones import TombstoneDir, TombstoneFile
from .layer import Layer, meta_dir

TOMBSTONE_DIR = TEAM_TOMBSTONE_DIR  # where its tombstones are (files.layout.stones_key reads it too)
README = "README"  # no .md: a memory file it is not
README_TEXT = ("# Team memory\n\n"
               "Shared long-term memory of this repository for coding agents (memdir's team layer): one memory "
               "per Markdown file, tombstones of forgotten facts in `tombstones/`. Review and commit changes "
               "like code.\n")
# Derived files are regenerated on every machine and never merged; memdir writes none of them
# here (MEMORY.md and the search index live in the home), the lines guard against copies.
GITIGNORE_TEXT = ("# memdir: derived or local files, regenerated, never committed\n"
                  "MEMORY.md\n.memdir/\n.*.tmp\n*.sqlite\n")
GITATTRIBUTES_TEXT = ("# memdir: memories merge field by field (memdir team init registers the driver); "
                      "tombstones are one file each (they merge); MEMORY.md is derived\n"
                      f"{MERGE_ATTRIBUTE}\n"
                      "MEMORY.md linguist-generated=true -diff\n"
                      "tombstones/*.json linguist-generated=true\n")


class TeamLayer(Layer):
    """The team layer of one repository: files in ``path`` (inside the
    repository), journal, objects, lock and ``MEMORY.md`` in ``meta`` (in
    the home), tombstones in ``path/tombstones``. See the module docstring. A file holding a forgotten value is
    held back whatever its name, as in every layer, and every file is judged again when the tombstones move
    (:attr:`~memdir.layer.held.HoldsBack.judge_all_again`): a teammate's clone writes the value under another name
    before the forget reaches it, and git merges both (break33)."""

    judge_all_again = True

    def __init__(self, path: Path, local: Path, settings: Settings, root: Path):
        # journal, manifest, lock and read counts in ``local/.memdir``, MEMORY.md beside it: out of the repository
        super().__init__(path, "team", settings, root, Path(local) / META_DIR)
        self.tombstone_file = TombstoneDir(self.path / TOMBSTONE_DIR, self.meta / SEEN_TOMBSTONES_FILE)

    def side_home(self) -> Path:
        """The home this layer's side lies in (``<home>/team/<key>/.memdir``: :func:`memdir.paths.team_meta_path`):
        a background process makes no removed home (:func:`memdir.files.background.require`)."""
        return self.meta.parent.parent.parent

    def refuse_symlinks(self) -> None:
        """Raise :class:`StoreError` when the team directory itself, or the home side that memdir
        writes (the local directory, its ``.memdir`` and meta files), is a symlink. What a
        repository holds under the names of memdir's derived files is not memdir's: :meth:`scan`
        reports it."""
        if os.path.islink(self.path):
            raise StoreError(f"{self.path} is a symbolic link (to {os.readlink(self.path)}); memdir does not "
                             "follow symlinks in a layer: replace it with the real directory")
        reason = symlink_refusal(self.meta.parent)
        if reason:
            raise StoreError(reason)

    def scan(self, known=None, progress=None) -> Scan:
        """:meth:`Layer.scan`, with a ``MEMORY.md`` or ``.memdir`` of the repository's team
        directory that is a symlink listed in :attr:`~memdir.files.scan.Scan.malformed`
        (committed by someone, never followed: memdir keeps its own in the home)."""
        found = super().scan(known, progress)
        for name in (INDEX_FILE, META_DIR):
            path = self.path / name
            if os.path.islink(path):
                found.malformed.append(Malformed(str(path), "a symbolic link in the repository, not followed: "
                                                            "memdir never reads or writes it (the team layer's "
                                                            f"{name} is kept in the home); remove it from git"))
        return found

    @contextmanager
    def transaction(self, actor: str, session: str | None = None, **options):
        """:meth:`Layer.transaction` for a person only: the agent's tools and
        consolidation propose team memories as candidates (:func:`candidate_layer`).
        Every record written is checked by :meth:`admit` first. Raises
        :class:`Refused` for any other actor."""
        if actor != "human":
            raise Refused("the team layer is written by a person only; an agent's or consolidation's change "
                          "for the team is kept as a candidate until a person approves it (memdir review)")
        with super().transaction(actor, session, **options) as tx:
            apply = tx.apply

            def admitted(name, record, action, **kw):
                if record is not None:
                    self.admit(record)
                return apply(name, record, action, **kw)

            tx.apply = admitted
            yield tx

    def admit(self, record: MemoryRecord) -> None:
        """Refuse text that still looks like a credential after redaction, in a field or in a
        further frontmatter key (``extra``, at any depth): the team layer is committed and shared."""
        found = [(label, looks_like_credential(text)) for label, text in (
            ("name", record.name), ("title", record.title or ""), ("description", record.description),
            ("body", record.body))]
        found += [(f"frontmatter key {key!r}", credential_in(key, value)) for key, value in record.extra]
        for label, why in found:
            if why:
                raise Refused(f"refused for the team layer: the {label} still looks like a credential ({why}); "
                              "remove it — the team layer is committed to the repository")


def team_layer(home: Path, root: Path, settings: Settings) -> TeamLayer:
    """The :class:`TeamLayer` of the repository at ``root`` (its local side:
    :func:`memdir.paths.team_meta_dir`)."""
    return TeamLayer(team_files_dir(root, settings.team_dir), team_meta_dir(home, root), settings, root)


def candidate_layer(home: Path, root: Path, settings: Settings) -> Layer:
    """Where this person's pending team candidates wait, in the home (never
    in the repository): a layer of scope ``team`` whose memories are all
    candidates."""
    return _candidates(team_meta_dir(home, root), settings, root)


def _candidates(local: Path, settings: Settings, root: Path | None) -> Layer:
    """The layer of candidates in a repository's local side ``local`` (:func:`candidate_layer`)."""
    layer = Layer(Path(local) / CANDIDATE_DIR, "team", settings, root)
    layer.tombstone_file = TombstoneFile(layer.meta, "team")
    return layer


def team_journal_dirs(home: Path) -> list[Path]:
    """The journal directory of every team layer's local side under ``<home>/team`` (each ``team/<key>``
    and its ``candidates``) that has one, where such a layer keeps it (:func:`memdir.layer.layer.meta_dir`,
    as :attr:`Layer.meta <memdir.layer.layer.Layer.meta>`), in name order."""
    base = Path(home) / TEAM_DIR
    if not base.is_dir():
        return []
    out = []
    for local in sorted(p for p in base.iterdir() if p.is_dir()):
        out += [meta for meta in (meta_dir(local), meta_dir(local / CANDIDATE_DIR)) if meta.is_dir()]
    return out


def home_team_layers(home: Path, settings: Settings) -> list[Layer]:
    """The team layers whose local side is in ``home`` (each ``<home>/team/<key>``, key order), for home-wide
    work (verify, repair): the repository's :class:`TeamLayer` and its layer of candidates, each when its local
    side holds its journal's directory. The repository is the root its local side's ``layer.json`` records; with
    none recorded, the local side alone (a :class:`Layer` of the home directory, its journal where a layer keeps
    it). Where each keeps its journal is the layer's rule (``meta``), never re-derived by the caller."""
    base = Path(home) / TEAM_DIR
    out: list[Layer] = []
    for local in sorted(p for p in base.iterdir() if p.is_dir()) if base.is_dir() else ():
        kept, candidates = Layer(local, "team", settings), Layer(local / CANDIDATE_DIR, "team", settings)
        root = next((info["root"] for layer in (kept, candidates) if isinstance(
            (info := read_layer_info(layer.meta) or {}).get("root"), str) and info["root"]), None)
        team = kept
        if root is not None:
            try:
                team = TeamLayer(team_files_dir(Path(root), settings.team_dir), local, settings, Path(root))
            except MemdirError:  # a team_dir setting it refuses: the local side alone
                team = kept
            candidates = _candidates(local, settings, Path(root))
        out += [layer for layer in (team, candidates) if layer.meta.is_dir()]
    return out


MAX_NESTED = 20  # the nested memory files nested_memory_files names, at most (a note each, in status and doctor)
_NESTED_DEPTH = 4  # how many folders deep it looks


def nested_memory_files(path: Path) -> tuple[str, ...]:
    """The ``*.md`` files in folders of the team directory ``path`` (paths relative to it, ``/``-separated,
    sorted, at most :data:`MAX_NESTED`, at most :data:`_NESTED_DEPTH` folders deep): a teammate's memory
    committed one folder down (``notes/deploy.md``) is read by no one — the layer is the directory's top
    level — so ``memdir team status`` names it rather than let it go unseen. memdir's own folders
    (``tombstones/``) and hidden ones are passed over, and a linked folder is never followed. () when the
    directory does not list."""
    found: list[str] = []

    def walk(folder: Path, depth: int) -> None:
        try:
            entries = sorted(os.scandir(folder), key=lambda entry: entry.name)
        except OSError:
            return
        for entry in entries:
            if len(found) >= MAX_NESTED:
                return
            if entry.name.startswith("."):
                continue
            if depth and entry.name.endswith(".md") and entry.is_file(follow_symlinks=False):
                found.append(os.path.relpath(entry.path, path).replace(os.sep, "/"))
            elif depth < _NESTED_DEPTH and entry.is_dir(follow_symlinks=False) and not (
                    depth == 0 and entry.name == TOMBSTONE_DIR):
                walk(Path(entry.path), depth + 1)

    walk(Path(path), 0)
    return tuple(found)


def nested_note(team_dir: str | os.PathLike, path: str) -> str:
    """The one sentence ``team status`` and ``doctor`` say of ``path``, a file :func:`nested_memory_files`
    found in ``team_dir``."""
    return (f"in a folder, read by no one: {line_of(f'{os.fspath(team_dir)}/{path}', 200)} — memdir reads the "
            "memory files at the team directory's top level only, so no agent sees this one: `git mv` it up to "
            "share it")


def init(path: Path) -> list[str]:
    """Create the team directory, or adopt the one there: add a README (only
    when the directory holds none), ``.gitignore``, ``.gitattributes`` (with
    the merge driver's line, :data:`memdir.files.merge.ATTRIBUTE`) and
    ``tombstones/`` where missing; an existing ``.gitignore`` or
    ``.gitattributes`` gets memdir's entries it lacks appended (its own lines are kept). Never renames or rewrites a file that is
    there. Returns the paths created (relative to ``path``)."""
    created = []
    ensure_dir(path)
    for name, text in ((README, README_TEXT), (".gitignore", GITIGNORE_TEXT),
                       (".gitattributes", GITATTRIBUTES_TEXT)):
        target = path / name
        if not target.exists():
            atomic_write(target, text.encode("utf-8"))
            created.append(name)
        elif name in (".gitignore", ".gitattributes"):  # adopted: memdir's entries are added, the others kept
            have = target.read_bytes().decode("utf-8", "replace")
            lines = {line.strip() for line in have.splitlines()}
            missing = [line for line in text.splitlines()[1:] if line not in lines]
            if missing:
                atomic_write(target, (have + ("" if have.endswith("\n") or not have else "\n")
                                      + text.splitlines()[0] + "\n" + "\n".join(missing) + "\n").encode("utf-8"))
                created.append(f"{name} (added {', '.join(missing)})")
    tombs = path / TOMBSTONE_DIR
    if not tombs.is_dir():
        ensure_dir(tombs)
        atomic_write(tombs / ".gitkeep", b"")
        created.append(TOMBSTONE_DIR + "/")
    return created


__all__ = ["CANDIDATE_DIR", "MAX_NESTED", "TOMBSTONE_DIR", "TeamLayer", "candidate_layer", "home_team_layers", "init",
           "nested_memory_files", "nested_note", "team_layer"]
