"""USPTO Open Data Portal bulk datasets: list the weekly files of a product and fetch them.

Products: `PTGRXML` (grants, ipgYYMMDD.zip) and `APPXML` (applications, ipaYYMMDD.zip). The API
wants `X-API-KEY` (env `USPTO_ODP_API_KEY`); the replica accepts any key. One request at a time and
>= 5 s back-off after a 429, as ODP asks.
"""
from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import date
from pathlib import Path

from .http import HttpClient, HttpError, RetryPolicy

log = logging.getLogger(__name__)
LIVE_BASE_URL = "https://api.uspto.gov"
PRODUCTS = ("PTGRXML", "APPXML")


@dataclass(frozen=True)
class BulkFile:
    product: str
    name: str
    size: int
    data_date: date
    url: str


def odp_client(base_url: str = LIVE_BASE_URL, api_key: str | None = None, min_after_429: float = 5.0) -> HttpClient:
    headers = {"X-API-KEY": api_key} if api_key else {}
    return HttpClient(base_url, headers=headers, retry=RetryPolicy(min_after_429=min_after_429), min_interval=0.0)


def parse_product_listing(payload: dict, product: str) -> list[BulkFile]:
    """`bulkDataProductBag[].productFileBag.fileDataBag[]` -> weekly data zips (DTDs and docs skipped)."""
    out = []
    for prod in payload.get("bulkDataProductBag") or []:
        if prod.get("productIdentifier") != product:
            continue
        for f in (prod.get("productFileBag") or {}).get("fileDataBag") or []:
            name = f.get("fileName", "")
            if f.get("fileTypeText") != "Data" or not name.endswith(".zip"):
                continue
            out.append(BulkFile(product, name, int(f.get("fileSize") or 0),
                                date.fromisoformat(f["fileDataFromDate"][:10]), f["fileDownloadURI"]))
    return sorted(out, key=lambda b: (b.data_date, b.name))


def list_product_files(client: HttpClient, product: str, start: date, end: date) -> list[BulkFile]:
    if product not in PRODUCTS:
        raise ValueError(f"unknown ODP product {product!r}; expected one of {PRODUCTS}")
    resp = client.get(f"/api/v1/datasets/products/{product}",
                      params={"fileDataFromDate": start.isoformat(), "fileDataToDate": end.isoformat(),
                              "includeFiles": "true"})
    if resp.status_code != 200:
        raise HttpError(f"ODP product listing {product}: HTTP {resp.status_code}", resp.status_code)
    return parse_product_listing(resp.json(), product)


def fetch_bulk_file(client: HttpClient, f: BulkFile, dest_dir: Path) -> Path:
    """Download (resuming a partial file) into `dest_dir/<name>`; size checked against the listing."""
    return client.download(f.url, Path(dest_dir) / f.name, expected_size=f.size or None)
