"""A dropped pending finding stays dropped (pending42): `memdir review --drop` said "no session will offer them
again", yet the same sentence in the next transcript was kept again under a new id. A drop now remembers the
finding's words (a digest, not the text: :func:`memdir.prompt.pending.remember_dropped`), and the session end's
extraction (`memdir consolidate --extractor agent`, the real path) keeps no finding of those words again; a
different sentence is kept, and the same sentence is kept where it was never dropped."""

from __future__ import annotations

import json
import os

import pytest

from memdir.prompt import pending
from tests.conftest import run_cli

RIGHT = "Remember that we deploy only on Tuesdays."
WRONG = "Always use the staging bucket s3://wrong-bucket for tests."
NEW = "Remember that the staging deploy needs the VPN."

pytestmark = pytest.mark.slow  # the CLI as a real subprocess, several times a test


def _transcript(where, name: str, *said: str):
    path = where / name
    path.write_text("".join(f"USER: {s}\nASSISTANT: ok\n" for s in said), encoding="utf-8")
    return path


def _consolidate(project, transcript, *extra) -> dict:
    done = run_cli("consolidate", transcript, "--extractor", "agent", "--json", *extra, cwd=project)
    assert done.returncode == 0, done.stdout + done.stderr
    return json.loads(done.stdout)


def _refused(report: dict) -> list[str]:
    return [n for n in report["notes"] if n.endswith("a person dropped it before (memdir review --drop)")]


def _findings(project) -> list[str]:
    return [f["text"] for f in json.loads(run_cli("review", "--json", cwd=project).stdout)["findings"]]


def _drop(project, *ids) -> str:
    done = run_cli("review", *[arg for i in ids for arg in ("--drop", i)], cwd=project)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_a_dropped_sentence_is_not_kept_again_by_the_next_transcript(project, tmp_path):
    first = _transcript(project, "t1.txt", RIGHT, WRONG)
    assert _consolidate(project, first)["pending"] == [RIGHT, WRONG]
    listed = json.loads(run_cli("review", "--json", cwd=project).stdout)["findings"]
    assert [f["text"] for f in listed] == [RIGHT, WRONG]
    out = _drop(project, listed[1]["id"])
    assert out.startswith(f"Dropped 1 pending finding(s), 1 left; no session will offer them again, nor keep the "
                          f"same words said again (the newest {pending.MAX_DROPPED} drops are remembered):\n")

    # the same transcript processed again, and the next session's transcript saying it again (other case and
    # spacing, no period) beside a new sentence: the dropped one is not kept, the new one is (control)
    again = _consolidate(project, first, "--force")
    note = f"pending finding not kept ({WRONG[:60]}): a person dropped it before (memdir review --drop)"
    assert _refused(again) == [note] and again["pending"] == []  # RIGHT: still pending, not kept twice
    assert _findings(project) == [RIGHT]
    said_again = WRONG.lower().rstrip(".").replace(" for ", "  for ")
    second = _transcript(project, "t2.txt", said_again, NEW)
    out = _consolidate(project, second)
    assert out["pending"] == [NEW] and len(_refused(out)) == 1
    assert _findings(project) == [RIGHT, NEW]

    # what the drop keeps: one digest of the words, never the text
    layer = json.loads(run_cli("status", "--json", cwd=project).stdout)
    layer_dir = next(x["path"] for x in layer["layers"] if x["scope"] == "project")
    kept = os.path.join(layer_dir, ".memdir", pending.DROPPED_FILE)
    with open(kept, encoding="utf-8") as handle:
        lines = [json.loads(line) for line in handle]
    assert [line["digest"] for line in lines] == [pending.said_digest(WRONG)]
    with open(kept, encoding="utf-8") as handle:
        assert "wrong-bucket" not in handle.read()


def test_the_same_sentence_is_kept_where_it_was_never_dropped(project, tmp_path):
    """Control: the transcript that says the dropped sentence again, in a project where nobody dropped it."""
    elsewhere = tmp_path / "work" / "other"
    (elsewhere / ".git").mkdir(parents=True)
    first = _transcript(project, "t1.txt", RIGHT, WRONG)
    _consolidate(project, first)
    ids = [f["id"] for f in json.loads(run_cli("review", "--json", cwd=project).stdout)["findings"]]
    _drop(project, ids[1])
    second = _transcript(elsewhere, "t2.txt", WRONG, NEW)
    assert _consolidate(elsewhere, second)["pending"] == [WRONG, NEW]
    assert _findings(elsewhere) == [WRONG, NEW]
    assert _findings(project) == [RIGHT]  # and the drop still holds where it was made


def test_drop_all_remembers_every_finding_it_dropped(project):
    first = _transcript(project, "t1.txt", RIGHT, WRONG)
    _consolidate(project, first)
    assert _drop(project, "all").startswith("Dropped 2 pending finding(s), 0 left;")
    second = _transcript(project, "t2.txt", WRONG, NEW, RIGHT)
    out = _consolidate(project, second)
    assert len(_refused(out)) == 2 and out["pending"] == [NEW]
    assert _findings(project) == [NEW]
