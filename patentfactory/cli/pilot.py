"""`pf ingest ptab` and `pf build pilot`: PTAB decisions into the warehouse, PILOT-Bench out of it."""
from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from patentfactory.cli.main import DATA_DIR_HELP, OUT_HELP, build_app, date_range, friendly, ingest_app, out


@ingest_app.command("ptab")
@friendly
def ingest_ptab_cmd(start: Annotated[str, typer.Option("--from", help="first decision date YYYY-MM-DD")] = "2006-01-01",
                    end: Annotated[str, typer.Option("--to", help="last decision date YYYY-MM-DD")] = "2100-01-01",
                    data_dir: Annotated[Path | None, typer.Option("--data-dir", help=DATA_DIR_HELP)] = None,
                    base_url: Annotated[str | None, typer.Option("--base-url", help="ODP base URL (replica or live); "
                                                                 "default PF_UPSTREAMS__ODP_BASE_URL")] = None) -> None:
    """ODP PTAB decisions and their PDFs (OCR for scans) into the warehouse."""
    from patentfactory.stages.build_pilot import ingest_ptab
    from patentfactory.stages.ingest_files import default_settings

    from patentfactory.store.storage import Storage  # fsspec: only in the commands that write

    lo, hi = date_range(start, end)
    Storage(data_dir).check_writable()
    settings = default_settings()
    stats = ingest_ptab(data_dir, base_url or settings.upstreams.odp_base_url, lo, hi, settings.odp_api_key())
    out.print(f"ptab: {stats['records']} decisions on {stats['pages']} pages, {stats['pdfs']} PDFs read "
              f"{stats['origins']}, {stats['skipped']} already done, {stats['rejects']} rejects")


@build_app.command("pilot")
@friendly
def build_pilot_cmd(data_dir: Annotated[Path | None, typer.Option("--data-dir", help=DATA_DIR_HELP)] = None,
                    out_root: Annotated[str | None, typer.Option("--out", help=OUT_HELP)] = None,
                    seed: Annotated[int, typer.Option()] = 1337,
                    truth: Annotated[Path | None, typer.Option(help="generator truth/ptab_opinions.parquet")] = None,
                    allow_drop: Annotated[bool, typer.Option(help="publish despite a quality-gate drop")] = False,
                    allow_drift: Annotated[bool, typer.Option(help="publish despite a column drift past the quality gate (PF_QUALITY__*)")] = False,
                    splitter: Annotated[str | None, typer.Option(help="opinion split: rules | llm (default: llm when PF_LLM__BASE_URL is set)")] = None
                    ) -> None:
    """Build PILOT-Bench (PTAB opinion split + labels) from the warehouse and publish a verified version."""
    from patentfactory.store.storage import Storage  # fsspec: only in the commands that write

    Storage(out_root).check_writable()
    from patentfactory.stages.build_pilot import build_and_publish_pilot

    pub = build_and_publish_pilot(data_dir, out_root, seed=seed, truth=truth, allow_drop=allow_drop, allow_drift=allow_drift,
                                   splitter=splitter)
    out.print(f"{'published' if pub.created else 'unchanged'} {pub.dataset} {pub.version} at {pub.path}")
