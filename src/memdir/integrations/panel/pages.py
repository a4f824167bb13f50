"""The web panel's HTML pages: layers, a layer, a memory, review, tombstones, journal.

Server-rendered with Jinja2 (autoescaped: stored text is shown, never run)
from the same views as the JSON API (:mod:`.views`); each page works
without a script for reading, and ``panel_static/panel.js`` sends the
changes (pin, mute, delete, edit, restore, approve, reject, lift) to the API
as JSON with the CSRF token the page carries, showing any error inline.
"""

from __future__ import annotations

from pathlib import Path

from jinja2 import Environment, FileSystemLoader, select_autoescape
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import HTMLResponse
from starlette.routing import Route

from ...errors import MemdirError
from ...files.memfile import format_time
from ...render import memories as render
from ...text.printable import display_title, line_of, one_line, printable
from ...vocabulary import PIN_MARK, TYPES, kind_label
from . import views
from .api import STATUS, integer

TEMPLATES = Path(__file__).parent / "templates"
WARN_PERCENT = 80  # the budget bar turns to a warning above this share of the context budget
NAV = (("/", "Layers"), ("/review", "Review"), ("/tombstones", "Tombstones"), ("/journal", "Journal"))


def _env() -> Environment:
    env = Environment(loader=FileSystemLoader(TEMPLATES), autoescape=select_autoescape(default=True),
                      trim_blocks=True, lstrip_blocks=True)
    # Stored text as the store shows it (no controls, no bidi overrides), a memory by its display title;
    # the page's autoescaping reads it as text (render.cut would escape a fence tag twice: '&amp;lt;').
    env.filters.update(line=one_line, text=printable)
    env.globals.update(shown=display_title, kind_label=kind_label, pin_mark=PIN_MARK.strip())
    env.globals.update(nav=NAV, warn_percent=WARN_PERCENT, types=TYPES, cut=line_of, no_memories=render.no_memories,
                       iso=lambda t: format_time(t) if t else "-")
    return env


def routes(home, csrf: str) -> list[Route]:
    """The page routes, bound to the panel's ``home`` and CSRF token."""
    env = _env()

    def page(template: str, build):
        async def run(request: Request):
            try:
                context = await run_in_threadpool(build, request)  # the store's work off the event loop
                status = 200
            except MemdirError as exc:
                status = next((code for kind, code in STATUS if isinstance(exc, kind)), 500)
                template_name, context = "error.html", {"error": str(exc), "kind": type(exc).__name__}
            else:
                template_name = template
            html = env.get_template(template_name).render(csrf=csrf, path=request.url.path, home=str(home.home),
                                                          **context)
            return HTMLResponse(html, status_code=status, headers={
                "content-security-policy": "default-src 'self'; frame-ancestors 'none'; form-action 'self'",
                "x-frame-options": "DENY", "referrer-policy": "no-referrer", "cache-control": "no-store"})
        return run

    def layers_page(request):
        return {"title": "Layers", "layers": views.layers(home), "unavailable": home.unavailable()}

    def layer_page(request):
        return {"title": request.path_params["ref"],
                "page": views.layer(home, request.path_params["ref"], request.query_params.get("q", ""))}

    def memory_page(request):
        q = request.query_params
        a, b = q.get("a") or None, q.get("b") or None  # versions as 3 or v3 (memdir.layer.history.version_number)
        data = views.memory(home, request.path_params["ref"], request.path_params["name"],
                            version=q.get("version") or None, diff=(a, b) if a and b else None)
        return {"title": data.name, "page": data}

    def review_page(request):
        return {"title": "Review", "items": views.review(home)}

    def tombstones_page(request):
        return {"title": "Tombstones", "stones": views.tombstones(home)}

    def journal_page(request):
        q = request.query_params
        filters = {k: q.get(k, "") for k in ("layer", "actor", "action", "name")}
        filters["all"] = q.get("all", "") not in ("", "0")
        data = views.journal(home, filters["layer"], filters["actor"], filters["action"], filters["name"],
                             integer(q.get("limit") or "200", "limit"), everything=filters["all"])
        return {"title": "Journal", "page": data, "filters": filters}

    return [
        Route("/", page("layers.html", layers_page), methods=["GET"]),
        Route("/layer/{ref}", page("layer.html", layer_page), methods=["GET"]),
        Route("/layer/{ref}/m/{name}", page("memory.html", memory_page), methods=["GET"]),
        Route("/review", page("review.html", review_page), methods=["GET"]),
        Route("/tombstones", page("tombstones.html", tombstones_page), methods=["GET"]),
        Route("/journal", page("journal.html", journal_page), methods=["GET"]),
    ]


__all__ = ["NAV", "WARN_PERCENT", "routes"]
