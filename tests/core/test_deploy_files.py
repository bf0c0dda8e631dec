"""docker-compose.yml and prefect.yaml stay consistent (no Docker engine here to run them)."""
from __future__ import annotations

import importlib
from pathlib import Path

import yaml

REPO = Path(__file__).resolve().parents[2]


def test_compose_services_reference_each_other_consistently():
    doc = yaml.safe_load((REPO / "docker-compose.yml").read_text())
    services = doc["services"]
    assert {"postgres", "prefect-server", "minio", "minio-bucket", "worker"} <= set(services)
    for name, svc in services.items():
        for dep in (svc.get("depends_on") or {}):
            assert dep in services, f"{name} depends on unknown service {dep}"
        for vol in svc.get("volumes") or []:
            src = vol.split(":", 1)[0]
            assert src.startswith((".", "/")) or src in doc["volumes"], f"{name}: undeclared volume {src}"
    for name in ("postgres", "prefect-server", "minio"):
        assert "healthcheck" in services[name], f"{name} needs a healthcheck"
    assert services["worker"]["build"] == "."
    assert "mb --ignore-existing local/patentfactory" in services["minio-bucket"]["entrypoint"]


def test_prefect_yaml_entrypoints_exist_and_nightly_is_scheduled():
    doc = yaml.safe_load((REPO / "prefect.yaml").read_text())
    names = set()
    for dep in doc["deployments"]:
        path, func = dep["entrypoint"].split(":")
        mod = importlib.import_module(path.removesuffix(".py").replace("/", "."))
        flow = getattr(mod, func)
        names.add(flow.name)
        assert dep["work_pool"]["name"] == "local-pool"
    assert {"nightly", "build-patenteb", "build-pilot", "build-patentcr", "build-ipbench", "ingest-uspto", "ingest-lens",
            "ingest-ptab", "ingest-ops", "evaluate"} <= names
    nightly = next(d for d in doc["deployments"] if d["entrypoint"].endswith(":nightly"))
    assert nightly["schedules"][0]["cron"] == "0 2 * * *"


def test_production_nightly_is_live_scheduled_once_at_a_time_and_compose_passes_its_settings():
    doc = yaml.safe_load((REPO / "prefect.yaml").read_text())
    prod = next(d for d in doc["deployments"] if d["name"] == "production")
    assert prod["entrypoint"] == "flows/nightly.py:nightly"
    assert prod["parameters"]["sources"] == "live"
    assert prod["schedules"][0]["cron"] == "0 2 * * *" and prod["schedules"][0]["timezone"] == "UTC"
    assert prod["concurrency_limit"]["limit"] == 1
    sample = next(d for d in doc["deployments"] if d["name"] == "sample" and d["entrypoint"].endswith(":nightly"))
    assert sample["parameters"].get("sources", "replica") == "replica"
    from flows.nightly import nightly

    assert {"sources", "plan_only"} <= set(nightly.parameters.properties)
    env = yaml.safe_load((REPO / "docker-compose.yml").read_text())["services"]["worker"]["environment"]
    readme = (REPO / "README.md").read_text()
    for var in ("USPTO_ODP_API_KEY", "EPO_OPS_KEY", "EPO_OPS_SECRET", "PF_UPSTREAMS__LENS_EXPORTS", "PF_SINCE",
                "PF_UPSTREAMS__ODP_BASE_URL", "PF_UPSTREAMS__OPS_BASE_URL", "PF_UPSTREAMS__SPARQL_ENDPOINT",
                "PF_UPSTREAMS__FULLTEXT_VIA", "PF_PATHS__DATA_DIR", "PF_PATHS__PUBLISHED_ROOT", "PF_S3_ENDPOINT_URL"):
        assert var in env, f"the worker does not pass {var} through"
        assert var in readme, f"README's Operations section does not name {var}"
