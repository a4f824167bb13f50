"""The session: who is asking, about which project, under which home and settings.

Every entry point — the CLI, the hooks, the MCP server, the installer, ingest,
the consolidation queue and the Python API — builds its :class:`Session` with
:func:`open_session`, so there is one rule, with one message per case, for
where memories live (DESIGN §2, §9):

* **home**: the explicit argument (``--home``), else ``MEMDIR_HOME``, else
  ``$DSH_HOME/memory``, else the platform data dir (:func:`paths.resolve_home`).
* **settings**: defaults < ``config.toml`` < ``MEMDIR_*`` < overrides, read
  here and nowhere below (:func:`settings.load_settings`).
* **project root**, from the first source given: the explicit ``project``
  (``--project``, a hook's ``cwd``, an MCP root), then — unless the caller's
  project comes from its input alone (``use_cwd=False``: hooks, the queue,
  ingest) — ``MEMDIR_PROJECT`` and the working directory. Symlinks are resolved and the root
  moves up to the top of its git work tree. The rule is :mod:`memdir.paths`'
  (:func:`~memdir.paths.project_source`, :func:`~memdir.paths.project_root_of`);
  a session asks it.

  - A source that is not an existing directory is refused at once
    (:class:`ScopeError`): a mistyped ``--project`` must not quietly show
    the user layer alone.
  - A deleted working directory, ``$HOME``, ``/``, a directory of the kernel's
    virtual file systems (``/proc``, ``/sys``, ``/dev``: an MCP client's
    ``file:///proc/self``; :func:`~memdir.paths.refusal`) or no source at all leave
    the session without a project: the user layer works, and every
    project-scope operation raises :class:`ScopeError` with the reason.

* **actor**: who writes (``human``, ``agent``, ``extracted``, ``import``);
  it becomes each memory's ``origin`` and decides what may be done.
* **id**: the agent's session id, whatever text a client sent (:func:`bounded_id`): kept as
  sent when it is UTF-8 text of at most :data:`MAX_ID_BYTES` bytes; any other — longer, or holding
  a lone surrogate (JSON's ``"\\ud800"``) — as ``sha256:`` and the 64 hex of its code points. So
  what every path keeps of it (the journal, the consolidation queue, the pending block's showings,
  recall's session record) is bounded and can be written, and one id is always the same id.
* **trust**: a repository's team layer is among an agent's, consolidation's or an importer's
  scopes only once a person trusted it in this clone (:meth:`Session.team_trusted`,
  :mod:`memdir.files.trust`); a person's session always has it. An untrusted team layer's
  tombstones still bind every write (:meth:`Session.bound_layers`).

The hook path imports this module: it loads no YAML, no SQLite and no
locking until a layer is opened (:meth:`Session.layer`). The class is a
hand-written value class rather than a dataclass for the same reason. Its paths are
strings (``home_path``, ``root_path``, :meth:`Session.layer_path`): the hot path (a hook,
``memdir context``) loads neither :mod:`pathlib` nor the :mod:`re` it loads; ``home``,
``project_root`` and :meth:`Session.layer_dir` give them as :class:`~pathlib.Path`.
"""

from __future__ import annotations

import os
import time

from .errors import InvalidInput, ScopeError
from .paths import (
    CANDIDATE_DIR,
    NO_PROJECT,
    home_path,
    project_layer_path,
    project_source,
    root_paths_of,
    sha256,
    team_files_path,
    team_meta_path,
    user_layer_path,
)
from .settings import Settings, load_settings
from .vocabulary import ACTORS, SCOPES

MAX_ID_BYTES = 256  # a session id kept as sent is at most this many bytes of UTF-8 (a client's is a UUID: 36)


def bounded_id(text: str | None) -> str | None:
    """The session id memdir keeps for ``text``, a client's (the module docstring): ``text`` itself
    when it is None, empty, or UTF-8-encodable in at most :data:`MAX_ID_BYTES` bytes; else
    ``"sha256:<64 hex>"`` of its code points (UTF-8, a lone surrogate as its own three bytes) —
    71 ASCII characters, different for different ids. Never raises."""
    if not text:
        return text
    try:
        if len(text.encode("utf-8")) <= MAX_ID_BYTES:
            return text
    except UnicodeEncodeError:
        pass
    return "sha256:" + sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


class Session:
    """One caller's view of the store: ``home`` (absolute), ``settings``,
    ``project_root`` (canonical) or ``project_error`` (why there is none),
    ``actor`` and ``id`` (the agent's session id as :func:`bounded_id` keeps it, in the journal;
    may be None). Layers are opened on first use and shared by :meth:`as_actor`
    copies, so their scan caches serve every operation of the session. ``home_path`` and
    ``root_path`` are ``home`` and ``project_root`` as strings (the hot path's). ``checkout_path``: the top of
    the work tree the session runs in (:func:`memdir.paths.root_paths_of`; a linked git worktree's own, else
    the root), where the team layer's files are; None without a project. ``indexed``: what the search index holds
    of a layer's files, ``indexed(home, layer_dir)`` in the form of :func:`memdir.search.filetexts.layer_texts`
    (set by :class:`memdir.api.Memory`, which may load search; this package may not): a sieve over every file of
    a layer asks it first and reads only the files it cannot rule out; None: the files are read.
    ``began``: when the session was opened (seconds since the epoch, whole); with :meth:`saw` and :meth:`unseen`, what an
    update tells of a version it replaced that another writer wrote meanwhile.
    ``source_path``: the directory the project came from as given (``--project``, ``MEMDIR_PROJECT``, the
    working directory), before it was moved up to its work tree's top; None without a project (or not given):
    ``team init`` refuses one inside a git directory (:func:`memdir.gitfiles.git_dir_holding`).
    """

    __slots__ = ("home_path", "settings", "root_path", "checkout_path", "project_error", "actor", "id", "_layers",
                 "_dirs", "_trusted", "_home", "_root", "indexed", "began", "_seen", "source_path")

    def __init__(self, home: str | os.PathLike, settings: Settings, project_root: str | os.PathLike | None = None,
                 project_error: str | None = None, actor: str = "agent", id: str | None = None,
                 checkout: str | os.PathLike | None = None, source: str | os.PathLike | None = None):
        if actor not in ACTORS:
            raise InvalidInput(f"unknown actor {actor!r} (expected one of {', '.join(ACTORS)})")
        self.home_path = os.fspath(home)
        self.settings = settings
        self.root_path = None if project_root is None else os.fspath(project_root)
        self.checkout_path = None if project_root is None else os.fspath(checkout or project_root)
        self.project_error = None if project_root is not None else (project_error or NO_PROJECT)
        self.actor = actor
        self.id = bounded_id(id)
        self._layers: dict = {}
        self._dirs: dict = {}
        self._trusted: bool | None = None
        self._home = self._root = None
        self.indexed = None
        self.began = int(time.time())  # not datetime: every hook opens a session, and datetime is an import
        self._seen: set[tuple[str, str, str]] = set()
        self.source_path = None if source is None else os.fspath(source)

    @property
    def home(self) -> Path:
        """The home as a :class:`~pathlib.Path` (``home_path``: the string)."""
        if self._home is None:
            from pathlib import Path

            self._home = Path(self.home_path)
        return self._home

    @property
    def project_root(self) -> Path | None:
        """The project root as a :class:`~pathlib.Path`, or None (``root_path``: the string)."""
        if self._root is None and self.root_path is not None:
            from pathlib import Path

            self._root = Path(self.root_path)
        return self._root

    def __repr__(self) -> str:
        return (f"Session(home={self.home_path!r}, project_root={self.root_path!r}, "
                f"actor={self.actor!r})")

    def as_actor(self, actor: str, id: str | None = None) -> "Session":
        """The same session seen by another actor (consolidation writes as
        ``extracted``); ``id`` replaces the session id when given."""
        other = Session(self.home_path, self.settings, self.root_path, self.project_error, actor,
                        self.id if id is None else id, self.checkout_path)
        other._layers, other._dirs, other._trusted, other.indexed = self._layers, self._dirs, self._trusted, self.indexed
        other.began, other._seen = self.began, self._seen
        other.source_path = self.source_path
        return other

    def saw(self, scope: str, name: str, digest: str | None) -> None:
        """Remember that this session read or wrote version ``digest`` (a file's SHA-256) of memory ``name`` of
        ``scope``: an update that replaces it replaces what the session knew (:meth:`unseen`). None: nothing."""
        if digest:
            self._seen.add((scope, name, digest))

    def unseen(self, scope: str, name: str, digest: str, written) -> bool:
        """Whether version ``digest`` of memory ``name`` of ``scope``, ``written`` at that time (a datetime, or
        None: not known), is one another writer wrote while this session ran and this session never read
        or wrote (:meth:`saw`): an update replacing it replaced what the caller had not seen. Files keep whole
        seconds: a version written in the second the session began may be older than the session, and is not
        counted (a true warning left unsaid, never a false one said)."""
        return written is not None and written.timestamp() > self.began and (scope, name, digest) not in self._seen

    # ------------------------------------------------------------ scopes

    def scopes(self) -> tuple[str, ...]:
        """The scopes this session can use, in context order: user, team
        (when the repository has a team directory and, for anyone but a person, it is
        trusted: :meth:`team_trusted`), project."""
        user = ("user",) if self.settings.enable_user_scope else ()
        if self.root_path is None:
            return user
        team = self.has_team() and (self.actor == "human" or self.team_trusted())
        return user + (("team",) if team else ()) + ("project",)

    def team_trusted(self) -> bool:
        """True when a person trusted this repository's team layer in this clone
        (:func:`memdir.files.trust.is_trusted`; ``memdir team trust``). Asked once per session."""
        if self._trusted is None:
            from .files.trust import is_trusted

            self._trusted = self.root_path is not None and is_trusted(
                team_meta_path(self.home_path, self.root_path), self.root_path)
        return self._trusted

    def forget_trust(self) -> None:
        """Ask :meth:`team_trusted` again (after ``team trust`` or ``untrust`` changed the record)."""
        self._trusted = None

    def team_untrusted(self) -> bool:
        """True when the repository has a team layer this clone has not trusted: its text reaches
        no model (the context block, recall, the tools; :mod:`memdir.files.trust`)."""
        return self.has_team() and not self.team_trusted()

    def bound_layers(self) -> list:
        """The layers whose tombstones bind this session's writes: its :meth:`layers`, an
        untrusted team layer too (forgetting only takes away, so binding by it is safe), and, last, the
        home's layer of this project's team candidates (:func:`memdir.layer.team.candidate_layer`), whose
        tombstones are the values this person rejected: they bind every layer of the project, not only
        the next team proposal."""
        layers = self.layers()
        if "team" not in self.scopes() and self.has_team():
            layers.insert(1 if self.settings.enable_user_scope else 0, self._open_team())
        if self.root_path is not None:
            found = self._layers.get(CANDIDATE_DIR)
            if found is None and os.path.isdir(os.path.join(team_meta_path(self.home_path, self.root_path),
                                                            CANDIDATE_DIR)):
                # late, as below: the team layer's module loads only where candidates wait
                from .layer.team import candidate_layer

                found = self._layers[CANDIDATE_DIR] = candidate_layer(self.home, self.project_root, self.settings)
            if found is not None:
                layers.append(found)
        return layers

    def has_team(self) -> bool:
        """True when the project's repository has a team directory (the
        ``team_dir`` setting; created by ``memdir team init``)."""
        if self.root_path is None:
            return False
        try:
            return os.path.isdir(self.layer_path("team"))
        except ScopeError:  # a linked team directory is no team layer; using it says why
            return False

    def check_scope(self, scope: str) -> str:
        """``scope`` when this session can use it. Raises :class:`InvalidInput`
        for an unknown scope, :class:`ScopeError` for an unusable one."""
        if scope not in SCOPES:
            raise InvalidInput(f"invalid scope: {scope!r} (expected 'project', 'team' or 'user')")
        if scope == "user" and not self.settings.enable_user_scope:
            raise ScopeError("user scope is disabled by configuration (enable_user_scope = false); use 'project'")
        if scope in ("project", "team") and self.root_path is None:
            raise ScopeError(f"project scope unavailable: {self.project_error} "
                             "(facts about the person can still be saved with scope 'user')")
        if scope == "team" and not os.path.isdir(self.layer_path("team")):
            raise ScopeError(f"team scope unavailable: {self.layer_path('team')} does not exist; "
                             "a person creates it with `memdir team init` (then commits it)")
        if scope == "team" and self.actor != "human" and not self.team_trusted():
            from .files.trust import untrusted_note

            raise ScopeError(f"team scope unavailable: {untrusted_note(self.layer_path('team'))}")
        return scope

    def scopes_for(self, scope: str | None) -> tuple[str, ...]:
        """``scope`` alone (checked), or every scope of the session for None."""
        return self.scopes() if scope is None else (self.check_scope(scope),)

    def project(self) -> Path:
        """The project root. Raises :class:`ScopeError` saying why there is none."""
        if self.project_root is None:
            raise ScopeError(str(self.project_error))
        return self.project_root

    # ------------------------------------------------------------ layers

    def layer_path(self, scope: str) -> str:
        """The directory of ``scope``'s layer (checked; not created), a string (the rule;
        :meth:`layer_dir` gives it as a :class:`~pathlib.Path`)."""
        found = self._dirs.get(scope)
        if found is None:
            if scope == "team":
                if self.root_path is None:
                    self.check_scope(scope)
                found = self._dirs[scope] = team_files_path(self.checkout_path, self.settings.team_dir)
                return found
            self.check_scope(scope)
            found = self._dirs[scope] = (user_layer_path(self.home_path) if scope == "user"
                                         else project_layer_path(self.home_path, self.root_path))
        return found

    def layer_dir(self, scope: str) -> Path:
        """:meth:`layer_path` as a :class:`~pathlib.Path`."""
        from pathlib import Path

        return Path(self.layer_path(scope))

    def meta_path(self, scope: str) -> str | None:
        """Where ``scope``'s derived index and stamp live when not in its
        layer directory (the team layer's: in the home), a string; None otherwise (the rule;
        :meth:`meta_dir` gives it as a :class:`~pathlib.Path`)."""
        return team_meta_path(self.home_path, self.checkout_path) if scope == "team" else None

    def meta_dir(self, scope: str) -> Path | None:
        """:meth:`meta_path` as a :class:`~pathlib.Path`, or None."""
        found = self.meta_path(scope)
        if found is None:
            return None
        from pathlib import Path

        return Path(found)

    def layer(self, scope: str):
        """The :class:`~memdir.layer.layer.Layer` of ``scope``, opened once per
        session. Raises :class:`InvalidInput`, :class:`ScopeError`."""
        if scope == "team":  # checked every time: sessions of other actors share the opened layers
            self.check_scope(scope)
            return self._open_team()
        found = self._layers.get(scope)
        if found is None:
            from .layer.layer import Layer  # late: YAML and locking load only when a layer is used

            found = self._layers[scope] = Layer(self.layer_dir(scope), scope, self.settings,
                                                self.project_root if scope == "project" else None)
        return found

    def _open_team(self):
        found = self._layers.get("team")
        if found is None:
            from pathlib import Path

            from .layer.team import team_layer  # late, as below

            found = self._layers["team"] = team_layer(self.home, Path(self.checkout_path), self.settings)
        return found

    def layers(self, scope: str | None = None) -> list:
        """The layers of :meth:`scopes_for` ``scope``: user, team, project."""
        return [self.layer(s) for s in self.scopes_for(scope)]


def open_session(home: str | os.PathLike | None = None, project: str | os.PathLike | None = None, *,
                 actor: str = "agent", session_id: str | None = None, settings: Settings | None = None,
                 overrides: dict | None = None, use_cwd: bool = True, environ=None) -> Session:
    """The session of one entry point (see the module docstring for the rules).

    ``project``: the explicit project directory (None or ``""``: none given).
    ``use_cwd``: with no ``project``, fall back to ``MEMDIR_PROJECT`` and then
    the working directory (False for hooks, the queue and ingest, whose
    project comes from their input alone). ``settings``:
    already merged settings (``overrides`` then apply on top); otherwise they
    are loaded from ``home``. ``environ``: the environment (default
    ``os.environ``).

    Raises :class:`ScopeError` for a project source that is not an existing
    directory, :class:`InvalidInput` for an unknown actor or unreadable settings.
    """
    environ = os.environ if environ is None else environ
    home_dir = home_path(home, environ)
    if settings is None:
        settings = load_settings(home_dir, overrides, environ)
    elif overrides:
        settings = settings.replace(**{k: v for k, v in overrides.items() if v is not None})
    source, error = project_source(project, use_cwd=use_cwd, environ=environ)
    root = checkout = None
    if source is not None:
        root, checkout, error = root_paths_of(source)
    return Session(home_dir, settings, root, error or NO_PROJECT, actor, session_id, checkout,
                   source if root is not None else None)


__all__ = ["MAX_ID_BYTES", "Session", "bounded_id", "open_session"]
