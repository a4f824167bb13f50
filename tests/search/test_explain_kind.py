"""Asking to have a kind of thing explained is asking what it is (issue 28, recall29; trial27's real session):
"explain what a VPN tunnel does" recalled the note saying staging is reached through the VPN (1.0), as "what is a
VPN tunnel?" would not (:func:`memdir.search.general.asks_what_it_is`, applied by
:func:`memdir.search.relevance.bar`). Controls: a named thing ("explain what useEffect is for"), a pointed one
("explain what our VPN tunnel does") and a project question are still answered by the note."""

from __future__ import annotations

import pytest

from memdir.search import relevance
from memdir.search.general import asks_in_general, asks_what_it_is

from .densestub import dense_as, notes_store


@pytest.mark.parametrize(("query", "general", "kind"), [
    ("explain what a VPN tunnel does", True, True),
    ("Describe what an index is", True, True),
    ("what is a VPN tunnel?", True, True),  # the form it is read as
    ("explain what useEffect is for", False, False),  # a named thing: not read as general
    ("explain what this function does", False, False),  # points at one thing
    ("explain what our VPN tunnel does", False, False),
    ("explain the difference between a process and a thread", False, False),
])
def test_explaining_a_kind_asks_what_it_is(query, general, kind):
    assert (asks_in_general(query), asks_what_it_is(query)) == (general, kind)


NOTES = [
    ("staging-vpn", "Staging (staging.shop.internal) is reachable only through the WireGuard VPN",
     ("staging.shop.internal resolves only inside the office network. From home, bring up the WireGuard tunnel "
      "first: wg-quick up shop-staging. Timeouts for staging almost always mean the VPN tunnel is down.")),
    ("pr-size", "Keep pull requests small", "Under 400 changed lines; split refactors from behaviour changes."),
]


def test_explaining_a_kind_recalls_nothing_and_a_project_question_its_note(isolated_home, project, monkeypatch):
    mem = notes_store(isolated_home, project, NOTES)
    dense_as(monkeypatch, mem, {"staging-vpn": 0.862, "pr-size": 0.80})
    assert mem.recall_result("explain what a VPN tunnel does").memories == ()
    assert mem.search("explain what a VPN tunnel does", min_score=relevance.THRESHOLD) == []
    # controls in the same store and meaning: the project's own tunnel, and a question on staging
    assert [m.name for m in mem.recall_result("explain what our VPN tunnel does").memories] == ["staging-vpn"]
    assert [m.name for m in mem.recall_result("why does staging time out without the VPN tunnel?").memories] == [
        "staging-vpn"]
