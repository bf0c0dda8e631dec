"""Core replica routes: health and raw files of the world with HTTP Range support."""
from __future__ import annotations

import mimetypes
import re

from .server import Request, Response, route

_RANGE = re.compile(r"bytes=(\d+)-(\d*)$")


def file_response(req: Request, rel: str) -> Response:
    """Serve `world/rel` (refusing paths that leave the world), honouring a single Range."""
    root = req.world
    path = (root / rel).resolve()
    if root not in path.parents or not path.is_file():
        return Response.error(404, f"not found: {rel}")
    data = path.read_bytes()
    ctype = mimetypes.guess_type(path.name)[0] or "application/octet-stream"
    headers = {"Content-Type": ctype, "Accept-Ranges": "bytes"}
    m = _RANGE.match(req.headers.get("Range", "") or req.headers.get("range", ""))
    if not m:
        return Response(200, data, headers)
    start = int(m.group(1))
    end = int(m.group(2)) if m.group(2) else len(data) - 1
    if start >= len(data):
        return Response(416, b"", {**headers, "Content-Range": f"bytes */{len(data)}"})
    headers["Content-Range"] = f"bytes {start}-{end}/{len(data)}"
    return Response(206, data[start:end + 1], headers)


@route("GET", r"/health")
def health(req: Request) -> Response:
    return Response.json({"status": "ok", "world": req.world.name})


@route("GET", r"/files/(?P<rel>.+)")
def files(req: Request) -> Response:
    return file_response(req, req.params["rel"])
