"""A query word is read as another word the index holds by its spelling in one rule (issue 28, item 1).

memdir.search.spelling: a stem begins longer words only when the stemmer took at most an inflection off the
query word as written (``postgres`` finds "PostgreSQL"; ``changeling``, stem ``changel``, does not find
"changelog"; ``postgis``, stem ``postgi``, is no ``postg``); a word no memory holds is a longer spelling of a
shorter name only when it runs on by letters without a vowel (``postgresql``: "Postgres"; ``committee`` is not
"commit"). Was: each of these found the unrelated memory at relevance 1.00, and the prompt hook injected it.
Every must-not-find case has its must-find control in the same store, through the API, recall, the CLI, the
MCP tool and the prompt hook.
"""

from __future__ import annotations

import re
from functools import partial

import pytest

from memdir import Memory
from memdir.search import spelling
from tests.search.densestub import notes_store
from tests.search.ranked import top
from tests.search.surfaces import block_names, cli_search, hook_block, lexical_env, mcp_search


MEMORIES = [
    ("pg-host", "Postgres runs on db1, version 16", "Backups at 02:00."),
    ("changes", "The changelog lists every release", "Keep a Changelog format."),
    ("release-version", "Bump the version in pyproject before a release", "Then tag."),
    ("commit-style", "Commit messages use the imperative mood", "One line summary."),
    ("secrets", "A secret never goes into git", "Use the vault."),
    ("cleanup", "We invest a day per sprint in cleanup", "Fridays."),
    ("web-server", "The web server restarts nightly", "Cron at 03:00."),
    ("on-call", "Every person on call has a pager", "Rotation weekly."),
    ("docs-rule", "Document every public function", "Docstrings with shapes."),
    ("sessions", "Sessions expire after 30 minutes", "Refresh after a week."),
    ("settings", "Config lives in settings.toml", "Never in env files."),
]

# (query, the memory it must find) and (query no memory fits, the memory it used to find at 1.00)
FOUND = [("postgresql", "pg-host"), ("postgres", "pg-host"), ("changelog", "changes"),
         ("committed", "commit-style"), ("secrets", "secrets"), ("investing", "cleanup"), ("servers", "web-server"),
         ("persons", "on-call"), ("documents", "docs-rule"), ("expiry", "sessions"), ("configs", "settings")]
NOT_FOUND = [("postgis", "pg-host"), ("changeling", "changes"), ("committee", "commit-style"),
             ("secretary", "secrets"), ("investigate", "cleanup"), ("serverless", "web-server"),
             ("persona", "on-call"), ("documentary", "docs-rule")]


@pytest.fixture
def store(isolated_home, project):
    return notes_store(isolated_home, project, MEMORIES)


def recalled(mem, prompt):
    return [m.name for m in mem.recall_result(prompt).memories]


def test_a_stem_begins_longer_words_only_as_the_query_writes_it():
    assert spelling.start("postgr", {"postgres"}) == "postgre"  # the stemmer took -es: postgr and postgre-sql
    assert spelling.start("postgresql", {"postgresql"}) == "postgresql"
    assert spelling.start("expiri", {"expiry"}) == "expir"  # a y written i: begins expires, expiration
    assert spelling.start("configur", {"config"}) == "configur"  # a short form written whole
    assert spelling.start("cach", {"caches"}) is None  # too short (four letters) to begin others
    assert spelling.start("postgi", {"postgis"}) == "postgi"  # was postg (as if postgi were postgy): Postgres
    assert spelling.start("changel", {"changeling"}) is None  # -ing cut: changel begins no word of its own
    assert spelling.start("logist", {"logistics"}) is None
    assert spelling.start("changel", {"changeling", "changel"}) == "changel"  # one form written as the stem
    assert spelling.starts(["postgr", "changel", "port"], {"postgr": {"postgr"}, "changel": {"changeling"}}) \
        == {"postgr": "postgr"}


def test_a_longer_spelling_runs_on_by_letters_without_a_vowel():
    assert spelling.runs_on("postgresql", "postgr")  # Postgres + ql
    assert spelling.runs_on("influxdb", "influx") and spelling.runs_on("angularjs", "angular")  # + db, js
    assert not spelling.runs_on("kubectl", "kube")  # a name under six letters is too many words' start
    for term, held in [("committe", "commit"), ("secretari", "secret"), ("investig", "invest"),
                       ("serverless", "server"), ("persona", "person"), ("documentari", "document"),
                       ("postgresqlx", "postgr"), ("listensomething", "listen"), ("postgresql", "postgresql")]:
        assert not spelling.runs_on(term, held), (term, held)


def test_a_different_word_sharing_a_long_start_finds_nothing(store):
    for query, was in NOT_FOUND:
        assert (query, top(store, query), recalled(store, query)) == (query, [], []), was
    for query, name in FOUND:  # controls in the same store: the words the memories write, and their forms
        assert (query, top(store, query)[:1], recalled(store, query)) == (query, [(name, 1.0)], [name])


def test_a_long_name_and_another_word_rank_the_memory_holding_both_first(store):
    hits = top(store, "postgresql version")
    assert hits[0] == ("pg-host", 1.0) and hits[1][0] == "release-version" and hits[1][1] < hits[0][1]
    assert recalled(store, "which postgresql version do we run") == ["pg-host"]
    # postgis is not postgresql: the Postgres memory holds "version" as the version memory does, and no more
    # (was: pg-host 1.00, release-version 0.05, and recalled)
    hits = dict(top(store, "postgis version"))
    assert hits["pg-host"] == hits["release-version"] < 0.5 and recalled(store, "postgis version") == []


@pytest.mark.slow
def test_the_cli_the_mcp_tool_and_the_prompt_hook_read_spelling_alike(store, isolated_home, project, monkeypatch):
    env = lexical_env(isolated_home, project)
    monkeypatch.setenv("MEMDIR_SEARCH_VECTORS", "off")
    cli = partial(cli_search, env)

    assert (cli("postgis"), cli("changeling"), cli("committee")) == ([], [], [])
    assert (cli("postgresql"), cli("changelog")) == ([("pg-host", 1.0)], [("changes", 1.0)])  # controls

    none, found = mcp_search(isolated_home, project, "changeling", "postgresql")
    assert "changes" not in none and "pg-host" not in none
    assert found.splitlines()[0] == "1 result(s) for 'postgresql':" and "pg-host" in found.splitlines()[1]

    hook = partial(hook_block, project, env)
    assert hook("set up postgis for the maps") == "" and hook("the changeling in the story") == ""
    assert "## pg-host" in hook("which postgresql host is it")


# A word derived from another is another word (spelling.derived): the stemmer's derivational endings join
# different words (publicity and "public", topical and "topics", officers and "office"); an inflection, a verb's
# act (-ment, -ation) and an adverb still meet their word. Was: each NOT_DERIVED query found its memory at 1.00.
DERIVATIONS = [
    ("rate-limits", "The public API is rate-limited per key", "Clients get 429 with Retry-After."),
    ("tz-rule", "Store timestamps in UTC", "Convert to local time in the UI only."),
    ("munich", "The Munich office hosts the offsite", "Badge in at the main entrance."),
    ("kafka", "Kafka topics keep events for 7 days", "Set with retention.ms."),
    ("lint", "Run ruff format before committing", "The pre-commit hook runs it."),
    ("backups", "A lifecycle rule moves objects to Glacier", "After 90 days."),
    ("retention", "The retention policy keeps logs 30 days", "Legal asks first."),
    ("audit", "Security officers review every release", "Sign-off in the tracker."),
    ("python-installs", "Use uv for Python installs, never pip", "uv pip compile pins."),
    ("thursday", "Deploy on Thursdays only", "Fridays are frozen."),
    ("schema", "Migrate the schema with Alembic", "Autogenerate, then edit by hand."),
]
NOT_DERIVED = [("publicity", "rate-limits"), ("publication", "rate-limits"), ("clientele", "rate-limits"),
               ("convertible", "tz-rule"), ("topical", "kafka"), ("formative", "lint"), ("objective", "backups"),
               ("police", "retention")]
DERIVED = [("public", "rate-limits"), ("clients", "rate-limits"), ("retries", "rate-limits"),
           ("converting", "tz-rule"), ("topic", "kafka"), ("formatting", "lint"), ("committed", "lint"),
           ("object", "backups"), ("policies", "retention"), ("officer", "audit"), ("hosting", "munich"),
           ("install", "python-installs"), ("installation", "python-installs"),
           ("installing", "python-installs"), ("deployment", "thursday"), ("deploying", "thursday"),
           ("migration", "schema"), ("migrations", "schema")]


@pytest.fixture
def derivations(isolated_home, project):
    mem = Memory.open(home=isolated_home, project=project, actor="human", search_vectors="off")
    for name, description, body in DERIVATIONS:
        mem.write(name, description, "project", body)
    return mem


def test_a_word_is_its_stem_less_an_inflection_or_a_verbs_act():
    from memdir.search.tokenize import stem

    words = ["publicity", "publication", "convertible", "formative", "topical", "officers", "objective", "police",
             "installation", "installing", "deployment", "migration", "configuration", "normalization", "normalize",
             "performance", "quickly", "replicate", "replication", "committed", "hosting", "retries"]
    assert [stem(w) for w in words] == [
        "publiciti", "publicat", "convertibl", "formativ", "topical", "officer", "objectiv", "polic",
        "instal", "instal", "deploy", "migrat", "configur", "normaliz", "normaliz",
        "perform", "quick", "replicat", "replicat", "commit", "host", "retri"]
    assert (stem("public"), stem("topics"), stem("office"), stem("objects"), stem("install")) == \
        ("public", "topic", "offic", "object", "instal")  # the controls: the words those were joined to
    assert spelling.uninflected("officers") == "officer" and spelling.uninflected("copied") == "copi"
    assert spelling.derived("publicity", "public", stem) == "publiciti"
    assert spelling.derived("deployment", "deploy", stem) == "deploy"
    assert spelling.derived("install", "instal", stem) == "instal"  # one letter more: the stemmer's ll
    assert [stem(w) for w in ("verification", "verify", "dependency", "dependent", "depends", "going")] == \
        ["verifi", "verifi", "depend", "depend", "depend", "go"]  # an -ification is its -ify's; a state; -ing


def test_a_final_e_is_the_words_own_when_it_begins_longer_words():
    assert spelling.start("polic", {"police"}) == "police"  # begins police + a name tail, not polici (policy)
    assert spelling.start("offic", {"office"}) == "office"  # not officer
    assert spelling.start("polic", {"police", "polic"}) == "polic"
    assert spelling.fetch("polic", "police") == "polic" and spelling.fetch("postgr", "postgr") == "postgr"
    assert not spelling.runs_on("clientel", "client", {"clientele"})  # client + ele: a syllable
    assert not spelling.runs_on("clientel", "client")  # from the stem alone: client + e + l, no name's tail
    assert spelling.runs_on("postgresql", "postgr", {"postgresql"})  # the control: Postgres + ql


def test_a_word_derived_from_a_memorys_word_finds_nothing(derivations):
    for query, was in NOT_DERIVED:
        assert (query, top(derivations, query), recalled(derivations, query)) == (query, [], []), was
    for query, name in DERIVED:  # controls in the same store: inflections, a verb's act, the word itself
        assert (query, top(derivations, query)[:1], recalled(derivations, query)) == (query, [(name, 1.0)], [name])
    # officers is not office: it finds the officers' memory only (was: the Munich office's too, at 1.00); nor is
    # office officers: office + r runs on by no inflection or name's tail (spelling.begins; was: both)
    assert top(derivations, "officers") == [("audit", 1.0)]
    assert top(derivations, "office") == [("munich", 1.0)]


@pytest.mark.slow
def test_the_cli_and_the_prompt_hook_read_derivations_alike(derivations, isolated_home, project):
    env = lexical_env(isolated_home, project)
    cli = partial(cli_search, env)
    assert (cli("publicity"), cli("topical")) == ([], [])
    assert (cli("public"), cli("deployment")) == ([("rate-limits", 1.0)], [("thursday", 1.0)])  # controls

    hook = partial(hook_block, project, env)
    for prompt in ("police?", "topical", "publicity"):  # each injected its memory before (policy, topics, public)
        assert hook(prompt) == "", prompt
    assert re.findall(r"^## (\S+)", hook("officers"), re.M) == ["audit"]  # was: munich (office) too
    assert "## kafka" in hook("topics")  # controls
    assert "## thursday" in hook("deployment?") and "## python-installs" in hook("python installation")


# A query word begins a longer stored word only as the same word or name (spelling.begins, spelling.named), a
# y-word's start only the words of its family as written (spelling.continues), and a word no memory holds is a
# shorter name only with an abbreviated kind after it (spelling.runs_on). Was: each RUN_ON_NOT_FOUND query found
# the memory named beside it at 0.99-1.00, and the prompt hook injected it.
RUN_ON = [
    ("arch-committee", "Architecture committee meets on Tuesdays", "The committee reviews RFCs."),
    ("commit-style", "Commit messages use the imperative mood", "One line summary."),
    ("team-secretary", "Dana is the team secretary", "She keeps the minutes."),
    ("secrets", "A secret never goes into git", "Use the vault."),
    ("lambda-fns", "Serverless functions run on Lambda", "Cron jobs too."),
    ("web-server", "The web server restarts nightly", "Cron at 03:00."),
    ("personas", "Personas for the onboarding flow", "Admin, dev, viewer."),
    ("on-call", "Every person on call has a pager", "Rotation weekly."),
    ("investigations", "Investigations go in the incident doc", "Timeline first."),
    ("cleanup", "We invest a day per sprint in cleanup", "Fridays."),
    ("pg-host", "Postgres runs on db1", "Backups at 02:00."),
    ("sessions", "Sessions expire after 30 minutes", "Tokens expired are refreshed."),
    ("scaling-factor", "Autoscaling factor is 1.5", "The HPA scales by a factor of 1.5."),
    ("release-approver", "The director of engineering approves releases", "Sign-off first."),
    ("inventor-credit", "Credit the inventor in patent docs", "Always name the inventor."),
    ("theorem-prover", "We use Lean as theorem prover", "Proofs in Lean 4."),
    ("system-architecture", "System architecture: microservices behind a gateway", "Twelve services."),
    ("contain-first", "Incidents: contain first, then fix", "Contain the blast radius."),
    ("batch-size", "Batch size is one thousand rows", "Never more."),
    ("settings", "Configuration lives in settings.toml", "Never in env files."),
    ("thursday", "Deployment happens on Thursdays", "Fridays are frozen."),
]
RUN_ON_NOT_FOUND = [("commit", "arch-committee"), ("commits", "arch-committee"), ("secret", "team-secretary"),
                    ("secrets", "team-secretary"), ("server", "lambda-fns"), ("servers", "lambda-fns"),
                    ("person", "personas"), ("invest", "investigations"), ("factory", "scaling-factor"),
                    ("directory", "release-approver"), ("inventory", "inventor-credit"), ("theory", "theorem-prover"),
                    ("systemd", "system-architecture"), ("systemctl", "system-architecture"),
                    ("containerd", "contain-first"), ("postgrest", "pg-host"), ("thousandth", "batch-size")]
# (query, every memory it finds, at 1.00 each): the memories writing the word, and only those
RUN_ON_FOUND = [("commit", ["commit-style"]), ("commits", ["commit-style"]), ("committee", ["arch-committee"]),
                ("secret", ["secrets"]), ("secretary", ["team-secretary"]), ("servers", ["web-server"]),
                ("serverless", ["lambda-fns"]), ("person", ["on-call"]), ("personas", ["personas"]),
                ("invest", ["cleanup"]), ("investigation", ["investigations"]), ("postgresql", ["pg-host"]),
                ("postgres", ["pg-host"]), ("expiry", ["sessions"]), ("expired", ["sessions"]),
                ("factor", ["scaling-factor"]), ("director", ["release-approver"]), ("inventor", ["inventor-credit"]),
                ("theorem", ["theorem-prover"]), ("system", ["system-architecture"]), ("contain", ["contain-first"]),
                ("thousand", ["batch-size"]), ("config", ["settings"]), ("deploy", ["thursday"])]


@pytest.fixture
def runs(isolated_home, project):
    mem = Memory.open(home=isolated_home, project=project, actor="human", search_vectors="off")
    for name, description, body in RUN_ON:
        mem.write(name, description, "project", body)
    return mem


def test_a_word_runs_on_as_the_same_name_only_by_an_inflection_or_a_kind():
    assert [spelling.begins(word, "commit") for word in ("commit", "committe", "commitsql")] == [True, False, True]
    assert [spelling.begins(word, "postgr") for word in ("postgresql", "postgrest", "postgr")] == [True, False, True]
    assert (spelling.begins("systemd", "system"), spelling.begins("serverless", "server")) == (False, False)
    assert spelling.begins("officer", "office") is False  # the doer, not the deed (officers: spelling.derived)
    for term, held in [("systemd", "system"), ("systemctl", "system"), ("containerd", "contain"),
                       ("postgrest", "postgr"), ("thousandth", "thousand")]:
        assert not spelling.runs_on(term, held, {term}), (term, held)
    assert spelling.runs_on("postgresql", "postgr", {"postgresql"}) and spelling.runs_on("dynamodb", "dynamo")
    # a tool's file is the tool's name: docker finds "the Dockerfile", dockerfile finds "Docker" (and not a file)
    assert spelling.begins("dockerfil", "docker") and spelling.runs_on("dockerfile", "docker", {"dockerfile"})
    assert not spelling.begins("dockerd", "docker") and not spelling.begins("dockerfilex", "docker")
    assert spelling.from_y("expiri", "expir") and not spelling.from_y("postgr", "postgr")
    assert spelling.continues("Sessions expire after 30 minutes", "expir")
    assert spelling.continues("The EXPIRATION date", "expir") and spelling.continues("an expiry", "expir")
    assert not spelling.continues("Autoscaling factor is 1.5; two factors", "factor")  # factory's start, ends there
    assert not spelling.continues("the directors", "director") and not spelling.continues("reexpired", "expir")


@pytest.mark.slow
def test_a_word_finds_the_memories_writing_it_not_longer_words_it_begins(runs):
    for query, was in RUN_ON_NOT_FOUND:
        found = [name for name, _ in top(runs, query)]
        assert (query, was in found, was in recalled(runs, query)) == (query, False, False)
    for query, names in RUN_ON_FOUND:  # controls in the same store
        assert (query, top(runs, query), recalled(runs, query)) == (query, [(n, 1.0) for n in names], names)
    for query in ("factory", "directory", "inventory", "theory", "systemd", "systemctl", "containerd",
                  "postgrest", "thousandth"):  # no memory writes these: nothing at all
        assert (query, top(runs, query), recalled(runs, query)) == (query, [], [])


@pytest.mark.slow
def test_the_prompt_hook_injects_no_longer_word_a_prompt_word_begins(runs, isolated_home, project):
    env = lexical_env(isolated_home, project)

    def hook(prompt):  # a session of its own each: a session is shown a memory once
        return block_names(hook_block(project, env, prompt, session=f"s-{prompt}"))

    # each injected the memory of a longer word before (committee, Serverless, factor, director, system, contain)
    assert (hook("commit?"), hook("servers"), hook("factory?"), hook("directory"), hook("systemd?"),
            hook("containerd"), hook("postgrest setup")) == (["commit-style"], ["web-server"], [], [], [], [], [])
    # controls: the words the memories write, and the family of a y-word
    assert (hook("expiry?"), hook("postgresql"), hook("factor?"), hook("system architecture")) == \
        (["sessions"], ["pg-host"], ["scaling-factor"], ["system-architecture"])


# A verb's doer or tool (-er, -ator) and its -able are the verb's term, and an -ity replacing an adjective's -e is
# the adjective's (spelling.DOERS, spelling.QUALITIES): each pair meets both ways, a query of either word finding
# the memory writing the other. Was: each query here found nothing (limiter is not limit, security not secure).
# Controls in the same stores: nouns of a noun (officer, customer), an -eer (engineer), a -cy noun (policy) still
# find nothing beside the memory writing the shorter word, which its own word finds.
ROOTS = [
    ("rate-limit", "Rate limit is 100/min per key", "Clients get 429."),
    ("cookie-flag", "Keep the secure cookie flag on", "Set in the proxy."),
    ("read-replica", "The read replica is available in eu-west", "Lag under a second."),
    ("route-timeouts", "Timeouts are configurable per route", "Default 30 s."),
    ("round-robin", "Balancing is round-robin across pods", "Sticky sessions off."),
    ("nightly-jobs", "Schedule nightly jobs at 02:00", "Cron in UTC."),
    ("payloads", "Validate payloads with pydantic", "Strict mode."),
    ("iso-dates", "Serialize dates as ISO 8601", "Always UTC."),
    ("release-build", "Compile with -O2 in release builds", "Debug keeps -O0."),
    ("main-only", "Deploy from main only", "Tags trigger it."),
    ("munich", "The Munich office hosts the offsite", "Badge in at the entrance."),
    ("custom-domains", "Custom domains need a CNAME", "Point it at the edge."),
    ("search-engine", "The search engine is Postgres FTS", "GIN index on body."),
    ("queue-watch", "Police the queue with a cron", "Alert on depth."),
    ("retention", "The retention policy keeps logs 30 days", "Legal asks first."),
]
DERIVED_FORMS = [
    ("rate-limiter", "The rate limiter drops bursts", "Token bucket."),
    ("security-review", "Security reviews happen every Tuesday", "Sign-off in the tracker."),
    ("uptime-target", "Availability target is 99.9 percent", "Per quarter."),
    ("settings", "Config lives in settings.toml", "Never in env files."),
    ("haproxy", "The load balancer is HAProxy", "Two nodes."),
    ("celery-beat", "The scheduler is Celery beat", "One instance."),
    ("null-check", "The validator rejects nulls", "Empty strings too."),
    ("orjson", "The serializer is orjson", "Faster than json."),
    ("clang", "The compiler is clang 17", "Pinned in CI."),
    ("ci-deploys", "The deployer runs in CI", "Never from laptops."),
    ("audit", "Two officers approve the audit", "Yearly."),
    ("key-accounts", "Every customer gets an account manager", "Named in the CRM."),
    ("platform-team", "Each engineer is on call once a month", "Swap in the rota."),
    ("rules", "Our policy: no force-push to main", "Protected branch."),
]
# (query, the one memory it finds in ROOTS) and (query, the one memory it finds in DERIVED_FORMS)
FINDS_ROOT = [("limiter", "rate-limit"), ("security", "cookie-flag"), ("availability", "read-replica"),
              ("configurable", "route-timeouts"), ("config", "route-timeouts"), ("balancer", "round-robin"),
              ("scheduler", "nightly-jobs"), ("validator", "payloads"), ("validation", "payloads"),
              ("serializer", "iso-dates"), ("compiler", "release-build"), ("deployer", "main-only"),
              ("office", "munich"), ("custom", "custom-domains"), ("engine", "search-engine"),
              ("police", "queue-watch"), ("policy", "retention"), ("policies", "retention")]
FINDS_DERIVED = [("limit", "rate-limiter"), ("secure", "security-review"), ("available", "uptime-target"),
                 ("configurable", "settings"), ("configuration", "settings"), ("balancing", "haproxy"),
                 ("schedule", "celery-beat"), ("validate", "null-check"), ("serialize", "orjson"),
                 ("compile", "clang"), ("deploy", "ci-deploys"), ("officers", "audit"), ("customers", "key-accounts"),
                 ("engineers", "platform-team"), ("policy", "rules")]
# (query, the memory it must not find, in ROOTS) and (query, in DERIVED_FORMS): nothing at all
FINDS_NOTHING_ROOT = [("officers", "munich"), ("customer", "custom-domains"), ("engineer", "search-engine")]
FINDS_NOTHING_DERIVED = [("office", "audit"), ("custom", "key-accounts"), ("engine", "platform-team"),
                         ("police", "rules")]


@pytest.fixture
def doers(isolated_home, project, tmp_path):
    roots = Memory.open(home=isolated_home, project=project, actor="human", search_vectors="off")
    for name, description, body in ROOTS:
        roots.write(name, description, "project", body)
    other_home, other_project = tmp_path / "home2", tmp_path / "project2"
    other_project.mkdir()
    derived_forms = Memory.open(home=other_home, project=other_project, actor="human", search_vectors="off")
    for name, description, body in DERIVED_FORMS:
        derived_forms.write(name, description, "project", body)
    return roots, derived_forms


def test_a_doer_an_able_and_a_quality_are_their_words_term():
    from memdir.search.tokenize import stem

    pairs = [("limiter", "limit"), ("security", "secure"), ("availability", "available"), ("configurable", "config"),
             ("configurable", "configuration"), ("balancer", "balancing"), ("scheduler", "schedule"),
             ("validator", "validate"), ("validator", "validation"), ("serializer", "serialize"),
             ("compiler", "compile"), ("deployer", "deploy"), ("formatter", "formatting"), ("activity", "active"),
             ("stability", "stable")]
    assert [(a, b) for a, b in pairs if stem(a) != stem(b)] == []
    apart = [("officer", "office"), ("customer", "custom"), ("engineer", "engine"), ("publicity", "public"),
             ("convertible", "convert"), ("formative", "format"), ("factor", "fact"), ("authority", "author"),
             ("user", "use"), ("server", "serve"), ("portable", "port"), ("variable", "vary")]
    assert [(a, b) for a, b in apart if stem(a) == stem(b)] == []
    assert (stem("limiter"), stem("validator"), stem("security"), stem("availability"), stem("officers")) == \
        ("limit", "valid", "secur", "avail", "officer")
    assert spelling.of_adjective("securiti") == "secure" and spelling.of_adjective("publiciti") is None
    assert spelling.start("polici", {"policy"}) == "polici"  # a -cy noun keeps its i: begins no police
    assert spelling.start("expiri", {"expiry"}) == "expir"  # the control: expiry begins expires


def test_a_doer_an_able_and_a_quality_find_their_word_both_ways(doers):
    roots, derived_forms = doers
    for query, name in FINDS_ROOT:
        assert (query, top(roots, query)) == (query, [(name, 1.0)])
    for query, name in FINDS_DERIVED:
        assert (query, top(derived_forms, query)) == (query, [(name, 1.0)])
    for query, was in FINDS_NOTHING_ROOT:
        assert (query, top(roots, query)) == (query, []), was
    for query, was in FINDS_NOTHING_DERIVED:
        assert (query, top(derived_forms, query)) == (query, []), was
    assert recalled(roots, "the rate limiter") == ["rate-limit"] and recalled(roots, "officers") == []
    assert (recalled(derived_forms, "schedule?"), recalled(derived_forms, "engine?")) == (["celery-beat"], [])


@pytest.mark.slow
def test_the_cli_reads_a_doer_an_able_and_a_quality_alike(doers, isolated_home, project, tmp_path):
    def cli(home, proj, query):
        return cli_search(lexical_env(home, proj), query)

    other = (tmp_path / "home2", tmp_path / "project2")
    for query, name in FINDS_ROOT:
        assert (query, cli(isolated_home, project, query)) == (query, [(name, 1.0)])
    for query, name in FINDS_DERIVED:
        assert (query, cli(*other, query)) == (query, [(name, 1.0)])
    for query, _ in FINDS_NOTHING_ROOT:
        assert (query, cli(isolated_home, project, query)) == (query, [])
    for query, _ in FINDS_NOTHING_DERIVED:
        assert (query, cli(*other, query)) == (query, [])


def test_an_index_of_schema_10_reads_a_doer_as_its_verb_once_opened(isolated_home, project):
    from memdir.search import index

    mem = Memory.open(home=isolated_home, project=project, actor="human", search_vectors="off")
    mem.write("rate-limiter", "The rate limiter drops bursts", "project", "Token bucket.")
    mem.write("munich", "The Munich office hosts the offsite", "project", "Badge in.")
    mem.search("limiter")
    conn = index.connect(mem.home)
    old = "the rate limiter drop burst"  # what schema 10 stored: limiter whole
    conn.execute("UPDATE fts SET description = ? WHERE rowid = (SELECT id FROM docs WHERE name = 'rate-limiter')",
                 (old,))
    conn.execute("PRAGMA user_version = 10")
    index.close_all()
    conn = index.connect(mem.home)  # the upgrade runs as the index is opened
    assert conn.execute("PRAGMA user_version").fetchone()[0] == index.SCHEMA_VERSION == 34
    assert top(mem, "limit") == [("rate-limiter", 1.0)]  # was: nothing, the row held "limiter"
    assert top(mem, "office") == [("munich", 1.0)] and top(mem, "officers") == []  # controls
