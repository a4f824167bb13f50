"""break30: `memdir review --drop` under bad input. 'all' beside an id that is not pending dropped every
finding (the call is all or none: an id not pending refuses it whole), and, with none pending, said nothing of
the id; an id typed in capitals (review's digests are taken in any case) was not found; a 100 KB id was quoted
whole in the refusal."""

from __future__ import annotations

import json

import pytest

from memdir.errors import NotFound
from memdir.prompt import pending
from tests.conftest import run_cli

TEXTS = ["Deploy only on Tuesdays.", "Use pnpm workspaces.", "Dev DB listens on 5433."]


@pytest.fixture
def kept(person):
    person.write("seed", "Project uses pnpm workspaces", "project", "x")
    layer = person.session.layer("project")
    with layer.locked():
        pending.add(layer.path, [("remember", text) for text in TEXTS], "s1")
    return [f.id for f in person.findings().findings]


def test_all_beside_an_unknown_id_drops_nothing(person, kept):
    with pytest.raises(NotFound, match="no pending finding 0123456789ab in this project"):
        person.drop_findings(["all", "0123456789ab"])
    assert [f.id for f in person.findings().findings] == kept  # before: every one dropped
    assert len(person.drop_findings(["all", kept[1]]).dropped) == 3  # control: a known id beside all


def test_all_beside_an_unknown_id_with_none_pending_names_the_id(person):
    with pytest.raises(NotFound, match="no pending finding 0123456789ab in this project"):
        person.drop_findings(["all", "0123456789ab"])  # before: "Dropped 0"
    assert person.drop_findings(["all"]).dropped == ()  # control: all alone, none pending


def test_an_id_in_capitals_and_all_in_capitals_are_read(person, kept):
    gone = person.drop_findings([kept[0].upper(), kept[0]])
    assert [f.id for f in gone.dropped] == [kept[0]] and gone.left == 2
    assert person.drop_findings(["ALL"]).left == 0


def test_a_long_id_is_quoted_cut(person, kept):
    with pytest.raises(NotFound) as refused:
        person.drop_findings(["x" * 100_000])
    assert len(str(refused.value)) < 400 and "xxxxxxxxxxxx…" in str(refused.value)
    assert [f.id for f in person.findings().findings] == kept


@pytest.mark.slow
def test_the_cli_json_shape_and_two_drops_at_once(person, project, kept):
    import subprocess
    import sys

    cmd = [sys.executable, "-m", "memdir.cli", "--project", str(project), "review", "--drop", kept[1], "--json"]
    procs = [subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for _ in range(2)]
    outs = [(p.wait(timeout=120), p.stdout.read(), p.stderr.read()) for p in procs]
    for p in procs:
        p.stdout.close()
        p.stderr.close()
    done = [json.loads(out) for rc, out, _ in outs if rc == 0]
    refused = [json.loads(out) for rc, out, _ in outs if rc != 0]  # --json: the error as JSON on stdout
    assert len(done) == 1 and len(refused) == 1, outs  # one drops it, the other finds it gone
    assert done[0] == {"dropped": [{"id": kept[1], "text": TEXTS[1], "said": done[0]["dropped"][0]["said"],
                                    "rule": "remember", "shown": 0, "forgotten": ""}], "left": 2, "cleared": []}
    assert refused[0]["kind"] == "NotFound"
    assert refused[0]["error"].startswith(f"no pending finding {kept[1]} in this project")
    bad = run_cli("--project", project, "review", "--drop", "all", "--drop", "nope", "--json")
    assert bad.returncode == 1 and json.loads(bad.stdout) == {
        "error": f"no pending finding nope in this project ({', '.join(sorted([kept[0], kept[2]]))}); "
                 "`memdir review` lists them", "kind": "NotFound"}
    assert [f.text for f in person.findings().findings] == [TEXTS[0], TEXTS[2]]


def test_a_scope_that_holds_no_findings_drops_none(person, kept):
    """break41: `review --scope user --drop all` dropped the project's findings, though `review --scope user`
    lists none: findings are the project layer's (operations.findings.held_in), so another scope is refused."""
    from memdir.errors import InvalidInput

    for scope in ("user", "team"):
        with pytest.raises(InvalidInput, match=f"--scope {scope} holds none"):
            person.drop_findings(["all"], scope)
    assert [f.id for f in person.findings().findings] == kept  # before: all three dropped
    gone = person.drop_findings([kept[0]], "project")  # control: the project's scope drops
    assert [f.id for f in gone.dropped] == [kept[0]] and gone.left == 2


@pytest.mark.slow
def test_the_cli_refuses_a_drop_in_the_user_scope_and_review_json_keeps_its_shape(person, project, kept):
    refused = run_cli("--project", project, "review", "--scope", "user", "--drop", "all", "--json")
    assert refused.returncode == 1 and json.loads(refused.stdout) == {
        "error": "pending findings are kept in the project layer, and --scope user holds none: drop them "
                 "without --scope (or with --scope project)", "kind": "InvalidInput"}
    assert [f.id for f in person.findings().findings] == kept
    user = json.loads(run_cli("--project", project, "review", "--scope", "user", "--json").stdout)
    assert user["findings"] == [] and user["answered_findings"] == []  # the same keys as the project's review
    whole = json.loads(run_cli("--project", project, "review", "--json").stdout)
    assert [f["id"] for f in whole["findings"]] == kept and whole["answered_findings"] == []  # control
