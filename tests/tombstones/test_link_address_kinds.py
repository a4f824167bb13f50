"""Which addresses a reader does not see, and when a new one corrects a forgotten value (tomb42).

1. HTML attributes other than ``href``/``src`` carry addresses a reader never sees (``srcset``, ``cite``, ``ping``,
   ``longdesc`` …) on the tags :func:`memdir.tombstones.reading.seen` reads through; a tag it keeps (``<form
   action>``, ``<iframe src>``) is words, its address among them, so a new one there is another value by its words.
2. The old address shown beside the new one (``… [wiki](http://v2) (was http://v1)``) is refused, and the refusal
   says so; so is a one-word link with it (left44a: the value but for the remark showing it is the forgotten one).
3. A new address corrects only what is said of what it links: a forgotten clause that links nothing (``Deploy with
   make ship, see [docs](…)``) comes back word for word, and is refused; last session's accepted cases stay accepted
   (tests/tombstones/test_link_address_corrections.py). A dash ends a clause too (left44a), and a CSS ``url()`` of a
   ``style`` attribute is a hidden address.
Each accepted case sits beside its refused control in the same store."""

from __future__ import annotations

import json

import pytest

from memdir.errors import TombstoneRefused
from memdir.tombstones.addresses import SHOWN, UNLINKED, clauses, digests, without_shown
from memdir.tombstones.match import linked, make
from memdir.tombstones.reading import hidden_addresses
from memdir.tombstones.stones import stone_of

V1, V2 = "http://v1.example/runbook", "http://v2.example/runbook"


def _refused_as(mem, name: str, description: str, body: str = "") -> tuple[str, str, str]:
    with pytest.raises(TombstoneRefused) as refused:
        mem.write(name, description, "project", body)
    return refused.value.tombstone_id, refused.value.why, str(refused.value)


def _created(mem, name: str, description: str, body: str = "") -> str:
    return mem.write(name, description, "project", body).operation


def test_address_attributes_a_reader_does_not_see_are_hidden_addresses():
    text = (f'<img src="a.png" srcset="{V1} 1x, b,c.png 2x, d.png," longdesc="/l" alt="Logo"> '
            f'<q cite="http://q.example">q</q> <a ping="http://p1 http://p2" href="/h">x</a> '
            f'<td background="bg.png">t</td> <span itemid="urn:x">s</span> <B href="http://bb">x</B>')
    assert hidden_addresses(text) == ["a.png", V1, "b,c.png", "d.png", "/l", "http://q.example", "http://p1",
                                      "http://p2", "/h", "bg.png", "urn:x", "http://bb"]
    # a tag seen keeps is read as words, its address among them: shown, not hidden (controls: the same attributes
    # on tags seen reads through are listed above)
    kept = (f'<form action="{V1}">f</form> <object data="{V1}"></object> <iframe src="{V1}"></iframe> '
            f'<video poster="{V1}"></video> <button formaction="{V1}">b</button>')
    assert hidden_addresses(kept) == []
    assert hidden_addresses(f'<img alt="{V1}" title="{V1}">') == []  # text attributes, not addresses


def test_a_new_srcset_or_cite_is_a_correction_and_the_same_one_is_refused(mem):
    logo = 'The team logo is <img srcset="{0}/l.png 1x, {0}/l2.png 2x"> on the wiki'
    mem.write("logo", logo.format("http://v1.example"), "project", "")
    stone = mem.forget("logo").tombstone
    quote = '<q cite="{0}">Hope is not a strategy for the billing rollout</q>'
    mem.write("quote", quote.format("http://v1.example/sre"), "project", "")
    quoted = mem.forget("quote").tombstone
    assert _created(mem, "logo-2", logo.format("http://v2.example")) == "created"
    assert _created(mem, "quote-2", quote.format("http://v2.example/sre")) == "created"
    assert _refused_as(mem, "again", logo.format("http://v1.example") + "!")[:2] == (stone, "the same words")
    assert _refused_as(mem, "again", "The team logo is <img> on the wiki")[:2] == (stone, "the same words")  # dropped
    assert _refused_as(mem, "again", quote.format("http://v1.example/sre") + ".")[:2] == (quoted, "the same words")


def test_an_address_in_a_tag_seen_keeps_is_words(mem):
    form = 'Signups go through the <form action="{0}">signup form</form>'
    mem.write("signup", form.format(V1), "project", "")
    stone = mem.forget("signup").tombstone
    assert _created(mem, "signup-2", form.format(V2)) == "created"  # other words: another value
    assert _refused_as(mem, "again", form.format(V1) + ".")[:2] == (stone, "the same words")  # control


def test_the_old_address_shown_beside_the_new_one_is_refused_and_the_refusal_says_so(mem):
    description = f"The deploy runbook is on the [wiki]({V1})"
    mem.write("runbook", description, "project", "")
    stone = mem.forget("runbook").tombstone
    for shown in (f"The deploy runbook is on the [wiki]({V2}) (was {V1})",
                  f"The deploy runbook is on the [wiki]({V2}), formerly <{V1}>"):
        said = _refused_as(mem, "again", shown)
        assert said[:2] == (stone, f"the forgotten fact restated, {SHOWN}"), shown
        assert said[2].startswith("refused: this matches a forgotten value (the forgotten fact restated, with the old "
                                  f"link address still shown beside the new one; tombstone {stone}, memory "
                                  "'runbook', "), said[2]
    assert _created(mem, "runbook-2", description.replace(V1, V2)) == "created"  # control: the old one left out


def test_the_old_address_shown_in_a_remark_is_refused_however_short_the_value(mem):
    """left44a: a one-word link with the old address shown beside the new one was accepted (the forgotten fact restated
    is told from three words on); the value but for the remark showing it (:func:`addresses.without_shown`) is the
    forgotten one. Controls in the same store: the new address alone, a remark showing another address, another
    link's text with the old address shown."""
    mem.write("wiki", "[wiki](http://v1)", "project", "")
    stone = mem.forget("wiki").tombstone
    for shown in ("[wiki](http://v2) (was http://v1)", "[wiki](http://v2), formerly <http://v1>",
                  "[wiki](http://v2) — was http://v1", "[wiki](http://v2) (mirror: HTTP://V1/)"):
        said = _refused_as(mem, "again", shown)
        assert said[:2] == (stone, f"the same words, {SHOWN}"), shown
    assert _refused_as(mem, "again", "[wiki](http://v1) (was http://v1)")[:2] == (stone, "the same words")
    assert _created(mem, "wiki-2", "[wiki](http://v2)") == "created"  # control: the old one left out
    assert _created(mem, "wiki-3", "[wiki](http://v2) (see http://other.example)") == "created"  # another address
    assert _created(mem, "docs", "[docs](http://v2) (was http://v1)") == "created"  # other words: another value
    assert without_shown("[wiki](http://v2) (was http://v1)", frozenset(digests("[w](http://v1)"))) == "[wiki](http://v2) "
    assert without_shown("[wiki](http://v2) (see http://v3)", frozenset(digests("[w](http://v1)"))) == \
        "[wiki](http://v2) (see http://v3)"  # control: nothing forgotten shown


def test_clauses_and_linked():
    assert clauses("Deploy with make ship, see [docs](http://old)") == [
        ("Deploy with make ship", False), (" see [docs](http://old)", True)]
    assert clauses("[Deploy, then test](http://x). Done") == [("[Deploy, then test](http://x)", True), (" Done", False)]
    assert clauses(f"v1.example/a is 3.5 {V1}") == [(f"v1.example/a is 3.5 {V1}", False)]  # no clause end inside
    assert not linked("Deploy with make ship, see [docs](http://old)")
    assert linked(f"The runbook on the [wiki]({V1}) lists every rollback step for billing.")
    assert linked("Runbook: see the [docs](http://x)") and linked("")  # a clause too short to state something
    # a dash ends a clause (left44a: "Deploy with make ship — see [docs](…)" was one clause, linked)
    for dash in (" — ", "—", " – ", " - ", " -- ", " \u2015 "):
        assert clauses(f"Deploy with make ship{dash}see [docs](http://old)") == [
            ("Deploy with make ship", False), ("see [docs](http://old)", True)], dash
        assert not linked(f"Deploy with make ship{dash}see [docs](http://old)"), dash
    # controls: a range, a hyphenated word, a dash inside a link's text are no clause end
    assert clauses("Pods 3–5 run make-ship on [deploy — test](http://x)") == [
        ("Pods 3–5 run make-ship on [deploy — test](http://x)", True)]
    assert linked(f"The runbook on the [wiki]({V1}) lists every rollback step — see it")


def test_a_css_url_in_a_style_attribute_is_a_hidden_address(mem):
    """left44a: ``<span style="background: url(…)">`` hides its address from a reader as ``src`` does; it was read
    as no address, so a new one was "the same words" and refused. Controls: the same address refused, the address
    shown as text is words, a tag seen keeps is words."""
    style = '<span style="background: url({0}/banner.png)">The billing banner</span> marks the rollout page'
    assert hidden_addresses(style.format("http://v1.example")) == ["http://v1.example/banner.png"]
    assert hidden_addresses("<span style='background:url(\"a.png\"), URL( b.png )'>x</span>") == ["a.png", "b.png"]
    assert hidden_addresses('<span style="color: red">x</span> <form style="background: url(f.png)">f</form> '
                            "url(http://shown.example)") == []  # no url, a tag seen keeps, text
    mem.write("banner", style.format("http://v1.example"), "project", "")
    stone = mem.forget("banner").tombstone
    assert _created(mem, "banner-2", style.format("http://v2.example")) == "created"
    assert _refused_as(mem, "again", style.format("http://v1.example") + ".")[:2] == (stone, "the same words")
    assert _refused_as(mem, "again", style.format("http://v2.example") + " (was http://v1.example/banner.png)")[:2] \
        == (stone, f"the forgotten fact restated, {SHOWN}")


def test_a_forgotten_clause_after_a_dash_is_refused_though_the_link_moved(mem):
    description = "Deploy with make ship — see [docs](http://old.example/deploy)"
    mem.write("deploy", description, "project", "")
    stone = mem.forget("deploy").tombstone
    said = _refused_as(mem, "again", description.replace("old.example", "new.example"))
    assert said[:2] == (stone, f"the same words, {UNLINKED}")  # was accepted: one clause, holding the link
    assert _created(mem, "deploy-2", "Deploy with make release — see [docs](http://new.example/deploy)") == "created"


def test_a_forgotten_clause_without_a_link_is_refused_though_the_link_moved(mem):
    description = "Deploy with make ship, see [docs](http://old.example/deploy)"
    mem.write("deploy", description, "project", "")
    stone = mem.forget("deploy").tombstone
    moved = description.replace("old.example", "new.example")
    for again in (moved, moved.replace(",", ""), "Deploy with [make ship](http://new.example/deploy), see docs"):
        said = _refused_as(mem, "again", again)
        assert said[:2] == (stone, f"the same words, {UNLINKED}"), again
        assert f"(the same words, only a link's address changed and the words outside links are the forgotten ones; " \
               f"tombstone {stone}" in said[2]
    assert _created(mem, "deploy-2", "Deploy with make release, see [docs](http://new.example/deploy)") == "created"
    body = "Deploy with make ship after the freeze ends on Friday, see [docs]({0})."
    mem.write("deploy-notes", "Deploy notes", "project", body.format("http://old.example/x"))
    stone = mem.forget("deploy-notes").tombstone
    assert _refused_as(mem, "notes", "Other notes", body.format("http://new.example/x"))[:2] == (
        stone, f"the forgotten body, {UNLINKED}")
    linked_body = "The runbook on the [wiki]({0}) lists every rollback step for billing."
    mem.write("rollback", "Rollback notes", "project", linked_body.format("http://old.example/x"))
    kept = mem.forget("rollback").tombstone
    assert _created(mem, "rollback-2", "Other notes", linked_body.format("http://new.example/x")) == "created"
    assert _refused_as(mem, "again", "Other notes", linked_body.format("http://old.example/x") + " ")[:2] == (
        kept, "the forgotten body")  # control: the same address


def test_body_linked_is_kept_only_when_true_and_a_tombstone_without_it_blocks_its_body(mem):
    body = f"The runbook on the [wiki]({V1}) lists every rollback step for billing."
    stone = make("rollback", "Rollback notes", body, "human", None)
    assert stone.body_linked is True and stone.stored()["body_linked"] is True
    assert stone_of(stone.stored()) == stone
    assert "body_linked" not in make("d", "Deploy notes", f"Deploy with make ship, see [docs]({V1})", "h", None).stored()
    assert "body_linked" not in make("db", "The staging host is pg-stage-3", "", "h", None).stored()  # no address
    with pytest.raises(ValueError, match="'body_linked' is a string, not true or false"):
        stone_of({**stone.stored(), "body_linked": "yes"})
    # a tombstone kept by tomb41 (its body's addresses, no body_linked): its body is taken as not linked
    item = stone.stored()
    item.pop("body_linked")
    meta = mem.session.layer("project").meta
    meta.mkdir(parents=True, exist_ok=True)
    (meta / "tombstones.json").write_text(json.dumps([item], indent=1) + "\n")
    assert _refused_as(mem, "ops", "Other notes", body.replace(V1, V2))[:2] == (
        item["id"], f"the forgotten body, {UNLINKED}")
    assert _created(mem, "ops", "Other notes", body.replace("billing", "payments")) == "created"  # control
