"""`pf export beir`: a published version's retrieval tasks as folders BEIR's `GenericDataLoader` reads."""
from __future__ import annotations

from typing import Annotated

import typer

from patentfactory.cli.main import OUT_HELP, app, friendly, out

export_app = typer.Typer(no_args_is_help=True, help="Write a published version in another toolkit's layout.")
app.add_typer(export_app, name="export")


@export_app.command("beir")
@friendly
def beir_cmd(dest: Annotated[str, typer.Option("--out", help="folder (or s3://…) to write <task>/<split>/ into")],
             out_root: Annotated[str | None, typer.Option("--root", help=OUT_HELP)] = None,
             dataset: Annotated[str, typer.Option(help="published dataset")] = "patenteb",
             version: Annotated[str | None, typer.Option(help="version (default: LATEST)")] = None,
             task: Annotated[list[str] | None, typer.Option("--task", help="retrieval task (repeat; default all)")] = None,
             ) -> None:
    """Write each retrieval task as <out>/<task>/<train|dev|test>/{corpus.jsonl,queries.jsonl,qrels/<split>.tsv}."""
    from patentfactory.evaluation.beir_export import export_beir
    from patentfactory.evaluation.published import open_version
    from patentfactory.store.storage import Storage

    pv = open_version(Storage(out_root), dataset, version)
    done = export_beir(pv, Storage(dest), task)
    for t in done:
        sizes = ", ".join(f"{s}: {d} docs / {q} queries / {r} qrels" for s, (d, q, r) in sorted(t.splits.items()))
        out.print(f"{t.task}: {sizes or 'nothing written'}")
        for split, why in sorted(t.skipped.items()):
            out.print(f"[yellow]skipped[/] {t.task}/{split}: {why}")
    out.print(f"{dataset} {pv.version}: {sum(1 for t in done if t.splits)} tasks written under {dest} "
              f"(GenericDataLoader('<out>/<task>/test').load(split='test'))")
