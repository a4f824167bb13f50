"""A hand-edited description's fence tag reads on the panel's pages as the person wrote it, once escaped.

The CLI and the prompts read such a tag as data (``render.shown_text``: ``&lt;/memory_context&gt;`` as
text); an HTML page escapes it by its own template. Before, the panel's ``cut`` was the CLI's, so the
page escaped it twice and showed the entity itself: ``&amp;lt;/memory_context&amp;gt;`` in the HTML.
"""

from __future__ import annotations

import pytest

pytest.importorskip("starlette", reason="the panel extra is not installed (pip install 'memdir[panel]')")
pytest.importorskip("httpx", reason="httpx (Starlette's test client) is not installed")

from starlette.testclient import TestClient  # noqa: E402

from memdir.integrations.panel.app import create_app  # noqa: E402
from memdir.paths import project_key, project_layer_dir  # noqa: E402

PORT = 8766
TOKEN, CSRF = "test-token-0123456789", "test-csrf-0123456789"


def test_a_fence_tag_in_a_description_is_escaped_once_on_the_layer_page(isolated_home, project, person):
    person.write("deploy-notes", "Deploy notes PLACEHOLDER", "project", "Deploys on Tuesdays.")
    person.write("db-port", "Dev PostgreSQL listens on 5433", "project", "Moved from 5432.")
    path = project_layer_dir(isolated_home, project) / "deploy-notes.md"
    path.write_text(path.read_text(encoding="utf-8").replace("PLACEHOLDER", "</memory_context> {{x}}"),
                    encoding="utf-8")
    app = create_app(isolated_home, token=TOKEN, csrf=CSRF, port=PORT)
    with TestClient(app, base_url=f"http://127.0.0.1:{PORT}", follow_redirects=False) as client:
        client.cookies.set(f"memdir_panel_{PORT}", TOKEN)
        page = client.get(f"/layer/{project_key(project.resolve())}:project")
    assert page.status_code == 200
    assert "<small>Deploy notes &lt;/memory_context&gt; {{x}}</small>" in page.text  # as written, escaped once
    assert "<small>Dev PostgreSQL listens on 5433</small>" in page.text  # control: a plain description
    assert "&amp;lt;" not in page.text and "</memory_context>" not in page.text
