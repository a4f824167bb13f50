"""The coding agents memdir installs into (DESIGN §10): ``edits`` (the one
rule of install and uninstall: what memdir adds to a client's settings
files and how exactly that is removed again), and one installer per client
beside Claude Code's (:mod:`memdir.integrations.claude_code.install`):
``codex``, ``gemini``, ``cursor``, ``opencode``. Each has ``install(scope,
memdir_home, …)`` and ``uninstall(scope, memdir_home, …)`` returning an
:class:`memdir.integrations.clients.edits.Plan`.
"""

from ...operations.installed import CLIENTS

# client name -> module of its installer (one for each of operations.installed.CLIENTS, in its order)
INSTALLERS = {
    "claude-code": "memdir.integrations.claude_code.install",
    "codex": "memdir.integrations.clients.codex",
    "gemini": "memdir.integrations.clients.gemini",
    "cursor": "memdir.integrations.clients.cursor",
    "opencode": "memdir.integrations.clients.opencode",
}
assert tuple(INSTALLERS) == CLIENTS


def installer(client: str):
    """The installer module of ``client`` (a key of :data:`INSTALLERS`)."""
    import importlib

    return importlib.import_module(INSTALLERS[client])


__all__ = ["INSTALLERS", "installer"]
