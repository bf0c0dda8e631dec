"""`pf ingest semopenalex`, `pf build pap2pat` and `pf parse sparql`: the Pap2Pat commands."""
from __future__ import annotations

from datetime import date
from pathlib import Path
from typing import Annotated

import typer

from patentfactory.cli.main import DATA_DIR_HELP, OUT_HELP, build_app, command_settings, friendly, ingest_app, out
from patentfactory.errors import PFError
from patentfactory.store.publish_options import PublishOptions


def _params(app_from: str, app_to: str, seed: int):
    from patentfactory.stages.build_pap2pat import Pap2PatParams
    from transforms.tasks.pap2pat import SplitParams

    try:
        lo, hi = date.fromisoformat(app_from), date.fromisoformat(app_to)
    except ValueError:
        raise PFError(f"bad filing range {app_from!r}..{app_to!r}", "use YYYY-MM-DD") from None
    return Pap2PatParams(app_from=lo, app_to=hi, split=SplitParams(seed=seed))


@ingest_app.command("semopenalex")
@friendly
def ingest_semopenalex_cmd(data_dir: Annotated[Path | None, typer.Option("--data-dir", help=DATA_DIR_HELP)] = None,
                           endpoint: Annotated[str | None, typer.Option(help="SPARQL endpoint (default: settings)")] = None,
                           app_from: Annotated[str, typer.Option("--from", help="first filing day")] = "2005-01-01",
                           app_to: Annotated[str, typer.Option("--to", help="last filing day")] = "2024-04-30",
                           fulltext_via: Annotated[str | None, typer.Option(
                               "--fulltext-via", help="mirror base URL serving the papers' JATS and PDFs (default "
                                                      "PF_UPSTREAMS__FULLTEXT_VIA, else Europe PMC and PDF links)")] = None,
                           ) -> None:
    """Works of the US applications' inventors from SemOpenAlex into the warehouse (cached; reruns send nothing),
    the matched works with their full text (PMC JATS, else the open-access PDF)."""
    from patentfactory.stages.build_pap2pat import ingest_semopenalex
    settings = command_settings()
    upstreams = settings.upstreams
    out.print(ingest_semopenalex(data_dir, endpoint or upstreams.sparql_endpoint, _params(app_from, app_to, 1337),
                                 fulltext_via=fulltext_via or upstreams.fulltext_via,
                                 sparql_concurrency=settings.sparql_concurrency, grobid=settings.grobid,
                                 arxiv=settings.arxiv, parsed_cache=settings.paths.parsed_cache))


@build_app.command("pap2pat")
@friendly
def build_pap2pat_cmd(data_dir: Annotated[Path | None, typer.Option("--data-dir", help=DATA_DIR_HELP)] = None,
                      out_root: Annotated[str | None, typer.Option("--out", help=OUT_HELP)] = None,
                      seed: Annotated[int, typer.Option()] = 1337,
                      app_from: Annotated[str, typer.Option("--from", help="first filing day")] = "2005-01-01",
                      app_to: Annotated[str, typer.Option("--to", help="last filing day")] = "2024-04-30",
                      json_out: Annotated[bool, typer.Option("--json", help="also write per-pair JSON folders")] = False,
                      allow_drop: Annotated[bool, typer.Option(help="publish despite a quality-gate drop")] = False,
                      allow_drift: Annotated[bool, typer.Option(help="publish despite a column drift past the quality gate (PF_QUALITY__*)")] = False,
                      outliner: Annotated[str | None, typer.Option(help="outline bullets: offline | llm (default: llm when PF_LLM__BASE_URL is set)")] = None) -> None:
    """Match patents to papers from the warehouse and publish a verified Pap2Pat version."""
    from patentfactory.stages.build_pap2pat import publish_pap2pat

    from patentfactory.store.storage import Storage  # fsspec: only in the commands that write

    Storage(out_root).check_writable()
    settings = command_settings()
    pub = publish_pap2pat(data_dir, out_root, _params(app_from, app_to, seed), json_out=json_out,
                          publish_options=PublishOptions.from_settings(settings, allow_drop, allow_drift),
                          outliner=outliner, llm=settings.llm)
    out.print(f"{'published' if pub.created else 'unchanged'} {pub.dataset} {pub.version} at {pub.path}")
