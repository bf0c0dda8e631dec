"""The OPS client against the replica: OAuth2, token refresh, throttling colours, 404s, paging."""
from __future__ import annotations

import shutil
import time
from pathlib import Path

import pytest

from patentfactory.sim.upstream import Replica
from patentfactory.sim.upstream.routes_ops import revoke_tokens
from patentfactory.sim.upstream.server import scaled_throttling
from sources.epo_ops.client import OpsClient, OpsStopped, Throttle
from sources.http import RetryPolicy

pytestmark = pytest.mark.services

DOC = "EP.2400812.A1"


@pytest.fixture()
def world(tmp_path: Path, real_samples: Path) -> Path:
    """A world holding the real recorded OPS responses for EP2400812A1 (copied at test time only)."""
    docdir = tmp_path / "ops" / "published-data" / "publication" / "docdb" / DOC
    docdir.mkdir(parents=True)
    for name in ("biblio", "claims", "description"):
        shutil.copy(real_samples / "epo-ops" / f"get_{name}.response.xml", docdir / f"{name}.xml")
    fam = tmp_path / "ops" / "family" / "publication" / "docdb"
    fam.mkdir(parents=True)
    shutil.copy(real_samples / "epo-ops" / "get_family.response.xml", fam / f"{DOC}.xml")
    return tmp_path


def _client(base: str, sleeps: list[float]) -> OpsClient:
    return OpsClient("my-key", "my-secret", base + "/3.2", sleep=sleeps.append,
                     retry=RetryPolicy(attempts=3, backoff=0.01))


def test_fetches_real_responses_with_oauth(world, real_samples):
    sleeps: list[float] = []
    with Replica(world) as rep:
        ops = _client(rep.base_url, sleeps)
        claims = ops.published(DOC, "claims")
        fam = ops.family(DOC)
        missing = ops.published("EP.9999999.A1", "biblio")
    assert claims == (real_samples / "epo-ops" / "get_claims.response.xml").read_bytes()
    assert fam == (real_samples / "epo-ops" / "get_family.response.xml").read_bytes()
    assert missing is None, "a 404 is a missing document, not an error"
    assert "my-secret" not in repr(ops) and "my-key" not in repr(ops)


def test_refreshes_an_expired_token(world):
    with Replica(world) as rep:
        ops = _client(rep.base_url, [])
        assert ops.published(DOC, "biblio")
        first = ops.token()
        revoke_tokens()
        assert ops.published(DOC, "biblio"), "401 -> new token -> success"
        assert ops.token() != first


def test_throttle_colours_pace_and_black_stops(world):
    sleeps: list[float] = []
    with Replica(world, faults="red@/3.2/rest-services*1") as rep:
        ops = _client(rep.base_url, sleeps)
        started = time.monotonic()
        ops.published(DOC, "biblio")
        assert ops.throttle.services["retrieval"][0] == "red"
        ops.published(DOC, "claims")
        # starts are spaced by the pace: 10 s after the previous start, so the wait is 10 s less the time since
        assert sleeps and sleeps[-1] >= 10.0 - (time.monotonic() - started), "red -> long pause before the next call"
    with Replica(world, faults="black@/3.2/rest-services*1") as rep:
        with pytest.raises(OpsStopped, match="quota or block"):
            _client(rep.base_url, []).published(DOC, "biblio")


def test_a_scaled_replica_advertises_faster_rates_and_the_client_paces_by_them(world):
    """PF_REPLICA__OPS_RATE_SCALE: the header's per-minute rates times the scale (yellow's too, black's 0 stays),
    and the client, told a faster pace, keeps it: its next start slot is a twentieth as far off."""
    with Replica(world) as plain, Replica(world, ops_rate_scale=20, faults="yellow@/3.2/rest-services/family*1") as fast:
        slow_ops, fast_ops = _client(plain.base_url, []), _client(fast.base_url, [])
        slow_ops.published(DOC, "biblio")
        fast_ops.published(DOC, "biblio")
        assert slow_ops.throttle.services["retrieval"] == ("green", 200)
        assert fast_ops.throttle.services["retrieval"] == ("green", 4000)
        assert fast_ops.throttle.delay("inpadoc") == pytest.approx(slow_ops.throttle.delay("inpadoc") / 20)
        fast_ops.family(DOC)
        assert fast_ops.throttle.services["inpadoc"] == ("yellow", 600)
        assert fast_ops.throttle.services["images"] == ("green", 4000)


def test_scaling_keeps_black_and_the_state():
    header = "overloaded (images=black:0, retrieval=red:10, search=yellow:15)"
    assert scaled_throttling(header, 20) == "overloaded (images=black:0, retrieval=red:200, search=yellow:300)"
    assert scaled_throttling(header, 0.01) == "overloaded (images=black:0, retrieval=red:1, search=yellow:1)"


def test_throttle_header_parsing():
    t = Throttle.parse("busy (images=green:200, inpadoc=yellow:30, other=green:1000, retrieval=green:120, "
                       "search=black:0)")
    assert t.state == "busy" and t.services["inpadoc"] == ("yellow", 30)
    assert t.delay("retrieval") == pytest.approx(0.5)
    assert t.delay("inpadoc") == pytest.approx(4.0)
    with pytest.raises(OpsStopped):
        t.delay("search")


def test_search_pages_by_range(world):
    docroot = world / "ops" / "published-data" / "publication" / "docdb"
    for i in range(5):  # more documents, same biblio body, so paging has something to page
        shutil.copytree(docroot / DOC, docroot / f"EP.{2400820 + i}.A1")
    with Replica(world) as rep:
        pages = list(_client(rep.base_url, []).search_pages("pn=EP", page=2))
    assert len(pages) == 3 and b'total-result-count="6"' in pages[0]


def test_missing_credentials_is_a_clear_error():
    with pytest.raises(ValueError, match="EPO_OPS_KEY and EPO_OPS_SECRET"):
        OpsClient("", "")


def test_one_client_shared_by_threads_keeps_the_pace(world):
    """Eight threads asking at once through one client: the starts are spaced by the pace the replica's green
    header sets (retrieval 200/min -> 0.3 s), not a burst of eight; every answer arrives. The start slots are
    read off the client's own clock (the reading it reserved a slot at, plus the wait it asked for), so a loaded
    machine that wakes a thread late does not move them."""
    import threading
    from concurrent.futures import ThreadPoolExecutor

    seen = threading.local()
    starts: list[float] = []

    def clock() -> float:
        seen.now = time.monotonic()
        return seen.now

    def sleep(seconds: float) -> None:
        starts.append(seen.now + seconds)  # the slot this thread was given, under the client's lock
        time.sleep(seconds)

    with Replica(world) as rep:
        ops = OpsClient("my-key", "my-secret", rep.base_url + "/3.2", sleep=sleep, clock=clock)
        ops.published(DOC, "biblio")  # the first answer tells the pace
        begun = time.monotonic()
        with ThreadPoolExecutor(8) as pool:
            answers = list(pool.map(lambda _: ops.published(DOC, "claims"), range(8)))
        elapsed = time.monotonic() - begun
    assert all(a and b"<claims" in a for a in answers)
    assert len(starts) >= 7 and elapsed >= 7 * 0.3 - 0.31, (elapsed, starts)
    gaps = [b - a for a, b in zip(sorted(starts), sorted(starts)[1:])]
    assert min(gaps) >= 0.3 - 1e-6, gaps
