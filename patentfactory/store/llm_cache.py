"""Content-addressed cache of LLM responses, kept with the raw data so a version rebuilds without the endpoint.

A response is stored once per key = sha256(model, instruction name + version, JSON schema, messages), as one
JSON object (the key: `sources.llm.request_key`) `<data>/raw/llm/<instruction>/<key[:2]>/<key>.json` holding the request, the answer's text and the
usage the server reported. One object per answer: concurrent requests never write the same file, a killed run
keeps every answer it received, and a rerun (or a nightly meeting the same decision or section again) finds the
answer by key and sends nothing. Like the embedding cache (store/embedding_cache.py), but per answer: LLM
answers arrive one at a time and each one is paid for.
"""
from __future__ import annotations

import json
import threading
from dataclasses import dataclass

from .storage import Storage

CACHE_FORMAT = 1


@dataclass(frozen=True)
class CachedAnswer:
    key: str
    content: str
    usage: dict


class LLMCache:
    """Answers by request key under `<root>/raw/llm/` (`root` = the data folder's Storage)."""

    def __init__(self, data: Storage) -> None:
        self.storage = data.sub("raw", "llm")
        self._memo: dict[str, CachedAnswer] = {}
        self._lock = threading.Lock()

    @staticmethod
    def rel(instruction: str, key: str) -> str:
        return f"{instruction}/{key[:2]}/{key}.json"

    def get(self, instruction: str, key: str) -> CachedAnswer | None:
        with self._lock:
            if key in self._memo:
                return self._memo[key]
        rel = self.rel(instruction, key)
        if not self.storage.exists(rel):
            return None
        obj = json.loads(self.storage.read_text(rel))
        hit = CachedAnswer(key, obj["content"], obj.get("usage") or {})
        with self._lock:
            self._memo[key] = hit
        return hit

    def put(self, instruction: str, key: str, model: str, request: dict, content: str, usage: dict) -> CachedAnswer:
        obj = {"format": CACHE_FORMAT, "key": key, "model": model, "instruction": instruction, "request": request,
               "content": content, "usage": usage}
        self.storage.write_text(self.rel(instruction, key), json.dumps(obj, ensure_ascii=False, sort_keys=True))
        hit = CachedAnswer(key, content, usage)
        with self._lock:
            self._memo[key] = hit
        return hit
