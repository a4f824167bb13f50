"""Rule 5 (the forgotten body) reads a body with or without a first line restating a description, both ways
(break38): the forgotten body word for word under a description that is its own first line, the forgotten text
split into a description (its first line) and a body (the rest), and the body of a file written whole (its first
line its description, a two-word one rule 3 does not read) under another description, all came back — refused
now from the CLI and held back as a copied file; a body that only shares those lines is still written."""

from __future__ import annotations

from memdir import Memory
from memdir.paths import project_layer_dir
from memdir.tombstones.match import make, match
from tests.conftest import run_cli

LINE = "Staging deploys need the VPN profile acme-corp."
REST = "The bastion host is jump.acme.io on port 2222 and keys rotate monthly."
BODY = f"{LINE}\n{REST}"
OTHER = "The bastion host is jump.acme.io on port 2200 and keys rotate weekly."
ENV = {"MEMDIR_SEARCH_VECTORS": "off"}


def test_the_rule_reads_the_body_with_and_without_a_restated_first_line():
    stone = make("staging-vpn", "How staging deploys reach the cluster", BODY, "human", None)
    assert match([stone], LINE, BODY) == (stone, "the forgotten body")  # its own first line as description
    assert match([stone], LINE, REST) == (stone, "the forgotten body")  # the text split into description and body
    assert match([stone], "Ops notes", BODY) == (stone, "the forgotten body")  # control: as before
    assert match([stone], LINE, OTHER) is None  # control: another body under that description
    whole = make("staging-access", "Staging access", f"Staging access\n{REST}", "agent", None)
    assert match([whole], "Ops notes", f"Staging access\n{REST}") == (whole, "the forgotten body")
    assert match([whole], "Ops notes", REST) == (whole, "the forgotten body")  # control: as before
    assert match([whole], "Ops notes", f"Staging access\n{OTHER}") is None  # control: the line, another body
    assert match([whole], "Ops notes", f"Prod access\n{REST}") is None  # another first line: another text


def test_the_cli_refuses_each_way_back_and_a_copied_file_is_held(isolated_home, project):
    assert run_cli("write", "staging-vpn", "-d", "How staging deploys reach the cluster", "--body", BODY,
                   cwd=project, env=ENV).returncode == 0
    forgot = run_cli("forget", "staging-vpn", cwd=project, env=ENV)
    stone_id = forgot.stdout.split("(tombstone ")[1].split(")")[0]
    head = f"memdir: refused: this matches a forgotten value (the forgotten body; tombstone {stone_id}, "
    for name, body in (("vpn-line", BODY), ("vpn-split", REST)):
        refused = run_cli("write", name, "-d", LINE, "--body", body, cwd=project, env=ENV)
        assert (refused.returncode, refused.stderr[:len(head)]) == (1, head), name
    control = run_cli("write", "vpn-other", "-d", LINE, "--body", OTHER, cwd=project, env=ENV)
    assert (control.returncode, control.stdout.strip()) == (0, "Memory created: vpn-other (project)")
    assert run_cli("write", "staging-access", "-d", "Staging access", "--body", f"Staging access\n{REST}",
                   cwd=project, env=ENV).returncode == 0
    forgot = run_cli("forget", "staging-access", cwd=project, env=ENV)
    assert forgot.returncode == 0 and "tombstone t-" in forgot.stdout
    refused = run_cli("write", "ops-notes", "-d", "Ops notes", "--body", f"Staging access\n{REST}", cwd=project,
                      env=ENV)
    assert refused.returncode == 1 and "(the forgotten body; " in refused.stderr
    layer = project_layer_dir(isolated_home, project)
    (layer / "copied.md").write_text(f"---\nname: copied\ndescription: {LINE}\ntype: project\n---\n{BODY}\n")
    (layer / "kept.md").write_text(f"---\nname: kept\ndescription: {LINE}\ntype: project\n---\n{OTHER}\n")
    names = [m.name for m in Memory.open(home=isolated_home, project=project, actor="human").list().memories]
    assert "copied" not in names and "kept" in names and "vpn-other" in names


def test_a_forget_sees_another_layer_holding_the_body_of_a_file_written_whole(isolated_home, project):
    """The delete's sieve read the body with its first line (its own description): a user-layer memory holding the
    body after that line was passed over unread, and the forget tombstoned a body the user layer still held."""
    person = Memory.open(home=isolated_home, project=project, actor="human")
    person.write("personal-ops", "Personal reminders", "user", REST, scope="user")
    person.write("staging-access", "Staging access", "project", f"Staging access\n{REST}")
    done = person.forget("staging-access", scope="project")
    assert (done.tombstone, done.kept_by) == (None, "user:personal-ops")
    person.write("prod-access", "Prod access", "project", f"Prod access\n{OTHER}")  # control: nothing holds it
    control = person.forget("prod-access", scope="project")
    assert control.kept_by is None and control.tombstone is not None
