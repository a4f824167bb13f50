"""`memdir panel --open` never puts the token on the browser's command line (issue 24, §5)."""

from __future__ import annotations

import os
import stat
import sys
import time

import pytest

pytest.importorskip("starlette", reason="the panel extra is not installed (pip install 'memdir[panel]')")

from tests.integrations.panel.test_browser import Panel, browser_page, store  # noqa: E402,F401

pytestmark = pytest.mark.slow


def test_open_gives_the_browser_a_private_page_that_logs_it_in_then_goes(store, isolated_home, tmp_path,
                                                                         monkeypatch, browser_page):
    argv_file = tmp_path / "browser-argv"
    recorder = tmp_path / "browser"
    recorder.write_text(f"#!{sys.executable}\nimport sys\nopen({str(argv_file)!r}, 'w').write('\\n'.join(sys.argv[1:]))\n")
    recorder.chmod(0o700)
    monkeypatch.setenv("BROWSER", str(recorder))  # what webbrowser runs: the command line every local user sees
    running = Panel(isolated_home, "--open")
    try:
        token = running.url.split("token=")[1]
        deadline = time.monotonic() + 30
        while not argv_file.exists() and time.monotonic() < deadline:
            time.sleep(0.1)
        argv = argv_file.read_text()
        assert token not in argv and "token" not in argv  # the browser's command line holds no secret
        assert argv.startswith("file:///") and argv.endswith("/open.html")
        page_file = argv[len("file://"):]
        assert stat.S_IMODE(os.stat(page_file).st_mode) == 0o600
        assert stat.S_IMODE(os.stat(os.path.dirname(page_file)).st_mode) == 0o700
        # control: the page does log a real browser in, and goes once it has
        browser_page.goto(argv)
        browser_page.wait_for_url(lambda url: url.startswith(running.base) and "token=" not in url, timeout=30000)
        browser_page.wait_for_load_state()
        assert "a request from another site" not in browser_page.content()
        assert browser_page.url == running.base + "/" and "memdir" in browser_page.title().lower()
        assert browser_page.request.get(running.base + "/api/layers").status == 200
        assert not os.path.exists(page_file)
    finally:
        running.stop()
    assert not os.path.exists(os.path.dirname(page_file))
