"""Team memory files merge field by field through memdir's git merge driver, with real git (issue 24 §3)."""

from __future__ import annotations

import json
import time

import pytest

from memdir.errors import InvalidInput
from tests.conftest import run_cli
from tests.operations.test_team import team_section
from tests.teamgit import diverge, git, shared_repository

BODY = "Checked on 2026-11-02.\nThe system cluster keeps 5432.\nAsk in #infra before changing it.\n"


@pytest.fixture
def clones(tmp_path):
    """A and B sharing one team memory; B has run `memdir team init` in its clone (the driver registered)."""
    a, b = shared_repository(tmp_path)
    a.memory().write("db-port", "Dev PostgreSQL listens on 5433", "project", BODY, scope="team")
    a.memory().write("ci", "CI runs on GitHub Actions", "project", scope="team")
    a.publish("team memories", b)
    b.memory().team_init()  # adopts the directory; registers the driver in B's .git/config
    return a, b


def _diverge(a, b, a_change: dict, b_change: dict):
    """A changes db-port and pushes; B changes it and commits; B pulls (:func:`tests.teamgit.diverge`, each change a
    second after the last: the `updated:` lines differ, as between two people). Returns git's answer to the pull."""
    return diverge(a, b, "db-port", a_change, b_change, pause=1.1)


@pytest.mark.slow
def test_team_init_registers_the_driver_in_gitattributes_and_this_clone_s_config(tmp_path):
    root, home = tmp_path / "app", tmp_path / "home"
    git(tmp_path, "init", "-q", "-b", "main", str(root))
    out = run_cli("--home", home, "--project", root, "team", "init")
    assert out.returncode == 0, out.stderr
    assert "*.md merge=memdir" in (root / ".claude" / "memory" / ".gitattributes").read_text().splitlines()
    driver = git(root, "config", "--local", "--get", "merge.memdir.driver").stdout.strip()
    assert driver.endswith(" -m memdir merge-file %O %A %B %P")
    assert "set in its .git/config" in out.stdout
    assert 'git config merge.memdir.driver "memdir merge-file %O %A %B %P"' in out.stdout  # for another clone
    # An older directory adopted: the attribute is added, its own lines kept; a driver already set is kept.
    attributes = root / ".claude" / "memory" / ".gitattributes"
    attributes.write_text("*.json -diff\n", encoding="utf-8")
    # a driver whose program is found (`env`, on every PATH) is kept; one whose program is gone is replaced
    # (tests/operations/test_team_driver.py: break39)
    git(root, "config", "--local", "merge.memdir.driver", "env memdir merge-file %O %A %B %P")
    again = run_cli("--home", home, "--project", root, "team", "init")
    assert attributes.read_text().splitlines()[0] == "*.json -diff" and "*.md merge=memdir" in attributes.read_text()
    assert git(root, "config", "--local", "--get", "merge.memdir.driver").stdout.strip() == \
        "env memdir merge-file %O %A %B %P"
    assert "merge.memdir.driver = env memdir merge-file %O %A %B %P" in again.stdout


@pytest.mark.slow
def test_different_fields_changed_in_two_clones_merge_cleanly_with_both(clones):
    a, b = clones
    pulled = _diverge(a, b, {"description": "Dev PostgreSQL listens on 5434 since December"},
                      {"body": BODY.replace("Ask in #infra", "Ask in #platform")})
    assert pulled.returncode == 0, pulled.stdout + pulled.stderr
    text = (b.team_dir / "db-port.md").read_text()
    assert "description: Dev PostgreSQL listens on 5434 since December" in text  # A's field
    assert "Ask in #platform before changing it." in text and "#infra" not in text  # B's field
    assert "<<<<<<<" not in text and text.count("updated:") == 1
    updated = [git(c.root, "show", "HEAD:.claude/memory/db-port.md").stdout.split("updated: ")[1][:20]
               for c in (a, b)]
    assert f"updated: {max(updated)}" in text and updated[0] != updated[1]  # the later of the two
    mem = b.memory()
    assert mem.read("db-port", count=False).record.body == BODY.replace("#infra", "#platform").strip()
    assert "Dev PostgreSQL listens on 5434 since December" in team_section(mem.context())
    assert git(b.root, "status", "--porcelain").stdout == ""  # merged and committed by git itself


@pytest.mark.slow
def test_without_the_driver_the_same_edits_conflict_on_the_updated_line(clones):
    """The control: the clone that has not registered the driver merges line by line, as git does."""
    a, b = clones
    git(b.root, "config", "--local", "--remove-section", "merge.memdir")
    pulled = _diverge(a, b, {"description": "Dev PostgreSQL listens on 5434 since December"},
                      {"body": BODY.replace("Ask in #infra", "Ask in #platform")})
    assert pulled.returncode != 0
    assert "<<<<<<<" in (b.team_dir / "db-port.md").read_text()


@pytest.mark.slow
def test_the_same_field_conflicts_alone_stays_out_of_context_and_resolves_per_field(clones):
    a, b = clones
    pulled = _diverge(
        a, b, {"description": "Dev PostgreSQL listens on 5434 since December",
               "body": BODY.replace("Checked on 2026-11-02.", "Checked again on 2026-12-01.")},
        {"description": "Dev PostgreSQL listens on 6543 in the container",
         "body": BODY.replace("Ask in #infra", "Ask in #platform")})
    assert pulled.returncode != 0
    assert "both sides changed description" in pulled.stdout + pulled.stderr  # the driver's line, shown by git
    text = (b.team_dir / "db-port.md").read_text()
    assert text.count("<<<<<<<") == 1 and "<<<<<<< ours (description)" in text  # the description alone
    assert "Checked again on 2026-12-01." in text and "Ask in #platform" in text  # the body merged
    mem = b.memory()
    block = mem.context()
    assert "CI runs on GitHub Actions" in team_section(block)  # control: the rest is injected
    assert "5434" not in block and "6543" not in block and "db-port" not in block
    assert any(p.endswith("db-port.md") for p in mem.team_status().conflicts)
    with pytest.raises(InvalidInput, match="conflicts in: description; choose a side"):
        mem.team_resolve("db-port")
    env = {"MEMDIR_HOME": str(b.home)}
    wrong = run_cli("team", "resolve", "db-port", "--field", "title=ours", "--project", b.root, env=env)
    assert wrong.returncode == 1 and "no conflict in title (conflicting: description)" in wrong.stderr
    done = run_cli("team", "resolve", "db-port", "--field", "description=theirs", "--project", b.root, env=env)
    assert done.returncode == 0, done.stderr
    assert "kept theirs of description" in done.stdout
    settled = (b.team_dir / "db-port.md").read_text()
    assert "description: Dev PostgreSQL listens on 5434 since December" in settled  # theirs: A's, pulled
    assert "6543" not in settled and "<<<<<<<" not in settled
    assert "Checked again on 2026-12-01." in settled and "Ask in #platform" in settled  # both body edits kept
    assert "Dev PostgreSQL listens on 5434 since December" in team_section(b.memory().context())
    git(b.root, "add", "-A")
    git(b.root, "commit", "-q", "-m", "merge")
    assert git(b.root, "status", "--porcelain").stdout == ""


@pytest.mark.slow
def test_a_forgotten_memory_changed_on_the_other_side_is_named_with_its_tombstone(clones):
    """A forgets db-port (file deleted, tombstone added) while B changes its body: git stops on a
    modify/delete conflict and leaves B's file, which holds no marker. `team status` names it with the
    tombstone and the command that keeps it forgotten; the control, ci deleted by a plain `git rm` while
    B changed it, is named without a tombstone; a memory git merged (none left unmerged) gets no such line."""
    a, b = clones
    time.sleep(1.1)
    a.memory().forget("db-port", scope="team")
    git(a.root, "rm", "-q", ".claude/memory/ci.md")
    a.commit_all("A forgets db-port, removes ci")
    a.push()
    stone = next(s.id for s in a.memory().tombstones().tombstones if s.name == "db-port")
    before = b.memory().team_status()
    assert before.deleted_on_one_side == ()  # control: nothing unmerged yet
    time.sleep(1.1)
    b.memory().write("db-port", scope="team", body=BODY.replace("Ask in #infra", "Ask in #platform"))
    b.memory().write("ci", scope="team", body="Runners: linux-x64.")
    b.commit_all("B's change")
    pulled = b.pull(check=False)
    assert pulled.returncode != 0 and "modify/delete" in pulled.stdout + pulled.stderr
    status = b.memory().team_status()
    assert status.deleted_on_one_side == ((".claude/memory/ci.md", "ci", "", False),
                                          (".claude/memory/db-port.md", "db-port", stone, True))
    out = run_cli("team", "status", "--project", b.root, env={"MEMDIR_HOME": str(b.home)})
    assert out.returncode == 0, out.stderr
    assert (f"deleted on one side, changed on the other: .claude/memory/db-port.md — db-port was forgotten "
            f"(tombstone {stone}); held back until settled: "
            f"`git rm .claude/memory/db-port.md` keeps it forgotten; `memdir tombstone lift {stone} --scope team` "
            "then `git add` keeps the changed text") in out.stdout  # vers22: the lift's --scope
    assert ("deleted on one side, changed on the other: .claude/memory/ci.md — `git rm` it to keep the deletion, "
            "or `git add` it to keep the changed text") in out.stdout
    # team resolve names the modify/delete case rather than "no unresolved merge conflict" (team43)
    env = {"MEMDIR_HOME": str(b.home)}
    for args in ((), ("--ours",)):
        shown = run_cli("team", "resolve", "ci", *args, "--project", b.root, env=env)
        assert shown.returncode != 0
        assert ("'ci' was deleted on one side of the merge and changed on the other (.claude/memory/ci.md): there "
                "are no conflict markers to choose between — `git rm` it to keep the deletion") in shown.stderr
    # ci had no tombstone: no lift said (the control of the next one)
    assert "tombstone" not in shown.stderr and "memdir tombstone lift" not in shown.stderr
    # db-port was forgotten: its changed text is held back until the tombstone is lifted, and resolve says so,
    # with the command, in its text and its --json (left44c)
    lifted = (f"'db-port' was deleted on one side of the merge and changed on the other (.claude/memory/db-port.md): "
              f"there are no conflict markers to choose between — it was forgotten (tombstone {stone}), and the "
              "changed text is held back by that tombstone: `git rm .claude/memory/db-port.md` keeps it forgotten; "
              f"to keep the changed text, lift the tombstone first — `memdir tombstone lift {stone} --scope team` — "
              "then `git add .claude/memory/db-port.md`")
    shown = run_cli("team", "resolve", "db-port", "--theirs", "--project", b.root, env=env)
    assert shown.returncode == 1 and f"memdir: {lifted}" in shown.stderr, shown.stderr
    shown = run_cli("team", "resolve", "db-port", "--json", "--project", b.root, env=env)
    assert shown.returncode == 1
    assert json.loads(shown.stdout) == {"error": lifted, "kind": "NotFound"}
    none = run_cli("team", "resolve", "runbook", "--project", b.root, env=env)  # control: no such conflict
    assert "no unresolved merge conflict for 'runbook'" in none.stderr and "deleted on one side" not in none.stderr


@pytest.mark.slow
def test_the_merge_commit_of_a_field_merge_is_in_history_and_restores_the_merged_text(clones):
    """trial31: `memdir history NAME --scope team` used `git log --follow`, which leaves out merge commits: the
    merge that made the current text (A's description, B's body) was not listed, so that text had no commit to
    restore from. Now it is listed once, first, and restoring from it gives the merged text back. Controls: A's
    and B's own commits are listed too; restoring from B's commit gives B's text (the description before A's)."""
    a, b = clones
    pulled = _diverge(a, b, {"description": "Dev PostgreSQL listens on 5434 since December"},
                      {"body": BODY.replace("Ask in #infra", "Ask in #platform")})
    assert pulled.returncode == 0, pulled.stdout + pulled.stderr
    merged = (b.team_dir / "db-port.md").read_bytes()
    merge = git(b.root, "rev-parse", "HEAD").stdout.strip()
    assert len(git(b.root, "rev-parse", "HEAD^@").stdout.split()) == 2  # a merge commit
    mem = b.memory()
    commits = mem.history("db-port", scope="team").commits
    assert [c.commit for c in commits][:1] == [merge]
    assert [c.message for c in commits[1:]] == ["B's change", "A's change", "team memories"]
    out = run_cli("history", "db-port", "--scope", "team", "--project", b.root, env={"MEMDIR_HOME": str(b.home)})
    assert merge[:12] in out.stdout and out.stdout.count(merge[:12]) == 1
    theirs = next(c.commit for c in commits if c.message == "B's change")
    mem.restore("db-port", commit=theirs, scope="team")
    assert mem.read("db-port", count=False).record.description == "Dev PostgreSQL listens on 5433"  # control
    restored = mem.restore("db-port", commit=merge, scope="team")
    assert (restored.commit, restored.operation) == (merge, "updated")
    record = mem.read("db-port", count=False).record
    assert record.description == "Dev PostgreSQL listens on 5434 since December"
    assert record.body == BODY.replace("#infra", "#platform").strip()
    assert b"Ask in #platform" in merged


@pytest.mark.slow
def test_the_conflicted_file_a_resolve_kept_is_in_history_but_restores_nothing(clones):
    """newuser32: `memdir team resolve` keeps the conflicted file as a version (nothing lost), and `memdir
    restore NAME --version N` of it failed deep in the write with the writer's advice ("put the lines in a
    fenced code block (```) or indent them"), which a restore cannot follow. Now the restore says what the
    version is and what to do, and changes nothing. Control: B's own version before the pull restores."""
    a, b = clones
    pulled = _diverge(a, b, {"description": "Dev PostgreSQL listens on 5434 since December"},
                      {"description": "Dev PostgreSQL listens on 6543 in the container"})
    assert pulled.returncode != 0
    env = {"MEMDIR_HOME": str(b.home)}
    done = run_cli("team", "resolve", "db-port", "--field", "description=theirs", "--project", b.root, env=env)
    assert done.returncode == 0, done.stderr
    versions = b.memory().history("db-port", scope="team").versions
    kept = [v.version for v in versions if v.description == "unresolved merge conflict"]
    mine = [v.version for v in versions if v.description == "Dev PostgreSQL listens on 6543 in the container"]
    assert len(kept) == 1 and mine
    settled = (b.team_dir / "db-port.md").read_bytes()
    out = run_cli("restore", "db-port", "--version", str(kept[0]), "--scope", "team", "--project", b.root, env=env)
    assert out.returncode == 1
    assert (f"version {kept[0]} of 'db-port' is not a memory: it holds an unresolved merge conflict (the file git "
            "left, as it was before it was settled); restore another version (`memdir history db-port`)") in out.stderr
    assert "fenced code block" not in out.stderr
    assert (b.team_dir / "db-port.md").read_bytes() == settled  # nothing changed
    back = run_cli("restore", "db-port", "--version", str(mine[-1]), "--scope", "team", "--project", b.root, env=env)
    assert back.returncode == 0, back.stderr  # control: a version that is a memory restores
    assert b.memory().read("db-port", count=False).record.description == "Dev PostgreSQL listens on 6543 in the container"


@pytest.mark.slow
def test_a_rename_in_one_clone_and_an_edit_in_the_other_wait_for_a_person(clones):
    """A renames db-port to dev-db-port (memdir keeps db-port.md, superseded) and pushes; B edits db-port's
    body and pulls. Before, the driver took A's retirement and B's body alike: B's edit lived on only in a
    superseded file, out of the index, and git, doctor and `team status` said nothing. Now the retiring keys
    are conflict hunks: the file is held back, `team resolve` names them, --ours keeps B's edit live."""
    a, b = clones
    time.sleep(1.1)
    a.memory().write("dev-db-port", scope="team", rename_from="db-port")
    a.commit_all("A renames db-port")
    a.push()
    time.sleep(1.1)
    b.memory().write("db-port", scope="team", body=BODY.replace("Ask in #infra", "Ask in #platform"))
    b.commit_all("B's edit")
    pulled = b.pull(check=False)
    assert pulled.returncode != 0
    said = pulled.stdout + pulled.stderr  # A (theirs, merged in) renamed it; B (ours) changed its body
    assert "theirs renamed or superseded it (status, valid_until, superseded_by) while ours changed it;" in said
    assert "both sides changed" not in said
    text = (b.team_dir / "db-port.md").read_text()
    assert "<<<<<<< ours (status)" in text and "Ask in #platform" in text
    status = b.memory().team_status()
    assert [p.rsplit("/", 1)[-1] for p in status.conflicts] == ["db-port.md"]
    assert "CI runs on GitHub Actions" in team_section(b.memory().context())  # control: the rest is injected
    env = {"MEMDIR_HOME": str(b.home)}
    done = run_cli("team", "resolve", "db-port", "--ours", "--project", b.root, env=env)
    assert done.returncode == 0, done.stderr
    listed = {m.name: m for m in b.memory().list(scope="team").memories}
    assert set(listed) == {"ci", "db-port", "dev-db-port"}  # B's edit is live beside A's renamed copy
    assert "Ask in #platform" in b.memory().read("db-port", scope="team").record.body
    assert "Ask in #infra" in b.memory().read("dev-db-port", scope="team").record.body


@pytest.mark.slow
def test_a_forgotten_memory_changed_into_another_fact_on_the_other_side_is_said_to_be_in_use(clones):
    """trial35: A forgets db-port while B changes it into another fact (a new port and body): git stops on
    modify/delete and leaves B's file, whose value no tombstone matches, so it is no held-back file: the context
    block shows it. `team status` said "held back until settled" (and to lift the tombstone to keep it); now it
    says the agent sees it and that `git add` keeps it. Control: the body-only change of the test above is held
    back and said so."""
    a, b = clones
    time.sleep(1.1)
    a.memory().forget("db-port", scope="team")
    a.commit_all("A forgets db-port")
    a.push()
    stone = next(s.id for s in a.memory().tombstones().tombstones if s.name == "db-port")
    time.sleep(1.1)
    # a new fact in description and body: a body kept word for word would still be the forgotten one (tomb37's rule 5)
    b.memory().write("db-port", "Dev PostgreSQL listens on 5434 since December", scope="team",
                     body="Moved on 2026-12-01.\nThe dev cluster now keeps 5434.\nAsk in #platform first.\n")
    b.commit_all("B's change")
    pulled = b.pull(check=False)
    assert "modify/delete" in pulled.stdout + pulled.stderr
    status = b.memory().team_status()
    assert status.deleted_on_one_side == ((".claude/memory/db-port.md", "db-port", stone, False),)
    assert "Dev PostgreSQL listens on 5434 since December" in team_section(b.memory().context())  # in use
    out = run_cli("team", "status", "--project", b.root, env={"MEMDIR_HOME": str(b.home)})
    assert (f"deleted on one side, changed on the other: .claude/memory/db-port.md — db-port was forgotten "
            f"(tombstone {stone}), but the changed text is not the forgotten value, so the agent sees it until "
            "settled: `git rm .claude/memory/db-port.md` keeps it forgotten; `git add` keeps the changed text"
            ) in out.stdout, out.stdout
    assert "held back" not in out.stdout
    # team resolve: no lift needed for a text the tombstone does not hold back (the test above: one it does)
    shown = run_cli("team", "resolve", "db-port", "--project", b.root, env={"MEMDIR_HOME": str(b.home)})
    assert (f"it was forgotten (tombstone {stone}), but the changed text is not the forgotten value: "
            "`git rm .claude/memory/db-port.md` keeps it forgotten, `git add .claude/memory/db-port.md` keeps the "
            "changed text") in shown.stderr, shown.stderr
    assert "tombstone lift" not in shown.stderr and "held back" not in shown.stderr
    # doctor names it too (it said nothing), as a note: the merge is the person's to finish
    said = run_cli("doctor", "--project", b.root, env={"MEMDIR_HOME": str(b.home)})
    assert (f"note: team: .claude/memory/db-port.md was deleted on one side and changed on the other (git's "
            f"modify/delete), db-port forgotten (tombstone {stone}); its changed text reaches the agent until you "
            "settle the merge: `memdir team status` says how") in said.stdout, said.stdout
    git(b.root, "add", ".claude/memory/db-port.md")  # control: settled (the changed text kept), nothing to say
    assert "modify/delete" not in run_cli("doctor", "--project", b.root, env={"MEMDIR_HOME": str(b.home)}).stdout


@pytest.mark.slow
def test_both_changing_a_line_of_a_code_block_is_a_conflict_held_back_not_settled(clones):
    """break39: git's hunk inside the body's fenced code block read as text — the file was listed and
    injected with both sides and the markers, and `team status` said "settled, not yet added"."""
    a, b = clones
    fenced = "Build it:\n\n```sh\nmake build\n```\n"
    pulled = _diverge(a, b, {"body": fenced.replace("make build", "make build-fast")},
                      {"body": fenced.replace("make build", "make build-all")})
    assert pulled.returncode != 0
    text = (b.team_dir / "db-port.md").read_text()
    assert "<<<<<<< ours (body)\n" in text and "make build-all" in text and "make build-fast" in text
    mem = b.memory()
    assert "CI runs on GitHub Actions" in team_section(mem.context())  # control: the rest is injected
    assert "db-port" not in mem.context() and "make build" not in mem.context()
    status = mem.team_status()
    assert [p for p in status.conflicts if p.endswith("db-port.md")] and status.settled == ()
    mem.team_resolve("db-port", fields={"body": "ours"})
    assert mem.read("db-port", count=False).record.body == fenced.replace("make build", "make build-all").strip()
    assert mem.team_status().settled == (".claude/memory/db-port.md",)  # now settled: `git add` it


@pytest.mark.slow
def test_git_s_own_hunk_inside_a_code_block_is_not_called_settled_by_team_status(clones):
    """break39: a clone without the driver (a teammate's hand edit, git's line merge) gets the hunk inside the
    fence, where markers read as text; `team status` said "settled, not yet added", inviting a `git add` of
    both sides and the markers. Now it names the hunk in the code block; settled once the person edits it."""
    a, b = clones
    git(b.root, "config", "--local", "--remove-section", "merge.memdir")
    fenced = "Build it:\n\n```sh\nmake build\n```\n"
    a.memory().write("db-port", body=fenced, scope="team")
    a.publish("A's code block", b)
    a.memory().write("db-port", body=fenced.replace("make build", "make build-fast"), scope="team")
    a.commit_all("A's change")
    a.push()
    path = b.team_dir / "db-port.md"
    path.write_text(path.read_text().replace("make build\n", "make build-all\n"))  # by hand: `updated:` unmoved
    b.commit_all("B's hand edit")
    assert b.pull(check=False).returncode != 0
    text = path.read_text()
    assert "```sh\n<<<<<<< HEAD\nmake build-all\n=======\nmake build-fast\n>>>>>>> " in text
    status = b.memory().team_status()
    assert status.fenced == (".claude/memory/db-port.md",) and status.settled == () and status.conflicts == ()
    out = run_cli("team", "status", "--project", b.root, env={"MEMDIR_HOME": str(b.home)}).stdout
    assert "unresolved merge conflict inside a code block: .claude/memory/db-port.md" in out
    assert "settled, not yet added" not in out
    path.write_text(text.replace("<<<<<<< HEAD\nmake build-all\n=======\n", "").split(">>>>>>> ")[0] + "```\n")
    settled = b.memory().team_status()  # control: edited to keep one side, it is settled, to add
    assert settled.settled == (".claude/memory/db-port.md",) and settled.fenced == ()
    assert b.memory().read("db-port", count=False).record.body == fenced.replace("make build", "make build-fast").strip()
