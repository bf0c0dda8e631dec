"""Whether the process a marker names still runs: a lock's holder (the embedding cache), a staging folder's writer
(publish). One check, so both read a pid the same way."""
from __future__ import annotations

import os


def process_alive(pid: int) -> bool:
    """`kill(pid, 0)` on this host: gone -> False; alive, ours or another user's (EPERM) -> True."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True
