"""The prompt hook without the ``search`` extra (no ``snowballstemmer``): recall cannot run, and what the hook
holds for the prompt is still given. Gemini's start text is held on disk by SessionStart and taken by the next
prompt (dialects.START_AT_PROMPT); the prompt's recall failing with MissingExtra lost it, and with it the
pending findings that prompt was to give (found by trial22)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from memdir import Memory
from memdir.prompt import pending
from memdir.version import install_command

FINDING = "Remember that the release is cut on Thursdays."


def _hook(project, event: str, payload: dict, *, extra: bool) -> subprocess.CompletedProcess:
    """``memdir hook gemini EVENT`` in a fresh process, ``snowballstemmer`` blocked unless ``extra``."""
    block = "" if extra else "sys.modules['snowballstemmer'] = None\n"
    code = (f"import runpy, sys\n{block}sys.argv = ['memdir.hooks', 'gemini', {event!r}]\n"
            "try:\n    runpy.run_module('memdir.hooks', run_name='__main__')\nexcept SystemExit:\n    pass\n")
    data = {"session_id": "s1", "cwd": str(project), "transcript_path": "/nonexistent", "hook_event_name": event,
            **payload}
    done = subprocess.run([sys.executable, "-c", code], input=json.dumps(data), capture_output=True, text=True,
                          timeout=60, cwd=project, env={**os.environ, "MEMDIR_SEARCH_VECTORS": "off"})
    assert done.returncode == 0, done.stderr
    return done


def _context(done: subprocess.CompletedProcess) -> str:
    return json.loads(done.stdout)["hookSpecificOutput"]["additionalContext"] if done.stdout.strip() else ""


def test_a_held_gemini_start_and_its_findings_are_given_by_a_prompt_that_cannot_recall(isolated_home, project):
    mem = Memory.open(home=isolated_home, project=project, actor="human", search_vectors="off")
    mem.write("db-port", "Dev PostgreSQL listens on 5433", "project", "Moved from 5432 on 2026-11-02.")
    assert mem.consolidate([{"role": "user", "content": FINDING}], extractor="agent").pending == (FINDING,)
    layer = mem.session.layer_path("project")

    assert _hook(project, "SessionStart", {"source": "startup"}, extra=False).stdout == ""  # held for the prompt
    first = _hook(project, "BeforeAgent", {"prompt": "which port does postgres use?"}, extra=False)
    context = _context(first)
    assert "<memory_context>" in context and "[db-port](db-port.md)" in context  # was "": the held start lost
    assert context.count("<memory_pending>") == 1 and "Thursdays" in context
    assert "<memory_recall>" not in context  # no recall without the extra, and the hook says so
    assert first.stderr.strip() == ("memdir hook BeforeAgent: no recall: search needs the 'snowballstemmer' package,"
                                    f" which is not installed: {install_command('search')}")
    assert list(pending.showings(layer).values()) == [{"s1"}]  # the finding counted as shown once given

    second = _hook(project, "BeforeAgent", {"prompt": "which port does postgres use?"}, extra=False)
    assert _context(second) == ""  # the start was given once, the finding once per session

    # Control: with the extra, the same prompt of a new session recalls the memory's body beside the held start.
    assert _hook(project, "SessionStart", {"source": "startup", "session_id": "s2"}, extra=True).stdout == ""
    recalled = _context(_hook(project, "BeforeAgent", {"prompt": "which port does postgres use?",
                                                        "session_id": "s2"}, extra=True))
    assert "<memory_context>" in recalled and "<memory_recall>" in recalled and "Moved from 5432" in recalled
