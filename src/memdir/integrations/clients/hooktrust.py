"""Whether Codex trusts memdir's hooks, read from Codex's own record (``memdir doctor``).

Codex 0.171 runs a hook of ``hooks.json`` only once the person trusted it (its ``/hooks`` review) and keeps
that decision in the user's ``$CODEX_HOME/config.toml`` — the one layer whose hook state it reads — as
``[hooks.state."<hooks.json path>:<event in snake_case>:<group index>:<hook index>"]`` with
``trusted_hash = "sha256:<hex>"`` (and ``enabled = false`` for a hook the person turned off). The hash is
SHA-256 of the compact JSON, keys sorted, of ``{"event_name": <snake event>, "matcher": <the group's matcher,
absent when none>, "hooks": [{"type": "command", "command": …, "timeout": <seconds>, "async": false}]}``:
read from the real binary (``codex app-server``'s ``hooks/list`` gives each hook's ``key``, ``currentHash`` and
``trustStatus``; memdir's five hooks hash as it says: trial20). A hook whose recorded hash differs from its
current one was changed since it was trusted (Codex: "Modified since last trusted - review required") and
does not run either.
"""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path

UNTRUSTED, MODIFIED, DISABLED, TRUSTED = "untrusted", "modified", "disabled", "trusted"
DEFAULT_TIMEOUT = 600  # seconds: Codex's for a command hook without one


def snake(event: str) -> str:
    """Codex's key label of hook ``event``: ``UserPromptSubmit`` -> ``user_prompt_submit``."""
    return re.sub(r"(?<!^)(?=[A-Z])", "_", event).lower()


def hook_hash(event: str, matcher: str | None, command: str, timeout: int | None) -> str:
    """``"sha256:<64 hex>"``: the hash Codex trusts a command hook by (the module docstring)."""
    identity: dict = {"event_name": snake(event), "hooks": [
        {"type": "command", "command": command, "timeout": max(1, timeout or DEFAULT_TIMEOUT), "async": False}]}
    if matcher is not None:
        identity["matcher"] = matcher
    text = json.dumps(identity, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return "sha256:" + hashlib.sha256(text.encode("utf-8")).hexdigest()


def states(hooks_json: Path, user_config: Path, ours) -> list[tuple[str, str]]:
    """``[(event, state)]`` of each hook of ``hooks_json`` that ``ours(hook)`` says is memdir's, in file order:
    :data:`TRUSTED`, :data:`MODIFIED` (trusted with other contents), :data:`DISABLED` (turned off in /hooks) or
    :data:`UNTRUSTED`, as ``user_config`` (the user's ``config.toml``) records it. ``[]`` when ``hooks_json``
    cannot be read or parsed; a ``user_config`` that cannot be read records no trust."""
    import tomllib

    try:
        groups_by_event = json.loads(hooks_json.read_text(encoding="utf-8")).get("hooks") or {}
    except (OSError, ValueError, AttributeError):
        return []
    try:
        recorded = tomllib.loads(user_config.read_text(encoding="utf-8")).get("hooks", {}).get("state", {})
    except (OSError, ValueError, AttributeError):
        recorded = {}
    recorded = recorded if isinstance(recorded, dict) else {}
    out = []
    for key, event, group, hook in _placed(hooks_json, groups_by_event, ours):
        state = recorded.get(key)
        state = state if isinstance(state, dict) else {}
        timeout = hook.get("timeout") if isinstance(hook.get("timeout"), int) else None
        current = hook_hash(event, group.get("matcher"), hook.get("command"), timeout)
        if state.get("enabled") is False:
            out.append((event, DISABLED))
        elif state.get("trusted_hash") is None:
            out.append((event, UNTRUSTED))
        else:
            out.append((event, TRUSTED if state.get("trusted_hash") == current else MODIFIED))
    return out


def _placed(hooks_json: Path, groups_by_event, ours) -> list[tuple[str, str, dict, dict]]:
    """``[(key, event, group, hook)]`` of each hook of the parsed ``hooks.json`` (its ``hooks`` object) that
    ``ours(hook)`` says is memdir's, in file order; ``key`` is where Codex records its trust."""
    out = []
    for event, groups in groups_by_event.items() if isinstance(groups_by_event, dict) else ():
        for g, group in enumerate(groups if isinstance(groups, list) else ()):
            hooks = group.get("hooks") if isinstance(group, dict) else None
            for h, hook in enumerate(hooks if isinstance(hooks, list) else ()):
                if ours(hook):
                    out.append((f"{hooks_json}:{snake(event)}:{g}:{h}", event, group, hook))
    return out


def keys(hooks_json: Path, ours) -> list[str]:
    """The keys under which Codex records its trust in each of memdir's hooks of ``hooks_json`` (``ours(hook)``
    says which), in file order; ``[]`` when the file cannot be read or parsed. Uninstall takes those records out
    of the user's ``config.toml`` with the hooks (newuser37: five ``[hooks.state."…"]`` tables for hooks no longer
    there were left behind once the person had approved memdir's hooks in /hooks)."""
    try:
        groups_by_event = json.loads(hooks_json.read_text(encoding="utf-8")).get("hooks") or {}
    except (OSError, ValueError, AttributeError):
        return []
    return [key for key, _, _, _ in _placed(hooks_json, groups_by_event, ours)]


__all__ = ["DISABLED", "MODIFIED", "TRUSTED", "UNTRUSTED", "hook_hash", "keys", "snake", "states"]
