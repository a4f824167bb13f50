"""The tester's trial of the team layer and imports (issue 15, second round): env-style
secrets, symlinked team directories, tombstone merges, forgotten facts and imports,
conflict markers, and the smaller findings. Real temp repositories, real git."""

from __future__ import annotations

import pytest

from memdir import Memory
from memdir.text.redact import redact
from tests.teamgit import git, shared_repository


@pytest.fixture
def clones(tmp_path):
    return shared_repository(tmp_path)


SECRETS = {
    "export DB_PASSWORD=Tr0ub4dor&3": "export DB_PASSWORD=[REDACTED:env-secret]",
    "SECRET_KEY=abc123def": "SECRET_KEY=[REDACTED:env-secret]",
    "DEPLOY_TOKEN='gh-Deploy-77'": "DEPLOY_TOKEN='[REDACTED:env-secret]'",
    'aws_secret_access_key = "wJalrXUtnFEMI/K7MDENG"': 'aws_secret_access_key = "[REDACTED:env-secret]"',
    "db_password: hunter2x": "db_password: [REDACTED:env-secret]",
    "mysql -u root -phunter2xyz shop": "mysql -u root -p[REDACTED:password] shop",
    "pw: correct-horse-battery": "pw: [REDACTED:password]",
}
# Ordinary prose and code that must stay exactly as written.
PLAIN = ["Set KEY=value in the config file.", "TOKEN=abc", "DB_PASSWORD=$DB_PASSWORD",
         "SECRET_KEY=os.environ['SECRET_KEY']", "api_key = getenv('API_KEY')", "sort_key = lambda x: x",
         "primary_key=True", "PRIMARY_KEY: id", "mysql -u root -p shop", "mysql -P3306 -h db",
         "the DB_PASSWORD variable holds it", "password: <your password>", "DB_PASSWORD: ${DB_PASSWORD}"]


@pytest.mark.parametrize("text", sorted(SECRETS))
def test_env_style_secret_assignments_are_redacted(text):
    assert redact(text).text == SECRETS[text]


@pytest.mark.parametrize("text", PLAIN)
def test_prose_and_code_that_name_a_secret_stay_unchanged(text):
    assert redact(text).text == text


def test_env_secrets_never_reach_any_layer(clones):
    a, _ = clones
    mem = a.memory()
    body = "\n".join(SECRETS)
    saved = mem.write("db-setup", "How the database is set up locally", "project", body, scope="project")
    assert saved.redactions == len(SECRETS)
    stored = mem.read("db-setup").record.body
    for secret in ("Tr0ub4dor&3", "abc123def", "gh-Deploy-77", "hunter2xyz", "correct-horse-battery"):
        assert secret not in stored
    assert "export DB_PASSWORD=[REDACTED:env-secret]" in stored  # the key stays, readable
    mem.write("db-setup", "How the database is set up locally", "project", body, scope="team")
    text = (a.team_dir / "db-setup.md").read_text()
    assert "Tr0ub4dor&3" not in text and "mysql -u root -p[REDACTED:password] shop" in text


FACT = "---\nname: outside\ndescription: A fact kept outside the repository\ntype: project\n---\nBody.\n"


@pytest.mark.parametrize("link", [".claude", ".claude/memory", ".claude/memory/tombstones"])
def test_a_team_directory_through_a_symbolic_link_is_never_read_written_or_deleted(tmp_path, link):
    from memdir.errors import ScopeError

    root = tmp_path / "repo"
    git(tmp_path, "init", "-q", str(root))
    elsewhere = tmp_path / "x"
    target = {".claude": elsewhere, ".claude/memory": elsewhere / "memory",
              ".claude/memory/tombstones": elsewhere / "tombs"}[link]
    (elsewhere / "memory").mkdir(parents=True)
    (elsewhere / "tombs").mkdir()
    (elsewhere / "memory" / "outside.md").write_text(FACT)
    if link == ".claude/memory/tombstones":  # a real team directory whose tombstones live elsewhere
        (root / ".claude" / "memory").mkdir(parents=True)
        (root / ".claude" / "memory" / "inside.md").write_text(FACT.replace("outside", "inside"))
    else:
        (root / link).parent.mkdir(parents=True, exist_ok=True)
    (root / link).symlink_to(target)
    mem = Memory.open(home=tmp_path / "h", project=root, actor="human")
    mem.write("control", "A personal project fact stays usable", "project")
    assert "A personal project fact stays usable" in mem.context()  # control: the session works
    assert "outside the repository" not in mem.context() and "inside" not in mem.context()
    assert [m.name for m in mem.list().memories] == ["control"]
    assert mem.scopes() == ["user", "project"]
    with pytest.raises(ScopeError, match="symbolic link"):
        mem.write("t1", "A team fact that must not land outside", "project", scope="team")
    with pytest.raises(ScopeError, match="symbolic link"):
        mem.team_init()
    with pytest.raises(ScopeError, match="symbolic link"):
        mem.forget("outside", scope="team")
    assert sorted(p.name for p in (elsewhere / "memory").iterdir()) == ["outside.md"]
    assert list((elsewhere / "tombs").iterdir()) == []


def test_a_real_team_directory_still_works_and_a_tilde_team_dir_is_refused(tmp_path):
    from memdir.errors import InvalidInput

    root = tmp_path / "repo"
    git(tmp_path, "init", "-q", str(root))
    mem = Memory.open(home=tmp_path / "h", project=root, actor="human")
    mem.team_init()
    mem.write("t1", "A team fact inside the repository", "project", scope="team")
    assert (root / ".claude" / "memory" / "t1.md").is_file()  # control
    with pytest.raises(InvalidInput, match="~"):
        Memory.open(home=tmp_path / "h", project=root, actor="human", team_dir="~/x").team_init()
    assert not (root / "~").exists()


@pytest.mark.slow
def test_two_people_forgetting_the_same_fact_merge_cleanly(clones):
    a, b = clones
    a.memory().write("cache", "The build cache lives in /var/cache/build", "project", scope="team")
    a.publish("a fact", b)
    a.memory().forget("cache")
    a.commit_all("A forgets it")
    b.memory().forget("cache", reason="B also forgets it")
    b.commit_all("B forgets it")
    a.push()
    merged = b.pull(check=False)
    assert merged.returncode == 0, merged.stdout + merged.stderr  # identical files: no add/add conflict
    files = list((b.team_dir / "tombstones").glob("t-*.json"))
    assert len(files) == 1 and '"ts"' not in files[0].read_text() and '"actor"' not in files[0].read_text()
    mem = b.memory()
    assert [s.name for s in mem.tombstones("team").tombstones] == ["cache"]
    with pytest.raises(Exception, match="forgotten|tombstone"):
        b.memory(actor="agent").write("cache2", "The build cache lives in /var/cache/build", "project", scope="team")
    assert mem.write("other", "The release train leaves on Thursdays", "project", scope="team").operation == "created"


@pytest.mark.slow
@pytest.mark.parametrize("bad", [b"{not json", b"[]", b"<<<<<<< HEAD\n{}\n=======\n{}\n>>>>>>> theirs\n"])
def test_an_unreadable_tombstone_is_reported_and_never_blocks_writes(clones, bad):
    from memdir.errors import TombstoneRefused

    a, _ = clones
    mem = a.memory()
    mem.write("old", "The staging host is staging-7.example.com", "project", scope="team")
    mem.forget("old")
    broken = a.team_dir / "tombstones" / "t-broken.json"
    broken.write_bytes(bad)
    mem = a.memory()
    assert mem.write("mine", "My personal project fact about the build", "project").operation == "created"
    assert mem.write("team", "A team fact about the release train", "project", scope="team").operation == "created"
    with pytest.raises(TombstoneRefused):  # the readable tombstone still applies (to the agent's proposal)
        a.memory(actor="agent").write("again", "The staging host is staging-7.example.com", "project", scope="team")
    listed = mem.list()
    assert [m.path for m in listed.malformed if "t-broken" in m.path] == [str(broken)]
    reason = [m.error for m in listed.malformed if "t-broken" in m.path][0]
    assert "not a readable tombstone" in reason and "list indices" not in reason
    assert any("t-broken" in p.path for p in mem.doctor().problems)


def _team_repo(tmp_path):
    root = tmp_path / "repo"
    git(tmp_path, "init", "-q", str(root))
    mem = Memory.open(home=tmp_path / "h", project=root, actor="human")
    mem.team_init()
    mem.write("ci", "CI runs on GitHub Actions", "project", scope="team")
    return root, root / ".claude" / "memory", mem


NESTED = ("---\nname: db\ndescription: Dev database port\ntype: project\n---\n<<<<<<< HEAD\n<<<<<<< HEAD\n5433\n"
          "=======\n5434\n>>>>>>> a\n=======\n6543\n>>>>>>> b\n")
LONE = "---\nname: db\ndescription: Dev database port is 5433\ntype: project\n---\n<<<<<<< HEAD\nport 5433\n"
FENCED = ("---\nname: merge-help\ndescription: How a git conflict looks in a file\ntype: reference\n---\n"
          "Git writes this:\n\n```\n<<<<<<< HEAD\nmine\n=======\ntheirs\n>>>>>>> branch\n```\nPick one side.\n")


def test_nested_markers_are_refused_by_resolve_and_nothing_changes(tmp_path):
    from memdir.errors import InvalidInput

    root, team, mem = _team_repo(tmp_path)
    (team / "db.md").write_text(NESTED)
    assert [m.error for m in mem.list().malformed] == ["unresolved merge conflict"]
    with pytest.raises(InvalidInput, match="do not make whole hunks.*nested"):
        mem.team_resolve("db", "ours")
    assert (team / "db.md").read_text() == NESTED  # nothing changed, nothing said "Resolved"
    (team / "db.md").write_text(NESTED.replace("<<<<<<< HEAD\n<<<<<<< HEAD\n5433\n=======\n5434\n>>>>>>> a\n",
                                               "<<<<<<< HEAD\n5433\n"))
    assert mem.team_resolve("db", "ours").side == "ours"  # control: a whole hunk resolves
    assert "<<<<<<<" not in (team / "db.md").read_text() and "5433" in (team / "db.md").read_text()


def test_a_lone_opening_marker_is_a_conflict_and_never_injected(tmp_path):
    root, team, mem = _team_repo(tmp_path)
    (team / "db.md").write_text(LONE)
    assert [m.error for m in mem.list().malformed] == ["unresolved merge conflict"]
    block = mem.context()
    assert "CI runs on GitHub Actions" in block and "5433" not in block


def test_markers_inside_a_fenced_code_block_are_a_memory(tmp_path):
    root, team, mem = _team_repo(tmp_path)
    (team / "merge-help.md").write_text(FENCED)
    (team / "db.md").write_text(FENCED.replace("```\n<<<<<<< HEAD", "<<<<<<< HEAD").replace("branch\n```", "branch"))
    listed = mem.list()
    assert "merge-help" in [m.name for m in listed.memories]
    assert [m.path.endswith("db.md") for m in listed.malformed] == [True]  # control: unfenced, a conflict
    assert "How a git conflict looks in a file" in mem.context()


@pytest.mark.slow
def test_team_status_names_the_memory_to_resolve(tmp_path):
    from tests.conftest import run_cli

    root, team, mem = _team_repo(tmp_path)
    (team / "db.md").write_text(LONE.replace("port 5433\n", "5433\n=======\n5434\n>>>>>>> b\n"))
    out = run_cli("team", "status", "--project", root, env={"MEMDIR_HOME": str(tmp_path / "h")}).stdout
    assert ("`memdir team resolve db` shows both sides; add --field FIELD=ours|theirs, or --ours|--theirs, to keep one"
            in out and "resolve NAME" not in out)


def test_team_init_adds_its_entries_to_an_adopted_gitignore(tmp_path):
    root = tmp_path / "repo"
    git(tmp_path, "init", "-q", str(root))
    team = root / ".claude" / "memory"
    team.mkdir(parents=True)
    (team / ".gitignore").write_text("scratch/\nMEMORY.md\n")
    mem = Memory.open(home=tmp_path / "h", project=root, actor="human")
    created = mem.team_init().created
    text = (team / ".gitignore").read_text()
    assert text.startswith("scratch/\nMEMORY.md\n")  # its own lines kept
    assert text.count("MEMORY.md") == 1 and ".memdir/" in text and "*.sqlite" in text
    assert any(c.startswith(".gitignore (added .memdir/") for c in created)
    assert mem.team_init().created == ()  # a second init adds nothing


def test_an_unscoped_delete_of_a_name_in_team_and_project_asks_for_the_scope(tmp_path):
    from memdir.errors import InvalidInput

    root, team, mem = _team_repo(tmp_path)
    mem.write("ci", "My own CI notes for this checkout", "project", scope="project")
    with pytest.raises(InvalidInput, match="say which to delete with scope team or project$"):  # the argument
        mem.delete("ci")
    assert (team / "ci.md").is_file() and list((team / "tombstones").glob("t-*.json")) == []
    assert mem.delete("ci", scope="project").scope == "project"  # control: a scope settles it
    assert (team / "ci.md").is_file() and list((team / "tombstones").glob("t-*.json")) == []
    assert mem.delete("ci").scope == "team"  # no longer ambiguous
