"""The one HTTP session every source uses: timeouts, retries with backoff + jitter, Retry-After,
a per-host rate limit shared by all threads, resumable downloads.

Nothing here touches the network at import time; a client is built from configuration.
"""
from __future__ import annotations

import email.utils
import logging
import os
import random
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path
from urllib.parse import urljoin, urlsplit

import requests

from common import progress

log = logging.getLogger(__name__)
RETRY_STATUS = frozenset({429, 500, 502, 503, 504})
RETRY_EXC = (requests.ConnectionError, requests.Timeout, requests.exceptions.ChunkedEncodingError,
             requests.exceptions.ContentDecodingError)


def _code_version() -> str:
    """The installed distribution's version (pyproject.toml), read without importing the application package."""
    try:
        return metadata.version("patentfactory")
    except metadata.PackageNotFoundError:  # pragma: no cover - run from a checkout that was never installed
        return "0+unknown"


USER_AGENT = f"patentfactory/{_code_version()} (+https://github.com/patentfactory)"


class HttpError(RuntimeError):
    """A request that failed for good (non-retryable status, or retries exhausted)."""

    def __init__(self, message: str, status: int | None = None) -> None:
        super().__init__(message)
        self.status = status


@dataclass(frozen=True)
class RetryPolicy:
    attempts: int = 6
    backoff: float = 0.5      # first wait, doubled per attempt
    max_backoff: float = 60.0
    min_after_429: float = 0.0  # ODP asks for >= 5 s; set per source


class _HostLimiter:
    """Minimum interval between requests to one host, shared by every client in the process."""

    _locks: dict[str, threading.Lock] = {}
    _last: dict[str, float] = {}
    _guard = threading.Lock()

    @classmethod
    def wait(cls, host: str, min_interval: float) -> None:
        if min_interval <= 0:
            return
        with cls._guard:
            lock = cls._locks.setdefault(host, threading.Lock())
        with lock:
            delay = cls._last.get(host, 0.0) + min_interval - time.monotonic()
            if delay > 0:
                time.sleep(delay)
            cls._last[host] = time.monotonic()


def retry_after_seconds(value: str | None) -> float | None:
    """Retry-After as seconds (delta-seconds or an HTTP date)."""
    if not value:
        return None
    value = value.strip()
    if value.isdigit():
        return float(value)
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - time.time())


class HttpClient:
    def __init__(self, base_url: str, *, timeout: tuple[float, float] = (10.0, 120.0),
                 retry: RetryPolicy = RetryPolicy(), min_interval: float = 0.0,
                 headers: dict[str, str] | None = None, sleep: Callable[[float], None] = time.sleep,
                 rng: random.Random | None = None) -> None:
        self.base_url = base_url.rstrip("/") + "/"
        self.timeout, self.retry, self.min_interval = timeout, retry, min_interval
        self.session = requests.Session()
        self.session.headers.update({"User-Agent": USER_AGENT, **(headers or {})})
        self._sleep, self._rng = sleep, rng or random.Random()
        self.host = urlsplit(self.base_url).netloc
        self.on_response: Callable[[requests.Response], None] | None = None

    def url(self, path: str) -> str:
        return path if path.startswith(("http://", "https://")) else urljoin(self.base_url, path.lstrip("/"))

    def _wait(self, attempt: int, resp: requests.Response | None) -> float:
        ra = retry_after_seconds(resp.headers.get("Retry-After")) if resp is not None else None
        base = min(self.retry.max_backoff, self.retry.backoff * (2 ** attempt))
        wait = base * (0.5 + self._rng.random())  # jitter in [0.5, 1.5)
        if ra is not None:
            wait = max(wait, ra)
        if resp is not None and resp.status_code == 429:
            wait = max(wait, self.retry.min_after_429)
        return min(wait, max(self.retry.max_backoff, ra or 0.0))

    def request(self, method: str, path: str, **kw) -> requests.Response:
        """Send with retries; returns a 2xx/3xx/4xx (non-429) response, raises HttpError otherwise."""
        url = self.url(path)
        kw.setdefault("timeout", self.timeout)
        last = "no attempt"
        for attempt in range(self.retry.attempts):
            _HostLimiter.wait(self.host, self.min_interval)
            resp = None
            try:
                resp = self.session.request(method, url, **kw)
                if self.on_response:
                    self.on_response(resp)
                if resp.status_code not in RETRY_STATUS:
                    return resp
                last = f"HTTP {resp.status_code}"
            except RETRY_EXC as exc:
                last = f"{type(exc).__name__}: {str(exc)[:200]}"
            if attempt + 1 < self.retry.attempts:
                wait = self._wait(attempt, resp)
                log.warning("%s %s failed (%s); retry %d/%d in %.1fs", method, _safe(url), last, attempt + 1,
                            self.retry.attempts - 1, wait)
                self._sleep(wait)
        raise HttpError(f"{method} {_safe(url)} failed after {self.retry.attempts} attempts: {last}",
                        resp.status_code if resp is not None else None)

    def get(self, path: str, **kw) -> requests.Response:
        return self.request("GET", path, **kw)

    def post(self, path: str, **kw) -> requests.Response:
        return self.request("POST", path, **kw)

    def get_ok(self, path: str, **kw) -> requests.Response:
        resp = self.get(path, **kw)
        if resp.status_code >= 400:
            raise HttpError(f"GET {_safe(self.url(path))}: HTTP {resp.status_code}", resp.status_code)
        return resp

    def download(self, path: str, dest: str | Path, expected_size: int | None = None) -> Path:
        """Download to `dest`, resuming a partial `dest.part` with an HTTP Range request."""
        dest = Path(dest)
        part = dest.with_name(dest.name + ".part")
        dest.parent.mkdir(parents=True, exist_ok=True)
        for attempt in range(self.retry.attempts):
            have = part.stat().st_size if part.exists() else 0
            headers = {"Range": f"bytes={have}-"} if have else {}
            try:
                self._stream_into(path, part, have, headers)
            except (HttpError, *RETRY_EXC) as exc:
                if isinstance(exc, HttpError) and exc.status not in RETRY_STATUS | {None}:
                    raise
                log.warning("download %s interrupted (%s); resuming", _safe(self.url(path)), exc)
                self._sleep(self._wait(attempt, None))
                continue
            if expected_size is None or part.stat().st_size == expected_size:
                os.replace(part, dest)
                return dest
            log.warning("download %s: %d bytes, expected %d; resuming", _safe(self.url(path)),
                        part.stat().st_size, expected_size)
        raise HttpError(f"download of {_safe(self.url(path))} did not complete")

    def _stream_into(self, path: str, part: Path, have: int, headers: dict[str, str]) -> None:
        resp = self.request("GET", path, headers=headers, stream=True)
        with resp:
            if resp.status_code == 416:  # already complete
                return
            if resp.status_code >= 400:
                raise HttpError(f"GET {_safe(resp.url)}: HTTP {resp.status_code}", resp.status_code)
            mode = "ab" if have and resp.status_code == 206 else "wb"
            progress.expect("downloads", int(resp.headers.get("Content-Length") or 0), unit="bytes")
            with open(part, mode) as fh:
                for chunk in resp.iter_content(1 << 20):
                    fh.write(chunk)
                    progress.advance("downloads", len(chunk))


def _safe(url: str) -> str:
    """The URL without its query string (which may carry keys)."""
    return url.split("?", 1)[0]
