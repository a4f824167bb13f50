"""The panel's HTML error page shows an error's text escaped and printable — the panel's one rule for shown text
(the ``text`` filter, :func:`memdir.text.printable.printable`, under Jinja's autoescaping): a ``<script>`` an
error quotes (a name from the URL) is text, never markup, and no control or bidi-override character reaches the
page; a plain error shows its words as they are (tools41). Real server (`memdir panel`), raw HTTP."""

from __future__ import annotations

import html
from urllib.parse import quote

import pytest

pytest.importorskip("uvicorn", reason="the panel extra is not installed (pip install 'memdir[panel]')")

from memdir.paths import project_key

pytestmark = pytest.mark.slow  # a real server process

HOSTILE = "<script>alert(1)\u202e\x1b[31m"  # no "/": a path segment of the URL


@pytest.fixture
def person(db_port):
    """The person conftest's ``panel`` starts after: one who has written db-port."""
    return db_port


def _error(page: bytes) -> str:
    text = page.decode()
    start = text.index('<p class="error">') + len('<p class="error">')
    return text[start:text.index("</p>", start)]


def test_an_error_quoting_a_script_is_shown_escaped_and_printable(panel, project):
    ref = f"{project_key(project.resolve())}:project"
    for path, code_asked, words in ((f"/layer/{ref}/m/{quote(HOSTILE, safe='')}", 400,
                                     "memory name must not contain control characters or line breaks (got '"),
                                    (f"/layer/{quote(HOSTILE, safe='')}:project", 404, "no project layer '")):
        code, _, page = panel.request("GET", path)
        shown = _error(page)
        assert code == code_asked and "<script>" not in page.decode(), (path, shown)
        assert "\u202e" not in shown and "\x1b" not in shown
        assert "&lt;script&gt;alert(1)" in shown, shown  # the words are there, as text
        assert html.unescape(shown).startswith(words + "<script>alert(1)"), shown
    # control, in the same server: a plain error shows its words unchanged
    code, _, page = panel.request("GET", f"/layer/{ref}/m/nothing-here")
    assert code == 404 and html.unescape(_error(page)).startswith(
        'memory not found: "nothing-here" in the project layer')
    assert "<h1>NotFound</h1>" in page.decode()


def test_the_error_page_makes_raw_text_printable():
    """An error whose text holds a raw bidi override or terminal escape (an error quoting it by ``repr`` would
    not): the page shows the text without them, escaped; a plain error's words unchanged (control)."""
    from memdir.integrations.panel.pages import _env

    page = _env().get_template("error.html").render(error="refused: <script>x()</script>\u202eevil\x1b[31m red",
                                                    kind="Refused", csrf="t", path="/", home="/h")
    assert '<p class="error">refused: &lt;script&gt;x()&lt;/script&gt;evil red</p>' in page
    plain = _env().get_template("error.html").render(error="memory not found: db-port", kind="NotFound",
                                                     csrf="t", path="/", home="/h")
    assert '<h1>NotFound</h1>\n<p class="error">memory not found: db-port</p>' in plain
