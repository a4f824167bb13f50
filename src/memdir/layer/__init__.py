"""One layer: its lock, its critical section, its journal, history and ``MEMORY.md`` (DESIGN §1.2, §2, §5).

``layer`` (a layer directory, its lock and the transaction it runs every
change in), ``waiting`` (how a writer waits its turn for the lock: in a line, in the kernel), ``commit`` (how one file change is staged, committed or undone),
``journal`` (the hash-chained log and the version objects), ``chain`` (the
journal checked whole: verify, damaged lines), ``history``
(versions of a memory, a layer as of a moment), ``index`` (``MEMORY.md``),
``manifest`` and ``rows`` (what the last transaction learned of the files, for the next
process, read row by row), ``succession`` (which memory stands now for a superseded one), ``team`` (the
team layer: files in the repository, the rest in the home), ``drift``
(tombstones checked against the journal), ``dismissals`` (proposals a person dismissed).

May import: the standard library, filelock, and the packages before it
(base modules, text, files, tombstones).

Must not import: session, results, gateway and every package after them.
"""
