"""trial28: `extractor_command = "claude -p"` (the README's own example) with memdir installed into Claude Code.
The command's `claude -p` session ran memdir's hooks like any other: its SessionEnd queued its own transcript —
the extraction prompt, which quotes the person's "Remember that …" — for consolidation, whose gate fired on it
and ran `claude -p` again: a model call every few seconds, for good (seen: 10 calls in 48 s, still rising). Now
the command runs with MEMDIR_EXTRACTOR_RUN set and memdir's hooks in that session do nothing. Control: the
person's own `claude -p` session, in the same home and settings, is still queued at its end."""

from __future__ import annotations

import json
import subprocess
import sys
import time

import pytest

from memdir import Memory
from tests.conftest import run_cli
from tests.integrations.clients.realclients import binary, client_env
from tests.messages_server import MessagesServer

SAID = "Remember that the staging database is reset every Sunday night."
REPLY = {"proposals": [{"action": "create", "name": "staging-reset", "type": "project",
                        "description": "The staging database is reset every Sunday night",
                        "body": "Said by the user.", "evidence": SAID}]}


def _seen(home) -> str:
    """What the consolidation queue and its log hold (the transcripts queued, waiting or drained)."""
    return "".join(p.read_text() for p in (home / "queue" / "consolidate.jsonl", home / "logs" / "consolidate.log")
                   if p.exists())


@pytest.mark.slow
def test_the_extractor_command_s_own_claude_session_queues_nothing(tmp_path, isolated_home, project):
    exe = binary("claude")
    user_home = tmp_path / "userhome"
    assert run_cli("install", "claude-code", env={"HOME": str(user_home)}).returncode == 0
    transcript = tmp_path / "session.txt"
    transcript.write_text(f"USER: {SAID}\nASSISTANT: Noted.\n")
    projects = user_home / ".claude" / "projects"
    with MessagesServer(lambda body: json.dumps(REPLY)) as server:
        env = client_env(user_home, isolated_home, ANTHROPIC_BASE_URL=server.url, ANTHROPIC_API_KEY="dummy",
                         DISABLE_AUTOUPDATER="1", CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC="1",
                         MEMDIR_EXTRACTOR_COMMAND=f"{exe} -p")
        done = subprocess.run([sys.executable, "-m", "memdir.cli", "--project", str(project), "consolidate",
                               str(transcript), "--extractor", "command"], capture_output=True, text=True, env=env,
                              cwd=project, timeout=240, stdin=subprocess.DEVNULL)
        assert done.returncode == 0, done.stdout + done.stderr
        extracted = Memory.open(home=isolated_home, project=project).read("staging-reset", count=False).record
        assert (extracted.description, extracted.origin) == (REPLY["proposals"][0]["description"], "extracted")
        sessions = list(projects.glob("*/*.jsonl"))
        assert len(sessions) == 1, sessions  # the extractor's `claude -p` alone (main: its end queued another)
        own = sessions[0]
        assert SAID in own.read_text()  # it quotes the person's words: the gate would fire on it
        assert str(own) not in _seen(isolated_home)  # its SessionEnd (run before claude exits) queued nothing

        # Control: the person's own session in the same setup is queued at its end.
        person = subprocess.run([exe, "-p", "hello", "--output-format", "json"], capture_output=True, text=True,
                                env=env, cwd=project, timeout=180, stdin=subprocess.DEVNULL)
        assert person.returncode == 0, person.stdout + person.stderr
        [theirs] = [p for p in projects.glob("*/*.jsonl") if p != own]
        deadline = time.time() + 20
        while time.time() < deadline and str(theirs) not in _seen(isolated_home):
            time.sleep(0.2)
        assert str(theirs) in _seen(isolated_home)
