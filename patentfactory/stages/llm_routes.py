"""The papers' LLM steps as routes of the build: PILOT's opinion split and Pap2Pat's outline bullets by an LLM.

`LLMSplitter` implements transforms/opinions.OpinionSplitter and `LLMBulletWriter` transforms/outlines.BulletWriter,
both over one cached `sources.llm.ChatClient`. Every answer is checked before it is used: a split must give each
sentence of STATEMENT OF THE CASE and ANALYSIS exactly one role, in order, with every returned sentence found
verbatim in the source (nothing invented, nothing left out but headings); bullets must be exactly n short phrases
that copy no run of 6 words from the section. A failing answer is asked once more with the reason; a second
failure hands the item to the rule route, flagged and counted (the card says how many), never silently.
"""
from __future__ import annotations

import hashlib
import inspect
import json
import logging
import threading
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Generic, TypeVar

from sources.llm import ChatClient, Instruction, InvalidAnswer, NotCached, Refused
from transforms import opinions, outlines
from transforms.opinion_classifier import ClassifierSplitter
from transforms.opinions import OpinionSplit, OpinionSplitter

from patentfactory.config import LLMSettings
from patentfactory.errors import PFError
from patentfactory.store.llm_cache import LLMCache
from patentfactory.store.storage import Storage

from .llm_checks import (SPLIT_SCHEMA, bullet_schema, check_bullets, check_chunk, check_split, chunk_schema,
                         split_message, split_parts)

log = logging.getLogger(__name__)
V = TypeVar("V")
# outline_bullets v2: the Pap2Pat authors' guidelines (structure not content, <= 5 words, varied verbs, exactly N)
SPLIT_INSTRUCTION, OUTLINE_INSTRUCTION = ("opinion_split", "v1"), ("outline_bullets", "v2")
# outline_chunk v1: the authors' request itself (a chunk of the description with its headings, N and W, exactly
# n bullets per heading); the default of the LLM route
CHUNK_INSTRUCTION = ("outline_chunk", "v1")
FALLBACK_FLAG = "llm_fallback"
# the trained split route's weights: `python -m transforms.opinion_classifier patentfactory/stages/pilot_classifier.json`
CLASSIFIER_MODEL = Path(__file__).with_name("pilot_classifier.json")
PROMPTS = Path(__file__).resolve().parent.parent / "prompts"  # versioned instruction texts (package data)


def load_instruction(name: str, version: str = "v1") -> Instruction:
    """A versioned instruction text from patentfactory/prompts/<name>.<version>.md."""
    return Instruction(name, version, (PROMPTS / f"{name}.{version}.md").read_text(encoding="utf-8"))


# ---------- opinion split ----------

def _ask_twice(client: ChatClient, instruction: Instruction, user: str, schema: dict, check):  # noqa: ANN001
    """check(ask(...)); on InvalidAnswer once more with the reason as a follow-up turn; the second raises."""
    answer = None
    try:
        answer = client.ask(instruction, user, schema)
        return check(answer)
    except Refused:
        raise  # the same input again cannot help
    except InvalidAnswer as exc:
        said = exc.content or json.dumps(answer, ensure_ascii=False)
        log.info("%s answer rejected (%s); asking once more", instruction.id, exc.reason)
        followup = [{"role": "assistant", "content": said},
                    {"role": "user", "content": f"Your answer was rejected: {exc.reason}. Answer again, following "
                                                "every rule of the instruction."}]
        return check(client.ask(instruction, user, schema, followup))


def _digest(*parts: object) -> str:
    return hashlib.sha256(json.dumps(parts, ensure_ascii=False).encode()).hexdigest()


class _Memo(Generic[V]):
    """Results by key, computed once even when threads ask for the same key at once (one request, not two)."""

    def __init__(self) -> None:
        self._done: dict[str, V] = {}
        self._locks: dict[str, threading.Lock] = {}
        self._guard = threading.Lock()

    def get(self, key: str, compute: Callable[[], V]) -> V:
        with self._guard:
            lock = self._locks.setdefault(key, threading.Lock())
        with lock:
            if key not in self._done:
                self._done[key] = compute()
            return self._done[key]


class _Tally:
    """Counts of the route's outcomes (llm / fallback) and the fallbacks' reasons, safe across threads."""
    counts: Counter[str]
    reasons: list[str]
    _lock = threading.Lock()

    def _tally(self, kind: str, reason: str | None = None) -> None:
        with self._lock:
            self.counts[kind] += 1
            if reason:
                self.reasons.append(reason)


class LLMSplitter(_Tally):
    """PILOT's split by an LLM; the rule splitter takes a case whose answer fails validation twice."""

    def __init__(self, client: ChatClient, fallback: OpinionSplitter | None = None,
                 instruction: Instruction | None = None) -> None:
        self.client, self.fallback = client, fallback or opinions.RuleSplitter()
        self.instruction = instruction or load_instruction(*SPLIT_INSTRUCTION)
        self.name = f"llm-{self.instruction.id}"
        self.counts: Counter[str] = Counter()
        self.reasons: list[str] = []
        self._memo: _Memo[OpinionSplit] = _Memo()

    def split(self, text: str) -> OpinionSplit:
        return self._memo.get(_digest(text), lambda: self._split(text))

    def prefetch(self, texts: Sequence[str]) -> None:
        """Split every text now, `concurrency` requests at a time (the build's per-row calls then hit memory)."""
        self.client.map(self.split, list(dict.fromkeys(texts)))

    def _split(self, text: str) -> OpinionSplit:
        parts = split_parts(text)
        result = OpinionSplit(sections=[sec for sec, _ in opinions.split_sections(text)])
        if not any(paras for _, paras in parts):
            self._tally("no_split_sections")
            result.flags = opinions.split_flags(result)  # the rule splitter's flags, one home
            return result
        try:
            result.sentences = _ask_twice(self.client, self.instruction, split_message(parts), SPLIT_SCHEMA,
                                          lambda a: check_split(a, parts))
        except NotCached:  # a dry run (the plan): counted by the client, nothing sent
            return result
        except InvalidAnswer as exc:
            self._tally("fallback", exc.reason)
            log.warning("opinion split: the model's answer failed validation twice (%s); the rule splitter takes "
                        "this case", exc.reason)
            ruled = self.fallback.split(text)
            ruled.flags = [*ruled.flags, FALLBACK_FLAG]
            return ruled
        self._tally("llm")
        result.flags = opinions.split_flags(result)  # the rule splitter's flags, one home
        return result


# ---------- outline bullets ----------

def offline_writer() -> outlines.BulletWriter:
    """The build's own writer: whatever `add_outlines` uses by default."""
    return inspect.signature(outlines.add_outlines).parameters["writer"].default


def chunk_message(parts: list[outlines.ChunkPart], chars_per_bullet: int) -> str:
    """The authors' context: N and W, then the chunk in markdown, every heading with its bullet count (a section's
    later piece repeats its heading, marked as continued)."""
    lines = [f"N = {sum(p.n for p in parts)}", f"W = {max(1, chars_per_bullet // 5)}", ""]
    for p in parts:
        more = "" if p.heading else " (continued)"
        lines += [f"{'#' * p.depth} {p.title}{more} ({p.n} bullet points)", "", *(x for q in p.paragraphs
                                                                                   for x in (q, ""))]
    return "\n".join(lines).rstrip() + "\n"


class LLMBulletWriter(_Tally):
    """Pap2Pat's outline bullets by an LLM, one section at a time: a `BulletWriter` (paragraphs, n) -> n bullets
    (instruction outline_bullets.v2). `LLMChunkWriter` sends what the authors sent instead."""

    def __init__(self, client: ChatClient, fallback: outlines.BulletWriter | None = None,
                 instruction: Instruction | None = None) -> None:
        self.client, self.fallback = client, fallback or offline_writer()
        self.instruction = instruction or load_instruction(*OUTLINE_INSTRUCTION)
        self.name = f"llm-{self.instruction.id}"
        self.counts: Counter[str] = Counter()
        self.reasons: list[str] = []
        self._memo: _Memo[list] = _Memo()

    def __call__(self, paragraphs: list[str], n: int) -> list[str]:
        if n <= 0 or not any(p.strip() for p in paragraphs):
            return []
        return list(self._memo.get(_digest(paragraphs, n), lambda: self._write(paragraphs, n)))

    def prefetch(self, requests: Sequence[tuple[list[str], int]],
                 chunks: Sequence[tuple[list[outlines.ChunkPart], int]] = ()) -> None:
        unique = {_digest(p, n): (p, n) for p, n in requests}
        self.client.map(lambda r: self(*r), list(unique.values()))

    def _write(self, paragraphs: list[str], n: int) -> list[str]:
        user = f"N = {n}\n\n" + "\n\n".join(paragraphs)
        try:
            bullets = _ask_twice(self.client, self.instruction, user, bullet_schema(n),
                                 lambda a: check_bullets(a, paragraphs, n))
        except NotCached:
            return []
        except InvalidAnswer as exc:
            self._tally("fallback", exc.reason)
            log.warning("outline bullets: the model's answer failed validation twice (%s); the offline writer "
                        "takes this section", exc.reason)
            return self.fallback(paragraphs, n)
        self._tally("llm")
        return bullets


class LLMChunkWriter(LLMBulletWriter):
    """The LLM route as the authors ran it: an `outlines.ChunkWriter`, one request per chunk of the description
    (`outlines.chunk_parts`) with its headings, each announcing its bullet count, N and W (instruction
    outline_chunk.v1); the schema fixes every section's count. A chunk whose answer fails twice goes to the offline
    writer section by section; a lone section (`__call__`) still goes as outline_bullets.v2."""

    def __init__(self, client: ChatClient, fallback: outlines.BulletWriter | None = None,
                 instruction: Instruction | None = None) -> None:
        super().__init__(client, fallback, instruction)
        self.chunk_instruction = load_instruction(*CHUNK_INSTRUCTION)
        self.name = f"llm-{self.chunk_instruction.id}"

    def prefetch(self, requests: Sequence[tuple[list[str], int]],
                 chunks: Sequence[tuple[list[outlines.ChunkPart], int]] = ()) -> None:
        super().prefetch(requests)
        wanted = {_digest([(q.paragraphs, q.n, q.title) for q in c], k): (c, k) for c, k in chunks}
        self.client.map(lambda r: self.write_chunk(*r), list(wanted.values()))

    def write_chunk(self, parts: list[outlines.ChunkPart], chars_per_bullet: int) -> list[list[str]]:
        key = _digest([(q.paragraphs, q.n, q.title) for q in parts], chars_per_bullet)
        return list(self._memo.get(key, lambda: self._ask_chunk(parts, chars_per_bullet)))

    def _ask_chunk(self, parts: list[outlines.ChunkPart], chars_per_bullet: int) -> list[list[str]]:
        wanted = [(list(p.paragraphs), p.n) for p in parts]
        try:
            lists = _ask_twice(self.client, self.chunk_instruction, chunk_message(parts, chars_per_bullet),
                               chunk_schema([p.n for p in parts]), lambda a: check_chunk(a, wanted))
        except NotCached:
            return [[] for _ in parts]
        except InvalidAnswer as exc:
            self._tally("fallback", exc.reason)
            log.warning("outline bullets: the model's answer for a chunk failed validation twice (%s); the offline "
                        "writer takes its sections", exc.reason)
            return [self.fallback(list(p.paragraphs), p.n) if p.n else [] for p in parts]
        self._tally("llm")
        return lists


def prefetch_outlines(writer: outlines.BulletWriter, build: Callable[[outlines.BulletWriter], object]) -> None:
    """For the LLM writer: run `build` once with a recorder (no request), then ask for every recorded section
    `concurrency` at a time, so the real build's sequential calls are answered from memory."""
    if not isinstance(writer, LLMBulletWriter):
        return
    asked: list[tuple[list[str], int]] = []
    chunks: list[tuple[list[outlines.ChunkPart], int]] = []

    class Recorder:
        def __call__(self, paragraphs: list[str], n: int) -> list[str]:
            if n > 0:
                asked.append((list(paragraphs), n))
            return []

    class ChunkRecorder(Recorder):
        def write_chunk(self, parts: list[outlines.ChunkPart], chars_per_bullet: int) -> list[list[str]]:
            chunks.append((parts, chars_per_bullet))
            return [[] for _ in parts]

    build(ChunkRecorder() if isinstance(writer, LLMChunkWriter) else Recorder())
    writer.prefetch(asked, chunks)


# ---------- choice and provenance ----------

def choose(route: str | None, llm: LLMSettings, rule_name: str) -> str:
    """The route asked for, else `llm` when PF_LLM__BASE_URL is set, else the rule route (`rule_name`)."""
    if route is None:
        return "llm" if llm.base_url else rule_name
    return route


def client_for(data_dir: str | Path, llm: LLMSettings, dry_run: bool = False) -> ChatClient:
    if not llm.model:
        raise PFError("the LLM route needs a model name", "set PF_LLM__MODEL (and PF_LLM__BASE_URL)")
    s = llm
    return ChatClient(s.base_url, s.model or "", LLMCache(Storage(data_dir)),
                      s.api_key.get_secret_value() if s.api_key else None, seed=s.seed, concurrency=s.concurrency,
                      min_interval=s.min_interval_s, timeout=s.timeout_s, attempts=s.attempts, dry_run=dry_run)


def route_config(route: object) -> dict:
    """What the manifest records about the route: rules, or model + instruction (version and text hash)."""
    if isinstance(route, (LLMSplitter, LLMBulletWriter)):
        c, used = route.client, getattr(route, "chunk_instruction", route.instruction)
        return {"route": "llm", "model": c.model, "instruction": used.id,
                "instruction_sha256": used.sha256, "temperature": 0, "seed": c.seed}
    if isinstance(route, ClassifierSplitter):
        return {"route": "classifier", "name": route.name, "settings": route.model["settings"],
                "trained_on": route.model["trained_on"]["decisions"]}
    return {"route": "rules", "name": getattr(route, "name", getattr(route, "__name__", str(route)))}


def route_card(route: object, unit: str, rule_name: str) -> str:
    """The card's paragraph on the route, with the fallback count (deterministic: the cache fixes every answer)."""
    if isinstance(route, ClassifierSplitter):
        st, cv = route.model["settings"], route.model["trained_on"]["cv"]["model_alone"]["roles"]
        return (f"Route `classifier`: `{route.name}`, a logistic regression over sentence features (opening words, "
                "party mentions, record citations, position, section, the rules' roles of the neighbouring "
                f"sentences) on top of {rule_name}: the Board's voice first, then the rules' attributions, then the "
                f"model's at a probability of {st['threshold']} or more. Weights committed "
                "(patentfactory/stages/pilot_classifier.json, remade deterministically by `python -m "
                f"transforms.opinion_classifier`), trained on the {route.model['trained_on']['decisions']} reference "
                "decisions of the dev set, the spent blind batches and the real-style set (never on the blind batch "
                f"that gives its blind figure), settings by {st['folds']}-fold cross-validation grouped by decision "
                f"(the model alone out of fold: appellant P {cv['appellant_arguments']['precision']} R "
                f"{cv['appellant_arguments']['recall']}, examiner P {cv['examiner_findings']['precision']} R "
                f"{cv['examiner_findings']['recall']}). Offline and deterministic.")
    if not isinstance(route, (LLMSplitter, LLMBulletWriter)):
        return (f"Route `rules`: {rule_name}, offline and deterministic. The paper used an LLM here; set "
                "PF_LLM__BASE_URL / PF_LLM__MODEL for the LLM route.")
    cfg = route_config(route)
    return (f"Route `llm`: model `{cfg['model']}`, instruction `{cfg['instruction']}` (sha256 "
            f"{cfg['instruction_sha256'][:12]}, in patentfactory/prompts/), temperature 0, seed {cfg['seed']}, JSON "
            f"schema output. {route.counts['llm']} {unit} answered by the model; {route.counts['fallback']} {unit} "
            f"whose answer failed validation twice went to {rule_name} (flagged `{FALLBACK_FLAG}` where the table "
            "has flags). Answers are cached under raw/llm/ by model, instruction, schema and input.")


def make_splitter(route: str | None, data_dir: str | Path, llm: LLMSettings,
                  dry_run: bool = False) -> OpinionSplitter:
    """`--splitter rules|classifier|llm` (None: llm when `llm.base_url`, PF_LLM__BASE_URL, is set, else the
    classifier, the better offline route by leave-one-batch-out cross-validation on the real decisions:
    transforms/opinion_classifier.batch_cv); `llm`: the entry point's settings.llm."""
    route = choose(route, llm, "classifier")
    if route == "rules":
        return opinions.RuleSplitter()
    if route == "classifier":  # the trained route over the rules (committed weights, offline)
        return ClassifierSplitter.from_file(CLASSIFIER_MODEL)
    if route == "llm":
        return LLMSplitter(client_for(data_dir, llm, dry_run))
    raise PFError(f"unknown splitter {route!r}", "use --splitter rules, --splitter classifier or --splitter llm")


def make_writer(route: str | None, data_dir: str | Path, llm: LLMSettings,
                dry_run: bool = False) -> outlines.BulletWriter:
    """`--outliner offline|llm` (None: llm when `llm.base_url`, PF_LLM__BASE_URL, is set); `llm`: the entry
    point's settings.llm."""
    route = choose(route, llm, "offline")
    if route == "offline":
        return offline_writer()
    if route == "llm":
        return LLMChunkWriter(client_for(data_dir, llm, dry_run))
    raise PFError(f"unknown outliner {route!r}", "use --outliner offline or --outliner llm")
