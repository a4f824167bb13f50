"""On a home that cannot be written (issue 28 audit): once per session still holds, the session record going to
the per-user runtime directory (:mod:`memdir.runtime`, case 3), and doctor says why no warm process starts (case
4). A real read-only home (a tmpfs remounted read-only, else file modes binding an unprivileged subprocess)."""

from __future__ import annotations

import os

import pytest

from memdir.prompt import recalled, sessionfiles
from memdir.search import used
from tests.search.test_index_survives import PORT_PROMPT, _hook, _made_read_only, _store, fs  # noqa: F401

BODY = "Moved from 5432 on 2026-11-02."
STALE = "memdir: warning: the search index"  # cannot be written …; search and recall answer from it as it is


@pytest.fixture
def runtime(tmp_path, monkeypatch):
    run = tmp_path / "run"
    run.mkdir(mode=0o700)
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(run))
    return run


@pytest.mark.slow
def test_a_read_only_home_gives_a_body_once_per_session(fs, project, runtime):  # noqa: F811
    home, how = fs
    _store(home, project)
    prefix, _state, _hint = _made_read_only(home, how)
    first, err = _hook(project, PORT_PROMPT, prefix, session="s-ro")
    assert BODY in first, (how, err)
    assert err.count(STALE) == 1, (how, err)  # the session's first prompt is told why the index is read as it is
    second, err = _hook(project, PORT_PROMPT, prefix, session="s-ro")
    # before: the full body again (the record could not be saved in the home)
    assert BODY not in second and "db-port" in second, (how, second, err)
    assert STALE not in err, (how, err)  # before: the same warning on every prompt (each hook a new process)
    assert not (home / sessionfiles.SESSIONS_DIR).exists()  # nothing in the read-only home
    kept = list((runtime / "memdir" / sessionfiles.SESSIONS_DIR).glob("*.json"))
    assert (runtime / "memdir" / sessionfiles.SESSIONS_DIR / sessionfiles.LOCK_FILE).is_file()  # the lock, beside it
    # the session's record in this project: what was shown and the warnings said (keep32: both kept under the
    # session and its project; the warnings had a record of their own, the session's in any project)
    ends = {f"-{recalled.session_key(recalled.record_id('s-ro', os.path.realpath(project)))[:16]}.json"}
    assert len(kept) == 1 and {k.name[k.name.index("-"):] for k in kept} == ends
    assert oct(os.stat(kept[0].parent).st_mode & 0o777) == "0o700"
    other, err = _hook(project, PORT_PROMPT, prefix, session="s-other")  # control: another session gets it
    assert BODY in other and err.count(STALE) == 1, (how, err)


def test_the_record_goes_back_to_the_home_once_it_can_take_it(tmp_path, runtime):
    home = tmp_path / "home"
    home.mkdir()
    (home / sessionfiles.SESSIONS_DIR).write_text("a file where the directory goes: the home cannot take the record")
    recalled.record(home, "s1", {"project/db-port": "d1"}, project=None)
    spare = next((runtime / "memdir" / sessionfiles.SESSIONS_DIR).glob("*.json"))
    assert recalled.shown(home, "s1", None) == {"project/db-port": "d1"} and recalled.shown(home, "s2", None) == {}
    (home / sessionfiles.SESSIONS_DIR).unlink()  # the home can take it again
    recalled.record(home, "s1", {"project/style": "d2"}, project=None)
    assert recalled.shown(home, "s1", None) == {"project/db-port": "d1", "project/style": "d2"}
    assert not spare.exists() and (home / sessionfiles.SESSIONS_DIR).is_dir()  # merged into the home's record
    recalled.clear(home, "s1", None)
    assert recalled.shown(home, "s1", None) == {}


def _doctor(project, prefix=()) -> str:
    import subprocess
    import sys

    done = subprocess.run([*prefix, sys.executable, "-m", "memdir.cli", "--project", str(project), "doctor"],
                          capture_output=True, text=True, timeout=120, cwd=project,
                          env=dict(os.environ, MEMDIR_SEARCH_VECTORS="on"))
    return done.stdout + done.stderr


@pytest.mark.slow
def test_doctor_says_why_no_warm_process_starts_on_a_read_only_home(fs, project, runtime):  # noqa: F811
    """Issue 28 audit case 4: doctor said the next hook would start the warm process; none could."""
    home, how = fs
    _store(home, project)
    assert "this home's index holds no vector yet; the next session start builds them" in _doctor(project)  # none yet
    (home / used.VECTORS_MARK).touch()  # what storing one leaves (memdir.search.used.note)
    writable = _doctor(project)  # control: a writable home, where the next hook does start one
    assert "the one the next session start or prompt hook starts" in writable, writable
    prefix, state, hint = _made_read_only(home, how)
    said = _doctor(project, prefix)
    assert (f"and no session start or prompt hook can start one: the home {home} is {state} (the process keeps "
            "its log, warm.log, and the index's vectors there); a fresh prompt hook recalls by words alone "
            f"(to have one, {hint}") in said, (how, said)
    assert "the one the next session start or prompt hook starts" not in said


@pytest.mark.slow
def test_one_session_id_in_two_projects_is_told_of_the_stale_index_in_each(fs, project, runtime, tmp_path):  # noqa: F811
    """keep32: the stale-index warning was kept under the session's id alone, while what a session was shown is
    kept under its id and project (recalled.record_id): a conversation resumed in another project under the same
    id was never told its index is read as it is. Now each project's first prompt is told, once."""
    home, how = fs
    other = tmp_path / "work" / "other"
    (other / ".git").mkdir(parents=True)
    _store(home, project)
    _store(home, other)
    prefix, _state, _hint = _made_read_only(home, how)
    _first, err = _hook(project, PORT_PROMPT, prefix, session="s-two")
    assert err.count(STALE) == 1, (how, err)
    _again, err = _hook(project, PORT_PROMPT, prefix, session="s-two")
    assert STALE not in err, (how, err)  # control: the same conversation is told once
    there, err = _hook(other, PORT_PROMPT, prefix, session="s-two")
    assert BODY in there and err.count(STALE) == 1, (how, err)  # before: not told (the id had been told)
    _again, err = _hook(other, PORT_PROMPT, prefix, session="s-two")
    assert STALE not in err, (how, err)
