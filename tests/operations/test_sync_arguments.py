"""A bad argument to a sync operation is named as the library names it (``scope``, ``layers``), and each
interface names it its own way (:meth:`memdir.errors.InvalidInput.worded`): the CLI its flag. left32: the
library said ``--scope must be user or project``, a flag the Python API and the tools have no such thing as."""

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
