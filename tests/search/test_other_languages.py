"""Word forms in Russian and Greek meet, and a hash name is no words (issue 28, items 1 and 6).

A new user found that `лог` and "расскажи о логах" found nothing beside a memory holding `логи` (1.00 for `логи`),
"напомни про логи" scored 0.46 and recalled nothing, and `διακομιστη` and "θύμισέ μου για τον διακομιστή" found
nothing beside a memory holding διακομιστής: search stemmed English only. A word is now stemmed by its script's
Snowball stemmer (memdir.search.stemming), and the common Russian and Greek function and request words are
memdir.text.words'. `search s3` also listed a memory named by hash (`m-c3f8ff75a0`, title 部署流程) on the "3" of
its hash, and `search c3f8` others on single letters: a hash name's field is now empty
(memdir.search.tokenize.document_fields). Each case through the API, the CLI and the real prompt hook, beside a
control in the same store.
"""

from __future__ import annotations

import json
import sqlite3

import pytest

from memdir import Memory
from memdir.search import index
from memdir.search.stemming import language, stem
from memdir.search.tokenize import document_fields, query_terms, tokens
from memdir.text.names import normalize_name

from ..conftest import run_cli, run_prompt_hook
from .surfaces import lexical_env

HASHED = normalize_name("部署流程").name  # m-c3f8ff75a0


@pytest.fixture
def store(isolated_home, project):
    mem = Memory.open(home=isolated_home, project=project, actor="human", search_vectors="off")
    mem.write("ru-logs", "Где лежат логи", "project", "Логи сервера пишутся в /var/log/app, ротация раз в сутки.")
    mem.write("ru-moose", "Лось на даче", "user", "Лось приходит к забору каждое утро.")
    mem.write("el-server", "Ο διακομιστής παραγωγής", "project", "Ο διακομιστής τρέχει στο 10.0.0.5 με nginx.")
    mem.write("el-db", "Βάση δεδομένων", "project", "Η βάση δεδομένων είναι PostgreSQL 16.")
    mem.write("部署流程", "部署流程先在预发环境验证", "project", "然后再发布到生产环境。")
    mem.write("s3-backups", "Backups go to the S3 bucket acme-backups", "project", "Glacier after 90 days.")
    return mem


def test_a_word_is_stemmed_by_its_script_s_stemmer():
    assert [stem(w) for w in ("лог", "логи", "логах", "логов")] == ["лог"] * 4
    assert stem("лось") == "ло" != stem("лог")  # control: another Russian word keeps its own stem
    assert tokens("διακομιστη διακομιστής Διακομιστές διακομιστών") == ["διακομ"] * 4  # folded first: ς, accents
    assert tokens("βάση βάσεις") == ["βασ"] * 2 and stem("δεδομενων") == "δεδομεν"
    assert tokens("running deployment publicity") == ["run", "deploy", "publiciti"]  # English rules unchanged
    assert stem("μου") == "μου" and stem("για") == "για"  # a stem of one letter (μ, γ) leaves the word whole
    assert language("логії") is None and stem("логії") == "логії"  # Ukrainian і: no Russian stemmer
    assert language("k8sсервер") is None and language("ёлка") is None  # mixed scripts; unfolded ё
    assert (language("логи"), language("σημειωσεισ"), language("zurich")) == ("russian", "greek", "english")


def test_russian_and_greek_requests_and_function_words_leave_their_topic():
    assert query_terms("расскажи о логах") == ["расскаж", "лог"]
    assert query_terms("напомни про логи") == ["напомн", "лог"]
    assert query_terms("θύμισέ μου για τον διακομιστή") == ["θυμ", "διακομ"]
    assert query_terms("о про") == ["о", "про"]  # nothing else left: the function words are searched


def test_a_hash_name_is_no_words_and_a_name_of_words_is():
    assert document_fields(HASHED, "部署流程", "d", "b") == ("", "部署 署流 流程", "d", "b")
    assert document_fields("s3-backups", None, "d", "b")[0] == "s3backups backup s3"  # control: words of a name (s3: break44)
    assert HASHED == "m-c3f8ff75a0"


@pytest.mark.slow
def test_other_forms_of_a_russian_or_greek_word_find_the_memory_first(store):
    for query, name in [("лог", "ru-logs"), ("расскажи о логах", "ru-logs"), ("напомни про логи", "ru-logs"),
                        ("логи", "ru-logs"), ("διακομιστη", "el-server"), ("θύμισέ μου για τον διακομιστή", "el-server"),
                        ("διακομιστές", "el-server"), ("βάσεις", "el-db"), ("лось", "ru-moose")]:
        hits = store.search(query)
        assert (query, [h.name for h in hits], hits[0].score >= 0.9) == (query, [name], True), \
            [(h.name, h.score) for h in hits]  # лось and лог: one memory each, never the other
        assert f"## {name} " in store.recall(query), query
    for query in ["расскажи", "θύμισέ μου", "расскажи анекдот", "лесник"]:  # a request alone; no memory's word
        assert (query, store.search(query), store.recall(query)) == (query, [], "")


@pytest.mark.slow
def test_a_hash_name_s_letters_find_nothing_and_its_title_finds_it(store):
    assert [h.name for h in store.search("s3")] == ["s3-backups"]  # before: also m-c3f8ff75a0 at 0.05, on its 3
    assert store.search("c3f8") == [] and store.search("f8") == []
    hits = store.search("部署")
    assert ([h.name for h in hits], hits[0].score >= 0.9) == ([HASHED], True)  # control: found by its title


@pytest.mark.slow
def test_the_cli_finds_a_russian_form_and_not_a_hash_name(store, isolated_home, project):
    env = lexical_env(isolated_home, project)
    found = json.loads(run_cli("search", "расскажи о логах", "--json", env=env).stdout)["results"]
    assert [(r["name"], r["score"] >= 0.9) for r in found] == [("ru-logs", True)]
    found = json.loads(run_cli("search", "s3", "--json", env=env).stdout)["results"]
    assert [r["name"] for r in found] == ["s3-backups"]
    assert json.loads(run_cli("search", "c3f8", "--json", env=env).stdout)["results"] == []


@pytest.mark.slow
def test_the_prompt_hook_recalls_a_russian_and_a_greek_request(store, isolated_home, project):
    env = lexical_env(isolated_home, project)

    def recalled(prompt: str, session: str) -> str:
        out = run_prompt_hook(project, prompt, env, session=session)
        return json.loads(out)["hookSpecificOutput"]["additionalContext"] if out.strip() else ""

    russian = recalled("напомни про логи", "r")  # before: nothing
    assert "## ru-logs " in russian and "ru-moose" not in russian
    greek = recalled("θύμισέ μου για τον διακομιστή", "g")  # before: nothing
    assert "## el-server " in greek and "el-db" not in greek
    assert recalled("расскажи анекдот", "n") == ""  # control: a request about nothing the store holds


@pytest.mark.slow
def test_an_index_of_schema_9_is_tokenized_again_with_stems_and_without_hash_names(store):
    assert [h.name for h in store.search("лог")] == ["ru-logs"]  # the index made and synced
    conn = index.connect(store.home)
    logs, hashed = (conn.execute("SELECT id FROM docs WHERE name = ?", (n,)).fetchone()[0] for n in ("ru-logs", HASHED))
    conn.execute("UPDATE fts SET description = 'где лежат логи' WHERE rowid = ?", (logs,))  # what schema 9 wrote
    conn.execute("UPDATE fts SET name = 'mc3f8ff75a0 m c3 f8ff75a0' WHERE rowid = ?", (hashed,))
    conn.execute("INSERT INTO vectors VALUES (?, 'd', 'm', x'00')", (logs,))
    conn.execute("PRAGMA user_version = 9")
    index.close_all()
    conn = index.connect(store.home)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == index.SCHEMA_VERSION == 34
    assert conn.execute("SELECT count(*) FROM vectors").fetchone()[0] == 1  # in place: the vector kept
    assert conn.execute("SELECT description FROM fts WHERE rowid = ?", (logs,)).fetchone()[0] == "где лежат лог"
    assert conn.execute("SELECT name FROM fts WHERE rowid = ?", (hashed,)).fetchone()[0] == ""
    assert conn.execute("SELECT name FROM fts WHERE name != '' ").fetchall()  # control: the other names stand
    assert isinstance(conn, sqlite3.Connection)
