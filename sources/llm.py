"""The one LLM client: OpenAI-compatible chat completions (vLLM, SGLang, Ollama, OpenAI, Gemini's OpenAI API).

Every request goes through the shared HTTP session (sources/http.py: retries with backoff, Retry-After, the
per-host rate limit) with temperature 0 and a fixed seed, and asks for structured output with
`response_format: json_schema`. A server that refuses `response_format` (HTTP 400/422 naming it) is asked again
without it, the schema written into the instruction, and the plain answer is parsed and validated against the
same schema; the client remembers that and says so once in the log. Answers are looked up first in the
content-addressed cache the caller passes in (patentfactory/store/llm_cache.py), so no request is ever sent twice; with no endpoint
configured, the cache alone answers (a version rebuilds offline) and a miss is an error, never a silent fallback.
An endpoint that stays down raises `LLMUnavailable` (a `SourceStopped`: the nightly defers the dataset).
"""
from __future__ import annotations

import hashlib
import json
import logging
import math
import re
import threading
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Protocol, TypeVar

import jsonschema

from common.errors import PFError, SourceStopped

from .http import HttpClient, HttpError, RetryPolicy

log = logging.getLogger(__name__)
CHARS_PER_TOKEN = 4  # estimate for requests not sent yet (the server's usage counts the sent ones)
T, R = TypeVar("T"), TypeVar("R")
_FENCE = re.compile(r"^\s*```(?:json)?\s*|\s*```\s*$")


class LLMError(PFError):
    """The endpoint answered in a way no retry fixes (bad key, unknown model, a miss with no endpoint)."""


class LLMUnavailable(SourceStopped):
    """The endpoint stayed down through the retries: the dataset is deferred, what was answered stays cached."""


class NotCached(LookupError):
    """A dry run met a request the cache cannot answer (counted, not sent)."""


class InvalidAnswer(ValueError):
    """An answer that is not JSON or does not match the schema; `content` is the raw text (for the retry)."""

    def __init__(self, reason: str, content: str) -> None:
        super().__init__(reason)
        self.reason, self.content = reason, content


class Refused(InvalidAnswer):
    """The endpoint refused this one input (longer than the model's context): asking again cannot help. Cached
    like an answer, so a rerun does not send it again."""


class CachedAnswer(Protocol):
    content: str
    usage: dict


class AnswerCache(Protocol):
    """Where answers are kept by content address (patentfactory/store/llm_cache.LLMCache)."""

    def get(self, instruction: str, key: str) -> CachedAnswer | None: ...

    def put(self, instruction: str, key: str, model: str, request: dict, content: str,
            usage: dict) -> CachedAnswer: ...


def request_key(model: str, instruction: str, schema: dict | None, messages: list[dict]) -> str:
    """The content address of one request: what the answer can depend on, nothing else (not the seed, not the
    server URL: the same model behind another URL answers the same question)."""
    blob = json.dumps({"model": model, "instruction": instruction, "schema": schema, "messages": messages},
                      sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class Instruction:
    """A versioned instruction text from patentfactory/prompts/<name>.<version>.md."""
    name: str
    version: str
    text: str

    @property
    def id(self) -> str:
        return f"{self.name}.{self.version}"

    @property
    def sha256(self) -> str:
        return hashlib.sha256(self.text.encode("utf-8")).hexdigest()


@dataclass
class ClientStats:
    requests: int = 0        # sent and answered
    cache_hits: int = 0
    prompt_tokens: int = 0   # as the server reported them
    completion_tokens: int = 0
    schema_fallbacks: int = 0
    misses: int = 0          # dry run: requests that would be sent
    miss_tokens: int = 0     # dry run: their input tokens (estimate)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def add(self, **kw: int) -> None:
        with self._lock:
            for k, v in kw.items():
                setattr(self, k, getattr(self, k) + v)

    def as_dict(self) -> dict[str, int]:
        return {k: v for k, v in self.__dict__.items() if not k.startswith("_")}


def parse_answer(content: str, schema: dict) -> dict:
    """The answer's JSON object, validated against `schema` (code fences and text around the object tolerated)."""
    text = _FENCE.sub("", content or "").strip()
    start, end = text.find("{"), text.rfind("}")
    try:
        obj = json.loads(text[start:end + 1] if 0 <= start < end else text)
    except json.JSONDecodeError as exc:
        raise InvalidAnswer(f"not JSON: {exc}", content) from None
    try:
        jsonschema.validate(obj, schema)
    except jsonschema.ValidationError as exc:
        raise InvalidAnswer(f"does not match the schema: {exc.message[:200]}", content) from None
    return obj


def estimate_tokens(messages: list[dict]) -> int:
    return sum(math.ceil(len(m["content"]) / CHARS_PER_TOKEN) for m in messages)


class ChatClient:
    """Cached, structured chat completions for one model (see module docstring)."""

    def __init__(self, base_url: str | None, model: str, cache: AnswerCache, api_key: str | None = None, *,
                 seed: int = 1337, concurrency: int = 4, min_interval: float = 0.0, timeout: float = 300.0,
                 attempts: int = 6, dry_run: bool = False, http: HttpClient | None = None) -> None:
        if not model:
            raise LLMError("no LLM model is configured", "set PF_LLM__MODEL (the model name the endpoint serves)")
        self.base_url, self.model, self.cache = base_url, model, cache
        self.seed, self.concurrency, self.dry_run = seed, concurrency, dry_run
        self.structured = True
        self.stats = ClientStats()
        self._slots = threading.BoundedSemaphore(concurrency)
        self._down: str | None = None
        headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
        self.http = http or (HttpClient(base_url, timeout=(10.0, timeout), retry=RetryPolicy(attempts=attempts),
                                        min_interval=min_interval, headers=headers) if base_url else None)

    def key(self, instruction: Instruction, messages: list[dict], schema: dict) -> str:
        return request_key(self.model, instruction.id, schema, messages)

    def ask(self, instruction: Instruction, user: str, schema: dict, followup: Iterable[dict] = ()) -> dict:
        """The validated JSON answer to `user` (+ `followup` turns) under `instruction`; cached by content.

        Raises InvalidAnswer (the caller decides whether to retry), NotCached (dry run), LLMError, LLMUnavailable."""
        messages = [{"role": "system", "content": instruction.text}, {"role": "user", "content": user}, *followup]
        key = self.key(instruction, messages, schema)
        hit = self.cache.get(instruction.id, key)
        if hit is not None:
            self.stats.add(cache_hits=1)
            if hit.usage.get("refused"):
                raise Refused(f"the endpoint refused the input: {hit.usage.get('message', '')}", "")
            return parse_answer(hit.content, schema)
        if self.dry_run:
            self.stats.add(misses=1, miss_tokens=estimate_tokens(messages))
            raise NotCached(key)
        if self.http is None:
            raise LLMError(f"an answer of {instruction.id} for model {self.model} is not in the cache and no endpoint "
                           "is configured", "set PF_LLM__BASE_URL, or build with the rule route")
        content, usage = self._send(instruction, messages, schema)
        self.cache.put(instruction.id, key, self.model, {"messages": messages, "schema": schema}, content, usage)
        if usage.get("refused"):
            raise Refused(f"the endpoint refused the input: {usage.get('message', '')}", "")
        return parse_answer(content, schema)

    def _body(self, instruction: Instruction, messages: list[dict], schema: dict) -> dict:
        body = {"model": self.model, "messages": messages, "temperature": 0, "seed": self.seed}
        if self.structured:
            body["response_format"] = {"type": "json_schema",
                                       "json_schema": {"name": instruction.name, "schema": schema, "strict": True}}
        else:  # the schema goes into the instruction; the answer is validated all the same
            system = (f"{messages[0]['content']}\n\nAnswer with one JSON object only, valid against this JSON "
                      f"schema:\n{json.dumps(schema, sort_keys=True)}\n")
            body["messages"] = [{"role": "system", "content": system}, *messages[1:]]
        return body

    def _send(self, instruction: Instruction, messages: list[dict], schema: dict) -> tuple[str, dict]:
        assert self.http is not None
        if self._down:
            raise LLMUnavailable(self._down, "the nightly defers this dataset; answers so far are cached")
        with self._slots:
            try:
                resp = self.http.post("chat/completions", json=self._body(instruction, messages, schema))
                if resp.status_code in (400, 422) and self.structured and _refuses_schema(resp.text):
                    self.structured = False
                    self.stats.add(schema_fallbacks=1)
                    log.warning("%s refuses response_format json_schema (%s); validating plain JSON answers instead",
                                self.base_url, resp.text[:160])
                    resp = self.http.post("chat/completions", json=self._body(instruction, messages, schema))
            except HttpError as exc:
                self._down = f"LLM endpoint {self.base_url} unavailable: {exc}"
                raise LLMUnavailable(self._down, "the nightly defers this dataset; answers so far are cached") from None
        if resp.status_code in (401, 403):
            raise LLMError(f"LLM endpoint {self.base_url} refused the key (HTTP {resp.status_code})",
                           "check PF_LLM__API_KEY")
        if resp.status_code in (400, 413, 422) and _too_long(resp.text):
            log.warning("%s refused one input as too long (HTTP %d)", self.base_url, resp.status_code)
            self.stats.add(requests=1)
            return "", {"refused": resp.status_code, "message": resp.text[:300]}
        if resp.status_code >= 400:
            raise LLMError(f"LLM endpoint {self.base_url}: HTTP {resp.status_code}: {resp.text[:200]}",
                           "check PF_LLM__MODEL and the server's log")
        try:
            data = resp.json()
            content = data["choices"][0]["message"]["content"] or ""
        except (ValueError, KeyError, IndexError, TypeError) as exc:
            raise LLMError(f"LLM endpoint {self.base_url} sent no chat completion ({exc})") from None
        usage = {k: int(v) for k, v in (data.get("usage") or {}).items() if isinstance(v, int)}
        self.stats.add(requests=1, prompt_tokens=usage.get("prompt_tokens", 0),
                       completion_tokens=usage.get("completion_tokens", 0))
        return content, usage

    def map(self, fn: Callable[[T], R], items: list[T]) -> list[R]:
        """`fn` over `items` with up to `concurrency` requests in flight, results in order."""
        if self.concurrency <= 1 or len(items) <= 1:
            return [fn(i) for i in items]
        with ThreadPoolExecutor(self.concurrency, thread_name_prefix="llm") as pool:
            return list(pool.map(fn, items))


def _too_long(text: str) -> bool:
    return bool(re.search(r"context|too long|maximum .*length|max_tokens|too many tokens", text or "", re.I))


def _refuses_schema(text: str) -> bool:
    return bool(re.search(r"response_format|json_schema|structured", text or "", re.I))
