"""PTAB ex parte appeal decisions: ODP `patentAppealDataBag` records plus the decision PDFs.

For each appeal of `world.ptab`: `ptab/records/<n>.json` (one record in the real ODP search
shape, `fileDownloadURI` pointing at the ptab-files path the replica serves) and
`ptab/pdfs/<documentIdentifier>.pdf` (reportlab, invariant, so byte-identical per seed). About one
PDF in four is image-only (pages rasterised, no text layer) so the ingest must OCR it. The decision
text is composed from role-tagged paragraphs; the roles per sentence are the ground truth written
to `truth/ptab_opinions.parquet`, against which the rule-based splitter is scored.
"""
from __future__ import annotations

import io
import json
import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

import pyarrow as pa
import pyarrow.parquet as pq

from ..numbering import iso
from . import register

if TYPE_CHECKING:
    from ..world import World

ODP = "https://api.uspto.gov"
PAGE_W, PAGE_H, MARGIN, SIZE, LEADING = 612.0, 792.0, 72.0, 11, 15.0
EXAMINERS = ("DAVISON, LAURA L", "DOERRLER, WILLIAM CHARLES", "NGUYEN, TUAN H", "PATEL, RINA", "KIM, SUNG H")
COUNSEL = ("SCHWEGMAN LUNDBERG & WOESSNER, P.A.", "FISH & RICHARDSON P.C.", "BANNER & WITCOFF, LTD.")
REFS = ("Smith", "Jones", "Tanaka", "Mueller", "Garcia", "Chen", "Okafor", "Larsen")
FORMS = {"Affirmed": ("AFFIRMED", "affirm"), "Reversed": ("REVERSED", "reverse"),
         "Affirmed-in-Part": ("AFFIRMED-IN-PART", "affirm-in-part")}
GROUNDS = {"101": "as being directed to a judicial exception without significantly more",
           "102": "as being anticipated by {0}", "112": "as failing to comply with the written description requirement",
           "103": "as being unpatentable over {0} and {1}"}


@dataclass
class Para:
    role: str  # facts | examiner_findings | appellant_arguments | ptab_opinion | other
    sentences: list[str]
    heading: bool = False


@dataclass
class Decision:
    sections: list[tuple[str, list[Para]]] = field(default_factory=list)


def app_display(app_id: str) -> str:
    """'US-17123456' -> '17/123,456' as printed on PTAB decisions."""
    n = app_id.split("-", 1)[1]
    return f"{n[:2]}/{n[2:5]},{n[5:]}"


def appeal_display(number: str) -> str:
    return f"{number[:4]}-{number[4:]}"


def doc_identifier(decision_id: str) -> str:
    """A UUID-shaped ODP documentIdentifier derived from the world's decision id."""
    h = (decision_id * 2)[:32]
    return f"{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:32]}"


def _features(world: World, a: dict) -> tuple[str, list[str]]:
    """(title, claim-element phrases) of the appealed application's invention."""
    inv = int(world.pubs["inv"][list(world.pubs["pub_id"]).index(a["pub_id"])])
    text = world.text(inv)
    els = [e for c in text.claims for e in c.elements] or [text.title]
    return text.title.lower(), [" ".join(e.rstrip(";.,:").split()[:10]).lower() for e in els]


def _issue_paras(r: random.Random, issue: str, feats: list[str], refs: list[str], claims: str,
                 outcome: str) -> list[Para]:
    f1, f2 = r.choice(feats), r.choice(feats)
    exam = Para("examiner_findings", [
        f"The Examiner finds that {refs[0]} teaches {f1}.",
        f"{refs[0]} further describes {f2} in its detailed description.",
        r.choice([f"The Examiner determines that {refs[-1]} supplies the remaining limitation.",
                  "The Examiner concludes that the claimed subject matter would have been obvious."])])
    appl = Para("appellant_arguments", [
        f"Appellant argues that {refs[0]} fails to teach or suggest {f1}.",
        f"In particular, the cited passage of {refs[0]} merely discloses {f2}.",
        r.choice([f"According to Appellant, the Examiner's reading of {refs[0]} is unreasonably broad.",
                  "Appellant further contends that the Examiner relies on impermissible hindsight."])])
    sustain = not outcome.startswith("Reversed")
    opener = "We are not persuaded by Appellant's argument." if sustain else "We agree with Appellant."
    if r.random() < 0.25:  # the board paraphrasing the appellant: a known hard case for cue rules
        opener = "Appellant's argument is unpersuasive." if sustain else "Appellant's argument is persuasive."
    board = Para("ptab_opinion", [
        opener,
        (f"{refs[0]}'s disclosure of {f2} reasonably corresponds to the claimed {f1}." if sustain else
         f"On this record, {refs[0]} does not describe {f1} as the claim requires."),
        f"Accordingly, we {'sustain' if sustain else 'do not sustain'} the rejection of claims {claims} "
        f"under 35 U.S.C. \u00a7 {issue}."])
    order = [exam, appl, board] if r.random() < 0.7 else [appl, exam, board]
    title = f"Rejection under 35 U.S.C. \u00a7 {issue}" if issue != "Others" else "The Remaining Rejection"
    return [Para("other", [title], heading=True), *order]


def compose(world: World, a: dict) -> Decision:
    """The decision as sections of role-tagged paragraphs (deterministic per decision id)."""
    r = random.Random(a["decision_id"])
    (title, feats), refs = _features(world, a), r.sample(REFS, 2)
    claims = ", ".join(str(c) for c in a["claims_on_appeal"])
    issues = [s for s in a["issue_types"]]
    verdict, verb = FORMS.get(a["outcome"].split(" with ")[0], (a["outcome"].upper(), "decide as follows"))
    intro = Para("other", [f"Appellant appeals under 35 U.S.C. \u00a7 134(a) from the Examiner's decision to reject "
                           f"claims {claims}.", "We have jurisdiction under 35 U.S.C. \u00a7 6(b).",
                           f"We {verb}."])
    if a["separate_opinion"]:
        return Decision([("OPINION DISSENTING", [Para("other", [
            "I respectfully dissent from the majority's decision.",
            f"In my view, {refs[0]} does not teach {feats[0]}."])])])
    soc = [Para("facts", [f"The claimed subject matter relates to {title} and in "
                          f"particular to {feats[0]}.", f"Claim {a['claims_on_appeal'][0]} is illustrative of the "
                          "claimed subject matter."]),
           Para("facts", [f"The prior art relied upon is {refs[0]} and {refs[1]}."])]
    soc += [Para("examiner_findings", [f"Claims {claims} stand rejected under 35 U.S.C. \u00a7 {s} "
                                       + GROUNDS[s].format(*refs) + "."]) for s in issues if s != "Others"]
    analysis = [p for s in issues for p in _issue_paras(r, s, feats, refs, claims, a["outcome"])]
    if "37 CFR 41.50(b)" in a["board_authorities"]:
        analysis.append(Para("ptab_opinion", ["We enter a new ground of rejection pursuant to our authority under "
                                              "37 C.F.R. \u00a7 41.50(b)."]))
    for auth in a["board_authorities"]:
        if auth.startswith("37 CFR 1.13"):
            analysis.append(Para("appellant_arguments", [f"Appellant relies on a declaration under 37 C.F.R. \u00a7 "
                                                         f"{auth.split()[-1]} to show unexpected results."]))
    decision = Para("other", [f"The Examiner's decision to reject claims {claims} is {a['outcome'].lower()}.",
                              "No time period for taking any subsequent action in connection with this appeal may "
                              "be extended under 37 C.F.R. \u00a7 1.136(a)(1)(iv)."])
    return Decision([("DECISION ON APPEAL", [intro]), ("STATEMENT OF THE CASE", soc), ("ANALYSIS", analysis),
                     ("DECISION", [decision, Para("other", [verdict], heading=True)])])


def cover_lines(world: World, a: dict, rec: dict) -> list[str]:
    """The PTOL-90A style cover page with the bibliographic fields the cleaner must remove."""
    ap = rec["appellantData"]
    r = random.Random(a["decision_id"] + "cover")
    filed = iso(int(world.apps["date"][list(world.apps["number"]).index(a["app_id"][3:])]))
    f = filed.split("-")
    return ["UNITED STATES PATENT AND TRADEMARK OFFICE", "UNITED STATES DEPARTMENT OF COMMERCE",
            "Address: COMMISSIONER FOR PATENTS", "P.O. Box 1450", "Alexandria, Virginia 22313-1450", "",
            "APPLICATION NO. FILING DATE FIRST NAMED INVENTOR ATTORNEY DOCKET NO. CONFIRMATION NO.",
            f"{app_display(a['app_id'])} {f[1]}/{f[2]}/{f[0]} {ap['inventorName']} {r.randint(1000, 9999)}.0"
            f"{r.randint(10, 99)}US1 {r.randint(1000, 9999)}", "", ap["counselName"], "P.O. BOX 2938",
            "MINNEAPOLIS, MN 55402", "", "EXAMINER", r.choice(EXAMINERS), "",
            f"ART UNIT {ap['groupArtUnitNumber']} PAPER NUMBER", "",
            f"NOTIFICATION DATE {rec['documentData']['documentFilingDate']} DELIVERY MODE ELECTRONIC"]


def caption_lines(a: dict) -> list[str]:
    judges = a["judges"]
    return ["UNITED STATES PATENT AND TRADEMARK OFFICE", "", "BEFORE THE PATENT TRIAL AND APPEAL BOARD", "",
            f"Ex parte {a['appellant']}", "", f"Appeal {appeal_display(a['appeal_number'])}",
            f"Application {app_display(a['app_id'])}", "",
            f"Before {judges[0]}, {judges[1]}, and {judges[2]}, Administrative Patent Judges.", ""]


def record(world: World, a: dict, size: int, ocr_text: str) -> dict:
    """The ODP record, keys in API order."""
    did, date = doc_identifier(a["decision_id"]), iso(a["decision_date"])
    year, seq = a["appeal_number"][:4], a["appeal_number"][4:]
    folder = f"{ODP}/api/v1/patent/ptab-files/APP/{year}/{seq}"
    p = list(world.pubs["pub_id"]).index(a["pub_id"])
    inventor = world.inventors(int(world.pubs["inv"][p]))[0].name
    r = random.Random(a["decision_id"] + "rec")
    filed = iso(a["decision_date"] - r.randint(60, 400))
    auth = [s for s in a["board_authorities"] if s != "Others"]
    return {"appealNumber": a["appeal_number"], "appealDocumentCategory": "Decision",
            "lastModifiedDateTime": f"{date}T17:32:24",
            "appealMetaData": {"appealFilingDate": filed, "appealLastModifiedDateTime": f"{date}T11:12:28",
                               "appealLastModifiedDate": date, "applicationTypeCategory": "REGULAR",
                               "fileDownloadURI": f"{folder}/{a['appeal_number']}.zip"},
            "appellantData": {"applicationNumberText": a["app_id"][3:], "counselName": r.choice(COUNSEL),
                              "groupArtUnitNumber": str(r.randint(1600, 3700)), "inventorName": inventor,
                              "realPartyInInterestName": a["appellant"], "technologyCenterNumber": "2100"},
            "documentData": {"documentFilingDate": date, "documentIdentifier": did,
                             "documentName": f"Decision_{a['appeal_number']}_{date[5:7]}-{date[8:]}-{date[:4]}.pdf",
                             "documentSizeQuantity": size, "documentOCRText": ocr_text,
                             "documentTypeDescriptionText": "Paper", "fileDownloadURI": f"{folder}/{did}.pdf"},
            "decisionData": {"appealOutcomeCategory": a["outcome_raw"],
                             "statuteAndRuleBag": [*auth, "35 USC 134"], "decisionIssueDate": date,
                             "decisionTypeCategory": "Decision",
                             "issueTypeBag": ["120" if s == "Others" else s for s in a["issue_types"]]}}


def truth_row(a: dict, doc: Decision, image_only: bool) -> dict:
    sents = [(sec, p.role, s) for sec, paras in doc.sections if sec in ("STATEMENT OF THE CASE", "ANALYSIS")
             for p in paras if not p.heading for s in p.sentences]
    return {"decision_id": a["decision_id"], "document_identifier": doc_identifier(a["decision_id"]),
            "app_id": a["app_id"], "image_only": image_only, "standard_cover": a["standard_cover"],
            "separate_opinion": a["separate_opinion"], "outcome": a["outcome"], "outcome_coarse": a["outcome_coarse"],
            "issue_types": a["issue_types"], "board_authorities": a["board_authorities"],
            "sections": [s[0] for s in sents], "roles": [s[1] for s in sents], "sentences": [s[2] for s in sents]}


@register("ptab")
def render_ptab(world: World, out: Path) -> list[Path]:
    """Records, PDFs and the opinion ground truth for every appeal of the world."""
    rec_dir, pdf_dir = out / "ptab" / "records", out / "ptab" / "pdfs"
    rec_dir.mkdir(parents=True, exist_ok=True)
    pdf_dir.mkdir(parents=True, exist_ok=True)
    written, truth = [], []
    for n, a in enumerate(sorted(world.ptab, key=lambda x: x["decision_id"])):
        doc, image_only = compose(world, a), n % 4 == 1
        rec = record(world, a, 0, "")
        cover = cover_lines(world, a, rec) if a["standard_cover"] else []
        data = decision_pdf(cover, caption_lines(a), doc, a, image_only)
        rec = record(world, a, len(data), ("\n".join(cover or caption_lines(a)))[:600] + " ...")
        pdf = pdf_dir / f"{rec['documentData']['documentIdentifier']}.pdf"
        pdf.write_bytes(data)
        path = rec_dir / f"{n}.json"
        path.write_text(json.dumps(rec, ensure_ascii=False, separators=(",", ":")), encoding="utf-8")
        written += [pdf, path]
        truth.append(truth_row(a, doc, image_only))
    written.append(_write_truth(out / "truth" / "ptab_opinions.parquet", truth))
    return written


def _write_truth(path: Path, rows: list[dict]) -> Path:
    strs = pa.list_(pa.string())
    schema = pa.schema([("decision_id", pa.string()), ("document_identifier", pa.string()), ("app_id", pa.string()),
                        ("image_only", pa.bool_()), ("standard_cover", pa.bool_()), ("separate_opinion", pa.bool_()),
                        ("outcome", pa.string()), ("outcome_coarse", pa.string()), ("issue_types", strs),
                        ("board_authorities", strs), ("sections", strs), ("roles", strs), ("sentences", strs)])
    path.parent.mkdir(parents=True, exist_ok=True)
    buf = io.BytesIO()
    pq.write_table(pa.Table.from_pylist(rows, schema=schema), buf)
    path.write_bytes(buf.getvalue())
    return path


def _wrap(text: str, font: str, size: float, width: float) -> list[str]:
    """Greedy word wrap; a long word that does not fit is hyphenated across the line break."""
    from reportlab.pdfbase.pdfmetrics import stringWidth
    lines, cur = [], ""
    for word in text.split():
        trial = f"{cur} {word}".strip()
        if stringWidth(trial, font, size) <= width:
            cur = trial
            continue
        if len(word) >= 8 and word.isalpha() and cur:
            for cut in range(len(word) - 3, 2, -1):
                head = f"{cur} {word[:cut]}-"
                if stringWidth(head, font, size) <= width:
                    lines.append(head)
                    cur = word[cut:]
                    break
            else:
                lines.append(cur)
                cur = word
            continue
        if cur:
            lines.append(cur)
        cur = word
    return lines + ([cur] if cur else [])


def _blocks(cover: list[str], caption: list[str], doc: Decision) -> list[tuple[str, str, float]]:
    """(kind, text, gap before) blocks in reading order; kind: cover | centre | heading | body | newpage."""
    out: list[tuple[str, str, float]] = [("cover", ln, 0.0) for ln in cover]
    out += [("newpage", "", 0.0)] if cover else []
    out += [("centre", ln, 0.0) for ln in caption if ln]
    for title, paras in doc.sections:
        out.append(("heading", title, LEADING))
        for p in paras:
            out.append(("subheading" if p.heading else "body", " ".join(p.sentences), 8.0))
    return out


def _pages(cover: list[str], caption: list[str], doc: Decision, numbered: bool) -> list[list[tuple]]:
    """Lay out the blocks as pages of (x, y, text, font) draw operations."""
    width = PAGE_W - 2 * MARGIN
    pages: list[list[tuple]] = [[]]
    y, lineno = PAGE_H - MARGIN, 0
    for kind, text, gap in _blocks(cover, caption, doc):
        if kind == "newpage":
            pages.append([])
            y = PAGE_H - MARGIN - 2 * LEADING
            continue
        font = "Times-Bold" if kind in ("heading", "subheading") else "Times-Roman"
        y -= gap
        for line in _wrap(text, font, SIZE, width) if kind in ("body", "subheading") else [text]:
            if y < MARGIN + LEADING:
                pages.append([])
                y = PAGE_H - MARGIN - 2 * LEADING
            x = MARGIN + (width - _width(line, font)) / 2 if kind in ("heading", "centre") else MARGIN
            pages[-1].append((x, y, line, font))
            lineno += kind == "body"
            if numbered and kind == "body" and lineno % 5 == 0:
                pages[-1].append((MARGIN - 30, y, str(lineno % 50 or 50), "Times-Roman"))
            y -= LEADING
    return pages


def _width(text: str, font: str) -> float:
    from reportlab.pdfbase.pdfmetrics import stringWidth
    return stringWidth(text, font, SIZE)


def _draw(pages: list[list[tuple]], a: dict, has_cover: bool) -> bytes:
    """Text-layer PDF: running header (appeal / application) and page number on decision pages."""
    from reportlab.pdfgen import canvas
    buf = io.BytesIO()
    c = canvas.Canvas(buf, pagesize=(PAGE_W, PAGE_H), invariant=1, pageCompression=1)
    for n, ops in enumerate(pages):
        number = n + (0 if has_cover else 1)
        if number >= 2 or (not has_cover and n > 0):
            c.setFont("Times-Roman", SIZE)
            c.drawString(MARGIN, PAGE_H - 40, f"Appeal {appeal_display(a['appeal_number'])}")
            c.drawString(MARGIN, PAGE_H - 40 - 13, f"Application {app_display(a['app_id'])}")
        if n > 0 or not has_cover:
            c.setFont("Times-Roman", SIZE)
            c.drawCentredString(PAGE_W / 2, 36, str(number))
        for x, y, text, font in ops:
            c.setFont(font, SIZE)
            c.drawString(x, y, text)
        c.showPage()
    c.save()
    return buf.getvalue()


def _image_only(data: bytes) -> bytes:
    """Rasterise every page (200 dpi, grayscale) and re-embed the images only: a scanned decision."""
    import pypdfium2 as pdfium
    from reportlab.lib.utils import ImageReader
    from reportlab.pdfgen import canvas
    buf = io.BytesIO()
    c = canvas.Canvas(buf, pagesize=(PAGE_W, PAGE_H), invariant=1)
    pdf = pdfium.PdfDocument(data)
    for i in range(len(pdf)):
        img = pdf[i].render(scale=200 / 72, grayscale=True).to_pil().convert("L")
        c.drawImage(ImageReader(img), 0, 0, PAGE_W, PAGE_H)
        c.showPage()
    pdf.close()
    c.save()
    return buf.getvalue()


def decision_pdf(cover: list[str], caption: list[str], doc: Decision, a: dict, image_only: bool) -> bytes:
    """The decision PDF bytes (deterministic: reportlab invariant mode, seeded layout choices)."""
    numbered = not image_only and random.Random(a["decision_id"] + "ln").random() < 0.3
    data = _draw(_pages(cover, caption, doc, numbered), a, bool(cover))
    return _image_only(data) if image_only else data
