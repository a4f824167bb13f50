"""`memdir sync` against what another clone of the private remote may push (issue 27, hardening): paths out of
the layer, symbolic links, the project's own repository, files over the ceiling, a .gitattributes that turns
the merge driver off — each refused and reported, with a control that the ordinary file still travels."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

import pytest

from tests.operations.test_sync import Machine, git, world  # noqa: F401  (world is a fixture)

pytestmark = pytest.mark.slow  # real git, two homes


@pytest.fixture
def synced(world, tmp_path):
    """setup2: A and B sync user,projects through mem.git; A wrote `indent` (user) and `dbport` (project),
    both machines synced; W is a hostile clone of mem.git."""
    a, b, remote = world
    for machine in (a, b):
        machine.mem().sync_init(str(remote), "user,projects")
    a.mem().write("indent", "Indent Python with tabs", "feedback", scope="user")
    a.mem().write("dbport", "Dev DB listens on 5433", "project", scope="project")
    a.sync()
    b.sync()
    w = tmp_path / "W" / "x"
    w.parent.mkdir()
    git(tmp_path, "clone", "-q", str(remote), str(w))
    return a, b, remote, w


def push(w: Path, message: str = "hostile") -> None:
    git(w, "add", "-A")
    git(w, "commit", "-q", "-m", message)
    git(w, "push", "-q", "origin", "HEAD:main")


def control(w: Path, b: Machine, name: str = "editor") -> None:
    """Also push an ordinary memory, which must arrive."""
    (w / "user" / f"{name}.md").write_text(f"---\nname: {name}\ndescription: Uses Neovim {name}\ntype: user\n---\n")


def test_a_tombstone_id_or_memory_name_out_of_the_layer_is_refused(synced, tmp_path):
    a, b, remote, w = synced
    target = tmp_path / "pwned"
    (w / "user" / "tombstones").mkdir(exist_ok=True)
    (w / "user" / "tombstones" / "t-y.json").write_text(json.dumps(
        {"id": f"../../../../../../../../..{target}", "name": "x", "digest": "1", "description": "a"}))
    (w / "user" / "tombstones" / "t-0123456789ab.json").write_text(json.dumps(  # right file name, wrong id
        {"id": f"../../../..{target}", "name": "x", "digest": "2", "description": "b"}))
    (w / "user" / "Bad Name.md").write_text("---\nname: bad\ndescription: Sneaky\ntype: user\n---\n")
    control(w, b)
    push(w)
    report = b.sync()
    assert report.outcome == "synced" and not report.pushed  # nothing of B's to send: the refused are not deleted
    assert not Path(f"{target}.json").exists() and not target.exists()
    assert b.mem().tombstones().tombstones == ()
    notes = "\n".join(report.notes)
    assert "user/tombstones/t-y.json: not taken in: not a tombstone id" in notes
    assert "t-0123456789ab.json: not taken in: not a readable tombstone" in notes
    assert "user/Bad Name.md: not taken in: not a memory name" in notes
    assert "Sneaky" not in b.mem("agent").context()
    assert "Uses Neovim editor" in b.mem("agent").context()  # control: the ordinary file arrives
    assert b.sync().outcome == "synced" and not Path(f"{target}.json").exists()
    assert "user/Bad Name.md" in git(remote, "ls-tree", "-r", "--name-only", "main").stdout  # left where it was


def test_pushed_symbolic_links_are_never_followed(synced, tmp_path):
    a, b, remote, w = synced
    victim = tmp_path / "victim"
    victim.mkdir()
    secret = tmp_path / "secret.md"
    secret.write_text("---\nname: leak\ndescription: Outside file read as memory\ntype: user\n---\n")
    os.symlink(str(secret), w / "user" / "leak.md")  # a symlinked file
    project = next(p for p in (w / "projects").iterdir())
    git(w, "rm", "-q", "-r", f"projects/{project.name}")
    (w / "projects").mkdir(exist_ok=True)
    os.symlink(str(victim), w / "projects" / project.name)  # a symlinked layer directory
    os.symlink(str(victim), w / "user" / "tombstones")  # where B's first tombstone will be written
    control(w, b)
    push(w)
    b.mem().write("lint", "Lint with ruff", "project", scope="project")  # exported where the link is
    report = b.sync()
    assert list(victim.iterdir()) == []  # nothing written outside the repository
    assert "Outside file read as memory" not in b.mem("agent").context()
    assert any("user/leak.md: not taken in: a symbolic link" in note for note in report.notes)
    assert any("user/tombstones: not taken in:" in note for note in report.notes)
    assert (b.home / "sync" / "user" / "tombstones").is_symlink()  # the link is in B's work tree now
    b.mem().write("fmt", "Format with black", "project", scope="project")
    b.mem().forget("indent", scope="user")  # its tombstone goes where the link is
    report = b.sync()
    assert list(victim.iterdir()) == []
    assert [(item.name, item.layer) for item in report.not_synced
            if "a link or another non-file is on its way" in item.reason] == [("indent", "user")], report
    context = b.mem("agent").context()
    assert "Uses Neovim editor" in context and "Format with black" in context  # control: ordinary file, live layer
    assert "Indent Python with tabs" not in context  # forgotten here all the same
    assert "user/leak.md" in git(remote, "ls-tree", "-r", "--name-only", "main").stdout  # refused, not deleted


def test_a_file_over_max_file_bytes_is_not_imported(synced):
    a, b, remote, w = synced
    (w / "user" / "huge.md").write_text("---\nname: huge\ndescription: Huge\ntype: user\n---\n" + "x" * 300_000)
    control(w, b)
    push(w)
    report = b.sync()
    assert any("user/huge.md: not taken in:" in note and "max_file_bytes" in note for note in report.notes)
    assert not (b.home / "_user" / "huge.md").exists()
    assert (b.home / "_user" / "editor.md").exists()  # control


def test_a_file_a_machine_refuses_is_never_deleted_by_that_machine(world):
    a, b, remote = world
    for machine in (a, b):
        machine.mem().sync_init(str(remote), "user")
    body = "Long notes on how the build works, step by step. " * 390  # ~19 KB: over B's ceiling, within A's
    a.mem(limit_body=20_000).write("build-notes", "How the build works", "reference", body, scope="user")
    a.mem().write("indent", "Indent Python with tabs", "feedback", scope="user")
    a.sync()
    small = b.mem(max_file_bytes=16 * 1024)  # B keeps memory files under 16 KiB
    report = small.sync()
    assert any("user/build-notes.md: not taken in:" in n and "max_file_bytes" in n for n in report.notes), report
    assert not (b.home / "_user" / "build-notes.md").exists()
    assert "Indent Python with tabs" in b.mem("agent").context()  # control: the ordinary memory arrives
    b.mem().write("font", "Prefers Iosevka", "user", scope="user")
    again = b.mem(max_file_bytes=16 * 1024).sync()  # B exports again: the file it refused is no deletion
    assert again.pushed and [(c.name, c.change) for c in again.sent] == [("font", "new")]
    assert b.mem(max_file_bytes=16 * 1024).sync_status().unsent == 0
    shipped = git(remote, "ls-tree", "-r", "--name-only", "main").stdout.split()
    assert "user/build-notes.md" in shipped and "user/font.md" in shipped  # control: B's own change travels
    a.sync()
    assert a.mem().read("build-notes", scope="user").record.body.strip() == body.strip()
    assert "Prefers Iosevka" in a.mem("agent").context()


def test_a_pushed_gitattributes_does_not_turn_the_field_merge_off(synced):
    a, b, remote, w = synced
    (w / ".gitattributes").write_text("*.md merge=union\n* -merge\n")
    push(w)
    a.mem().write("shell", "Uses zsh", "user", "With oh-my-zsh.", scope="user")
    a.sync()
    b.sync()
    a.mem().write("shell", "Uses zsh as login shell", "user", scope="user")
    b.mem().write("shell", "Uses zsh", "user", "With starship, not oh-my-zsh.", scope="user")
    a.sync()
    assert b.sync().conflicts == ()
    shell = b.mem().read("shell", scope="user").record
    assert shell.description == "Uses zsh as login shell" and shell.body.strip() == "With starship, not oh-my-zsh."
    assert "merge=memdir" in (b.home / "sync" / ".git" / "info" / "attributes").read_text()


@pytest.mark.parametrize("spelling", ["git@github.com:Acme/App.git", "https://www.github.com//acme/app.GIT",
                                      "ssh://git@ssh.github.com:443/acme/app.git", "https://GitHub.com/acme/app/"])
def test_spellings_of_a_github_remote_are_one_repository(spelling):
    from memdir.files.repository import normalize_remote

    assert normalize_remote(spelling) == "github.com/acme/app"
    assert normalize_remote("https://gitea.example/Acme/App.git") == "gitea.example/Acme/App"  # case kept elsewhere
    assert normalize_remote("git@github.com:acme/other.git") != "github.com/acme/app"  # control


def test_sync_refuses_the_projects_repository_even_when_init_ran_outside_it(world, tmp_path):
    from memdir import Memory
    from memdir.errors import Refused

    a, _, remote = world
    outside = tmp_path / "outside"
    outside.mkdir()
    a.mem().write("indent", "Indent Python with tabs", "feedback", scope="user")
    copy = tmp_path / "copy.git"  # the project's history at another address
    git(tmp_path, "clone", "-q", "--bare", str(tmp_path / "app.git"), str(copy))
    for target in (tmp_path / "app.git", copy):
        Memory.open(home=a.home, project=outside, actor="human", search_vectors="off").sync_init(str(target), "user,projects")
        with pytest.raises(Refused) as refused:
            a.sync()  # from inside the project
        assert "nothing was sent" in str(refused.value) and "set-url" not in str(refused.value)
        branches = git(target, "for-each-ref", "--format=%(refname)").stdout.split()
        assert branches == ["refs/heads/main"]  # the project's own branch only
        assert "user/indent.md" not in git(target, "ls-tree", "-r", "--name-only", "main").stdout
        assert json.loads(a.cli("sync", "status", "--json").stdout)["outcome"] == "refused"
        import shutil

        shutil.rmtree(a.home / "sync")
    a.mem().sync_init(str(remote), "user,projects")  # control: a private remote syncs from inside
    assert a.sync().pushed
    assert "user/indent.md" in git(remote, "ls-tree", "-r", "--name-only", "main").stdout


def test_a_push_race_merges_again_and_is_not_reported_offline(synced, tmp_path):
    a, b, remote, w = synced
    repo = a.home / "sync"
    mark = tmp_path / "raced"
    (w / "user" / "pager.md").write_text("---\nname: pager\ndescription: Uses less -R\ntype: user\n---\n")
    git(w, "add", "-A")
    git(w, "commit", "-q", "-m", "another machine")
    hook = repo / ".git" / "hooks" / "reference-transaction"  # right after A's fetch, W pushes: A's push races
    hook.write_text(f"#!/bin/sh\n[ \"$1\" = committed ] || exit 0\ngrep -q refs/remotes/origin/main || exit 0\n"
                    f"[ -e {mark} ] && exit 0\ntouch {mark}\n"
                    f"cd {w} && env -u GIT_DIR -u GIT_INDEX_FILE -u GIT_WORK_TREE git push -q origin HEAD:main\n")
    hook.chmod(0o755)
    a.mem().write("font", "Prefers Iosevka", "user", scope="user")
    report = a.sync()
    assert mark.exists() and report.offline is None and report.pushed
    assert any("the remote moved during the sync" in note for note in report.notes)
    assert "user:pager" in report.imported  # the racing commit was merged
    assert "user/font.md" in git(remote, "ls-tree", "-r", "--name-only", "main").stdout


def test_hand_edits_in_the_sync_work_tree_are_saved_aside_not_deleted(synced):
    a, b, remote, w = synced
    repo = a.home / "sync"
    (repo / "user" / "indent.md").write_text("---\nname: indent\ndescription: Hand edit\ntype: feedback\n---\n")
    (repo / "user" / "notes.txt").write_text("my notes\n")
    report = a.sync()
    note = next(n for n in report.notes if "saved aside" in n)
    place = Path(note.split(" saved aside in ")[1].split(" before ")[0])
    assert (place / "user" / "notes.txt").read_text() == "my notes\n"
    assert "Hand edit" in (place / "user" / "indent.md").read_text()
    assert not (repo / "user" / "notes.txt").exists()  # the work tree is memdir's again
    assert "Indent Python with tabs" in a.mem("agent").context()  # control: the live layer is unchanged
    assert not any("saved aside" in n for n in a.sync().notes)  # nothing left to save the next time


def test_a_forgotten_secret_travels_redacted_and_still_forgets(synced):
    a, b, remote, w = synced
    token = "ghp_4f9aZ2Qx8Lm3Rt7Vb1Nc6Yd0We5Ks"
    a.mem().write("ci-token", "The CI token is kept in the vault", "reference", scope="user")
    a.sync()
    b.sync()
    stones = a.home / "_user" / ".memdir" / "tombstones.json"
    a.mem().forget("ci-token", scope="user")
    planted = json.loads(stones.read_text())  # a description holding a token (a file edited by hand)
    planted[0]["description"] += f" ({token})"
    stones.write_text(json.dumps(planted))
    assert a.sync().pushed
    shipped = git(remote, "ls-tree", "-r", "--name-only", "main").stdout.split()
    stone = next(p for p in shipped if p.startswith("user/tombstones/"))
    text = git(remote, "show", f"main:{stone}").stdout
    assert token not in text and "The CI token is kept in the vault" in text  # redacted, the rest kept
    b.sync()
    assert "kept in the vault" not in b.mem("agent").context()  # forgotten on B too: the digest still matches
    assert "Indent Python with tabs" in b.mem("agent").context()  # control


def test_init_again_keeps_the_layers_and_resolve_sides_are_exclusive(synced):
    a, b, remote, w = synced
    again = a.cli("sync", "init", str(remote), "--json")
    assert again.returncode == 0, again.stderr
    assert json.loads(again.stdout)["layers"] == ["user", "projects"]  # unchanged without --layers
    changed = a.cli("sync", "init", str(remote), "--layers", "user", "--json")
    assert json.loads(changed.stdout)["layers"] == ["user"]  # control: asked for, it changes
    both_sides = a.cli("sync", "resolve", "indent", "--ours", "--theirs")
    assert both_sides.returncode == 2 and "not allowed with argument" in both_sides.stderr
    one = a.cli("sync", "resolve", "indent", "--ours")  # control: one side parses (no such conflict here)
    assert one.returncode != 2 and "no sync conflict" in one.stderr
    objects = a.home / "sync" / ".git" / "objects"
    a.mem().write("font", "Prefers Iosevka", "user", scope="user")
    a.sync()
    made = [d for d in objects.iterdir() if d.is_dir() and len(d.name) == 2]
    assert made and all(stat.S_IMODE(d.stat().st_mode) & 0o077 == 0 for d in made)
