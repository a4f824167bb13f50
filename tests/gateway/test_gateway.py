"""The write gateway: limits, redaction, flags, idempotence, read, prune, clear."""

import os
from datetime import timedelta

import pytest

from memdir import InvalidInput, NotFound
from memdir.files.memfile import format_time
from memdir.layer.journal import now_utc

SECRETS = {
    "openai-key": "sk-proj-" + "a1B2c3D4e5" * 4 + "f6G7h8I9",
    "github-token": "ghp_" + "A1b2C3d4E5f6G7h8I9j0" + "K1l2M3n4O5p6Q7r8",
    "aws-key": "AKIAIOSFODNN7EXAMPLE",
    "stripe-key": "sk_live_" + "51HqLyjWDarjtT1zdp7dcXYZ",
    "google-key": "AIzaSyA1B2C3D4E5F6G7H8I9J0K1L2M3N4O5P6Q",
    "bearer": "Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U",
    "private-key": "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ\nAAAAAAABAAAAMwAAAAtzc2gtZW\n-----END OPENSSH PRIVATE KEY-----",
    "uri-password": "postgres://admin:pw123@db:5432/app",
    "phone": "13812345678",
    "id-card": "110101199003078670",
}
SECRET_BYTES = ["a1B2c3D4e5", "51HqLyjWDarjtT1zdp7dcXYZ", "A1b2C3d4E5f6G7h8I9j0", "AKIAIOSFODNN7EXAMPLE", "AIzaSyA1B2C3D4",
                "dozjgNryP4J3jVmNHl0w5N", "b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ", "pw123",
                "13812345678", "110101199003078670"]
CONTROLS = ["sk-button-primary-large", "pk_live_51HqLyjWDarjtT1zdp7dcPUBLIC", "0123456789abcdef0123456789abcdef01234567",
            "普通的 PostgreSQL 15432 端口说明", "11010119900307867X"]


def test_secrets_are_redacted_on_disk_and_controls_kept(mem):
    body = "\n".join(f"{kind} value {value}" for kind, value in SECRETS.items())
    result = mem.write("creds", "connect with " + SECRETS["uri-password"], "reference", body,
                       title="key " + SECRETS["aws-key"])
    assert result.redaction_kinds == {**{k: 1 for k in SECRETS}, "uri-password": 2, "aws-key": 2}
    assert result.redactions == sum(result.redaction_kinds.values())
    controls = mem.write("controls", "ordinary text", "reference", "\n".join(CONTROLS))
    assert controls.redactions == 0
    layer = mem.session.layer("project").path
    blob = b"".join(p.read_bytes() for p in layer.rglob("*") if p.is_file())
    for secret in SECRET_BYTES:
        assert secret.encode() not in blob, secret
    for control in CONTROLS:
        assert control.encode() in blob, control  # positive control in the same layer
    record = mem.read("creds").record
    assert "postgres://admin:[REDACTED:uri-password]@db:5432/app" in record.body
    assert "[REDACTED:private-key]" in record.body


# An env-style assignment ending a sentence: the full stop stays outside the value, the secret goes whole.
SENTENCE_ENDS = {
    "export AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY. Never commit it.":
        "export AWS_SECRET_ACCESS_KEY=[REDACTED:env-secret]. Never commit it.",
    "Set DB_PASSWORD=Tr0ub4dor&3.": "Set DB_PASSWORD=[REDACTED:env-secret].",
    "DEPLOY_TOKEN='gh-Deploy-77'. Rotate it.": "DEPLOY_TOKEN='[REDACTED:env-secret]'. Rotate it.",
    # controls: dots inside a value are the value's, redacted with it
    "export DB_PASSWORD=s3cr3t.v4lue.x9 now": "export DB_PASSWORD=[REDACTED:env-secret] now",
    "export DB_PASSWORD=s3cr3t.v4lue.x9. Rotate it.": "export DB_PASSWORD=[REDACTED:env-secret]. Rotate it.",
    "API_TOKEN=a.b.c.d-9.e": "API_TOKEN=[REDACTED:env-secret]",
}


@pytest.mark.parametrize("text", sorted(SENTENCE_ENDS))
def test_a_full_stop_ending_the_sentence_is_not_part_of_a_redacted_value(mem, text):
    from memdir.text.redact import redact

    assert redact(text).text == SENTENCE_ENDS[text]
    result = mem.write("setup-note", "How the keys are set", "reference", text)
    assert result.redaction_kinds == {"env-secret": 1}
    assert mem.read("setup-note", count=False).record.body == SENTENCE_ENDS[text]
    blob = b"".join(p.read_bytes() for p in mem.session.layer("project").path.rglob("*") if p.is_file())
    for secret in ("bPxRfiCYEXAMPLEKEY", "Tr0ub4dor", "gh-Deploy-77", "v4lue", "a.b.c.d-9"):
        assert secret.encode() not in blob, secret
    assert b"[REDACTED:env-secret]" in blob  # positive control: the redacted value is stored


def test_a_redaction_placeholder_is_one_redact_makes_not_a_persons_lookalike():
    from memdir.text.redact import KINDS, holds_redaction, placeholder, redact

    body = "\n".join(f"{kind} value {value}" for kind, value in SECRETS.items())
    stated = "the password is hunter2-Xk9; export DB_PASSWORD=Tr0ub4dor&3 now; mysql -u root -pS3cret! db"
    done = redact(body + "\n" + stated)
    assert set(done.counts) <= set(KINDS) and len(done.counts) == len(SECRETS) + 2  # every kind it made is known
    for kind in done.counts:
        assert placeholder(kind) in done.text and holds_redaction(placeholder(kind)), kind
    assert placeholder("aws-key") == "[REDACTED:aws-key]"
    for typed in ("[REDACTED: ssn]", "[REDACTED:]", "[REDACTED:ssn]", "a [REDACTED: phone] here"):
        assert not holds_redaction(typed), typed
    assert holds_redaction("postgres://admin:[REDACTED:uri-password]@db")  # control: inside a URI too


def test_a_new_long_description_replaces_the_text_the_old_one_carried_never_stacks(mem, person):
    """Trial finding: alternating long descriptions stacked their whole texts at the start of the body (an
    update with another long description added a second copy). The text the gateway carried is replaced;
    what someone wrote stays, and the previous version keeps the old text."""
    one = "Alpha. " + "The first long description keeps going about the first topic. " * 3
    two = "Beta. " + "The second long description is about something else entirely. " * 3
    mem.write("longd", one, "project", "Person wrote this body.")
    updated = mem.write("longd", two)  # the body not given: kept, without the first text
    assert mem.read("longd", count=False).record.body == two.strip() + "\n\nPerson wrote this body."
    assert "the previous description's whole text, which started the body, was replaced by the new one's " \
           "(the previous version keeps it)" in updated.warnings
    mem.write("longd", one)  # and back: still one copy
    assert mem.read("longd", count=False).record.body == one.strip() + "\n\nPerson wrote this body."
    mem.write("longd", "A short description now")  # a description that fits carries nothing: the old text goes
    assert mem.read("longd", count=False).record.body == "Person wrote this body."
    assert one.strip() in mem.show("longd", 3).text  # the version before keeps it
    # given with the body it read back, the old carried text is not kept under the new one either
    mem.write("given", one, "project", "Notes.")
    mem.write("given", two, body=mem.read("given", count=False).record.body)
    assert mem.read("given", count=False).record.body == two.strip() + "\n\nNotes."
    # control: a paragraph someone wrote at the start of the body stays when the description changes
    person.write("own", "Deploys go out on Mondays", "project", "Long first paragraph a person wrote. " * 6 + "\n\nMore.")
    mem.write("own", two)
    own = "Long first paragraph a person wrote. " * 6
    assert mem.read("own", count=False).record.body == two.strip() + "\n\n" + own + "\n\nMore."


def test_a_hand_edit_of_the_carried_text_after_the_cut_is_kept_when_the_description_changes(mem):
    """Trial finding: a person's edit of the carried paragraph past the description's cut ("… once BRAVO.
    Rollback owner: Kim") still read, shortened, as the old description, so the next description
    replaced it and the edit was left only in history. The paragraph is replaced only while it is the one
    memdir wrote, character for character."""
    one = "Alpha. " + "The first long description keeps going about the first topic. " * 3
    two = "Beta. " + "The second long description is about something else entirely. " * 3
    mem.write("kim", one, "project", "keep me")
    path = mem.session.layer("project").path / "kim.md"
    path.write_text(path.read_text().replace(one.strip(), one.strip() + " Rollback owner: Kim.", 1))  # by hand
    assert "Rollback owner: Kim." in mem.read("kim", count=False).record.body
    updated = mem.write("kim", two)
    assert mem.read("kim", count=False).record.body == (two.strip() + "\n\n" + one.strip()
                                                         + " Rollback owner: Kim.\n\nkeep me")
    assert ("the previous description's whole text, which starts the body, was changed since it was written "
            "there and is kept under the new one's") in updated.warnings
    # control: untouched, the same change replaces the carried text
    mem.write("plain", one, "project", "keep me")
    mem.write("plain", two)
    assert mem.read("plain", count=False).record.body == two.strip() + "\n\nkeep me"


def test_limits_cut_with_warnings(mem):
    result = mem.write("long", "d" * 200, "project", "b" * 2500, title="t" * 100)
    assert result.warnings == ("description cut from 200 to 160 characters (limit_description 160); its whole "
                               "text starts the body",
                               "body cut from 2500 to 2000 characters", "title cut from 100 to 80 characters")
    record = mem.read("long").record
    assert (record.description, len(record.title)) == ("d" * 159 + "…", 80)
    assert record.body == "d" * 200 + "\n\n" + "b" * 2000  # the limit bounds the body given, not the carried text


@pytest.mark.slow
def test_a_long_description_loses_nothing_on_every_writer(mem, project):
    """Issue 28 trial: a description over limit_description (160, the seed's cut: one index line) was
    cut and the rest lost. It is shortened after its last whole sentence, and its whole text starts the
    body — through the one gateway, so the API, the MCP tool, the CLI and an update without a body alike."""
    import anyio
    from mcp import Client

    from memdir.integrations.mcp.server import MemoryServer, build_server
    from tests.conftest import run_cli

    long = ("Dev PostgreSQL listens on 5433, not the default 5432. The system cluster holds 5432 since the "
            "2026-11 upgrade, so every local tool points at 5433. Ask ops before changing it.")
    first = long[:long.index(" Ask")]
    said = (f"description cut from {len(long)} to {len(first)} characters (limit_description 160); its whole "
            "text starts the body")
    result = mem.write("db-port", long, "project", "Moved on 2026-11-02.")
    assert result.warnings == (said,)
    record = mem.read("db-port", count=False).record
    assert (record.description, record.body) == (first, long + "\n\nMoved on 2026-11-02.")
    again = mem.write("db-port", long, "project", "Moved on 2026-11-02.")
    assert again.operation == "unchanged"  # the same write twice: the body carries the text once
    mem.write("no-body", "Short one", "project", "old body")
    assert mem.write("no-body", long).warnings == (said,)  # an update keeping its body
    assert mem.read("no-body", count=False).record.body == long + "\n\nold body"
    fits = mem.write("fits", "x" * 160, "project", "body")
    assert fits.warnings == () and mem.read("fits", count=False).record.body == "body"  # control: at the limit

    async def main():
        state = MemoryServer(home=mem.session.home, project=project)
        async with Client(build_server(state)) as client:
            r = await client.call_tool("memory_write", {"name": "via-mcp", "description": long, "type": "project",
                                                        "body": "b"})
            assert not r.is_error and said in r.content[0].text

    anyio.run(main)
    assert mem.read("via-mcp", count=False).record.body == long + "\n\nb"
    cli = run_cli("--project", project, "write", "via-cli", "-d", long, "-b", "c")
    assert cli.returncode == 0 and said in cli.stderr + cli.stdout
    assert mem.read("via-cli", count=False).record.description == first
    assert mem.read("via-cli", count=False).record.body == long + "\n\nc"


def test_configurable_limits_have_hard_ceilings(isolated_home, project):
    from memdir import Memory

    mem = Memory.open(home=isolated_home, project=project, limit_body=10**9, limit_description=300)
    assert mem.settings.limit_body == 20_000 and mem.settings.limit_description == 300


def test_bad_input_is_refused_and_nothing_written(mem):
    for kwargs in ({"description": ""}, {"type": "wish"}, {"importance": 11}, {"importance": True}):
        args = {"name": "x", "description": "d", "type": "project", "body": "b", **kwargs}
        with pytest.raises(InvalidInput):
            mem.write(**args)
    assert mem.list().memories == ()
    mem.write("x", "d", "project", "b")
    assert [m.name for m in mem.list().memories] == ["x"]


def test_update_inherits_flags_and_identical_write_is_unchanged(mem):
    first = mem.write("style", "Use tabs", "feedback", "b", pinned=True, importance=9, title="Style")
    assert first.operation == "created"
    created = mem.read("style", count=False).record.created
    path = mem.session.layer("project").path / "style.md"
    before = path.read_bytes()
    stat = os.stat(path)
    again = mem.write("style", "Use tabs", "feedback", "b")
    assert again.operation == "unchanged"
    assert path.read_bytes() == before and os.stat(path).st_mtime_ns == stat.st_mtime_ns
    updated = mem.write("style", "Use spaces", "feedback", "b")
    assert updated.operation == "updated"
    record = mem.read("style").record
    assert (record.pinned, record.importance, record.title) == (True, 9, "Style")
    assert record.created == created and record.updated >= created
    mem.write("style", "Use spaces", "feedback", "b", pinned=False)
    assert mem.read("style").record.pinned is False


def test_read_bumps_reads_but_keeps_the_index(mem):
    mem.write("a", "first", "project", "b")
    mem.write("b", "second", "project", "b")
    index = mem.session.layer("project").path / "MEMORY.md"
    text = index.read_bytes()
    assert mem.read("a").record.reads == 1
    assert mem.read("a").record.reads == 2
    assert mem.read("a").record.last_read is not None
    assert index.read_bytes() == text
    with pytest.raises(NotFound, match=r"^memory not found: \"missing\" in any layer$"):
        mem.read("missing")


def _age(mem, name, days):
    """Rewrite a memory's times as a person editing the file would."""
    path = mem.session.layer("project").path / f"{name}.md"
    old = format_time(now_utc() - timedelta(days=days, hours=1))
    lines = [f"updated: {old}" if l.startswith("updated:") else f"created: {old}" if l.startswith("created:") else l
             for l in path.read_text().split("\n")]
    path.write_text("\n".join(lines))


def test_prune_is_a_dry_run_by_default_and_keeps_pinned(mem):
    for name in ("old", "old-pinned", "fresh"):
        mem.write(name, f"{name} memory", "project", "b", pinned=name == "old-pinned")
    _age(mem, "old", 30)
    _age(mem, "old-pinned", 30)
    dry = mem.prune(30)
    assert dry.dry_run is True and [c.name for c in dry.candidates] == ["old"]
    assert dry.candidates[0].days_since_update == 30
    assert {m.name for m in mem.list().memories} == {"old", "old-pinned", "fresh"}
    assert mem.prune(31).candidates == ()
    done = mem.prune(30, dry_run=False)
    assert done.deleted == 1
    assert {m.name for m in mem.list().memories} == {"old-pinned", "fresh"}
    with pytest.raises(InvalidInput):
        mem.prune(0)


def test_clear_needs_confirmation_and_empties_one_layer(mem):
    mem.write("p1", "project one", "project", "b")
    mem.write("u1", "user one", "user", "b", scope="user")
    from memdir import ConfirmationRequired
    from memdir.results.memories import ClearResult, LayerCount

    with pytest.raises(ConfirmationRequired):
        mem.clear("project")
    assert mem.clear("project", confirm=True) == ClearResult((LayerCount("project", 1),))
    assert [m.name for m in mem.list().memories] == ["u1"]
    assert not (mem.session.layer("project").path / "MEMORY.md").exists()
    assert (mem.session.layer("user").path / "MEMORY.md").exists()


def test_control_characters_and_name_folding(mem):
    result = mem.write("Café Notes", "bell\x07 esc\x1b[31mRED", "project", "tab\tand\nnewline\x00")
    assert result.name == "cafe-notes"
    assert result.warnings == ("name 'Café Notes' was normalized to 'cafe-notes' (kept as the title)",
                               "2 control or bidi character(s) removed from the description",
                               "1 control or bidi character(s) removed from the body")
    record = mem.read("cafe-notes", count=False).record
    # The escape sequence goes whole (no stray "[31m"); tab and newline stay in the body.
    assert (record.title, record.description, record.body) == ("Café Notes", "bell escRED", "tab\tand\nnewline")
    with pytest.raises(InvalidInput, match="not valid Unicode"):
        mem.write("bad", "d", "project", "broken \udcff surrogate")


def test_a_project_that_does_not_exist_is_refused(isolated_home, tmp_path):
    from memdir import Memory, ScopeError

    with pytest.raises(ScopeError, match="does not exist"):
        Memory.open(home=isolated_home, project=tmp_path / "no" / "such" / "dir")
    a_file = tmp_path / "file.txt"
    a_file.write_text("x")
    with pytest.raises(ScopeError, match="not a directory"):
        Memory.open(home=isolated_home, project=a_file)
    assert not (isolated_home / "projects").exists()
    (tmp_path / "real").mkdir()
    assert Memory.open(home=isolated_home, project=tmp_path / "real").write(
        "p", "project fact", "project", "b").operation == "created"  # control


def test_secrets_stated_in_words_are_redacted_even_in_names(mem):
    result = mem.write("db password is hunter2-Xk9!pq", "the prod database password is hunter2-Xk9!pq",
                       "project", "Connect with password: hunter2-Xk9!pq (密码是Abc12345)")
    assert result.redaction_kinds == {"password": 4}
    record = mem.read(result.name, count=False).record
    assert "hunter2" not in result.name and "hunter2" not in record.description + record.body
    assert record.body == "Connect with password: [REDACTED:password] (密码是[REDACTED:password])"
    control = mem.write("token-note", "the token is stored in the vault", "project", "passwords are 8+ chars")
    assert control.redactions == 0
    blob = b"".join(p.read_bytes() for p in mem.session.layer("project").path.rglob("*") if p.is_file())
    assert b"hunter2" not in blob and b"Abc12345" not in blob and b"stored in the vault" in blob


def test_config_file_applies_and_an_unknown_key_only_warns(isolated_home, project, capsys):
    from memdir import Memory

    isolated_home.mkdir(parents=True, exist_ok=True)
    (isolated_home / "config.toml").write_text("context_max_bytes = 2000\ntypo_setting = 1\n[limits]\nbody = 300\n")
    mem = Memory.open(home=isolated_home, project=project)
    assert (mem.settings.context_max_bytes, mem.settings.limit_body) == (2000, 300)
    assert "unknown setting 'typo_setting' ignored" in capsys.readouterr().err
    assert mem.write("x", "d", "project", "b" * 400).warnings == ("body cut from 400 to 300 characters",)


def test_a_models_long_description_is_no_way_around_the_body_limit(isolated_home, project):
    """Trial finding: the whole text of a long description starts the body, and a model's 100,000-character
    description was stored whole (limit_body 2,000 bounds what a model writes). What a model carries is
    held to limit_body; a person's write (no body limit) still keeps it whole (control)."""
    from memdir import Memory

    huge = "Dev PostgreSQL listens on 5433. " + "Every local tool points at 5433 since the upgrade. " * 2000
    agent = Memory.open(home=isolated_home, project=project, actor="agent")
    result = agent.write("db-port", huge, "project", "Moved on 2026-11-02.")
    body = agent.read("db-port", count=False).record.body
    assert body == huge.strip()[:2000] + "\n\nMoved on 2026-11-02."
    assert result.warnings[0].endswith("; its first 2000 characters start the body (limit_body)")
    assert agent.write("db-port", huge, "project", "Moved on 2026-11-02.").operation == "unchanged"
    agent.write("kept", "Short one", "project", "old body")
    agent.write("kept", huge)  # an update keeping its body: held to the limit too
    assert agent.read("kept", count=False).record.body == huge.strip()[:2000] + "\n\nold body"
    person = Memory.open(home=isolated_home, project=project, actor="human")
    person.write("by-hand", huge, "project", "b")
    assert person.read("by-hand", count=False).record.body == huge.strip() + "\n\nb"
