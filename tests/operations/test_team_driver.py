"""A second clone that follows the README runs only `memdir team trust`: that registers the merge driver
too, and `team status`/`doctor` say when a clone lacks it and the one command that fixes it; a list during
a merge conflict says the memories cannot be read, not that there are none (a new user's trial, issue 24)."""

from __future__ import annotations

import pytest

from tests.conftest import run_cli
from tests.teamgit import diverge, git, shared_repository

pytestmark = pytest.mark.slow

LACKS = "this clone has no merge driver for team memory files"


def cli(clone, *args):
    return run_cli("--home", clone.home, "--project", clone.root, *args)


def test_team_trust_registers_the_driver_and_status_and_doctor_say_when_it_is_missing(tmp_path):
    a, b = shared_repository(tmp_path, trust=False)
    a.memory().write("db-port", "Dev PostgreSQL listens on 5433", "project", "Checked.\nAsk in #infra.\n",
                     scope="team")
    a.publish("team memory", b)
    assert git(b.root, "config", "--local", "--get", "merge.memdir.driver", check=False).stdout == ""
    for args in (("team", "status"), ("doctor",), ("status",)):
        out = cli(b, *args)
        assert LACKS in out.stdout and "run `memdir team trust` here once" in out.stdout, (args, out.stdout)
    assert LACKS not in cli(a, "team", "status").stdout  # control: the clone that ran team init has it
    trusted = cli(b, "team", "trust")
    assert trusted.returncode == 0, trusted.stderr
    assert "merge driver was set in its .git/config" in trusted.stdout
    driver = git(b.root, "config", "--local", "--get", "merge.memdir.driver").stdout.strip()
    assert driver.endswith(" -m memdir merge-file %O %A %B %P")
    for args in (("team", "status"), ("doctor",)):
        assert LACKS not in cli(b, *args).stdout
    # Two people change different fields of one memory: the clone that only trusted merges cleanly.
    pulled = diverge(a, b, "db-port", {"description": "Dev PostgreSQL listens on 5434"},
                     {"body": "Checked.\nAsk in #platform.\n"}, pause=1.1)
    assert pulled.returncode == 0, pulled.stdout + pulled.stderr
    record = b.memory().read("db-port", "team", count=False).record
    assert (record.description, record.body) == ("Dev PostgreSQL listens on 5434", "Checked.\nAsk in #platform.")


def test_a_list_during_a_merge_conflict_says_the_memories_cannot_be_read(tmp_path):
    a, b = shared_repository(tmp_path)
    a.memory().write("db-port", "Dev PostgreSQL listens on 5433", "project", "Checked.", scope="team")
    a.publish("team memory", b)
    empty = cli(b, "list", "--scope", "project")
    assert empty.stdout.strip() == "No memories yet."  # control: an empty layer with nothing unreadable
    git(b.root, "config", "--local", "--remove-section", "merge.memdir")  # a line-by-line merge: it conflicts
    assert diverge(a, b, "db-port", {"description": "Dev PostgreSQL listens on 5434"},
                   {"description": "Dev PostgreSQL listens on 6543"}, pause=1.1).returncode != 0
    out = cli(b, "list", "--scope", "team")
    assert "No memories yet." not in out.stdout
    assert out.stdout.splitlines()[0] == ("No memory can be read: 1 file(s) cannot be read, 1 of them in an "
                                          "unresolved merge conflict (memdir team status shows how to settle it).")
    assert "unresolved merge conflict" in out.stdout.splitlines()[1]


UNNAMED = "git does not merge team memory files with memdir's driver (merge is 'unspecified' for them"


def test_a_pulled_commit_that_removes_the_gitattributes_line_is_said_with_the_command_that_adds_it_back(tmp_path):
    """B's clone has the driver registered, then pulls A's commit that deletes the team directory's
    .gitattributes: git no longer uses the driver there (a change of `updated:` on both sides then conflicts),
    yet doctor said "ok". Now doctor and `team status` say so and name `memdir team init`, which adds it back."""
    a, b = shared_repository(tmp_path)
    for args in (("team", "status"), ("doctor",)):
        out = cli(b, *args)
        assert UNNAMED not in out.stdout and LACKS not in out.stdout, out.stdout  # control: the line is there
    assert git(b.root, "check-attr", "merge", "--", ".claude/memory/x.md").stdout.endswith(": memdir\n")
    git(a.root, "rm", "-q", ".claude/memory/.gitattributes")
    a.publish("drop the attributes", b)
    for args in (("team", "status"), ("doctor",)):
        out = cli(b, *args)
        assert UNNAMED in out.stdout and "run `memdir team init` to add the line back" in out.stdout, out.stdout
    assert cli(b, "doctor").returncode == 0  # a note, not a counted problem, as the missing driver is
    again = cli(b, "team", "init")
    assert again.returncode == 0, again.stderr
    assert "*.md merge=memdir" in (b.team_dir / ".gitattributes").read_text().splitlines()
    assert UNNAMED not in cli(b, "doctor").stdout


GONE = "the merge driver registered in this clone runs /gone/venv/bin/python3, which is not there any more"


def test_a_driver_whose_program_is_gone_is_said_and_registered_again_by_team_trust(tmp_path):
    """break39: the clone's driver named a virtualenv's Python that was removed; git ran it, took its failure
    for a conflict and left B's side alone in the file, without markers — `team status` called it "settled,
    not yet added", and `git add` dropped A's text. Status and doctor said nothing; `team trust` kept the
    dead driver. Now both name the missing program and `team trust` registers the driver again."""
    _, b = shared_repository(tmp_path)
    for args in (("team", "status"), ("doctor",)):
        assert "merge driver" not in cli(b, *args).stdout  # control: the driver team trust registered runs
    git(b.root, "config", "--local", "merge.memdir.driver", "/gone/venv/bin/python3 -m memdir merge-file %O %A %B %P")
    for args in (("team", "status"), ("doctor",), ("status",)):
        out = cli(b, *args)
        assert GONE in out.stdout and "run `memdir team trust` here once to register it again" in out.stdout, out.stdout
    trusted = cli(b, "team", "trust")
    assert trusted.returncode == 0, trusted.stderr
    driver = git(b.root, "config", "--local", "--get", "merge.memdir.driver").stdout.strip()
    assert driver.endswith(" -m memdir merge-file %O %A %B %P") and not driver.startswith("/gone/")
    assert "merge driver" not in cli(b, "team", "status").stdout
    git(b.root, "config", "--local", "merge.memdir.driver", "env memdir merge-file %O %A %B %P")  # a name on PATH
    kept = cli(b, "team", "trust")
    assert git(b.root, "config", "--local", "--get", "merge.memdir.driver").stdout.strip() == \
        "env memdir merge-file %O %A %B %P", kept.stdout  # a driver that runs is kept as it is


@pytest.mark.parametrize("line, value", [("db-port.md merge=binary", "binary"), ("db-port.md -merge", "unset"),
                                          ("db-*.md merge=union", "union")])
def test_a_gitattributes_line_overriding_the_driver_for_one_file_is_said(tmp_path, line, value):
    """break39: a committed line for one file (`db-port.md merge=binary`) took memdir's driver away from it
    alone: a pull of two edits kept one side without markers (`team status`: "settled, not yet added") or,
    with `union`, joined both descriptions unsaid. Status and doctor probed only a made-up `memory.md`."""
    a, _ = shared_repository(tmp_path, trust=False)
    a.memory().write("db-port", "Dev PostgreSQL listens on 5433", "project", scope="team")
    a.memory().write("ci", "CI runs on GitHub Actions", "project", scope="team")
    assert "merge driver" not in cli(a, "team", "status").stdout  # control: the driver applies to every file
    attributes = a.team_dir / ".gitattributes"
    attributes.write_text(attributes.read_text() + line + "\n")
    said = (f"git does not merge 1 team memory file(s) with memdir's driver (db-port.md: merge is {value!r}, "
            "set by a .gitattributes line for them)")
    for args in (("team", "status"), ("doctor",)):
        out = cli(a, *args)
        note = next((text for text in out.stdout.splitlines() if said in text), "")
        assert note and "ci.md" not in note, out.stdout  # the file the line names, not the others
