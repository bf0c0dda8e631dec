"""EPO OPS 3.2 client: OAuth2 client credentials, throttling colours, quotas, range paging.

The token is cached until shortly before it expires and refreshed on a 401. Every response's
`X-Throttling-Control` header (e.g. `busy (images=green:200, inpadoc=yellow:30, retrieval=red:10,
search=green:30)`) sets the pace per service: green -> the advertised rate, yellow -> half of it,
red -> a long pause, black -> stop (OpsStopped). A 403 with a quota reason stops too. Credentials
come from the caller (env via config), are sent only in the auth request and never logged.

One client may be shared by several threads (the Patent-CR fetch fans out over grants): each request
reserves the next start slot of its service under a lock, so the starts stay spaced by the current colour's
pace however many threads ask, and concurrency only hides latency. Red spaces starts by 10 s or more, which
makes any pool effectively serial; black stops every thread.
"""
from __future__ import annotations

import logging
import re
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

import requests

from ..http import HttpClient, HttpError, RetryPolicy

log = logging.getLogger(__name__)
LIVE_BASE_URL = "https://ops.epo.org/3.2"
_SERVICE = re.compile(r"(\w+)=(green|yellow|red|black):(\d+)")
_STATE = re.compile(r"^\s*(idle|busy|overloaded)")
PAUSE = {"green": 1.0, "yellow": 2.0, "red": 10.0}
FIRST_PACE = 1.0  # seconds between starts while no answer has told the pace yet (a concurrent first burst)


class OpsStopped(RuntimeError):
    """OPS said stop: black throttling colour or a quota 403. Resume later from the ledger."""


@dataclass
class Throttle:
    state: str = "idle"
    services: dict[str, tuple[str, int]] = field(default_factory=dict)

    @classmethod
    def parse(cls, header: str | None) -> "Throttle":
        if not header:
            return cls()
        m = _STATE.match(header)
        return cls(m.group(1) if m else "unknown",
                   {s: (c, int(n)) for s, c, n in _SERVICE.findall(header)})

    def delay(self, service: str) -> float:
        """Seconds to wait before the next call to `service` (raises on black)."""
        colour, per_minute = self.services.get(service, ("green", 0))
        if colour == "black":
            raise OpsStopped(f"OPS throttling is black for {service!r} ({self.state}); stop and resume later")
        base = 60.0 / per_minute if per_minute else 0.0
        return base * PAUSE[colour] if colour != "red" else max(PAUSE["red"], base * 4)


def _service_of(path: str) -> str:
    if "/family/" in path:
        return "inpadoc"
    if "/search" in path:
        return "search"
    return "retrieval"


class OpsClient:
    def __init__(self, key: str, secret: str, base_url: str = LIVE_BASE_URL, *,
                 sleep: Callable[[float], None] = time.sleep, retry: RetryPolicy = RetryPolicy(),
                 clock: Callable[[], float] = time.monotonic) -> None:
        """`sleep` and `clock` are the waits and the time the pace is kept with (a test reads the start slots off
        them instead of timing threads on a loaded machine)."""
        if not key or not secret:
            raise ValueError("EPO OPS needs EPO_OPS_KEY and EPO_OPS_SECRET in the environment")
        self._key, self._secret = key, secret
        self.http = HttpClient(base_url, retry=retry, sleep=sleep)
        self._sleep, self._clock = sleep, clock
        self._token: str | None = None
        self._expires = 0.0
        self.throttle = Throttle()
        self.requests = 0
        self._lock = threading.Lock()  # throttle, request counter and start slots
        self._token_lock = threading.Lock()  # the token and its refresh
        self._last_start: dict[str, float] = {}

    def __repr__(self) -> str:  # never show credentials
        return f"OpsClient({self.http.base_url!r})"

    def _fetch_token(self) -> str:
        resp = self.http.post("auth/accesstoken", data={"grant_type": "client_credentials"},
                              auth=(self._key, self._secret),
                              headers={"Content-Type": "application/x-www-form-urlencoded"})
        if resp.status_code != 200:
            raise HttpError(f"OPS authentication failed: HTTP {resp.status_code}", resp.status_code)
        body = resp.json()
        self._token = body["access_token"]
        self._expires = self._clock() + int(body.get("expires_in", 1200)) - 60
        return self._token

    def token(self) -> str:
        with self._token_lock:  # one refresh, however many threads find the token expired
            if self._token is None or self._clock() >= self._expires:
                return self._fetch_token()
            return self._token

    def _reserve(self, service: str) -> float:
        """Seconds this request waits: its start slot is one pace (at the latest colour) after the slot of
        the service's previous request, so concurrent callers queue up instead of bursting."""
        with self._lock:
            now, last = self._clock(), self._last_start.get(service)
            pace = self.throttle.delay(service) if self.throttle.services else FIRST_PACE
            slot = now if last is None else max(now, last + pace)
            self._last_start[service] = slot
            return slot - now

    def get(self, path: str, params: dict | None = None, headers: dict | None = None) -> requests.Response | None:
        """GET a REST path (below `rest-services/`); None for 404; raises OpsStopped on black/quota."""
        service = _service_of(path)
        wait = self._reserve(service)
        if wait:
            self._sleep(wait)
        for attempt in range(2):
            hdrs = {"Authorization": f"Bearer {self.token()}", **(headers or {})}
            resp = self.http.get(f"rest-services/{path.lstrip('/')}", params=params, headers=hdrs)
            with self._lock:
                self.requests += 1
                self.throttle = Throttle.parse(resp.headers.get("X-Throttling-Control"))
            if resp.status_code == 401 and attempt == 0:
                log.info("OPS token rejected; refreshing")
                with self._token_lock:
                    self._token = None
                continue
            break
        if resp.status_code == 404:
            return None
        if resp.status_code == 403:
            reason = resp.headers.get("X-Rejection-Reason") or resp.text[:200]
            raise OpsStopped(f"OPS refused the request (403: {reason}); quota or block, resume later")
        if resp.status_code >= 400:
            raise HttpError(f"OPS GET {path}: HTTP {resp.status_code}", resp.status_code)
        self.throttle.delay(service)  # raises when the answer itself says black
        return resp

    def published(self, pub: str, endpoint: str, ref_type: str = "docdb") -> bytes | None:
        """biblio | claims | description | abstract for `EP.2400812.A1` (docdb) or `EP2400812` (epodoc)."""
        resp = self.get(f"published-data/publication/{ref_type}/{pub}/{endpoint}")
        return resp.content if resp is not None else None

    def family(self, pub: str, biblio: bool = True) -> bytes | None:
        resp = self.get(f"family/publication/docdb/{pub}" + ("/biblio" if biblio else ""))
        return resp.content if resp is not None else None

    def search_pages(self, cql: str, page: int = 100, limit: int = 2000) -> Iterator[bytes]:
        """Published-data search with `Range` paging (OPS caps a query at 2,000 results)."""
        start = 1
        while start <= limit:
            end = min(start + page - 1, limit)
            resp = self.get("published-data/search", params={"q": cql, "Range": f"{start}-{end}"})
            if resp is None:
                return
            yield resp.content
            total = _total_count(resp.content)
            if total is None or end >= total:
                return
            start = end + 1


def _total_count(xml: bytes) -> int | None:
    m = re.search(rb'total-result-count="(\d+)"', xml)
    return int(m.group(1)) if m else None
