"""A query word no memory holds is read as the word a memory writes a slip away (issue 28, srch16, recall28).

``paginaton`` and ``launchdarkley`` found nothing beside "cursor pagination" and "LaunchDarkly" (evals/search: 3
of the 4 misspelt queries of its fit half missed). memdir.search.typos.spellings gives the spellings one slip
inside the word (a letter left out, added, replaced, or two swapped; the first letter kept, the last too unless
swapped); memdir.search.terms.near_forms reads the word as the one term they spell that a memory writes as spelt,
on every path (search and, since recall28, recall: tests/search/test_typos.py). Each case has a memory that must be
found beside one that must not.
"""

from __future__ import annotations

import pytest

from memdir import Memory
from memdir.search.typos import spellings as slips


@pytest.fixture
def store(isolated_home, project):
    mem = Memory.open(home=isolated_home, project=project, actor="human", search_vectors="off")
    mem.write("pagination", "List endpoints use cursor pagination", "project", "Page size at most 100.")
    mem.write("flags", "Feature flags live in LaunchDarkly", "project", "Keys are kebab-case.")
    mem.write("logging", "Use structlog for logging", "project", "JSON lines in production.")
    mem.write("docs-language", "Release notes are written in German", "project", "Code stays in English.")
    mem.write("system-python", "Never touch the system Python", "project", "Use uv.")
    mem.write("retries", "Retries use exponential backoff", "project", "A callback fires on the last failure.")
    mem.write("fonts", "Body text is set in Arial", "project", "Headings in Inter.")
    return mem


def names(mem, query):
    return [hit.name for hit in mem.search(query)]


def test_a_misspelt_word_finds_the_memory_writing_it(store):
    assert names(store, "paginaton") == ["pagination"]  # a letter left out
    assert names(store, "launchdarkley") == ["flags"]  # a letter added
    assert names(store, "strucltog") == ["logging"]  # two letters swapped
    assert store.search("paginaton")[0].score == store.search("pagination")[0].score  # read as the word itself


def test_another_real_word_is_not_read_as_its_neighbour(store):
    # an English word (fallback/callback, aerial: the font "Arial", a letter left out), an end (systemd/system) and a
    # form no memory writes (germany: "germanly")
    for query in ("fallback", "systemd", "germany", "aerial"):
        assert (query, names(store, query)) == (query, [])
    # controls: the words the memories write find them
    assert names(store, "callback") == ["retries"] and names(store, "system") == ["system-python"]
    assert names(store, "german") == ["docs-language"] and names(store, "arial") == ["fonts"]


def test_recall_reads_slips_as_search_does(store):
    assert [m.name for m in store.recall_result("paginaton").memories] == ["pagination"]  # recall28: was []
    assert [m.name for m in store.recall_result("pagination").memories] == ["pagination"]  # control: as written
    assert [m.name for m in store.recall_result("aerial").memories] == []  # control: an English word is itself


def test_the_slips_of_a_word():
    assert "pagination" in slips("paginaton") and "structlog" in slips("strucltog")
    assert "launchdarkly" in slips("launchdarkley") and "postgres" in slips("postgress")
    assert "callback" not in slips("fallback")  # the first letter
    assert "latency" in slips("latancy") and "length" in slips("lenght")  # a replaced letter; the last two swapped
    assert "system" not in slips("systemd") and "broke" not in slips("broker")  # an end
    deleted = {s for s in slips("abcdefg") if len(s) == 6}
    assert deleted == {"acdefg", "abdefg", "abcefg", "abcdfg", "abcdeg"}  # never the first letter or the last


def test_a_word_read_as_a_slip_is_said_in_the_note(store, isolated_home, project):
    """break16: ``compliant`` found a memory of complaints at 0.9956 with nothing said; a guess is told as one
    (``compliant`` itself, an English word, is no longer read as a slip: words18, below)."""
    from tests.conftest import run_cli

    store.write("complaints", "Customer complaints go to the support queue", "project", "Log each complaint in Zendesk.")
    found = store.search("compalint")
    assert [h.name for h in found] == ["complaints"]
    assert found.note == "read 'compalint' as 'complaint': no memory holds 'compalint'"
    assert store.search("complaint").note == ""  # control: the word itself, nothing to say
    out = run_cli("search", "paginaton", "--json", "--project", project, env={"MEMDIR_SEARCH_VECTORS": "off"})
    data = __import__("json").loads(out.stdout)
    assert [r["name"] for r in data["results"]] == ["pagination"]
    assert data["note"] == "read 'paginaton' as 'pagination': no memory holds 'paginaton'"
    assert data["results"][0]["why"]["terms"] == ["pagination"]  # the memory's word, not the stem "pagin"


def test_an_english_word_is_not_read_as_the_word_one_slip_from_it(store):
    """words18: ``contact`` (no memory holds it) was read as "contract", one letter added inside, and found the
    memory on the Acme contract at 0.996 ("read 'contact' as 'contract'"); ``compliant`` read as "complaint",
    ``addictive`` as "additive". A word spelled right is no slip, held or not (memdir.text.english.is_word); a
    misspelling of the same memories' words still finds them."""
    store.write("acme-contract", "Acme contract renewal", "project", "The contract with Acme renews every March.")
    store.write("complaints", "Customer complaints go to the support queue", "project", "Log each complaint in Zendesk.")
    store.write("additives", "Food additive codes", "project", "Each additive has an E number.")
    for query in ("contact", "compliant", "addictive"):
        found = store.search(query)
        assert (query, [h.name for h in found], found.note) == (query, [], "")  # was: the contract, complaints…
    # controls: the words the memories write, and slips of them no dictionary holds, find them
    assert names(store, "contract") == ["acme-contract"] and names(store, "contarct") == ["acme-contract"]
    assert names(store, "complaint") == ["complaints"] and names(store, "compalint") == ["complaints"]
    assert names(store, "additive") == ["additives"] and names(store, "additve") == ["additives"]
    assert store.search("contarct").note == "read 'contarct' as 'contract': no memory holds 'contarct'"
    assert names(store, "who is our contact at Acme") == ["acme-contract"]  # by "Acme", no slip
    assert store.search("who is our contact at Acme").note == ""


def test_a_dictionary_word_is_no_typo():
    from memdir.search.typos import TYPO_MIN, eligible
    from memdir.text.english import MIN_LETTERS, is_word

    assert MIN_LETTERS <= TYPO_MIN  # the list holds every word the typo rule may read
    assert not eligible("contact") and not eligible("compliant") and not eligible("readying")
    assert not eligible("aerial") and not eligible("limt") and not eligible("Pagination")  # a word; short; not folded
    assert eligible("contarct") and eligible("paginaton") and eligible("conect")  # controls: misspellings
    assert is_word("contact") and is_word("contacted") and is_word("christopher") and is_word("aerial")
    assert not is_word("paginaton") and not is_word("kubernetes") and not is_word("Contact") and not is_word("contac")


@pytest.mark.slow
def test_the_cli_mcp_and_prompt_hook_read_an_english_word_as_itself(store, isolated_home, project):
    from .surfaces import block_names, cli_search, hook_block, lexical_env, mcp_search

    store.write("acme-contract", "Acme contract renewal", "project", "The contract with Acme renews every March.")
    env = lexical_env(isolated_home, project)
    assert cli_search(env, "contact") == []  # was: [("acme-contract", 1.0)], read as "contract"
    assert cli_search(env, "contarct") == [("acme-contract", 1.0)]  # control: a misspelling
    contact, contarct = mcp_search(isolated_home, project, "contact", "contarct")
    assert "acme-contract" not in contact and "acme-contract" in contarct
    assert block_names(hook_block(project, env, "who is our contact for the renewal")) == []  # a word is no slip
    assert block_names(hook_block(project, env, "when does the Acme contract renew", session="s2")) == ["acme-contract"]
