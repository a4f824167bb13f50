"""Which ``tool_output_token_limit`` Codex applies in a project: the one reader of Codex's config layers for it
(``memdir install codex`` sizes its server's reads by it, ``memdir doctor`` rechecks it).

Codex 0.171 merges its ``config.toml`` layers, a later one winning: the system's (``/etc/codex/config.toml``),
the user's (``$CODEX_HOME/config.toml``), a ``--profile NAME`` file (``$CODEX_HOME/NAME.config.toml``), the
project's — ``.codex/config.toml`` of each folder from the project root (its git top) down to the session's working
folder, the closest winning, each read only when the user's file trusts the project (``[projects."<root>"]
trust_level = "trusted"``) or that folder itself (:func:`folder_trusted`) — then the legacy managed file (``/etc/codex/managed_config.toml``), which wins over all of those,
and ``-c`` options. Measured on the real binary (trial22, trial23: an ``exec_command`` printing 6,000 bytes under
a limit of 300 tokens, model gpt-5.5): cut with the limit in the user's file, in ``/etc/codex/config.toml`` (but
whole under a user's 20,000), in ``managed_config.toml`` (also under a user's or a trusted project's 20,000), in a
trusted project's file, in a subfolder's ``.codex/config.toml`` when the session starts there or below (not when
it starts at the root; whole under a closer 20,000), in ``--profile``'s file or in ``-c``; whole with it in an
untrusted project's file, and with a project's 20,000 over the user's 300 (the project wins). A ``[profiles.NAME]``
table with ``profile = "NAME"`` is refused by 0.171 ("no longer supported"). A profile and ``-c`` are chosen per
run, so neither is read here: the layers every session of the project reads are.

A project installed into (``--scope project``) has its own entry, serving every folder of the project, so it is
sized by the smallest limit a session started in any of them applies (:func:`project_limit`); the user's entry
serves every project, so it is sized by the smallest limit any of them applies (:func:`smallest_limit`): smaller
parts cost a read call more, a larger one is cut by Codex.

What the entry states is a ceiling, never a budget (:func:`entry_env`): ``MEMDIR_TOOL_OUTPUT_CEILING``, the bytes
Codex keeps whole there, which caps memdir's ``tool_output_max_bytes`` (:data:`memdir.settings.TOOL_OUTPUT_CEILING`).
An entry that set ``MEMDIR_TOOL_OUTPUT_MAX_BYTES`` itself overrode a person's own ``tool_output_max_bytes`` (their
``config.toml``, or that variable in their own user entry, which Codex 0.171 merges with a project's entry key by
key: measured, trial24, a project entry's 11,900 over a user entry's 4,000).
"""

from __future__ import annotations

from pathlib import Path

KEY = "tool_output_token_limit"
TRUSTED = "trusted"  # the trust_level of a project whose .codex/ Codex loads
SYSTEM = Path("/etc/codex")  # Codex's system folder on Unix (a fixed path in the binary)
PROJECT_CONFIG = Path(".codex") / "config.toml"
LIST_SECONDS = 5.0  # at most this long to list a trusted project's folders (install and doctor wait for it)


CEILING = "MEMDIR_TOOL_OUTPUT_CEILING"  # memdir.settings.TOOL_OUTPUT_CEILING
LEGACY = "MEMDIR_TOOL_OUTPUT_MAX_BYTES"  # what memdir's entries stated before trial24 (a budget, overriding the person's)


def kept_bytes(limit: int | None) -> int:
    """UTF-8 bytes of one memory_read output Codex keeps whole under a ``tool_output_token_limit`` of ``limit``
    tokens (None or not an integer: Codex's default, memdir's default budget): never more than memdir's default
    budget, never less than the setting's floor (1,000)."""
    from ...settings import CLAMPS, DEFAULTS
    from ..claude_code.dialects import codex_kept_bytes

    default = int(DEFAULTS["tool_output_max_bytes"])
    if not isinstance(limit, int) or isinstance(limit, bool):
        return default
    return min(default, max(int(CLAMPS["tool_output_max_bytes"][0]), codex_kept_bytes(limit)))


def entry_env(limit: int | None, named: bool = False, before: dict | None = None, written: dict | None = None) -> dict:
    """The ``env`` table of memdir's ``[mcp_servers.memdir]`` entry for the ``tool_output_token_limit`` ``limit``
    Codex applies where it serves (tokens; None: Codex's default): ``{CEILING: "<kept_bytes>"}`` when Codex keeps
    less than memdir's default budget, or with ``named`` always (a project's entry, merged into the user's key by
    key); and the person's own variables of ``before`` (the entry's env until now). What is memdir's there goes,
    replaced by the rule now: the ceiling, and each variable holding the value memdir's last install wrote
    (``written``, the env install recorded; a person's own value, such as their ``MEMDIR_TOOL_OUTPUT_MAX_BYTES``,
    was never written by memdir, so it stays). ``written`` None: an install before trial25 recorded nothing, so
    only a ``MEMDIR_TOOL_OUTPUT_MAX_BYTES`` equal to what memdir wrote there before trial24 for this ``limit``
    (:func:`kept_bytes`) can be told for memdir's (:func:`unrecorded` names the rest). ``{}``: no env."""
    from ...settings import DEFAULTS

    kept = kept_bytes(limit)
    env = {key: value for key, value in (before or {}).items() if key != CEILING}
    if written is not None:
        env = {key: value for key, value in env.items() if key not in written or written[key] != value}
    elif env.get(LEGACY) == str(kept):
        del env[LEGACY]
    if kept < int(DEFAULTS["tool_output_max_bytes"]) or named:
        env[CEILING] = str(kept)
    return env


def unrecorded(env: dict, written: dict | None) -> str | None:
    """The ``MEMDIR_TOOL_OUTPUT_MAX_BYTES`` value of memdir's entry ``env`` that cannot be told for the person's or
    an older memdir install's (which wrote that variable before trial24): the entry's install recorded nothing of
    what it wrote (``written`` None); None when it sets none or the record says whose it is."""
    return env.get(LEGACY) if written is None and isinstance(env.get(LEGACY), str) else None


def _load(path: Path) -> dict:
    """``path`` as TOML; ``{}`` when it is missing or does not parse (Codex would refuse it; doctor says so elsewhere)."""
    import tomllib

    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return {}


def _limit(doc: dict) -> int | None:
    value = doc.get(KEY)
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _trust(user: dict, folder: Path) -> str | None:
    """The ``trust_level`` the user's config (``user``, parsed) gives ``folder`` itself (Codex's
    ``[projects."<path>"]`` table, keyed by the path as written or resolved); None when it has no entry."""
    projects = user.get("projects")
    if not isinstance(projects, dict):
        return None
    for key in (str(folder), str(Path(folder).resolve())):
        entry = projects.get(key)
        if isinstance(entry, dict) and isinstance(entry.get("trust_level"), str):
            return entry["trust_level"]
    return None


def trusted(user: dict, project: Path) -> bool:
    """Whether the user's config (``user``, parsed) trusts ``project`` (Codex's ``[projects."<path>"]`` table,
    keyed by the project's path as written or resolved)."""
    return _trust(user, project) == TRUSTED


def trusts(user_config: Path, project: Path) -> bool:
    """Whether the user's ``config.toml`` at ``user_config`` trusts ``project`` (:func:`trusted`; a file that
    cannot be read or parsed trusts nothing). Never raises."""
    return trusted(_load(Path(user_config)), Path(project))


def folder_trusted(user: dict, project: Path, folder: Path) -> bool:
    """Whether Codex reads ``folder``'s ``.codex/`` (``folder`` inside the project whose root is ``project``): by
    the folder's own ``[projects."<folder>"]`` entry when it has one, else by the root's. Measured on the real
    Codex 0.171 (trial24, ``codex mcp get`` in a subfolder): a subfolder trusted on its own is read under an
    untrusted root (the root's and an unlisted deeper folder's are not); one marked ``untrusted`` under a trusted
    root is skipped (the root's and the deeper folder's are read). When a person trusts a folder in Codex's
    prompt, Codex records the repository's root."""
    own = _trust(user, folder)
    return own == TRUSTED if own is not None else trusted(user, project)


def layers(user_config: Path, project: Path | None = None, cwd: Path | None = None,
           system: Path = SYSTEM) -> list[Path]:
    """The ``config.toml`` files a Codex session in ``project`` (its root; None: no project) started in ``cwd``
    (a folder inside ``project``; None or a folder outside it: the root) reads, lowest first: ``system``/config.toml, ``user_config``,
    then ``.codex/config.toml`` of the root and of each folder down
    to ``cwd`` that Codex reads (:func:`folder_trusted`), and last ``system``/managed_config.toml. Files that do
    not exist are listed too (they set nothing)."""
    out = [Path(system) / "config.toml", Path(user_config)]
    if project is not None:
        user, root = _load(Path(user_config)), Path(project)
        folders = [root]
        parts = Path(cwd).parts[len(root.parts):] if cwd is not None and Path(cwd).is_relative_to(root) else ()
        folders += [root.joinpath(*parts[:n]) for n in range(1, len(parts) + 1)]  # a cwd outside: the root's alone
        out += [folder / PROJECT_CONFIG for folder in folders if folder_trusted(user, root, folder)]
    return out + [Path(system) / "managed_config.toml"]


def token_limit(user_config: Path, project: Path | None = None, cwd: Path | None = None,
                system: Path = SYSTEM) -> tuple[int | None, Path | None]:
    """``(limit, layer)``: the ``tool_output_token_limit`` Codex applies in ``project`` to a session started in
    ``cwd`` (tokens; None: not set, Codex's default) and the file of :func:`layers` that sets it (the last that
    does; None when none does). A value that is not an integer is not a limit. Never raises."""
    found: tuple[int | None, Path | None] = (None, None)
    for path in layers(user_config, project, cwd, system):
        limit = _limit(_load(path))
        if limit is not None:
            found = (limit, path)
    return found


def _folders(project: Path) -> list[Path]:
    """The folders of ``project`` holding a ``.codex/config.toml``, below the root, as git lists them (tracked or
    not, ignored ones too: Codex reads them all); ``[]`` when ``project`` is not a git work tree (Codex's project
    root is the git top) or git cannot list it within :data:`LIST_SECONDS` (a home folder kept in git, trusted)."""
    from ...errors import StoreError
    from ...git import run

    try:
        listed = run(project, "ls-files", "-z", "--cached", "--others", "--", f":(glob)**/{PROJECT_CONFIG.as_posix()}",
                     timeout=LIST_SECONDS)
    except StoreError:
        return []
    names = {name for name in listed.split("\0") if name and name != PROJECT_CONFIG.as_posix()}
    return sorted(project / Path(name).parent.parent for name in names)


def _smaller(found: tuple[int | None, Path | None], other: tuple[int | None, Path | None]):
    if other[0] is not None and (found[0] is None or other[0] < found[0]):
        return other
    return found


def _any_trusted(user: dict, project: Path) -> bool:
    """Whether the user's config trusts ``project`` or a folder inside it (so Codex may read a ``.codex/`` there)."""
    projects = user.get("projects")
    keys = [Path(key) for key in projects] if isinstance(projects, dict) else []
    return trusted(user, project) or any(key.is_relative_to(project) and _trust(user, key) == TRUSTED for key in keys)


def project_limit(user_config: Path, project: Path, system: Path = SYSTEM) -> tuple[int | None, Path | None]:
    """``(limit, layer)``: the smallest ``tool_output_token_limit`` a Codex session started anywhere in
    ``project`` applies (:func:`token_limit` at its root and at each folder with its own ``.codex/config.toml``;
    those only when the project or a folder in it is trusted) and the file that sets it; ``(None, None)`` when none is set. What
    memdir's entry in the project's own ``.codex/config.toml`` is sized by. Never raises."""
    found = token_limit(user_config, project, None, system)
    if _any_trusted(_load(Path(user_config)), Path(project)):
        for folder in _folders(Path(project)):
            found = _smaller(found, token_limit(user_config, project, folder, system))
    return found


def smallest_limit(user_config: Path, system: Path = SYSTEM) -> tuple[int | None, Path | None]:
    """``(limit, layer)``: the smallest ``tool_output_token_limit`` any Codex session of this user reads — outside
    every project (the system's, the user's, the managed file's) or in a trusted project (``[projects."<path>"]``
    of the user's file; :func:`project_limit` of each) — and the file that sets it; ``(None, None)`` when none is
    set (Codex's default everywhere). What the user's memdir entry, serving every project, is sized by. Never
    raises."""
    user = _load(Path(user_config))
    found = token_limit(user_config, None, None, system)
    projects = user.get("projects")
    for key in projects if isinstance(projects, dict) else ():
        if trusted(user, Path(key)):
            found = _smaller(found, project_limit(user_config, Path(key), system))
    return found


__all__ = ["CEILING", "KEY", "LEGACY", "SYSTEM", "entry_env", "folder_trusted", "kept_bytes", "layers", "project_limit", "smallest_limit", "token_limit", "trusted", "trusts", "unrecorded"]
