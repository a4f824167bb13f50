"""What a session does: the memory tools, a person's decisions, upkeep, the team layer (DESIGN §7).

``lookup`` (which memory a name means, what a "not found" says, which
tombstones guard a write), ``memories`` (write, read, list, delete, prune,
clear, history, restore), ``trust`` (what only a person decides), ``team``
(what a person does with the team layer), ``maintenance`` (status, doctor,
the journal), ``verify`` (verify, repair), ``relocate`` (a moved project's layer).
Each returns a typed result of :mod:`memdir.results`.

May import: the standard library and the packages before it.

Must not import: importing, search, consolidation, render, tools, api, integrations.
"""
