"""A forgotten fact written again with an engineer's short form (``DB`` for ``database``) is the same fact (break46b).

After ``forget`` of "The staging database port is 5433", "The Staging DB port is 5433" came back on every path:
said in a Claude Code session it was extracted at the session's end, imported from a folder of Markdown memories,
written by the CLI and the agent's tool, and a hand-written file holding it reached the agent — search reads ``db``
as ``database`` (:data:`memdir.text.words.SHORT_FORMS`), the tombstone did not. Rules 3 and 4 of
:mod:`memdir.tombstones.match` now read a short form as its long word (:func:`~memdir.tombstones.reading.long_forms`),
and the held-back sieve asks for neither form of such a word (:func:`~memdir.tombstones.match.needed_runs`).
"""

from __future__ import annotations

import json

import pytest

from memdir import TombstoneRefused
from memdir.tombstones.match import make, match, needed_runs, sieve
from memdir.tombstones.reading import long_forms
from tests.conftest import run_cli

FORGOTTEN = ("The staging database port is 5433", "Staging Postgres listens on 5433.")
SHORT = "The Staging DB port is 5433"
CORRECTION = "The staging DB port is 5434"  # another number: another fact
OTHER = "Always run ruff before committing"


def test_a_short_form_restates_or_rewords_the_forgotten_fact():
    stone = make("db-port", *FORGOTTEN, "human", None)
    assert match([stone], SHORT, "")[1] == "the forgotten fact restated"
    assert match([stone], "Staging DB port is 5433", "")[1] == "the forgotten fact reworded"
    assert match([stone], "Remember: the staging db port is 5433 for the tests", "")[1] == "the forgotten fact restated"
    # the other way round: the short form forgotten, the long word written
    prod = make("cfg", "Prod config lives in the infra repo", "", "human", None)
    assert match([prod], "Production configuration lives in the infra repository", "")[1] == \
        "the forgotten fact restated"
    # controls: a correction, a negation and another environment are other facts
    assert match([stone], CORRECTION, "") is None
    assert match([stone], "The staging DB port is not 5433", "") is None
    assert match([prod], "Dev config lives in the infra repo", "") is None
    assert long_forms(("the", "db", "port", "database", "prod")) == ("the", "database", "port", "database",
                                                                   "production")


def test_a_unit_after_a_number_reads_as_its_word():
    kept = make("logs", "Application logs are kept for 90 days", "", "human", None)
    assert match([kept], "Application logs are kept for 90d", "")[1] == "the forgotten fact restated"
    assert match([kept], "Application logs are kept for 90 day", "")[1] == "the forgotten fact restated"
    size = make("upload", "Max upload size is 50 MB", "", "human", None)
    assert match([size], "Max upload size is 50MB", "")[1] == "the forgotten fact restated"
    assert match([size], "Max upload size is 50 megabytes", "")[1] == "the forgotten fact restated"
    # controls: another number, a one-letter unit standing alone (as search reads it), a plural "s" joined
    assert match([kept], "Application logs are kept for 30 days", "") is None
    assert match([size], "Max upload size is 60 MB", "") is None
    assert long_forms(("kept", "90", "d")) == ("kept", "90", "d")
    assert long_forms(("429s", "errors", "wait", "900", "s")) == ("429s", "errors", "wait", "900", "second")
    assert needed_runs("Application logs are kept for 90 days") == frozenset({"application", "logs", "kept", "90"})


def test_the_held_back_sieve_asks_for_neither_form():
    runs = needed_runs(FORGOTTEN[0])
    assert runs == frozenset({"staging", "port", "5433"})  # "database" (db) asked in neither form
    assert sieve(f"hand\n\n{SHORT}\nby hand")(runs)
    assert not sieve("hand\n\nThe production DB port is 5433\n")(runs)  # control: "staging" is still asked


def test_refused_through_the_api_the_cli_and_the_tool(mem, project):
    mem.write("db-port", *FORGOTTEN[:1], "project", FORGOTTEN[1])
    stone = mem.forget("db-port").tombstone
    with pytest.raises(TombstoneRefused) as refused:
        mem.write("staging-db", SHORT, "project", "For the integration tests.")
    assert refused.value.tombstone_id == stone
    assert mem.write("staging-db", CORRECTION, "project", "").operation == "created"  # control
    cli = run_cli("--project", project, "write", "sdb", "-d", "Staging DB port is 5433", "-t", "project")
    assert cli.returncode == 1 and stone in cli.stderr and "the forgotten fact reworded" in cli.stderr
    tool = mem.call_tool("memory_write", {"name": "sdb-tool", "description": SHORT, "type": "project", "body": ""})
    assert tool.startswith("Error: refused:") and stone in tool
    names = {m.name for m in mem.list(include_all=True).memories}
    assert "staging-db" in names and not {"sdb", "sdb-tool"} & names


def _claude_code_transcript(path, cwd, prompts):
    lines = []
    for i, text in enumerate(prompts):
        lines.append({"type": "user", "message": {"role": "user", "content": text}, "uuid": f"u{i}",
                      "sessionId": "s1", "cwd": str(cwd), "timestamp": f"2026-12-07T20:00:{i:02d}Z"})
        lines.append({"type": "assistant", "message": {"role": "assistant", "content": [
            {"type": "text", "text": "Noted."}]}, "uuid": f"a{i}", "sessionId": "s1", "cwd": str(cwd),
            "timestamp": f"2026-12-07T20:00:{i:02d}Z"})
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))


@pytest.mark.slow
def test_extraction_and_import_keep_it_out(mem, project, tmp_path):
    mem.write("db-port", *FORGOTTEN[:1], "project", FORGOTTEN[1])
    stone = mem.forget("db-port").tombstone
    transcript = tmp_path / "session.jsonl"
    _claude_code_transcript(transcript, project, [f"{OTHER}.", f"Remember: {SHORT}"])
    done = run_cli("--project", project, "--json", "consolidate", str(transcript))
    assert done.returncode == 0, done.stderr
    outcomes = json.loads(done.stdout)["outcomes"]
    assert {o["name"]: o["result"] for o in outcomes} == {"always-run-ruff-before-committing": "created",
                                                          "staging-db-port-5433": "refused-tombstone"}
    assert any(stone in o.get("detail", "") for o in outcomes)
    source = tmp_path / "import"
    source.mkdir()
    (source / "staging.md").write_text(f"---\nname: staging\ndescription: {SHORT}\ntype: project\n---\nFor tests.\n")
    (source / "lint.md").write_text("---\nname: lint\ndescription: Lint with ruff\ntype: feedback\n---\nruff check\n")
    imported = run_cli("--project", project, "import", "dir", str(source))
    assert imported.returncode == 0, imported.stderr
    assert "skipped          staging" in imported.stdout and stone in imported.stdout
    assert "imported         lint" in imported.stdout
    listed = {m.name for m in mem.list(include_all=True).memories}
    assert "lint" in listed and "staging" not in listed


def test_a_hand_written_file_holding_it_is_held_back(mem):
    mem.write("db-port", *FORGOTTEN[:1], "project", FORGOTTEN[1])
    stone = mem.forget("db-port").tombstone
    root = mem.session.layer("project").path
    (root / "hand.md").write_text(f"---\nname: hand\ndescription: {SHORT}\ntype: project\n---\nby hand\n")
    (root / "kept.md").write_text(f"---\nname: kept\ndescription: {CORRECTION}\ntype: project\n---\nby hand\n")
    listing = mem.list(include_all=True)
    assert [m.name for m in listing.memories] == ["kept"]
    held = [m for m in listing.malformed if m.path.endswith("hand.md")]
    assert held and stone in held[0].error and "held back" in held[0].error


MEGABYTES = "Max upload size is 50 megabytes"


def test_a_unit_of_bits_is_no_unit_of_bytes():
    """recall47: with "Max upload size is 50 megabytes" forgotten, "… 50 Mb" (megabits, an eighth of it) was refused.
    A capital prefix and a small b after a number is a unit of bits (text.words.BIT_UNITS, case-sensitive); "MB",
    "mb" and "MiB" stay bytes (controls, same stone)."""
    size = make("upload", MEGABYTES, "", "human", None)
    assert match([size], "Max upload size is 50 Mb", "") is None
    assert match([size], "Max upload size is 50Mb", "") is None
    assert match([size], "Max upload size is 50 MB", "")[1] == "the forgotten fact restated"
    assert match([size], "Max upload size is 50mb", "")[1] == "the forgotten fact restated"
    assert match([size], "Max upload size is 50 MiB", "")[1] == "the forgotten fact restated"
    bits = make("link", "The office uplink is 50 megabits", "", "human", None)
    assert match([bits], "The office uplink is 50 Mb", "")[1] == "the forgotten fact restated"
    assert match([bits], "The office uplink is 50 MB", "") is None
    assert long_forms(("50", "mb"), "50 Mb") == ("50", "megabit")
    assert long_forms(("1", "5gb"), "1.5Gb") == ("1", "5", "gigabit")
    assert long_forms(("50", "mb"), "") == ("50", "megabyte")  # nothing written to read the case of: bytes
    assert long_forms(("50", "mb", "50", "mb"), "50 Mb or 50 MB") == ("50", "megabyte", "50", "megabyte")


def test_a_unit_of_bits_is_written_on_every_path(mem, project):
    mem.write("upload", MEGABYTES, "project", "Set in nginx.")
    stone = mem.forget("upload").tombstone
    assert mem.write("uplink", "Max upload size is 50 Mb", "project", "").operation == "created"
    with pytest.raises(TombstoneRefused):
        mem.write("upload-mb", "Max upload size is 50 MB", "project", "")  # control: bytes
    cli = run_cli("--project", project, "write", "up-cli", "-d", "Max upload size is 50 Mb", "-t", "project")
    assert cli.returncode == 0, cli.stderr
    cli = run_cli("--project", project, "write", "up-cli2", "-d", "Max upload size is 50MB", "-t", "project")
    assert cli.returncode == 1 and stone in cli.stderr
    tool = mem.call_tool("memory_write", {"name": "up-tool", "description": "Max upload size is 50Mb",
                                          "type": "project", "body": ""})
    assert not tool.startswith("Error")
    names = {m.name for m in mem.list(include_all=True).memories}
    assert {"uplink", "up-cli", "up-tool"} <= names and not {"upload-mb", "up-cli2"} & names
