"""A word with or without its definite article, and Arabic-script letters Arabic and Persian write apart, are
one word to search (issue 28 item 1, break40recall).

Tried with the real CLI: beside "الخادم موجود في القاهرة" (the server is in Cairo) `search خادم` (server) found
nothing while `search الخادم` found it at 1.00; beside "השרת נמצא בתל אביב" `search שרת` found nothing while
`search השרת` did; beside the Persian "سرور در کرمانشاه است" `search كرمانشاه` typed with the Arabic kaf (ك, the
key an Arabic keyboard gives) found nothing while the Persian keheh (ک) found it. Each through the API, and one
through the real prompt hook, beside a control in the same store that must not be found.
"""

from __future__ import annotations

import json

import pytest

from memdir import Memory

from ..conftest import run_prompt_hook


@pytest.fixture
def store(isolated_home, project):
    mem = Memory.open(home=isolated_home, project=project, actor="human", search_vectors="off")
    mem.write("ar-server", "ملاحظة عن الخادم", "project", "الخادم موجود في القاهرة")
    mem.write("ar-office", "المكتب", "project", "مكتب الشركة في دبي")
    mem.write("he-server", "הערה על השרת", "project", "השרת נמצא בתל אביב")
    mem.write("he-office", "המשרד", "project", "המשרד שלנו בחיפה")
    mem.write("fa-server", "یادداشت سرور", "project", "سرور در کرمانشاه است")
    mem.write("fa-db", "پایگاه داده", "project", "پایگاه داده در تبریز است")
    return mem


def names(mem, query):
    return [hit.name for hit in mem.search(query)]


@pytest.mark.parametrize(("query", "found"), [
    ("خادم", "ar-server"),       # server: the memory writes "the server"
    ("الخادم", "ar-server"),     # control: as the memory writes it
    ("القاهرة", "ar-server"),
    ("قاهرة", "ar-server"),      # Cairo without its article
    ("مكتب", "ar-office"),       # office: one memory writes it bare, the other with its article
    ("שרת", "he-server"),        # server: the memory writes "the server"
    ("השרת", "he-server"),       # control: as the memory writes it
    ("משרד", "he-office"),
    ("كرمانشاه", "fa-server"),   # Arabic kaf where the memory writes the Persian keheh
    ("کرمانشاه", "fa-server"),   # control: as the memory writes it
    ("سرور", "fa-server"),
    ("پايگاه", "fa-db"),         # Arabic yeh where the memory writes the Persian yeh
])
def test_a_word_is_found_with_or_without_its_article_and_in_either_letters(store, query, found):
    assert names(store, query) == [found]


def test_the_office_is_found_written_bare_and_with_its_article(store):
    assert sorted(names(store, "مكتب")) == ["ar-office"]
    assert sorted(names(store, "المكتب")) == ["ar-office"]


@pytest.mark.parametrize("query", ["بيروت", "ירושלים", "شیراز", "thanks, that works"])
def test_a_word_no_memory_holds_in_any_spelling_finds_nothing(store, query):
    assert names(store, query) == []


def test_the_prompt_hook_recalls_the_server_asked_without_its_article(store, project, isolated_home):
    env = {"MEMDIR_HOME": str(isolated_home), "MEMDIR_SEARCH_VECTORS": "off"}
    out = run_prompt_hook(project, "خادم", env, session="ar")  # server
    block = json.loads(out)["hookSpecificOutput"]["additionalContext"] if out.strip() else ""
    assert "القاهرة" in block
    assert "دبي" not in block  # control: the office memory is not recalled
