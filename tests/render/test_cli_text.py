"""The command line as a person reads it (issue 11, last section): each text
says what happened in words a person knows."""

from __future__ import annotations

import json
import re

import pytest

from memdir import Memory
from tests.conftest import run_cli


@pytest.mark.slow
def test_a_candidate_is_not_announced_as_a_memory(project):
    done = run_cli("write", "x", "-d", "a proposed fact", "-t", "project", "--candidate", "--project", project)
    # before: "Memory created: x (project)"
    assert done.stdout.startswith("Candidate created: x (project)\nIt waits for a person's review")
    done = run_cli("write", "y", "-d", "a fact", "-t", "project", "--project", project)
    assert done.stdout == "Memory created: y (project)\n"  # control


@pytest.mark.slow
def test_a_cjk_name_gets_the_warning_a_latin_name_gets(project):
    done = run_cli("write", "部署流程", "-d", "deploy steps", "-t", "project", "--project", project)
    assert done.stdout == "Memory created: m-c3f8ff75a0 (project)\n"
    # before: no warning at all
    assert done.stderr == ("memdir: warning: name '部署流程' has no letters a-z or digits; saved as 'm-c3f8ff75a0' "
                           "with '部署流程' as its title (either name finds it)\n")
    assert "name: m-c3f8ff75a0" in run_cli("read", "部署流程", "--project", project).stdout
    latin = run_cli("write", "My Pref", "-d", "a preference", "-t", "project", "--project", project)
    assert latin.stderr == "memdir: warning: name 'My Pref' was normalized to 'my-pref' (kept as the title)\n"  # control


@pytest.mark.slow
def test_history_columns_line_up(isolated_home, project, person):
    for i in range(10):
        person.write("hx", f"version {i + 1}", "project", "")
    person.as_actor("extracted").write("hx", "version eleven", "project", "")
    lines = run_cli("history", "hx", "--project", project).stdout.splitlines()[1:]
    assert len(lines) == 11
    starts = {tuple(m.start() for m in re.finditer(r"(?<=  )\S", line))[:4] for line in lines}
    assert len(starts) == 1, lines  # before: `v1  … human create` vs `v10 … extracted update` drifted
    assert lines[0].startswith("v1   ") and lines[9].startswith("v10  ")


@pytest.mark.slow
def test_read_does_not_look_like_broken_frontmatter(project):
    run_cli("write", "db-port", "-d", "Dev PostgreSQL listens on 5433", "-t", "project", "--body", "Moved.",
            "--project", project)
    out = run_cli("read", "db-port", "--project", project).stdout
    digest = json.loads(run_cli("read", "db-port", "--project", project, "--json").stdout)["digest"][:16]
    # before: "--- name: db-port" … "---"; the body quoted, one memory's data (issue 28 audit 18)
    assert out == ("name: db-port\ndescription: Dev PostgreSQL listens on 5433\ntype: project\nlayer: project\n"
                   f"digest: {digest}\n\n> Moved.\n")


def test_not_found_names_the_cli_command_on_the_cli_and_the_tool_in_a_tool(isolated_home, project):
    done = run_cli("read", "missing", "--project", project)
    # before: "… call memory_list to see names" on the command line
    assert done.stderr == 'memdir: memory not found: "missing" in any layer — `memdir list` shows the names\n'
    tool = Memory.open(home=isolated_home, project=project).call_tool("memory_read", {"name": "missing"})
    assert tool == 'Error: memory not found: "missing" in any layer — call memory_list to see the names'


@pytest.mark.slow
def test_list_and_consolidation_say_layer_and_type_in_words(isolated_home, project, tmp_path):
    run_cli("write", "db-port", "-d", "Dev PostgreSQL listens on 5433", "-t", "project", "--project", project)
    listed = run_cli("list", "--project", project).stdout
    assert listed == "- db-port (type: project; layer: project) — Dev PostgreSQL listens on 5433\n"
    transcript = tmp_path / "t.txt"
    transcript.write_text("USER: Remember that the staging deploy needs the VPN.\nASSISTANT: Noted.\n")
    done = run_cli("consolidate", transcript, "--extractor", "rules", "--project", project)
    assert "receipt #" not in done.stdout  # before: "receipt #2 in the project layer"
    assert "the run is recorded in the project layer's journal (event" in done.stdout
    assert "so this transcript is not consolidated twice" in done.stdout


@pytest.mark.slow
def test_a_refused_proposal_says_refused_once(isolated_home, project, tmp_path, person):
    person.write("vpn", "The staging deploy needs the VPN", "project", "")
    person.forget("vpn")
    transcript = tmp_path / "t.txt"
    transcript.write_text("USER: Remember that the staging deploy needs the VPN.\nASSISTANT: Noted.\n")
    out = run_cli("consolidate", transcript, "--extractor", "rules", "--project", project).stdout
    assert "refused-tombstone — matches a forgotten value (the forgotten fact restated; tombstone t-" in out, out
    assert "refused: refused" not in out and "— refused:" not in out


def test_kind_is_one_text_for_list_search_and_consolidation():
    from memdir.vocabulary import kind_label

    assert kind_label("feedback", "user") == "(type: feedback; layer: user)"


def test_write_help_says_one_rule_for_where_a_memory_goes():
    text = " ".join(run_cli("write", "--help").stdout.split())
    assert "user: who the person is (saved in the user layer, seen in every project)" in text
    assert "(these three are saved in the project layer)" in text
    assert "new memories go to the user layer for -t user, else to the project" in text
    assert "a new memory without it is user in the user layer, else project" in text  # its layer's type
    assert "--home HOME memdir home, an absolute path" in text
