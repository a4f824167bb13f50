"""A thread's new connection to the index keeps the locks the process's other connections hold
(memdir.search.index.connect: the file is not opened and closed again when it is there; closing any descriptor of
it would drop them all, and another process's close then deleted the -wal and -shm in use: a panel search saw
"disk I/O error" reading the index's meta)."""

from __future__ import annotations

import subprocess
import sys
import threading

from memdir import Memory
from memdir.search import index, memo


def test_a_second_threads_connection_leaves_the_wal_to_the_connections_using_it(isolated_home, project):
    mem = Memory.open(home=isolated_home, project=project, search_vectors="off")
    mem.write("staging-host", "Staging lives at staging.internal.example", "project", "VPN required.")
    assert [h.name for h in mem.search("staging")] == ["staging-host"]  # control: the index answers
    path = index.db_path(isolated_home)
    wal = path.with_name(path.name + "-wal")
    assert wal.exists()  # control: in use by this thread's connection
    opened = []
    worker = threading.Thread(target=lambda: opened.append(index.connect(isolated_home)))
    worker.start()
    worker.join()
    code = f"import sqlite3; c = sqlite3.connect({str(path)!r}); c.execute('SELECT count(*) FROM docs'); c.close()"
    subprocess.run([sys.executable, "-c", code], check=True, timeout=60)  # another process's close
    assert wal.exists()  # not deleted under the connections of this process
    fresh = []
    worker = threading.Thread(target=lambda: fresh.append(memo.generation(index.connect(isolated_home))))
    worker.start()
    worker.join()
    assert fresh == [memo.generation(index.connect(isolated_home))] and fresh[0] is not None
    assert [h.name for h in mem.search("staging")] == ["staging-host"]
