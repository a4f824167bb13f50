"""The memory tool's rename of a memory onto its own name — a case-only rename (``Deploy.md`` → ``deploy.md``,
``DEPLOY.md``) — is told it names the memory itself (break39): it was told "The destination … already exists",
as if another memory held the name, and a model would delete that "other" memory to make room."""

from __future__ import annotations

from memdir.tools.memory_directory import run

P = "/memories/project/"


def test_a_case_only_rename_says_it_is_the_same_name(mem):
    run(mem.session, {"command": "create", "path": P + "Deploy.md", "file_text": "Deploys go out on Tuesdays"})
    run(mem.session, {"command": "create", "path": P + "other.md", "file_text": "Another fact entirely"})
    upper = run(mem.session, {"command": "rename", "old_path": P + "deploy.md", "new_path": P + "DEPLOY.md"})
    assert upper.is_error and upper.text == (
        "'deploy' is already called 'deploy' ('DEPLOY' is that name: a name is stored lowercase, in a-z, 0-9 and -, "
        "so a rename of its case or accents alone changes nothing): a rename needs a different new name; to show it "
        "as 'DEPLOY', change its title instead")
    itself = run(mem.session, {"command": "rename", "old_path": P + "Deploy.md", "new_path": P + "deploy.md"})
    assert itself.is_error and itself.text == "'deploy' is already called 'deploy': a rename needs a different new name"
    # control: a rename onto another memory's name is refused as the destination existing, and both stay
    onto = run(mem.session, {"command": "rename", "old_path": P + "deploy.md", "new_path": P + "other.md"})
    assert onto.is_error and onto.text == "The destination /memories/project/other.md already exists"
    assert [m.name for m in mem.list().memories] == ["deploy", "other"]
    assert mem.read("deploy", count=False).record.body == "Deploys go out on Tuesdays"
