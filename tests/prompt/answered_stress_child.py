"""Child of test_pending_answered_reopen: a hook recording answers, or a drop by id in a loop (one layer lock)."""

import fcntl
import json
import os
import random
import sys
from pathlib import Path

from memdir.files.fsio import atomic_write
from memdir.prompt import answered

role, layer, who, n = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
kept_file, lock_file = os.path.join(layer, "kept.json"), os.path.join(layer, "layer.lock")


def kept() -> set:
    with open(kept_file) as handle:
        return set(json.load(handle))


def rec(ident: str) -> dict:
    return {"id": ident, "text": "t", "name": "m", "seq": 1, "ts": "t", "reason": "r", "at": 1.0}


if role == "hook":  # its own finding, always kept, and one a drop takes out
    for j in range(n):
        mine = f"u-{who}-{j}"
        answered._record(layer, answered.ANSWERED_FILE, [rec(mine), rec(f"d-{random.randrange(200)}")],
                         lambda mine=mine: kept() | {mine})
else:  # drops back to back, each under the layer lock, as `memdir review --drop ID`
    for k in range(int(who), 200, 2):
        with open(lock_file, "a") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)

            def change(did=f"d-{k}"):
                ids = kept()
                ids.discard(did)
                atomic_write(Path(kept_file), json.dumps(sorted(ids)).encode())

            answered.dropping(layer, [f"d-{k}"], change)
