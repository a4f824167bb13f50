"""Who may talk to the web panel: the checks run before any route (DESIGN §10).

The panel listens on 127.0.0.1 only, yet any web page the person opens can
make their browser send requests there. :class:`Guard`, a plain ASGI
middleware, answers 403 to every request that is not from the panel's own
page or a local script:

* ``Host`` must be exactly a loopback host (``127.0.0.1``, ``localhost``,
  ``[::1]``) with at most a numeric port: a DNS-rebinding page arrives with
  its own host name. ``Host``, ``Origin``, ``Sec-Fetch-Site`` and the token
  headers may each come once (a second copy is refused, not ignored).
* ``Origin``, when sent, must be the panel's own (``http``, a loopback host,
  the ``Host``'s port); ``Sec-Fetch-Site``, when sent, must be
  ``same-origin`` or ``none`` (another port on localhost is "same-site").
* the start's random token: ``?token=…`` once (answered with a cookie
  holding it and a redirect to the same address without it), then the
  cookie, or an ``X-Memdir-Token`` header from scripts. ``token=None``
  (``memdir panel --no-token``) skips this check only.
* a mutation (any method but GET/HEAD/OPTIONS) must carry a JSON body
  (``Content-Type: application/json``) and the ``X-CSRF-Token`` header the
  pages hold: an HTML form from another site can send neither; its body
  may hold at most :data:`MAX_BODY` bytes (413 beyond).

The token redirect's address is the request's own path as sent (percent-
encoded), leading slashes collapsed to one: ``//evil.example/`` stays on
the panel.
"""

from __future__ import annotations

import hmac
import html
import json
import re
import secrets
from urllib.parse import parse_qsl, quote, urlencode, urlsplit

LOOPBACK = frozenset({"127.0.0.1", "localhost", "::1"})
MAX_BODY = 4 * 1024 * 1024  # bytes of a request body: a memory is a few KB; a JSON edit of one fits many times
# A Host value the panel answers: a loopback name, then at most ":" and a port number.
_HOST = re.compile(r"(127\.0\.0\.1|localhost|\[::1\])(?::([0-9]{1,5}))?")
TOKEN_HEADER = "x-memdir-token"
CSRF_HEADER = "x-csrf-token"
# Headers a check reads: a second copy could hide a foreign value behind an allowed one.
_SINGLE = frozenset({"host", "origin", "sec-fetch-site", TOKEN_HEADER, CSRF_HEADER, "content-type", "content-length"})
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})


def new_token() -> str:
    """A random URL-safe token (32 bytes of ``secrets``), one per panel start."""
    return secrets.token_urlsafe(32)


def cookie_name(port: int) -> str:
    """The token cookie's name: cookies are shared by every port of a host,
    so two panels on one machine must not overwrite each other's."""
    return f"memdir_panel_{port}"


def split_host(value: str) -> tuple[str, int | None]:
    """``("127.0.0.1", 8765)`` from a ``Host`` value (``[::1]:80`` → ``("::1", 80)``);
    the port is None when absent. Anything but a loopback name with at most a
    numeric port (``127.0.0.1:1@evil``, ``[::1``, ``localhost:1:2``) gives
    ``("", None)``: no host the panel answers."""
    found = _HOST.fullmatch(value.strip().lower())
    if found is None:
        return "", None
    return found.group(1).strip("[]"), (int(found.group(2)) if found.group(2) else None)


def origin_allowed(origin: str, host: str) -> bool:
    """Whether ``Origin`` is the panel itself: http, a loopback host name and
    the same port as the request's ``Host``. ``null`` (a sandboxed frame, a
    file page) is foreign."""
    try:
        parts = urlsplit(origin)
        port = parts.port or 80
    except ValueError:
        return False
    _, host_port = split_host(host)
    return parts.scheme == "http" and (parts.hostname or "") in LOOPBACK and port == (host_port or 80)


def _same(given: str | None, expected: str) -> bool:
    return given is not None and hmac.compare_digest(given.encode(), expected.encode())


class Guard:
    """ASGI middleware applying the checks of the module docstring to every
    HTTP request before ``app`` sees it. ``token`` None: no token needed
    (the other checks stay). ``csrf``: the value mutations must send."""

    def __init__(self, app, *, token: str | None, csrf: str, port: int):
        self.app = app
        self.token = token
        self.csrf = csrf
        self.cookie = cookie_name(port)
        self.on_first_visit = None  # called once the token was exchanged for the cookie (app.serve's opener)

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        pairs = [(k.decode("latin-1").lower(), v.decode("latin-1")) for k, v in scope.get("headers", ())]
        headers = dict(pairs)
        twice = sorted({k for k, _ in pairs if k in _SINGLE and sum(1 for n, _ in pairs if n == k) > 1})
        why = f"header(s) sent more than once: {', '.join(twice)}" if twice else self.refusal(scope, headers)
        if why:
            return await _reply(send, 403, {"error": why, "kind": "Forbidden"})
        query = dict(parse_qsl(scope.get("query_string", b"").decode("latin-1"), keep_blank_values=True))
        if self.token is not None and "token" in query and scope["method"] in SAFE_METHODS:
            # First visit: keep the token in a cookie and drop it from the address bar and history.
            rest = urlencode({k: v for k, v in query.items() if k != "token"})
            location = redirect_path(scope) + (f"?{rest}" if rest else "")
            cookie = f"{self.cookie}={self.token}; Path=/; HttpOnly; SameSite=Strict"
            if self.on_first_visit is not None and self._has_token(scope, headers):
                self.on_first_visit()
            if headers.get("sec-fetch-site", "same-origin") not in ("same-origin", "none"):
                # Sent on from another site (--open's local page): a redirect would stay cross-site, without the
                # cookie; a page of the panel's own moves on, same-origin, with it.
                return await _page(send, location, [(b"set-cookie", cookie.encode())])
            return await _reply(send, 303, None, [(b"location", location.encode()), (b"set-cookie", cookie.encode())])
        if scope["method"] not in SAFE_METHODS:
            body = await _read_body(headers, receive)
            if body is None:
                return await _reply(send, 413, {"error": f"the request body is larger than {MAX_BODY} bytes",
                                                "kind": "TooLarge"})
            receive = _replay(body)
        return await self.app(scope, receive, send)

    def refusal(self, scope, headers: dict) -> str | None:
        """Why the request is refused (the 403's message), or None."""
        host = headers.get("host", "")
        if split_host(host)[0] not in LOOPBACK:
            return f"Host {host!r} is not a loopback name; the panel answers on 127.0.0.1 only"
        origin = headers.get("origin")
        if origin is not None and not origin_allowed(origin, host):
            return f"Origin {origin!r} is not this panel"
        if headers.get("sec-fetch-site", "same-origin") not in ("same-origin", "none") and not self._entering(scope):
            return "a request from another site"
        if self.token is not None and not self._has_token(scope, headers):
            return "missing or wrong token: open the address `memdir panel` printed"
        if scope["method"] not in SAFE_METHODS:
            media = headers.get("content-type", "").split(";")[0].strip().lower()
            if media != "application/json":
                return "a change must be sent as JSON (Content-Type: application/json)"
            if not _same(headers.get(CSRF_HEADER), self.csrf):
                return "missing or wrong CSRF token (X-CSRF-Token)"
        return None

    def _entering(self, scope) -> bool:
        """A GET carrying the right ``?token=`` (the first visit, which only trades it for the cookie): let in
        from another site too — ``memdir panel --open``'s local page sends the browser on from ``file://``,
        and a page that knows the token needs no cross-site request to use it."""
        query = dict(parse_qsl(scope.get("query_string", b"").decode("latin-1")))
        return self.token is not None and scope["method"] == "GET" and _same(query.get("token"), self.token)

    def _has_token(self, scope, headers: dict) -> bool:
        if _same(headers.get(TOKEN_HEADER), self.token):
            return True
        for part in headers.get("cookie", "").split(";"):
            name, _, value = part.strip().partition("=")
            if name == self.cookie and _same(value, self.token):
                return True
        query = dict(parse_qsl(scope.get("query_string", b"").decode("latin-1")))
        return _same(query.get("token"), self.token)


def redirect_path(scope) -> str:
    """The path of the token redirect: the request's own as sent (``raw_path``,
    else the decoded one re-encoded), every byte outside visible ASCII
    percent-encoded and leading slashes collapsed to one, so the address
    can only name a page of the panel."""
    raw = scope.get("raw_path") or quote(scope.get("path", "/")).encode()
    text = quote(raw.decode("latin-1"), safe="/%:@!$&'()*+,;=-._~")
    return "/" + text.lstrip("/")


async def _read_body(headers: dict, receive) -> bytes | None:
    """The whole request body, or None when it is (or says it is) over :data:`MAX_BODY`."""
    declared = headers.get("content-length", "")
    if declared.isdigit() and int(declared) > MAX_BODY:
        return None
    chunks, size = [], 0
    while True:
        message = await receive()
        if message["type"] != "http.request":
            break
        chunk = message.get("body", b"")
        size += len(chunk)
        if size > MAX_BODY:
            return None
        chunks.append(chunk)
        if not message.get("more_body", False):
            break
    return b"".join(chunks)


def _replay(body: bytes):
    sent = False

    async def receive():
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        return {"type": "http.disconnect"}
    return receive


async def _page(send, location: str, headers: list) -> None:
    """A 200 page that moves the browser on to ``location`` (a path of the panel: :func:`redirect_path`)."""
    target = html.escape(location, quote=True)
    body = (f'<!doctype html><meta http-equiv="refresh" content="0; url={target}">'
            f'<a href="{target}">Open the memdir panel</a>\n').encode()
    head = [(b"content-type", b"text/html; charset=utf-8"), (b"content-length", str(len(body)).encode()),
            (b"cache-control", b"no-store"), *headers]
    await send({"type": "http.response.start", "status": 200, "headers": head})
    await send({"type": "http.response.body", "body": body})


async def _reply(send, status: int, payload: dict | None, headers: list | None = None) -> None:
    body = json.dumps(payload).encode() if payload is not None else b""
    head = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
            *(headers or [])]
    await send({"type": "http.response.start", "status": status, "headers": head})
    await send({"type": "http.response.body", "body": body})


__all__ = ["CSRF_HEADER", "Guard", "LOOPBACK", "MAX_BODY", "TOKEN_HEADER", "cookie_name", "new_token",
           "origin_allowed", "redirect_path", "split_host"]
