"""Who may talk to the web panel: the checks run before any route (DESIGN §10).

The panel listens on 127.0.0.1 only, yet any web page the person opens can
make their browser send requests there. :class:`Guard`, a plain ASGI
middleware, answers 403 to every request that is not from the panel's own
page or a local script:

* ``Host`` must name a loopback host (``127.0.0.1``, ``localhost``,
  ``::1``): a DNS-rebinding page arrives with its own host name.
* ``Origin``, when sent, must be the panel's own (``http``, a loopback host,
  the ``Host``'s port); ``Sec-Fetch-Site``, when sent, must be
  ``same-origin`` or ``none`` (another port on localhost is "same-site").
* the start's random token: ``?token=…`` once (answered with a cookie
  holding it and a redirect to the same address without it), then the
  cookie, or an ``X-Memdir-Token`` header from scripts. ``token=None``
  (``memdir panel --no-token``) skips this check only.
* a mutation (any method but GET/HEAD/OPTIONS) must carry a JSON body
  (``Content-Type: application/json``) and the ``X-CSRF-Token`` header the
  pages hold: an HTML form from another site can send neither.
"""

from __future__ import annotations

import hmac
import json
import secrets
from urllib.parse import parse_qsl, urlencode, urlsplit

LOOPBACK = frozenset({"127.0.0.1", "localhost", "::1"})
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
TOKEN_HEADER = "x-memdir-token"
CSRF_HEADER = "x-csrf-token"


def new_token() -> str:
    """A random URL-safe token (32 bytes of ``secrets``), one per panel start."""
    return secrets.token_urlsafe(32)


def cookie_name(port: int) -> str:
    """The token cookie's name: cookies are shared by every port of a host,
    so two panels on one machine must not overwrite each other's."""
    return f"memdir_panel_{port}"


def split_host(value: str) -> tuple[str, int | None]:
    """``("127.0.0.1", 8765)`` from a ``Host`` value (``[::1]:80`` too);
    the port is None when absent or not a number."""
    value = value.strip().lower()
    if value.startswith("["):
        name, _, rest = value[1:].partition("]")
        port = rest[1:] if rest.startswith(":") else ""
    else:
        name, _, port = value.partition(":")
    return name, (int(port) if port.isdigit() else None)


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

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", ())}
        why = self.refusal(scope, headers)
        if why:
            return await _reply(send, 403, {"error": why, "kind": "Forbidden"})
        query = dict(parse_qsl(scope.get("query_string", b"").decode("latin-1"), keep_blank_values=True))
        if self.token is not None and "token" in query and scope["method"] in SAFE_METHODS:
            # First visit: keep the token in a cookie and drop it from the address bar and history.
            rest = urlencode({k: v for k, v in query.items() if k != "token"})
            location = scope.get("path", "/") + (f"?{rest}" if rest else "")
            cookie = f"{self.cookie}={self.token}; Path=/; HttpOnly; SameSite=Strict"
            return await _reply(send, 303, None, [(b"location", location.encode()), (b"set-cookie", cookie.encode())])
        return await self.app(scope, receive, send)

    def refusal(self, scope, headers: dict) -> str | None:
        """Why the request is refused (the 403's message), or None."""
        host = headers.get("host", "")
        if split_host(host)[0] not in LOOPBACK:
            return f"Host {host!r} is not a loopback name; the panel answers on 127.0.0.1 only"
        origin = headers.get("origin")
        if origin is not None and not origin_allowed(origin, host):
            return f"Origin {origin!r} is not this panel"
        if headers.get("sec-fetch-site", "same-origin") not in ("same-origin", "none"):
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

    def _has_token(self, scope, headers: dict) -> bool:
        if _same(headers.get(TOKEN_HEADER), self.token):
            return True
        for part in headers.get("cookie", "").split(";"):
            name, _, value = part.strip().partition("=")
            if name == self.cookie and _same(value, self.token):
                return True
        query = dict(parse_qsl(scope.get("query_string", b"").decode("latin-1")))
        return _same(query.get("token"), self.token)


async def _reply(send, status: int, payload: dict | None, headers: list | None = None) -> None:
    body = json.dumps(payload).encode() if payload is not None else b""
    head = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
            *(headers or [])]
    await send({"type": "http.response.start", "status": status, "headers": head})
    await send({"type": "http.response.body", "body": body})


__all__ = ["CSRF_HEADER", "Guard", "LOOPBACK", "TOKEN_HEADER", "cookie_name", "new_token", "origin_allowed",
           "split_host"]
