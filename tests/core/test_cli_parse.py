"""`pf parse` on recorded upstream files: canonical tables out, no network."""
from __future__ import annotations

from pathlib import Path

import polars as pl
from typer.testing import CliRunner

from patentfactory.cli.main import app

runner = CliRunner()


def test_parse_lens_jsonl_writes_publications_and_side_tables(tmp_path: Path, real_samples: Path):
    out = tmp_path / "lens.parquet"
    res = runner.invoke(app, ["parse", "lens", str(real_samples / "lens" / "lens_api_biopoly.jsonl"),
                              "--out", str(out)])
    assert res.exit_code == 0, res.output
    pubs = pl.read_parquet(out)
    assert pubs.height == 10 and pubs["pub_id"].n_unique() == 10
    assert pl.read_parquet(tmp_path / "lens.claims.parquet").height > 0
    assert pl.read_parquet(tmp_path / "lens.citations.parquet").height > 0


def test_parse_ops_and_ptab(tmp_path: Path, real_samples: Path):
    ops = tmp_path / "ops.parquet"
    r1 = runner.invoke(app, ["parse", "ops", str(real_samples / "epo-ops" / "get_biblio.response.xml"),
                             "--out", str(ops)])
    assert r1.exit_code == 0, r1.output
    assert pl.read_parquet(ops)["pub_id"].to_list() == ["EP-2400812-A1"]
    ptab = tmp_path / "ptab.parquet"
    r2 = runner.invoke(app, ["parse", "ptab", str(real_samples / "ptab-odp" / "search_appeal_decisions.raw.json"),
                             "--out", str(ptab)])
    assert r2.exit_code == 0 and pl.read_parquet(ptab)["appeal_number"].to_list() == ["2026001845", "2026001764"]


def test_parse_bad_out_suffix_is_a_clear_error(tmp_path: Path, real_samples: Path):
    res = runner.invoke(app, ["parse", "ptab", str(real_samples / "ptab-odp" / "search_appeal_decisions.raw.json"),
                              "--out", str(tmp_path / "x.csv")])
    assert res.exit_code == 2 and "--out must end with .parquet" in res.output


def test_parse_ops_over_every_real_response_at_once(tmp_path: Path, real_samples: Path):
    """Biblio, claims, description, family and legal responses together: the same record reported by two files
    (EP2400812A1's DOCDB family in the biblio and in two family responses) is written once."""
    out = tmp_path / "ops.parquet"
    res = runner.invoke(app, ["parse", "ops", *map(str, sorted((real_samples / "epo-ops").glob("*.xml"))),
                              "--out", str(out)])
    assert res.exit_code == 0, res.output
    fams = pl.read_parquet(tmp_path / "ops.reported_families.parquet")
    assert fams.height == 22 and fams.select("family_kind", "family_id", "pub_id").is_unique().all()
    assert fams.filter(pl.col("pub_id") == "EP-2400812-A1")["family_id"].to_list() == ["43088294", "43088294"]
    assert {t: pl.read_parquet(tmp_path / f"ops.{t}.parquet").height for t in ("claims", "descriptions")} == {
        "claims": 15, "descriptions": 33}


def test_parse_summary_counts_non_patents_and_reads_2001_grants(tmp_path: Path, real_samples: Path):
    """A 2001 PATDOC v2.4 file and a weekly slice with two sequence listings: every grant out, the listings said
    by kind in the summary, no rejects table."""
    out = tmp_path / "uspto.parquet"
    volume = real_samples / "volume" / "uspto"
    res = runner.invoke(app, ["parse", "uspto", str(volume / "grants_2001_sample.xml"),
                              str(volume / "ipg060103.small.xml"), "--out", str(out)])
    assert res.exit_code == 0, res.output
    assert pl.read_parquet(out).height == 23 + 25 and not (tmp_path / "uspto.rejects.parquet").exists()
    assert "not patents, skipped: sequence-cwu 2" in res.output and "rejects" not in res.output
