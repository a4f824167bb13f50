"""`memdir install CLIENT` says at once what `memdir doctor` would count as a problem (newuser31): a server
registered that cannot start because the ``mcp`` package is missing. The rule is doctor's own
(:func:`memdir.operations.maintenance.unserved`); the package is hidden as ``importlib`` sees a module
that cannot be imported (``sys.modules[name] = None``), in-process through the CLI's ``main``."""

from __future__ import annotations

import json
import sys

from memdir.integrations.cli.main import main
from memdir.version import install_command

MCP_LINE = ("memdir {verb} into claude-code, but its MCP server (`memdir mcp`) cannot start: the 'mcp' package is "
            f"not installed ({install_command('mcp')})")


def test_install_warns_when_the_server_it_registers_cannot_start(isolated_home, project, monkeypatch, capsys):
    # Control: with the mcp package there, the install says no warning.
    assert main(["--project", str(project), "install", "claude-code", "--dry-run"]) == 0
    out, err = capsys.readouterr()
    assert "would be created" in out and "warning" not in err and "MCP server" not in err

    monkeypatch.setitem(sys.modules, "mcp", None)
    assert main(["--project", str(project), "install", "claude-code", "--dry-run"]) == 0
    out, err = capsys.readouterr()
    assert "would be created" in out
    assert err.splitlines() == ["memdir: warning: " + MCP_LINE.format(verb="would be installed")]

    assert main(["--project", str(project), "install", "claude-code", "--json"]) == 0  # done: said so
    out, err = capsys.readouterr()
    said = json.loads(out)
    assert said["warnings"] == ["warning: " + MCP_LINE.format(verb="is installed")]
    assert said["applied"] is True and said["action"] == "install"
    assert err.splitlines() == ["memdir: warning: " + MCP_LINE.format(verb="is installed")]
