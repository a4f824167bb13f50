"""`memdir recall` says, for the person, what a misspelled word of the prompt was read as (stderr, as search's
note says it); the block, which goes to the model on every prompt, does not carry it (the model reads the
prompt itself), and ``--json`` has it as ``read_as``. Before (left29), only ``--json`` and search said it."""

from __future__ import annotations

import json

from tests.conftest import run_cli

ENV = {"MEMDIR_SEARCH_VECTORS": "off"}
BODY = "The app connects to PostgreSQL through pgbouncer on port 6432; set DATABASE_URL accordingly."


def test_recall_says_what_a_misspelled_word_was_read_as(isolated_home, project):
    assert run_cli("write", "db-connect", "-d", "How the app connects to the database", "--body", BODY,
                   "--project", project).returncode == 0
    typo = run_cli("recall", "--project", project, "how does the app conect to the database", env=ENV)
    assert typo.returncode == 0 and BODY in typo.stdout
    assert typo.stderr == "memdir: read 'conect' as 'connect': no memory holds 'conect'\n"
    assert "conect" not in typo.stdout  # the block names no guess
    spelled = run_cli("recall", "--project", project, "how does the app connect to the database", env=ENV)
    assert spelled.stdout == typo.stdout and spelled.stderr == ""  # control: spelled right, nothing to say
    as_json = run_cli("recall", "--json", "--project", project, "how does the app conect to the database", env=ENV)
    assert json.loads(as_json.stdout)["read_as"] == {"conect": "connect"} and as_json.stderr == ""
