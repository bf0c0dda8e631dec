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


class ListingError(ValueError):
    """An ODP product listing that is not in the documented shape."""


def _bulk_file(product: str, f: object) -> BulkFile | None:
    """One `fileDataBag` entry -> BulkFile; None for non-data files; ValueError/TypeError when malformed."""
    if not isinstance(f, dict):
        raise TypeError(f"entry is {type(f).__name__}, expected an object")
    name = f.get("fileName")
    if not isinstance(name, str) or f.get("fileTypeText") != "Data" or not name.endswith(".zip"):
        return None
    size, day, url = f.get("fileSize") or 0, f.get("fileDataFromDate"), f.get("fileDownloadURI")
    if isinstance(size, bool) or not isinstance(size, int) or size < 0:
        raise TypeError(f"fileSize is {size!r}, expected a byte count")
    if not isinstance(day, str) or not isinstance(url, str) or not url:
        raise TypeError("fileDataFromDate and fileDownloadURI must be strings")
    return BulkFile(product, name, size, date.fromisoformat(day[:10]), url)


def parse_product_listing(payload: dict, product: str) -> list[BulkFile]:
    """`bulkDataProductBag[].productFileBag.fileDataBag[]` -> weekly data zips (DTDs and docs skipped).

    A payload of another shape is a ListingError; one malformed file entry is skipped with a warning
    naming it (the other weekly files still load; the next run sees the entry again).
    """
    if not isinstance(payload, dict):
        raise ListingError(f"ODP listing {product}: payload is {type(payload).__name__}, expected an object")
    bag = payload.get("bulkDataProductBag")
    if not isinstance(bag or [], list):
        raise ListingError(f"ODP listing {product}: bulkDataProductBag is {type(bag).__name__}, expected a list")
    out = []
    for prod in bag or []:
        if not isinstance(prod, dict) or prod.get("productIdentifier") != product:
            continue
        files = (prod.get("productFileBag") or {}).get("fileDataBag") if isinstance(
            prod.get("productFileBag") or {}, dict) else None
        if not isinstance(files or [], list):
            raise ListingError(f"ODP listing {product}: productFileBag.fileDataBag is not a list")
        for i, f in enumerate(files or []):
            try:
                bf = _bulk_file(product, f)
            except (TypeError, ValueError) as exc:
                name = f.get("fileName") if isinstance(f, dict) else None
                log.warning("ODP listing %s: file entry %d (%r) skipped: %s", product, i, name, exc)
                continue
            if bf is not None:
                out.append(bf)
    return sorted(out, key=lambda b: (b.data_date, b.name))


def list_product_files(client: HttpClient, product: str, start: date, end: date) -> list[BulkFile]:
    if product not in PRODUCTS:
        raise ValueError(f"unknown ODP product {product!r}; expected one of {PRODUCTS}")
    resp = client.get(f"/api/v1/datasets/products/{product}",
                      params={"fileDataFromDate": start.isoformat(), "fileDataToDate": end.isoformat(),
                              "includeFiles": "true"})
    if resp.status_code != 200:
        raise HttpError(f"ODP product listing {product}: HTTP {resp.status_code}", resp.status_code)
    try:
        payload = resp.json()
    except ValueError as exc:
        raise ListingError(f"ODP listing {product}: response is not JSON ({exc})") from None
    return parse_product_listing(payload, product)


def fetch_bulk_file(client: HttpClient, f: BulkFile, dest_dir: Path) -> Path:
    """Download (resuming a partial file) into `dest_dir/<name>`; size checked against the listing."""
    return client.download(f.url, Path(dest_dir) / f.name, expected_size=f.size or None)
