"""A commented OpenCode settings file (JSONC) with the real OpenCode: install refuses to rewrite it (one rule for
every client's JSON settings, :func:`memdir.integrations.clients.formats.by_hand`) and prints the entries to add by
hand — which name ``~/.config/opencode/memdir.md``, a file of memdir's own. newuser38: nothing ever created that file,
so a person who followed the instructions had a config pointing at a missing file. Now the refusal says to run the
same install again once the entries are in; that run leaves the person's commented file byte for byte as they made
it and writes memdir.md, and OpenCode then gives the model memdir's guidance beside the person's own instructions.
Uninstall likewise: the entries to take out by hand, then, run again, memdir.md goes."""

from __future__ import annotations

import json

import pytest

from tests.conftest import run_cli
from tests.integrations.clients.realclients import opencode_run


@pytest.mark.slow
def test_the_by_hand_entries_of_a_commented_config_and_a_second_install_give_opencode_memdirs_guidance(
        isolated_home, project, opencode_user):
    user_home, base, mine = opencode_user.user_home, opencode_user.base, opencode_user.mine
    original = ('{\n  // my settings, keep this comment\n  "$schema": "https://opencode.ai/config.json",\n'
                f'  "instructions": [\n    "{mine}", // my style\n  ],\n}}\n')
    config = base / "opencode.jsonc"
    config.write_text(original)
    env = {"HOME": str(user_home)}

    refused = run_cli("install", "opencode", env=env, cwd=project)
    assert refused.returncode == 1 and config.read_text() == original and sorted(p.name for p in base.iterdir()) == [
        "opencode.jsonc"]  # nothing written
    assert f'+    "{base / "memdir.md"}"' in refused.stderr  # the entry names memdir's file …
    assert (f"Then run the same `memdir install` again: it writes memdir's part of {base / 'memdir.md'} and leaves "
            "opencode.jsonc as you made it (nothing was written this time)") in refused.stderr  # … and how it comes
    added = [line[1:] for line in refused.stderr.splitlines() if line.startswith("+") and not line.startswith("++")]
    mcp = added[added.index('  "mcp": {'):]  # the diff's server entry, put in by hand as a person would
    assert mcp[-1] == "  }" and '    "memdir": {' in mcp
    by_hand = original.replace("// my style\n", f'// my style\n    "{base / "memdir.md"}",\n').replace(
        "  ],\n}", "  ],\n" + "\n".join(mcp) + "\n}")
    config.write_text(by_hand)

    done = run_cli("install", "opencode", env=env, cwd=project)
    assert done.returncode == 0, done.stderr
    assert config.read_text() == by_hand  # the person's commented file, byte for byte
    assert "# Persistent memory (memdir)" in (base / "memdir.md").read_text()  # the file the entry names
    _done, main = opencode_run(opencode_user.exe, user_home, isolated_home, project,
                               "Which port does the dev database use?", lambda body: "ok")
    system = json.dumps(main[0]["system"], ensure_ascii=False)
    assert f"Instructions from: {base / 'memdir.md'}" in system and "# Persistent memory (memdir)" in system
    assert "Answer in plain English (the person's own instructions)." in system  # control: and the person's

    refused = run_cli("uninstall", "opencode", env=env, cwd=project)
    assert refused.returncode == 1 and config.read_text() == by_hand and (base / "memdir.md").exists()
    assert "Then run the same `memdir uninstall` again: it takes memdir's part out of" in refused.stderr
    config.write_text(original)  # the person takes the entries out by hand
    done = run_cli("uninstall", "opencode", env=env, cwd=project)
    assert done.returncode == 0, done.stderr
    assert config.read_text() == original  # the person's text, comments and all
    assert not (base / "memdir.md").exists()  # memdir's file gone (OpenCode's own node_modules etc. stay there)
