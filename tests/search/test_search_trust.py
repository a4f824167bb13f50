"""Search as a ranked list a person can trust (issue 28): every memory sharing a content word, function words
never diluting a match, prefixes of product names, and the sentence of a long note that answers a question."""

from __future__ import annotations

import pytest

from memdir import Memory
from memdir.search import relevance
from memdir.search.tokenize import query_terms


@pytest.fixture
def five(isolated_home, project):
    mem = Memory.open(home=isolated_home, project=project, search_vectors="off")
    mem.write("db-port", "Dev PostgreSQL listens on 5433", "project", "Moved on 2026-11-02.")
    mem.write("staging-host", "Staging lives at staging.internal.example", "project", "VPN required.")
    mem.write("structlog", "Use structlog for logging, JSON lines in production", "project", "Set up in app/log.py.")
    mem.write("python-installs", "Use uv for Python installs, never pip", "feedback", "uv sync installs the lockfile.")
    mem.write("lunch", "Team lunch on Fridays", "project", "Noon, in the cafeteria.")
    return mem


def names(results):
    return [r.name for r in results]


def test_a_query_finds_every_memory_sharing_a_content_word(five):
    found = five.search("database port")
    assert names(found) == ["db-port"]  # "port" is shared; "database" is in no memory
    assert names(five.search("where is staging")) == ["staging-host"]
    assert five.search("where is staging")[0].score > 0.9  # "where", "is" are function words: a full match
    assert names(five.search("which logging library")) == ["structlog"]
    assert five.search("which logging library")[0].score > 0.9  # "library" is a generic word, "logging" matches


def test_filler_and_function_words_never_dilute_a_match(five):
    alone = five.search("structlog")[0].score
    assert alone > 0.99
    assert five.search("structlog go")[0].score > 0.98
    assert five.search("why does structlog")[0].score > 0.98  # "why" and "does" are stopwords once stemmed


def test_unrelated_queries_still_find_nothing(five):
    assert five.search("zxqvbnmplk") == []
    assert five.search("thanks, that works") == []
    assert names(five.search("lunch")) == ["lunch"]  # control: the same store answers


def test_function_words_alone_are_no_content_a_memory_shares(five):
    for query in ("the", "on", "the and of to", "is it"):
        assert five.search(query) == [], query
        assert five.recall(query) == "", query
    assert names(five.search("the staging")) == ["staging-host"]  # control: with a content word it is found
    assert "staging-host" in five.recall("the staging host")


def test_a_generic_word_shared_alone_does_not_list_a_memory(five):
    found = five.search("which port does postgres use")
    assert names(found) == ["db-port"]  # "Use structlog…", "Use uv…" share only "use"
    assert sorted(names(five.search("use"))) == ["python-installs", "structlog"]  # control: asked alone, the topic


def test_stopwords_are_compared_by_their_stems():
    assert query_terms("why does the cache only expire once because of its size") == ["cach", "expir", "size"]
    assert query_terms("very") == ["veri"]  # nothing else left: stopwords are what is searched


def test_a_long_enough_term_finds_the_words_it_begins(isolated_home, project):
    mem = Memory.open(home=isolated_home, project=project, search_vectors="off")
    mem.write("pg", "Dev PostgreSQL listens on 5433", "project", "x")
    mem.write("portal", "The customer portal is a Next.js app", "project", "y")
    assert names(mem.search("postgres")) == ["pg"]
    assert names(mem.search("port")) == []  # four letters: whole words only, never "portal"
    assert names(mem.search("portal")) == ["portal"]  # control


def test_the_sentence_that_answers_beats_a_note_named_after_the_topic(isolated_home, project):
    mem = Memory.open(home=isolated_home, project=project, search_vectors="off")
    filler = ("The team reviewed dashboards, alerts and runbooks for every environment this week. " * 12).strip()
    mem.write("shipping-review", "Shipping capacity review notes", "project",
              f"{filler} The staging Redis cluster was slow. {filler} The port mapping of production changed.")
    mem.write("notifications-review", "Notifications load test notes", "project",
              f"{filler} The staging Redis instance for shipping listens on port 6391. {filler}")
    found = mem.search("What is the port of the staging Redis instance for shipping?")
    assert names(found) == ["notifications-review", "shipping-review"]
    assert found[0].score >= relevance.THRESHOLD


def test_a_compound_finds_its_two_words_in_the_sentence_that_answers(isolated_home, project):
    mem = Memory.open(home=isolated_home, project=project, search_vectors="off")
    filler = ("The team reviewed dashboards, alerts and runbooks for every environment this week. " * 12).strip()
    mem.write("settings-list", "Settings of every store", "project",
              f"{filler} Settings such as port, owner, timeout and version of each Kafka are tracked. "
              f"{filler} The ledger team reads from the staging cluster.")
    mem.write("incident-notes", "Incident review notes", "project",
              f"{filler} Connections from ledger to the staging Kafka time out after 300 milliseconds. {filler}")
    found = mem.search("What is the connection timeout from ledger to the staging Kafka?")
    assert names(found)[0] == "incident-notes"  # "time out" is "timeout", in the sentence that answers
    assert "settings-list" in names(found)  # control: "timeout" written as one word is found too
    assert found[0].why["terms"] == ["connection", "timeout", "ledger", "staging", "kafka"]


def test_a_compound_is_two_words_only_when_they_stand_together(isolated_home, project):
    mem = Memory.open(home=isolated_home, project=project, search_vectors="off")
    mem.write("setup", "Laptop notes", "project", "Run make to set up the laptop.")
    mem.write("apart", "Set notes", "project", "Set the flag, then look it up in the table.")
    assert names(mem.search("setup")) == ["setup"]  # "set up" together; "set … up" apart is not "setup"
    assert names(mem.search("flag")) == ["apart"]  # control: the other memory is searchable
    mem.write("mongo", "Store notes", "project", "The MongoDB cluster of billing.")
    assert names(mem.search("MongoDB")) == ["mongo"]  # an identifier's own parts are not a compound to look for



FILLER = ("The team reviewed dashboards, alerts and runbooks for every environment this week. " * 6).strip()


def _notes(mem, named: bool = False):
    """``note(name, body)``: writes a memory file of that body by hand into ``mem``'s project layer, of type project,
    described "Review notes" (with ``named``: "Review notes <name>")."""
    layer = mem.session.layer("project").path
    layer.mkdir(parents=True, exist_ok=True)

    def note(name, body):
        description = f"Review notes {name}" if named else "Review notes"
        (layer / f"{name}.md").write_text(f"---\nname: {name}\ndescription: {description}\ntype: project\n"
                                          f"---\n\n{body}\n", encoding="utf-8")
    return note


@pytest.mark.slow
def test_a_question_word_no_memory_holds_does_not_hide_the_sentence_holding_the_rest(isolated_home, project):
    mem = Memory.open(home=isolated_home, project=project, search_vectors="off")
    note = _notes(mem, named=True)
    for i in range(60):  # more notes holding the question's words, far apart and often, than a search's pool
        note(f"review-{i:02d}", f"Sandbox and Kafka were slow on day {i}. {FILLER} Kafka lag grew in sandbox. "
                                f"{FILLER} The ledger team was paged; ledger and Kafka recovered.")
    note("audit-notes", f"{FILLER} The sandbox Kafka for ledger is reachable at mq-12.eu.internal. {FILLER}")
    found = mem.search("What is the hostname of the sandbox Kafka for ledger?", k=3)  # "hostname": in no memory
    assert names(found)[0] == "audit-notes"
    assert names(found)[1].startswith("review-")  # control: the notes sharing the words are listed after it


@pytest.mark.slow
@pytest.mark.parametrize("vectors", ["on", "off"])
def test_a_tie_of_sentences_is_broken_by_their_meaning(isolated_home, project, vectors):
    mem = Memory.open(home=isolated_home, project=project, search_vectors=vectors)
    filler = ("The team reviewed dashboards, alerts and runbooks for every environment this week. " * 4).strip()
    endings = {"a-restarts": "was restarted twice by Rosa on Monday", "b-keys": "keeps its list of keys in the vault",
               "z-host": "is reachable at mq-12.eu.internal"}
    for name, ending in endings.items():
        mem.write(name, "Review notes", "project", f"{filler} The sandbox Kafka for ledger {ending}. {filler}")
    results = mem.search("What is the hostname of the sandbox Kafka for ledger?")
    found = names(results)
    assert sorted(found) == sorted(endings)  # every note holding the words is listed
    if vectors == "on":
        assert found[0] == "z-host"  # the sentence that means the answer
    else:  # control: words alone cannot tell them apart (their order among equals falls to recency, then name)
        assert len({round(r.score, 2) for r in results}) == 1


def test_the_best_sentence_is_the_one_holding_most_of_the_query():
    from memdir.search import ties

    read = relevance.Prefixes({"sandbox": 1.0, "kafka": 1.0, "ledger": 1.0})
    text = "Kafka lag grew. The sandbox Kafka for ledger is reachable at mq-12.\nLedger was paged."
    assert ties.best_sentence(text, read, {"sandbox", "kafka", "ledger"}) == \
        "The sandbox Kafka for ledger is reachable at mq-12."
    assert ties.best_sentence("Nothing here. Or here.", read, {"kafka"}) == "Nothing here."  # control: first of equals


@pytest.mark.slow
def test_words_side_by_side_come_before_words_that_share_a_sentence_by_chance(isolated_home, project):
    mem = Memory.open(home=isolated_home, project=project, search_vectors="off")
    note = _notes(mem, named=True)
    for i in range(60):  # more than a search's pool: the three words in one sentence, not side by side
        note(f"review-{i:02d}", f"Sandbox jobs and the Kafka brokers of the ledger team were slow on day {i}.")
    note("audit-notes", f"{FILLER} The sandbox Kafka for ledger is reachable at mq-12.eu.internal. {FILLER}")
    found = names(mem.search("What is the hostname of the sandbox Kafka for ledger?", k=3))
    assert found[0] == "audit-notes"
    assert found[1].startswith("review-")  # control: the notes holding the words apart are listed after it


@pytest.mark.slow
def test_a_question_of_many_terms_finds_its_words_side_by_side(isolated_home, project):
    # "ClickHouse" is three terms (clickhouse click hous): with "qa", "instance" and "payments", FTS5 counts four
    # of the query's own tokens between the first and the last, so a fixed NEAR distance of 4 matched no memory
    # and the short notes holding the words apart filled the search's pool by BM25.
    from memdir.search.near import window

    assert window(['"qa"', '"clickhouse"*', '"click"*', '"hous"', '"instanc"*', '"payment"*'], 1) == 5
    assert window(['"sandbox"*', '"kafka"*'], 1) == 1
    mem = Memory.open(home=isolated_home, project=project, search_vectors="off")
    note = _notes(mem)
    for i in range(60):  # more than a search's pool: the words in one sentence, not side by side
        note(f"review-{i:02d}", f"The ClickHouse instance jobs in qa and the payments team were slow on day {i}.")
    for i in range(40):  # other notes, so the question's words are not in most of the store
        note(f"other-{i:02d}", f"Lunch moved to Friday {i}. {FILLER}")
    note("audit-notes", f"{FILLER} The qa ClickHouse instance for payments is owned by Ines. {FILLER}")
    found = names(mem.search("Who owns the qa ClickHouse instance for payments?", k=3))
    assert found[0] == "audit-notes"
    assert found[1].startswith("review-")  # control: the notes holding the words apart are listed after it


def test_echoed_counts_the_question_s_own_words_in_its_order():
    from memdir.search.ties import echoed

    question = "What is the hostname of the sandbox Kafka for ledger?"
    assert echoed(question, "The sandbox Kafka for ledger is reachable at mq-12.eu.internal.") == 5
    assert echoed(question, "Access to the sandbox Kafka of ledger goes through the bastion.") == 3
    assert echoed(question, "Ledger for Kafka sandbox the.") == 1  # control: the words, not in the question's order


def test_a_tie_counts_every_hit_sharing_the_first_key():
    from types import SimpleNamespace

    from memdir.search import ties

    def hit(score):
        return SimpleNamespace(score=score, order=score, evidence=SimpleNamespace(head=0.0, near=1.0, span=4,
                                                                                 matched=("kafka",)))

    assert ties.tied([hit(0.9)] * 40 + [hit(0.5)]) == 40  # past TIE_MAX: broken() embeds TIE_MAX of them
    assert ties.tied([hit(0.9), hit(0.5)]) == 1  # control: no tie


@pytest.mark.slow
def test_a_tie_larger_than_the_embedded_ones_embeds_the_sentences_echoing_the_question(isolated_home, project):
    # A question word no memory holds ("hostname" where the note says "reachable at") ties every note whose one
    # sentence holds the rest; their number grows with the store. The answering note comes last by name and by
    # BM25 (the longest).
    from memdir.search import ties

    mem = Memory.open(home=isolated_home, project=project, search_vectors="on")
    note = _notes(mem)
    filler = ("The team reviewed dashboards, alerts and runbooks for every environment this week. " * 3).strip()
    note("z-host", f"{filler} The sandbox Kafka for ledger is reachable at mq-12.eu.internal. {filler} {filler}")
    count = ties.TIE_MAX + 8
    for i in range(count):
        note(f"a-{i:02d}", f"{filler} Access to the sandbox Kafka of ledger goes through the bastion, and"
                           f" person {i} keeps the keys. {filler}")
    found = names(mem.search("What is the hostname of the sandbox Kafka for ledger?", k=50))
    assert len(found) == count + 1  # every note holding the words is listed
    assert found[0] == "z-host"  # the sentence that means the answer
    assert found[1].startswith("a-")  # control: the others follow


def test_a_function_word_in_capitals_is_an_acronym_where_the_memory_writes_it_so(five):
    five.write("vpn-owner", "The IT team owns the VPN", "project", "Ask them for access.")
    five.write("it-lowercase", "Deploys run nightly", "project", "if it fails, it retries twice")
    found = five.search("IT")
    assert names(found) == ["vpn-owner"] and found[0].score > 0.9  # not the memory writing "it" in lower case
    assert names(five.search("the IT team"))[0] == "vpn-owner"
    assert names(five.search("deploys"))[0] == "it-lowercase"  # control: that memory answers its own words
    for query in ("it", "is it", "IS IT OK", "the and of to"):  # no capitals, or capitals throughout: no acronym
        assert five.search(query) == [], query
        assert five.recall(query) == "", query
    for prompt in ("is it ok?", "Is it OK?", "ok, is it done?"):
        assert five.recall(prompt) == "", prompt
    assert "vpn-owner" in five.recall("who in IT owns the VPN?")  # control: the same store recalls


def test_acronyms_are_read_from_the_query_as_written():
    from memdir.search.tokenize import acronyms, writes_in_capitals

    assert acronyms("IT") == {"it": "IT"}
    assert acronyms("ask IT-team about it") == {"it": "IT"}
    assert acronyms("a OR b") == {"or": "OR"}
    assert acronyms("is it ok?") == {} and acronyms("IS IT OK") == {} and acronyms("VPN") == {}
    assert writes_in_capitals("The IT team", "IT") and writes_in_capitals("ITTeam owns", "IT")
    assert not writes_in_capitals("ITEM list", "IT") and not writes_in_capitals("it is", "IT")


def test_a_query_with_an_invisible_character_is_searched_without_it_and_shown_with_it(five, project):
    """A zero-width space in a query split the word and was dropped from the echo: `search "stag<ZWSP>ing"`
    said "No memories match 'staging'" beside the staging memory (trial finding)."""
    from tests.conftest import run_cli

    assert names(five.search("stag\u200bing")) == ["staging-host"]
    assert names(five.search("stag\u00ading\u2060")) == ["staging-host"]  # soft hyphen, word joiner
    assert five.search("zzq\u200bxv") == []  # control: a word nothing holds still finds nothing
    five.write("redeploy", "Release notes", "project", "The re\u200bdeployment script lives in ops/")
    assert names(five.search("redeployment")) == ["redeploy"]  # a body's hidden character is read as absent too
    # shown visibly, on every path: the CLI and the tool
    out = run_cli("--project", project, "search", "zzq\u200bxv", env={"MEMDIR_SEARCH_VECTORS": "off"})
    assert out.returncode == 0 and out.stdout == "No memories match 'zzq\\u200bxv'.\n", out.stderr
    assert five.call_tool("memory_search", {"query": "stag\u200bing"}).splitlines()[0] == (
        "1 result(s) for 'stag\\u200bing':")
    assert five.call_tool("memory_search", {"query": "staging"}).splitlines()[0] == "1 result(s) for 'staging':"


def test_us_in_lower_case_is_a_function_word_and_in_capitals_an_acronym(five):
    """"us" was a kept query term: `search "us"` and a prompt saying "tell us" found every memory writing "us"."""
    five.write("us-region", "Prod runs in the US region", "project", "Failover goes to eu-west-1.")
    five.write("standup", "Standup notes", "project", "Let us know before merging to main.")
    assert five.search("us") == [] and five.recall("us") == ""
    assert names(five.search("tell us")) == []  # "tell" is in no memory; "us" alone finds nothing
    assert five.recall("can you tell us how the release works?") == ""
    assert names(five.search("US region")) == ["us-region"] and names(five.search("US")) == ["us-region"]
    assert "## us-region " in five.recall("which US region does prod run in?")  # control: the same store recalls
    assert names(five.search("standup notes")) == ["standup"]  # control: the memory writing "us" answers its words


def test_a_question_around_an_acronym_finds_and_recalls_the_memory_writing_it(five):
    """`search "is IT down?"`: every other word is a function word, so the acronym is what is asked; a
    prompt of the same words recalled nothing (read as a sentence of function words)."""
    five.write("it-rota", "IT support rota: Ana on Mondays, Ben on Tuesdays", "project", "Ask in #it-help first.")
    five.write("vpn-check", "Check whether the VPN is down", "project", "If it is down, restart it with vpnctl.")
    found = five.search("is IT down?")
    assert names(found) == ["it-rota"] and found[0].score > 0.9
    assert "## it-rota " in five.recall("is IT down?") and "vpn-check" not in five.recall("is IT down?")
    for lower in ("is it down?", "Is it down?"):  # control: no acronym, nothing but function words: nothing
        assert five.search(lower) == [] and five.recall(lower) == "", lower
    assert five.recall("IS IT DOWN?") == ""  # shouted: its case says nothing
    assert names(five.search("restart the VPN"))[0] == "vpn-check"  # control: that memory answers its own words
