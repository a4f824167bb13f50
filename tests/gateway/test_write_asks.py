"""What a write asks is checked once, fully, where it is declared (``memdir.MemoryChange``) and
prepared (``gateway.fields``): a malformed value is an :class:`InvalidInput` that writes nothing, on
the Python API, the CLI and the MCP tool alike, never a raw Python exception or a value read as
something it is not."""

from __future__ import annotations

import json
from datetime import datetime, timezone

import pytest

from memdir import InvalidInput, Memory, MemoryChange
from tests.conftest import run_cli

DEEP = {}
_level = DEEP
for _ in range(3000):
    _level["k"] = {}
    _level = _level["k"]


def files_of(mem, scope="project"):
    """The memory files of ``scope``'s layer, by name."""
    path = mem.session.layer(scope).path
    return sorted(p.name for p in path.glob("*.md") if p.name != "MEMORY.md") if path.is_dir() else []


@pytest.mark.parametrize("extra, message", [
    ({"k": object()}, "extra['k']: a value of type object cannot be kept in frontmatter (text, an integer, a finite "
                      "number, true/false, null, or lists and mappings of those with text keys)"),
    ({"k": 10 ** 5000}, "extra['k']: an integer of 16610 bits is outside the signed 64-bit range a frontmatter "
                        "number keeps; write it as text"),
    ({"k": [1, {"x": 2 ** 63}]}, "extra['k'][1]['x']: an integer of 64 bits is outside the signed 64-bit range a "
                                 "frontmatter number keeps; write it as text"),
    ({"k": DEEP}, "extra['k']: nested deeper than 20 levels of lists and mappings"),
    ({"k": float("nan")}, "extra['k']: nan is not a finite number"),
    ({"k": {"a": [float("-inf")]}}, "extra['k']['a'][0]: -inf is not a finite number"),
    ({"k": {1: "x"}}, "extra['k']: a mapping key must be text (got int 1)"),
    ({7: "x"}, "extra: a key must be text (got int 7)"),
    ({"k": "a\udcffb"}, "extra['k']: not valid Unicode text (undecodable bytes?)"),
    ({"k": {"a\ud800": 1}}, "extra['k']: the key 'a\\ud800' is not valid Unicode text (undecodable bytes?)"),
])
def test_an_extra_value_that_is_not_plain_yaml_is_invalid_input_and_nothing_is_written(person, extra, message):
    """``extra`` holds YAML-plain values only (text, a 64-bit integer, a finite float, a boolean, None,
    lists and text-keyed mappings of those, at most 20 levels deep): anything else raised TypeError,
    yaml.RepresenterError, ValueError or RecursionError out of the API after the change was built."""
    with pytest.raises(InvalidInput) as refused:
        person.write("a", "d", extra=extra)
    assert str(refused.value) == message
    assert files_of(person) == []
    with pytest.raises(InvalidInput) as built:
        MemoryChange("a", "d", extra=extra)  # the value refuses it: no level below sees it
    assert str(built.value) == message


def test_a_plain_extra_value_is_kept_as_given(person):
    """The control: every plain kind, at the depth limit (20 levels), is written and read back as it was."""
    nested = value = {}
    for _ in range(18):
        value["n"] = {}
        value = value["n"]
    value["n"] = [1]
    extra = {"text": "OPS-7", "count": 2 ** 63 - 1, "low": -2 ** 63, "ratio": 0.25, "done": False, "none": None,
             "tags": ["a", 2, [True]], "map": {"x": {"y": "z"}}, "deep": nested}
    written = person.write("a", "d", extra=extra)
    assert written.operation == "created"
    assert dict(person.read("a", count=False).record.extra) == extra
    assert MemoryChange("a", extra={"t": ("x", 1)}).extra == (("t", ["x", 1]),)  # a tuple is a YAML list


def test_clear_that_is_not_a_list_of_names_is_invalid_input():
    with pytest.raises(InvalidInput) as refused:
        MemoryChange("c", "d", clear=5)
    assert str(refused.value) == ("clear must be a list of field names, of importance, title, valid_from, "
                                  "valid_until (got 5)")
    with pytest.raises(InvalidInput) as unknown:
        MemoryChange("c", "d", clear=["title", "body"])
    assert str(unknown.value) == "only importance, title, valid_from, valid_until can be cleared (got title, body)"
    assert MemoryChange("c", "d", clear=["title"]).clear == ("title",)  # control


FLAGS = [
    ({"pinned": "yes"}, "pinned must be a boolean (True or False), got str"),
    ({"disabled": "no"}, "disabled must be a boolean (True or False), got str"),
    ({"disabled": 0}, "disabled must be a boolean (True or False), got int"),
    ({"reactivate": "yes"}, "reactivate must be a boolean (True or False), got str"),
    ({"importance": "5"}, "importance must be an integer from 1 to 10 (got '5')"),
    ({"importance": 5.0}, "importance must be an integer from 1 to 10 (got 5.0)"),
    ({"importance": True}, "importance must be an integer from 1 to 10 (got True)"),
    ({"importance": 11}, "importance must be an integer from 1 to 10 (got 11)"),
    ({"valid_until": 12345}, "valid_until must be a datetime or ISO-8601 text (got int 12345)"),
    ({"valid_from": 1.5}, "valid_from must be a datetime or ISO-8601 text (got float 1.5)"),
    ({"valid_until": "12345"}, "valid_until: cannot read '12345' as a time (use ISO-8601, e.g. "
                               "2026-11-30T12:00:00Z, or a date, 2026-11-30)"),
    ({"status": "active!"}, "status can be asked as 'candidate' only (got 'active!')"),
    ({"title": 5}, "title must be text (got int)"),
    ({"supersedes": ["x"]}, "supersedes must be text (got list)"),
    ({"expect_digest": True}, "expect_digest must be a digest (text), None or False (got True)"),
]


@pytest.mark.parametrize("fields, message", FLAGS)
def test_a_wrongly_typed_field_is_refused_not_read_as_true_or_false(person, fields, message):
    """``disabled='no'`` muted the memory, ``pinned='yes'`` pinned it, ``reactivate='yes'`` was
    dropped and ``valid_until=12345`` read as 1970: the API now refuses what the MCP tool refuses."""
    with pytest.raises(InvalidInput) as refused:
        person.write("b3", "d", **fields)
    assert str(refused.value) == message
    assert files_of(person) == []


def test_right_flags_are_written_as_given(person):
    """The control of the refusals above, in the same setup."""
    until = datetime(2030, 1, 2, tzinfo=timezone.utc)
    done = person.write("b3", "d", pinned=True, disabled=False, importance=7, reactivate=None, valid_until=until)
    assert (done.operation, done.pinned) == ("created", True)
    record = person.read("b3", count=False).record
    assert (record.pinned, record.disabled, record.importance, record.valid_until) == (True, False, 7, until)
    assert person.write("b4", "d", valid_until="2030-01-02T00:00:00Z").operation == "created"
    assert person.read("b4", count=False).record.valid_until == until


def test_the_mcp_tool_and_the_api_refuse_the_same_flag(person):
    text = person.call_tool("memory_write", {"name": "b3", "description": "d", "pinned": "yes"})
    assert text == "Error: memory_write: 'pinned' must be a boolean, got str"
    with pytest.raises(InvalidInput, match=r"^pinned must be a boolean \(True or False\), got str$"):
        person.write("b3", "d", pinned="yes")
    assert files_of(person) == []
    assert person.call_tool("memory_write", {"name": "b3", "description": "d", "pinned": True}).startswith(
        "Memory created: b3")  # control


@pytest.mark.slow
def test_the_cli_refuses_a_number_as_a_time(project):
    refused = run_cli("write", "b6", "-d", "x", "--valid-until", "12345", cwd=project)
    assert (refused.returncode, refused.stdout) == (1, "")
    assert refused.stderr == ("memdir: --valid-until: cannot read '12345' as a time (use ISO-8601, e.g. "
                              "2026-11-30T12:00:00Z, or a date, 2026-11-30)\n")
    assert run_cli("list", cwd=project).stdout.strip() == "No memories yet."
    done = run_cli("write", "b6", "-d", "x", "--valid-until", "2030-01-02", cwd=project)  # control
    assert done.returncode == 0 and done.stdout.startswith("Memory created: b6"), done.stderr


def test_a_value_given_and_cleared_at_once_is_refused(person):
    """``title='New title', clear=['title']`` returned ``updated`` and dropped the title."""
    person.write("x", "d", title="Old title")
    for fields, field in (({"title": "New title", "clear": ["title"]}, "title"),
                          ({"importance": 3, "clear": ("importance", "title")}, "importance"),
                          ({"valid_until": "2030-01-02", "clear": ["valid_until"]}, "valid_until")):
        with pytest.raises(InvalidInput) as refused:
            person.write("x", **fields)
        assert str(refused.value) == f"{field} is both given and cleared: give a value or clear it, not both"
    assert person.read("x", count=False).record.title == "Old title"
    assert person.write("x", clear=["title"]).operation == "updated"  # control: each alone is a change
    assert person.read("x", count=False).record.title is None
    assert person.write("x", title="New title").operation == "updated"
    assert person.read("x", count=False).record.title == "New title"


@pytest.mark.slow
def test_the_cli_refuses_a_value_given_and_cleared(project):
    assert run_cli("write", "x", "-d", "d", "--title", "Old title", cwd=project).returncode == 0
    refused = run_cli("write", "x", "--title", "CLI title", "--clear", "title", cwd=project)
    assert (refused.returncode, refused.stdout) == (1, "")
    assert refused.stderr == "memdir: title is both given and cleared: give a value or clear it, not both\n"
    shown = json.loads(run_cli("read", "x", "--json", cwd=project).stdout)
    assert shown["title"] == "Old title"
    cleared = run_cli("write", "x", "--clear", "title", cwd=project)  # control
    assert cleared.returncode == 0 and cleared.stdout.startswith("Memory updated: x"), cleared.stderr


GHP = "ghp_abcdefghijklmnopqrstuvwxyz0123456789"
AWS = "AKIAIOSFODNN7EXAMPLE"


def test_secrets_in_extra_values_are_redacted_and_counted_like_every_field(person):
    """``extra={'token': 'ghp_…'}`` gave ``redactions=0`` and the token in the file."""
    done = person.write("a", "d", extra={"token": GHP, "hosts": ["db", {"key": AWS}], "ticket": "OPS-7", "n": 5})
    assert (done.redactions, done.redaction_kinds) == (2, {"github-token": 1, "aws-key": 1})
    text = (person.session.layer("project").path / "a.md").read_text(encoding="utf-8")
    assert GHP not in text and AWS not in text
    assert "ticket: OPS-7" in text  # control: what is no secret is kept
    assert dict(person.read("a", count=False).record.extra) == {
        "token": "[REDACTED:github-token]", "hosts": ["db", {"key": "[REDACTED:aws-key]"}], "ticket": "OPS-7", "n": 5}
    plain = person.write("b", "d", extra={"ticket": "OPS-7"})
    assert (plain.redactions, plain.redaction_kinds) == (0, {})


RAW_REASON = f"token {GHP} \x1b[2J l1\nl2"
CLEAN_REASON = "token [REDACTED:github-token]  l1 l2"  # redacted, the escape gone, one line


def last_event(mem, scope="project") -> dict:
    journal = mem.session.layer(scope).meta / "journal.jsonl"
    return json.loads(journal.read_text(encoding="utf-8").splitlines()[-1])


def test_a_write_reason_goes_through_the_one_reason_rule(person):
    """A write's reason went into the journal raw (a secret, an escape, a line break; ``reason=5`` as an
    int; 100 KB uncut); ``delete``, ``approve`` and ``tombstone lift`` already passed theirs through
    ``gateway.fields.reason_text``."""
    person.write("r1", "x", reason=RAW_REASON)
    assert (last_event(person)["action"], last_event(person)["reason"]) == ("create", CLEAN_REASON)
    person.write("r1", "y", reason="z" * 100_000)
    assert last_event(person)["reason"] == "z" * person.settings.limit_description
    for bad in (5, b"bytes", ["a"]):
        with pytest.raises(InvalidInput) as refused:
            person.write("r2", "x", reason=bad)
        assert str(refused.value) == f"reason must be text (got {type(bad).__name__})"
        with pytest.raises(InvalidInput) as deleting:
            person.delete("r1", reason=bad)
        assert str(deleting.value) == f"reason must be text (got {type(bad).__name__})"
    assert files_of(person) == ["r1.md"]
    person.delete("r1", reason=RAW_REASON)  # control: the delete's reason, by the same rule
    assert (last_event(person)["action"], last_event(person)["reason"]) == ("delete", CLEAN_REASON)


@pytest.mark.slow
def test_the_cli_write_reason_is_journaled_clean(project, isolated_home):
    done = run_cli("write", "r1", "-d", "x", "--reason", RAW_REASON, cwd=project)
    assert done.returncode == 0, done.stderr
    journal = next((isolated_home / "projects").glob("*/.memdir/journal.jsonl"))
    assert json.loads(journal.read_text(encoding="utf-8").splitlines()[-1])["reason"] == CLEAN_REASON


def test_a_move_layer_reason_goes_through_the_one_reason_rule(tmp_path, isolated_home):
    old, new = tmp_path / "old", tmp_path / "new"
    (old / ".git").mkdir(parents=True)
    (new / ".git").mkdir(parents=True)
    Memory.open(home=isolated_home, project=old, actor="human").write("deploy", "Deploy with make ship")
    key = next((isolated_home / "projects").iterdir()).name
    old.rename(tmp_path / "gone")
    mem = Memory.open(home=isolated_home, project=new, actor="human")
    with pytest.raises(InvalidInput) as refused:
        mem.move_layer(key, reason=5)
    assert str(refused.value) == "reason must be text (got int)"
    assert [p.name for p in (isolated_home / "projects").iterdir()] == [key]  # nothing moved
    mem.move_layer(key, reason=RAW_REASON)
    assert [m.name for m in mem.list().memories] == ["deploy"]
    assert (last_event(mem)["action"], last_event(mem)["reason"]) == ("move", CLEAN_REASON)


STAMP = "2026-01-01T00:00:00Z"  # every time in a file is this wide


def front_size(name: str, extra: str, origin: str = "human") -> int:
    """The bytes of the frontmatter a new memory ``name`` (description ``d``) with the extra line
    ``extra`` gets, as the reader counts them (between the ``---`` lines)."""
    return len((f"name: {name}\ndescription: d\ntype: project\ncreated: {STAMP}\nupdated: {STAMP}\n"
                f"origin: {origin}\nstatus: active\n{extra}").encode("utf-8"))


def test_a_write_whose_frontmatter_the_reader_would_refuse_is_refused(person):
    """``extra={'k': 'x' * 100000}`` reported ``created`` and left a file the reader refuses."""
    with pytest.raises(InvalidInput) as refused:
        person.write("a7", "d", extra={"k": "x" * 100_000})
    size = front_size("a7", "k: " + "x" * 100_000)
    assert size == 100_130
    assert str(refused.value) == (f"the frontmatter would be {size} bytes, over the 16384-byte cap memdir reads "
                                  "back; nothing was written (long text belongs in the body, not in a frontmatter "
                                  "key)")
    assert files_of(person) == []
    # the cap counts bytes: exactly at it is written and read back; one byte more is refused
    fits = "é" * ((16384 - front_size("a7", "k: ")) // 2)
    assert front_size("a7", "k: " + fits) == 16384
    assert person.write("a7", "d", extra={"k": fits}).operation == "created"
    with pytest.raises(InvalidInput, match="^the frontmatter would be 16385 bytes, over the 16384-byte cap"):
        person.write("a8", "d", extra={"k": fits + "x"})
    listed = person.list()
    assert [m.name for m in listed.memories] == ["a7"] and listed.malformed == ()
    assert dict(person.read("a7", count=False).record.extra) == {"k": fits}


def test_a_restored_version_has_the_secrets_of_its_extra_redacted(person):
    """A restore redacts a version's description, body and title; a secret a hand edit put in a
    further frontmatter key came back as it was."""
    person.write("deploy", "Deploy with the release bot")
    path = person.session.layer("project").path / "deploy.md"
    path.write_text(path.read_text(encoding="utf-8").replace("status: active\n", f"status: active\napi_key: {GHP}\n"
                                                             "owner: ops\n"), encoding="utf-8")
    person.write("deploy", "Deploy with the release bot, on Tuesdays")  # the hand edit is kept as a version first
    versions = person.history("deploy").versions
    edited = next(v for v in versions if v.action == "external-edit")
    assert GHP in person.show("deploy", edited.version).text  # the version holds it, as the hand edit wrote it
    person.restore("deploy", edited.version)
    text = path.read_text(encoding="utf-8")
    assert GHP not in text and "api_key: '[REDACTED:github-token]'" in text
    assert "owner: ops" in text and "Deploy with the release bot\n" in text  # control: the version is back
