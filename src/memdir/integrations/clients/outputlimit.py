"""Which ``tool_output_token_limit`` Codex applies in a project: the one reader of Codex's config layers for it
(``memdir install codex`` sizes its server's reads by it, ``memdir doctor`` rechecks it).

Codex 0.171 merges its ``config.toml`` layers, a later one winning: the user's (``$CODEX_HOME/config.toml``), a
``--profile NAME`` file (``$CODEX_HOME/NAME.config.toml``), the project's ``<root>/.codex/config.toml`` — read only
when the user's file trusts the project (``[projects."<root>"] trust_level = "trusted"``) — and ``-c`` options.
Measured on the real binary (trial22: an ``exec_command`` printing 6,000 bytes under a limit of 300 tokens, model
gpt-5.5): cut with the limit in the user's file, in a trusted project's file, in ``--profile``'s file or in ``-c``;
whole with it in an untrusted project's file, and with a project's 20,000 over the user's 300 (the project wins).
A ``[profiles.NAME]`` table with ``profile = "NAME"`` is refused by 0.171 ("no longer supported"). A profile and
``-c`` are chosen per run, so neither is read here: the layers every session of the project reads are.

A project installed into (``--scope project``) has its own entry, sized by the limit in effect there
(:func:`token_limit`); the user's entry serves every project, so it is sized by the smallest limit any of them
applies (:func:`smallest_limit`): smaller parts cost a read call more, a larger one is cut by Codex.
"""

from __future__ import annotations

from pathlib import Path

KEY = "tool_output_token_limit"
TRUSTED = "trusted"  # the trust_level of a project whose .codex/ Codex loads


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


def trusted(user: dict, project: Path) -> bool:
    """Whether the user's config (``user``, parsed) trusts ``project`` (Codex's ``[projects."<path>"]`` table,
    keyed by the project's path as written or resolved)."""
    projects = user.get("projects")
    if not isinstance(projects, dict):
        return False
    for key in {str(project), str(Path(project).resolve())}:
        entry = projects.get(key)
        if isinstance(entry, dict) and entry.get("trust_level") == TRUSTED:
            return True
    return False


def layers(user_config: Path, project: Path | None = None) -> list[Path]:
    """The ``config.toml`` files every Codex session in ``project`` (its root; None: the user's layer alone)
    reads, lowest first: ``user_config``, then ``<project>/.codex/config.toml`` when the user's file trusts the
    project. Files that do not exist are listed too (they set nothing)."""
    out = [Path(user_config)]
    if project is not None and trusted(_load(Path(user_config)), Path(project)):
        out.append(Path(project) / ".codex" / "config.toml")
    return out


def token_limit(user_config: Path, project: Path | None = None) -> tuple[int | None, Path | None]:
    """``(limit, layer)``: the ``tool_output_token_limit`` Codex applies in ``project`` (tokens; None: not set,
    Codex's default) and the file of :func:`layers` that sets it (the last that does; None when none does).
    A value that is not an integer is not a limit. Never raises."""
    found: tuple[int | None, Path | None] = (None, None)
    for path in layers(user_config, project):
        limit = _limit(_load(path))
        if limit is not None:
            found = (limit, path)
    return found


def smallest_limit(user_config: Path) -> tuple[int | None, Path | None]:
    """``(limit, layer)``: the smallest ``tool_output_token_limit`` any Codex session of this user reads — the
    user's own (every project without one of its own) or a trusted project's own (``[projects."<path>"]`` of the
    user's file, each project's ``.codex/config.toml``) — and the file that sets it; ``(None, None)`` when none is
    set (Codex's default everywhere). What the user's memdir entry, serving every project, is sized by. Never
    raises."""
    user = _load(Path(user_config))
    found = (_limit(user), Path(user_config) if _limit(user) is not None else None)
    projects = user.get("projects")
    for key in projects if isinstance(projects, dict) else ():
        if not trusted(user, Path(key)):
            continue
        path = Path(key) / ".codex" / "config.toml"
        limit = _limit(_load(path))
        if limit is not None and (found[0] is None or limit < found[0]):
            found = (limit, path)
    return found


__all__ = ["KEY", "layers", "smallest_limit", "token_limit", "trusted"]
