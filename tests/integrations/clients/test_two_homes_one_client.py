"""Two memdir homes installed into one client file (team40): the install record is kept per memdir home, so home
B's install replaced home A's entries unsaid, and A's uninstall then took B's out ("restored") while B's record
still named them. Now the entries a file's memdir part names (`--home`) are checked: B's install is refused (the
file untouched, byte for byte) unless --force; an uninstall leaves another home's entries and says whose; doctor
names another home's entries. Controls: the same home installs again (nothing to change) and its uninstall gives
the file back byte for byte."""

from __future__ import annotations

import pytest

from memdir.errors import InstallError
from memdir.integrations.clients import edits, gemini
from tests.integrations.clients.userfiles import (
    FILES,
    GEMINI_ORIGINAL,
    PY,
    gemini_settings,
    snapshot,
)


@pytest.mark.parametrize("client", list(FILES), ids=lambda c: c.CLIENT)
def test_another_home_s_entries_are_neither_replaced_nor_taken_out(tmp_path, client):
    user = tmp_path / "user"
    path = user / FILES[client]
    a, b = tmp_path / "home-a", tmp_path / "home-b"
    client.install("user", a, user_home=user, home=str(a), python=PY)
    before = snapshot(user)
    assert str(a).encode() in path.read_bytes()
    with pytest.raises(InstallError) as refused:
        client.install("user", b, user_home=user, home=str(b), python=PY)
    assert str(refused.value).startswith(f"{path} holds memdir's entries of another memdir home, {a}; ")
    assert f"run `memdir --home {a} uninstall {client.CLIENT}` first" in str(refused.value)
    assert snapshot(user) == before  # untouched, byte for byte
    out = client.uninstall(None, b, user_home=user)
    assert f"{path} holds memdir's entries of another memdir home, {a}, not this one's: left as they are " \
           f"(`memdir --home {a} uninstall {client.CLIENT}` takes them out)" in out.notes
    assert snapshot(user) == before
    # control: the same home again changes nothing, and its uninstall takes every file back
    again = client.install("user", a, user_home=user, home=str(a), python=PY)
    assert again.changes == ()
    assert [p for p in edits.problems(a, [client.CLIENT]) if "another memdir home" in p] == []  # its own: said below
    client.uninstall(None, a, user_home=user)
    assert not any(str(a) in p.read_text(errors="replace") for p in user.rglob("*") if p.is_file())


def test_force_replaces_and_doctor_names_the_other_home(tmp_path):
    user, path = gemini_settings(tmp_path)
    a, b = tmp_path / "home-a", tmp_path / "home-b"
    gemini.install("user", a, user_home=user, home=str(a), python=PY)
    forced = gemini.install("user", b, user_home=user, home=str(b), python=PY, force=True)
    assert f"replaced memdir home {a}'s entries in {path} (--force); that home's `memdir uninstall gemini` now " \
           "leaves this file alone" in forced.notes
    assert str(b).encode() in path.read_bytes() and str(a).encode() not in path.read_bytes()
    assert edits.problems(a, ["gemini"]) == [
        (f"gemini: {path} holds another memdir home's entries ({b}), not this home's: its hooks and server read and "
         f"write that home; `memdir --home {b} uninstall gemini`, then `memdir install gemini` here, if this home is "
         "the one to use")]
    assert edits.problems(b, ["gemini"]) == []  # control: the home whose entries they are
    gemini.uninstall(None, a, user_home=user)
    assert str(b).encode() in path.read_bytes()  # B's entries kept
    gemini.uninstall(None, b, user_home=user)  # B's backup held A's entries: put back as B found it
    gemini.uninstall(None, a, user_home=user)
    assert path.read_bytes() == GEMINI_ORIGINAL
