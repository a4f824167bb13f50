"""The words memory files and operations use (DESIGN §3, §4).

Kept in a module of its own, with no imports, so the hook path (which needs
the scopes and actors but not YAML) can use them.
"""

TYPES = ("user", "feedback", "project", "reference")
STATUSES = ("active", "candidate", "superseded")
# Who wrote a memory: set by the gateway from the calling path, never from the payload.
ORIGINS = ("human", "agent", "extracted", "import")
ACTORS = ORIGINS  # who calls the gateway is who the memory's origin names
SCOPES = ("user", "project")
# Default importance by type (seed-behaviour §A5); an unknown type orders as reference.
TYPE_IMPORTANCE = {"feedback": 8, "user": 7, "project": 6, "reference": 4}
