"""The bad-input corpus: hostile or broken upstream files, one builder per case.

Small text cases are written to `tests/resilience/bad_inputs/` (`python -m tests.resilience.make_bad_inputs`
rewrites them; a test checks the folder matches this script). Binary and large cases (zips, PDFs, bombs,
huge CSV cells) are built on the fly into a temporary folder by the tests, so the repository stays small.
"""
from __future__ import annotations

import csv
import io
import json
import zipfile
import zlib
from pathlib import Path

CORPUS = Path(__file__).parent / "bad_inputs"
SECRET_MARK = "PF-XXE-CANARY-7f3a"  # content of the file an external entity points at; must never leak

GRANT = """<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE us-patent-grant SYSTEM "us-patent-grant-v45-2014-04-03.dtd" [ ]>
<us-patent-grant lang="EN" dtd-version="v4.5 2014-04-03" country="US">
<us-bibliographic-data-grant>
<publication-reference><document-id><country>US</country><doc-number>{num}</doc-number><kind>B2</kind>
<date>20180619</date></document-id></publication-reference>
<invention-title>{title}</invention-title>
</us-bibliographic-data-grant>
<claims><claim id="CLM-00001" num="00001"><claim-text>1. A widget.</claim-text></claim></claims>
</us-patent-grant>
"""


def grant(num: int, title: str = "", subset: str = " ") -> bytes:
    doc = GRANT.format(num=num, title=title or f"Widget {num}")
    return doc.replace("[ ]>", f"[{subset}]>").encode()


def laughs_subset(depth: int = 9) -> str:
    decls = ['<!ENTITY lol "lol">'] + [
        f'<!ENTITY lol{i} "{("&lol" + (str(i - 1) if i > 1 else "") + ";") * 10}">' for i in range(1, depth + 1)]
    return "".join(decls)


# ---------- USPTO weekly file: good documents between hostile ones ----------

def uspto_documents(canary: Path | str = "/etc/hostname") -> list[tuple[str, bytes | None]]:
    """(case, bytes) in file order; case `good` must parse, every other case must be one reject."""
    return [
        ("good", grant(10000001)),
        ("billion_laughs", grant(10000901, "&lol9;", laughs_subset())),
        ("external_entity", grant(10000902, "&xxe;", f'<!ENTITY xxe SYSTEM "file://{canary}">')),
        ("parameter_entity", grant(10000903, "", '<!ENTITY % p SYSTEM "http://127.0.0.1:9/evil.dtd"> %p;')),
        ("good", grant(10000002)),
        ("deep_nesting", grant(10000904, "<b>" * 5000 + "x" + "</b>" * 5000)),
        ("declared_utf16_is_utf8", grant(10000905).replace(b'encoding="UTF-8"', b'encoding="UTF-16"')),
        ("unknown_encoding", grant(10000906).replace(b'encoding="UTF-8"', b'encoding="X-NO-SUCH"')),
        ("invalid_utf8", grant(10000907).replace(b"Widget", b"Wid\xff\xfeget")),
        ("nul_byte", grant(10000908).replace(b"Widget", b"Wid\x00get")),
        ("bad_char_ref", grant(10000909).replace(b"Widget", b"Wid&#1;get")),
        ("truncated", grant(10000910)[:300]),
        ("good", grant(10000003)),
    ]


def uspto_hostile_xml(canary: Path | str = "/etc/hostname") -> bytes:
    return b"".join(data for _, data in uspto_documents(canary))


# ---------- EPO OPS responses ----------

OPS_BIBLIO = """<?xml version="1.0" encoding="UTF-8"?>{doctype}
<ops:world-patent-data xmlns="http://www.epo.org/exchange" xmlns:ops="http://ops.epo.org">
<exchange-documents><exchange-document country="EP" doc-number="{num}" kind="A1"><bibliographic-data>
<publication-reference><document-id document-id-type="docdb"><country>EP</country><doc-number>{num}</doc-number>
<kind>A1</kind><date>20240103</date></document-id></publication-reference>
<invention-title lang="en">{title}</invention-title></bibliographic-data></exchange-document>
</exchange-documents></ops:world-patent-data>
"""


def ops_biblio(num: int, title: str = "", doctype: str = "") -> bytes:
    return OPS_BIBLIO.format(num=num, title=title or f"Device {num}", doctype=doctype).encode()


def ops_responses(canary: Path | str = "/etc/hostname") -> dict[str, bytes]:
    """Case -> OPS biblio response; `good*` parse to one publication, others are one reject each
    (or, for entities the safe parser leaves unexpanded, parse without the entity's content)."""
    return {
        "good_1": ops_biblio(4000001),
        "billion_laughs": ops_biblio(4000901, "&lol9;", f"<!DOCTYPE r [{laughs_subset()}]>"),
        "external_entity": ops_biblio(4000902, "T &xxe;", f'<!DOCTYPE r [<!ENTITY xxe SYSTEM "file://{canary}">]>'),
        "deep_nesting": ops_biblio(4000903, "<b>" * 5000 + "x" + "</b>" * 5000),
        "invalid_utf8": ops_biblio(4000904).replace(b"Device", b"Dev\xff\xfeice"),
        "declared_utf16_is_utf8": ops_biblio(4000905).replace(b'encoding="UTF-8"', b'encoding="UTF-16"'),
        "truncated": ops_biblio(4000906)[:200],
        "html_error_page": b"<html><body><h1>503 Service Unavailable</h1></body></html>",
        "empty": b"",
        "good_2": ops_biblio(4000002),
    }


# ---------- Lens CSV ----------

def lens_row(i: int, **cells: str) -> dict[str, str]:
    from sources.lens import MODERN_COLUMNS

    row = dict.fromkeys(MODERN_COLUMNS, "")
    row.update({"#": str(i), "Jurisdiction": "US", "Kind": "B2", "Display Key": f"US {10000000 + i} B2",
                "Publication Date": "2018-06-19", "Title": f"Widget {i}"})
    row.update(cells)
    return row


def lens_csv(rows: list[dict[str, str]]) -> str:
    from sources.lens import MODERN_COLUMNS

    buf = io.StringIO()
    writer = csv.DictWriter(buf, fieldnames=MODERN_COLUMNS, lineterminator="\r\n")
    writer.writeheader()
    writer.writerows(rows)
    return buf.getvalue()


def lens_broken_quoting() -> bytes:
    """Rows 1..8 good except: row 3 opens a quote it never closes, row 6 has a stray quote mid-cell and
    a NUL byte, row 8 opens a quote at the end of the file."""
    lines = lens_csv([lens_row(i) for i in range(1, 9)]).split("\r\n")
    lines[3] = lines[3].replace("Widget 3", '"Widget 3 never closed')
    lines[6] = lines[6].replace("Widget 6", 'Wid"get\x00 6')
    lines[8] = lines[8].replace("Widget 8", '"Widget 8')
    return "\r\n".join(lines).encode()


def lens_huge_cell(cell_chars: int) -> bytes:
    """Three rows; the middle one has an abstract of `cell_chars` characters (one line)."""
    return lens_csv([lens_row(1), lens_row(2, Abstract="x" * cell_chars), lens_row(3)]).encode()


def lens_huge_multiline_cell(lines: int) -> bytes:
    """An unclosed quote followed by many short lines: the csv module would read them all as one cell."""
    head = lens_csv([lens_row(1), lens_row(2, Title='"unclosed')]).replace('"""unclosed"', '"unclosed')
    return (head + "".join(f"line {i} of the runaway cell\r\n" for i in range(lines))).encode() + \
        lens_csv([lens_row(3)]).split("\r\n", 1)[1].encode()


# ---------- ODP JSON (PTAB search page, bulk product listing) ----------

def ptab_record(i: int) -> dict:
    return {"appealNumber": f"2020-00{i:04d}",
            "appellantData": {"applicationNumberText": f"15{i:06d}"},
            "decisionData": {"decisionIssueDate": "2020-06-01", "decisionTypeCategory": "Decision",
                             "appealOutcomeCategory": "Affirmed", "issueTypeBag": ["103"],
                             "statuteAndRuleBag": ["35 USC 103"]},
            "documentData": {"documentIdentifier": f"doc-{i:04d}", "fileDownloadURI": f"/files/{i}.pdf",
                             "documentSizeQuantity": 1000}}


def _with(i: int, path: tuple[str, ...], value: object) -> dict:
    rec = ptab_record(i)
    cur = rec
    for key in path[:-1]:
        cur = cur[key]
    cur[path[-1]] = value
    return rec


PTAB_BAD_RECORDS: dict[str, object] = {
    "record_is_list": [1, 2],
    "record_is_string": "decision",
    "record_is_null": None,
    "decisionData_is_list": _with(901, ("decisionData",), [1]),
    "documentData_is_string": _with(902, ("documentData",), "x"),
    "app_number_is_object": _with(903, ("appellantData", "applicationNumberText"), {"n": 1}),
    "decision_id_is_float": _with(904, ("documentData", "documentIdentifier"), 1.5),
    "date_is_garbage": _with(905, ("decisionData", "decisionIssueDate"), "yesterday"),
    "issue_types_is_string": _with(906, ("decisionData", "issueTypeBag"), "103"),
    "outcome_is_object": _with(907, ("decisionData", "appealOutcomeCategory"), {"a": 1}),
    "ocr_text_is_number": _with(908, ("documentData", "documentOCRText"), 5),
    "pdf_size_is_string": _with(909, ("documentData", "documentSizeQuantity"), "big"),
    "pdf_uri_is_number": _with(910, ("documentData", "fileDownloadURI"), 7),
    "duplicate_of_first_good": ptab_record(1),
}


def ptab_wrong_types_page() -> bytes:
    records = [ptab_record(1), *PTAB_BAD_RECORDS.values(), ptab_record(2)]
    return json.dumps({"count": len(records), "patentAppealDataBag": records}, indent=1).encode()


def odp_listing_wrong_types() -> bytes:
    def entry(name: str, **kw: object) -> dict:
        return {"fileName": name, "fileSize": 1234, "fileDataFromDate": "2024-01-02", "fileTypeText": "Data",
                "fileDownloadURI": f"http://h/{name}", **kw}
    files = [entry("ipg240102.zip"), entry("ipg240109.zip", fileSize="big"), "not an object",
             entry("ipg240116.zip", fileDataFromDate=20240116), entry("ipg240123.zip", fileDownloadURI=None),
             entry("ipg240130.zip", fileDataFromDate="someday"), entry("ipg240206.zip")]
    return json.dumps({"count": 1, "bulkDataProductBag": [
        {"productIdentifier": "PTGRXML", "productFileBag": {"count": len(files), "fileDataBag": files}}]},
        indent=1).encode()


TEXT_CASES = {
    "uspto_hostile.xml": lambda: uspto_hostile_xml(),
    "lens_broken_quoting.csv": lens_broken_quoting,
    "ptab_wrong_types.json": ptab_wrong_types_page,
    "odp_listing_wrong_types.json": odp_listing_wrong_types,
    **{f"ops_{name}.xml": (lambda data=data: data) for name, data in ops_responses().items()},
}


# ---------- binary / large cases (built in a temporary folder) ----------

def write_zip(path: Path, members: dict[str, bytes]) -> Path:
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, data in members.items():
            zf.writestr(name, data)
    return path


def zip_slip(path: Path) -> Path:
    return write_zip(path, {"ipg.xml": grant(10000011), "../../../tmp/pf-evil.xml": grant(10000012)})


def zip_bomb(path: Path, inflated: int = 64 << 20) -> Path:
    """A member that inflates `inflated` bytes from a few kB (ratio far above any real weekly file)."""
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
        with zf.open("ipg.xml", "w") as fh:
            block = b" " * (1 << 20)
            for _ in range(inflated >> 20):
                fh.write(block)
    return path


def zip_truncated(path: Path) -> Path:
    full = write_zip(path.with_suffix(".full"), {"ipg.xml": b"".join(grant(n) for n in range(10001000, 10001300))})
    path.write_bytes(full.read_bytes()[: full.stat().st_size // 2])
    full.unlink()
    return path


def pdf_with_stream(content: bytes, pages: int = 1, flate: bool = True) -> bytes:
    """A minimal valid PDF whose pages share one content stream."""
    stream = zlib.compress(content, 9) if flate else content
    kids = " ".join(f"{3 + i} 0 R" for i in range(pages))
    objs = [b"<</Type/Catalog/Pages 2 0 R>>", f"<</Type/Pages/Kids[{kids}]/Count {pages}>>".encode()]
    objs += [f"<</Type/Page/Parent 2 0 R/MediaBox[0 0 612 792]/Contents {3 + pages} 0 R/Resources<<>>>>".encode()
             for _ in range(pages)]
    objs.append(b"<</Length %d%s>>stream\n" % (len(stream), b"/Filter/FlateDecode" if flate else b"")
                + stream + b"\nendstream")
    out = io.BytesIO()
    out.write(b"%PDF-1.4\n")
    offsets = []
    for n, obj in enumerate(objs, 1):
        offsets.append(out.tell())
        out.write(b"%d 0 obj\n" % n + obj + b"\nendobj\n")
    xref = out.tell()
    out.write(b"xref\n0 %d\n0000000000 65535 f \n" % (len(objs) + 1) + b"".join(b"%010d 00000 n \n" % o for o in offsets))
    out.write(b"trailer<</Size %d/Root 1 0 R>>\nstartxref\n%d\n%%%%EOF\n" % (len(objs) + 1, xref))
    return out.getvalue()


def pdf_encrypted() -> bytes:
    from reportlab.pdfgen import canvas

    buf = io.BytesIO()
    c = canvas.Canvas(buf, encrypt="owner-and-user-password", invariant=1)
    c.drawString(72, 700, "DECISION ON APPEAL: this text is encrypted")
    c.showPage()
    c.save()
    return buf.getvalue()


def pdf_good() -> bytes:
    from reportlab.pdfgen import canvas

    buf = io.BytesIO()
    c = canvas.Canvas(buf, invariant=1)
    y = 700
    for line in ("DECISION ON APPEAL", "", "The examiner rejected claims 1 to 3 as obvious under section 103.",
                 "We have considered the arguments of the appellant and the findings of the examiner.",
                 "The rejection of claims 1 to 3 is affirmed."):
        c.drawString(72, y, line)
        y -= 18
    c.showPage()
    c.save()
    return buf.getvalue()


def pdf_cases() -> dict[str, bytes]:
    """Case -> PDF bytes; `good` parses, every other case is a reject with a reason."""
    good = pdf_good()
    return {
        "good": good,
        "truncated": good[: len(good) // 2],
        "not_a_pdf": b"<html><body>Service Unavailable</body></html>",
        "garbage_after_header": b"%PDF-1.4\n" + bytes(range(256)) * 40,
        "empty": b"",
        "encrypted": pdf_encrypted(),
        "flate_bomb": pdf_with_stream(b" " * (200 << 20)),
        "too_many_pages": pdf_with_stream(b"BT ET", pages=1500, flate=False),
    }


def cli_bad_files(folder: Path) -> dict[str, Path]:
    """Case -> a path no `pf` file command can use: missing, a folder, empty, unsafe/truncated/bomb archives,
    garbage bytes, the wrong format, cut or error-page XML, and unreadable files (I/O error; mode 000 unless root)."""
    import os

    folder.mkdir(parents=True, exist_ok=True)
    cases = {"missing": folder / "no-such-file.xml", "directory": folder,
             "truncated_zip": zip_truncated(folder / "ipg240116.zip"), "zip_slip": zip_slip(folder / "ipg240102.zip"),
             "zip_bomb": zip_bomb(folder / "ipg240109.zip", inflated=16 << 20)}
    for name, data in {"empty.xml": b"", "garbage.bin": bytes(range(256)) * 40, "decision.pdf": pdf_good(),
                       "truncated.xml": ops_responses()["truncated"],
                       "error_page.xml": ops_responses()["html_error_page"]}.items():
        (folder / name).write_bytes(data)
        cases[name.split(".")[0] if name != "decision.pdf" else "wrong_type_pdf"] = folder / name
    if Path("/proc/self/mem").exists():  # a file that exists but every read fails with EIO (also for root)
        cases["io_error"] = Path("/proc/self/mem")
    if os.geteuid() != 0:
        locked = folder / "locked.xml"
        locked.write_bytes(ops_biblio(4000001))
        locked.chmod(0)
        cases["permission_denied"] = locked
    return cases


def main() -> None:
    CORPUS.mkdir(exist_ok=True)
    for name, build in TEXT_CASES.items():
        (CORPUS / name).write_bytes(build())
    print(f"wrote {len(TEXT_CASES)} files to {CORPUS}")


if __name__ == "__main__":
    main()
