"""`pf`: the command line. Library code logs; only this module prints.

Every error a user can act on is one line plus a hint and a non-zero exit code.
"""
from __future__ import annotations

import functools
from contextvars import ContextVar
import logging
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.console import Console
from rich.table import Table

from patentfactory.cli.orchestrator import orchestrator_error, set_startup_budget
from patentfactory.errors import PFError

if TYPE_CHECKING:
    from datetime import date

    from patentfactory.config import Settings

# Before anything imports prefect (its settings are read once): no telemetry notice, no hub downloads, and a
# start-up budget for its temporary API server that fits a busy machine.
set_startup_budget()
os.environ.setdefault("PREFECT_SERVER_ANALYTICS_ENABLED", "false")
os.environ.setdefault("DO_NOT_TRACK", "1")
os.environ.setdefault("HF_HUB_OFFLINE", "1")

app = typer.Typer(add_completion=False, no_args_is_help=True, pretty_exceptions_enable=False,
                  help="patentfactory: rebuild patent benchmarks from public sources as versioned Parquet.")
upstream_app = typer.Typer(no_args_is_help=True, help="Local replica of the upstream services.")
ingest_app = typer.Typer(no_args_is_help=True, help="Fetch/parse an upstream into the warehouse.")
parse_app = typer.Typer(no_args_is_help=True, help="Parse recorded upstream files to Parquet (no network).")
build_app = typer.Typer(no_args_is_help=True, help="Build and publish a dataset from the warehouse.")
app.add_typer(upstream_app, name="upstream")
app.add_typer(ingest_app, name="ingest")
app.add_typer(parse_app, name="parse")
app.add_typer(build_app, name="build")
DATA_DIR_HELP = "raw cache + warehouse; default PF_PATHS__DATA_DIR, else data"
OUT_HELP = "publish root (path or s3://bucket/prefix); default PF_PATHS__PUBLISHED_ROOT, else <data dir>/published"
SAMPLE_SCALE = 300  # inventions in the embedded sample world (data/sample)
console = Console(stderr=True)
out = Console()


def friendly(fn):
    """Turn expected errors into one line + hint + exit 2 (tracebacks only with PF_DEBUG=1).

    On a terminal, long stages draw progress bars (common.progress) while the command runs.
    """
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        from common import progress
        from patentfactory.config import Settings
        from patentfactory.stages.memory import MemoryLimits, memory_limits

        settings = None
        try:
            settings = Settings.load()
            _command_settings.set(settings)
            quiet_logs(settings.log_level)
            settings_roots(kwargs, settings)
            with progress.bars(console, settings.progress), memory_limits(MemoryLimits.from_settings(settings)):
                return fn(*args, **kwargs)
        except (PFError, ValueError, OSError, *_loaded_schema_error()) as exc:
            if settings is not None and settings.debug:
                raise
            hint = getattr(exc, "hint", "") or _hint_for(exc)
            say_error(getattr(exc, "message", None) or str(exc), hint)
            raise typer.Exit(2) from None
        except Exception as exc:  # noqa: BLE001 - only the failures named in known_failure; the rest re-raise
            known = known_failure(exc)
            if known is None or (settings is not None and settings.debug):
                raise
            say_error(*known)
            raise typer.Exit(2) from None
    return wrapper


def _loaded_schema_error() -> tuple[type[Exception], ...]:
    """`schemas.SchemaError` where a command loaded the schemas (pyarrow); none raised one where it did not,
    so a command refused before reading data never imports them."""
    loaded = sys.modules.get("schemas")
    return (loaded.SchemaError,) if loaded is not None and hasattr(loaded, "SchemaError") else ()


_command_settings: ContextVar[Settings | None] = ContextVar("pf_settings", default=None)


def command_settings() -> Settings:
    """The Settings `friendly` built for the running command (one per command); built here outside one."""
    settings = _command_settings.get()
    if settings is None:
        from patentfactory.config import Settings

        settings = Settings.load()
    return settings


ROOT_OPTIONS = ("data_dir", "out_root")  # every command's --data-dir / --out (--root): default None, the settings'


def settings_roots(kwargs: dict, settings: Settings | None = None) -> None:
    """`--data-dir` / `--out` not given on the command line (None): the settings' roots, in every command.

    PF_PATHS__DATA_DIR (default data) and PF_PATHS__PUBLISHED_ROOT (default <data dir>/published), as the
    flows read them (Settings.roots); a value typed on the command line always wins."""
    unset = {n for n in ROOT_OPTIONS if n in kwargs and kwargs[n] is None}
    if not unset:
        return
    if settings is None:
        from patentfactory.config import Settings

        settings = Settings.load()
    given = kwargs.get("data_dir")
    data_root, published = settings.roots(None if given is None else str(given), kwargs.get("out_root"))
    if "data_dir" in unset:
        kwargs["data_dir"] = Path(data_root)
    if "out_root" in unset:
        kwargs["out_root"] = published


def quiet_logs(level: str) -> None:
    """Show library logs from `level` up (PF_LOG_LEVEL, default WARNING) and nothing chattier.

    The level is set on the handler, not only the root logger: some libraries (bm25s) set their own logger
    to DEBUG on import, which a root level alone would let through. Model-loading progress bars are
    switched off unless INFO or DEBUG is asked for.
    """
    logging.basicConfig(level=level, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    for handler in logging.getLogger().handlers:
        handler.setLevel(level)
    if logging.getLevelName(level) not in (logging.DEBUG, logging.INFO):
        os.environ.setdefault("HF_HUB_DISABLE_PROGRESS_BARS", "1")
        os.environ.setdefault("TRANSFORMERS_VERBOSITY", "error")
        os.environ.setdefault("TQDM_DISABLE", "1")


def say_error(message: str, hint: str = "") -> None:
    """`error: ...` and `hint: ...`, one line each however long (no wrapping, inner newlines folded)."""
    console.print(f"[bold red]error:[/] {one_line(message)}", highlight=False, soft_wrap=True)
    if hint:
        console.print(f"[dim]hint: {one_line(hint)}[/]", highlight=False, soft_wrap=True)


def one_line(text: str) -> str:
    """Whitespace runs (newlines included) folded to one space; rich markup brackets escaped."""
    from rich.markup import escape

    return escape(" ".join(str(text).split()))


def known_failure(exc: BaseException) -> tuple[str, str] | None:
    """(line, hint) for failures that are the environment's, not a bug: an upstream that stayed unreachable
    or refused, object storage without credentials or unreachable. None: a real bug, shown as a traceback."""
    from sources.http import HttpError

    if (orchestrator := orchestrator_error(exc)) is not None:  # Prefect's API server did not start / answer
        return orchestrator.message, orchestrator.hint
    if isinstance(exc, HttpError):
        if exc.status in (401, 403):
            return str(exc), "the service refused the credentials: check USPTO_ODP_API_KEY / EPO_OPS_KEY / EPO_OPS_SECRET"
        return str(exc), ("check that the upstream is reachable (PF_UPSTREAMS__* or --base-url; "
                          "`pf upstream serve WORLD` for a local replica) and run again: what was fetched is kept")
    name = type(exc).__name__
    if name in ("NoCredentialsError", "PartialCredentialsError", "CredentialRetrievalError"):
        return (f"no credentials for object storage: {exc}",
                "set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY (and PF_S3_ENDPOINT_URL for MinIO)")
    if name in ("EndpointConnectionError", "ConnectTimeoutError", "ReadTimeoutError"):
        return (f"object storage unreachable: {exc}",
                "check PF_S3_ENDPOINT_URL / AWS_ENDPOINT_URL and the network")
    if name == "ClientError":
        return f"object storage refused the request: {exc}", "check the bucket name and the credentials' rights"
    return None


def _hint_for(exc: Exception) -> str:
    if isinstance(exc, FileNotFoundError):
        return "check the path"
    if isinstance(exc, PermissionError):
        return "choose a readable/writable location"
    if isinstance(exc, (FileExistsError, NotADirectoryError)):
        return "a file is in the way: give a folder path that is a folder or does not exist yet"
    if isinstance(exc, (ConnectionError, TimeoutError)):
        return "check that the service or storage is reachable and run again; PF_DEBUG=1 shows the traceback"
    if isinstance(exc, OSError):
        return "check that the path is a readable file on a working disk; PF_DEBUG=1 shows the traceback"
    return "run with --help for usage; PF_DEBUG=1 shows the traceback"


def parse_day(value: str, option: str) -> "date":
    """A YYYY-MM-DD option value; a wrong one names the option."""
    from datetime import date

    try:
        return date.fromisoformat(value)
    except ValueError:
        raise PFError(f"{option} {value!r} is not a date", "use YYYY-MM-DD, e.g. 2024-01-31") from None


def date_range(start: str, end: str, options: tuple[str, str] = ("--from", "--to")) -> tuple["date", "date"]:
    """(start, end) of two date options; a reversed range is an error, not an empty run."""
    lo, hi = parse_day(start, options[0]), parse_day(end, options[1])
    if lo > hi:
        raise PFError(f"{options[0]} {lo} is after {options[1]} {hi}: the range is empty",
                      f"swap them: {options[0]} {hi} {options[1]} {lo}")
    return lo, hi


def parse_scale(value: str) -> int:
    """`sample` or a positive integer."""
    if value == "sample":
        return SAMPLE_SCALE
    if not value.isdigit() or int(value) <= 0:
        raise PFError(f"--scale must be 'sample' or a positive integer, got {value!r}", "e.g. --scale 1000")
    return int(value)


@app.command()
@friendly
def generate(scale: Annotated[str, typer.Option(help="number of inventions, or 'sample'")] = "sample",
             seed: Annotated[int, typer.Option(help="random seed")] = 1337,
             out_dir: Annotated[Path | None, typer.Option("--out", help="output folder (default <PF_PATHS__DATA_DIR>/world)")] = None,
             profile: Annotated[str, typer.Option(help="'test' (default), 'real' (the real sources' ratios, "
                                                       "every US weekly file since 2005) or 'sample' (the embedded world: every benchmark split non-empty)")] = "test") -> None:
    """Generate the synthetic world in the upstreams' real wire formats."""
    n = parse_scale(scale)
    from patentfactory.sim.generator import generate_world

    out_dir = out_dir or command_settings().paths.world
    from patentfactory.sim.generator.profiles import PROFILES, profile_spec

    if profile not in PROFILES:
        raise PFError(f"--profile must be one of {', '.join(PROFILES)}, got {profile!r}", "e.g. --profile real")
    summary = generate_world(out_dir, n, seed, profile_spec(profile, n, seed))
    out.print(f"generated world scale={n} seed={seed} at {out_dir}: {summary}")


@upstream_app.command("serve")
@friendly
def upstream_serve(world: Path, port: Annotated[int, typer.Option()] = 8765,
                   host: Annotated[str, typer.Option()] = "127.0.0.1",
                   faults: Annotated[str, typer.Option(help="e.g. '429*2,503=0.1,seed=7'")] = "") -> None:
    """Serve a generated world under the real services' paths."""
    from patentfactory.sim.upstream import Replica

    if not world.is_dir():
        raise PFError(f"world folder {world} does not exist", "run `pf generate --out DIR` first")
    scale = command_settings().replica.ops_rate_scale
    rep = Replica(world, host, port, faults, scale)  # a bad or busy port: one PFError line (server._bind)
    paced = "" if scale == 1 else f"; OPS rates x{scale:g}"
    out.print(f"replica of {world} at {rep.base_url} (faults: {faults or 'none'}{paced}); Ctrl-C stops")
    try:
        rep.server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        rep.server.server_close()


@app.command("inspect")
@friendly
def inspect_cmd(target: Annotated[str, typer.Argument(help="ROOT/DATASET\\[/VERSION]", metavar="ROOT/DATASET[/VERSION]")]) -> None:
    """Print a published version's manifest summary and re-verify every file hash."""
    from patentfactory.store.inspect import inspect_version, split_target
    from patentfactory.store.storage import Storage

    root, dataset, version = split_target(target)
    rep = inspect_version(Storage(root), dataset, version)
    table = Table(title=f"{rep.dataset} {rep.version}")
    for col in ("file", "rows", "bytes", "sha256"):
        table.add_column(col)
    for f in rep.manifest["files"]:
        table.add_row(f["path"], f"{f['rows']:,}", f"{f['bytes']:,}", f["sha256"][:16])
    out.print(table)
    for name, res in rep.manifest.get("leakage", {}).items():
        out.print(f"leakage check {name}: {'ok' if res['ok'] else 'FAILED'}")
    if not rep.ok:
        for p in rep.problems:
            console.print(f"[red]problem:[/] {p}")
        raise typer.Exit(1)
    out.print(f"[green]verified[/] {len(rep.manifest['files'])} files of {rep.dataset} {rep.version}")


from patentfactory.cli import data, evaluate, export, pap2pat, patentcr, pilot, rehearse, run  # noqa: E402,F401  (registers parse/ingest/run/build/eval/export/upstream commands)


def main() -> None:  # pragma: no cover - console entry
    app(prog_name="pf")


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
