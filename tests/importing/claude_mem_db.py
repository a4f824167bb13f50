"""A claude-mem database for the import tests, built with the tables claude-mem's migrations leave
(thedotmack/claude-mem, src/services/sqlite/: sdk_sessions, observations, session_summaries,
directives; facts, concepts and files as JSON arrays, as its storeObservation writes them), in WAL
mode as its worker keeps it. ``legacy=True`` builds the older shape (``sdk_session_id``, a ``text``
column instead of the structured ones)."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

CURRENT = """
CREATE TABLE sdk_sessions (
  id INTEGER PRIMARY KEY AUTOINCREMENT, content_session_id TEXT UNIQUE NOT NULL, memory_session_id TEXT UNIQUE,
  project TEXT NOT NULL, platform_source TEXT NOT NULL DEFAULT 'claude', user_prompt TEXT, started_at TEXT NOT NULL,
  started_at_epoch INTEGER NOT NULL, completed_at TEXT, completed_at_epoch INTEGER,
  status TEXT NOT NULL DEFAULT 'active' CHECK(status IN ('active', 'completed', 'failed')),
  worker_port INTEGER, prompt_counter INTEGER DEFAULT 0, custom_title TEXT);
CREATE TABLE observations (
  id INTEGER PRIMARY KEY AUTOINCREMENT, memory_session_id TEXT NOT NULL, project TEXT NOT NULL, text TEXT,
  type TEXT NOT NULL, title TEXT, subtitle TEXT, facts TEXT, narrative TEXT, concepts TEXT, files_read TEXT,
  files_modified TEXT, prompt_number INTEGER, discovery_tokens INTEGER DEFAULT 0, content_hash TEXT,
  agent_type TEXT, agent_id TEXT, merged_into_project TEXT, generated_by_model TEXT, metadata TEXT,
  created_at TEXT NOT NULL, created_at_epoch INTEGER NOT NULL,
  FOREIGN KEY(memory_session_id) REFERENCES sdk_sessions(memory_session_id) ON DELETE CASCADE ON UPDATE CASCADE,
  UNIQUE(memory_session_id, content_hash));
CREATE TABLE session_summaries (
  id INTEGER PRIMARY KEY AUTOINCREMENT, memory_session_id TEXT NOT NULL, project TEXT NOT NULL, request TEXT,
  investigated TEXT, learned TEXT, completed TEXT, next_steps TEXT, files_read TEXT, files_edited TEXT, notes TEXT,
  prompt_number INTEGER, discovery_tokens INTEGER DEFAULT 0, merged_into_project TEXT, created_at TEXT NOT NULL,
  created_at_epoch INTEGER NOT NULL);
CREATE TABLE directives (
  id INTEGER PRIMARY KEY AUTOINCREMENT, scope TEXT NOT NULL DEFAULT 'global', project TEXT, content TEXT NOT NULL,
  status TEXT NOT NULL DEFAULT 'active', source TEXT NOT NULL DEFAULT 'manual', created_at TEXT NOT NULL,
  created_at_epoch INTEGER NOT NULL, updated_at_epoch INTEGER NOT NULL);
"""
LEGACY = """
CREATE TABLE sdk_sessions (
  id INTEGER PRIMARY KEY AUTOINCREMENT, claude_session_id TEXT UNIQUE NOT NULL, sdk_session_id TEXT UNIQUE,
  project TEXT NOT NULL, started_at TEXT NOT NULL, started_at_epoch INTEGER NOT NULL, status TEXT);
CREATE TABLE observations (
  id INTEGER PRIMARY KEY AUTOINCREMENT, sdk_session_id TEXT NOT NULL, project TEXT NOT NULL, text TEXT NOT NULL,
  type TEXT NOT NULL CHECK(type IN ('decision', 'bugfix', 'feature', 'refactor', 'discovery')),
  created_at TEXT NOT NULL, created_at_epoch INTEGER NOT NULL);
"""
KINDS = ("decision", "discovery", "bugfix", "feature", "change", "refactor")
EPOCH = 1_760_000_000_000


def build(path: Path, project: str, *, observations: int = 300, other: int = 20, summaries: int = 10,
          legacy: bool = False) -> dict:
    """Write the database at ``path``: ``observations`` rows for ``project`` cycling through
    :data:`KINDS` (unique titles), ``other`` rows of another project, ``summaries`` session summaries
    (every other one stating what was learned) and three directives. Returns the counts by kind."""
    db = sqlite3.connect(path)
    db.execute("PRAGMA journal_mode = WAL")
    db.executescript(LEGACY if legacy else CURRENT)
    session = "mem-session-1"
    if legacy:
        db.execute("INSERT INTO sdk_sessions (claude_session_id, sdk_session_id, project, started_at, "
                   "started_at_epoch) VALUES ('c1', ?, ?, '2025-10-09T00:00:00Z', ?)", (session, project, EPOCH))
    else:
        db.execute("INSERT INTO sdk_sessions (content_session_id, memory_session_id, project, started_at, "
                   "started_at_epoch) VALUES ('c1', ?, ?, '2025-10-09T00:00:00Z', ?)", (session, project, EPOCH))
    counts: dict = {}
    kinds = tuple(k for k in KINDS if k != "change") if legacy else KINDS  # the older CHECK knows no change
    rows = [(project, kinds[n % len(kinds)], n) for n in range(observations)]
    rows += [("someone-elses-app", "decision", observations + n) for n in range(other)]
    for owner, kind, n in rows:
        counts[(owner, kind)] = counts.get((owner, kind), 0) + 1
        title = f"{kind.title()} number {n} about module m{n}"
        narrative = f"Observation {n}: the {kind} concerns module m{n}; it was seen while working on task {n}."
        stamp = f"2025-10-09T00:{n // 60 % 60:02d}:{n % 60:02d}Z"
        if legacy:
            db.execute("INSERT INTO observations (sdk_session_id, project, text, type, created_at, created_at_epoch) "
                       "VALUES (?, ?, ?, ?, ?, ?)", (session, owner, f"{title}\n{narrative}", kind, stamp, EPOCH + n))
            continue
        db.execute(
            "INSERT INTO observations (memory_session_id, project, type, title, subtitle, facts, narrative, concepts, "
            "files_read, files_modified, prompt_number, content_hash, created_at, created_at_epoch) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (session, owner, kind, title, f"Why m{n} matters", json.dumps([f"m{n} uses port {5000 + n}"]),
             narrative, json.dumps(["architecture", f"m{n}"]), json.dumps([f"src/m{n}.py"]), json.dumps([]), 1,
             f"hash-{n}", stamp, EPOCH + n))
    for n in range(0 if legacy else summaries):
        db.execute("INSERT INTO session_summaries (memory_session_id, project, request, learned, completed, "
                   "next_steps, created_at, created_at_epoch) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                   (session, project, f"Request {n}", f"Lesson {n}: retries need jitter in worker {n}."
                    if n % 2 == 0 else None, f"Done {n}", f"Next {n}", "2025-10-09T01:00:00Z", EPOCH + 10_000 + n))
    if not legacy:
        for scope, owner, content, status in (("global", None, "Always answer in British English.", "active"),
                                              ("project", project, "Run make check before every commit.", "active"),
                                              ("global", None, "An old rule nobody follows.", "archived")):
            db.execute("INSERT INTO directives (scope, project, content, status, created_at, created_at_epoch, "
                       "updated_at_epoch) VALUES (?, ?, ?, ?, '2025-10-09T00:00:00Z', ?, ?)",
                       (scope, owner, content, status, EPOCH, EPOCH))
    db.commit()
    db.close()
    return counts
