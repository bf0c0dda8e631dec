"""`pf upstream grow` and `pf upstream degrade`: change a served world between rehearsal nights.

`pf upstream serve` reads the world folder on every request, so a world grown or degraded while it is served
is what the next `pf run --live` sees, like a real upstream that published something overnight
(docs/operations.md walks through a rehearsal).
"""
from __future__ import annotations

import shutil
import tempfile
from datetime import date
from pathlib import Path
from typing import Annotated

import typer

from patentfactory.cli.main import friendly, out, parse_day, upstream_app
from patentfactory.errors import PFError


def _world(world: Path) -> Path:
    if not (world / "world.json").is_file():
        raise PFError(f"{world} is not a generated world (no world.json)", "run `pf generate --out DIR` first")
    return world


@upstream_app.command("grow")
@friendly
def grow_cmd(world: Path,
             on: Annotated[str | None, typer.Option("--on", help="the new items' date YYYY-MM-DD (default today)")] = None,
             ptab_dated: Annotated[str | None, typer.Option(
                 "--ptab-dated", help="instead: one PTAB decision dated YYYY-MM-DD (a decision posted late, "
                                      "dated before the last night)")] = None,
             ptab_days_ago: Annotated[int | None, typer.Option(
                 "--ptab-days-ago", help="instead: one PTAB decision dated this many days ago")] = None) -> None:
    """Add one night's upstream items in their real formats: a USPTO weekly file, a PTAB decision (record + PDF)
    and a Lens export, dated --on; or, with --ptab-dated / --ptab-days-ago, only a back-dated PTAB decision."""
    from datetime import timedelta

    from patentfactory.sim.generator.additions import add_night, add_ptab_decision, load_world

    world = _world(world)
    if ptab_dated is not None or ptab_days_ago is not None:
        if ptab_days_ago is not None and ptab_days_ago < 0:
            raise PFError(f"--ptab-days-ago {ptab_days_ago} is in the future", "give 0 or more days")
        dated = (parse_day(ptab_dated, "--ptab-dated") if ptab_dated is not None
                 else date.today() - timedelta(days=ptab_days_ago or 0))
        rec, pdf = add_ptab_decision(load_world(world), world, dated)
        out.print(f"added a PTAB decision dated {dated}: {rec.relative_to(world)}, {pdf.relative_to(world)}")
        return
    day = parse_day(on, "--on") if on else date.today()
    added = add_night(world, day)
    for path in (added.weekly_file, added.ptab_record, added.ptab_pdf, added.lens_export):
        out.print(f"added {path.relative_to(world)}")


@upstream_app.command("degrade")
@friendly
def degrade_cmd(world: Path,
                kind: Annotated[str, typer.Option(help="empty_abstracts | drop_ipc_section | truncate_titles")],
                rate: Annotated[float, typer.Option(help="share of records hit (empty_abstracts)")] = 0.8) -> None:
    """Re-deliver the world's Lens exports with one regression (an upstream going wrong quietly): the next live
    night ingests the changed files as a new delivery and the quality gate compares what it builds."""
    from patentfactory.sim.degrade import DEGRADATIONS, degrade_world

    world = _world(world)
    if kind not in DEGRADATIONS:
        raise PFError(f"--kind must be one of {', '.join(DEGRADATIONS)}, got {kind!r}", "e.g. --kind empty_abstracts")
    with tempfile.TemporaryDirectory() as tmp:
        copy = degrade_world(world, Path(tmp) / "world", kind, rate=rate)
        changed = []
        for f in sorted((copy / "lens").iterdir()):
            if f.is_file() and f.read_bytes() != (world / "lens" / f.name).read_bytes():
                shutil.copyfile(f, world / "lens" / f.name)
                changed.append(f.name)
    out.print(f"re-delivered {len(changed)} Lens export(s) with {kind}: {', '.join(changed) or 'none changed'}")


@upstream_app.command("sparql")
@friendly
def sparql_cmd(world: Path, port: Annotated[int, typer.Option()] = 7878) -> None:
    """Serve the world's SemOpenAlex quads over SPARQL (oxigraph) on 127.0.0.1:PORT/query until stopped:
    the PF_UPSTREAMS__SPARQL_ENDPOINT of a rehearsal."""
    import signal
    import socket
    import time

    from patentfactory.sim.upstream.sparql import sparql_replica

    quads = sorted((_world(world) / "semopenalex").glob("*.nq"))
    if not quads:
        raise PFError(f"{world} has no semopenalex/*.nq", "generate the world with `pf generate`")
    if not 0 < port <= 65535:
        raise PFError(f"--port {port} is not a TCP port", "use 1-65535")
    with socket.socket() as s:
        if s.connect_ex(("127.0.0.1", port)) == 0:
            raise PFError(f"port {port} on 127.0.0.1 is already in use", "stop what listens there, or pass another --port")
    signal.signal(signal.SIGTERM, lambda *_: (_ for _ in ()).throw(KeyboardInterrupt()))
    with sparql_replica(quads, port=port) as url:
        out.print(f"SPARQL replica of {world} at {url}; Ctrl-C stops")
        try:
            while True:
                time.sleep(3600)
        except KeyboardInterrupt:
            pass
