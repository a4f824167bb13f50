"""Names, project roots and project keys (DESIGN §2, §3)."""

import os

import pytest

from memdir import InvalidInput, InvalidName, Memory, ScopeError
from memdir.paths import project_key, project_root_of, resolve_home
from memdir.text.names import normalize_name


def test_normalization_examples():
    assert normalize_name("My Preference").name == "my-preference"
    assert normalize_name("foo_bar!baz").name == "foo-bar-baz"
    long = "a" * 63 + "-b"
    assert normalize_name(long).name == "a" * 63  # the cut exposed a '-', which is stripped
    cjk = normalize_name("中文记忆")
    assert cjk.name.startswith("m-") and len(cjk.name) == 12 and cjk.title == "中文记忆"
    assert normalize_name("中文记忆") == cjk  # stable


@pytest.mark.parametrize("bad", ["", "   ", "a\x00b", "memory", "Memory", "CON", "nul", "com1"])
def test_rejected_names(bad):
    with pytest.raises(InvalidName):
        normalize_name(bad)


def test_hostile_names_each_make_exactly_one_file_inside_the_layer(mem, tmp_path):
    layer_dir = mem.session.layer("project").path
    outside_before = sorted(p for p in tmp_path.rglob("*") if layer_dir not in p.parents and p != layer_dir)
    expected = {"A/B experiment": "a-b-experiment.md", "../../etc/passwd": "etc-passwd.md", "notes.": "notes.md"}
    for raw, filename in expected.items():
        mem.write(raw, f"desc of {raw}", "project", "body")
        assert (layer_dir / filename).is_file()
    result = mem.write("中文记忆", "a Chinese-named memory", "project", "内容")
    assert (layer_dir / f"{result.name}.md").is_file()
    assert mem.read(result.name).record.title == "中文记忆"
    for raw in ("a\x00b", "CON", "nul"):
        with pytest.raises(InvalidName):
            mem.write(raw, "d", "project", "b")
    files = sorted(p.name for p in layer_dir.iterdir() if p.suffix == ".md" and p.name != "MEMORY.md")
    assert files == sorted([*expected.values(), f"{result.name}.md"])
    assert all(p.parent == layer_dir for p in layer_dir.glob("*.md"))
    outside_after = sorted(p for p in tmp_path.rglob("*")
                           if layer_dir not in p.parents and p != layer_dir and "memhome" not in str(p))
    assert [p for p in outside_after if p not in outside_before and "memhome" not in str(p)] == []


def test_project_keys_are_distinct_stable_and_bounded():
    pairs = [("/w/data-analysis", "/w/data/analysis"), ("C:\\w\\my_proj", "C:\\w\\my-proj"),
             ("/w/项目/甲", "/w/项目/乙")]
    for a, b in pairs:
        assert project_key(a) != project_key(b)
    assert project_key("/w/data-analysis") == project_key("/w/data-analysis")
    assert project_key("/w/data-analysis").startswith("w-data-analysis-")
    assert project_key("/w/项目/甲").startswith("project-")
    long_path = "/" + "/".join(["segment" + "x" * 20] * 19)
    assert len(long_path) >= 520
    key = project_key(long_path)
    assert len(key.encode()) <= 100
    for key in (project_key(p) for pair in pairs for p in pair):
        assert len(key.encode()) <= 100 and all(c.isascii() and (c.isalnum() or c == "-") for c in key)


def test_symlink_and_git_subdir_share_the_root(tmp_path):
    repo = tmp_path / "repo"
    (repo / ".git").mkdir(parents=True)
    (repo / "src" / "pkg").mkdir(parents=True)
    link = tmp_path / "link"
    link.symlink_to(repo)
    assert project_root_of(repo / "src" / "pkg") == (repo.resolve(), None)
    assert project_root_of(link) == (repo.resolve(), None)


def test_home_and_root_are_refused_as_projects(tmp_path, isolated_home):
    root, reason = project_root_of(os.environ["HOME"])
    assert root is None and "it is / or $HOME" in reason
    assert project_root_of("/")[0] is None
    assert project_root_of(tmp_path)[0] == tmp_path.resolve()  # control: another directory is a project
    mem = Memory.open(home=isolated_home, project=os.environ["HOME"])
    with pytest.raises(ScopeError, match="MEMDIR_PROJECT"):
        mem.write("x", "d", "project", "b")
    assert mem.write("x", "d", "user", "b", scope="user").scope == "user"  # control: user layer works
    assert not (isolated_home / "projects").exists()


def test_a_home_with_a_nul_or_an_impossible_name_is_invalid_input(tmp_path, project):
    """A NUL in the home raised ``ValueError: embedded null byte`` from the first write, list or status."""
    with pytest.raises(InvalidInput) as refused:
        Memory.open(home="/tmp/h\0", project=project)
    assert str(refused.value) == ("the memdir home '/tmp/h\\x00' (--home) holds a NUL character, which no path "
                                  "can hold; give the path without it")
    with pytest.raises(InvalidInput) as from_env:
        resolve_home(environ={"MEMDIR_HOME": "/tmp/h\0"})
    assert str(from_env.value) == ("the memdir home '/tmp/h\\x00' (MEMDIR_HOME) holds a NUL character, which no "
                                   "path can hold; give the path without it")
    long = "/tmp/" + "a" * 300
    with pytest.raises(InvalidInput) as too_long:
        Memory.open(home=long, project=project)
    assert str(too_long.value) == f"the memdir home {long!r} (--home) cannot be used: File name too long"
    assert resolve_home(environ={"MEMDIR_HOME": str(tmp_path / "h")}) == tmp_path / "h"  # control
    opened = Memory.open(home=tmp_path / "h", project=project, actor="human")
    assert opened.write("x", "d").operation == "created" and opened.status().layers


def test_a_project_with_a_nul_or_an_impossible_name_is_a_scope_error(tmp_path, isolated_home, project):
    """As every project directory that cannot exist (a ``ScopeError``, the session's rule)."""
    with pytest.raises(ScopeError) as refused:
        Memory.open(home=isolated_home, project=f"{project}\0")
    assert str(refused.value) == f"project directory {str(project) + chr(0)!r} is not a valid path"
    long = "/tmp/" + "a" * 300
    with pytest.raises(ScopeError) as too_long:
        Memory.open(home=isolated_home, project=long)
    assert str(too_long.value) == f"project directory {long!r} cannot be examined: File name too long"
    assert Memory.open(home=isolated_home, project=project).project_root == project  # control


def test_the_hot_paths_sha256_is_hashlibs():
    """The project key and a session's record digest without loading OpenSSL: the same SHA-256."""
    import hashlib

    from memdir.paths import project_key, sha256

    for data in (b"", b"/home/a/proj", "/home/ü/프로젝트".encode()):
        assert sha256(data).hexdigest() == hashlib.sha256(data).hexdigest()
    assert project_key("/home/a/proj") == "a-proj-" + hashlib.sha256(b"/home/a/proj").hexdigest()[:12]


# The hot path's paths are strings (memdir.paths: home_path, root_path_of, *_path); each is the rule its Path
# form wraps, and each string is what pathlib writes for the same path, so what a person reads (a message, the
# untrusted team layer's note, the context block) is the same byte for byte.
_SPELLINGS = ["/a/b", "/a//b/", "//a/b", "///a/b", "/a/./b/.", "a/../b", "./a", ".", "", "/", "//", "a//", "~/x",
              "/tmp/prøject-日本 x/", "/a/b/../c", "a/b/"]


def test_paths_are_written_as_pathlib_writes_them():
    from pathlib import PurePosixPath

    from memdir.gitfiles import pure_path as _pure

    for spelling in _SPELLINGS:
        assert _pure(spelling) == str(PurePosixPath(spelling)), spelling


def test_the_string_paths_are_the_path_forms(tmp_path, monkeypatch):
    from pathlib import Path

    from memdir import paths
    from memdir.session import open_session

    repo = tmp_path / "rép o" / "日本"
    (repo / ".git").mkdir(parents=True)
    (repo / "src").mkdir()
    (tmp_path / "link").symlink_to(repo)
    home = tmp_path / "hø"
    monkeypatch.setenv("HOME", str(tmp_path))
    for spelling in (str(home) + "//", "/" + str(home).replace("/", "//") + "/.", "~/hø/"):
        assert paths.home_path(spelling) == str(home) and paths.resolve_home(spelling) == home
    for source in (repo / "src", tmp_path / "link", str(tmp_path / "link") + "//src/"):
        root, reason = paths.root_path_of(source)
        assert (root, reason) == (str(repo.resolve()), None) and paths.project_root_of(source) == (Path(root), None)
    session = open_session(str(home) + "/", str(tmp_path / "link" / "src"), actor="human")
    assert (session.home_path, session.root_path) == (str(home), str(repo))
    assert (session.home, session.project_root) == (home, repo)  # the Path forms of the same
    for scope in ("user", "project"):
        assert session.layer_dir(scope) == Path(session.layer_path(scope))
    assert session.layer_path("project") == str(home / "projects" / paths.project_key(repo))
    assert paths.team_files_path(repo, "./.claude//memory/") == str(repo / ".claude" / "memory")
    assert paths.team_meta_dir(home, repo) == Path(paths.team_meta_path(home, repo))
    with pytest.raises(ValueError):  # as PurePath.relative_to: a team directory outside its root is no part of it
        paths.team_dir_problem(repo, tmp_path / "elsewhere")
    assert paths.team_dir_problem(repo, repo / "team") is None  # control: one inside it


def test_the_memory_file_rule_needs_no_pattern():
    """``is_memory_file_name`` (string methods: the hot path's sweep loads no re) keeps the rule it had as a
    pattern, which is the oracle here."""
    import re

    from memdir.files.layout import is_memory_file_name

    names = ["a.md", ".a.md", "MEMORY.md", "memory.md", "Memory.Md", "MEMORY.MD", "memory.md.md", "xmemory.md",
             "a.MD", "a.md~", ".md", "md", "日本.md", "memory\n.md", "a\n.md", "ſmemory.md", "memorY.md"]
    pattern = re.compile(r"(?s)(?!\.)(?!(?i:memory\.md)\Z).*\.md")
    assert [is_memory_file_name(n) for n in names] == [pattern.fullmatch(n) is not None for n in names]
    assert is_memory_file_name("a.md") and not is_memory_file_name("MEMORY.md")  # control: both answers occur
