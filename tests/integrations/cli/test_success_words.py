"""Each command's success line names its own act, as the journal records it (DESIGN §5): `memdir forget`
says it forgot (it said "Deleted memory:"), `memdir delete` that it deleted; pin, unpin, mute and unmute say
what was done ("Pinned: …"; they said "pin: NAME", the command's own word, not what happened)."""

from __future__ import annotations

import json

from tests.conftest import run_cli


def _write(project, name: str, description: str):
    done = run_cli("write", name, "-d", description, "-t", "project", "--body", "", "--project", project)
    assert done.returncode == 0, done.stderr


def test_forget_and_delete_each_say_their_act(isolated_home, project):
    _write(project, "wrong-port", "The dev database listens on 5432")
    _write(project, "old-port", "The test database listens on 5434")
    forgot = run_cli("forget", "wrong-port", "--project", project)
    deleted = run_cli("delete", "old-port", "--project", project)  # control: delete keeps its word
    assert forgot.stdout.startswith("Forgot memory: wrong-port (project). Its value is tombstoned"), forgot.stdout
    assert deleted.stdout.startswith("Deleted memory: old-port (project). Its value is tombstoned"), deleted.stdout
    journal = json.loads(run_cli("--json", "journal", "--project", project).stdout)
    acts = {(e["action"], e["name"]) for e in journal["entries"]}
    assert {("forget", "wrong-port"), ("delete", "old-port")} <= acts  # the acts the journal records


def test_flags_say_what_was_done(isolated_home, project):
    _write(project, "ci-runner", "CI runs on the self-hosted runner")
    said = [run_cli(verb, "ci-runner", "--project", project).stdout.strip()
            for verb in ("pin", "pin", "unpin", "mute", "unmute")]
    assert said == ["Pinned: ci-runner (project)", "Already pinned: ci-runner (project)",
                    "Unpinned: ci-runner (project)", "Muted: ci-runner (project)", "Unmuted: ci-runner (project)"]
