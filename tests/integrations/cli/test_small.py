"""Small CLI answers a new user met: a bad --action, the tombstone refusal's wording, help texts,
the extractor in `memdir status --json`, turns counted from 1 (real subprocesses)."""

from __future__ import annotations

import json

import re

import pytest

from memdir.errors import InvalidInput, NotFound
from memdir.vocabulary import ACTORS, JOURNAL_ACTIONS
from tests.conftest import run_cli


@pytest.mark.slow
def test_journal_action_must_be_one_the_journal_has(project, mem):
    run_cli("--project", project, "write", "db-port", "-d", "Dev PostgreSQL listens on 5433", "-t", "project")
    bogus = run_cli("--project", project, "journal", "--action", "bogus")
    assert bogus.returncode == 2 and bogus.stdout == ""
    assert "invalid choice: 'bogus'" in bogus.stderr and "create" in bogus.stderr and "tombstone-lift" in bogus.stderr
    # control: a real action lists its event; a real action no event has is an empty answer, not an error
    create = run_cli("--project", project, "journal", "--action", "create", "--json")
    assert create.returncode == 0 and [e["name"] for e in json.loads(create.stdout)["entries"]] == ["db-port"]
    none = run_cli("--project", project, "journal", "--action", "reject")
    assert none.returncode == 0 and none.stdout.strip() == "No journal events."
    with pytest.raises(InvalidInput, match="action must be one of create, update, "):  # the API says it too
        mem.journal(action="bogus")
    assert "only this action: create, update, rename," in " ".join(run_cli("journal", "--help").stdout.split())


def test_every_action_in_the_vocabulary_is_distinct():
    assert len(set(JOURNAL_ACTIONS)) == len(JOURNAL_ACTIONS) and "tombstone-lift" in JOURNAL_ACTIONS


@pytest.mark.slow
def test_tombstone_refusal_reads_well(project):
    run_cli("--project", project, "write", "db-port", "-d", "Dev PostgreSQL listens on 5433", "-t", "project")
    run_cli("--project", project, "forget", "db-port")
    again = run_cli("--project", project, "write", "db-port2", "-d", "Dev PostgreSQL listens on 5433")
    assert again.returncode == 1 and re.search(r"forgotten by human on \d{4}-\d{2}-\d{2}\)\.", again.stderr), again.stderr
    assert "forgotten by human: forgotten" not in again.stderr
    # control: a reason that says something is kept
    run_cli("--project", project, "write", "ci", "-d", "CI runs on Jenkins", "-t", "project")
    run_cli("--project", project, "forget", "ci", "--reason", "we moved to GitHub Actions")
    again = run_cli("--project", project, "write", "ci2", "-d", "CI runs on Jenkins")
    assert again.returncode == 1 and re.search(r"forgotten by human on [-\d]{10}: we moved to GitHub Actions\)\.",
                                               again.stderr)


def test_tombstone_reason_has_help():
    out = run_cli("tombstone", "--help")
    assert out.returncode == 0 and "why it may be written again (kept in the journal)" in " ".join(out.stdout.split())


@pytest.mark.slow
def test_status_json_names_the_extractor_doctor_names(project):
    run_cli("--project", project, "write", "a", "-d", "alpha fact", "-t", "project")
    status = json.loads(run_cli("--project", project, "status", "--json").stdout)
    doctor = json.loads(run_cli("--project", project, "doctor", "--json").stdout)
    assert status["extractor"] == ("rules by hand or for Codex's each-turn hook (auto: no API key "
                                   "(DEEPSEEK_API_KEY), no extractor_command)")  # ux49: one line, the rest apart
    assert status["extractor_at_session_end"] == ("agent at a session's end, queued by Claude Code's or Gemini CLI's "
                                                  "hook (auto: the next session's agent saves)")
    assert (doctor["extractor"], doctor["extractor_at_session_end"]) == (status["extractor"],
                                                                          status["extractor_at_session_end"])
    fixed = json.loads(run_cli("--project", project, "status", "--json",
                               env={"MEMDIR_EXTRACTOR_COMMAND": "llm -m mine"}).stdout)  # control: one extractor
    assert (fixed["extractor"], fixed["extractor_at_session_end"]) == ("command (auto: extractor_command is set)", "")
    text = run_cli("--project", project, "status").stdout.splitlines()
    at = text.index(next(line for line in text if line.startswith("consolidation extractor: ")))
    assert text[at].startswith("consolidation extractor: rules by hand or for Codex's each-turn hook (auto: no API key")
    assert text[at + 1] == ("  agent at a session's end, queued by Claude Code's or Gemini CLI's hook (auto: the next "
                            "session's agent saves)")


@pytest.mark.slow
def test_explain_counts_turns_from_one(project, tmp_path):
    transcript = tmp_path / "t.txt"
    transcript.write_text("USER: hi there\nASSISTANT: hello\nUSER: I prefer uv for packaging.\n", encoding="utf-8")
    out = run_cli("--project", project, "consolidate", transcript, "--dry-run", "--explain", "--extractor", "rules")
    assert out.returncode == 0, out.stderr
    assert "  turn 3 [preference] “I prefer” in: I prefer uv for packaging." in out.stdout.splitlines()


@pytest.mark.slow
def test_rename_of_a_missing_memory_names_every_layer_looked_in(project, mem):
    out = run_cli("--project", project, "write", "ci-runner", "--rename-from", "missing")
    assert out.returncode == 1 and out.stderr == (
        'memdir: cannot rename "missing": no such memory in the user or project layer\n')
    with pytest.raises(NotFound, match=r'^cannot rename "missing": no such memory in the user or project layer$'):
        mem.write("ci-runner", rename_from="missing")
    assert "no such memory in the user or project layer" in mem.call_tool(
        "memory_write", {"name": "ci-runner", "rename_from": "missing"})
    # a scope given is the one layer looked in
    out = run_cli("--project", project, "write", "ci-runner", "--rename-from", "missing", "--scope", "user")
    assert out.returncode == 1 and out.stderr.endswith("no such memory in the user layer\n")
    # with a team layer, it is looked in too
    (project / ".claude" / "memory").mkdir(parents=True)
    out = run_cli("--project", project, "write", "ci-runner", "--rename-from", "missing")
    assert out.stderr.endswith("no such memory in the user, team or project layer\n")
    # control: a memory that exists in the user layer is found there and renamed
    run_cli("--project", project, "write", "editor", "-d", "Uses Helix", "-t", "user")
    out = run_cli("--project", project, "write", "editor-choice", "--rename-from", "editor")
    assert out.returncode == 0 and out.stdout.strip() == "Memory renamed: editor-choice (user)", out.stderr


@pytest.mark.slow
def test_journal_actor_must_be_one_the_journal_has(project, mem):
    run_cli("--project", project, "write", "db-port", "-d", "Dev PostgreSQL listens on 5433", "-t", "project")
    bogus = run_cli("--project", project, "journal", "--actor", "bogus")
    assert bogus.returncode == 2 and bogus.stdout == ""
    assert ("argument --actor: invalid choice: 'bogus' (choose from 'human', 'agent', 'extracted', 'import')"
            in bogus.stderr)
    with pytest.raises(InvalidInput, match=r"^actor must be one of human, agent, extracted, import \(got 'bogus'\)$"):
        mem.journal(actor="bogus")
    # control: a real actor lists its events; a real actor with none is an empty answer, not an error
    human = run_cli("--project", project, "journal", "--actor", "human", "--json")
    assert human.returncode == 0 and [e["name"] for e in json.loads(human.stdout)["entries"]] == ["db-port"]
    none = run_cli("--project", project, "journal", "--actor", "import")
    assert none.returncode == 0 and none.stdout.strip() == "No journal events."
    assert [e.actor for e in mem.journal(actor="human").entries] == ["human"]
    assert "only this actor's events: human, agent, extracted, import" in " ".join(
        run_cli("journal", "--help").stdout.split())
    assert set(ACTORS) == {"human", "agent", "extracted", "import"}


@pytest.mark.slow
def test_an_empty_body_file_does_not_erase_a_body(project, tmp_path):
    body = "Moved on 2026-11-02 because 5432 is taken."
    run_cli("--project", project, "write", "db-port", "-d", "Dev PostgreSQL listens on 5433", "--body", body)
    for stdin in ("", "\n  \n"):  # a producer that failed in the pipe
        out = run_cli("--project", project, "write", "db-port", "-d", "Dev DB port is 5433", "--body-file", "-",
                      input=stdin)
        assert out.returncode == 1 and out.stdout == ""
        assert out.stderr == ("memdir: stdin was empty; to empty the body say --body '' (body=\"\"). "
                              "Nothing was written: memory 'db-port' keeps its body\n")
    empty = tmp_path / "empty.md"
    empty.write_text("", encoding="utf-8")
    out = run_cli("--project", project, "write", "db-port", "--body-file", empty)
    assert out.returncode == 1 and out.stderr.startswith(f"memdir: --body-file {empty} was empty; to empty the body")
    out = run_cli("--project", project, "write", "db-port-v2", "--rename-from", "db-port", "--body-file", "-")
    assert out.returncode == 1 and "stdin was empty" in out.stderr  # a rename keeps the body the same way
    data = json.loads(run_cli("--project", project, "read", "db-port", "--json").stdout)
    assert (data["description"], data["body"], data["status"]) == ("Dev PostgreSQL listens on 5433", body, "active")
    journal = json.loads(run_cli("--project", project, "journal", "--json").stdout)["entries"]
    assert [e["action"] for e in journal] == ["create"]  # no update, no rename (and a read journals nothing)
    # controls: a body on stdin replaces it; --body '' empties it; a new memory may have an empty body-file
    out = run_cli("--project", project, "write", "db-port", "--body-file", "-", input="From stdin.\n")
    assert out.returncode == 0, out.stderr
    assert json.loads(run_cli("--project", project, "read", "db-port", "--json").stdout)["body"] == "From stdin."
    assert run_cli("--project", project, "write", "db-port", "--body", "").returncode == 0
    assert json.loads(run_cli("--project", project, "read", "db-port", "--json").stdout)["body"] == ""
    out = run_cli("--project", project, "write", "ci", "-d", "CI runs on Jenkins", "--body-file", "-")
    assert out.returncode == 0 and out.stdout.strip() == "Memory created: ci (project)", out.stderr
    out = run_cli("--project", project, "write", "ci", "-d", "CI runs on Forgejo", "--body-file", "-")
    assert out.returncode == 0, out.stderr  # an empty body stays empty: nothing is erased
    help_text = " ".join(run_cli("write", "--help").stdout.split())
    assert "an empty one is refused for a memory that has a body (say --body '' to empty it)" in help_text


def test_the_api_refuses_an_empty_streamed_body_for_a_memory_with_a_body(mem, isolated_home, project, person):
    mem.write("db-port", "Dev PostgreSQL listens on 5433", "project", "Moved in November.")
    with pytest.raises(InvalidInput, match=r"^stdin was empty; to empty the body say --body ''"):
        mem.write("db-port", body="", body_source="stdin")
    assert mem.read("db-port", count=False).record.body == "Moved in November."
    assert mem.write("db-port", body="").operation == "updated"  # control: an empty body given empties it
    assert mem.read("db-port", count=False).record.body == ""
    # the team layer's proposals (the agent's candidates) keep the rule

    (project / ".claude" / "memory").mkdir(parents=True)
    person.team_trust()  # made by hand: trusted as `team init` would, so the agent may propose for it
    person.write(
        "ci", "CI runs on GitHub Actions", "project", "Workflows live in .github.", scope="team")
    with pytest.raises(InvalidInput, match="stdin was empty"):
        mem.write("ci", body="\n", scope="team", body_source="stdin")
    assert mem.write("ci", body="Workflows moved.", scope="team", body_source="stdin").status == "candidate"


@pytest.mark.slow
def test_journal_scope_help_says_it_filters_and_defaults_to_every_layer(project):
    run_cli("--project", project, "write", "db-port", "-d", "Dev PostgreSQL listens on 5433", "-t", "project")
    run_cli("--project", project, "write", "editor", "-d", "The person edits in Neovim", "-t", "user")
    journal_help = " ".join(run_cli("journal", "--help").stdout.split())
    assert "--scope {user,team,project} only this layer's events (default: every layer)" in journal_help
    assert "new memories go to the user layer" not in journal_help  # a write's default, not a filter's
    assert "new memories go to the user layer" in " ".join(run_cli("write", "--help").stdout.split())  # control
    every = run_cli("--project", project, "journal", "--action", "create", "--json")
    assert sorted((e["scope"], e["name"]) for e in json.loads(every.stdout)["entries"]) == [
        ("project", "db-port"), ("user", "editor")]
    user = run_cli("--project", project, "journal", "--scope", "user", "--action", "create", "--json")
    assert [e["name"] for e in json.loads(user.stdout)["entries"]] == ["editor"]


@pytest.mark.slow
def test_read_of_a_deleted_memory_says_it_was_deleted_and_where_its_versions_are(project, mem):
    run_cli("--project", project, "write", "beta", "-d", "Beta uses port 8080")
    deleted = run_cli("--project", project, "delete", "beta", "--json")
    assert deleted.returncode == 0, deleted.stderr
    stone = json.loads(deleted.stdout)["tombstone"]
    said = f'memory "beta" was deleted from the project layer (tombstone {stone})'
    out = run_cli("--project", project, "read", "beta")
    assert out.returncode == 1 and out.stderr == f"memdir: {said}; `memdir history beta` shows its versions\n"
    with pytest.raises(NotFound) as caught:
        mem.read("beta")
    assert str(caught.value) == said and caught.value.deleted == "beta"  # the API's way is Memory.history
    # each interface names its own way to the versions: a model has the memory_history tool, not the CLI
    told = mem.call_tool("memory_read", {"name": "beta"})
    assert told == f"Error: {said}; memory_history with name 'beta' shows its versions" and "memdir" not in told
    assert mem.call_tool("memory_history", {"name": "beta"}).startswith("2 version(s) of beta (project):")
    # the command it names does show the versions, the deletion last
    history = run_cli("--project", project, "history", "beta")
    assert history.returncode == 0 and "  human  delete  " in history.stdout.splitlines()[-1]
    # forget says so; once the tombstone is lifted, no id is told
    mem.write("gamma", "Gamma runs nightly")
    gone = mem.forget("gamma")
    assert str(pytest.raises(NotFound, mem.read, "gamma").value) == (
        f'memory "gamma" was deleted (by forget) from the project layer (tombstone {gone.tombstone})')
    lift = run_cli("--project", project, "tombstone", "lift", gone.tombstone)
    assert lift.returncode == 0, lift.stderr
    assert str(pytest.raises(NotFound, mem.read, "gamma").value) == (
        'memory "gamma" was deleted (by forget) from the project layer')
    # control: a name no layer ever held keeps the plain message and the hint to list the names
    out = run_cli("--project", project, "read", "neverwas")
    assert out.returncode == 1 and out.stderr == (
        'memdir: memory not found: "neverwas" in any layer — `memdir list` shows the names\n')
    assert mem.call_tool("memory_read", {"name": "neverwas"}) == (
        'Error: memory not found: "neverwas" in any layer — call memory_list to see the names')
    # control: written again, it is read again
    mem.write("beta", "Beta uses port 9090")
    assert mem.read("beta").record.description == "Beta uses port 9090"


@pytest.mark.slow
def test_rename_from_a_memory_of_another_layer_names_that_layer(project, mem):
    run_cli("--project", project, "write", "nb", "-d", "Notebook kernel is python3")
    # The library says the fact (the layer that holds it); each interface says how to ask there (left32: the
    # tool's error said "drop --scope or say --scope project", a flag a model cannot give).
    said = 'cannot rename "nb": no such memory in the user layer (\'nb\' is in the project layer)'
    out = run_cli("--project", project, "write", "nb2", "--rename-from", "nb", "--scope", "user")
    assert out.returncode == 1 and out.stderr == f"memdir: {said}: drop --scope or say --scope project\n"
    with pytest.raises(NotFound) as caught:
        mem.write("nb2", rename_from="nb", scope="user")
    assert str(caught.value) == said and caught.value.elsewhere == "project"
    assert mem.call_tool("memory_write", {"name": "nb2", "rename_from": "nb", "scope": "user"}) == (
        f"Error: {said}: leave scope out or give scope 'project'")
    # control: a name no layer holds keeps the plain refusal
    out = run_cli("--project", project, "write", "nb2", "--rename-from", "nbx", "--scope", "user")
    assert out.returncode == 1 and out.stderr == "memdir: cannot rename \"nbx\": no such memory in the user layer\n"
    # control: the scope the hint names renames it
    out = run_cli("--project", project, "write", "nb2", "--rename-from", "nb", "--scope", "project")
    assert out.returncode == 0 and out.stdout.strip() == "Memory renamed: nb2 (project)", out.stderr


@pytest.mark.slow
def test_search_says_where_the_next_page_starts_when_k_is_over_the_page(project, mem):
    for i in range(55):
        mem.write(f"kafka-{i:02d}", f"Kafka note {i}", "project", f"Broker {i} of the kafka cluster.")
    capped = run_cli("--project", project, "search", "kafka", "-k", "100", "--json")
    assert capped.returncode == 0
    answer = json.loads(capped.stdout)
    assert len(answer["results"]) == 50 and answer["k"] == 50 and answer["next_offset"] == 50
    assert "note: at most 50 results a page (-k 100 asked); the next: --offset 50" in capped.stderr
    rest = json.loads(run_cli("--project", project, "search", "kafka", "-k", "50", "--offset", "50", "--json").stdout)
    assert len(rest["results"]) == 5 and rest["next_offset"] is None  # the five the first page could not hold
    small = run_cli("--project", project, "search", "kafka", "-k", "5")
    assert small.returncode == 0 and "note:" not in small.stderr  # control: a page within the limit: no note
    assert small.stdout.rstrip().endswith("(a full page: more may follow from offset 5)")


def test_read_help_says_where_an_existing_memory_is_looked_up_and_what_name_takes():
    read_help = " ".join(run_cli("read", "--help").stdout.split())
    delete_help = " ".join(run_cli("delete", "--help").stdout.split())
    for text in (read_help, delete_help):
        assert "(default: the first that has it: user, then team, then project)" in text
        assert "name the memory's name as `memdir list` shows it, or its title" in text
        assert "new memories go to the user layer" not in text  # a write's default, not a lookup's
    write_help = " ".join(run_cli("write", "--help").stdout.split())
    assert "new memories go to the user layer for -t user, else to the project" in write_help  # control


def test_forget_help_says_how_it_differs_from_delete():
    forget_help = " ".join(run_cli("forget", "--help").stdout.split())
    delete_help = " ".join(run_cli("delete", "--help").stdout.split())
    assert "as delete does; the journal records a forget, not a delete." in forget_help
    assert "the journal records a forget" not in delete_help
    assert "its value is tombstoned and will not come back (`memdir tombstones` lists it)." in delete_help  # control


@pytest.mark.slow
def test_json_scripts_get_json_for_the_version_and_for_a_missing_command(isolated_home):
    """trial18: `memdir --json --version` printed text and `memdir --json` alone printed nothing on stdout."""
    from memdir.version import VERSION

    for argv in (["--json", "--version"], ["--version", "--json"]):
        done = run_cli(*argv)
        assert done.returncode == 0 and json.loads(done.stdout) == {"version": VERSION}
    plain = run_cli("--version")
    assert plain.returncode == 0 and plain.stdout == f"memdir {VERSION}\n"  # control: text without --json
    missing = run_cli("--json")
    assert missing.returncode == 2 and "usage: memdir" in missing.stderr
    assert json.loads(missing.stdout) == {"error": "a command is required (memdir --help lists them)",
                                          "kind": "UsageError"}
    bare = run_cli()
    assert bare.returncode == 2 and bare.stdout == "" and "usage: memdir" in bare.stderr  # control: no --json
    restore = run_cli("--json", "restore", "nothing-here", "--version", "1")  # restore's own --version N
    assert restore.returncode == 1 and json.loads(restore.stdout)["kind"] == "NotFound"
