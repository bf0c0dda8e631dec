"""`pf ingest ptab`, `pf build pilot` and `pf pilot routes`: PTAB decisions into the warehouse, PILOT-Bench out of
it, and the opinion split's routes measured side by side on the hand-labelled reference decisions."""
from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from patentfactory.cli.main import DATA_DIR_HELP, OUT_HELP, app, build_app, command_settings, date_range, friendly, ingest_app, out
from patentfactory.store.publish_options import PublishOptions

pilot_app = typer.Typer(no_args_is_help=True, help="PILOT-Bench tools.")
app.add_typer(pilot_app, name="pilot")


@ingest_app.command("ptab")
@friendly
def ingest_ptab_cmd(start: Annotated[str, typer.Option("--from", help="first decision date YYYY-MM-DD")] = "2006-01-01",
                    end: Annotated[str, typer.Option("--to", help="last decision date YYYY-MM-DD")] = "2100-01-01",
                    data_dir: Annotated[Path | None, typer.Option("--data-dir", help=DATA_DIR_HELP)] = None,
                    base_url: Annotated[str | None, typer.Option("--base-url", help="ODP base URL (replica or live); "
                                                                 "default PF_UPSTREAMS__ODP_BASE_URL")] = None) -> None:
    """ODP PTAB decisions and their PDFs (OCR for scans) into the warehouse."""
    lo, hi = date_range(start, end)  # a wrong date is refused before the fetcher and its parsers load
    from patentfactory.stages.ingest_ptab import ingest_ptab
    from patentfactory.store.storage import Storage  # fsspec: only in the commands that write

    Storage(data_dir).check_writable()
    settings = command_settings()
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
                    splitter: Annotated[str | None, typer.Option(help="opinion split: rules | classifier | llm (default: llm when PF_LLM__BASE_URL "
                                                              "is set, else classifier)")] = None
                    ) -> None:
    """Build PILOT-Bench (PTAB opinion split + labels) from the warehouse and publish a verified version."""
    from patentfactory.store.storage import Storage  # fsspec: only in the commands that write

    Storage(out_root).check_writable()
    from patentfactory.stages.build_pilot import build_and_publish_pilot

    settings = command_settings()
    pub = build_and_publish_pilot(data_dir, out_root, seed=seed, truth=truth,
                                  publish_options=PublishOptions.from_settings(settings, allow_drop, allow_drift),
                                  splitter=splitter, llm=settings.llm)
    out.print(f"{'published' if pub.created else 'unchanged'} {pub.dataset} {pub.version} at {pub.path}")


@pilot_app.command("routes")
@friendly
def routes_cmd(data_dir: Annotated[Path | None, typer.Option(
                   "--data-dir", help=DATA_DIR_HELP + " (the LLM route caches answers there)")] = None,
               reference: Annotated[Path | None, typer.Option(help="reference fixtures folder (ptab_real/ and "
                                                             "ptab_decisions/); default: the repository's")] = None,
               llm: Annotated[bool | None, typer.Option("--llm/--no-llm", help="score the LLM route too (default: "
                                                        "when PF_LLM__BASE_URL is set)")] = None,
               write_scores: Annotated[bool, typer.Option(
                   "--write-scores", help="rewrite the committed scores of the rules and the classifier (what the "
                                          "PILOT card shows), keeping each blind batch's first-score note and "
                                          "writing it for a batch scored for the first time")] = False) -> None:
    """Each opinion-split route's precision/recall for the two input roles on the reference decisions (a row per
    blind batch of the real decisions, a new batch included as soon as its files say `batch: N`, the rest of them,
    the real-style set) and the Board sentences it put into an input: the rules, the trained classifier (trained on
    the dev decisions and blind batches 1-6, never on a later one), and the LLM when an endpoint is set."""
    from patentfactory.stages import llm_routes
    from transforms.opinion_reference import REFERENCE_DIR, reference_sets, routes_table

    settings = command_settings()
    routes = ["rules", "classifier"] + (["llm"] if (llm if llm is not None else bool(settings.llm.base_url)) else [])
    splitters = [llm_routes.make_splitter(r, data_dir, settings.llm) for r in routes]
    rows = routes_table(splitters, reference_sets(reference or REFERENCE_DIR))
    out.print("route | set | decisions | sentences | appellant P | appellant R | examiner P | examiner R | "
              "Board sentences in inputs", soft_wrap=True)
    for r in rows:
        out.print(f"{r['route']} | {r['set']} | {r['decisions']} | {r['sentences']} | {r['appellant_p']} | "
                  f"{r['appellant_r']} | {r['examiner_p']} | {r['examiner_r']} | {r['board_in_inputs']}", soft_wrap=True)
    if write_scores:
        for path in _write_scores(splitters[:2], reference or REFERENCE_DIR):
            out.print(f"wrote {path}")
    if "llm" not in routes:
        out.print("(set PF_LLM__BASE_URL and PF_LLM__MODEL, or pass --llm, to score the LLM route beside the rules)")


def _write_scores(splitters: list, reference: Path, paths: tuple[Path, Path] | None = None) -> list[Path]:
    """The committed scores of the rules and the classifier (`paths`; default the package's), rewritten from today's
    figures: the notes already there are kept, a blind batch scored for the first time gets its first score as its
    note."""
    import json

    from patentfactory.stages.build_pilot import CLASSIFIER_SCORES, REFERENCE_SCORES
    from transforms.opinion_classifier import route_report
    from transforms.opinion_reference import committed_notes, first_score_note, reference_report, reference_sets

    sets = reference_sets(reference)
    written = []
    for path, splitter in zip(paths or (REFERENCE_SCORES, CLASSIFIER_SCORES), splitters):
        notes = committed_notes(json.loads(path.read_text(encoding="utf-8")) if path.exists() else {})
        if hasattr(splitter, "model"):
            report = route_report(splitter, notes, sets)
        else:
            report = reference_report(sets["real-style"], splitter, notes.get("held_out", ""), sets,
                                      {k: v for k, v in notes.items() if k != "held_out"})
        for key, part in report["real"].items():
            if key.startswith("blind") and "note" not in part:
                part["note"] = first_score_note(splitter.name, part)
        path.write_text(json.dumps(report, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        written.append(path)
    return written

