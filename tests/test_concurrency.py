"""Cross-process writers on one layer (real OS processes, the real lock)."""

import subprocess
import sys
import textwrap

WRITER = textwrap.dedent("""
    import sys
    from memdir import Memory
    home, project, prefix, count = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
    mem = Memory.open(home=home, project=project)
    for i in range(count):
        mem.write(f"{prefix}-{i:03d}", f"written by {prefix} number {i}", "project", "body")
""")


def test_two_processes_writing_200_each_lose_nothing(isolated_home, project):
    procs = [subprocess.Popen([sys.executable, "-c", WRITER, str(isolated_home), str(project), prefix, "200"])
             for prefix in ("left", "right")]
    assert [p.wait(timeout=300) for p in procs] == [0, 0]
    from memdir import Memory

    mem = Memory.open(home=isolated_home, project=project)
    layer = mem.layer("project").path
    files = [p for p in layer.glob("*.md") if p.name != "MEMORY.md"]
    assert len(files) == 400
    lines = (layer / "MEMORY.md").read_text().splitlines()
    assert len(lines) == 400
    assert {l.split("](")[1].split(".md)")[0] for l in lines} == {p.stem for p in files}
    assert mem.verify().ok
    assert mem.verify().layers[0].events == 400
