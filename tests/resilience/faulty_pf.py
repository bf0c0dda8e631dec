"""`pf` with the nightly's in-process replica injecting faults (`pf run` has no --faults option yet).

Usage: python -m tests.resilience.faulty_pf SPEC COUNTS_JSON pf-args...  The injected-fault counts are
written to COUNTS_JSON when the command ends.
"""
from __future__ import annotations

import json
import sys
from collections import Counter

import flows.nightly as nightly
from patentfactory.upstream import Replica

INJECTED: Counter[str] = Counter()


def main() -> int:
    spec, counts, args = sys.argv[1], sys.argv[2], sys.argv[3:]

    class FaultyReplica(Replica):
        def __init__(self, world, host: str = "127.0.0.1", port: int = 0, faults: str = "") -> None:
            super().__init__(world, host, port, faults or spec)

        def stop(self) -> None:
            INJECTED.update(self.faults.injected)
            super().stop()

    nightly.Replica = FaultyReplica
    from patentfactory.cli import app

    try:
        app(args, prog_name="pf")
    except SystemExit as exc:
        return int(exc.code or 0)
    finally:
        with open(counts, "w") as fh:
            json.dump(dict(INJECTED), fh)
    return 0


if __name__ == "__main__":
    sys.exit(main())
