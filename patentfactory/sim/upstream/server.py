"""A small threaded HTTP server with a route table; each source module adds its endpoints.

The replica serves files of a generated world (or the embedded sample) with the real services'
paths and shapes, so the real clients run unchanged against it: only the base URL differs.
"""
from __future__ import annotations

import json
import logging
import re
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

from .faults import Faults

log = logging.getLogger(__name__)
_OPS_RATE = re.compile(r"(\w+=(?:green|yellow|red|black)):(\d+)")


def scaled_throttling(header: str, scale: float) -> str:
    """EPO OPS's X-Throttling-Control with each service's per-minute rate times `scale` (a black 0 stays 0):
    the replica tells the client a faster pace, and the client's own pacing code runs as against OPS."""
    return _OPS_RATE.sub(lambda m: f"{m[1]}:{max(1, round(int(m[2]) * scale)) if int(m[2]) else 0}", header)


@dataclass
class Request:
    method: str
    path: str
    query: dict[str, list[str]]
    headers: dict[str, str]
    body: bytes
    world: Path
    params: dict[str, str] = field(default_factory=dict)

    def arg(self, name: str, default: str | None = None) -> str | None:
        vals = self.query.get(name)
        return vals[0] if vals else default


@dataclass
class Response:
    status: int = 200
    body: bytes = b""
    headers: dict[str, str] = field(default_factory=dict)

    @classmethod
    def json(cls, obj: object, status: int = 200) -> "Response":
        return cls(status, json.dumps(obj, separators=(",", ":")).encode(), {"Content-Type": "application/json"})

    @classmethod
    def error(cls, status: int, message: str) -> "Response":
        return cls.json({"code": status, "error": message}, status)


Handler = Callable[[Request], Response]
_ROUTES: list[tuple[str, re.Pattern[str], Handler]] = []


def route(method: str, pattern: str) -> Callable[[Handler], Handler]:
    """Register a handler; `pattern` is a regex with named groups matched against the whole path."""
    def deco(fn: Handler) -> Handler:
        _ROUTES.append((method.upper(), re.compile(f"^{pattern}$"), fn))
        return fn
    return deco


def _load_routes() -> None:
    from . import (routes_arxiv, routes_core, routes_llm, routes_ops, routes_papers,  # noqa: F401  (registration)
                   routes_ptab, routes_uspto)


def dispatch(req: Request) -> Response:
    for method, pattern, fn in _ROUTES:
        m = pattern.match(req.path)
        if m and re.fullmatch(method, req.method):
            req.params = m.groupdict()
            return fn(req)
    return Response.error(404, f"no route for {req.method} {req.path}")


class _Handler(BaseHTTPRequestHandler):
    server: "_Server"
    protocol_version = "HTTP/1.1"

    def log_message(self, fmt: str, *args: object) -> None:  # route access logs to logging
        log.debug("replica: " + fmt, *args)

    def _handle(self) -> None:
        url = urlsplit(self.path)
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else b""
        req = Request(self.command, url.path, parse_qs(url.query), dict(self.headers.items()), body,
                      self.server.world)
        fault = self.server.faults.pick(url.path)
        if fault in ("429", "500", "503", "black"):
            status = 403 if fault == "black" else int(fault)
            resp = Response.error(status, f"injected {fault}")
            if fault == "429":
                resp.headers["Retry-After"] = str(self.server.faults.retry_after)
            if fault == "black":
                resp.headers["X-Throttling-Control"] = "overloaded (images=black:0, retrieval=black:0, search=black:0)"
            return self._send(resp)
        if fault == "timeout":
            time.sleep(self.server.faults.stall_seconds)
        resp = dispatch(req)
        if fault in ("yellow", "red"):
            resp.headers["X-Throttling-Control"] = (f"busy (images=green:200, inpadoc={fault}:30, other=green:1000, "
                                                    f"retrieval={fault}:30, search={fault}:15)")
        if self.server.ops_rate_scale != 1 and "X-Throttling-Control" in resp.headers:
            resp.headers["X-Throttling-Control"] = scaled_throttling(resp.headers["X-Throttling-Control"],
                                                                     self.server.ops_rate_scale)
        self._send(resp, truncate=fault == "truncate")

    def _send(self, resp: Response, truncate: bool = False) -> None:
        self.send_response(resp.status)
        for k, v in resp.headers.items():
            self.send_header(k, v)
        self.send_header("Content-Length", str(len(resp.body)))
        if truncate:
            self.send_header("Connection", "close")
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(resp.body[: len(resp.body) // 2] if truncate else resp.body)
        if truncate:
            self.close_connection = True

    do_GET = do_POST = do_HEAD = _handle


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True

    def __init__(self, addr: tuple[str, int], world: Path, faults: Faults, ops_rate_scale: float = 1.0) -> None:
        super().__init__(addr, _Handler)
        self.world, self.faults, self.ops_rate_scale = world, faults, ops_rate_scale


def _bind(host: str, port: int, world: Path, faults: Faults, ops_rate_scale: float = 1.0) -> _Server:
    """The listening socket, or one PFError line naming the port and what to do (no traceback)."""
    import errno

    from patentfactory.errors import PFError

    if not 0 <= port <= 65535:
        raise PFError(f"--port {port} is not a TCP port", "use 1-65535, or 0 for any free port")
    try:
        return _Server((host, port), world, faults, ops_rate_scale)
    except OSError as exc:
        if exc.errno == errno.EADDRINUSE:
            raise PFError(f"port {port} on {host} is already in use",
                          "stop what listens there, or pass another --port (0 picks a free one)") from None
        if exc.errno in (errno.EACCES, errno.EPERM):
            raise PFError(f"not allowed to listen on port {port}", "ports below 1024 need root: use --port 8765") from None
        raise PFError(f"cannot listen on {host}:{port}: {exc.strerror or exc}",
                      "check --host (an address of this machine, e.g. 127.0.0.1 or 0.0.0.0)") from None


class Replica:
    """Start/stop the replica in a background thread (tests, `pf run`) or serve forever (CLI).
    `ops_rate_scale`: EPO OPS's advertised per-minute rates times this (PF_REPLICA__OPS_RATE_SCALE)."""

    def __init__(self, world: str | Path, host: str = "127.0.0.1", port: int = 0, faults: str = "",
                 ops_rate_scale: float = 1.0) -> None:
        _load_routes()
        self.server = _bind(host, port, Path(world).resolve(), Faults(faults), ops_rate_scale)
        self._thread: threading.Thread | None = None

    @property
    def base_url(self) -> str:
        host, port = self.server.server_address[:2]
        return f"http://{host}:{port}"

    @property
    def faults(self) -> Faults:
        return self.server.faults

    def start(self) -> "Replica":
        self._thread = threading.Thread(target=self.server.serve_forever, name="replica", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()

    def __enter__(self) -> "Replica":
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


def serve(world: str | Path, host: str = "127.0.0.1", port: int = 8765, faults: str = "") -> None:
    rep = Replica(world, host, port, faults)
    log.info("replica serving %s at %s", world, rep.base_url)
    try:
        rep.server.serve_forever()
    finally:
        rep.server.server_close()
