"""`pf parse` and `pf ingest`: recorded files to Parquet, and upstreams into the warehouse."""
from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from patentfactory.cli.main import DATA_DIR_HELP, command_settings, date_range, friendly, ingest_app, out, parse_app
from patentfactory.errors import PFError

if TYPE_CHECKING:  # pyarrow, the parsers and polars load only in the commands that use them (start-up)
    from sources.records import ParseResult


PARSE_BATCH_BYTES = 4 << 20  # XML per `pf parse uspto` row group: its memory stays flat in the file's size


def _parsers() -> dict[str, tuple[str, Callable[[Path], Iterable[ParseResult]]]]:
    """source -> (primary table, parse function for one file)."""
    def lens(p: Path) -> list[ParseResult]:
        from sources.lens import parse_lens_csv, parse_lens_jsonl

        fn = parse_lens_jsonl if p.suffix.lower() in (".jsonl", ".json") else parse_lens_csv
        return [fn(p, p.name)]

    def ops(p: Path) -> list[ParseResult]:
        from sources.epo_ops.parse import parse_ops

        return [parse_ops(p.read_bytes(), p.name)]

    def ptab(p: Path) -> list[ParseResult]:
        from sources.ptab import parse_ptab_file

        return [parse_ptab_file(p)]

    def uspto(p: Path) -> Iterable[ParseResult]:
        from sources.uspto_bulk import parse_file

        return parse_file(p, batch_bytes=PARSE_BATCH_BYTES)  # one row group per batch, written as it comes

    def sparql(p: Path) -> list[ParseResult]:
        from sources.semopenalex import parse_sparql_results

        return [parse_sparql_results(p.read_bytes(), p.name)]

    return {"lens": ("publications", lens), "ops": ("publications", ops), "ptab": ("ptab_decisions", ptab),
            "uspto": ("publications", uspto), "sparql": ("papers", sparql)}


@parse_app.callback(invoke_without_command=True)
def _parse_doc() -> None:
    """Sources: uspto (zip/xml/APS txt), lens (CSV/JSONL), ops (XML), ptab (ODP JSON), sparql (SemOpenAlex SPARQL JSON results)."""


FORMATS = {"uspto": "a USPTO weekly zip, bare XML or APS text file", "lens": "a Lens CSV or JSONL export",
           "ops": "an EPO OPS XML response", "ptab": "an ODP PTAB decisions JSON page",
           "sparql": "a SemOpenAlex SPARQL JSON results document"}


def check_file(path: Path, hint: str) -> None:
    """A missing path or a folder is a user error, said before any parser sees it."""
    if not path.exists():
        raise PFError(f"no such file: {path}", hint)
    if not path.is_file():
        raise PFError(f"not a file: {path}", hint)


def iter_source_file(source: str, fn: Callable[[Path], Iterable[ParseResult]], path: Path) -> Iterator[ParseResult]:
    """One file through its parser, batch by batch; a file that cannot be read at all (unsafe or truncated
    archive, I/O error, wrong format: only rejects) becomes one PFError naming it. Partly bad files keep their
    rejects. The caller has checked that `path` is a readable file (before the parsers load)."""
    rows, n_rejects, first = 0, 0, None
    try:
        for res in fn(path):
            rows += sum(len(v) for v in res.rows.values())
            n_rejects += len(res.rejects)
            first = first or (res.rejects[0] if res.rejects else None)
            yield res
    except Exception as exc:  # noqa: BLE001 - whatever a parser raises on a bad file is reported on one line
        raise PFError(f"cannot read {path}: {exc}", f"pass {FORMATS[source]}; PF_DEBUG=1 shows the traceback") from exc
    if rows == 0 and first:
        raise PFError(f"nothing readable in {path}: {n_rejects} reject(s), first: {first['message']}",
                      f"is it {FORMATS[source]}? `pf parse {source}` reads only that")


def _parse_command(source: str) -> None:
    @parse_app.command(source)
    @friendly
    def cmd(files: Annotated[list[Path], typer.Argument(help="recorded upstream files")],
            out_path: Annotated[Path, typer.Option("--out", help="OUT.parquet")]) -> None:
        primary, fn = _parsers()[source]
        if out_path.suffix != ".parquet":
            raise PFError(f"--out must end with .parquet, got {out_path}", "e.g. --out parsed/pubs.parquet")
        for f in files:  # a missing file or a folder is refused before the writer (pyarrow) and the parser load
            check_file(f, f"pass {FORMATS[source]}")
        from patentfactory.stages.ingest import IngestStats
        from patentfactory.store.parse_writer import write_parsed

        summary = IngestStats(source)
        counts = write_parsed((summary.see(res) for f in files for res in iter_source_file(source, fn, f)),
                              out_path, primary)
        out.print(", ".join(f"{k}: {v:,}" for k, v in counts.items()) + f" -> {out_path}", soft_wrap=True)
        for line in summary.notes():
            out.print(line, soft_wrap=True)


for _source in ("uspto", "lens", "ops", "ptab", "sparql"):
    _parse_command(_source)


@ingest_app.command("lens")
@friendly
def ingest_lens_cmd(files: list[Path],
                    data_dir: Annotated[Path | None, typer.Option("--data-dir", help=DATA_DIR_HELP)] = None) -> None:
    """Lens CSV/JSONL exports into the warehouse (skips files already ingested)."""
    from patentfactory.stages.ingest_files import ingest_lens

    for f in files:
        check_file(f, "pass Lens CSV or JSONL export files")
    stats = ingest_lens(data_dir, files, progress=lambda n: out.print(f"lens: {n}"))
    out.print(stats)
    if stats["unreadable"]:
        raise PFError(f"{len(stats['unreadable'])} of {len(files)} files had nothing readable, first: "
                      f"{stats['unreadable'][0]}", "pass Lens CSV or JSONL exports; their rejects are in the "
                      "warehouse's `rejects` table and the readable files were ingested")


@ingest_app.command("uspto")
@friendly
def ingest_uspto_cmd(start: Annotated[str, typer.Option("--from", help="YYYY-MM-DD")],
                     end: Annotated[str, typer.Option("--to", help="YYYY-MM-DD")],
                     data_dir: Annotated[Path | None, typer.Option("--data-dir", help=DATA_DIR_HELP)] = None,
                     base_url: Annotated[str | None, typer.Option(help="ODP base URL (replica or live)")] = None) -> None:
    """Weekly grant/application zips from the ODP bulk API into the warehouse."""
    lo, hi = date_range(start, end)  # a wrong range is refused before the fetcher and its parsers load
    from patentfactory.stages.ingest_files import ingest_uspto

    settings = command_settings()
    stats = ingest_uspto(data_dir, base_url or settings.upstreams.odp_base_url, lo, hi, settings.odp_api_key(),
                         progress=lambda n: out.print(f"uspto: {n}"))
    out.print(stats)
    if stats["unreadable"]:
        raise PFError(f"{len(stats['unreadable'])} of {stats['files']} weekly files could not be read, first: "
                      f"{stats['unreadable'][0]}", "the other files were ingested; an unreadable file is recorded in "
                      "the warehouse's `rejects` table, left not done in the ledger and tried again on the next run")


@ingest_app.command("ops")
@friendly
def ingest_ops_cmd(numbers: Annotated[Path | None, typer.Option("--numbers", help="file: one number per line")] = None,
                   query: Annotated[str | None, typer.Option("--query", help="OPS CQL, e.g. 'pn=EP and pd=2024'")] = None,
                   data_dir: Annotated[Path | None, typer.Option("--data-dir", help=DATA_DIR_HELP)] = None,
                   base_url: Annotated[str | None, typer.Option(help="OPS base URL (replica or live)")] = None) -> None:
    """EPO OPS biblio + claims into the warehouse (credentials from EPO_OPS_KEY / EPO_OPS_SECRET)."""
    if (numbers is None) == (query is None):
        raise PFError("give exactly one of --numbers FILE or --query CQL", "e.g. --numbers ep_numbers.txt")
    docs = read_numbers_file(numbers) if numbers is not None else []  # a bad file is refused before any import
    from patentfactory.stages.build_patentcr import ops_client_from_settings
    from patentfactory.stages.ingest_ops import Recheck, ingest_ops, search_numbers

    settings = command_settings()
    client = ops_client_from_settings(settings, base_url)
    if query is not None:
        docs = search_numbers(client, query)
    out.print(ingest_ops(data_dir, client, docs, recheck=Recheck(settings.ops_404_recheck_days)))


def read_numbers_file(path: Path) -> list[str]:
    """OPS document names from a file of publication numbers; a file with none is a user error."""
    from patentfactory.stages.ingest_ops import OpsIngestStats, read_numbers

    hint = "one publication number per line, e.g. EP2400812A1 or EP.2400812.A1"
    check_file(path, hint)
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise PFError(f"{path} is not a UTF-8 text file", hint) from None
    except OSError as exc:
        raise PFError(f"cannot read {path}: {exc}", hint) from exc
    parsed = OpsIngestStats()
    docs = read_numbers(text, parsed)
    if not docs:
        first = f", first unreadable line: {parsed.bad_numbers[0][:80]!r}" if parsed.bad_numbers else ""
        raise PFError(f"no publication number in {path}{first}", hint)
    if parsed.bad_numbers:
        out.print(f"skipped {len(parsed.bad_numbers)} unreadable numbers, first: {parsed.bad_numbers[0]!r}")
    return docs
