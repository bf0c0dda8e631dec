"""Fault injection for the replica, chosen by a spec string.

Spec: comma-separated rules, each `KIND[@PATH_PREFIX]=RATE` (random with the seed) or
`KIND[@PATH_PREFIX]*N` (the first N requests to each path), plus `seed=S`.
Kinds: `429` (with Retry-After), `500`, `503`, `timeout` (stall past the client's read timeout),
`truncate` (Content-Length larger than the body, connection closed), `yellow`/`red`/`black`
(EPO OPS X-Throttling-Control colours; black answers 403).
Example: `429*2,503=0.1,truncate@/files=0.05,seed=7`.
"""
from __future__ import annotations

import random
import re
import threading
from collections import Counter
from dataclasses import dataclass

KINDS = {"429", "500", "503", "timeout", "truncate", "yellow", "red", "black"}
_RULE = re.compile(r"^(?P<kind>[a-z0-9]+)(?:@(?P<prefix>/[^=*]*))?(?:(?P<op>[=*])(?P<val>[0-9.]+))?$")


class FaultSpecError(ValueError):
    """A --faults spec that cannot be read."""


@dataclass(frozen=True)
class Rule:
    kind: str
    prefix: str
    rate: float | None
    first_n: int | None


class Faults:
    def __init__(self, spec: str = "") -> None:
        self.rules: list[Rule] = []
        self.seed = 0
        self.retry_after = 1
        self.stall_seconds = 3.0
        for part in filter(None, (p.strip() for p in (spec or "").split(","))):
            self._add(part)
        self._rng = random.Random(self.seed)
        self._seen: Counter[tuple[str, str]] = Counter()
        self._lock = threading.Lock()
        self.injected: Counter[str] = Counter()

    def _add(self, part: str) -> None:
        if "=" in part and part.split("=", 1)[0] in ("seed", "retry_after", "stall"):
            key, val = part.split("=", 1)
            try:
                num = float(val)
            except ValueError:
                raise FaultSpecError(f"fault option {part!r}: {val!r} is not a number") from None
            if key == "seed":
                self.seed = int(num)
            elif key == "retry_after":
                self.retry_after = int(num)
            else:
                self.stall_seconds = num
            return
        m = _RULE.match(part)
        if not m or m.group("kind") not in KINDS:
            raise FaultSpecError(f"bad fault rule {part!r}; kinds: {', '.join(sorted(KINDS))}; "
                                 "form KIND[@/prefix]=RATE or KIND[@/prefix]*N")
        op, val = m.group("op"), m.group("val")
        self.rules.append(Rule(m.group("kind"), m.group("prefix") or "/",
                               float(val) if op == "=" else (1.0 if op is None else None),
                               int(float(val)) if op == "*" else None))

    def pick(self, path: str) -> str | None:
        """The fault to inject for this request, or None."""
        with self._lock:
            for rule in self.rules:
                if not path.startswith(rule.prefix):
                    continue
                key = (rule.kind + rule.prefix, path)
                self._seen[key] += 1
                if rule.first_n is not None:
                    hit = self._seen[key] <= rule.first_n
                else:
                    hit = self._rng.random() < (rule.rate or 0.0)
                if hit:
                    self.injected[rule.kind] += 1
                    return rule.kind
        return None
