"""Real Claude Code memory files from public repositories (../shared/data/claude-code-memory)."""

import json
import shutil

import pytest

from tests.conftest import DATA, run_cli

SOURCE = DATA / "claude-code-memory"
pytestmark = pytest.mark.skipif(not SOURCE.is_dir(), reason=f"{SOURCE} is absent (shared data not laid out)")

# file stem -> (type, description start, title) as a person reading the file would give them
EXPECTED = {
    "feedback_bang_prefix_no_cd": ("feedback", "The `!` slash-prefix shell only runs", "! prefix and && don't compose"),
    "feedback_commit_only_in_multi_session": ("feedback", "Multi-session work in the same repo",
                                              "Use `git commit -o <files>` when other claude sessions may be running"),
    "feedback_docker_env_file_gotchas": ("feedback", "Docker Compose's env_file parser interprets `$`",
                                         "Docker Compose env_file parsing gotchas — $, #, and restart-vs-recreate"),
    "feedback_school-persona": ("feedback", "학교에서 사용하는 웹앱에는", None),
    "reference_notion-formula-api-relation": ("reference", "Notion API로 만든 relation은", None),
    "gradient_diagnostics_checklist": ("reference", "Gradient Diagnostics Checklist", None),
    "project_factor_lock_cross_machine": ("project", "factor_lock 从 per-machine fcntl", None),
    "project_session_2026-03-15": ("project", "Major session: freshness gate",
                                   "Session 2026-03-15 — Pipeline Activation & Corpus Scoring"),
    "fix-verify-loop-signal": ("feedback", "수정→검증→그 수정의 결함이", None),
    "project_sprint_status": ("project", "현재 스프린트 진행 상태", "sprint-status"),
}


@pytest.fixture
def layer_with_real_files(mem):
    layer = mem.session.layer("project").path
    layer.mkdir(parents=True)
    for path in SOURCE.glob("*/*"):
        stem = path.name.split("__")[-1]
        if stem.upper() != "MEMORY.MD":
            shutil.copy(path, layer / stem)
    return layer


def test_real_files_are_listed_as_a_person_reads_them(mem, layer_with_real_files):
    result = mem.list()
    assert result.malformed == ()
    got = {m.name: m for m in result.memories}
    assert len(got) == len(EXPECTED)
    for stem, (type_, description, title) in EXPECTED.items():
        name = stem.lower().replace("_", "-")
        info = got[name]
        assert info.type == type_, stem
        assert info.description.startswith(description), (stem, info.description)
        if title is not None:
            assert info.title == title, stem
    school = mem.read("feedback-school-persona").record
    assert school.title == "학교용 앱에서 1000쌤 이름 사용 금지"


@pytest.mark.slow
def test_doctor_names_the_files_that_needed_the_fallback(project, layer_with_real_files):
    out = run_cli("--project", project, "doctor", "--json")
    assert out.returncode == 0, out.stderr
    report = json.loads(out.stdout)
    layer = next(l for l in report["layers"] if l["scope"] == "project")
    fallback = sorted(p.rsplit("/", 1)[1] for p in layer["fallback_parsed"])
    assert fallback == ["feedback_docker_env_file_gotchas.md", "project_session_2026-03-15.md"]
    assert [p.rsplit("/", 1)[1] for p in layer["no_frontmatter"]] == ["gradient_diagnostics_checklist.md"]
    assert layer["malformed"] == []


def test_writing_a_hand_named_file_moves_it_to_its_name(mem, layer_with_real_files):
    mem.write("feedback-bang-prefix-no-cd", "updated description", "feedback", "new body")
    assert (layer_with_real_files / "feedback-bang-prefix-no-cd.md").is_file()
    assert not (layer_with_real_files / "feedback_bang_prefix_no_cd.md").exists()
    record = mem.read("feedback-bang-prefix-no-cd").record
    assert record.title == "! prefix and && don't compose" and record.description == "updated description"
