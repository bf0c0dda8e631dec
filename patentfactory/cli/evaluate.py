"""`pf eval`: score a published dataset version with simple baselines and write its report."""
from __future__ import annotations

from typing import Annotated

import typer
from rich.table import Table

from patentfactory.cli.main import OUT_HELP, app, command_settings, friendly, out
from patentfactory.datasets import NAMES


@app.command("eval")
@friendly
def eval_cmd(dataset: Annotated[str, typer.Argument(help=" | ".join(NAMES))],
             out_root: Annotated[str | None, typer.Option("--root", help=OUT_HELP)] = None,
             version: Annotated[str | None, typer.Option(help="version to score (default: LATEST)")] = None,
             model: Annotated[str | None, typer.Option(
                 "--model", help="local SentenceTransformer folder (default: packaged all-MiniLM-L6-v2)")] = None,
             max_queries: Annotated[int | None, typer.Option(
                 "--max-queries", help="cap distinct queries per retrieval task (seeded sample)")] = None,
             data_dir: Annotated[str | None, typer.Option(
                 "--data-dir", help="read and fill this data dir's embedding cache (default PF_PATHS__DATA_DIR, "
                                    "else data; PF_PATHS__EMBEDDING_CACHE, when set, wins)")] = None) -> None:
    """Score DATASET's published version under ROOT and write eval/<dataset>/<version>/report.md."""
    import os

    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    from patentfactory.evaluation import OVERALL, evaluate_dataset, write_report
    from patentfactory.store.storage import Storage

    storage = Storage(out_root)
    result = evaluate_dataset(storage, dataset, version, model_path=model, max_queries=max_queries, data_dir=data_dir,
                              embeddings=command_settings().paths.embedding_cache)
    paths = write_report(storage, result)
    table = Table(title=f"{result.dataset} {result.version}")
    for col, justify in (("task", "left"), ("model", "left"), ("metric", "left"), ("value", "right")):
        table.add_column(col, justify=justify)  # type: ignore[arg-type]
    for row in result.frame().iter_rows(named=True):
        style = "bold" if row["task"] == OVERALL else None
        table.add_row(row["task"], row["model"], row["metric"], f"{row['value']:.4f}", style=style)
    out.print(table)
    for skipped in result.skipped:
        out.print(f"[yellow]skipped[/] {skipped.task}: {skipped.reason}")
    out.print(f"report: {paths.report}")
