"""The LLM client against the replica's chat-completions endpoint: structured output, the plain-JSON fallback,
the response cache (a rerun sends nothing, a rebuild needs no endpoint), retries with Retry-After, and an
endpoint that stays down (a SourceStopped, so the nightly defers)."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from patentfactory.errors import SourceStopped
from patentfactory.sim.upstream import Replica
from patentfactory.sim.upstream import routes_llm
from patentfactory.stages.llm_checks import bullet_schema
from patentfactory.stages.llm_routes import OUTLINE_INSTRUCTION, load_instruction
from patentfactory.store.llm_cache import LLMCache
from patentfactory.store.storage import Storage
from sources.http import HttpClient, RetryPolicy
from sources.llm import ChatClient, InvalidAnswer, LLMError, LLMUnavailable, parse_answer
from tests.conftest import free_port

SAMPLE = Path(__file__).resolve().parents[2] / "data" / "sample"
TEXT = ("The implant body is machined from grade 5 titanium and carries an external thread for primary stability "
        "in the jaw bone.\n\nA zirconia abutment is fixed to the body by an occlusal screw, so that the crown can "
        "be cemented outside the mouth.")


@pytest.fixture(scope="module")
def replica():
    with Replica(SAMPLE) as rep:
        yield rep


def _client(url: str, model: str, data: Path, **kw) -> ChatClient:
    return ChatClient(url, model, LLMCache(Storage(data)), **kw)


def test_structured_answer_is_cached_and_a_rerun_sends_nothing(replica, tmp_path):
    sent: list[dict] = []
    http = HttpClient(replica.base_url + "/v1")
    http.on_response = lambda r: sent.append(json.loads(r.request.body))
    instr = load_instruction(*OUTLINE_INSTRUCTION)
    client = _client(replica.base_url + "/v1", "replica", tmp_path, http=http, seed=7)
    first = client.ask(instr, "N = 2\n\n" + TEXT, bullet_schema(2))
    assert len(first["bullets"]) == 2
    body = sent[0]
    assert body["temperature"] == 0 and body["seed"] == 7 and body["model"] == "replica"
    assert body["response_format"]["type"] == "json_schema"
    assert body["response_format"]["json_schema"]["schema"]["properties"]["bullets"]["minItems"] == 2
    assert client.stats.requests == 1 and client.stats.prompt_tokens > 0
    # the answer lies with the raw data, content-addressed by model + instruction + schema + input
    files = list((tmp_path / "raw" / "llm" / "outline_bullets.v2").rglob("*.json"))
    assert len(files) == 1 and json.loads(files[0].read_text())["model"] == "replica"
    served = routes_llm.served["replica"]
    again = _client(replica.base_url + "/v1", "replica", tmp_path).ask(instr, "N = 2\n\n" + TEXT, bullet_schema(2))
    assert again == first and routes_llm.served["replica"] == served, "a rerun sent a request"
    # another model, instruction text or bullet count is another question
    _client(replica.base_url + "/v1", "replica", tmp_path).ask(instr, "N = 3\n\n" + TEXT, bullet_schema(3))
    assert routes_llm.served["replica"] == served + 1


def test_rebuild_without_endpoint_reads_the_cache_and_a_miss_is_an_error(replica, tmp_path):
    instr = load_instruction(*OUTLINE_INSTRUCTION)
    online = _client(replica.base_url + "/v1", "replica", tmp_path).ask(instr, "N = 1\n\n" + TEXT, bullet_schema(1))
    offline = _client(None, "replica", tmp_path)
    assert offline.ask(instr, "N = 1\n\n" + TEXT, bullet_schema(1)) == online
    with pytest.raises(LLMError, match="not in the cache"):
        offline.ask(instr, "N = 2\n\n" + TEXT, bullet_schema(2))


def test_server_without_json_schema_gets_plain_json_validated(replica, tmp_path):
    client = _client(replica.base_url + "/v1", "replica-plain", tmp_path)
    instr = load_instruction(*OUTLINE_INSTRUCTION)
    answer = client.ask(instr, "N = 2\n\n" + TEXT, bullet_schema(2))
    assert len(answer["bullets"]) == 2
    assert client.structured is False and client.stats.schema_fallbacks == 1
    client.ask(instr, "N = 3\n\n" + TEXT, bullet_schema(3))
    assert client.stats.schema_fallbacks == 1, "the refusal is remembered, not met on every request"


def test_parse_answer_rejects_what_the_schema_forbids():
    schema = bullet_schema(2)
    assert parse_answer('```json\n{"bullets": ["a b", "c d"]}\n```', schema) == {"bullets": ["a b", "c d"]}
    with pytest.raises(InvalidAnswer, match="schema"):
        parse_answer('{"bullets": ["a b", "c d", "e f"]}', schema)
    with pytest.raises(InvalidAnswer, match="not JSON"):
        parse_answer("Here are your bullets: first, second", schema)


def test_429_waits_as_told_then_answers(tmp_path):
    waits: list[float] = []
    with Replica(SAMPLE, faults="429@/v1/chat*2,retry_after=3") as rep:
        http = HttpClient(rep.base_url + "/v1", retry=RetryPolicy(attempts=4, backoff=0.01), sleep=waits.append)
        client = _client(rep.base_url + "/v1", "replica", tmp_path, http=http)
        answer = client.ask(load_instruction(*OUTLINE_INSTRUCTION), "N = 1\n\n" + TEXT, bullet_schema(1))
        assert len(answer["bullets"]) == 1 and rep.faults.injected["429"] == 2
    assert len(waits) == 2 and all(w >= 3 for w in waits), waits


def test_endpoint_down_is_a_source_stop_and_stops_asking(tmp_path):
    url = f"http://127.0.0.1:{free_port()}/v1"
    http = HttpClient(url, retry=RetryPolicy(attempts=2, backoff=0.01), sleep=lambda s: None)
    client = _client(url, "replica", tmp_path, http=http)
    instr = load_instruction(*OUTLINE_INSTRUCTION)
    with pytest.raises(LLMUnavailable) as err:
        client.ask(instr, "N = 1\n\n" + TEXT, bullet_schema(1))
    assert isinstance(err.value, SourceStopped) and "unavailable" in str(err.value)
    http.on_response = lambda r: pytest.fail("asked again after the endpoint was found down")
    with pytest.raises(LLMUnavailable):
        client.ask(instr, "N = 2\n\n" + TEXT, bullet_schema(2))


def test_unknown_model_is_one_clear_error(replica, tmp_path):
    with pytest.raises(LLMError, match="HTTP 404"):
        _client(replica.base_url + "/v1", "gpt-nonexistent", tmp_path).ask(
            load_instruction(*OUTLINE_INSTRUCTION), "N = 1\n\n" + TEXT, bullet_schema(1))
