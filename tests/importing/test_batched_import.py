"""An import writes its new memories in batches (importing.run._Batch, gateway.writing.write_batch):
a refused file in the middle of a batch is reported and the rest kept, and a process killed mid-import
leaves a consistent prefix of the source that a re-run completes — the real CLI, in a subprocess."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

from memdir import Memory
from tests.conftest import run_cli


def notes(folder, count: int) -> None:
    """``count`` Markdown memory files, named so their source order is their name order."""
    folder.mkdir(parents=True)
    for i in range(count):
        (folder / f"note-{i:04d}.md").write_text(
            f"---\ndescription: Note {i} on service {i}\ntype: project\n---\nService {i} keeps its state in "
            f"table t{i}.\n", encoding="utf-8")


def test_a_refused_file_in_the_middle_of_a_batch_is_reported_and_the_rest_kept(tmp_path, project):
    home = tmp_path / "home"
    person = Memory.open(home=home, project=project, actor="human")
    person.write("staging-host", "Staging host is staging-7.internal", "project", body="Ask ops.", scope="project")
    person.forget("staging-host", scope="project")
    layer = person.session.layer("project").path
    (layer / "Note-0250.md").write_text("---\ndescription: [unclosed\n", encoding="utf-8")  # no memory
    source = tmp_path / "notes"
    notes(source, 450)  # three batches of the importer's 200
    (source / "note-0100.md").write_text("---\ndescription: Staging host is staging-7.internal\ntype: project\n"
                                         "---\nAsk ops.\n", encoding="utf-8")

    done = run_cli("import", "dir", source, "--scope", "project", "--json", "--home", home, "--project", project)

    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    by_source = {os.path.basename(o["source"]): o for o in report["outcomes"]}
    assert len(by_source) == 450
    assert by_source["note-0250.md"]["result"] == "skipped"
    assert "Note-0250.md (a file that is no memory) differs from note-0250.md only by case" in \
        by_source["note-0250.md"]["detail"]
    assert by_source["note-0100.md"]["result"] == "skipped" and "forgotten" in by_source["note-0100.md"]["detail"]
    imported = sorted(name for name, o in by_source.items() if o["result"] == "imported")
    assert len(imported) == 448 and "note-0249.md" in imported and "note-0251.md" in imported
    on_disk = {p.name for p in layer.glob("note-*.md")}
    assert on_disk == set(imported) and "note-0250.md" not in on_disk
    assert (layer / "Note-0250.md").read_text(encoding="utf-8") == "---\ndescription: [unclosed\n"  # kept as it was
    index = (layer / "MEMORY.md").read_text(encoding="utf-8")
    assert "note-0449" in index and "note-0250" not in index


KILLED = r"""
import sys
from memdir import Memory
mem = Memory.open(home=sys.argv[1], project=sys.argv[2], actor="human")
mem.import_from("dir", sys.argv[3], scope="project")
"""


def test_an_import_killed_mid_batch_leaves_a_prefix_a_rerun_completes(tmp_path, project):
    home, source, total = tmp_path / "home", tmp_path / "notes", 1200
    notes(source, total)
    layer = Memory.open(home=home, project=project, actor="human").session.layer("project").path
    proc = subprocess.Popen([sys.executable, "-c", KILLED, str(home), str(project), str(source)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=dict(os.environ))
    try:
        deadline = time.monotonic() + 240
        while time.monotonic() < deadline and proc.poll() is None:
            if layer.is_dir() and sum(1 for _ in layer.glob("note-*.md")) >= 300:  # past the first batch
                break
            time.sleep(0.01)
        assert proc.poll() is None, f"the import ended before it was killed: {proc.stderr.read()[-2000:]}"
        os.kill(proc.pid, signal.SIGKILL)
    finally:
        proc.wait(timeout=60)

    kept = sorted(p.name for p in layer.glob("note-*.md"))
    assert 300 <= len(kept) < total
    assert kept == [f"note-{i:04d}.md" for i in range(len(kept))]  # a prefix of the source's order, no gap
    person = Memory.open(home=home, project=project, actor="human")
    listed = {m.name for m in person.list(scope="project", include_all=True).memories}
    assert listed == {name[:-3] for name in kept}  # every file written is a whole, readable memory

    again = person.import_from("dir", str(source), scope="project")

    assert (again.count("imported"), again.count("unchanged")) == (total - len(kept), len(kept))
    assert again.count("skipped") == 0
    assert sorted(p.name for p in layer.glob("note-*.md")) == [f"note-{i:04d}.md" for i in range(total)]
    events = [json.loads(line) for line in (layer / ".memdir" / "journal.jsonl").read_text().splitlines()]
    created = [e["name"] for e in events if e["action"] == "create"]
    assert sorted(created) == [f"note-{i:04d}" for i in range(total)]  # each file journaled once, none lost
    checked = run_cli("verify", "--home", home, "--project", project)
    assert checked.returncode == 0, checked.stdout + checked.stderr
