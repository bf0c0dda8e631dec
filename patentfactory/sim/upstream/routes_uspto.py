"""USPTO Open Data Portal bulk datasets API, as the replica serves it.

`GET /api/v1/datasets/products/{PTGRXML|APPXML}?fileDataFromDate=&fileDataToDate=` lists the weekly
files found under `<world>/uspto/<product>/`, in the real response shape (`bulkDataProductBag`,
`productFileBag.fileDataBag`); `GET /api/v1/datasets/products/files/{product}/{year}/{name}` serves one.
"""
from __future__ import annotations

import re
from datetime import date, datetime

from .routes_core import file_response
from .server import Request, Response, route

PRODUCTS = {
    "PTGRXML": ("Patent Grant Full-Text Data (No Images) - XML", "TUESDAY", r"ipg(\d{6})\.zip"),
    "APPXML": ("Patent Application Full-Text Data (No Images) - XML", "THURSDAY", r"ipa(\d{6})\.zip"),
}


def _file_date(name: str, pattern: str) -> date | None:
    m = re.fullmatch(pattern, name)
    return datetime.strptime(m.group(1), "%y%m%d").date() if m else None


def _bag(req: Request, product: str) -> list[dict]:
    _, _, pattern = PRODUCTS[product]
    lo = req.arg("fileDataFromDate", "1900-01-01")
    hi = req.arg("fileDataToDate", "2999-12-31")
    folder = req.world / "uspto" / product
    out = []
    for path in sorted(folder.glob("*.zip"), reverse=True) if folder.is_dir() else []:
        day = _file_date(path.name, pattern)
        if day is None or not (lo <= day.isoformat() <= hi):
            continue
        stamp = f"{day.isoformat()} 00:03:40"
        base = req.headers.get("Host", "127.0.0.1")
        out.append({"fileName": path.name, "fileSize": path.stat().st_size, "fileDataFromDate": day.isoformat(),
                    "fileDataToDate": day.isoformat(), "fileTypeText": "Data",
                    "fileDownloadURI": f"http://{base}/api/v1/datasets/products/files/{product}/{day.year}/{path.name}",
                    "fileReleaseDate": stamp, "fileLastModifiedDateTime": stamp})
    return out


@route("GET", r"/api/v1/datasets/products/(?P<product>[A-Z]+)")
def product(req: Request) -> Response:
    name = req.params["product"]
    if name not in PRODUCTS:
        return Response.error(404, f"product {name} not found")
    title, weekday, _ = PRODUCTS[name]
    files = _bag(req, name)
    return Response.json({"count": 1, "bulkDataProductBag": [{
        "productIdentifier": name, "productTitleText": title, "productFrequencyText": "WEEKLY",
        "daysOfWeekText": weekday, "productFileTotalQuantity": len(files),
        "productFileBag": {"count": len(files), "fileDataBag": files}}]})


@route("GET", r"/api/v1/datasets/products/files/(?P<product>[A-Z]+)/(?P<year>\d{4})/(?P<name>[\w.-]+)")
def product_file(req: Request) -> Response:
    return file_response(req, f"uspto/{req.params['product']}/{req.params['name']}")
