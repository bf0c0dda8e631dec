"""`pf build patentcr` and `pf build ipbench`: the two datasets built from OPS and from the warehouse."""
from __future__ import annotations

from datetime import date
from pathlib import Path
from typing import Annotated

import typer

from patentfactory.cli.main import DATA_DIR_HELP, OUT_HELP, build_app, command_settings, friendly, out
from patentfactory.errors import PFError
from patentfactory.store.publish_options import PublishOptions


def _months(text: str) -> tuple[int, ...]:
    try:
        months = tuple(int(m) for m in text.split(",") if m.strip())
    except ValueError:
        raise PFError(f"bad --test-months {text!r}", "use comma-separated month numbers, e.g. 6 or 5,6") from None
    if not months or not all(1 <= m <= 12 for m in months):
        raise PFError(f"bad --test-months {text!r}", "months are 1..12")
    return months


@build_app.command("patentcr")
@friendly
def build_patentcr_cmd(data_dir: Annotated[Path | None, typer.Option("--data-dir", help=DATA_DIR_HELP)] = None,
                       out_root: Annotated[str | None, typer.Option("--out", help=OUT_HELP)] = None,
                       ops_url: Annotated[str | None, typer.Option(help="OPS base URL (replica: URL + /3.2)")] = None,
                       start: Annotated[str, typer.Option(help="first B1 publication day")] = "2024-01-01",
                       end: Annotated[str, typer.Option(help="last B1 publication day")] = "2024-06-30",
                       test_months: Annotated[str, typer.Option(help="months that form the test split")] = "6",
                       cql: Annotated[str | None, typer.Option(help="search template with {lo} {hi}")] = None,
                       allow_drop: Annotated[bool, typer.Option(help="publish despite a quality-gate drop")] = False,
                       allow_drift: Annotated[bool, typer.Option(help="publish despite a column drift past the quality gate (PF_QUALITY__*)")] = False) -> None:
    """Build Patent-CR (EP claims before/after grant) through OPS and publish a verified version."""
    from patentfactory.stages.build_patentcr import PatentCRParams, build_and_publish_patentcr, ops_client_from_settings
    try:
        lo, hi = date.fromisoformat(start), date.fromisoformat(end)
    except ValueError:
        raise PFError(f"bad date range {start!r}..{end!r}", "use YYYY-MM-DD") from None
    from patentfactory.store.storage import Storage  # fsspec: only in the commands that write

    Storage(out_root).check_writable()
    params = PatentCRParams(start=lo, end=hi, test_months=_months(test_months),
                            **({"cql_template": cql} if cql else {}))
    from patentfactory.stages.ingest_ops import Recheck

    settings = command_settings()
    client = ops_client_from_settings(settings, ops_url)
    pub = build_and_publish_patentcr(data_dir, out_root, client, params,
                                     publish_options=PublishOptions.from_settings(command_settings(), allow_drop, allow_drift),
                                     recheck=Recheck(settings.ops_404_recheck_days),
                                     ops_concurrency=settings.ops_concurrency)
    out.print(f"{'published' if pub.created else 'unchanged'} {pub.dataset} {pub.version} at {pub.path}")


@build_app.command("ipbench")
@friendly
def build_ipbench_cmd(data_dir: Annotated[Path | None, typer.Option("--data-dir", help=DATA_DIR_HELP)] = None,
                      out_root: Annotated[str | None, typer.Option("--out", help=OUT_HELP)] = None,
                      seed: Annotated[int, typer.Option()] = 1337,
                      max_items: Annotated[int, typer.Option(help="items per task at most")] = 1000,
                      allow_drop: Annotated[bool, typer.Option(help="publish despite a quality-gate drop")] = False,
                      allow_drift: Annotated[bool, typer.Option(help="publish despite a column drift past the quality gate (PF_QUALITY__*)")] = False) -> None:
    """Build the automatically buildable IPBench tasks from the warehouse and publish a verified version."""
    from patentfactory.stages.build_ipbench import build_and_publish_ipbench

    from patentfactory.store.storage import Storage  # fsspec: only in the commands that write

    Storage(out_root).check_writable()
    pub = build_and_publish_ipbench(data_dir, out_root, seed=seed, max_items=max_items,
                                    publish_options=PublishOptions.from_settings(command_settings(), allow_drop, allow_drift))
    out.print(f"{'published' if pub.created else 'unchanged'} {pub.dataset} {pub.version} at {pub.path}")
