"""A correction that changes only a link's address is a correction (tomb41): a tombstone reads the words a reader sees,
so ``[wiki](http://v1)`` and ``[wiki](http://v2)`` read alike and the second was refused as "the same words", though
``wiki http://v1`` → ``wiki http://v2`` in plain text is accepted. The rule (:mod:`memdir.tombstones.addresses`): a
value read as seen the same as a forgotten part is a correction when that part held a hidden address the value holds
nowhere and the value holds a hidden address of its own in its place. Each accepted case sits beside its controls in
the same store, refused and naming the tombstone: the same address wrapped another way, a link or markup added, the
link dropped with no other address, the forgotten address still held elsewhere (bare, as a character reference). Old
tombstone files (no ``reading``; reading 2 without address digests) block as before and are not rewritten."""

from __future__ import annotations

import json

import pytest

from memdir.errors import TombstoneRefused
from memdir.paths import project_layer_dir, sha256
from memdir.tombstones.addresses import SHOWN, Written, digests, forgotten, normal
from memdir.tombstones.match import body_digest, make, match
from memdir.tombstones.reading import hidden_addresses, seen, words
from memdir.tombstones.stones import TombstoneFile, shared_bytes, stone_of
from tests.conftest import run_cli

V1, V2 = "http://v1.example/runbook", "http://v2.example/runbook"
DESCRIPTION = f"The deploy runbook is on the [wiki]({V1})"
BODY = (f"The deploy runbook on the [wiki]({V1}) is kept by the platform team and lists every rollback step "
        "for the billing service.")


def _refused_as(mem, name: str, description: str, body: str) -> tuple[str, str]:
    with pytest.raises(TombstoneRefused) as refused:
        mem.write(name, description, "project", body)
    return refused.value.tombstone_id, refused.value.why


def _created(mem, name: str, description: str, body: str) -> str:
    return mem.write(name, description, "project", body).operation


def test_hidden_addresses_are_the_ones_a_reader_does_not_see_and_compare_normalized():
    assert hidden_addresses(f'[wiki]({V1} "t") ![x](<a.png>) <a class="x" href="{V2}">w</a>\n[r]: http://r') == [
        V1, "<a.png>", V2, "http://r"]
    assert hidden_addresses(f"<{V1}> and bare {V2}, **bold**") == []  # shown addresses, markup of no address
    assert normal("<HTTP://V1.example/Runbook/>") == normal("&#x68;ttp://v1.example/runbook") == "v1.example/runbook"
    assert normal("http://v10.example/runbook") != V1  # another address, not a prefix
    assert digests(f"[a]({V1}) [b]({V1}/) [c](<{V1}>)") == digests(f"[w]({V1})") != digests(f"[w]({V2})")
    assert len(digests(f"[w]({V1})")[0]) == 16 and digests("plain words") == ()


def test_written_holds_an_address_wrapped_any_way_and_corrects_only_a_replaced_one():
    forgot = frozenset(digests(f"[wiki]({V1})"))
    for held in (f"[wiki](<{V1}>)", f'<a href="{V1}">wiki</a>', f"wiki <{V1}>", f"see {V1}.", f"x:{V1}",
                 "(&#x68;ttp://v1.example/runbook)", f"[wiki]({V2}) was {V1}"):
        assert forgot <= Written("d", held).held(), held
        assert not Written("d", held).corrects(forgot), held
    assert Written("d", f"[wiki]({V2})").corrects(forgot)
    assert Written("d", f'<a href="{V2}">wiki</a>').corrects(forgot)
    assert not Written("d", "wiki").corrects(forgot)  # dropped, nothing in its place
    assert not Written("d", f"[wiki]({V2})").corrects(frozenset())  # nothing forgotten to correct


def test_the_reported_case_a_bare_link_corrected_is_written_as_its_plain_twin_is(mem):
    mem.write("wiki", "[wiki](http://v1)", "project", "")
    stone = mem.forget("wiki").tombstone
    mem.write("wiki-plain", "wiki http://w1", "project", "")
    plain = mem.forget("wiki-plain").tombstone
    assert _created(mem, "wiki-2", "[wiki](http://v2)", "") == "created"
    assert _created(mem, "wiki-plain-2", "wiki http://w2", "") == "created"
    for dressed in ("[wiki](<http://v1>)", '<a href="http://v1">wiki</a>', "[wiki](HTTP://V1/)",
                    "[**wiki**](http://v1)", "wiki", "wiki <http://v1>", "wiki http://v1"):
        assert _refused_as(mem, "again", dressed, "") == (stone, "the same words"), dressed
    assert _refused_as(mem, "again", "wiki <http://w1>", "") == (plain, "the same words")
    assert _refused_as(mem, "again", "[wiki http://w1](http://w2)", "") == (plain, "the same words")  # w1 shown


def test_an_address_corrected_in_the_description_is_written_and_every_control_is_refused(mem):
    mem.write("runbook", DESCRIPTION, "project", "")
    stone = mem.forget("runbook").tombstone
    dash = "http://v1.example/dash"
    mem.write("dash-plain", f"The billing dashboard is on the wiki {dash}", "project", "")  # a plain-text twin
    plain = mem.forget("dash-plain").tombstone
    assert _created(mem, "runbook-2", DESCRIPTION.replace(V1, V2), "") == "created"
    assert _created(mem, "runbook-3", f'The deploy runbook is on the <a href="{V2}">wiki</a>', "") == "created"
    assert _created(mem, "dash", f"The billing dashboard is on the wiki {dash.replace('v1', 'v2')}", "") == "created"
    same_words = {
        "wrapped in angle brackets": f"The deploy runbook is on the [wiki](<{V1}>)",
        "an HTML link": f'The deploy runbook is on the <a href="{V1}">wiki</a>',
        "with a title": f'The deploy runbook is on the [wiki]({V1} "docs")',
        "markup added": f"The deploy **runbook** is on the [wiki]({V1})",
        "a link added": f"The deploy [runbook](http://other.example) is on the [wiki]({V1})",
        "the link dropped": "The deploy runbook is on the wiki",
    }
    for kind, description in same_words.items():
        assert _refused_as(mem, "again", description, "") == (stone, "the same words"), kind
    # the address changed, but the forgotten one is still in the value: bare, or as a character reference
    for body in (f"It was {V1} before.", "It was &#x68;ttp://v1.example/runbook before."):
        assert _refused_as(mem, "again", DESCRIPTION.replace(V1, V2), body) == (
            stone, f"the forgotten fact restated, {SHOWN}"), body
    assert _refused_as(mem, "again", f"The billing dashboard is on the wiki <{dash}>", "") == (plain, "the same words")
    # its address shown: the words of the forgotten value as written (written_words_digest)
    for shown in (f"The deploy runbook is on the wiki {V1}", f"The deploy runbook is on the wiki <{V1}>"):
        assert _refused_as(mem, "again", shown, "") == (stone, "the same words"), shown
    assert {"runbook-2", "runbook-3", "dash"} <= {m.name for m in mem.list().memories}
    assert "again" not in {m.name for m in mem.list(include_all=True).memories}


def test_an_address_corrected_in_a_forgotten_body_is_written_and_every_control_is_refused(mem):
    mem.write("runbook", "Runbook notes", "project", BODY)
    stone = mem.forget("runbook").tombstone
    [stored] = json.loads((mem.session.layer("project").meta / "tombstones.json").read_text())
    assert stored["body_addresses"] == list(digests(BODY)) and "description_addresses" not in stored
    assert V1 not in json.dumps(stored) and "v1.example" not in json.dumps(stored)  # kept as digests only
    assert _created(mem, "ops-notes", "Ops notes for Tuesday", BODY.replace(V1, V2)) == "created"
    assert _created(mem, "ops-plain", "Ops notes for Monday", BODY.replace(f"[wiki]({V1})", f"wiki {V2}")) == "created"
    refused = {
        "wrapped in angle brackets": BODY.replace(f"({V1})", f"(<{V1}>)"),
        "an HTML link": BODY.replace(f"[wiki]({V1})", f"<a href='{V1}'>wiki</a>"),
        "a trailing slash": BODY.replace(V1, V1 + "/"),
        "a link added": BODY.replace("platform team", "[platform team](http://team.example)"),
        "markup added": BODY.replace("rollback", "<b>rollback</b>"),
        "the link dropped": BODY.replace(f"[wiki]({V1})", "wiki"),
        "the address moved to a second link": BODY.replace(f"({V1})", f"({V2})").replace(
            "platform team", f"[platform team]({V1})"),
        # the address shown (the words as written of the forgotten body: written_body_digest)
        "shown as an autolink": BODY.replace(f"[wiki]({V1})", f"wiki <{V1}>"),
        "shown bare": BODY.replace(f"[wiki]({V1})", f"wiki {V1}"),
        "shown in the text of a link elsewhere": BODY.replace(f"[wiki]({V1})", f"[wiki {V1}]({V2})"),
    }
    for kind, body in refused.items():
        why = f"the forgotten body, {SHOWN}" if kind == "shown in the text of a link elsewhere" else "the forgotten body"
        assert _refused_as(mem, "ops-again", "Weekly ops summary", body) == (stone, why), kind
    assert "ops-again" not in {m.name for m in mem.list(include_all=True).memories}


def test_a_file_copied_in_with_the_address_corrected_is_a_memory_and_one_with_it_wrapped_is_held(
        isolated_home, project, mem):
    mem.write("runbook", "Runbook notes", "project", BODY)
    mem.forget("runbook")
    layer = project_layer_dir(isolated_home, project)
    files = {"corrected": BODY.replace(V1, V2), "wrapped": BODY.replace(f"[wiki]({V1})", f'<a href="{V1}">wiki</a>')}
    for name, body in files.items():
        (layer / f"{name}.md").write_text(f"---\nname: {name}\ndescription: Copied notes\ntype: project\n---\n{body}\n")
    names = [m.name for m in mem.list().memories]
    assert "corrected" in names and "wrapped" not in names
    assert (mem.session.layer("project").meta / "held-files").read_text() == "held 1\n"


def _old_file(mem, item: dict):
    meta = mem.session.layer("project").meta
    meta.mkdir(parents=True, exist_ok=True)
    path = meta / "tombstones.json"
    path.write_text(json.dumps([item], indent=1) + "\n")
    return path


def test_a_tombstone_of_reading_one_blocks_as_before_and_takes_the_corrected_address(mem):
    """No ``reading``: its digests are of the words as written, the address among them; its description is read
    today, so its address is read from it."""
    item = make("runbook", DESCRIPTION, BODY, "human", "moved").stored()
    for key in ("reading", "body_addresses", "description_addresses", "written_words_digest", "written_body_digest"):
        item.pop(key, None)
    item["words_digest"] = sha256(" ".join(words(f"{DESCRIPTION}\n{BODY}", 1)).encode()).hexdigest()
    item["body_digest"] = body_digest(DESCRIPTION, BODY, 1)
    path = _old_file(mem, item)
    before = path.read_bytes()
    assert _refused_as(mem, "again", DESCRIPTION + ".", BODY) == (item["id"], "the same words")
    assert _refused_as(mem, "again", "Weekly ops summary", BODY.replace("rollback", "**rollback**")) == (
        item["id"], "the forgotten body")
    assert _refused_as(mem, "again", f'The deploy runbook is on the <a href="{V1}">wiki</a>', "") == (
        item["id"], "the forgotten fact restated")
    assert _refused_as(mem, "again", "The deploy runbook is on the wiki", "") == (
        item["id"], "the forgotten fact restated")  # the link dropped (test_markup_seen_through pins it too)
    assert _created(mem, "fixed", DESCRIPTION.replace(V1, V2), "") == "created"
    assert _created(mem, "ops-notes", "Weekly ops summary", BODY.replace(V1, V2)) == "created"
    assert path.read_bytes() == before


def test_a_tombstone_of_reading_two_without_address_digests_blocks_its_body_as_before(mem):
    """Kept by tomb40's memdir: its body's addresses are not known, so its body blocks as it did; its description's
    are read from the description."""
    item = make("runbook", DESCRIPTION, BODY, "human", "moved").stored()
    for key in ("body_addresses", "description_addresses", "written_words_digest", "written_body_digest"):
        item.pop(key, None)
    path = _old_file(mem, item)
    before = path.read_bytes()
    [stone] = TombstoneFile(path.parent).all()
    assert (stone.reading, stone.body_addresses, stone.description_addresses) == (2, None, None)
    assert forgotten(stone, "description") == frozenset(digests(DESCRIPTION)) and forgotten(stone, "body") == set()
    assert _refused_as(mem, "ops-notes", "Weekly ops summary", BODY.replace(V1, V2)) == (
        item["id"], "the forgotten body")
    assert _refused_as(mem, "again", f"The deploy runbook is on the [wiki](<{V1}>)", "") == (
        item["id"], "the forgotten fact restated")
    assert _created(mem, "fixed", DESCRIPTION.replace(V1, V2), "") == "created"
    assert path.read_bytes() == before


def test_the_address_fields_are_stored_only_when_there_are_some_and_a_bad_one_is_named():
    stone = make("runbook", DESCRIPTION, BODY, "human", None)
    assert (stone.description_addresses, stone.body_addresses) == (digests(DESCRIPTION), digests(BODY))
    assert stone_of(stone.stored()) == stone and stone_of(json.loads(shared_bytes(stone))).body_addresses == \
        digests(BODY)
    assert shared_bytes(stone) == shared_bytes(make("runbook", DESCRIPTION, BODY, "other", "x"))  # git merges alike
    assert (stone.written_words_digest, stone.written_body_digest) == (
        sha256(" ".join(words(f"{DESCRIPTION}\n{BODY}", 1)).encode()).hexdigest(), body_digest(DESCRIPTION, BODY, 1))
    plain = make("db", "The staging database host is pg-stage-3", "", "human", None)
    assert plain.description_addresses is None and "body_addresses" not in plain.stored()
    assert {"written_words_digest", "written_body_digest"}.isdisjoint(plain.stored())  # read alike both ways
    assert "written_words_digest" not in make("db", "**Staging** host is pg-stage-3", "", "h", None).stored()
    with pytest.raises(ValueError, match="'body_addresses' is a string, not an array of strings"):
        stone_of({**stone.stored(), "body_addresses": "abc"})
    with pytest.raises(ValueError, match="'description_addresses' is an array, not an array of strings"):
        stone_of({**stone.stored(), "description_addresses": [1]})
    assert match([stone], DESCRIPTION.replace(V1, V2), BODY.replace(V1, V2)) is None
    assert match([stone], DESCRIPTION, BODY.replace(V1, V2)) == (stone, "the same words")  # control: V1 still held
    assert seen(DESCRIPTION) == seen(DESCRIPTION.replace(V1, V2))  # what made them "the same words"


@pytest.mark.slow
def test_the_cli_writes_the_corrected_address_and_refuses_it_wrapped(isolated_home, project):
    env = {"MEMDIR_SEARCH_VECTORS": "off"}
    assert run_cli("write", "runbook", "-d", "Runbook notes", "--body", BODY, cwd=project, env=env).returncode == 0
    assert run_cli("forget", "runbook", "--reason", "wiki moved", cwd=project, env=env).returncode == 0
    stone = json.loads((project_layer_dir(isolated_home, project) / ".memdir" / "tombstones.json").read_text())[0]
    refused = run_cli("write", "ops", "-d", "Ops notes", "--body", BODY.replace(f"({V1})", f"(<{V1}>)"),
                      cwd=project, env=env)
    assert refused.returncode == 1
    assert refused.stderr.startswith(f"memdir: refused: this matches a forgotten value (the forgotten body; tombstone "
                                     f"{stone['id']}, memory 'runbook', forgotten by human on ")
    written = run_cli("write", "ops", "-d", "Ops notes", "--body", BODY.replace(V1, V2), cwd=project, env=env)
    assert (written.returncode, written.stdout.strip()) == (0, "Memory created: ops (project)")
    shown = run_cli("read", "ops", "--json", cwd=project, env=env)
    assert V2 in json.loads(shown.stdout)["body"]


def test_one_place_spelled_another_way_is_the_forgotten_address(mem):
    """break41: a percent-escape, a fragment, the default port, another scheme or none read as another address, so
    the forgotten link came back as a "correction". :func:`normal` reads each as the one place; a real other place
    (v2, another path, another port) is still a correction, in the same store."""
    assert {normal(a) for a in (V1, "http://%76%31.example/runbook", f"{V1}%2F", f"{V1}#", f"{V1}#top",
                                "http://v1.example:80/runbook", "https://v1.example:443/runbook/",
                                "//v1.example/runbook", "v1.example/runbook", f"{V1}?")} == {"v1.example/runbook"}
    assert normal("#install") == "#install" != normal("#usage")  # an address of a fragment alone keeps it
    assert normal("http://v1.example:8080/runbook") != normal(V1) != normal("http://v1.example/runbook2")
    mem.write("runbook", DESCRIPTION, "project", "")
    stone = mem.forget("runbook").tombstone
    for spelled in ("http://%76%31.example/runbook", f"{V1}%2F", f"{V1}#", f"{V1}#top",
                    "http://v1.example:80/runbook", "//v1.example/runbook", "https://v1.example/runbook",
                    "v1.example/runbook"):
        assert _refused_as(mem, "again", DESCRIPTION.replace(V1, spelled), "") == (stone, "the same words"), spelled
    for other in ("http://v1.example:8080/runbook", "http://v1.example/runbook2", V2):  # control: other places
        assert _created(mem, f"moved-{len(other)}-{other[-1]}", DESCRIPTION.replace(V1, other), "") == "created"
