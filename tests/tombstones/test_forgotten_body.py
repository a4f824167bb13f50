"""A forgotten body may not come back under a new description (rule 5 of :mod:`memdir.tombstones.match`): the
tombstone keeps a digest of the body's words alone (``body_digest``, never the words), for a body of at least
``MIN_BODY_WORDS`` content words, and every write path refuses it with the tombstone's own wording. A short generic
body ("yes") forgets nothing on its own; a tombstone file written before the field reads and blocks as before."""

from __future__ import annotations

import json
import os
import random
import sys
from dataclasses import replace

import anyio
import pytest
from mcp import Client, StdioServerParameters

from memdir import Memory
from memdir.consolidation.proposals import Proposal
from memdir.errors import TombstoneRefused
from memdir.paths import project_layer_dir
from memdir.tombstones.match import (
    MIN_BODY_WORDS,
    body_digest,
    make,
    match,
    plain_words,
    words,
)
from memdir.tombstones.stones import TombstoneDir, TombstoneFile
from memdir.tools.memory_directory import run as memory_tool
from tests.conftest import run_cli
from tests.scripted import Scripted

BODY = "The billing replica pg-bill-02 is read-only and lags ten minutes behind the primary during the nightly batch."
OTHER_BODY = "The billing replica was retired on Monday; its traffic moved to the primary."
NEW = "Ops notes for Tuesday"
OLD = "Billing replica notes"


def _refusal_head(stone_id: str, name: str) -> str:
    return f"refused: this matches a forgotten value (the forgotten body; tombstone {stone_id}, memory {name!r}, "


def test_the_rule_reads_the_body_alone_and_only_a_specific_one():
    stone = make("billing-replica", OLD, BODY, "human", None)
    assert stone.body_digest == body_digest(OLD, BODY) and len(stone.body_digest) == 64
    assert match([stone], NEW, BODY) == (stone, "the forgotten body")
    assert match([stone], NEW, BODY.upper().replace(".", "!")) == (stone, "the forgotten body")  # its words
    assert match([stone], NEW, OTHER_BODY) is None  # control: another body under the same description
    assert match([stone], NEW, BODY + " Ask ops first.") is None  # a digest: only the same words match
    # a file written whole starts its body with its description line: the body is what follows it
    assert match([stone], NEW, f"{NEW}\n{BODY}") == (stone, "the forgotten body")
    whole = make("ops", OLD, f"{OLD}\n{BODY}", "agent", None)
    assert whole.body_digest == stone.body_digest
    assert match([whole], NEW, f"{NEW}\n{OTHER_BODY}") is None  # control
    # a body too short to be specific keeps no digest and forgets nothing on its own
    short = make("ok", "Answer style", "yes", "human", None)
    assert (short.body_digest, "body_digest" in short.stored()) == (None, False)
    assert match([short], "Other question answer", "yes") is None
    assert match([short], "Answer style", "yes") == (short, "the same value")  # control: the value itself
    five = "Use pnpm, not npm, in this repo."  # use, pnpm, not, npm, repo: five content words
    assert body_digest("", five) is None and body_digest("", five + " Faster installs.") is not None
    assert MIN_BODY_WORDS == 6
    # different words count: a word said again is not more specific (a test's writer wrote "body " * n bodies,
    # and deleting one refused the same body under another name; test_leftovers' SIGKILLed writers)
    assert body_digest("", "body " * 49) is None
    assert body_digest("", "deploy deploy the billing service after the freeze") is None  # six words, five different
    assert body_digest("", "deploy the billing service on fridays after the freeze") is not None  # control: six
    # the tombstone keeps no body word in clear
    kept = json.dumps(stone.stored())
    assert "nightly" not in kept and "pg-bill-02" not in kept and OLD in kept


def test_plain_ascii_words_are_read_as_the_normalization_reads_them():  # plain_words: body_digest's fast reading
    rng = random.Random(37)
    letters = [chr(c) for c in range(32, 127)] + ["\n", "\t", "\r"] * 3 + list("aeiou  <>-+#=!") * 4
    texts = ["".join(rng.choice(letters) for _ in range(rng.randint(0, 40))) for _ in range(20000)]
    assert [t for t in texts if plain_words(t) != words(t)] == []
    assert plain_words("Use C++ >= 17\tnot\x00C") == words("Use C++ >= 17\tnot\x00C") == (
        "use", "c", "++", ">=", "17", "not", "c")  # a control character: read by the normalization itself


def _layer_stones(home, project) -> list[dict]:
    return json.loads((project_layer_dir(home, project) / ".memdir" / "tombstones.json").read_text())


def test_the_cli_refuses_the_forgotten_body_under_a_new_description(isolated_home, project):
    env = {"MEMDIR_SEARCH_VECTORS": "off"}
    assert run_cli("write", "billing-replica", "-d", OLD, "--body", BODY,
                   cwd=project, env=env).returncode == 0
    assert run_cli("forget", "billing-replica", "--reason", "host retired", cwd=project, env=env).returncode == 0
    [stored] = _layer_stones(isolated_home, project)
    assert stored["body_digest"] == body_digest(OLD, BODY) and stored["description"] == OLD
    assert BODY not in json.dumps(stored) and "pg-bill-02" not in json.dumps(stored)
    refused = run_cli("write", "ops-notes", "-d", NEW, "--body", BODY, cwd=project, env=env)
    assert refused.returncode == 1
    assert refused.stderr.startswith("memdir: " + _refusal_head(stored["id"], "billing-replica"))
    assert f"A person can lift it with `memdir tombstone lift {stored['id']} --scope project`" in refused.stderr
    control = run_cli("write", "ops-notes", "-d", NEW, "--body", OTHER_BODY, cwd=project, env=env)
    assert (control.returncode, control.stdout.strip()) == (0, "Memory created: ops-notes (project)")
    # a short generic body forgotten does not block the next memory that says it
    run_cli("write", "ok", "-d", "Answer style", "--body", "yes", cwd=project, env=env)
    run_cli("forget", "ok", cwd=project, env=env)
    again = run_cli("write", "ok-2", "-d", "Other question answer", "--body", "yes", cwd=project, env=env)
    assert (again.returncode, again.stdout.strip()) == (0, "Memory created: ok-2 (project)")
    old = run_cli("write", "ok-3", "-d", "Answer style", "--body", "", cwd=project, env=env)  # control
    assert old.returncode == 1 and "the forgotten fact restated" in old.stderr
    assert [s.get("body_digest") for s in _layer_stones(isolated_home, project)] == [body_digest(OLD, BODY), None]


def test_an_old_tombstone_file_without_the_field_still_blocks_and_is_not_rewritten(isolated_home, project):
    meta = project_layer_dir(isolated_home, project) / ".memdir"
    meta.mkdir(parents=True)
    old = make("billing-replica", OLD, BODY, "human", "host retired").stored()
    del old["body_digest"]  # what a tombstone of an older memdir holds (nor an action: make() was given none)
    (meta / "tombstones.json").write_text(json.dumps([old], indent=1) + "\n")
    before = (meta / "tombstones.json").read_bytes()
    env = {"MEMDIR_SEARCH_VECTORS": "off"}
    refused = run_cli("write", "replica", "-d", OLD, "--body", "", cwd=project, env=env)
    assert refused.returncode == 1
    assert refused.stderr.startswith(f"memdir: refused: this matches a forgotten value (the forgotten fact restated; "
                                     f"tombstone {old['id']}, memory 'billing-replica', forgotten by human on ")
    # it has no body digest: the body alone is not known to it (nothing can know it now), and it is not upgraded
    written = run_cli("write", "ops-notes", "-d", NEW, "--body", BODY, cwd=project, env=env)
    assert (written.returncode, written.stdout.strip()) == (0, "Memory created: ops-notes (project)")
    assert (meta / "tombstones.json").read_bytes() == before


@pytest.mark.slow
def test_the_mcp_tool_refuses_a_long_forgotten_body_checked_uncut(isolated_home, project):
    long_body = " ".join(f"Step {i}: drain node web-{i:02d} then restart its worker." for i in range(60))
    assert len(long_body) > 2000  # over limit_body: the agent's write is cut to 2000 characters
    env = {"MEMDIR_SEARCH_VECTORS": "off"}
    run_cli("write", "runbook", "-d", "Web restart runbook", "--body", long_body, cwd=project, env=env)  # a person's
    run_cli("forget", "runbook", cwd=project, env=env)
    [stored] = _layer_stones(isolated_home, project)
    params = StdioServerParameters(command=sys.executable, args=["-m", "memdir.cli", "mcp"],
                                   env=dict(os.environ, **env), cwd=str(project))

    async def main():
        async with Client(params, mode="legacy") as client:
            refused = await client.call_tool("memory_write", {"name": "restarts", "description": NEW,
                                                              "type": "project", "body": long_body})
            written = await client.call_tool("memory_write", {"name": "restarts", "description": NEW,
                                                              "type": "project", "body": long_body.replace("web", "api")})
            return refused, written

    refused, written = anyio.run(main)
    assert refused.is_error is True
    assert refused.content[0].text.startswith("Error: " + _refusal_head(stored["id"], "runbook"))
    assert written.is_error is False  # control: another long body under the same description
    assert written.content[0].text.startswith("Memory created: restarts (project)")
    assert "body cut from" in written.content[0].text


def test_the_memory_tool_consolidation_and_a_copied_file_are_refused_or_held(isolated_home, project):
    person = Memory.open(home=isolated_home, project=project, actor="human")
    person.write("billing-replica", OLD, "project", BODY)
    stone_id = person.forget("billing-replica").tombstone
    agent = Memory.open(home=isolated_home, project=project, actor="agent")
    out = memory_tool(agent.session, {"command": "create", "path": "/memories/project/ops.md",
                                      "file_text": f"{NEW}\n{BODY}"})
    assert out.is_error and out.text.startswith(_refusal_head(stone_id, "billing-replica"))
    out = memory_tool(agent.session, {"command": "create", "path": "/memories/project/ops.md",
                                      "file_text": f"{NEW}\n{OTHER_BODY}"})
    assert (out.is_error, out.text.splitlines()[0]) == (False, "File created successfully at: /memories/project/ops.md")
    # a file the tool wrote whole (its body starts with its first line), forgotten, under another first line
    lag = "The on-call engineer is paged when the replica stays behind for fifteen minutes."
    memory_tool(agent.session, {"command": "create", "path": "/memories/project/lag.md",
                                "file_text": f"Replica lag alerts\n{lag}"})
    lag_id = person.forget("lag").tombstone
    out = memory_tool(agent.session, {"command": "create", "path": "/memories/project/paging.md",
                                      "file_text": f"Paging policy\n{lag}"})
    assert out.is_error and out.text.startswith(_refusal_head(lag_id, "lag"))
    out = memory_tool(agent.session, {"command": "create", "path": "/memories/project/paging.md",
                                      "file_text": f"Paging policy\n{lag.replace('fifteen', 'thirty')}"})
    assert (out.is_error, out.text.splitlines()[0]) == (False, "File created successfully at: /memories/project/paging.md")
    with pytest.raises(TombstoneRefused) as caught:  # the Python API, the agent's
        agent.write("ops-2", "Weekly ops summary", "project", BODY)
    assert caught.value.why == "the forgotten body"

    proposer = Scripted(Proposal("create", name="replica-lag", description="Replica lag", body=BODY),
                        Proposal("create", name="replica-gone", description="Replica lag", body=OTHER_BODY))
    report = person.consolidate([{"role": "user", "content": "Remember the replica."}], extractor=proposer,
                                mode="always")
    assert [o.result for o in report.outcomes] == ["refused-tombstone", "created"]
    assert "the forgotten body" in report.outcomes[0].detail
    # a file copied into the layer under another name and description is held back, not a memory
    layer = project_layer_dir(isolated_home, project)
    (layer / "copied.md").write_text(f"---\nname: copied\ndescription: Copied file\ntype: project\n---\n{BODY}\n")
    (layer / "kept.md").write_text(f"---\nname: kept\ndescription: Copied file\ntype: project\n---\n{OTHER_BODY}\n")
    names = [m.name for m in person.list().memories]
    assert "copied" not in names and "kept" in names


def test_a_forget_leaves_no_tombstone_while_another_layer_holds_the_body(isolated_home, project):
    person = Memory.open(home=isolated_home, project=project, actor="human")
    person.write("replica-user", "Personal reminders", "user", BODY, scope="user")
    person.write("replica", OLD, "project", BODY)
    done = person.forget("replica", scope="project")
    assert (done.tombstone, done.kept_by) == (None, "user:replica-user")  # the body is the user layer's too
    person.write("replica-2", OLD, "project", OTHER_BODY)
    control = person.forget("replica-2", scope="project")  # another body: nothing holds it
    assert control.kept_by is None and control.tombstone is not None


def test_team_tombstone_files_keep_the_body_digest_and_old_ones_read(tmp_path):
    team = TombstoneDir(tmp_path / "tombstones")
    stone = team.add("billing-replica", OLD, BODY, "human", None)
    stored = json.loads((tmp_path / "tombstones" / f"{stone.id}.json").read_text())
    assert sorted(stored) == ["body_digest", "description", "digest", "id", "name", "reading", "words_digest"]
    assert (stored["body_digest"], stored["reading"]) == (body_digest(OLD, BODY), 2)
    old = make("pg", "Dev PostgreSQL listens on 5433", "Moved from 5432 because the cluster has it.", "human", None)
    legacy = {k: v for k, v in old.stored().items() if k in ("id", "name", "digest", "description", "words_digest")}
    (tmp_path / "tombstones" / f"{old.id}.json").write_text(json.dumps(legacy))
    read = {s.id: s for s in team.all()}
    assert read[old.id].body_digest is None and read[stone.id].body_digest == body_digest(OLD, BODY)
    assert match(list(read.values()), NEW, BODY)[1] == "the forgotten body"
    assert match(list(read.values()), "Dev PostgreSQL listens on 5433", "")[1] == "the forgotten fact restated"
    personal = TombstoneFile(tmp_path / "meta")
    personal.save([replace(old, body_digest=None)])
    assert personal.all()[0].body_digest is None and "body_digest" not in personal.path.read_text()

