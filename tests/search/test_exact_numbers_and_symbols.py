"""A hostile tester's four findings on explicit search and recall (search41), each with its control.

1. A query's dotted number is that number, exact: ``10.0.0.10`` listed the memory holding ``10.0.0.1`` at 0.76
   (0.83 in the tester's store) by the leading parts both share (``10``, ``10.0``, ``10.0.0``). A query drops
   them now (:func:`memdir.search.versions.query_prefixes`); a memory keeps them, so a shorter query (``10.0.0``,
   ``2.3``) still finds the longer numbers. Versions (``3.1``/``3.12``) and ports (``5433``/``54330``) were apart
   already: other terms, no prefix reading of digits.
2. A lone accented letter is its own term (:func:`memdir.text.fold.lone_letter`): ``o`` (Portuguese, Spanish) found
   the Vietnamese note through ``ở`` folded to ``o``. ``ở`` is a Vietnamese function word and ``é``, ``è``, ``à``
   are Portuguese, Italian and French ones (:data:`memdir.text.words.FUNCTION_WORDS`); typed alone, a lone letter is
   a word of the search (search42: :func:`memdir.search.weighing.letters_typed`).
3. An emoji is a term (:mod:`memdir.search.emoji`): ``🚀`` found nothing. Index schema 31; an index of 30 is
   tokenized again in place when opened, never read with its old terms.
4. Recall of a non-Latin question: no gate drops a script. A question whose word the memory's head holds is
   recalled in every script as in English; one whose word only the body holds in passing is left to search in every
   script as in English (the fitted rule of :mod:`memdir.search.keywords`, unchanged), the bare word recalled.

Vectors off (words alone), real SQLite in a temp home, the CLI as a subprocess.
"""

from __future__ import annotations

import pytest

from memdir import Memory
from memdir.search import index
from memdir.search.emoji import EMOJI_MARK, written
from memdir.search.relevance import THRESHOLD
from memdir.search.tokenize import VERSION_JOIN, query_terms, tokens

from .ranked import top
from .surfaces import cli_search, lexical_env, mcp_search

J = VERSION_JOIN
ROCKET = f"{EMOJI_MARK}1f680"


@pytest.fixture
def store(isolated_home, project):
    mem = Memory.open(home=isolated_home, project=project, actor="human", search_vectors="off")
    mem.write("db-host-a", "Primary database host", "project", "The primary database runs at 10.0.0.1 on the LAN.")
    mem.write("db-host-b", "Replica database host", "project", "The replica database runs at 10.0.0.10 in the cloud.")
    mem.write("py-old", "Legacy Python runtime", "project", "The legacy service is pinned to Python 3.1 forever.")
    mem.write("py-new", "Current Python runtime", "project", "The build image uses Python 3.12 now.")
    mem.write("pg-port", "Postgres port", "project", "Postgres listens on port 5433 locally.")
    mem.write("metrics-port", "Metrics port", "project", "The metrics exporter listens on port 54330.")
    mem.write("viet", "Ghi chú máy chủ", "project", "Máy chủ ở Hà Nội, cơ sở dữ liệu ở tầng hai.")
    mem.write("big-o", "Sorting cost", "project", "The merge step is O(n log n) per batch.")
    mem.write("rocket", "Launch marker", "project", "Deploys are tagged with 🚀 in the changelog.")
    mem.write("checklist", "Release checklist", "project", "Before a release, run the smoke tests and tag it.")
    return mem


def test_a_query_reads_a_dotted_number_as_that_number():
    assert query_terms("10.0.0.10") == [f"10{J}0{J}0{J}10"]  # was 10, 10.0, 10.0.0 and the whole
    assert tokens("10.0.0.10") == ["10", f"10{J}0", f"10{J}0{J}0", f"10{J}0{J}0{J}10"]  # control: a memory keeps them
    assert query_terms("Postgres 16.4") == ["postgr", f"16{J}4"] and query_terms("10.0.0") == [f"10{J}0{J}0"]
    assert query_terms("2.3.1rc1") == ["rc", f"2{J}3{J}1", f"2{J}3{J}1{J}rc1", "rc1"]  # its version kept, no 2.3
    assert query_terms("port 10 on 10.0.0.10") == ["port", "10", f"10{J}0{J}0{J}10"]  # a 10 written alone stays


def test_a_number_finds_its_memory_and_not_its_neighbour(store):
    assert top(store, "10.0.0.10") == [("db-host-b", 1.0)]  # was db-host-a beside it at 0.76
    assert top(store, "10.0.0.1") == [("db-host-a", 1.0)]  # was db-host-b at 0.76
    assert sorted(top(store, "10.0.0")) == [("db-host-a", 0.99), ("db-host-b", 0.99)]  # control: the prefix asked
    assert top(store, "3.12") == [("py-new", 1.0)] and top(store, "3.1") == [("py-old", 1.0)]
    assert top(store, "54330") == [("metrics-port", 1.0)] and top(store, "5433") == [("pg-port", 1.0)]
    found = top(store, "replica database 10.0.0.10")  # a content word shared: the other host listed by it, weak
    assert found[0] == ("db-host-b", 1.0) and dict(found)["db-host-a"] < THRESHOLD


def test_a_lone_accented_letter_is_no_plain_letter(store):
    assert tokens("Máy chủ ở Hà Nội") == ["may", "chu", "ở", "ha", "noi"] and tokens("O(n)") == ["o", "n"]
    assert top(store, "o") == [("big-o", 1.0)]  # was viet (by ở); control: "O(n log n)" holds the letter o
    # a lone letter typed alone is that letter, a word of the search (search42: nothing was found); control: the
    # memory holding none (é) is not listed
    assert top(store, "ở") == [("viet", 1.0)] and top(store, "é") == []
    assert top(store, "máy chủ ở đâu") == [("viet", 0.98)]  # control: its content words find it
    assert top(store, "Hà Nội") == [("viet", 1.0)]
    for nothing in ("thanks, that works", "que é isso", "ở đâu", "à la", "xqzzv blorft"):
        assert top(store, nothing) == [], nothing


def test_an_emoji_is_a_term(store, isolated_home, project):
    assert tokens("tagged 🚀✅ 👍🏽") == ["tag", ROCKET, f"{EMOJI_MARK}2705", f"{EMOJI_MARK}1f44d"]  # a tone no term
    assert tokens("🇩🇪") == [f"{EMOJI_MARK}1f1e9x1f1ea"] and written(tokens("🇩🇪")[0]) == "🇩🇪"
    assert tokens("© 2026 → €5") == ["2026", "5"]  # control: other symbols stay breaks
    assert top(store, "🚀") == [("rocket", 1.0)]  # was nothing; "checklist" (tag, no emoji) not listed
    assert top(store, "✅") == []  # control: no memory holds it
    assert [hit.why["terms"] for hit in store.search("🚀")] == [["🚀"]]  # shown as written
    assert cli_search(lexical_env(isolated_home, project), "🚀") == [("rocket", 1.0)]
    rocket, host = mcp_search(isolated_home, project, "🚀", "10.0.0.10")  # the MCP server's memory_search alike
    assert "rocket" in rocket and "checklist" not in rocket
    assert "db-host-b" in host and "db-host-a" not in host


def test_an_index_of_schema_30_is_tokenized_again(store):
    assert top(store, "🚀") == [("rocket", 1.0)]  # the index made and synced
    conn = index.connect(store.home)
    rocket = conn.execute("SELECT id FROM docs WHERE name = 'rocket'").fetchone()[0]
    conn.execute("UPDATE fts SET body = ? WHERE rowid = ?", ("deploy are tag with in the changelog", rocket))
    conn.execute("PRAGMA user_version = 30")  # 30's terms: no emoji
    index.close_all()
    conn = index.connect(store.home)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == index.SCHEMA_VERSION == 34
    assert ROCKET in conn.execute("SELECT body FROM fts WHERE rowid = ?", (rocket,)).fetchone()[0]
    assert top(store, "🚀") == [("rocket", 1.0)]
    assert top(store, "5433") == [("pg-port", 1.0)]  # control: the other rows as before


QUESTIONS = {  # script: (the memory's head word, its body, a question asking where it is)
    "en": ("Server", "The server is in Frankfurt on port 8080.", "Where is the server?"),
    "ar": ("الخادم", "الخادم موجود في فرانكفورت على المنفذ 8080.", "أين الخادم؟"),
    "ru": ("Сервер", "Сервер находится во Франкфурте, порт 8080.", "Где сервер?"),
    "he": ("השרת", "השרת נמצא בפרנקפורט, פורט 8080.", "איפה השרת?"),
    "hi": ("सर्वर", "सर्वर फ्रैंकफर्ट में है, पोर्ट 8080.", "सर्वर कहाँ है?"),
    "fa": ("سرور", "سرور در فرانکفورت است، پورت 8080.", "سرور کجاست؟"),
    "el": ("Διακομιστής", "Ο διακομιστής είναι στη Φρανκφούρτη, θύρα 8080.", "Πού είναι ο διακομιστής;"),
    "zh": ("服务器", "服务器在法兰克福，端口 8080。", "服务器在哪里？"),
}


def test_recall_of_a_question_is_the_same_in_every_script(isolated_home, project):
    heads = Memory.open(home=isolated_home / "heads", project=project, actor="human", search_vectors="off")
    for script, (head, body, _) in QUESTIONS.items():
        heads.write(f"host-{script}", head, "project", body)
    for script, (_, _, question) in QUESTIONS.items():  # "أين الخادم؟" was reported recalling nothing
        assert [m.name for m in heads.recall_result(question).memories] == [f"host-{script}"], script
    # the word in the body alone: a question is left to search in every script alike, the bare word recalled
    bodies = Memory.open(home=isolated_home / "bodies", project=project, actor="human", search_vectors="off")
    for n, script in enumerate(("en", "ar", "ru", "hi")):
        bodies.write(f"notes-{script}", f"Deploy notes {'abcd'[n]}", "project", QUESTIONS[script][1])
    for script, word in (("en", "server"), ("ar", "الخادم"), ("ru", "сервер"), ("hi", "सर्वर")):
        assert [m.name for m in bodies.recall_result(QUESTIONS[script][2]).memories] == [], script
        assert [m.name for m in bodies.recall_result(word).memories] == [f"notes-{script}"], script
        assert [h.name for h in bodies.search(QUESTIONS[script][2])] == [f"notes-{script}"], script  # search lists it
