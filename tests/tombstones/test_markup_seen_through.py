"""A forgotten fact dressed in markup a reader does not see as words is still the forgotten fact (tomb40:
``<b>pass</b>word``, ``[staging host](http://x)``, ``&#x70;assword`` got past a tombstone as other words). The
tombstone reads what a reader sees (:func:`memdir.tombstones.reading.seen`); the same markup on another fact, and a
fact sharing one word, are written. A tombstone file of an earlier memdir (no ``reading``) still blocks, dressed
or not, and is not rewritten."""

from __future__ import annotations

import json

import pytest

from memdir.errors import TombstoneRefused
from memdir.paths import project_layer_dir, sha256
from memdir.tombstones.match import body_digest, make, match, sieve
from memdir.tombstones.reading import READING, READINGS, seen, words
from memdir.tombstones.stones import TombstoneFile, stone_of

FORGOTTEN = "The staging database host is pg-stage-3"
BODY = "Moved by the platform team after the audit; the runbook under ops staging holds the history of it."

# (kind, the forgotten description dressed in it, another fact dressed the same way)
DRESSED = [
    ("html-bold", "The staging <b>data</b>base host is pg-stage-3", "The prod <b>data</b>base host is pg-prod-9"),
    ("html-bold-capitals", "The staging <B>data</B>base host is pg-stage-3", "The prod <B>data</B>base host is pg-prod-9"),
    ("html-span", 'The staging data<span class="x">base</span> host is pg-stage-3',
     'The prod data<span class="x">base</span> host is pg-prod-9'),
    ("html-comment", "The staging data<!-- not shown -->base host is pg-stage-3",
     "The prod data<!-- not shown -->base host is pg-prod-9"),
    ("html-break", "The staging database host<br>is pg-stage-3", "The prod database host<br>is pg-prod-9"),
    ("markdown-link", "The [staging database](http://x.example/wiki) host is pg-stage-3",
     "The [prod database](http://x.example/wiki) host is pg-prod-9"),
    ("markdown-link-titled", 'The staging database [host](http://x "wiki") is pg-stage-3',
     'The prod database [host](http://x "wiki") is pg-prod-9'),
    ("markdown-emphasis", "The staging **data**base host is *pg-stage-3*", "The prod **data**base host is *pg-prod-9*"),
    ("markdown-emphasis-inside", "The staging d*ata*base host is pg-stage-3", "The prod d*ata*base host is pg-prod-9"),
    ("inline-code", "The staging `data`base host is `pg-stage-3`", "The prod `data`base host is `pg-prod-9`"),
    ("entity-hex", "The staging &#x64;atabase host is pg-stage-3", "The prod &#x64;atabase host is pg-prod-9"),
    ("entity-decimal", "The staging &#100;atabase host is pg-stage-&#51;", "The prod &#100;atabase host is pg-prod-9"),
    ("entity-named", "The staging&nbsp;data&shy;base host is pg-stage-3",
     "The prod&nbsp;data&shy;base host is pg-prod-9"),
]
SHARES_ONE_WORD = "The database backups run every night at two"


def test_seen_reads_what_a_reader_sees_and_leaves_code_as_written():
    assert seen("<b>pass</b>word") == seen("pass<span class='x'>word</span>") == seen("pass<!-- x -->word") == "password"
    assert seen("[staging host](http://x)") == seen("![staging host](a.png \"t\")") == "staging host"
    assert seen("see [docs][ref]\n[ref]: http://x") == "see docs\n"
    assert seen("**pass**word `hunter2` &#x70;&amp;") == "password hunter2 p&"
    assert seen("a<br>b<p>c</p>") == "a b c "
    assert seen("<B>pass</B>word") == "password"
    assert seen("```python\nx = 1\n```") == "\nx = 1\n"  # a fence's info string is not shown
    # controls: code and plain text are read as written
    for code in ("Vec<u8> and Vec<u16>", "Array<T> map<U> Box<B>", "2*60 seconds, *.py files", "<https://x.example>",
                 "AT&T", "a_b_c", "x < 5 and y > 3", "plain words"):
        assert seen(code) == code, code
    assert words("Use Vec<u8> for bytes") != words("Use Vec<u16> for bytes")  # a correction stays one


@pytest.mark.parametrize(("kind", "dressed", "other"), DRESSED, ids=[d[0] for d in DRESSED])
def test_each_markup_kind_is_refused_naming_the_tombstone_and_its_controls_are_written(mem, kind, dressed, other):
    mem.write("staging-db", FORGOTTEN, "project", BODY)
    stone = mem.forget("staging-db").tombstone
    with pytest.raises(TombstoneRefused) as refused:
        mem.write("db-again", dressed, "project", BODY)
    assert (refused.value.tombstone_id, refused.value.stone.name, refused.value.why) == (
        stone, "staging-db", "the same words")
    assert str(refused.value).startswith(f"refused: this matches a forgotten value (the same words; tombstone {stone}, "
                                         "memory 'staging-db', forgotten by ")
    with pytest.raises(TombstoneRefused) as restated:  # the body dropped: the fact restated, as undressed
        mem.write("db-again", dressed, "project", "")
    assert (restated.value.tombstone_id, restated.value.why) == (stone, "the forgotten fact restated")
    # controls: another fact in the same markup, and a fact sharing one word, are written
    assert mem.write("prod-db", other, "project", "").operation == "created"
    assert mem.write("db-backups", SHARES_ONE_WORD, "project", "").operation == "created"
    assert {"prod-db", "db-backups"} <= {m.name for m in mem.list().memories}
    assert "db-again" not in {m.name for m in mem.list(include_all=True).memories}


FORGOTTEN_BODY = ("The staging host is stage-7.internal; it runs the nightly billing batch and the audit export "
                  "for finance.")


def test_a_forgotten_body_dressed_in_markup_is_refused_and_another_body_so_dressed_is_written(mem):
    mem.write("staging-host", "Staging host notes", "project", FORGOTTEN_BODY)
    stone = mem.forget("staging-host").tombstone
    dressed = ("The [staging host](http://wiki.example/hosts) is `stage-7.internal`; it runs the <b>nightly</b> "
               "billing batch and the audit ex<span>port</span> for **finance**.")
    with pytest.raises(TombstoneRefused) as refused:
        mem.write("ops-notes", "Ops notes for Tuesday", "project", dressed)
    assert (refused.value.tombstone_id, refused.value.why) == (stone, "the forgotten body")
    other = dressed.replace("stage-7", "stage-8")  # control: another host in the same markup
    assert mem.write("ops-notes", "Ops notes for Tuesday", "project", other).operation == "created"


def _old_format(description: str, body: str) -> dict:
    """A tombstone as an earlier memdir stored it: no ``reading``, its digests of the words as written."""
    item = make("staging-db", description, body, "human", "rotated").stored()
    del item["reading"]
    item["words_digest"] = sha256(" ".join(words(f"{description}\n{body}", 1)).encode()).hexdigest()
    item["body_digest"] = body_digest(description, body, 1)
    return item


def _old_file(mem, item: dict):
    meta = mem.session.layer("project").meta
    meta.mkdir(parents=True, exist_ok=True)
    path = meta / "tombstones.json"
    path.write_text(json.dumps([item], indent=1) + "\n")
    [stone] = TombstoneFile(meta).all()
    assert (stone.id, stone.reading, READINGS, READING) == (item["id"], None, (2, 1), 2)
    return path


def _refused_as(mem, description: str, body: str) -> tuple[str, str]:
    with pytest.raises(TombstoneRefused) as refused:
        mem.write("db-again", description, "project", body)
    return refused.value.tombstone_id, refused.value.why


def test_a_tombstone_file_of_the_old_format_still_blocks_the_fact_dressed_after_the_upgrade(mem):
    item = _old_format(FORGOTTEN, BODY)  # the common case: the forgotten value held no markup
    path = _old_file(mem, item)
    before = path.read_bytes()
    dressed_body = BODY.replace("platform team", "[platform team](http://wiki)").replace("audit", "<b>audit</b>")
    assert _refused_as(mem, FORGOTTEN + ".", BODY) == (item["id"], "the same words")  # as before the upgrade
    assert _refused_as(mem, "The staging <b>data</b>base host is `pg-stage-3`", dressed_body) == (
        item["id"], "the same words")  # its digest of then is the dressed value's today
    assert _refused_as(mem, "Vault notes", f"**{BODY}**") == (item["id"], "the forgotten body")
    assert _refused_as(mem, "The [staging database](http://x) host is pg-stage-3", "") == (
        item["id"], "the forgotten fact restated")
    # controls: another fact so dressed and a fact sharing a word are written; the old file is never rewritten
    assert mem.write("prod-db", "The prod <b>data</b>base host is pg-prod-9", "project", dressed_body.replace(
        "staging", "prod")).operation == "created"
    assert mem.write("db-backups", SHARES_ONE_WORD, "project", "").operation == "created"
    assert path.read_bytes() == before


def test_an_old_tombstone_of_a_value_holding_markup_blocks_by_its_reading_and_its_description(mem):
    forgotten = ("The [staging database](http://x.example/wiki) host is pg-stage-3", BODY)  # its link's words counted
    item = _old_format(*forgotten)
    assert item["words_digest"] != make("x", *forgotten, "human", None).words_digest  # the readings differ here
    _old_file(mem, item)
    assert _refused_as(mem, forgotten[0] + ".", BODY) == (item["id"], "the same words")  # its own reading
    assert _refused_as(mem, "The staging <b>data</b>base host is pg-stage-3", BODY) == (item["id"], "the forgotten body")
    assert _refused_as(mem, "The staging <b>data</b>base host is pg-stage-3", "") == (
        item["id"], "the forgotten fact restated")  # its description is kept in clear: read today
    assert mem.write("prod-db", "The [prod database](http://x.example/wiki) host is pg-prod-9", "project",
                     "").operation == "created"  # control


def test_a_new_tombstone_stores_its_reading_and_a_bad_one_is_named():
    stone = make("db", FORGOTTEN, BODY, "human", None)
    assert stone.stored()["reading"] == READING == 2
    assert stone_of(stone.stored()) == stone
    with pytest.raises(ValueError, match="'reading' is a string"):
        stone_of({**stone.stored(), "reading": "2"})
    with pytest.raises(ValueError, match="'reading' is a boolean"):
        stone_of({**stone.stored(), "reading": True})
    # a reading newer than this memdir: compared under every reading it knows
    newer = stone_of({**stone.stored(), "reading": 9})
    assert newer.reading == 9 and match([newer], "The staging <b>data</b>base host is pg-stage-3",
                                                        BODY) == (newer, "the same words")


def test_the_held_back_sieve_finds_a_run_markup_split():
    passes = sieve("held-file\n\nThe staging <b>data</b>base host is pg-stage-&#51;\n")
    assert passes(frozenset({"database", "pg", "stage", "3", "staging"}))
    assert not passes(frozenset({"prod"}))  # control: a run the text does not hold


def test_a_file_copied_in_dressed_in_markup_is_held_back_under_an_old_and_a_new_tombstone(isolated_home, project, mem):
    other = "Billing replica notes"
    other_body = "The billing replica pg-bill-02 is read-only and lags ten minutes behind the primary at night."
    mem.write("billing-replica", other, "project", other_body)
    new_id = mem.forget("billing-replica").tombstone
    mem.write("staging-db", FORGOTTEN, "project", BODY)
    old_id = mem.forget("staging-db").tombstone
    meta = mem.session.layer("project").meta
    stones = json.loads((meta / "tombstones.json").read_text())
    assert stones[1] == {**_old_format(FORGOTTEN, BODY), "reading": 2, "actor": "agent", "reason": None,
                         "ts": stones[1]["ts"], "action": "forget"}  # a plain value: both readings' digests alike
    del stones[1]["reading"]  # as an earlier memdir stored it
    (meta / "tombstones.json").write_text(json.dumps(stones, indent=1) + "\n")
    layer = project_layer_dir(isolated_home, project)
    files = {
        "copied-old": ("Copied file", BODY.replace("audit", "<b>audit</b>").replace("runbook", "[runbook](http://w)")),
        "copied-new": ("Copied notes", other_body.replace("read-only", "`read-only`").replace("lags", "l<i>ags</i>")),
        "kept": ("Copied file", BODY.replace("audit", "<b>review</b>")),  # control: another body so dressed
    }
    for name, (description, body) in files.items():
        (layer / f"{name}.md").write_text(f"---\nname: {name}\ndescription: {description}\ntype: project\n---\n{body}\n")
    names = [m.name for m in mem.list().memories]
    assert [(s.id, s.reading) for s in mem.session.layer("project").tombstones()] == [(new_id, 2), (old_id, None)]
    assert "kept" in names and "copied-old" not in names and "copied-new" not in names
    assert (meta / "held-files").read_text() == "held 2\n"  # the two copies, not the control


@pytest.mark.parametrize("hidden", [
    "<!-- The staging database host is pg-stage-3 -->",
    '<span title="The staging database host is pg-stage-3">see ops</span>',
    '[see ops](http://wiki "The staging database host is pg-stage-3")',
], ids=["comment", "attribute", "link-title"])
def test_markup_that_hides_the_forgotten_fact_from_a_renderer_does_not_hide_it_from_the_tombstone(mem, hidden):
    """A model reads the raw text: the value is read as written too (READINGS), so seeing through markup never
    hides a forgotten fact inside it."""
    mem.write("staging-db", FORGOTTEN, "project", "")
    stone = mem.forget("staging-db").tombstone
    with pytest.raises(TombstoneRefused) as refused:
        mem.write("ops-notes", "Ops notes for Tuesday", "project", f"Ask ops first. {hidden}")
    assert (refused.value.tombstone_id, refused.value.why) == (stone, "the forgotten fact restated")
    other = hidden.replace("pg-stage-3", "pg-stage-4")  # control: another host hidden the same way
    assert mem.write("ops-notes", "Ops notes for Tuesday", "project", f"Ask ops first. {other}").operation == "created"
