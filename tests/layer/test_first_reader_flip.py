"""The first reader after a lift or a forget done in another process (or a tombstone put back by a sync) — a
search, ``list``, the prompt hook — takes up the names whose verdict moved alone
(:meth:`memdir.layer.held.HoldsBack.take_up_stones`), as the context block does: it stats and parses the held file,
not every file of the layer, and what it leaves (``MEMORY.md``, ``list``, the search index's rows, the journal, the
context block) is what a full sweep of a copy of the same store leaves. Before, a search after a lift swept the
whole layer (its sync saw the tombstones moved) and its take-up journaled and saved as a full sweep."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.counted import COUNTING
from tests.layer.test_held_moved import FRESH, LARGE, NOTES, _store, _twin
from tests.operations.test_held_back import FORGOTTEN, KEPT, _rewrite

READERS = {"search": '    mem.search("PostgreSQL 5433", k=20, scope="project", min_score=0)\n',
           "list": '    mem.list("project")\n', "none": "    pass\n"}
SCRIPT = FRESH.replace('else:\n    context = mem.context()\n', "".join(
    f'elif step == "{step}":\n{code}' for step, code in READERS.items()) + 'else:\n    context = mem.context()\n')
ENV = {"MEMDIR_SWEEP_INTERVAL": "3600", "MEMDIR_SEARCH_VECTORS": "off"}


def _run(home: Path, root: Path, step: str) -> dict:
    """One fresh process of ``step`` (lift, search, list, none, context), its stats and parses of the project
    layer's files counted, then what a person and the agent see; its JSON line."""
    done = subprocess.run([sys.executable, "-c", SCRIPT.format(large=LARGE, counting=COUNTING), str(home), str(root),
                           step], capture_output=True, text=True, timeout=120, check=False, env={**os.environ, **ENV})
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


def _prompt(home: Path, root: Path, question: str = "which port does Dev PostgreSQL listen on?") -> str:
    """The prompt hook's recall for ``question`` in a fresh process (the layer a large one); "" when none."""
    script = (f"import sys\nfrom memdir.files import sweeps\nsweeps.SWEEP_ALWAYS_MAX = {LARGE}\n"
              "from memdir.hooks import main\nsys.argv = ['memdir.hooks', 'claude-code', 'UserPromptSubmit']\nmain()\n")
    asked = {"session_id": os.urandom(4).hex(), "transcript_path": "/nonexistent/t.jsonl", "cwd": str(root),
             "hook_event_name": "UserPromptSubmit", "prompt": question}
    done = subprocess.run([sys.executable, "-c", script], input=json.dumps(asked), capture_output=True, text=True,
                          timeout=120, check=False, env={**os.environ, **ENV, "MEMDIR_HOME": str(home)})
    assert (done.returncode, done.stderr) == (0, "")
    return json.loads(done.stdout)["hookSpecificOutput"]["additionalContext"] if done.stdout.strip() else ""


SEEN = ("index", "listed", "found", "journal", "held_files", "docs", "files", "context")


@pytest.mark.parametrize("reader", ["search", "list"])
def test_the_first_search_or_list_after_a_flip_takes_up_the_held_file_alone(person, tmp_path, reader):
    home, root, stones, with_stone = _store(person, tmp_path)
    everyone = sorted([*NOTES, "ci"])
    for round_ in range(2):
        subprocess.run([sys.executable, "-c", SCRIPT.format(large=LARGE, counting=COUNTING), str(home), str(root),
                        "lift"], check=True, capture_output=True, env={**os.environ, **ENV})
        twin = _twin(home, tmp_path / f"twin-lift-{round_}")
        fast, full = _run(home, root, reader), _run(twin, root, reader)
        assert (set(fast["parsed"]), set(fast["stats"])) == ({"db-port"}, {"db-port.md"}), (reader, round_)
        assert set(NOTES) <= set(full["parsed"])  # control: the twin (no manifest) read every file
        for what in SEEN:
            assert fast[what] == full[what], (what, round_)
        assert fast["found"] == ["db-port"] and fast["listed"] == sorted([*everyone, "db-port"])  # lifted: back
        assert "(db-port.md)" in fast["index"] and FORGOTTEN in fast["context"] and KEPT in fast["context"]

        _rewrite(stones, with_stone)  # the tombstone put back by a sync
        twin = _twin(home, tmp_path / f"twin-back-{round_}")
        fast, full = _run(home, root, reader), _run(twin, root, reader)
        assert (set(fast["parsed"]), set(fast["stats"])) == ({"db-port"}, {"db-port.md"}), (reader, round_)
        for what in SEEN:
            assert fast[what] == full[what], (what, round_)
        assert fast["found"] == [] and fast["listed"] == everyone  # forgotten again: absent
        assert "(db-port.md)" not in fast["index"] and FORGOTTEN not in fast["context"]
        assert "(ci.md)" in fast["index"] and KEPT in fast["context"]  # control


def test_the_first_prompt_after_a_flip_sees_it(person, tmp_path):
    home, root, stones, with_stone = _store(person, tmp_path)
    person.write("redis-port", "Dev Redis listens on 6380", "project", "Checked on 2026-11-03; ask in #infra first.",
                 scope="project")  # the control recall answers with (a body beyond its MEMORY.md line)
    for round_ in range(2):
        subprocess.run([sys.executable, "-c", SCRIPT.format(large=LARGE, counting=COUNTING), str(home), str(root),
                        "lift"], check=True, capture_output=True, env={**os.environ, **ENV})
        recalled = _prompt(home, root)
        assert FORGOTTEN in recalled, round_  # lifted: recalled
        seen = _run(home, root, "none")
        assert seen["found"] == ["db-port"] and "(db-port.md)" in seen["index"] and FORGOTTEN in seen["context"]
        _rewrite(stones, with_stone)
        recalled = _prompt(home, root)
        assert FORGOTTEN not in recalled, round_
        assert "Dev Redis listens on 6380" in _prompt(home, root, "which port does Dev Redis listen on?")  # control
        seen = _run(home, root, "none")
        assert seen["found"] == [] and "db-port" not in seen["listed"] and "ci" in seen["listed"]
        assert "(db-port.md)" not in seen["index"] and FORGOTTEN not in seen["context"]
