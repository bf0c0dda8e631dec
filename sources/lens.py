"""Lens.org patent exports (CSV and JSON Lines) -> publications, citations, claims, reported_families.

CSV: the layout is read from the header (the modern 37-column export or the ~2015 25-column one),
multi-valued cells are joined by `;;`, the encoding is found by trying utf-8(-sig), then cp1252,
then latin-1, and CR-only line endings are accepted. JSONL: one Lens API record per line; the first
line may carry a BOM and a record may lack `lens_id` (ids come from jurisdiction/doc_number/kind).
Every record keeps its raw text (`raw`); a row that cannot be read becomes a reject with its row or
line number, the rest of the file goes on.
"""
from __future__ import annotations

import csv
import io
import json
import logging
import re
from collections import deque
from collections.abc import Iterator
from datetime import date
from pathlib import Path

from common.patent_ids import PatentIdError, app_id, parse_pub_id, pub_id

from .epo_ops.parse import claim_rows, clean_text, normalise_ipc, split_name, unique
from .records import ParseResult

log = logging.getLogger(__name__)
SOURCE = "lens"
BATCH_RECORDS = 20_000  # lines per ParseResult when streaming an export into the warehouse
MULTI = ";;"
MODERN_COLUMNS = (
    "#", "Jurisdiction", "Kind", "Display Key", "Lens ID", "Publication Date", "Publication Year",
    "Application Number", "Application Date", "Priority Numbers", "Earliest Priority Date", "Title", "Abstract",
    "Applicants", "Inventors", "Owners", "URL", "Document Type", "Has Full Text", "Cites Patent Count",
    "Cited by Patent Count", "Simple Family Size", "Simple Family Members", "Simple Family Member Jurisdictions",
    "Extended Family Size", "Extended Family Members", "Extended Family Member Jurisdictions", "Sequence Count",
    "CPC Classifications", "IPCR Classifications", "US Classifications", "NPL Citation Count",
    "NPL Resolved Citation Count", "NPL Resolved Lens ID(s)", "NPL Resolved External ID(s)", "NPL Citations",
    "Legal Status")
LEGACY_COLUMNS = (
    "Result #", "Jurisdiction", "Kind", "Publication Number", "Lens ID", "Publication Date", "Publication Year",
    "Application Number", "Application Date", "Priority Numbers", "Earliest Priority Date", "Title", "Abstract",
    "Applicants", "Inventors", "URL", "Type", "Full Text", "Cited Count", "CPC Classifications",
    "IPCR Classifications", "US Classifications", "PubMed Id(s)", "DOI(s)", "Non-Patent Citations")
# columns some legacy exports add (the 2016 export of real-samples/volume has all of them)
LEGACY_EXTRA_COLUMNS = ("#", "Simple Family Size", "Extended Family Size", "Sequence Count")
# header name -> field, for both layouts (the legacy names map onto the same fields)
FIELDS = {"Jurisdiction": "jurisdiction", "Kind": "kind", "Display Key": "key", "Publication Number": "key",
          "Publication Date": "pub_date", "Application Number": "app", "Application Date": "app_date",
          "Priority Numbers": "priorities", "Earliest Priority Date": "earliest", "Title": "title",
          "Abstract": "abstract", "Applicants": "applicants", "Inventors": "inventors", "Owners": "owners",
          "Document Type": "doc_type", "Type": "doc_type", "Simple Family Members": "simple",
          "Extended Family Members": "extended", "CPC Classifications": "cpc", "IPCR Classifications": "ipc",
          "NPL Citations": "npl", "Non-Patent Citations": "npl", "Cited by Patent Count": "cited_by",
          "Cited Count": "cited_by", "Simple Family Size": "simple_size", "Extended Family Size": "extended_size"}
DOC_TYPES = {"PATENT_APPLICATION": "application", "GRANTED_PATENT": "utility", "DESIGN_RIGHT": "design",
             "PLANT_PATENT": "plant", "AMENDED_APPLICATION": "application", "LIMITED_PATENT": "utility"}
CITED_PHASE = {"APP": "applicant", "SEA": "examiner", "ISR": "examiner", "EXA": "examiner", "SUP": "examiner",
               "IPE": "examiner", "PRS": "examiner", "OPP": "other", "TPO": "other"}
_ID_PARTS = re.compile(r"^\s*(?:PCT/)?([A-Z]{2})[\s_/-]*(.+?)(?:[\s_]+([A-Z]\d?))?\s*$")
# the ~2015 layout's application / priority cells: country, number, kind, filing date ('AT 33585 A 19850206')
_NUMBER_KIND_DATE = re.compile(r"^([A-Z]{2})[\s_]+(.+?)[\s_]+([A-Z]\d?)(?:[\s_]+((?:19|20)\d{6}))?$")
_OWNER_DATE = re.compile(r"\s*\(\d{4}-\d{2}-\d{2}\)\s*$")
_LENS_ID = re.compile(r"^\d{3}-\d{3}-\d{3}-\d{3}-\d{2}[\dX]$")
_LINE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+$")
MAX_CELL_CHARS = 131072  # the csv module's default field limit: a longer cell is a reject, not a crash


# ---------- converters ----------

def count_or_none(value: object) -> int | None:
    """A count cell (`'5'`, `5`, `''`) -> int or None; raises ValueError on text that is not a count."""
    if value is None or (isinstance(value, str) and not value.strip()):
        return None
    count = int(str(value).strip())
    if count < 0:
        raise ValueError(f"negative count {value!r}")
    return count


def lens_date(text: str | None) -> date | None:
    """'2016-09-15', '20160915', '2016/09/15', '15/09/16' or '15/09/2016' (legacy dd/mm/yy) -> date.

    Raises ValueError on text that is not empty and not a date, so the row is rejected, not nulled."""
    t = (text or "").strip()
    if not t:
        return None
    if m := re.fullmatch(r"(\d{4})[-/]?(\d{2})[-/]?(\d{2})", t):
        return date(int(m.group(1)), int(m.group(2)), int(m.group(3)))
    if m := re.fullmatch(r"(\d{1,2})/(\d{1,2})/(\d{2}|\d{4})", t):
        year = int(m.group(3))
        year += 0 if year >= 100 else (2000 if year < 50 else 1900)
        return date(year, int(m.group(2)), int(m.group(1)))
    raise ValueError(f"not a date: {t!r}")


def split_multi(cell: str | None) -> list[str]:
    """A `;;`-joined cell -> stripped non-empty values."""
    return [v.strip() for v in (cell or "").split(MULTI) if v.strip()]


def priority_entry(text: str, when: date | None = None) -> dict:
    """'US 201562130600 P' / 'US 62/130,600' / 'PCT/US2017/034582' / 'AT 33585 A 19850206' -> {country, number,
    date}: the number is the application key's (`common.patent_ids.app_id`), so 'US 201562130600' and the USPTO
    '62/130,600' agree; kind `W` under an office is a PCT application ('US 2006/0000980 W' -> WO US2006000980); a
    filing date written after the kind is the entry's date (else `when`)."""
    t = text.strip().upper()
    spaced = None if t.startswith("PCT") else _NUMBER_KIND_DATE.match(t)
    if spaced:
        cc, number, kind, filed = spaced.groups()
        key = app_id(cc, number, kind)
        when = lens_date(filed) if filed else when
    else:
        m = _ID_PARTS.match(t)
        if not m:
            raise PatentIdError(f"not a priority number: {text!r}")
        key = app_id("WO", t) if t.startswith("PCT") else app_id(m.group(1), m.group(2), m.group(3))
    country, number = key.split("-", 1)
    return {"country": country, "number": number, "date": when}


class Kept:
    """Secondary fields of one record that did not normalise: kept as written and flagged, never a reject."""

    def __init__(self) -> None:
        self.app_raw: str | None = None
        self.priorities: list[str] = []
        self.classes: list[str] = []

    def app(self, text: str | None) -> dict | None:
        if not (text or "").strip():
            return None
        try:
            return priority_entry(text)
        except PatentIdError as exc:
            log.debug("lens: application number %r kept raw: %s", text, exc)
            self.app_raw = text.strip()
            return None

    def priority_list(self, cells: list[str], when: date | None) -> list[dict]:
        out = []
        for cell in cells:
            try:
                out.append(priority_entry(cell, when))
            except PatentIdError as exc:
                log.debug("lens: priority %r kept raw: %s", cell, exc)
                self.priorities.append(cell)
        return out

    def symbols(self, cells: list[str | None]) -> list[str]:
        out = []
        for cell in cells:
            symbol = normalise_ipc(cell)
            if symbol:
                out.append(symbol)
            elif (cell or "").strip():
                self.classes.append(cell.strip())
        return unique(out)

    def columns(self) -> dict:
        flags = [name for name, held in (("app_id", self.app_raw), ("priority", self.priorities),
                                         ("classification", self.classes)) if held]
        return {"app_id_raw": self.app_raw, "priorities_raw": self.priorities, "classes_raw": self.classes,
                "flags": flags}


def member_ids(cells: list[str]) -> list[str]:
    """Family member cells -> pub ids; Lens IDs (no publication number) cannot be resolved and are skipped."""
    out = []
    for cell in cells:
        if _LENS_ID.match(cell):
            continue
        try:
            out.append("-".join(parse_pub_id(cell)))
        except PatentIdError:
            log.warning("lens: family member %r is not a publication number; skipped", cell)
    return unique(out)


def _person(name: str, country: str | None = None) -> dict:
    person = split_name(name)
    person["country"] = person["country"] or country
    return person


def _family_rows(record_id: str, kind: str, members: list[str], size: int | None = None) -> list[dict]:
    """Members as reported; the family id is the id of the record listing them (Lens gives no family id).
    A size without members (the legacy export) is one row, the record itself, carrying the size."""
    ids = unique([record_id, *members]) if members or size is not None else []
    return [{"source": SOURCE, "family_kind": kind, "family_id": record_id, "pub_id": m, "family_size": size}
            for m in ids]


def _base_row(pid: str, kind: str | None, source_file: str, raw: str) -> dict:
    cc, number, _ = pid.split("-")
    return {"pub_id": pid, "country": cc, "doc_number": number, "kind": kind or None, "related": None,
            "source": SOURCE, "source_file": source_file, "raw": raw}


# ---------- CSV ----------

def _read_bytes(path_or_bytes: str | Path | bytes) -> bytes:
    return path_or_bytes if isinstance(path_or_bytes, bytes) else Path(path_or_bytes).read_bytes()


def decode_export(data: bytes) -> tuple[str, str]:
    """Exports come as utf-8 (with or without BOM) or, for old ones, a legacy 8-bit code page."""
    for encoding in ("utf-8-sig", "cp1252"):
        try:
            return data.decode(encoding), encoding
        except UnicodeDecodeError:
            continue
    return data.decode("latin-1"), "latin-1"


def detect_layout(header: list[str]) -> str:
    """'modern' (37 columns, `Display Key`) or 'legacy' (~2015, `Publication Number`); else ValueError."""
    names = set(header)
    if {"Display Key", "Jurisdiction"} <= names:
        return "modern"
    if {"Publication Number", "Jurisdiction"} <= names:
        return "legacy"
    raise ValueError(f"not a Lens patent export header: {header[:6]}")


def _csv_parties(f: dict) -> tuple[list[dict], list[dict]]:
    inventors = [_person(n) for n in split_multi(f.get("inventors"))]
    applicants = [{"name": n, "country": None, "kind": "applicant"} for n in split_multi(f.get("applicants"))]
    applicants += [{"name": _OWNER_DATE.sub("", n), "country": None, "kind": "owner"}
                   for n in split_multi(f.get("owners"))]
    return inventors, applicants


def _csv_publication(f: dict, source_file: str, raw: str) -> dict:
    """Row fields (by FIELDS name) -> a `publications` row; raises PatentIdError/ValueError when unusable."""
    if not f.get("key"):
        raise ValueError("row without a publication number")
    cc, number, kind = parse_pub_id(f["key"])
    kind = kind or (f.get("kind") or "").strip().upper()
    row = _base_row(f"{cc}-{number}-{kind}", kind, source_file, raw)
    kept = Kept()
    app = kept.app(f.get("app"))
    prio_cells = split_multi(f.get("priorities"))
    earliest = lens_date(f.get("earliest"))
    ipc = kept.symbols(split_multi(f.get("ipc")))
    inventors, applicants = _csv_parties(f)
    doc_type = (f.get("doc_type") or "").strip().upper().replace(" ", "_")
    row.update({
        "pub_date": lens_date(f.get("pub_date")), "app_id": f"{app['country']}-{app['number']}" if app else None,
        "app_date": lens_date(f.get("app_date")), "title": (f.get("title") or "").strip() or None,
        "abstract": clean_text(f.get("abstract")) or None, "lang": None, "ipc": ipc,
        "ipc3": ipc[0][:3] if ipc else None, "cpc": kept.symbols(split_multi(f.get("cpc"))),
        "inventors": inventors, "applicants": applicants,
        "priorities": kept.priority_list(prio_cells, earliest if len(prio_cells) == 1 else None),
        "doc_type": DOC_TYPES.get(doc_type, doc_type.lower() or None),
        "cited_by_count": count_or_none(f.get("cited_by")),
    })
    row.update(kept.columns())
    return row


def _csv_row(result: ParseResult, fields: dict, source_file: str, raw: str) -> None:
    row = _csv_publication(fields, source_file, raw)
    pid = row["pub_id"]
    result.add("publications", row)
    for seq, npl in enumerate(split_multi(fields.get("npl")), start=1):
        result.add("citations", {"citing_pub_id": pid, "seq": seq, "cited_pub_id": None, "cited_npl": npl,
                                 "category": None, "cited_by": None})
    for kind in ("simple", "extended"):
        size = count_or_none(fields.get(f"{kind}_size"))
        for fam in _family_rows(pid, kind, member_ids(split_multi(fields.get(kind))), size):
            result.add("reported_families", fam)


class _Lines:
    """Physical lines (line ends kept; CR, LF or CRLF) with push-back, for `csv_records`."""

    def __init__(self, text: str) -> None:
        self._it = _LINE.finditer(text)
        self.pending: deque[str] = deque()
        self.taken: list[str] = []

    def __iter__(self) -> "_Lines":
        return self

    def __next__(self) -> str:
        line = self.pending.popleft() if self.pending else next(self._it).group(0)
        self.taken.append(line)
        return line


def _is_row(line: str, width: int) -> bool:
    """One physical line that is a complete record of `width` fields on its own."""
    try:
        return len(next(csv.reader([line]), [])) == width
    except csv.Error:
        return False


def csv_records(text: str) -> Iterator[tuple[list[str] | None, str, str | None]]:
    """(cells, raw text, error) per CSV record, the header first; cells is None when the record is bad.

    A record is bad when the csv module refuses it (a cell over MAX_CELL_CHARS) or when it has
    another number of fields than the header. A bad record that spans several lines is usually a broken
    quote that swallowed the rows after it: only its first line is reported, the others are re-read,
    so one stray quote costs one row, not the rest of the file.
    """
    lines = _Lines(text)
    reader = csv.reader(lines, strict=False)
    width: int | None = None
    while True:
        lines.taken = []
        try:
            cells: list[str] | None = next(reader)
            error = None
        except StopIteration:
            return
        except csv.Error as exc:
            cells, error = None, f"unreadable CSV record: {exc}"
        if error is None and width is not None and cells and len(cells) != width:
            error = f"expected {width} fields, got {len(cells)}"
        elif error is None and cells and max(map(len, cells)) > MAX_CELL_CHARS:
            error = f"a cell has {max(map(len, cells))} characters, cap is {MAX_CELL_CHARS}"
        taken = lines.taken
        if error is None and width and len(taken) > 1 and any(_is_row(ln, width) for ln in taken[1:]):
            error = f"a quoted cell runs over {len(taken) - 1} line(s) that are rows of their own"
        if error and len(taken) > 1:
            lines.pending.extendleft(reversed(taken[1:]))
            taken = taken[:1]
            error += " (broken quoting: the following lines are read again)"
        yield (None if error else cells), "".join(taken), error
        if width is None:
            width = len(cells) if cells else 0


def parse_lens_csv(path_or_bytes: str | Path | bytes, source_file: str) -> ParseResult:
    """A Lens patent CSV export -> records; layout from the header, unknown columns ignored (one warning)."""
    result = ParseResult()
    text, encoding = decode_export(_read_bytes(path_or_bytes))
    records = csv_records(text)
    first = next(records, None)
    header = [h.strip() for h in (first[0] or [])] if first else []
    try:
        layout = detect_layout(header)
    except ValueError as exc:
        result.reject(SOURCE, source_file, "header", exc, text[:2048])
        return result
    known = set(MODERN_COLUMNS if layout == "modern" else LEGACY_COLUMNS + LEGACY_EXTRA_COLUMNS)
    unknown = [h for h in header if h not in known]
    if unknown:
        log.warning("lens %s: %d unknown column(s) ignored: %s", source_file, len(unknown), ", ".join(unknown))
    log.debug("lens %s: %s layout, %s", source_file, layout, encoding)
    for n, (cells, line, error) in enumerate(records, start=1):
        if cells is not None and not any(c.strip() for c in cells):
            continue
        if cells is None:
            result.reject(SOURCE, source_file, f"row {n}", ValueError(error), line)
            continue
        raw = json.dumps(dict(zip(header, cells)), ensure_ascii=False)
        try:
            fields = {FIELDS[h]: v for h, v in zip(header, cells) if h in FIELDS and h in known}
            _csv_row(result, fields, source_file, raw)
        except (PatentIdError, ValueError) as exc:
            result.reject(SOURCE, source_file, f"row {n}", exc, raw)
    return result


# ---------- JSON Lines ----------

def _texts(items: list | None, prefer: str = "en") -> tuple[str | None, str | None]:
    """[{text, lang}] -> (text, lang) in `prefer`, else the first one."""
    items = [i for i in (items or []) if isinstance(i, dict) and i.get("text")]
    chosen = next((i for i in items if (i.get("lang") or "").lower() == prefer), items[0] if items else None)
    return (chosen["text"], (chosen.get("lang") or "").lower() or None) if chosen else (None, None)


def _doc_pub_id(doc: dict) -> str:
    return pub_id(doc.get("jurisdiction") or "", str(doc.get("doc_number") or ""), doc.get("kind"))


def _json_publication(rec: dict, source_file: str, raw: str) -> dict:
    biblio = rec.get("biblio") or {}
    ref = biblio.get("publication_reference") or {}
    ids = rec if rec.get("jurisdiction") and rec.get("doc_number") else ref
    row = _base_row(_doc_pub_id(ids), ids.get("kind"), source_file, raw)
    app = biblio.get("application_reference") or {}
    title, lang = _texts(biblio.get("invention_title"))
    abstract, _ = _texts(rec.get("abstract"), lang or "en")
    parties = biblio.get("parties") or {}
    kept = Kept()
    ipc = kept.symbols([c.get("symbol") for c in (biblio.get("classifications_ipcr") or {}).get(
        "classifications", [])])
    cpc = kept.symbols([c.get("symbol") for c in (biblio.get("classifications_cpc") or {}).get(
        "classifications", [])])
    app_entry = kept.app(f"{app.get('jurisdiction') or ''} {app['doc_number']} {app.get('kind') or ''}".strip()
                         if app.get("doc_number") else None)
    row.update({
        "pub_date": lens_date(rec.get("date_published") or ref.get("date")),
        "app_id": f"{app_entry['country']}-{app_entry['number']}" if app_entry else None,
        "app_date": lens_date(app.get("date")), "title": title, "abstract": clean_text(abstract) or None,
        "lang": lang or rec.get("lang"), "ipc": ipc, "ipc3": ipc[0][:3] if ipc else None, "cpc": unique(cpc),
        "inventors": [_person((p.get("extracted_name") or {}).get("value", ""), p.get("residence"))
                      for p in parties.get("inventors", [])],
        "applicants": [{"name": (p.get("extracted_name") or {}).get("value"), "kind": kind,
                        "country": p.get("residence") or p.get("extracted_country")}
                       for kind, key in (("applicant", "applicants"), ("owner", "owners_all"))
                       for p in parties.get(key, [])],
        "priorities": [e for c in (biblio.get("priority_claims") or {}).get("claims", [])
                       for e in kept.priority_list([f"{c.get('jurisdiction') or ''} {c.get('doc_number') or ''} "
                                                    f"{c.get('kind') or ''}".strip()], lens_date(c.get("date")))],
        "doc_type": DOC_TYPES.get(rec.get("publication_type") or "", (rec.get("publication_type") or "").lower()
                                  or None),
        "cited_by_count": _json_cited_by(biblio),
    })
    row.update(kept.columns())
    return row


def _json_cited_by(biblio: dict) -> int | None:
    """`cited_by.patent_count`; Lens writes `cited_by: {}` for a publication nobody cites (0), and no
    `cited_by` at all when the export did not include the field (unknown: None)."""
    cited_by = biblio.get("cited_by")
    if not isinstance(cited_by, dict):
        return None
    count = count_or_none(cited_by.get("patent_count"))
    return count if count is not None else len(cited_by.get("patents") or [])


def _json_citations(pid: str, biblio: dict) -> tuple[list[dict], list[tuple[int, Exception, dict]]]:
    """references_cited -> (rows numbered in document order, rejects as (seq, error, citation)).

    Lens restarts `sequence` per cited phase, so `seq` is the position in the list. A citation with no readable
    content (`{"patcit": {}}`, a patcit whose number cannot be read, an empty nplcit) is a reject, never a row:
    its seq stays unused, so the numbering still matches Lens's order."""
    rows, rejects = [], []
    for seq, c in enumerate((biblio.get("references_cited") or {}).get("citations", []), start=1):
        cited, npl = None, None
        try:
            if not isinstance(c, dict):
                raise TypeError("citation is not a JSON object")
            if "patcit" in c:
                doc = (c["patcit"] or {}).get("document_id") or {}
                if not doc:
                    raise PatentIdError("patent citation without a document_id")
                cited = _doc_pub_id(doc)
            else:
                npl = ((c.get("nplcit") or {}).get("text") or "").strip() or None
                if npl is None:
                    raise ValueError("citation with neither a patent number nor a non-patent text")
        except (PatentIdError, ValueError, TypeError, AttributeError) as exc:
            rejects.append((seq, exc, c))
            continue
        rows.append({"citing_pub_id": pid, "seq": seq, "cited_pub_id": cited, "cited_npl": npl,
                     "category": c.get("category"), "cited_by": CITED_PHASE.get(c.get("cited_phase") or "", "other")})
    return rows, rejects


def _json_claims(pid: str, rec: dict) -> list[dict]:
    blocks = [b for b in rec.get("claims") or [] if isinstance(b, dict)]
    block = next((b for b in blocks if (b.get("lang") or "").lower() == "en"), blocks[0] if blocks else None)
    pieces = [t for c in (block or {}).get("claims", []) for t in c.get("claim_text") or [] if t.strip()]
    return claim_rows(pid, pieces)


def _jsonl_record(result: ParseResult, rec: dict, source_file: str, raw: str, where: str = "") -> None:
    row = _json_publication(rec, source_file, raw)
    pid = row["pub_id"]
    citations, bad = _json_citations(pid, rec.get("biblio") or {})
    rows = {"citations": citations, "claims": _json_claims(pid, rec), "reported_families": []}
    for kind in ("simple", "extended"):
        family = (rec.get("families") or {}).get(f"{kind}_family") or {}
        members = [_doc_pub_id(m.get("document_id") or {}) for m in family.get("members", [])]
        rows["reported_families"] += _family_rows(pid, kind, unique(members), count_or_none(family.get("size")))
    result.add("publications", row)
    for seq, exc, cite in bad:
        result.reject(SOURCE, source_file, f"{where} {pid} citation {seq}".strip(), exc,
                      json.dumps(cite, ensure_ascii=False))
    for table, table_rows in rows.items():
        for r in table_rows:
            result.add(table, r)


def iter_lens_jsonl(path_or_bytes: str | Path | bytes, source_file: str,
                    batch_records: int = BATCH_RECORDS) -> Iterator[ParseResult]:
    """A Lens JSON Lines export, read line by line, as ParseResults of about `batch_records` lines each.

    Memory is bounded by the batch, not the file (a 100k-family export is 1.4 GB); a bad line is a
    reject (`line N`)."""
    stream = io.BytesIO(path_or_bytes) if isinstance(path_or_bytes, bytes) else open(path_or_bytes, "rb")
    with stream:
        result, taken, batches = ParseResult(), 0, 0
        for n, line in enumerate(stream, start=1):
            if n == 1 and line.startswith(b"\xef\xbb\xbf"):
                line = line[3:]
            line = line.rstrip(b"\r\n")
            if not line.strip():
                continue
            text = line.decode("utf-8", errors="replace")
            try:
                rec = json.loads(line)
                if not isinstance(rec, dict):
                    raise ValueError("line is not a JSON object")
                _jsonl_record(result, rec, source_file, text, f"line {n}")
            except (PatentIdError, ValueError, KeyError, TypeError, AttributeError) as exc:
                result.reject(SOURCE, source_file, f"line {n}", exc, line)
            taken += 1
            if taken >= batch_records:
                yield result
                result, taken, batches = ParseResult(), 0, batches + 1
        if taken or not batches:  # an empty export still yields one (empty) result
            yield result


def parse_lens_jsonl(path_or_bytes: str | Path | bytes, source_file: str) -> ParseResult:
    """The whole export as one ParseResult (small files, tests); ingest streams `iter_lens_jsonl`."""
    merged = ParseResult()
    for part in iter_lens_jsonl(path_or_bytes, source_file):
        merged.extend(part)
    return merged
