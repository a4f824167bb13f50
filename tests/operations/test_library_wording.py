"""Library messages name what the library knows, never a CLI flag or command (left32): a bad argument to a sync
operation is named as the library names it (``scope``, ``layers``) and each interface names it its own way
(:meth:`memdir.errors.InvalidInput.worded`: the CLI its flag); a refusal says the action, not a command."""

from __future__ import annotations

import pytest

from memdir.errors import InvalidInput
from memdir.integrations.cli.main import _flag


def test_a_bad_scope_is_named_as_the_argument_and_worded_as_the_flag(person):
    with pytest.raises(InvalidInput) as caught:
        person.sync_conflict("db-port", scope="team")
    assert str(caught.value) == "scope must be user or project (got 'team')"
    assert caught.value.worded(_flag(caught.value.argument)) == "--scope must be user or project (got 'team')"


def test_bad_layers_are_named_as_the_argument_and_worded_as_the_flag(person, tmp_path):
    with pytest.raises(InvalidInput) as caught:
        person.sync_init(str(tmp_path / "remote.git"), layers="everything")
    assert str(caught.value) == "layers must be one of user, user,projects (got 'everything')"
    assert caught.value.worded(_flag(caught.value.argument)).startswith("--layers must be one of user, ")
    # Control: a good layers value passes that check (the remote is what is refused next, without a flag).
    with pytest.raises(InvalidInput) as other:
        person.sync_init("-x", layers="user")
    assert (str(other.value), other.value.argument) == ("not a git remote: '-x'", None)


def test_a_restore_without_a_version_names_no_cli_command(person):
    # left32: "restore needs a version (memdir history NAME lists them)" reached the Python API, which has none.
    person.write("db-port", "Dev PostgreSQL listens on 5433", "project", "")
    with pytest.raises(InvalidInput) as caught:
        person.restore("db-port")
    assert str(caught.value) == "restore needs a version (the memory's history lists them) or a git commit"
    assert person.restore("db-port", 1).name == "db-port"  # control: with a version it restores
