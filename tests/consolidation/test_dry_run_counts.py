"""A dry run reports what the real run would do (hostile tester, int43): ``memdir ingest --dry-run`` said
"0 change(s)" and ``--json`` ``applied: 0`` while ``consolidate --dry-run`` of the same transcript said "1
change(s) would be made" and the real ingest made it. The count is one rule now
(:attr:`memdir.consolidation.proposals.Outcome.changes`), read by consolidate, ingest and the queue's drain."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from memdir import Memory
from memdir.consolidation.ingest import ingest
from memdir.consolidation.queue import append, drain
from tests.conftest import run_cli
from tests.consolidation.test_cli import cc, names

SAID = "Remember: the release branch is named release/next."


def test_an_ingest_dry_run_counts_the_change_the_real_run_makes(tmp_path, isolated_home, project):
    projects = tmp_path / "claude-config" / "projects"
    cc(projects / "-work-proj" / "sess1.jsonl", project, SAID)
    dry = ingest(Path(isolated_home), project, projects=projects, extractor="rules", dry_run=True)
    assert (dry.changes, dry.dry_run, dry.counts) == (1, True, {"dry-run": 1})  # before: 0 changes
    assert [row.applied for row in dry.transcripts] == [1]
    assert dry.to_dict()["changes"] == 1 and dry.to_dict()["dry_run"] is True
    assert Memory.open(home=isolated_home, project=project).list().memories == ()  # nothing written
    real = ingest(Path(isolated_home), project, projects=projects, extractor="rules")
    assert (real.changes, real.dry_run, real.counts) == (1, False, {"ok": 1})  # control: the run makes that one
    assert [m.name for m in Memory.open(home=isolated_home, project=project).list().memories] == [
        "release-branch-named-next"]


def test_a_drain_dry_run_counts_what_it_would_make(tmp_path, isolated_home, project):
    path = cc(tmp_path / "t.jsonl", project, SAID)
    append(Path(isolated_home), str(path), cwd=str(project), event="SessionEnd")
    rows = drain(Path(isolated_home), extractor="rules", dry_run=True)
    assert [(row.status, row.applied) for row in rows] == [("dry-run", 1)]  # before: ("dry-run", 0)
    append(Path(isolated_home), str(path), cwd=str(project), event="SessionEnd")  # the dry run wrote nothing: again
    assert [(row.status, row.applied) for row in drain(Path(isolated_home), extractor="rules")] == [("ok", 1)]


@pytest.mark.slow  # real subprocesses
def test_the_cli_ingest_dry_run_says_it_in_text_and_json(tmp_path, project):
    config = tmp_path / "claude-config"
    cc(config / "projects" / "-work-proj" / "sess1.jsonl", project, SAID)
    env = {"CLAUDE_CONFIG_DIR": str(config)}
    text = run_cli("ingest", "--claude-code", "--dry-run", "--extractor", "rules", "--project", project, env=env)
    assert text.returncode == 0, text.stderr
    assert text.stdout.rstrip().endswith("1 read in a dry run, nothing written; 1 change(s) would be made")
    data = json.loads(run_cli("ingest", "--claude-code", "--dry-run", "--extractor", "rules", "--json",
                              "--project", project, env=env).stdout)
    assert (data["changes"], data["dry_run"], [r["applied"] for r in data["transcripts"]]) == (1, True, [1])
    alone = json.loads(run_cli("consolidate", config / "projects" / "-work-proj" / "sess1.jsonl", "--dry-run",
                               "--extractor", "rules", "--json", "--project", project).stdout)
    assert (alone["changes"], alone["applied"]) == (1, 0)  # the same count as consolidate's; nothing applied
    assert names(project) == []  # a dry run wrote nothing
    real = run_cli("ingest", "--claude-code", "--extractor", "rules", "--project", project, env=env)
    assert real.stdout.rstrip().endswith("1 consolidated into memories; 1 change(s)")  # control: made, not "would"
    assert names(project) == ["release-branch-named-next"]
