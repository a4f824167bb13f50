"""The home as the web panel shows it: one session per project, every layer once.

A :class:`~memdir.Memory` sees the user layer and one project's layers. The
panel shows the whole home, so it opens one facade per project layer the
home holds (:func:`memdir.operations.maintenance.projects`) plus one without a
project, each as the ``human`` actor, and lists each session's layers
(whatever :meth:`Memory.scopes` says they are, so a new kind of layer shows
up without a change here), each layer once, by its directory.

A layer is named in addresses by its *ref*, ``<session>:<scope>``: the
session is ``home`` (no project) or the project's key, so ``home:user`` and
``proj-1a2b3c4d5e6f:project``.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ...api import Memory
from ...errors import MemdirError, NotFound
from ...operations import maintenance
from ...results.maintenance import LayerStatus, ProjectInfo
from ...settings import Settings

NO_PROJECT = "home"


@dataclass(frozen=True)
class LayerView:
    """One layer as the panel lists it: its ``ref``, ``scope``, the project
    ``root`` of its session (None for the session without a project), the
    layer's :class:`LayerStatus`, and the size of the context block that
    session injects against its budget (UTF-8 bytes)."""

    ref: str
    scope: str
    root: str | None
    status: LayerStatus
    context_bytes: int
    context_budget: int

    @property
    def budget_percent(self) -> int:
        """The context block's size as a whole percentage of its budget."""
        return round(100 * self.context_bytes / self.context_budget) if self.context_budget else 0

    def to_dict(self) -> dict:
        """The JSON form: the fields, the status as its own ``to_dict()``."""
        return {"ref": self.ref, "scope": self.scope, "root": self.root, "status": self.status.to_dict(),
                "context_bytes": self.context_bytes, "context_budget": self.context_budget,
                "budget_percent": self.budget_percent}


class PanelHome:
    """The memdir ``home`` (absolute) seen through one facade per session;
    ``settings`` are loaded once, at the panel's start."""

    def __init__(self, home: Path, settings: Settings):
        self.home = Path(home)
        self.settings = settings

    def projects(self) -> tuple[ProjectInfo, ...]:
        """The home's project layers (:func:`memdir.operations.maintenance.projects`)."""
        return maintenance.projects(self.home).projects

    def _open(self, info: ProjectInfo) -> Memory | None:
        """The facade of project layer ``info``, or None when its root is gone
        or no longer leads to this layer (moved into another git work tree,
        become ``$HOME``…)."""
        if not info.exists:
            return None
        try:
            mem = Memory.open(self.home, info.root, actor="human", use_cwd=False, settings=self.settings)
        except MemdirError:
            return None
        return mem if str(mem.session.layer_dir("project")) == info.path else None

    def memory(self, key: str) -> Memory:
        """The facade of session ``key`` (``home`` or a project key), as a
        person. Raises :class:`NotFound` for an unknown key or a project
        layer the panel cannot open (:meth:`unavailable`)."""
        if key == NO_PROJECT:
            return Memory.open(self.home, None, actor="human", use_cwd=False, settings=self.settings)
        for info in self.projects():
            mem = self._open(info) if info.key == key else None
            if mem is not None:
                return mem
        raise NotFound(f"no project layer {key!r} with an existing project root under {self.home}")

    def sessions(self) -> list[tuple[str, Memory]]:
        """``(key, facade)`` for the session without a project, then every
        project layer that can be opened, in key order."""
        out = [(NO_PROJECT, self.memory(NO_PROJECT))]
        out.extend((info.key, mem) for info in self.projects() if (mem := self._open(info)) is not None)
        return out

    def unavailable(self) -> list[ProjectInfo]:
        """Project layers the panel cannot open: their root is unknown, gone,
        or now leads to another layer."""
        return [info for info in self.projects() if self._open(info) is None]

    def layers(self) -> list[tuple[str, Memory, str]]:
        """``(ref, facade, scope)`` for every layer of every session, each
        layer once (by directory), in session order."""
        seen, out = set(), []
        for key, mem in self.sessions():
            for scope in mem.scopes():
                path = str(mem.session.layer_dir(scope))
                if path not in seen:
                    seen.add(path)
                    out.append((f"{key}:{scope}", mem, scope))
        return out

    def views(self) -> list[LayerView]:
        """A :class:`LayerView` per layer (:meth:`layers`), with each session's status."""
        statuses: dict[int, object] = {}
        out = []
        for ref, mem, scope in self.layers():
            status = statuses.get(id(mem))
            if status is None:
                status = statuses[id(mem)] = mem.status()
            layer = next(item for item in status.layers if item.scope == scope)
            out.append(LayerView(ref, scope, status.project_root, layer, status.context_bytes, status.context_budget))
        return out

    def resolve(self, ref: str) -> tuple[Memory, str]:
        """The facade and scope of layer ``ref``. Raises :class:`NotFound`."""
        key, _, scope = ref.partition(":")
        for known, mem, known_scope in self.layers():
            if known == ref:
                return mem, known_scope
        mem = self.memory(key)  # raises NotFound for an unknown session
        raise NotFound(f"no layer {scope!r} in session {key!r} (it has {', '.join(mem.scopes()) or 'none'})")


__all__ = ["LayerView", "NO_PROJECT", "PanelHome"]
