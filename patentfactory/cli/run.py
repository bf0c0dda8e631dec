"""`pf run` and `pf build`: the whole offline pipeline, and one dataset from the warehouse."""
from __future__ import annotations

import json
import os
import time
from pathlib import Path
from typing import Annotated

import typer

from patentfactory.cli.main import app, build_app, friendly, out, parse_scale
from patentfactory.errors import PFError



@app.command()
@friendly
def run(scale: Annotated[str, typer.Option(help="'sample' (the embedded world) or a number of inventions")] = "sample",
        out_root: Annotated[str, typer.Option("--out", help="publish root (path or s3://bucket/prefix)")] = "data/published",
        data_dir: Annotated[Path, typer.Option("--data-dir", help="raw cache + warehouse")] = Path("data"),
        seed: Annotated[int, typer.Option()] = 1337,
        faults: Annotated[str, typer.Option(help="inject upstream faults into the replica, e.g. "
                                                  "'503=0.1,429@/3.2*2,truncate@/api/v1/datasets=0.05,seed=7' "
                                                  "(see `pf upstream serve --help`)")] = "",
        allow_drift: Annotated[bool, typer.Option(help="publish despite a column drift past the quality gate (PF_QUALITY__*)")] = False,
        live: Annotated[bool, typer.Option(help="the live services of PF_UPSTREAMS__* and the credentials in the "
                                                "environment, incrementally (no world, no replica)")] = False,
        plan: Annotated[bool, typer.Option(help="with --live: list what would be fetched, download nothing")] = False) -> None:
    """Generate/serve the world, ingest, build and publish every dataset, then verify (offline by default)."""
    if plan and not live:
        raise PFError("--plan lists a live night", "use pf run --live --plan")
    if live and faults:
        raise PFError("--faults rehearses the replica", "drop --faults with --live")
    parse_scale(scale)
    if faults:
        from patentfactory.sim.upstream.faults import Faults, FaultSpecError

        try:
            Faults(faults)
        except FaultSpecError as exc:
            raise PFError(f"--faults: {exc}", "rules look like KIND[@PATH]=RATE or KIND[@PATH]*N, plus seed=S") from None
    from patentfactory.store.storage import Storage  # fsspec: only in the commands that write

    Storage(out_root).check_writable()
    Storage(data_dir).check_writable()
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("PREFECT_SERVER_ANALYTICS_ENABLED", "false")
    os.environ.setdefault("PREFECT_LOGGING_LEVEL", "WARNING")
    from flows.nightly import nightly

    started = time.monotonic()
    if plan:
        for p in nightly(data_dir=str(data_dir), out=out_root, sources="live", plan_only=True)["plan"]:
            out.print(p["line"], soft_wrap=True)
        return
    result = nightly(scale=scale, data_dir=str(data_dir), out=out_root, seed=seed, faults=faults,
                     sources="live" if live else "replica", allow_drift=allow_drift)
    for name, why in ((n, w) for n, w in result["deferred"].items() if n.startswith("source:")):
        out.print(f"[yellow]stopped[/] {name.removeprefix('source:')}: {why}", soft_wrap=True)
    for src, what in (("uspto", "weekly files"), ("lens", "export files")):
        if result[src]:
            rows = ", ".join(f"{n:,} {table}" for table, n in result[src]["records"].items())
            out.print(f"{src}: {result[src]['files']} {what}; {rows or 'nothing new'}", soft_wrap=True)
    for name in ("patenteb", "patentcr", "ipbench", "pilot", "pap2pat"):
        pub = result[name]
        if pub is None and name in result.get("blocked", {}):
            out.print(f"[red]blocked[/] {name}: {result['blocked'][name]}", soft_wrap=True)
        elif pub is None and name in result.get("deferred", {}):
            out.print(f"[yellow]deferred[/] {name}: {result['deferred'][name]}")
        elif pub is None:
            out.print(f"[yellow]skipped[/] {name}: nothing to publish from this world (see the log)")
        elif pub.get("created") is False:
            out.print(f"unchanged {name} {pub['version']}: nothing new, LATEST stays")
        else:
            out.print(f"[green]published[/] {name} {pub['version']} ({pub['files']} files, verified)")
    for name, ev in result["eval"].items():
        means = ", ".join(f"{m}={v:.3f}" for m, v in sorted(ev["overall"].items()))
        out.print(f"eval {name} {ev['version']}: {means or 'no task scorable'} -> {ev['report']}", soft_wrap=True)
    if faults:
        out.print(f"faults injected: {json.dumps(result['faults_injected'], sort_keys=True)}", soft_wrap=True)
    out.print(f"done in {time.monotonic() - started:.0f}s; datasets under {out_root}")


@build_app.command("patenteb")
@friendly
def build_patenteb_cmd(data_dir: Annotated[Path, typer.Option("--data-dir")] = Path("data"),
                       out_root: Annotated[str, typer.Option("--out")] = "data/published",
                       seed: Annotated[int, typer.Option()] = 1337,
                       profile: Annotated[str, typer.Option(help="sample (small thresholds) | full (SPEC)")] = "full",
                       allow_drop: Annotated[bool, typer.Option(help="publish despite a quality-gate drop")] = False,
                       allow_drift: Annotated[bool, typer.Option(help="publish despite a column drift past the quality gate (PF_QUALITY__*)")] = False) -> None:
    """Build PatenTEB (15 tasks) from the warehouse and publish a verified version."""
    if profile not in ("sample", "full"):
        raise PFError(f"unknown profile {profile!r}", "use sample or full")
    from patentfactory.store.storage import Storage  # fsspec: only in the commands that write

    Storage(out_root).check_writable()
    from patentfactory.stages.build_patenteb import build_and_publish_patenteb

    pub = build_and_publish_patenteb(data_dir, out_root, seed=seed, profile=profile, allow_drop=allow_drop, allow_drift=allow_drift)
    out.print(f"{'published' if pub.created else 'unchanged'} {pub.dataset} {pub.version} at {pub.path}")
