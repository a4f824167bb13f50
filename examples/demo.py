"""`make demo`: memdir on a temporary home, as an agent would use it.

1. An agent working in two projects (and learning about its user) writes
   memories through the Python API.
2. We look at what lands on disk: the files, MEMORY.md, `memdir list`.
3. We print the context block injected into project A's system prompt and
   check that project B's memories are not in it.
   A team memory travels between two clones of a repository through git.
4. A finished Claude Code session transcript is consolidated into memories.
Nothing outside the temporary directory is touched.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

from memdir import Memory, TombstoneRefused


def banner(text: str) -> None:
    print(f"\n\033[1m== {text} ==\033[0m" if sys.stdout.isatty() else f"\n== {text} ==")


def git(cwd: Path, *args: str) -> str:
    done = subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, check=True,
                          env={**os.environ, "GIT_AUTHOR_NAME": "Ann", "GIT_AUTHOR_EMAIL": "ann@example.com",
                               "GIT_COMMITTER_NAME": "Ann", "GIT_COMMITTER_EMAIL": "ann@example.com"})
    return done.stdout


def team_demo(base: Path) -> bool:
    """Ann writes a team memory in her clone, commits and pushes; Bob pulls and
    his agent sees it; Ann forgets it, Bob pulls, and Bob's agent cannot write it back."""
    remote, ann_dir, bob_dir = base / "team.git", base / "ann" / "shop", base / "bob" / "shop"
    git(base, "init", "-q", "--bare", "-b", "main", str(remote))
    git(base, "clone", "-q", str(remote), str(ann_dir))
    git(ann_dir, "checkout", "-q", "-b", "main")
    ann = Memory.open(home=base / "ann-home", project=ann_dir, actor="human")
    print(f"  ann$ memdir team init  → {ann.team_init().path.replace(str(base), '…')}")
    ann.write("deploy-window", "Production deploys only Tuesday and Thursday mornings", "project",
              "Agreed in the 2026-11 retro.", scope="team")
    print("  ann$ memdir write deploy-window --scope team")
    for change in ann.team_status().changes:
        print(f"  ann$ memdir team status → {change.state} {change.path}")
    git(ann_dir, "add", "-A")
    git(ann_dir, "commit", "-q", "-m", "team memory: deploy window")
    git(ann_dir, "push", "-q", "origin", "main")
    print("  ann$ git commit && git push")
    git(base, "clone", "-q", str(remote), str(bob_dir))
    bob = Memory.open(home=base / "bob-home", project=bob_dir)  # Bob's agent, Bob's own home
    untrusted = bob.context().splitlines()[0]
    print(f"  bob$ git clone; his agent is told: {untrusted[:90]}…")
    Memory.open(home=base / "bob-home", project=bob_dir, actor="human").team_trust()
    print("  bob$ memdir team trust   (once per clone, after reviewing it)")
    bob = Memory.open(home=base / "bob-home", project=bob_dir)
    section = bob.context().split("## Team memories", 1)[-1].split("\n## ", 1)[0]
    print("  his agent's context, team section:")
    print("  " + section.strip().replace("\n", "\n  "))
    if "Production deploys only Tuesday" not in section:
        print("  the team memory did NOT reach Bob")
        return False
    ann.forget("deploy-window", reason="deploys are continuous now")
    git(ann_dir, "add", "-A")
    git(ann_dir, "commit", "-q", "-m", "forget the deploy window")
    git(ann_dir, "push", "-q", "origin", "main")
    git(bob_dir, "pull", "-q", "origin", "main")
    print("  ann$ memdir forget deploy-window; git commit && git push;  bob$ git pull")
    try:
        bob.write("deploys", "Production deploys only Tuesday and Thursday mornings", "project")
        print("  Bob's agent wrote the forgotten fact back: tombstone NOT honoured")
        return False
    except TombstoneRefused as exc:
        print(f"  Bob's agent: {str(exc)[:100]}…")
    return True


def main() -> int:
    with tempfile.TemporaryDirectory(prefix="memdir-demo-") as tmp:
        base = Path(tmp)
        home = base / "home"
        shop, blog = base / "work" / "shop-api", base / "work" / "blog"
        for root in (shop, blog):
            (root / ".git").mkdir(parents=True)
        os.environ["MEMDIR_HOME"] = str(home)

        banner("1. An agent writes memories in two projects and the user layer")
        agent_shop = Memory.open(home=home, project=shop)
        agent_blog = Memory.open(home=home, project=blog)
        writes = [
            (agent_shop, dict(name="user-role", description="Backend developer; prefers Go and terse answers",
                              type="user", scope="user",
                              body="Ten years of Go. Wants short answers with code first.")),
            (agent_shop, dict(name="indent-style", description="Use 4 spaces, never tabs, in Python",
                              type="feedback", body="Use 4 spaces.\n\n**Why:** the team's linter rejects tabs.\n\n"
                                                    "**How to apply:** every Python file in this repo.")),
            (agent_shop, dict(name="db-port", description="Dev PostgreSQL listens on 5433, not 5432",
                              type="project", pinned=True,
                              body="Moved on 2026-11-02: 5432 is taken by the system cluster. "
                                   "Connect with postgres://shop:hunter2@localhost:5433/shop.")),
            (agent_shop, dict(name="release-freeze", description="Merge freeze from 2026-12-18 for the holiday release",
                              type="project", body="Only fixes after 2026-12-18. See [[db-port]].")),
            (agent_blog, dict(name="blog-deploy", description="Blog deploys from the gh-pages branch",
                              type="project", body="Push to gh-pages; Netlify is no longer used.")),
        ]
        for agent, payload in writes:
            result = agent.write(**payload)
            note = f", {result.redactions} secret redacted" if result.redactions else ""
            print(f"  {result.operation:8} {result.scope:7} {result.name}{note}")

        banner("2. On disk: one Markdown file per memory, plus a derived MEMORY.md per layer")
        for path in sorted(p for p in home.rglob("*") if p.is_file() and ".memdir" not in p.parts):
            print(f"  {path.relative_to(home)}")
        shop_layer = agent_shop.session.layer("project").path
        print(f"\n  --- {shop_layer.relative_to(home)}/db-port.md ---")
        print("  " + (shop_layer / "db-port.md").read_text().replace("\n", "\n  "))
        print(f"  --- {shop_layer.relative_to(home)}/MEMORY.md ---")
        print("  " + (shop_layer / "MEMORY.md").read_text().rstrip().replace("\n", "\n  "))

        banner("`memdir list` in shop-api (the CLI is the human path)")
        listing = subprocess.run([sys.executable, "-m", "memdir.cli", "--project", str(shop), "list"],
                                 capture_output=True, text=True, env=dict(os.environ))
        print("  " + listing.stdout.rstrip().replace("\n", "\n  "))

        banner("3. The context block injected into shop-api's system prompt")
        block = agent_shop.context()
        print(block)
        print(f"\n  {len(block.encode())} of {agent_shop.settings.context_max_bytes} bytes")
        leaked = "gh-pages" in block
        print(f"  blog's memory in shop-api's context? {'YES — isolation broken' if leaked else 'no (isolated)'}")
        print(f"  blog's memory in blog's context?     {'yes' if 'gh-pages' in agent_blog.context() else 'NO'}")
        if leaked:
            return 1

        banner("The user says a fact is wrong: forget it, and it cannot come back")
        agent_shop.forget("release-freeze", reason="the freeze was cancelled")
        try:
            agent_shop.write("freeze", "Merge freeze from 2026-12-18 for the holiday release", "project",
                             "Only fixes after 2026-12-18. See [[db-port]].")
        except TombstoneRefused as exc:
            print(f"  {exc}")
        for version in agent_shop.history("release-freeze").versions:
            print(f"  history v{version.version}: {version.action} by {version.actor} at {version.ts}")

        banner("Team memory travels through git: two clones, two homes")
        if not team_demo(base):
            return 1

        banner("4. Consolidation: a real Claude Code session becomes memories")
        sys.path.insert(0, str(Path(__file__).resolve().parent))
        import demo_consolidate

        demo_consolidate.run(base / "home-consolidate")
    return 0


if __name__ == "__main__":
    sys.exit(main())
