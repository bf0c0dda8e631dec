"""`pf run` and `pf build`: the whole offline pipeline, and one dataset from the warehouse."""
from __future__ import annotations

import json
import os
import time
from pathlib import Path
from typing import Annotated

import typer

from patentfactory.cli.main import DATA_DIR_HELP, OUT_HELP, app, build_app, command_settings, friendly, one_line, out, parse_scale
from patentfactory.errors import PFError
from patentfactory.store.publish_options import PublishOptions



STATUS_STYLE = {"published": "green", "nothing new": "green", "skipped": "yellow", "deferred": "yellow",
                "blocked": "red", "failed": "red", "stopped": "yellow"}


@app.command()
@friendly
def run(scale: Annotated[str, typer.Option(help="'sample' (the embedded world) or a number of inventions")] = "sample",
        out_root: Annotated[str | None, typer.Option("--out", help=OUT_HELP)] = None,
        data_dir: Annotated[Path | None, typer.Option("--data-dir", help=DATA_DIR_HELP)] = None,
        seed: Annotated[int, typer.Option()] = 1337,
        faults: Annotated[str, typer.Option(help="inject upstream faults into the replica, e.g. "
                                                  "'503=0.1,429@/3.2*2,truncate@/api/v1/datasets=0.05,seed=7' "
                                                  "(see `pf upstream serve --help`)")] = "",
        profile: Annotated[str | None, typer.Option(help="PatenTEB thresholds: sample (small worlds) | full (SPEC); "
                                                         "default PF_PROFILE, else by scale, full with --live")] = None,
        allow_drop: Annotated[bool, typer.Option(help="publish despite a row drop past the quality gate")] = False,
        allow_drift: Annotated[bool, typer.Option(help="publish despite a column drift past the quality gate (PF_QUALITY__*)")] = False,
        live: Annotated[bool, typer.Option(help="the live services of PF_UPSTREAMS__* and the credentials in the "
                                                "environment, incrementally (no world, no replica)")] = False,
        plan: Annotated[bool, typer.Option(help="with --live: list what would be fetched, download nothing")] = False) -> None:
    """Generate/serve the world, ingest, build and publish every dataset, then verify (offline by default).

    Ends with one line per dataset (published, nothing new, skipped, deferred, blocked or failed) and exits
    0 when every dataset published, had nothing new or was skipped with its why; 1 when one failed; 3 when the
    quality gate blocked one (--allow-drop / --allow-drift publish anyway); 4 when a source was stopped and a
    dataset deferred (the next night resumes)."""
    if plan and not live:
        raise PFError("--plan lists a live night", "use pf run --live --plan")
    if live and faults:
        raise PFError("--faults rehearses the replica", "drop --faults with --live")
    if profile not in (None, "sample", "full"):
        raise PFError(f"--profile must be sample or full, got {profile!r}", "e.g. --profile sample")
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
    from flows.nightly_live import EXIT_CODES

    started = time.monotonic()
    if plan:
        for p in nightly(data_dir=str(data_dir), out=out_root, sources="live", plan_only=True)["plan"]:
            out.print(p["line"], soft_wrap=True)
        return
    state = nightly(scale=scale, data_dir=str(data_dir), out=out_root, seed=seed, faults=faults,
                    sources="live" if live else "replica", profile=profile, allow_drop=allow_drop,
                    allow_drift=allow_drift, return_state=True)
    result = state.result(raise_on_failure=False)
    if isinstance(result, BaseException):
        raise result  # the night itself broke (not one dataset): friendly turns a PFError into one line
    print_night(result, faults)
    out.print(f"done in {time.monotonic() - started:.0f}s ({state.name}); datasets under {out_root}")
    code = EXIT_CODES.get(result.get("status", state.name), 1)
    if code:
        raise typer.Exit(code)


def print_night(result: dict, faults: str = "") -> None:
    """What came in, then one line per dataset (and per stopped source), then the evaluations."""
    for src, what in (("uspto", "weekly files"), ("lens", "export files")):
        if result.get(src):
            rows = ", ".join(f"{n:,} {table}" for table, n in result[src]["records"].items())
            out.print(f"{src}: {result[src]['files']} {what}; {rows or 'nothing new'}", soft_wrap=True)
    for line in result["summary"]:
        name, _, rest = line.partition(": ")
        status = next((s for s in STATUS_STYLE if rest.startswith(s)), "")
        style = STATUS_STYLE.get(status)
        out.print(f"[{style}]{name}[/]: {one_line(rest)}" if style else one_line(line), soft_wrap=True,
                  highlight=False)
    for name, ev in result["eval"].items():
        means = ", ".join(f"{m}={v:.3f}" for m, v in sorted(ev["overall"].items()))
        kept = " (kept: the version was scored on an earlier night)" if ev.get("kept") else ""
        out.print(f"eval {name} {ev['version']}: {means or 'no task scorable'} -> {ev['report']}{kept}", soft_wrap=True)
    if faults:
        out.print(f"faults injected: {json.dumps(result['faults_injected'], sort_keys=True)}", soft_wrap=True)


@build_app.command("patenteb")
@friendly
def build_patenteb_cmd(data_dir: Annotated[Path | None, typer.Option("--data-dir", help=DATA_DIR_HELP)] = None,
                       out_root: Annotated[str | None, typer.Option("--out", help=OUT_HELP)] = None,
                       seed: Annotated[int, typer.Option()] = 1337,
                       profile: Annotated[str | None, typer.Option(
                           help="sample (small thresholds) | full (SPEC); default PF_PROFILE, else full")] = None,
                       allow_drop: Annotated[bool, typer.Option(help="publish despite a quality-gate drop")] = False,
                       allow_drift: Annotated[bool, typer.Option(help="publish despite a column drift past the quality gate (PF_QUALITY__*)")] = False) -> None:
    """Build PatenTEB (15 tasks) from the warehouse and publish a verified version."""
    profile = command_settings().patenteb_profile(profile)
    if profile not in ("sample", "full"):
        raise PFError(f"unknown profile {profile!r}", "use sample or full")
    from patentfactory.store.storage import Storage  # fsspec: only in the commands that write

    Storage(out_root).check_writable()
    from patentfactory.stages.build_patenteb import build_and_publish_patenteb

    settings = command_settings()
    pub = build_and_publish_patenteb(data_dir, out_root, seed=seed, profile=profile,
                                     publish_options=PublishOptions.from_settings(settings, allow_drop, allow_drift),
                                     embeddings=settings.paths.embedding_cache, embed_chunk=settings.embed_chunk)
    out.print(f"{'published' if pub.created else 'unchanged'} {pub.dataset} {pub.version} at {pub.path}")
