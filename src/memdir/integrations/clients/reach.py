"""Whether the agents memdir is registered with in a project can reach its memories there: the one rule
``memdir doctor`` (each line, with its fix) and ``memdir list`` (one brief note, and ``agent_cannot_see`` in
``--json``) share. A client that memdir's files name but that will not run memdir's server in the project — a
clone whose person has not approved or trusted what the team committed, or a folder a client does not trust —
leaves its agent without the memories that ``memdir list`` shows; so does a team layer this clone has not
trusted (``memdir team trust``), whose memories a person's ``list`` shows and no agent sees.

Each client's own rule stays in its installer: Claude Code's approval of a project's ``.mcp.json``
(:func:`memdir.integrations.claude_code.scopes.approval`), Codex's trust of a project whose ``.codex/`` alone
registers memdir (:func:`memdir.integrations.clients.codex.unseen`), Gemini CLI's folder trust
(:func:`memdir.integrations.clients.gemini.unseen`).
"""

from __future__ import annotations

from pathlib import Path


def unseen(project: Path, user_home: Path | None = None) -> list[str]:
    """One line per client whose agent cannot reach memdir's memories in ``project`` (its root, the git top):
    no session of it runs memdir's server there until the person acts — each ``"<client>: <why>: <fix>"``, in the
    order Claude Code (its server turned off), Codex, Gemini CLI (the folder not trusted); ``[]`` when every client
    memdir is registered with runs its server there (or none is). A ``.mcp.json`` server Claude Code waits to have
    approved is not here (a headless ``claude -p`` runs it): :func:`waiting`. Reads the clients' files only; never
    raises."""
    from ..claude_code.scopes import approval_state
    from . import codex, gemini

    state, line = approval_state(Path(project), user_home)
    lines = [line if state == "off" else "", codex.unseen(Path(project), user_home),
             gemini.unseen(Path(project), user_home)]
    return [line for line in lines if line]


def waiting(project: Path, user_home: Path | None = None) -> list[str]:
    """The line of a client whose agent reaches memdir's memories in ``project`` in a headless session but is asked
    first in an interactive one: Claude Code's approval of a project's ``.mcp.json`` server
    (:func:`memdir.integrations.claude_code.scopes.approval_state`, ``"asks"``: how to approve it ahead); ``[]``
    otherwise. Reads the clients' files only; never raises."""
    from ..claude_code.scopes import approval_state

    state, line = approval_state(Path(project), user_home)
    return [line] if state == "asks" else []


def untrusted_hooks(memdir_home: Path, clients) -> list[str]:
    """What ``memdir doctor`` warns of each client's recorded install beside :func:`unseen`: what its installer
    module's own ``warnings(memdir_home)`` says (Codex: memdir's hooks it will not run until trusted,
    :func:`memdir.integrations.clients.codex.warnings`); ``[]`` for a client without a recorded install or such a
    rule."""
    from . import installer
    from .edits import read_manifest

    out = []
    for client in clients:
        own = getattr(installer(client), "warnings", None) if read_manifest(memdir_home, client) else None
        out += own(memdir_home) if own else []
    return out


def team(session, listed) -> str:
    """``"team: <why>"`` when ``listed`` (memories shown to a person: objects with a ``scope``) holds team-layer
    memories that reach no agent, because this clone has not trusted the repository's team layer
    (:meth:`memdir.session.Session.team_untrusted`; the line is :func:`memdir.files.trust.untrusted_note`'s);
    else ``""``."""
    from ...files.trust import untrusted_note

    if not (session.team_untrusted() and any(getattr(m, "scope", None) == "team" for m in listed)):
        return ""
    return f"team: {untrusted_note(session.layer_dir('team'))}"


def clients_of(lines: list[str]) -> list[str]:
    """The client names that :func:`unseen`'s ``lines`` begin with, in order (a :func:`team` line left out)."""
    return [line.split(":", 1)[0] for line in lines if not line.startswith("team:")]


def note(lines: list[str], asks: list[str] = ()) -> str:
    """The one brief line ``memdir list`` prints for :func:`team`'s and :func:`unseen`'s ``lines`` and
    :func:`waiting`'s ``asks`` (``""`` for none): a client waiting for approval is said to reach the memories in a
    headless session and to ask first in an interactive one (newuser46: "cannot reach" right after a ``claude -p``
    that wrote memories through memdir's server)."""
    parts = []
    if any(line.startswith("team:") for line in lines):
        parts.append("no agent sees the team layer's memories (not trusted in this clone: review them, then "
                     "`memdir team trust`)")
    if clients_of(lines):
        # "the memories here", not "these": `list` says it under "No memories yet." too (trial29)
        parts.append(f"the agent in {', '.join(clients_of(lines))} cannot reach the memories here with memdir's "
                     "tools (its client does not run memdir's server in this project; `memdir doctor` says why "
                     "and how to fix it)")
    if clients_of(list(asks)):
        parts.append(f"the agent in {', '.join(clients_of(list(asks)))} reaches the memories here in a headless "
                     "session; an interactive session asks the person first to approve memdir's server in this "
                     "project (approve it then, or ahead: `memdir doctor` says how)")
    return f"note: {'; '.join(parts)}" if parts else ""


__all__ = ["clients_of", "note", "team", "unseen", "untrusted_hooks", "waiting"]
