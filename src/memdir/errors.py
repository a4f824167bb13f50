"""The one exception tree of memdir.

Every error memdir raises on purpose derives from :class:`MemdirError`; no
``OSError``, ``sqlite3.Error`` or ``yaml.YAMLError`` leaks out of the public API
(a test checks it). Adapters map the tree: the CLI prints the message and exits
1, the MCP server returns an error result the model can act on.

    MemdirError
    ├── InvalidInput          bad name, scope, type, limit or argument
    │   └── InvalidName
    ├── ScopeError            project scope without a usable project root
    ├── NotFound              no such memory / version / tombstone
    ├── Refused               the gateway will not do this
    │   ├── TombstoneRefused  the value was forgotten; a person must lift it
    │   └── ConfirmationRequired
    ├── Conflict              compare-and-set lost: the target changed
    ├── LockTimeout           the layer lock could not be taken in time
    ├── StoreError            the disk or index failed under us
    ├── ModelError            the extraction model failed (consolidation)
    ├── MissingExtra          a feature needs an optional extra that is not installed
    └── InstallError          an agent's settings file cannot be changed safely
"""

from __future__ import annotations


class MemdirError(Exception):
    """Base of every error memdir raises on purpose."""


class InvalidInput(MemdirError, ValueError):
    """An argument is malformed: a bad name, scope, type, limit or value.

    ``argument``: the argument the message is about, by the name the library and the tools give it (``k``,
    ``scope``), with ``{argument}`` in the message where it is named; ``str()`` names it so, and each interface
    names it its own way with :meth:`worded` (the CLI its flag: ``--limit``, ``--scope``), so one message serves
    every interface and none names another's. None: the message names no argument."""

    def __init__(self, message: str = "", *, argument: str | None = None):
        self.template, self.argument = message, argument
        super().__init__(self.worded(argument) if argument else message)

    def worded(self, name: str | None) -> str:
        """The message naming the argument ``name`` (None: as :attr:`argument`, the library's and tools' name)."""
        return self.template.replace("{argument}", name or self.argument) if self.argument else str(self)


class InvalidName(InvalidInput):
    """A memory name that cannot be normalized to a safe kebab-case file stem."""


class ScopeError(MemdirError):
    """Project scope was asked for but no usable project root is known.

    ``fact``: for a project directory that is not an existing directory, what is wrong with it
    (``project directory '/x' does not exist``) without the way to give another, which the message
    adds for the CLI and MCP (``--project DIR or MEMDIR_PROJECT``); an interface whose project comes
    from elsewhere (a hook: its input's ``cwd``) says its own way. None otherwise."""

    def __init__(self, *args, fact: str | None = None):
        super().__init__(*args)
        self.fact = fact


class NotFound(MemdirError, LookupError):
    """The named memory, version or tombstone does not exist.

    ``deleted``: the (normalized) name of a memory the journal saw deleted, whose versions remain;
    each interface adds its own way to them (the CLI ``memdir history``, the tools ``memory_history``),
    so the message never names another's. None for a name never held. ``elsewhere``: the layer (scope)
    that holds the memory a caller looked for in another one; each interface says how to ask there (the
    CLI ``--scope``, the tools their ``scope`` argument). None when no other layer holds it. ``unreadable``:
    the path of the memory's file when it is there but is no readable memory (permission denied, too
    large, not UTF-8, a directory, a link, conflict markers: the message says which), so no interface
    words it as a file that does not exist. None otherwise."""

    def __init__(self, *args, deleted: str | None = None, elsewhere: str | None = None,
                 unreadable: str | None = None):
        super().__init__(*args)
        self.deleted = deleted
        self.elsewhere = elsewhere
        self.unreadable = unreadable


class Refused(MemdirError):
    """The gateway refuses the operation (policy, not a malformed input).

    ``reactivate``: the name of a superseded memory the refusal says to reactivate (a write to, a restore, pin
    or mute of a superseded memory: :func:`memdir.layer.succession.superseded_refusal`; a tombstone's refusal
    of one that holds the forgotten value: :class:`TombstoneRefused`). The message says so in no interface's
    words; each adapter adds its own way (the CLI's ``--reactivate``, the tools' ``reactivate`` argument, the
    panel's and the memory tool's note that they cannot). None for any other refusal. ``lift``: the id and
    layer scope of a tombstone the message says a person lifts first, with ``memdir tombstone lift``
    (:func:`memdir.tombstones.refusals.lift_command`), which the panel words as its Lift button; None: none."""

    def __init__(self, *args, reactivate: str | None = None, lift: tuple[str, str | None] | None = None):
        super().__init__(*args)
        self.reactivate = reactivate
        self.lift = lift


class TombstoneRefused(Refused):
    """The value matches a tombstone: it was forgotten and may not come back.

    ``tombstone_id`` names the tombstone; a person lifts it with
    ``memdir tombstone lift <id>``. ``stone`` is the tombstone itself (a
    ``memdir.tombstones.match.Tombstone``; memdir always sets it) and
    ``why`` how the value matched it (``the same value``, ``the forgotten
    fact reworded``…): what a caller tells from them is rendered by
    ``memdir.tombstones.refusals`` (``refusal``, ``outcome``), never parsed
    back from the message. ``reactivate``: the name of a superseded memory
    that holds the forgotten value (``memdir.layer.succession.explain_tombstone``):
    after the lift it comes back by being reactivated, which the message says
    in no interface's words — each adapter adds its own way (the CLI's flag,
    the tools' argument, the panel's note); None for any other refusal.
    """

    def __init__(self, message: str, tombstone_id: str = "", *, stone: object = None, why: str = "",
                 reactivate: str | None = None):
        super().__init__(message, reactivate=reactivate)
        self.tombstone_id = tombstone_id
        self.stone = stone
        self.why = why


class ConfirmationRequired(Refused):
    """A destructive operation was asked for without explicit confirmation."""


class Conflict(MemdirError):
    """Compare-and-set failed: the target changed since it was read.

    ``memory``: the (stored) name of the memory whose version moved on since the caller read it
    (:func:`memdir.gateway.compare.unchanged`), and ``current`` that memory's digest now (None: there is
    no such memory now), so an interface can show the version it is; ``memory`` is None for another
    conflict (a name taken, a symbolic link). ``taken``: for a rename refused because the new name is
    another memory's, ``(held, moving, free)`` — the memory that has it, the one not renamed, and a free name
    to rename to; the message names no interface's command, each adds its own way (the CLI ``memdir write
    FREE --rename-from MOVING``, the tools ``memory_write``'s arguments). None otherwise."""

    def __init__(self, *args, memory: str | None = None, current: str | None = None,
                 taken: tuple[str, str, str] | None = None):
        super().__init__(*args)
        self.memory = memory
        self.current = current
        self.taken = taken


class LockTimeout(MemdirError):
    """The layer lock was not acquired within the configured timeout."""


class StoreError(MemdirError):
    """The file system or the derived index failed underneath an operation."""


class ModelError(MemdirError):
    """The extraction model could not be reached or gave an unusable reply."""


class MissingExtra(MemdirError):
    """An optional feature needs a package that is not installed; the
    message names the command that installs the extra the way memdir was installed
    (:func:`memdir.version.install_command`: ``pip install 'memdir[search]'``, from a clone
    ``pip install -e '<clone>[search]'``)."""

    def __init__(self, feature: str, extra: str, package: str):
        from .version import install_command

        super().__init__(f"{feature} needs the {package!r} package, which is not installed: "
                         f"{install_command(extra)}")
        self.extra = extra


class InstallError(MemdirError):
    """An agent's settings file cannot be changed safely (not JSON, not an
    object, unreadable); memdir left it untouched."""
