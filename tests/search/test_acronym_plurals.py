"""An acronym's plural is the acronym; a one-character fragment of a word is no term (issue 28, item 1).

An audit (audA k1_acronym_plural, k2_short_fragments) found ``JWTs`` read as ``jw ts``: ``JWT``, ``CVE``, ``VM``
found nothing for memories writing "JWTs", "CVEs", "VMs", ``PRs`` missed the memory about "a PR" and found the JWT
one through ``ts``; ``i18n`` found a memory through the ``n`` of "kubectl -n", ``port 2`` a memory through the
``2`` of "v3.2.1", ``3.2.1`` a memory through the "2 GB" it writes.

Decided: two capitals or more and a lowercase ``s`` (``es`` after S, X or Z) is the acronym's plural, read as the
acronym in memories and queries alike; ``AWS``, ``iOS``, ``Its`` are no plurals. A letter or a digit alone split out
of a word (``i18n``'s n, ``gRPC``'s g, ``gpt-4``'s 4) or a one-digit group of a dotted number (``v3.2.1``'s 2 and 1)
is no term by itself: the word whole (``i18n``) or the number's joins (``v321``) say it. A number written alone is a
number: ``2`` finds the memory writing "2 GB", and a number written first with its unit (``2GB``) or a pair of one
digit each (``1.5``, ``1-2``: nothing else says them) keeps its digits.
"""

from __future__ import annotations

import pytest

from memdir import Memory
from memdir.search import index
from memdir.search.tokenize import VERSION_JOIN as J, acronyms, tokens, writes_in_capitals
from tests.search.surfaces import block_names, cli_search, hook_block, lexical_env, mcp_search

# ---------------------------------------------------------------- the tokenizer


def test_an_acronym_s_plural_is_the_acronym():
    for plural, acronym in (("JWTs", "JWT"), ("PRs", "PR"), ("CVEs", "CVE"), ("VMs", "VM"), ("APIs", "API"),
                            ("URLs", "URL"), ("IDs", "ID"), ("IDEs", "IDE"), ("OSes", "OS"), ("AWSes", "AWS")):
        assert tokens(plural) == tokens(acronym) == [acronym.lower().replace("aws", "aw")], plural
    assert tokens("getURLs") == ["geturl", "get", "url"] and tokens("user-IDs") == ["userid", "user", "id"]
    assert tokens("URLsToFetch") == ["urltofetch", "url", "to", "fetch"]
    # controls: no plural of an acronym
    assert tokens("AWS") == ["aw"] and tokens("AWSes") == ["aw"]  # an acronym ending in S keeps it (Snowball: aw)
    assert tokens("iOS") == ["io", "os"] and tokens("Its") == ["it"] and tokens("Ts") == ["ts"]
    assert tokens("ABCsome") == ["abcsom", "ab", "csome"]  # the s begins a lowercase word: no plural
    assert acronyms("ask the ITs") == acronyms("ask IT") == {"it": "IT"}  # IT's plural, as written in a memory too
    assert acronyms("ask about its") == {}  # control: no capitals, no acronym
    assert writes_in_capitals("two ITs", "IT") and not writes_in_capitals("ITEMs", "IT")


def test_a_letter_or_digit_split_out_of_a_word_is_no_term():
    assert tokens("i18n") == ["i18n"] and tokens("e2e") == ["e2e"] and tokens("gRPC") == ["grpc", "rpc"]
    assert tokens("k8s") == ["k8"] and tokens("gpt-4") == ["gpt4", "gpt"] and tokens("x-ray") == ["xray", "ray"]
    assert tokens("kubectl -n pay-prod")[:2] == ["kubectl", "n"]  # control: a letter written alone is a word
    assert tokens("v3.2.1") == ["v3", f"3{J}2", f"3{J}2{J}1"]  # its leading parts (vers19); no v321 (vers20)
    assert tokens("3.2.1") == [f"3{J}2", f"3{J}2{J}1"]
    assert tokens("10.0.0.1") == ["10", f"10{J}0", f"10{J}0{J}0", f"10{J}0{J}0{J}1"]
    assert tokens("24/7") == ["24"] and tokens("02/11/2026")[:2] == ["11", "2026"]
    assert tokens("Python 3.11") == ["python", f"3{J}11"]  # no 11 of its own (vers20)
    # controls: a number alone, a number first with its unit, a pair of one-digit numbers
    assert tokens("port 2") == ["port", "2"] and tokens("over 2 GB") == ["over", "2", "gigabyt"]
    assert tokens("2GB") == ["2gb", "2", "gigabyt"] and tokens("3-tier") == ["3tier", "3", "tier"]
    assert tokens("1.5") == [f"1{J}5"] and tokens("1-2") == ["12", "1", "2"] and tokens("step 2.") == ["step", "2"]
    assert tokens("1/2") == ["1", "2"]  # a pair with a slash is no version: its digits


# ---------------------------------------------------------------- search and recall

STORE = [
    ("auth", "Authentication uses short-lived JWTs signed with RS256", "project", "Rotate keys monthly."),
    ("tsconf", "Strict mode is on in tsconfig; source files are .ts only", "project", "No JavaScript."),
    ("review", "Every PR needs one approval", "project", "From a code owner."),
    ("scans", "Trivy scans images for CVEs nightly", "project", "Results go to the security channel."),
    ("machines", "Build VMs are preemptible", "project", "Retry on eviction."),
    ("cloud", "Production runs on AWS in eu-west-1", "project", "Staging too."),
    ("i18n", "Translations live in locales/*.json; use i18next for internationalization", "project", "ICU."),
    ("k8s", "Kubernetes namespace for payments is pay-prod; use kubectl -n pay-prod", "reference", "Ask SRE."),
    ("disk", "Each CI runner has a 50GB disk; artifacts over 2 GB are rejected", "project", "Prune often."),
    ("version", "Current release is v3.2.1; next minor is 3.3", "project", "Tag from main."),
]

# (query, the memories it finds, in order, every one at 0.9 or more when it is the only one)
CASES = [
    ("JWT", ["auth"]), ("JWTs", ["auth"]), ("PRs", ["review"]), ("PR", ["review"]), ("CVE", ["scans"]),
    ("VM", ["machines"]), ("VMs", ["machines"]), ("AWS", ["cloud"]), ("i18n", ["i18n"]), ("k8s", ["k8s"]),
    ("v3.2.1", ["version"]), ("3.2.1", ["version"]), ("2", ["disk"]), ("port 2", ["disk"]),
]


@pytest.fixture
def store(isolated_home, project):
    mem = Memory.open(home=isolated_home, project=project, search_vectors="off")
    for name, description, kind, body in STORE:
        mem.write(name, description, kind, body)
    return mem


def test_each_query_finds_its_memories_and_no_other_through_the_api(store):
    for query, names in CASES:
        assert [r.name for r in store.search(query)] == names, query
    assert store.search("JWT")[0].score >= 0.9 and store.search("PRs")[0].score >= 0.9
    assert [s.name for s in store.recall_result("which JWT signing algorithm do we use?").memories] == ["auth"]
    assert [s.name for s in store.recall_result("how many approvals do PRs need?").memories] == ["review"]
    assert [s.name for s in store.recall_result("where do the i18n translations live?").memories] == ["i18n"]
    assert [s.name for s in store.recall_result("release notes for 3.2.1").memories] == ["version"]


@pytest.mark.slow
def test_the_cli_the_mcp_tool_and_the_prompt_hook_agree(store, isolated_home, project):
    env = lexical_env(isolated_home, project)
    for query, names in CASES:
        assert [name for name, _ in cli_search(env, query)] == names, query

    cve, prs, i18n, port = mcp_search(isolated_home, project, "CVE", "PRs", "i18n", "port 2")
    assert "- scans " in cve and "- review " in prs and "- auth " not in prs
    assert "- i18n " in i18n and "- k8s " not in i18n and "- disk " in port and "- version " not in port

    def recalled(prompt, session):
        return block_names(hook_block(project, env, prompt, session))

    assert recalled("how often are images scanned for CVE issues?", "s1") == ["scans"]
    assert recalled("how many approvals do PRs need?", "s2") == ["review"]
    assert recalled("are our VM builds preemptible?", "s3") == ["machines"]
    assert recalled("release notes for 3.2.1", "s4") == ["version"]


@pytest.mark.slow
def test_an_index_of_schema_12_is_tokenized_again_in_place(store):
    store.search("JWT")
    conn = index.connect(store.home)
    rowid = conn.execute("SELECT id FROM docs WHERE name = 'auth'").fetchone()[0]
    conn.execute("INSERT INTO vectors VALUES (?, 'd', 'm', x'00')", (rowid,))
    old = "authent use shortliv short live jwts jw ts sign with rs256 rs"  # what schema 12 stored
    conn.execute("UPDATE fts SET description = ? WHERE rowid = ?", (old, rowid))
    conn.execute("PRAGMA user_version = 12")
    index.close_all()
    conn = index.connect(store.home)  # the upgrade runs as the index is opened
    assert conn.execute("PRAGMA user_version").fetchone()[0] == index.SCHEMA_VERSION == 34
    assert conn.execute("SELECT count(*) FROM vectors").fetchone()[0] == 1  # not rebuilt: kept
    assert " jwt " in conn.execute("SELECT description FROM fts WHERE rowid = ?", (rowid,)).fetchone()[0]
    assert [r.name for r in store.search("JWT")] == ["auth"] and [r.name for r in store.search("PRs")] == ["review"]
