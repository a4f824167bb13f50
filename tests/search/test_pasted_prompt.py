"""A prompt with a pasted log is read as a person means it (issue 28 item 2; the rule: :mod:`memdir.search.pasted`).

Audit findings: (a) "What does this log mean?" over 30 log lines ending in ``11:00`` … ``11:29`` recalled the
on-call memory ("… every Monday at 09:00 CET"), the numbers of thirty lines piling up as evidence (0.50); the
same log without times recalled nothing. (b) A question placed after a 7 KB log recalled nothing, the same
question placed first recalled ``kafka-retention``: only the first 4,096 characters of a prompt were read.
Now repeated lines of a paste (the same words once numbers are left out) are read once, and a long prompt's
first and last lines come first. A breaker's findings after that: lines a person types that differ only in numbers
("what runs on port 5432 / … 6379") were read as one, and a 384-character question after a log only from its end. Real SQLite and memory files, words alone; the real prompt hook in a subprocess."""

from __future__ import annotations

import itertools
import json

import pytest

from memdir import Memory
from memdir.search import pasted
from memdir.search.tokenize import MAX_QUERY_CHARS
from tests.conftest import run_prompt_hook

QUESTION = "Why is kafka retention dropping events?"
TIMES_LOG = "\n".join(f"INFO worker processed batch ok at 11:{i:02d}" for i in range(30))
LONG_LOG = "\n".join(f"2026-12-01 INFO worker-{i} processed batch {i} ok" for i in range(150))  # 7,183 characters
_SYLLABLES = ["".join(p) for p in itertools.product("bcdfghk", "aeiou", "lmnrst")]
# 150 lines of different words: nothing to fold, 4,649 characters
LONG_PASTE = "\n".join(f"module {_SYLLABLES[i]} loads the {_SYLLABLES[-i - 1]} table" for i in range(150))


@pytest.fixture
def store(isolated_home, project, monkeypatch):
    monkeypatch.setenv("MEMDIR_SEARCH_VECTORS", "off")
    mem = Memory.open(home=isolated_home, project=project, actor="human", search_vectors="off")
    mem.write("oncall-rota", "On-call rotation switches every Monday at 09:00 CET", "project",
              "Page Marta for payments incidents.")
    mem.write("kafka-retention", "Kafka topics keep events for 7 days", "project",
              "Retention is set with retention.ms on the orders topic; analytics reads from it.")
    mem.write("lint", "Run ruff before committing", "feedback", "The pre-commit hooks run ruff format and check.")
    mem.write("backups", "Backups go to the S3 bucket acme-backups-eu", "project",
              "A lifecycle rule moves objects to Glacier after 90 days.")
    return mem


def recalled(mem, prompt):
    return [m.name for m in mem.recall_result(prompt).memories]


def test_the_numbers_of_a_pasted_log_are_no_evidence_for_a_memory(store):
    assert recalled(store, "What does this log mean?\n" + TIMES_LOG) == []
    assert max(r.score for r in store.search(TIMES_LOG)) < 0.1  # was oncall-rota at 0.49
    # controls in the same store: the memory answers its own question, and a log naming a memory's topic recalls it
    assert recalled(store, "when does the on-call rotation switch?") == ["oncall-rota"]
    kafka_log = "\n".join(f"WARN kafka retention dropped events on orders at 11:{i:02d}" for i in range(30))
    assert recalled(store, "What does this log mean?\n" + kafka_log) == ["kafka-retention"]


def test_a_question_after_a_long_log_is_read(store):
    assert len(LONG_LOG + QUESTION) > MAX_QUERY_CHARS and len(LONG_PASTE + QUESTION) > MAX_QUERY_CHARS
    assert recalled(store, LONG_LOG + "\n" + QUESTION) == ["kafka-retention"]
    assert recalled(store, LONG_PASTE + "\n" + QUESTION) == ["kafka-retention"]  # nothing to fold: the ends first
    assert recalled(store, QUESTION + "\n" + LONG_PASTE) == ["kafka-retention"]  # control: the question first
    assert recalled(store, LONG_PASTE) == [] and recalled(store, LONG_LOG) == []  # control: the paste alone


def test_read_folds_repeated_lines_and_puts_a_long_prompts_ends_first():
    assert pasted.read(LONG_LOG + "\n" + QUESTION) == "2026-12-01 INFO worker-0 processed batch 0 ok\n" + QUESTION
    assert pasted.read("What does this log mean?\n" + TIMES_LOG) == \
        "What does this log mean?\nINFO worker processed batch ok at 11:00"
    read = pasted.read(LONG_PASTE + "\n" + QUESTION)
    assert len(read) == MAX_QUERY_CHARS and read.startswith("module bal loads the kut table\n")
    assert QUESTION in read[:2 * pasted.EDGE_CHARS + 2]
    huge = "\n".join(f"2026-12-01 INFO worker-{i} processed batch {i} ok" for i in range(20000))  # 1 MB: its
    assert pasted.read(huge + "\n" + QUESTION + "\n") == huge[:huge.index("\n")] + "\n" + QUESTION  # ends are read
    one_line = "word " * 2000 + QUESTION
    assert pasted.read(one_line).split("\n")[1].endswith(QUESTION)
    # a breaker's findings: a long question after a log is read whole, not its last 300 characters
    long_question = "zookeeper quorum: " + "why does it lose its leader " * 12 + "?"
    assert len(long_question) > pasted.EDGE_CHARS
    assert long_question in pasted.read(LONG_PASTE + "\n" + long_question)
    # ... and a few typed lines that differ only in numbers are as many questions, none left out
    ports = "what runs on port 5432\nwhat runs on port 6379\nwhat runs on port 8080"
    assert pasted.read(ports) == ports
    # controls: a typed query, paragraphs and lines that differ in words are read as they are
    for text in ("redis port", "fix the build\n\nthen fix the tests", "deploy to staging\ndeploy to production"):
        assert pasted.read(text) == text


@pytest.mark.slow
def test_the_prompt_hook_reads_a_pasted_log_so(store, isolated_home, project):
    env = {"MEMDIR_HOME": str(isolated_home), "MEMDIR_PROJECT": str(project), "MEMDIR_SEARCH_VECTORS": "off"}

    def heads(prompt, session):
        out = run_prompt_hook(project, prompt, env, session=session)
        return [line[3:].split(" ")[0] for line in
                (json.loads(out)["hookSpecificOutput"]["additionalContext"] if out else "").splitlines()
                if line.startswith("## ")]

    assert heads("What does this log mean?\n" + TIMES_LOG, "a") == []
    assert heads("when does the on-call rotation switch?", "a") == ["oncall-rota"]  # control
    assert heads(LONG_LOG + "\n" + QUESTION, "b") == ["kafka-retention"]
    assert heads(LONG_LOG, "c") == []  # control: the log alone


# A tester's finding (paste12): a question with pasted text on its line was read with the paste's words, which no
# memory holds, as most of its weight: pg-port scored 0.21 and was not recalled (the question alone: 0.998).
PG_QUESTION = "which port does postgres use?"
PG_ERROR = "psycopg2.OperationalError: connection refused"
OTHER_QUESTION = "how do I center a div in css?"  # control: about nothing in the store


@pytest.fixture
def pg_store(isolated_home, project, monkeypatch):
    monkeypatch.setenv("MEMDIR_SEARCH_VECTORS", "off")
    mem = Memory.open(home=isolated_home, project=project, actor="human", search_vectors="off")
    mem.write("pg-port", "Dev PostgreSQL listens on 5433", "project",
              "The dev PostgreSQL database listens on port 5433, not 5432.")
    mem.write("lint", "Run ruff before committing", "feedback", "The pre-commit hooks run ruff format and check.")
    return mem


def test_a_question_with_a_paste_on_its_line_is_read_as_the_question():
    assert pasted.read(f"{PG_QUESTION} {PG_ERROR}") == PG_QUESTION
    assert pasted.read(f"sqlalchemy.exc.OperationalError: connection refused. {PG_QUESTION}") == PG_QUESTION
    assert pasted.read(f"{PG_ERROR}\n{PG_QUESTION}") == PG_QUESTION  # a short paste on a line of its own
    assert pasted.read('Killed  exit code 137  /app/worker/thumbs.py line 88 -- why does the worker die?') == \
        "why does the worker die?"
    # controls: a question pointing at the paste or with no topic of its own is read with it, and so is a paste
    # of many lines (folded as before), a paste alone and typed sentences
    for text in ("What does this log mean?\nWARN kafka retention dropped events", f"what does it mean? {PG_ERROR}",
                 "fix this: TypeError: can't compare offset-naive and offset-aware datetimes", PG_ERROR,
                 "Deploy to staging. Then run the smoke tests? yes", "what runs on port 5432; what runs on 6379?",
                 "docker: Error response from daemon: pull access denied — what's wrong with my docker run command?"):
        assert pasted.read(text) == text


def test_search_and_recall_read_the_question_beside_a_paste(pg_store):
    for prompt in (f"{PG_QUESTION} {PG_ERROR}", f"{PG_ERROR}. {PG_QUESTION}", f"{PG_ERROR}\n{PG_QUESTION}"):
        found = pg_store.search(prompt)
        assert [(h.name, h.score) for h in found][:1] == [("pg-port", 0.9979)]  # was 0.21 on one line
        assert recalled(pg_store, prompt) == ["pg-port"]
    assert recalled(pg_store, PG_QUESTION) == ["pg-port"]  # control: the question alone, as before
    assert recalled(pg_store, f"{OTHER_QUESTION} {PG_ERROR}") == []  # control: the same paste, another question
    assert recalled(pg_store, PG_ERROR) == []  # control: the paste alone


@pytest.mark.slow
def test_the_cli_hook_and_mcp_read_the_question_beside_a_paste(pg_store, isolated_home, project):
    from mcp import Client

    from memdir.integrations.mcp.server import MemoryServer, build_server
    from tests.conftest import run_cli

    asked, other = f"{PG_QUESTION} {PG_ERROR}", f"{OTHER_QUESTION} {PG_ERROR}"
    env = {"MEMDIR_HOME": str(isolated_home), "MEMDIR_PROJECT": str(project), "MEMDIR_SEARCH_VECTORS": "off"}
    found = run_cli("--project", project, "search", asked, env=env)
    assert found.returncode == 0 and "- pg-port (type: project; layer: project) relevance 1.00" in found.stdout
    none = run_cli("--project", project, "search", other, env=env)
    assert none.returncode == 0 and "pg-port" not in none.stdout  # control: the same paste, another question
    out = run_prompt_hook(project, asked, env, session="a")
    assert "## pg-port" in json.loads(out)["hookSpecificOutput"]["additionalContext"]
    assert run_prompt_hook(project, other, env, session="b") == ""  # control
    state = MemoryServer(home=isolated_home, project=project)
    seen = {}

    async def main():
        async with Client(build_server(state)) as client:
            for key, query in (("asked", asked), ("other", other)):
                seen[key] = (await client.call_tool("memory_search", {"query": query})).content[0].text

    import anyio
    anyio.run(main)
    assert "pg-port" in seen["asked"] and "pg-port" not in seen["other"]


# A tester's finding (break12): a sentence of a person's own naming a path, a URL or a call looked pasted, so "Our app
# server settings live in config/app.toml. Which port does it use?" was read as "Which port does it use?": app-port
# (0.969, recalled alone) tied at 0.962 with every port memory and all three were recalled.
APP_SENTENCE = "Our app server settings live in config/app.toml."


@pytest.fixture
def port_store(pg_store):
    pg_store.write("app-port", "The app server listens on 8088", "project",
                   "The app server's config/app.toml sets its listen port to 8088.")
    pg_store.write("redis-port", "Redis cache listens on 6380", "project", "The redis cache listens on port 6380.")
    return pg_store


def test_a_persons_sentence_naming_a_path_url_or_call_is_read(port_store, isolated_home, project):
    for text in (f"{APP_SENTENCE} Which port does it use?", "We call init_db() for tenants. How do I migrate?",
                 "Which port does the redis cache use? See https://wiki.example/redis for the old one."):
        assert pasted.read(text) == text
    for prompt in (f"{APP_SENTENCE} Which port does it use?", f"Which port does it use? {APP_SENTENCE}",
                   f"{APP_SENTENCE} Which port? OSError: [Errno 98] Address already in use"):
        assert [h.name for h in port_store.search(prompt)][:1] == ["app-port"]
        assert recalled(port_store, prompt) == ["app-port"]
    # controls: the pasted error is still left out, and the question alone names no one port memory
    assert pasted.read(f"{APP_SENTENCE} Which port? OSError: [Errno 98] Address already in use") == \
        f"{APP_SENTENCE} Which port?"
    assert sorted(recalled(port_store, "Which port does it use?")) == ["app-port", "pg-port", "redis-port"]
    env = {"MEMDIR_HOME": str(isolated_home), "MEMDIR_PROJECT": str(project), "MEMDIR_SEARCH_VECTORS": "off"}
    context = json.loads(run_prompt_hook(project, f"{APP_SENTENCE} Which port does it use?", env, session="p"))
    context = context["hookSpecificOutput"]["additionalContext"]
    assert "## app-port" in context and "## redis-port" not in context


def test_a_persons_sentence_naming_an_exception_is_read(pg_store, isolated_home, project):
    """break12: "Our billing client catches TimeoutError." looked pasted and was left out: billing-retry (0.909,
    recalled alone) tied at 0.965 with search-retry and both were recalled. Both say "backoff" in their description:
    with vectors off a question is complete only in a memory whose head holds some of it (recall31's in_passing), so
    the bare question's control needs both to hold it there."""
    from tests.conftest import run_cli

    pg_store.write("billing-retry", "Billing client retries with exponential backoff", "project",
                   "The billing client retries a TimeoutError 5 times with exponential backoff (base 2 s).")
    pg_store.write("search-retry", "Search client retries twice, fixed backoff", "project",
                   "The search client retries twice with a fixed 1 s backoff.")
    said = "Our billing client catches TimeoutError."
    prompt = f"{said} Which backoff does it use? ERROR request failed"
    assert pasted.read(prompt) == f"{said} Which backoff does it use?"
    assert recalled(pg_store, prompt) == ["billing-retry"]
    assert recalled(pg_store, "The billing client hits a TimeoutError sometimes. Which retry backoff does it use?") == \
        ["billing-retry"]
    env = {"MEMDIR_HOME": str(isolated_home), "MEMDIR_PROJECT": str(project), "MEMDIR_SEARCH_VECTORS": "off"}
    found = run_cli("--project", project, "search", prompt, env=env)
    assert found.returncode == 0 and found.stdout.index("billing-retry") < found.stdout.index("search-retry")
    # controls: an exception as a program prints it still looks pasted, and the bare question names no one client
    for printed in ("KeyError: 'billing'", "requests.exceptions.ReadTimeout: ReadTimeoutError", "'TimeoutError'"):
        assert pasted.read(f"Which backoff does the billing client use? {printed}") == \
            "Which backoff does the billing client use?"
    assert sorted(recalled(pg_store, "Which backoff does it use?")) == ["billing-retry", "search-retry"]
