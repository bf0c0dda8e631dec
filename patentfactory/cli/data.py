"""`pf parse` and `pf ingest`: recorded files to Parquet, and upstreams into the warehouse."""
from __future__ import annotations

from collections.abc import Callable
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from patentfactory.cli.main import friendly, ingest_app, out, parse_app
from patentfactory.errors import PFError

if TYPE_CHECKING:  # pyarrow, the parsers and polars load only in the commands that use them (start-up)
    from sources.records import ParseResult


def _parsers() -> dict[str, tuple[str, Callable[[Path], list[ParseResult]]]]:
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

    def uspto(p: Path) -> list[ParseResult]:
        from sources.uspto_bulk import parse_file

        return list(parse_file(p))

    def sparql(p: Path) -> list[ParseResult]:
        from sources.semopenalex import parse_sparql_results

        return [parse_sparql_results(p.read_bytes(), p.name)]

    return {"lens": ("publications", lens), "ops": ("publications", ops), "ptab": ("ptab_decisions", ptab),
            "uspto": ("publications", uspto), "sparql": ("papers", sparql)}


def write_tables(result: ParseResult, out_path: Path, primary: str) -> dict[str, int]:
    """The primary table to OUT.parquet, every other table to OUT.<table>.parquet."""
    import pyarrow.parquet as pq

    from patentfactory.store.parquet_io import parquet_bytes

    tables = result.to_arrow()
    out_path.parent.mkdir(parents=True, exist_ok=True)
    counts = {}
    for name, table in sorted(tables.items()):
        target = out_path if name == primary else out_path.with_name(f"{out_path.stem}.{name}.parquet")
        target.write_bytes(parquet_bytes(table).data)
        counts[name] = table.num_rows
    if primary not in tables:
        from schemas import table_spec
        pq.write_table(table_spec(primary).empty(), out_path)
        counts[primary] = 0
    return counts


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


def read_source_file(source: str, fn: Callable[[Path], list[ParseResult]], path: Path) -> ParseResult:
    """One file through its parser; a file that cannot be read at all (unsafe or truncated archive, I/O error,
    wrong format: only rejects) becomes one PFError naming it. Partly bad files keep their rejects."""
    from sources.records import ParseResult

    check_file(path, f"pass {FORMATS[source]}")
    merged = ParseResult()
    try:
        for res in fn(path):
            merged.extend(res)
    except Exception as exc:  # noqa: BLE001 - whatever a parser raises on a bad file is reported on one line
        raise PFError(f"cannot read {path}: {exc}", f"pass {FORMATS[source]}; PF_DEBUG=1 shows the traceback") from exc
    rows = sum(len(v) for v in merged.rows.values())
    if rows == 0 and merged.rejects:
        first = merged.rejects[0]
        raise PFError(f"nothing readable in {path}: {len(merged.rejects)} reject(s), first: {first['message']}",
                      f"is it {FORMATS[source]}? `pf parse {source}` reads only that")
    return merged


def last_per_key(result: ParseResult) -> ParseResult:
    """One row per table key, the last file's winning (as in the warehouse): several files may report the same
    record, e.g. an OPS biblio and a family response both give a publication's DOCDB family."""
    from schemas import table_spec
    from sources.records import ParseResult

    out = ParseResult(rejects=list(result.rejects))
    for table, rows in result.rows.items():
        key = table_spec(table).key
        out.rows[table] = list({tuple(r.get(k) for k in key): r for r in rows}.values()) if key else list(rows)
    return out


def _parse_command(source: str) -> None:
    @parse_app.command(source)
    @friendly
    def cmd(files: Annotated[list[Path], typer.Argument(help="recorded upstream files")],
            out_path: Annotated[Path, typer.Option("--out", help="OUT.parquet")]) -> None:
        from sources.records import ParseResult

        primary, fn = _parsers()[source]
        if out_path.suffix != ".parquet":
            raise PFError(f"--out must end with .parquet, got {out_path}", "e.g. --out parsed/pubs.parquet")
        merged = ParseResult()
        for f in files:
            merged.extend(read_source_file(source, fn, f))
        counts = write_tables(last_per_key(merged), out_path, primary)
        out.print(", ".join(f"{k}: {v:,}" for k, v in counts.items()) + f" -> {out_path}", soft_wrap=True)


for _source in ("uspto", "lens", "ops", "ptab", "sparql"):
    _parse_command(_source)


@ingest_app.command("lens")
@friendly
def ingest_lens_cmd(files: list[Path], data_dir: Annotated[Path, typer.Option("--data-dir")] = Path("data")) -> None:
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
                     data_dir: Annotated[Path, typer.Option("--data-dir")] = Path("data"),
                     base_url: Annotated[str | None, typer.Option(help="ODP base URL (replica or live)")] = None) -> None:
    """Weekly grant/application zips from the ODP bulk API into the warehouse."""
    from patentfactory.config import Settings
    from patentfactory.stages.ingest_files import ingest_uspto

    settings = Settings.load()
    try:
        lo, hi = date.fromisoformat(start), date.fromisoformat(end)
    except ValueError:
        raise PFError(f"bad date range {start!r}..{end!r}", "use YYYY-MM-DD") from None
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
                   data_dir: Annotated[Path, typer.Option("--data-dir")] = Path("data"),
                   base_url: Annotated[str | None, typer.Option(help="OPS base URL (replica or live)")] = None) -> None:
    """EPO OPS biblio + claims into the warehouse (credentials from EPO_OPS_KEY / EPO_OPS_SECRET)."""
    from patentfactory.config import Settings
    from patentfactory.stages.ingest_ops import Recheck, ingest_ops, search_numbers
    from flows.ingest_ops import _client

    if (numbers is None) == (query is None):
        raise PFError("give exactly one of --numbers FILE or --query CQL", "e.g. --numbers ep_numbers.txt")
    docs = read_numbers_file(numbers) if numbers is not None else []
    client = _client(base_url)
    if query is not None:
        docs = search_numbers(client, query)
    out.print(ingest_ops(data_dir, client, docs, recheck=Recheck(Settings.load().ops_404_recheck_days)))


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
