"""``memdir panel``: a web page on 127.0.0.1 where a person reviews, corrects and audits memory (DESIGN §10).

An ASGI application (Starlette: routing and requests without a model layer
of its own — the typed results of :mod:`memdir.results` are the
models; Jinja2 templates; served by uvicorn) made of:

* :mod:`.security` — the checks before every route (loopback
  ``Host``, own ``Origin``, the start's token, JSON + CSRF for changes);
* :mod:`.home` — the home as one facade per project session;
* :mod:`.views` — what each page asks and changes, through the facade;
* :mod:`.api` — the JSON API under ``/api/`` and its OpenAPI schema;
* :mod:`.pages` — the HTML pages (server-rendered; a small script
  sends the changes to the API).

The panel is an adapter: every rule is the store's, every change goes
through the same operations as ``memdir write``, ``approve``, ``restore``…,
as the ``human`` actor. Needs the ``panel`` extra (:class:`MissingExtra`).
"""

from __future__ import annotations

import os
from pathlib import Path

from ...errors import MissingExtra
from ...session import open_session
from .security import Guard, new_token

HOST = "127.0.0.1"  # never anything else: the checks of panel_security assume a loopback socket
STATIC = Path(__file__).parent / "static"


def _require_extra() -> None:
    for module, package in (("starlette", "starlette"), ("jinja2", "jinja2")):
        try:
            __import__(module)
        except ImportError:
            raise MissingExtra("the web panel", "panel", package) from None


def create_app(home=None, *, token: str | None, csrf: str | None = None, port: int = 0, settings=None):
    """The panel's ASGI application for the memdir ``home`` (default: as
    ``memdir`` resolves it), guarded by ``token`` (None: no token, as
    ``--no-token``) and ``csrf`` (default: a new random one). ``port`` names
    the token cookie. Raises :class:`MissingExtra` without the ``panel`` extra."""
    _require_extra()
    from starlette.applications import Starlette
    from starlette.responses import Response
    from starlette.routing import Mount, Route
    from starlette.staticfiles import StaticFiles

    from . import api as panel_api
    from . import pages as panel_pages
    from .home import PanelHome

    base = open_session(home, None, actor="human", use_cwd=False, settings=settings)
    panel_home = PanelHome(base.home, base.settings)
    csrf = csrf or new_token()
    app = Starlette(routes=[*panel_api.routes(panel_home), *panel_pages.routes(panel_home, csrf),
                            Mount("/static", StaticFiles(directory=STATIC), name="static"),
                            Route("/favicon.ico", lambda request: Response(status_code=204))])  # no icon, no 404
    app.state.home = panel_home
    app.state.csrf = csrf
    return Guard(app, token=token, csrf=csrf, port=port)


def serve(home=None, *, port: int = 0, open_browser: bool = False, no_token: bool = False, out=None,
          as_json: bool = False) -> int:
    """Serve the panel on 127.0.0.1:``port`` (0: a free port) until
    interrupted; print its address with the token (``out``: a stream,
    default stdout; ``as_json``: one JSON line ``{"url", "port", "token"}``)
    and with ``open_browser`` open it through a private local page (:func:`_opener`: the token never
    on the browser's command line). Returns 0. Raises
    :class:`InvalidInput` when the port cannot be bound, :class:`MissingExtra`."""
    import socket
    import sys

    _require_extra()
    try:
        import uvicorn
    except ImportError:
        raise MissingExtra("the web panel", "panel", "uvicorn") from None
    out = out or sys.stdout
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((HOST, port))
    except OSError as exc:
        from ...errors import InvalidInput

        raise InvalidInput(f"cannot listen on {HOST}:{port}: {exc.strerror or exc}") from None
    sock.listen(128)  # before the address is printed: a client that reads it at once is queued, not refused
    port = sock.getsockname()[1]
    token = None if no_token else new_token()
    app = create_app(home, token=token, port=port)
    url = f"http://{HOST}:{port}/" + (f"?token={token}" if token else "")
    if no_token:
        print("memdir: warning: --no-token: any program of any user on this machine can read and change "
              "your memories through this panel", file=sys.stderr)
    if as_json:
        import json

        print(json.dumps({"url": url, "port": port, "token": token}), file=out, flush=True)
    else:
        print(f"memdir panel: {url}", file=out, flush=True)
    opener = _opener(url) if open_browser else None
    if opener is not None:
        import webbrowser

        app.on_first_visit = opener.unlink  # once the browser has the cookie, the page goes
        webbrowser.open(opener.as_uri())
    config = uvicorn.Config(app, log_level="warning", access_log=False, lifespan="off")
    server = uvicorn.Server(config)
    try:
        server.run(sockets=[sock])
    finally:
        if opener is not None:
            opener.unlink(missing_ok=True)
            opener.parent.rmdir()
    return 0


def _opener(url: str) -> Path:
    """A page that sends the browser on to ``url`` (which holds the token), in a new private directory
    (0700, the file 0600): ``--open`` gives the browser this file's path, never the token — a browser's
    command line is readable by every local user (``ps``, ``/proc/<pid>/cmdline``). Its address holds no
    secret either; the page is removed once the token was exchanged for the cookie, and when the panel stops."""
    import html
    import tempfile

    folder = Path(tempfile.mkdtemp(prefix="memdir-panel-"))
    page = folder / "open.html"
    target = html.escape(url, quote=True)
    fd = os.open(page, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as handle:
        handle.write(f'<!doctype html><meta charset="utf-8"><meta http-equiv="refresh" content="0; url={target}">'
                     f'<title>memdir panel</title><a href="{target}">Open the memdir panel</a>\n')
    return page


__all__ = ["HOST", "create_app", "serve"]
