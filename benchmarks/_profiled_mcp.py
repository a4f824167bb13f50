"""``memdir mcp`` under cProfile, switched by signals: the server ``profile_mcp_search.py --mcp --server-profile``
starts.

    python benchmarks/_profiled_mcp.py OUT [memdir mcp's arguments…]

Runs ``memdir mcp`` as the CLI does. ``SIGUSR1`` starts the profiler; ``SIGUSR2`` stops it and writes its
stats (:mod:`pstats`' marshal format) to ``OUT``, timed in the main thread's CPU seconds
(``time.thread_time``: the waits of a loaded machine are not counted). The profiler sees the main thread alone: the event loop, the
SDK's dispatch and the tool call (run inline there); the worker threads' CPU is read from ``/proc`` instead.
"""

from __future__ import annotations

import cProfile
import signal
import sys
import time


def main() -> int:
    out, rest = sys.argv[1], sys.argv[2:]
    profile = cProfile.Profile(time.thread_time)  # CPU of the main thread: a loaded machine's waits left out

    def start(signum, frame):
        profile.enable()

    def stop(signum, frame):
        profile.disable()
        profile.dump_stats(out)

    signal.signal(signal.SIGUSR1, start)
    signal.signal(signal.SIGUSR2, stop)
    from memdir.cli import main as cli

    return cli(["mcp", *rest])


if __name__ == "__main__":
    sys.exit(main())
