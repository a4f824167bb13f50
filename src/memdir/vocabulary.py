"""The words memory files and operations use (DESIGN §3, §4).

Kept in a module of its own, with no imports, so the hook path (which needs
the scopes and actors but not YAML) can use them.
"""

TYPES = ("user", "feedback", "project", "reference")
STATUSES = ("active", "candidate", "superseded")
# Who wrote a memory: set by the gateway from the calling path, never from the payload.
ORIGINS = ("human", "agent", "extracted", "import")
ACTORS = ORIGINS  # who calls the gateway is who the memory's origin names
# Layers, in the order the context block shows them: the person, the team (in the repository), the
# person's own notes on this project.
SCOPES = ("user", "team", "project")
# What `memdir sync init --layers` takes: the personal layers that travel (memdir.operations.sync).
SYNC_LAYERS = ("user", "user,projects")
SYNC_OFFLINE_EXIT = 3  # `memdir sync`'s exit code when the remote cannot be reached: a warning, the changes wait
SYNC_HELD = "a sync conflict waits for you"  # how doctor names a memory a sync conflict holds back
SYNC_CONFLICT_EXIT = 4  # `memdir sync`'s exit code when conflicts wait for a person (memdir sync resolve)
# Systems `memdir import` reads (memdir.importing.sources).
IMPORT_SOURCES = ("claude-code", "dsh", "dir", "mcp-memory", "basic-memory", "claude-mem", "jsonl")
# Formats `memdir export` writes (memdir.importing.export).
EXPORT_FORMATS = ("memdir", "claude-code", "jsonl")
# Optional fields a write may empty (``clear``) instead of keeping the old value.
MOST_DIGITS = 18  # a whole number memdir reads (a version, a line, a range, an offset) has at most this many digits

CLEARABLE = frozenset({"title", "importance", "valid_from", "valid_until"})
# Every action a journal event can have (memdir journal --action filters by one of them).
JOURNAL_ACTIONS = ("create", "update", "rename", "reactivate", "supersede", "read", "delete", "forget", "prune",
                   "clear", "restore", "approve", "reject", "dismiss", "promote", "resolve", "pin", "unpin", "mute", "unmute",
                   "external-edit", "external-delete", "tombstone-lift", "receipt", "intent", "move", "sync", "rechain")
# Set in the environment of the extractor_command a consolidation runs (memdir.consolidation.extractors.command):
# the client session that command starts (`claude -p`, `gemini -p`) runs memdir's hooks too, and they do nothing
# there (memdir.integrations.claude_code.hooks.run). Else its end queued its own transcript — the extraction prompt,
# quoting the person's "Remember that …" — for another consolidation, which ran the command again: a model call
# every few seconds, for good (trial28).
EXTRACTOR_ENV = "MEMDIR_EXTRACTOR_RUN"
# How a pinned memory is marked wherever it is shown, right after its name: an index line
# (MEMORY.md, after its ``(<name>.md)`` link; the context block keeps pinned lines first when it must
# leave lines out, memdir.prompt.context), a listing, a search hit, the panel. The one spelling.
PIN_MARK = " \U0001f4cc"


def kind_label(type: str | None, scope: str) -> str:
    """``(type: feedback; layer: project)``: the label every text puts after a
    memory's name — what kind of memory it is, and which layer (the person's,
    the team's, this project's) holds it. The one spelling, for the CLI and the
    tools (:mod:`memdir.render`), the recall block (:mod:`memdir.search.recall`)
    and the panel; here, below all of them, so each can import it. ``type``
    None: ``(layer: project)``, for a change that leaves the type as it is (a
    consolidation's update: nothing to say of a field it does not change)."""
    return f"(type: {type}; layer: {scope})" if type is not None else f"(layer: {scope})"


def default_type(scope: str) -> str:
    """The type of a new memory written without one, by the layer ``scope`` it goes to: ``user`` in the
    user layer (the person's layer: who they are, DESIGN §2), else ``project``. The one rule of every
    path that writes (the gateway's :func:`memdir.gateway.fields.inherit`: CLI, MCP, API, panel; the
    memory tool's file that says no type)."""
    return "user" if scope == "user" else "project"


# Default importance by type (seed-behaviour §A5); an unknown type orders as reference.
TYPE_IMPORTANCE = {"feedback": 8, "user": 7, "project": 6, "reference": 4}

# Scripts written without spaces between words: the tokenizer splits their runs into
# character bigrams (search), tombstones compare them character by character.
CJK_RANGES = (
    "\u1100-\u11ff"      # Hangul Jamo
    "\u3040-\u30ff"      # Hiragana, Katakana
    "\u3130-\u318f"      # Hangul compatibility Jamo
    "\u31f0-\u31ff"      # Katakana phonetic extensions
    "\u3400-\u4dbf"      # CJK extension A
    "\u4e00-\u9fff"      # CJK unified ideographs
    "\ua960-\ua97f"      # Hangul Jamo extended A
    "\uac00-\ud7af"      # Hangul syllables
    "\uf900-\ufaff"      # CJK compatibility ideographs
    "\U00020000-\U0002ebef"  # CJK extensions B–F
)
# Scripts written without spaces between words that are not CJK: Thai, Lao, Myanmar, Khmer. The tokenizer
# splits their runs into character bigrams as it does CJK's (search: a word inside a sentence is found;
# break13), the CJK scripts' other rules (scripts, tombstones) aside.
THAI_FIRST, THAI_LAST = "\u0e00", "\u0e7f"  # the Thai block: letters, vowel signs, tone marks, digits
SPACELESS_RANGES = (
    f"{THAI_FIRST}-{THAI_LAST}"  # Thai
    "\u0e80-\u0eff"      # Lao
    "\u1000-\u109f"      # Myanmar
    "\u1780-\u17ff"      # Khmer
)
