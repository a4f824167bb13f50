"""A read-only look at a home not made yet — ``status``, ``search``, ``recall``, ``doctor`` — answers (no memory)
and creates nothing: before, each made the home and its ``index.sqlite`` (search and recall an ``embed.lock`` and
an ``embed.log`` too). The first write makes the home, and a search then makes its index (the control)."""

from __future__ import annotations

from tests.conftest import run_cli


def _files(root) -> list[str]:
    return sorted(str(p.relative_to(root)) for p in root.rglob("*")) if root.exists() else []


def test_reads_of_a_new_home_create_nothing_and_a_write_makes_it(tmp_path, project):
    home = tmp_path / "brand-new" / "memdir"
    env = {"MEMDIR_HOME": str(home)}
    for args in (["status"], ["search", "postgres"], ["recall", "which port"], ["doctor"], ["list"]):
        done = run_cli(*args, env=env, cwd=project)
        assert done.returncode == 0, (args, done.stderr)
        assert not (tmp_path / "brand-new").exists(), (args, _files(tmp_path / "brand-new"))
    status = run_cli("status", env=env, cwd=project)
    assert "project: 0 memories (0 in the index, 0 in the context block, 0 candidates, 0 tombstones)" in (
        status.stdout.splitlines())
    wrote = run_cli("write", "db-port", "-d", "Dev PostgreSQL listens on 5433", "-t", "project", "--body",
                    "5432 is taken.", env=env, cwd=project)
    assert wrote.returncode == 0, wrote.stderr
    found = run_cli("search", "postgres", env=env, cwd=project)
    assert found.returncode == 0 and "- db-port (type: project; layer: project)" in found.stdout
    assert (home / "index.sqlite").is_file()  # the control: in a home a write made, a search makes its index
