"""PTAB ODP: conformance on the recorded responses and the real client against the replica."""
from __future__ import annotations

import copy
import json
from datetime import date
from pathlib import Path

import pytest

from patentfactory.sim.upstream import Replica
from sources.ptab import fetch_decision_pages, parse_search_page, ptab_client

pytestmark = pytest.mark.services


def test_raw_recorded_search_response(real_samples: Path):
    res = parse_search_page((real_samples / "ptab-odp" / "search_appeal_decisions.raw.json").read_bytes(), "raw")
    rows = res.rows["ptab_decisions"]
    assert not res.rejects and len(rows) == 2
    first = rows[0]
    assert first["decision_id"] == "52a45c0a-8bfd-4a3c-a5ae-45ecef055d27"
    assert first["appeal_number"] == "2026001845" and first["app_id"] == "US-18798196"
    assert first["decision_date"] == date(2026, 5, 22)
    assert first["outcome"] == "Affirmed" and first["issue_types"] == ["112"]
    assert first["statutes"] == ["35 USC 251", "35 USC 134"]
    assert first["text"].startswith("UNITED STATES PATENT AND TRADEMARK OFFICE") and first["text_origin"] == "api"
    assert json.loads(first["raw"])["appellantData"]["inventorName"] == "Charlie Pigonska Haagendrup"
    assert rows[1]["outcome"] == "Reversed" and rows[1]["app_id"] == "US-16894242"
    tables = res.to_arrow()
    assert tables["ptab_decisions"].num_rows == 2


def test_demo_responses_match_the_raw_values(real_samples: Path):
    demo = parse_search_page((real_samples / "ptab-odp" / "search_appeal_decisions.demo.json").read_bytes(), "d")
    one = parse_search_page((real_samples / "ptab-odp" / "get_appeal_decision.demo.json").read_bytes(), "g")
    assert one.rows["ptab_decisions"][0]["decision_id"] == demo.rows["ptab_decisions"][0]["decision_id"]
    assert len(demo.rows["ptab_decisions"]) >= 2 and not demo.rejects


def test_missing_field_and_bad_json_become_rejects(real_samples: Path):
    page = json.loads((real_samples / "ptab-odp" / "search_appeal_decisions.raw.json").read_bytes())
    del page["patentAppealDataBag"][1]["decisionData"]["decisionIssueDate"]
    res = parse_search_page(json.dumps(page).encode(), "p.json")
    assert len(res.rows["ptab_decisions"]) == 1
    assert res.rejects[0]["locator"] == "record=1" and "decisionData.decisionIssueDate" in res.rejects[0]["message"]
    bad = parse_search_page(b'{"count": 3, "patentAppeal', "trunc.json")
    assert bad.rejects[0]["error_class"] == "JSONDecodeError" and not bad.rows


def test_client_pages_through_the_replica(tmp_path: Path, real_samples: Path):
    base = json.loads((real_samples / "ptab-odp" / "search_appeal_decisions.raw.json").read_bytes())
    rec_dir = tmp_path / "ptab" / "records"
    rec_dir.mkdir(parents=True)
    for i in range(7):
        rec = copy.deepcopy(base["patentAppealDataBag"][i % 2])
        rec["documentData"]["documentIdentifier"] = f"doc-{i}"
        rec["decisionData"]["decisionIssueDate"] = f"2024-0{1 + i % 6}-15"
        (rec_dir / f"{i}.json").write_text(json.dumps(rec))
    with Replica(tmp_path, faults="429@/api/v1/patent/appeals*1,retry_after=0") as rep:
        client = ptab_client(rep.base_url, "k")
        client.retry = type(client.retry)(min_after_429=0.0)
        client.min_interval = 0.0
        pages = list(fetch_decision_pages(client, date(2024, 1, 1), date(2024, 6, 30), limit=3))
        ids = [r["decision_id"] for _, p in pages for r in parse_search_page(p, "x").rows["ptab_decisions"]]
        assert [o for o, _ in pages] == [0, 3, 6]
        assert sorted(ids) == [f"doc-{i}" for i in range(7)]
        assert list(fetch_decision_pages(client, date(2030, 1, 1), date(2030, 2, 1))) == []
        unauth = ptab_client(rep.base_url, None)
        with pytest.raises(Exception, match="403"):
            list(fetch_decision_pages(unauth, date(2024, 1, 1), date(2024, 6, 30)))
