"""What the LLM routes of a night would send: requests and input tokens of the cache's misses (`pf run --live --plan`).

The builds run with a dry-run client over the warehouse as it stands: every request the LLM routes would make is
looked up in the response cache and a miss is counted with its input tokens (characters / 4, an estimate; the
server's usage counts the sent ones) instead of being sent. Decisions and sections met before cost nothing.
Documents the night's ingest adds come on top and are not known before it runs.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from patentfactory.config import Settings
from patentfactory.errors import NothingToPublish

from . import llm_routes

@dataclass
class LLMCost:
    dataset: str
    requests: int = 0
    input_tokens: int = 0
    cached: int = 0
    note: str = ""


def _pilot(settings: Settings, data_dir: str | Path) -> LLMCost:
    from transforms.tasks import pilot

    from .ingest_files import stores_for

    splitter = llm_routes.make_splitter("llm", data_dir, settings.llm, dry_run=True)
    assert isinstance(splitter, llm_routes.LLMSplitter)
    wh = stores_for(data_dir).warehouse
    if not wh.parts("ptab_decisions"):
        return LLMCost("pilot", note="no PTAB decisions in the warehouse yet")
    dec = wh.frame("ptab_decisions").rename({"decision_id": "case_id"})
    for text in pilot.filter_decisions(pilot.prepare_decisions(dec), {})["text"].fill_null("").to_list():
        splitter.split(text)
    s = splitter.client.stats
    return LLMCost("pilot", s.misses, s.miss_tokens, s.cache_hits)


def _pap2pat(settings: Settings, data_dir: str | Path) -> LLMCost:
    from .build_pap2pat import BuildStats, Pap2PatParams, assemble_pairs

    writer = llm_routes.make_writer("llm", data_dir, settings.llm, dry_run=True)
    assert isinstance(writer, llm_routes.LLMBulletWriter)
    try:
        assemble_pairs(data_dir, Pap2PatParams(), BuildStats(), writer)
    except NothingToPublish as exc:
        return LLMCost("pap2pat", note=exc.message)
    s = writer.client.stats
    return LLMCost("pap2pat", s.misses, s.miss_tokens, s.cache_hits)


def llm_costs(settings: Settings, data_dir: str | Path) -> list[LLMCost]:
    """Per LLM route of the night (PILOT split, Pap2Pat outlines): requests and input tokens not in the cache."""
    return [_pilot(settings, data_dir), _pap2pat(settings, data_dir)]


def cost_line(settings: Settings, costs: list[LLMCost]) -> str:
    """One line for the plan: `pilot 12 requests (~48,000 input tokens, 30 cached), pap2pat ...`."""
    parts = [f"{c.dataset} {c.requests} requests (~{c.input_tokens:,} input tokens, {c.cached} cached)"
             + (f" [{c.note}]" if c.note else "") for c in costs]
    return f"{settings.llm.model} at {settings.llm.base_url}: " + ", ".join(parts)
