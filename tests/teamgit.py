"""Real git for the team layer's tests: a bare remote, clones, two people."""

from __future__ import annotations

import subprocess
import time
from pathlib import Path

from memdir import Memory


def git(cwd: Path, *args: str, check: bool = True) -> subprocess.CompletedProcess:
    """Run git in ``cwd`` as the clone's person; output captured as text."""
    return subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, check=check, timeout=60)


class Clone:
    """One person's clone of the shared repository and their own memdir home."""

    def __init__(self, tmp: Path, remote: Path, who: str):
        self.root = tmp / who
        self.home = tmp / f"home-{who}"
        git(tmp, "clone", "-q", str(remote), str(self.root))
        git(self.root, "config", "user.name", who)
        git(self.root, "config", "user.email", f"{who.lower()}@example.com")
        git(self.root, "config", "pull.rebase", "false")

    def memory(self, actor: str = "human", **overrides) -> Memory:
        return Memory.open(home=self.home, project=self.root, actor=actor, **overrides)

    def trust(self) -> None:
        """``memdir team trust`` in this clone: its team memory reaches this person's agent."""
        self.memory().team_trust()

    @property
    def team_dir(self) -> Path:
        return self.root / ".claude" / "memory"

    def commit_all(self, message: str) -> None:
        git(self.root, "add", "-A")
        git(self.root, "commit", "-q", "-m", message)

    def push(self) -> None:
        git(self.root, "push", "-q", "origin", "main")

    def pull(self, check: bool = True) -> subprocess.CompletedProcess:
        return git(self.root, "pull", "-q", "origin", "main", check=check)

    def publish(self, message: str, *to: Clone) -> None:
        """Commit everything as ``message``, push, and pull it into each clone of ``to``."""
        self.commit_all(message)
        self.push()
        for other in to:
            other.pull()


def diverge(a: Clone, b: Clone, name: str, a_change: dict, b_change: dict, *,
            pause: float = 0.0) -> subprocess.CompletedProcess:
    """Two people change the team memory ``name``: A writes ``a_change`` (:meth:`memdir.Memory.write`'s fields),
    commits "A's change" and pushes; B writes ``b_change`` and commits "B's change"; B pulls. ``pause``: seconds
    waited before each change (1.1: the ``updated:`` lines differ, as between two people). Returns git's answer to
    the pull (``check=False``: a conflict is an answer)."""
    time.sleep(pause)
    a.memory().write(name, scope="team", **a_change)
    a.commit_all("A's change")
    a.push()
    time.sleep(pause)
    b.memory().write(name, scope="team", **b_change)
    b.commit_all("B's change")
    return b.pull(check=False)


def shared_repository(tmp: Path, *, trust: bool = True) -> tuple[Clone, Clone]:
    """A bare remote with one commit (README and an initialized team layer,
    made by A) and two clones, A and B, each with its own MEMDIR_HOME. A trusts its
    team layer (``team init`` does); B trusts it too unless ``trust`` is False (a fresh clone)."""
    remote = tmp / "remote.git"
    git(tmp, "init", "-q", "--bare", "-b", "main", str(remote))
    a = Clone(tmp, remote, "A")
    (a.root / "README.md").write_text("# app\n", encoding="utf-8")
    git(a.root, "checkout", "-q", "-b", "main")
    a.memory().team_init()
    a.commit_all("start, with a team memory directory")
    a.push()
    b = Clone(tmp, remote, "B")
    if trust:
        b.trust()
    return a, b
