"""trial29: `memdir doctor` listed pending findings, `memdir review` said "No candidates waiting for review"
and no command removed a wrong one — it aged out after two sessions. `memdir review` lists them now, with
their ids, and `memdir review --drop ID|all` removes them (:mod:`memdir.operations.findings`)."""

from __future__ import annotations

import json

import pytest

from memdir.errors import NotFound
from memdir.prompt import pending
from tests.conftest import run_cli

RIGHT = "Remember that we deploy only on Tuesdays."
WRONG = "Always use the staging bucket s3://wrong-bucket for tests."


def _consolidate(project):
    transcript = project / "t.txt"
    transcript.write_text(f"USER: {RIGHT}\nASSISTANT: ok\nUSER: Actually, {WRONG[0].lower()}{WRONG[1:]}\n"
                          "ASSISTANT: ok\n", encoding="utf-8")
    done = run_cli("consolidate", transcript, "--extractor", "agent", cwd=project)
    assert done.returncode == 0 and "2 pending" in done.stdout, done.stdout + done.stderr


@pytest.mark.slow
def test_review_lists_pending_findings_and_drop_removes_the_wrong_one(project, mem):
    _consolidate(project)
    listed = json.loads(run_cli("review", "--json", cwd=project).stdout)
    assert listed["candidates"] == [] and [f["text"] for f in listed["findings"]] == [RIGHT, WRONG]
    wrong_id = listed["findings"][1]["id"]
    text = run_cli("review", cwd=project).stdout
    assert f"  {wrong_id}  (" in text and f"“{WRONG}”" in text and "memdir review --drop ID" in text
    dropped = run_cli("review", "--drop", wrong_id, "--json", cwd=project)
    assert dropped.returncode == 0, dropped.stderr
    assert [f["text"] for f in json.loads(dropped.stdout)["dropped"]] == [WRONG]
    assert json.loads(dropped.stdout)["left"] == 1
    # the wrong one is gone from every place that showed it; the right one (control) is still offered
    context = run_cli("context", cwd=project, env={"MEMDIR_SEARCH_VECTORS": "off"}).stdout
    assert RIGHT in context and "wrong-bucket" not in context
    doctor = run_cli("doctor", cwd=project).stdout
    assert RIGHT in doctor and "wrong-bucket" not in doctor
    assert [f.text for f in mem.findings().findings] == [RIGHT]


@pytest.mark.slow
def test_an_unknown_id_drops_nothing_and_all_drops_every_one(project, mem):
    _consolidate(project)
    ids = [f.id for f in mem.findings().findings]
    refused = run_cli("review", "--drop", ids[0], "--drop", "0123456789ab", cwd=project)
    assert refused.returncode == 1 and refused.stderr == (
        f"memdir: no pending finding 0123456789ab in this project ({', '.join(sorted(ids))}); "
        "`memdir review` lists them\n")
    assert [f.id for f in mem.findings().findings] == ids  # all or none: the known id was not dropped either
    everything = run_cli("review", "--drop", "all", cwd=project)
    assert everything.returncode == 0 and everything.stdout.startswith("Dropped 2 pending finding(s)")
    assert mem.findings().findings == () and pending.load(mem.session.layer_dir("project")) == []
    assert run_cli("review", cwd=project).stdout == "No candidates waiting for review.\n"
    with pytest.raises(NotFound, match="none is pending"):
        mem.drop_findings(["0123456789ab"])
    assert mem.drop_findings(["all"]).dropped == ()


def test_findings_stay_out_of_another_scope_review(project, mem):
    layer = mem.session.layer("project")
    mem.write("seed", "Project uses pnpm workspaces", "project", "x")
    with layer.locked():
        pending.add(layer.path, [("remember", RIGHT)], "s1")
    assert [f.text for f in mem.findings().findings] == [RIGHT]
    user = json.loads(run_cli("--project", project, "review", "--scope", "user", "--json").stdout)
    assert user == {"candidates": [], "findings": [], "answered_findings": []}  # the same keys as any review
    both = json.loads(run_cli("--project", project, "review", "--json").stdout)
    assert [f["text"] for f in both["findings"]] == [RIGHT]
