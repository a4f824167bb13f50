"""Search over real memory files and a real SQLite FTS5 index (BM25 mode)."""

from __future__ import annotations

from pathlib import Path

import os
import sqlite3
import time
from datetime import UTC, datetime, timedelta

import pytest

from memdir.files import sweeps as sweeps_module
from memdir import InvalidInput, Memory
from memdir.search.index import db_path
from memdir.search.hits import SNIPPET_CHARS
from memdir.search.ranking import RESULTS_MAX_BYTES
from memdir.search.reindex import search_mode


@pytest.fixture
def bm25(isolated_home, project):
    """The facade with dense vectors off, so ranking is BM25 alone."""
    return Memory.open(home=isolated_home, project=project, search_vectors="off")


def names(results):
    return [r.name for r in results]


def test_cjk_queries_find_their_memories(bm25):
    bm25.write("survival", "a saying", "reference", "即适者生存，生存等于正确的道理")
    bm25.write("rime-deploy", "dictionary note", "project", "09-07 雾凇词库部署时实测")
    bm25.write("shiritori", "a game", "user", "今日は成語しりとりをした")
    bm25.write("korean-game", "word chain", "user", "어제 친구들과 끝말잇기를 했어요")
    bm25.write("docker-deploy", "deploy notes", "project", "docker 部署 uses compose on the staging box")
    assert names(bm25.search("适者生存"))[0] == "survival"
    assert names(bm25.search("雾凇"))[0] == "rime-deploy"
    assert names(bm25.search("しりとり"))[0] == "shiritori"
    assert names(bm25.search("끝말잇기"))[0] == "korean-game"
    assert names(bm25.search("docker 部署"))[0] == "docker-deploy"
    assert bm25.search("止损") == []


def test_code_identifiers_match_in_every_form(bm25):
    body = ("Auth flow: getUserById loads the row, parseHTMLResponse reads the SSO page, "
            "OPENAI_API_KEY comes from the vault, refresh_token_rotation is on.")
    bm25.write("auth-flow", "how login works", "project", body)
    bm25.write("user-list", "listing users", "project", "get the user list, sorted by id, from the admin page")
    bm25.write("html-notes", "templating", "project", "HTML templates render the response for the settings page")
    bm25.write("api-notes", "rate limits", "project", "the public api allows 100 requests per key per minute")
    for query in ("getUserById", "user by id", "html response", "openai-api-key", "refresh token"):
        assert "auth-flow" in names(bm25.search(query)), query
    for identifier in ("getUserById", "parseHTMLResponse", "OPENAI_API_KEY", "refresh_token_rotation"):
        assert names(bm25.search(identifier))[0] == "auth-flow", identifier


@pytest.mark.parametrize("query", ["NOT", '"', "*", "a OR b", "(", "col:x", "NEAR(x y)", "body:auth", ")"])
def test_fts_syntax_is_plain_text(bm25, query):
    bm25.write("syntax", "notes on body and col usage", "project", "x marks NOT the spot; b is for body")
    results = bm25.search(query)
    assert isinstance(results, list)
    if query == "col:x":
        assert names(results) == ["syntax"]  # the words themselves are searched
    elif query == "a OR b":
        assert names(results) == ["syntax"] and results[0].score > 0.9  # "a", "or" are function words: "b" matches
    elif query == "NOT":  # a word, not an operator; in capitals, as the memory writes it, it is an acronym
        assert names(results) == ["syntax"] and results[0].why["terms"] == ["not"]
    elif query == "NEAR(x y)":
        # Searched as words too: a partial match ("near" in no memory, "x" and "y" not in its head) is listed, weak.
        assert names(results) == ["syntax"] and results[0].score < 0.5
        assert bm25.search(query, min_score=0.5) == []  # a number: only the hits scoring at least that
    elif query == "body:auth":
        # "auth" is in no memory and the head holds "body": half complete (relevance._complete), over the threshold.
        assert names(results) == ["syntax"] and round(results[0].score, 2) == 0.54
        assert bm25.search(query, min_score=0.6) == []  # a number: only the hits scoring at least that
    else:
        assert results == []


def test_scope_is_enforced_between_projects(isolated_home, tmp_path):
    roots = []
    for label in ("alpha", "beta"):
        root = tmp_path / label
        (root / ".git").mkdir(parents=True)
        roots.append(root)
    a = Memory.open(home=isolated_home, project=roots[0], search_vectors="off")
    b = Memory.open(home=isolated_home, project=roots[1], search_vectors="off")
    a.write("secret-endpoint", "alpha's staging endpoint", "project", "staging endpoint is alpha.internal:8443")
    b.write("beta-endpoint", "beta's staging endpoint", "project", "staging endpoint is beta.internal:9443")
    assert names(b.search("staging endpoint", k=50)) == ["beta-endpoint"]
    assert names(a.search("staging endpoint", k=50)) == ["secret-endpoint"]
    # Only b's own memory, which shares "internal", weak; never a's, which holds every word.
    assert [(r.name, r.why["terms"]) for r in b.search("alpha.internal 8443", k=50)] == [("beta-endpoint", ["internal"])]
    user = Memory.open(home=isolated_home, project=roots[1], search_vectors="off")
    user.write("my-editor", "editor preference", "user", "the person edits staging configs in helix", scope="user")
    assert set(names(a.search("staging", k=50))) == {"secret-endpoint", "my-editor"}
    assert set(names(b.search("staging", k=50, scope="project"))) == {"beta-endpoint"}
    assert names(b.search("helix", scope="user")) == ["my-editor"]


def test_forgotten_memory_never_returns(bm25):
    bm25.write("old-port", "dev database port", "project", "the dev database listens on port 6543 behind pgbouncer")
    bm25.write("db-host", "dev database host", "project", "the dev database host is db.dev.local")
    bm25.forget("old-port")
    assert names(bm25.search("the dev database listens on port 6543 behind pgbouncer", k=100,
                             min_score=0.0)) == ["db-host"]
    assert bm25.search("6543 pgbouncer", k=100) == []


def test_hidden_states_never_appear(bm25):
    past = datetime.now(UTC) - timedelta(days=2)
    future = datetime.now(UTC) + timedelta(days=30)
    bm25.write("visible", "zebra crossing live", "project", "zebra live")
    bm25.write("proposed", "zebra crossing proposed", "project", "zebra candidate", status="candidate")
    bm25.write("expired", "zebra crossing expired", "project", "zebra gone", valid_until=past)
    bm25.write("later", "zebra crossing later", "project", "zebra later", valid_from=future)
    bm25.write("muted", "zebra crossing muted", "project", "zebra muted", disabled=True)
    bm25.write("zebra-v1", "zebra crossing first", "project", "zebra v1")
    bm25.write("zebra-v2", "zebra crossing second", "project", "zebra v2", supersedes="zebra-v1")
    assert set(names(bm25.search("zebra", k=50))) == {"visible", "zebra-v2"}
    assert set(names(bm25.search("zebra", k=50, include_muted=True))) == {"visible", "zebra-v2", "muted"}


def test_hand_edit_is_found_without_reindex(bm25):
    bm25.write("notes", "scratch notes", "project", "original words about kayaks")
    assert names(bm25.search("kayaks")) == ["notes"]
    path = bm25.session.layer("project").path / "notes.md"
    text = path.read_text(encoding="utf-8").replace("original words about kayaks", "fresh words about canoes")
    with open(path, "w", encoding="utf-8") as handle:  # in place: the directory's mtime does not move
        handle.write(text)
    assert names(bm25.search("canoes")) == ["notes"]
    assert bm25.search("kayaks") == []
    (bm25.session.layer("project").path / "dropped-in.md").write_text(
        "---\nname: dropped-in\ndescription: copied by hand\ntype: project\n---\n\nmore canoes\n", encoding="utf-8")
    assert set(names(bm25.search("canoes"))) == {"notes", "dropped-in"}
    path.unlink()
    assert names(bm25.search("canoes")) == ["dropped-in"]


def test_the_sweep_policy_of_the_layer_is_the_search_index_s(bm25, monkeypatch):
    from memdir.files import layout as layout_module

    for name in ("notes", "more", "other"):
        bm25.write(name, f"{name} about boats", "project", "original words about kayaks")
    layer = bm25.session.layer("project").path
    old = time.time() - 60
    for settled in (layer, layer / ".memdir" / "journal.jsonl"):  # no change within the clock tick: trusted
        os.utime(settled, (old, old))
    monkeypatch.setattr(sweeps_module, "SWEEP_ALWAYS_MAX", 2)  # three files: a large layer, for this test
    monkeypatch.setattr(layout_module, "SWEEP_INTERVAL", 3600.0)
    assert sorted(names(bm25.search("kayaks", k=5))) == ["more", "notes", "other"]  # indexed, and swept now
    path = layer / "notes.md"
    text = path.read_text(encoding="utf-8").replace("original words about kayaks", "fresh words about canoes")
    with open(path, "w", encoding="utf-8") as handle:  # in place: the directory's mtime does not move
        handle.write(text)
    # before: search kept its own copy of the policy (500 files), swept at once and found it
    assert bm25.search("canoes") == []  # within the interval, the large layer is not swept again
    monkeypatch.setattr(layout_module, "SWEEP_INTERVAL", 0.0)
    assert names(bm25.search("canoes")) == ["notes"]  # control: the interval passed, the edit is found


def test_index_is_derived(bm25, isolated_home):
    bm25.write("db-port", "Dev PostgreSQL listens on 5433", "project", "moved off 5432 on 2026-11-02")
    assert names(bm25.search("postgresql")) == ["db-port"]
    assert db_path(isolated_home).is_file()
    from memdir.search.index import close_all

    close_all()
    for suffix in ("", "-wal", "-shm"):
        if os.path.exists(str(db_path(isolated_home)) + suffix):
            os.unlink(str(db_path(isolated_home)) + suffix)
    assert names(bm25.search("postgresql")) == ["db-port"]
    close_all()
    db_path(isolated_home).write_bytes(b"this is not a database" * 100)
    assert names(bm25.search("5432")) == ["db-port"]


def test_index_schema_and_wal(bm25, isolated_home):
    bm25.write("one", "first memory", "project", "alpha")
    bm25.search("alpha")
    conn = sqlite3.connect(db_path(isolated_home))
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    row = conn.execute("SELECT layer, name, type, status, disabled, pinned FROM docs").fetchone()
    assert row[1:] == ("one", "project", "active", 0, 0) and row[0].startswith("projects/")
    conn.close()


def test_results_are_bounded(bm25):
    for i in range(12):
        bm25.write(f"long-{i}", f"walrus fact {i}", "project", ("walrus " + "tusks ivory blubber " * 40)[:1900])
    results = bm25.search("walrus", k=100)
    assert len(results) == 12
    assert all(len(r.snippet) <= SNIPPET_CHARS for r in results)
    assert all("walrus" in r.snippet for r in results)
    assert len(bm25.search("walrus", k=3)) == 3
    from memdir.search.ranking import search

    bounded = search(bm25.session, "walrus", k=12, max_bytes=800)
    assert 1 <= len(bounded) < 12
    assert RESULTS_MAX_BYTES >= 8192
    with pytest.raises(InvalidInput):
        bm25.search("walrus", k=0)


def test_result_fields_and_boosts(bm25):
    bm25.write("plain", "ferry timetable", "project", "the ferry leaves at nine")
    person = Memory.open(home=bm25.home, project=bm25.project_root, search_vectors="off", actor="human")
    person.write("pinned-one", "ferry timetable", "project", "the ferry leaves at nine", pinned=True)  # a copy: warned
    results = bm25.search("ferry")
    assert names(results) == ["pinned-one", "plain"]
    top = results[0].to_dict()
    assert top == {"name": "pinned-one", "scope": "project", "type": "project", "description": "ferry timetable",
                   "snippet": "the ferry leaves at nine", "score": top["score"], "title": None, "pinned": True,
                   "why": {"terms": ["ferry"], "cosine": None}}
    assert top["score"] == results[1].score >= 0.5  # the same evidence, one calibrated score: the pin breaks the tie
    assert search_mode(bm25.settings) == "bm25"
    assert bm25.status().search == "bm25"


def test_snippet_centres_on_the_match(bm25):
    body = "lorem ipsum dolor " * 30 + "the narwhal lives here " + "sit amet " * 30
    bm25.write("far-match", "marine notes", "project", body)
    snippet = bm25.search("narwhal")[0].snippet
    assert "narwhal" in snippet and snippet.startswith("…") and snippet.endswith("…")
    assert len(snippet) <= SNIPPET_CHARS


def test_works_without_the_vectors_extra(isolated_home, project, monkeypatch):
    from memdir.search import vectors

    monkeypatch.setattr(vectors, "importable", lambda: False)
    mem = Memory.open(home=isolated_home, project=project)  # search_vectors = auto
    mem.write("kettle", "descale the kettle", "project", "vinegar, monthly")
    assert search_mode(mem.settings) == "bm25"
    assert mem.status().search == "bm25"
    assert names(mem.search("kettle vinegar")) == ["kettle"]


def test_every_write_is_seen_by_the_next_query(bm25):
    words = ["amber", "basalt", "cobalt", "dolomite", "emerald", "feldspar", "garnet", "hematite"]
    for i, word in enumerate(words):
        bm25.write(f"rock-{i}", f"rock sample {i}", "project", f"sample of {word}")
        assert names(bm25.search(word)) == [f"rock-{i}"]
        bm25.write(f"rock-{i}", f"rock sample {i}", "project", f"sample of quartz-{i}")
        assert bm25.search(word) == []
        assert names(bm25.search(f"quartz-{i}"))[0] == f"rock-{i}"


def test_one_connection_per_thread(bm25):
    import threading

    for i in range(20):
        bm25.write(f"bird-{i}", f"bird sighting {i}", "project", f"heron number {i} by the lake")
    failures, counts = [], []

    def worker():
        try:
            for _ in range(10):
                counts.append(len(bm25.search("heron lake", k=50)))
        except Exception as exc:
            failures.append(exc)

    threads = [threading.Thread(target=worker) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert failures == []
    assert counts == [20] * 40


@pytest.mark.slow
def test_threads_opening_a_new_index_together_all_get_it(tmp_path):
    """Switching a new index to WAL returned SQLITE_BUSY at once to a thread opening it at the same
    moment (CI failed on it once in 20 runs): every opener now waits its turn."""
    import threading

    from memdir.search import index as fts

    for trial in range(100):
        home = tmp_path / f"home-{trial}"
        start, failures, tables = threading.Barrier(8), [], []

        def opener():
            start.wait()
            try:
                conn = fts.connect(home)
                tables.append(conn.execute("SELECT count(*) FROM meta").fetchone()[0])
            except Exception as exc:
                failures.append(exc)
            finally:
                fts.close_all()

        threads = [threading.Thread(target=opener) for _ in range(8)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert failures == []
        assert tables == [1] * 8  # the schema made once, by one of them


def test_malformed_file_is_left_out_and_reported_elsewhere(bm25):
    bm25.write("good", "a readable memory", "project", "otters hold hands while sleeping")
    (bm25.session.layer("project").path / "broken.md").write_text("---\ndescription: &a otters\n---\notters\n",
                                                          encoding="utf-8")  # a YAML anchor: refused
    assert names(bm25.search("otters")) == ["good"]
    assert names(bm25.search("otters sleeping")) == ["good"]
    assert any(m.path.endswith("broken.md") for m in bm25.list().malformed)


def test_a_directory_where_the_index_goes_is_set_aside_not_an_error(bm25, isolated_home):
    from memdir.search.index import close_all

    bm25.write("one", "first memory", "project", "alpha")
    close_all()
    for suffix in ("", "-wal", "-shm"):
        Path(str(db_path(isolated_home)) + suffix).unlink(missing_ok=True)
    db_path(isolated_home).mkdir(parents=True)  # a directory where the index file should be
    assert names(bm25.search("alpha")) == ["one"]  # was: StoreError "Is a directory"
    assert db_path(isolated_home).is_file()
    assert [p.is_dir() for p in db_path(isolated_home).parent.glob("index.sqlite.corrupt-*")] == [True]  # kept


def test_without_a_project_only_the_user_layer_is_searched(isolated_home, project):
    from memdir import ScopeError

    with_project = Memory.open(home=isolated_home, project=project, search_vectors="off")
    with_project.write("proj-fact", "project llama fact", "project", "llamas in the project")
    with_project.write("user-fact", "user llama fact", "user", "llamas for the person", scope="user")
    alone = Memory.open(home=isolated_home, use_cwd=False, search_vectors="off")
    assert names(alone.search("llamas")) == ["user-fact"]
    assert set(names(with_project.search("llamas"))) == {"proj-fact", "user-fact"}
    with pytest.raises(ScopeError):
        alone.search("llamas", scope="project")


def test_an_exact_word_ranks_first_while_vectors_are_still_being_built(mem):
    for i in range(30):
        mem.write(f"note-{i:02d}", f"deploy note {i} about the build pipeline", "project",
                  f"Step {i}: run the pipeline and check the logs.")
    mem.write("mascot", "the team mascot", "project", "Our mascot is the wombatizer, a striped animal.")
    results = mem.search("wombatizer", k=3)
    assert results[0].name == "mascot"
    assert all(r.score < results[0].score for r in results[1:])


def test_search_list_read_and_context_agree_on_two_files_with_one_name(bm25, isolated_home, project):
    """The index holds what the layer's scan yields: the file named db-port.md
    wins over a hand-made DB_Port.md, in every reader."""
    bm25.write("db-port", "Dev PostgreSQL listens on 5433", "project", "Moved from 5432 on 2026-11-02.")
    layer_dir = bm25.session.layer("project").path
    (layer_dir / "DB_Port.md").write_text("---\nname: DB_Port\ndescription: Hand-made PostgreSQL note, port 9999\n"
                                          "type: project\n---\n\nThe PostgreSQL port is 9999 (old notes).\n")
    an_hour_ago = time.time() - 3600  # old enough that the index trusts its stat key and does not re-read it
    os.utime(layer_dir / "DB_Port.md", (an_hour_ago, an_hour_ago))
    listed = bm25.list()
    assert [m.name for m in listed.memories] == ["db-port"]
    assert [(os.path.basename(m.path), m.error) for m in listed.malformed] == [
        ("DB_Port.md", "duplicate of db-port.md (same name 'db-port')")]
    record = bm25.read("db-port", count=False).record
    hits = bm25.search("postgresql port")
    assert [(h.name, h.description, h.snippet) for h in hits] == [
        ("db-port", record.description, record.body)]
    assert "9999" not in bm25.context() and "5433" in bm25.context()
    tool = bm25.call_tool("memory_search", {"query": "postgresql port"})
    assert "Dev PostgreSQL listens on 5433" in tool and "9999" not in tool
    # The winner goes by hand: the other file holds db-port now, in a fresh reader too.
    (layer_dir / "db-port.md").unlink()
    fresh = Memory.open(home=isolated_home, project=project, search_vectors="off")
    hits = fresh.search("postgresql port")  # first: this process has read no file yet
    record = fresh.read("db-port", count=False).record
    assert record.description == "Hand-made PostgreSQL note, port 9999"
    assert [(h.name, h.description) for h in hits] == [("db-port", record.description)]
    assert fresh.list().malformed == ()


CORE_ONLY = """
import sys
sys.modules["snowballstemmer"] = None  # as installed with the core dependencies alone
from memdir import Memory, MissingExtra
mem = Memory.open(home=sys.argv[1], project=sys.argv[2])
try:
    mem.search("postgresql port")
except MissingExtra as exc:
    print("search:", exc)
try:
    mem.recall("what port does postgresql use?")
except MissingExtra as exc:
    print("recall:", exc)
print("tool:", mem.call_tool("memory_search", {"query": "postgresql port"}))
print("status:", mem.status().search)
print("read:", mem.read("db-port", count=False).record.description)
"""


@pytest.mark.slow
def test_search_with_only_the_core_dependencies_names_the_extra(mem, isolated_home, project):
    import subprocess
    import sys

    mem.write("db-port", "Dev PostgreSQL listens on 5433", "project", "")
    done = subprocess.run([sys.executable, "-c", CORE_ONLY, str(isolated_home), str(project)],
                          capture_output=True, text=True, timeout=60)
    from memdir.version import install_command

    command = install_command("search")  # as the fresh process reads this install (tests/test_evalstore_helper.py)
    assert command.startswith("pip install ") and "[search]" in command

    message = f"search needs the 'snowballstemmer' package, which is not installed: {command}"
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [
        f"search: {message}", f"recall: {message}", f"tool: Error: {message}",
        f"status: unavailable ({command})",
        "read: Dev PostgreSQL listens on 5433"]  # control: the store itself works
    assert [h.name for h in mem.search("postgresql port")] == ["db-port"]  # control: with the extra, it searches


def test_a_hit_names_its_memory_fields_and_cannot_be_read_by_position(bm25):
    from dataclasses import FrozenInstanceError

    from memdir.search.ranking import IndexedMemory, ranked

    bm25.write("db-port", "Dev PostgreSQL listens on 5433", "project", "Moved from 5432.", pinned=True)
    bm25.write("tz", "The person works in UTC+8", "user", "")
    hits, _terms, scope_of = ranked(bm25.session, "postgresql port", pool=10)
    memory = hits[0].memory
    assert isinstance(memory, IndexedMemory)
    assert (memory.name, memory.type, memory.description, memory.body, memory.pinned, scope_of[memory.layer]) == (
        "db-port", "project", "Dev PostgreSQL listens on 5433", "Moved from 5432.", 1, "project")
    assert memory.bm25 > 0 and memory.title is None and memory.updated > 0  # the column order matches the SQL
    with pytest.raises(TypeError):
        memory[2]  # no positional reading left
    with pytest.raises(FrozenInstanceError):
        memory.name = "other"
