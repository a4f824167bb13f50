"""What the CLI says of an act uses one word for it (trial28): a dry run says what it would do ("would-import",
not "would-imported"); a tombstone says the act the journal recorded (`memdir delete` → "deleted by", `memdir
forget` → "forgotten by"). Real CLI subprocesses."""

from __future__ import annotations

import re

from tests.conftest import run_cli

MEMORY = "---\nname: db-port\ndescription: Dev PostgreSQL listens on {port}\ntype: project\n---\n5432 is taken.\n"


def test_an_import_dry_run_says_what_it_would_do(tmp_path, isolated_home, project):
    config = tmp_path / "claude-config"
    memory = config / "projects" / re.sub(r"[^A-Za-z0-9]", "-", str(project)) / "memory"
    memory.mkdir(parents=True)
    (memory / "db-port.md").write_text(MEMORY.format(port=5433), encoding="utf-8")
    env = {"CLAUDE_CONFIG_DIR": str(config)}
    dry = run_cli("import", "claude-code", "--dry-run", "--project", project, env=env)
    assert dry.returncode == 0, dry.stderr
    assert "\n  would-import     db-port (project)  ← db-port.md\n" in dry.stdout and "would-imported" not in dry.stdout
    assert "would be: 1 imported, 0 updated, 0 candidate, 0 unchanged, 0 skipped" in dry.stdout
    done = run_cli("import", "claude-code", "--project", project, env=env)  # control: the real run's past tense
    assert "\n  imported         db-port (project)  ← db-port.md\n" in done.stdout
    assert "\n1 imported, 0 updated" in done.stdout and "would" not in done.stdout
    (memory / "db-port.md").write_text(MEMORY.format(port=5434), encoding="utf-8")
    changed = run_cli("import", "claude-code", "--dry-run", "--project", project, env=env)
    assert "\n  would-update     db-port (project)  ← db-port.md  — the source changed\n" in changed.stdout
    assert "would-updated" not in changed.stdout


def test_a_tombstone_says_the_act_the_journal_recorded(isolated_home, project):
    for name, description, act in (("staging", "Staging is staging-7.internal", "delete"),
                                   ("ci", "CI runs on ci-3.internal", "forget")):
        assert run_cli("write", name, "-d", description, "--project", project).returncode == 0
        assert run_cli(act, name, "--project", project).returncode == 0
    journal = run_cli("journal", "--project", project).stdout
    assert re.search(r"\bdelete +staging v2\b", journal) and re.search(r"\bforget +ci v2\b", journal)
    listed = run_cli("tombstones", "--project", project).stdout.splitlines()
    assert [re.search(r"(?:deleted|forgotten) by human", line).group(0) for line in listed] == [
        "deleted by human", "forgotten by human"]  # was "forgotten by human" for both
    refused = run_cli("write", "staging-2", "-d", "Staging is staging-7.internal", "--project", project)
    assert refused.returncode == 1 and "memory 'staging', deleted by human on " in refused.stderr
