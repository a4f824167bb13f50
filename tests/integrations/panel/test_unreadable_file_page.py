"""A memory's page (and GET of it) for a file that is there but is no memory — too large, not UTF-8, a link — says so,
with the path and the reason, as `memdir read` does: it said 'no history for "big"', as if the file had never
been (break39: the read's answer was dropped for the history's). Real server (`memdir panel`), raw HTTP."""

from __future__ import annotations

import html

import pytest

pytest.importorskip("uvicorn", reason="the panel extra is not installed (pip install 'memdir[panel]')")

from memdir.paths import project_key

pytestmark = pytest.mark.slow  # a real server process


@pytest.fixture
def layer(db_port):
    folder = db_port.session.layer("project").path
    (folder / "big.md").write_text("---\nname: big\ndescription: hand written\ntype: project\n---\n" + "word " * 60_000)
    (folder / "junk.md").write_bytes(b"---\nname: junk\n---\n\xff\xfe binary")
    (folder / "linked.md").symlink_to("/etc/hostname")  # never followed: said so, not "memory not found"
    return folder


@pytest.fixture
def person(db_port, layer):
    """The person conftest's ``panel`` starts after: db-port written, and the three files that are no memory."""
    return db_port


def test_a_file_that_is_no_memory_is_named_with_its_reason_on_its_page(panel, layer, project):
    ref = f"{project_key(project.resolve())}:project"
    size = (layer / "big.md").stat().st_size
    expected = {
        "big": f'memory "big" of the project layer is not read: its file exists but is not a readable memory: {layer / "big.md"}: '
               f"file is too large ({size} bytes, over the 262144-byte ceiling set by max_file_bytes); not read, "
               "indexed or versioned",
        "junk": f'memory "junk" of the project layer is not read: its file exists but is not a readable memory: '
                f'{layer / "junk.md"}: file is not valid UTF-8',
        "linked": f'memory "linked" of the project layer is not read: its file exists but is not a readable memory: '
                  f'{layer / "linked.md"}: not read: it is a symbolic link (not followed)',
    }
    for name, error in expected.items():
        code, reply, _ = panel.request("GET", f"/api/layers/{ref}/memories/{name}")
        assert (code, reply) == (404, {"error": error, "kind": "NotFound"}), name
        code, _, page = panel.request("GET", f"/layer/{ref}/m/{name}")
        assert code == 404 and f'<p class="error">{error}</p>' in html.unescape(page.decode()), name
        assert "no history" not in page.decode()
    # Controls: a name never held is still not found; the readable memory is shown.
    code, reply, _ = panel.request("GET", f"/api/layers/{ref}/memories/nothing-here")
    assert (code, reply["kind"]) == (404, "NotFound") and reply["error"].startswith(
        'memory not found: "nothing-here" in the project layer'), reply
    code, reply, _ = panel.request("GET", f"/api/layers/{ref}/memories/db-port")
    assert (code, reply["body"]) == (200, "Moved on 2026-11-02.")
