"""memdir's Claude Code hooks registered in both scopes: the user's
``~/.claude/settings.json`` and a project's ``.claude/settings.json``. Claude
Code runs the hooks of both, so every SessionStart would inject the memory
context twice (and every prompt recall twice). ``memdir install`` warns when an
install makes it so and ``memdir doctor`` reports it; the rule is
:func:`twice`, read from the files as they are (no manifest needed).
"""

from __future__ import annotations

from pathlib import Path


def hooked_scopes(user_home: Path | None = None, project: Path | None = None) -> list[tuple[str, Path]]:
    """``(scope, settings.json)`` for each scope whose settings file holds a
    memdir hook (the project scope only with ``project``). A file that cannot
    be read counts as holding none; one path shared by both scopes (a project
    at the home directory) counts once."""
    from .install import InstallError, is_memdir_hook, read_settings, targets

    found: list[tuple[str, Path]] = []
    for scope in ("user", "project") if project is not None else ("user",):
        path = targets(scope, user_home, project)[0]
        if any(path == seen for _, seen in found):
            continue
        try:
            _, data = read_settings(path)
        except InstallError:
            continue
        hooks = data.get("hooks")
        groups = [g for v in hooks.values() if isinstance(v, list) for g in v] if isinstance(hooks, dict) else []
        if any(is_memdir_hook(h) for g in groups if isinstance(g, dict) and isinstance(g.get("hooks"), list)
               for h in g["hooks"]):
            found.append((scope, path))
    return found


def twice(scopes: list[tuple[str, Path]]) -> str:
    """The warning for memdir hooks in more than one scope, else ``""``."""
    if len(scopes) < 2:
        return ""
    where = " and ".join(f"{path} ({scope} scope)" for scope, path in scopes)
    return (f"memdir's hooks are registered twice, in {where}: Claude Code runs both, so the memory context is "
            "injected twice; keep one (memdir uninstall claude-code --scope user, or --scope project)")


__all__ = ["hooked_scopes", "twice"]
