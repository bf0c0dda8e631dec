"""The pdfplumber route on layouts the two real sample PDFs do not have: a journal's margin column beside the
text (PLOS), roman sections with lettered italic subsections (IEEE), two faces of one size for two heading
levels, and a heading wrapped over two lines. The PDFs are drawn here with reportlab, glyph by glyph where
the layouts put them, so each rule is tested on the font names, sizes and positions a real PDF carries."""
from __future__ import annotations

import io

from reportlab.lib.pagesizes import letter
from reportlab.pdfgen import canvas

from sources.paper_pdf import parse_pdf
from transforms.outlines import iter_sections

SENTENCES = ("Heat stress after anthesis lowers the grain yield of wheat in most regions where it is grown. "
             "The genotypes differ in how much of their photosynthesis and membrane stability they keep. "
             "We measured chlorophyll content, fluorescence and the stability of cell membranes each week. "
             "Leaves were sampled ten days after the treatment and frozen in liquid nitrogen at once. ").split()


def _body(n: int, width: int = 72) -> list[str]:
    """n body lines of about `width` characters, the last one ending a sentence."""
    out, line, k = [], "", 0
    while len(out) < n:
        word = SENTENCES[k % len(SENTENCES)]
        k += 1
        if len(line) + len(word) + 1 > width:
            out.append(line)
            line = ""
        line = f"{line} {word}".strip()
    out[-1] = out[-1].rstrip(".") + "."
    return out


def _pdf(pages: list[list[tuple[float, str, float, str]]], margin: list[list[str]] | None = None) -> bytes:
    """Pages of (x, font, size, text) lines set top down; `margin` lines go in a narrow column at the left."""
    buf = io.BytesIO()
    c = canvas.Canvas(buf, pagesize=letter)
    for n, lines in enumerate(pages):
        y = 740.0
        for x, font, size, text in lines:
            c.setFont(font, size)
            c.drawString(x, y, text)
            y -= size * 1.25
        for k, text in enumerate((margin or [[]] * len(pages))[n]):
            c.setFont("Helvetica", 7)
            c.drawString(36, 600 - 10 * k, text)
        c.showPage()
    c.save()
    return buf.getvalue()


def _titles(sections: list[dict]) -> list[tuple[int, str]]:
    return [(level, s["title"]) for level, s in iter_sections(sections, 1)]


def test_margin_column_and_ieee_lettered_subsections():
    """Roman sections in the body face (caps), lettered subsections in italics under them; the notes in the
    margin column (citation, licence, competing interests) are read apart and kept out of the body."""
    body = [(200, "Times-Roman", 10, t) for t in _body(40)]
    notes = ["Citation: Thomason K (2018) Heat", "stress in wheat. PLoS ONE 13(6).", "Editor: A. Zhang, CAS",
             "Received: April 14, 2018", "Copyright: 2018 Thomason et al.", "This is an open access article",
             "distributed under the terms of", "the Creative Commons licence."]
    pages = [[(200, "Times-Bold", 18, "Heat Stress in Wheat"), (200, "Times-Roman", 10, "A. Author and B. Author"),
              (200, "Times-Roman", 10, "I. INTRODUCTION"), *body[:8], (200, "Times-Roman", 10, "II. METHOD"),
              *body[8:12], (200, "Times-Italic", 10, "A. Spatial Cost Aggregation"), *body[12:18],
              (200, "Times-Italic", 10, "B. Temporal Refinement of the Estimates"), *body[18:24]],
             [*body[24:30], (200, "Times-Roman", 10, "III. RESULTS"), *body[30:40],
              (200, "Times-Roman", 10, "REFERENCES"), (200, "Times-Roman", 8, "[1] D. Scharstein, A taxonomy.")]]
    sections = parse_pdf(_pdf(pages, [notes, ["Competing interests: The authors", "have declared that no",
                                              "competing interests exist.", "Funding: The funder had no role",
                                              "in study design or analysis."]]))
    assert _titles(sections) == [(1, "INTRODUCTION"), (1, "METHOD"), (2, "Spatial Cost Aggregation"),
                                 (2, "Temporal Refinement of the Estimates"), (1, "RESULTS")]
    text = " ".join(p for _, s in iter_sections(sections) for p in s["paragraphs"])
    assert "Competing interests" not in text and "funder" not in text and "Copyright" not in text
    assert "Heat stress after anthesis lowers the grain yield" in text and "Scharstein" not in text


def test_two_faces_of_one_size_and_a_wrapped_heading():
    """"Results" in a sans face straight above "Physiological parameters" in a serif face of the same size and
    weight: the serif face is the lower level. A heading that runs over two lines is one heading."""
    body = [(100, "Times-Roman", 10, t) for t in _body(36, 80)]
    pages = [[(100, "Helvetica-Bold", 16, "Heat Stress in Wheat"), (100, "Times-Roman", 10, "A. Author, B. Author"),
              (100, "Helvetica-Bold", 12, "Introduction"), *body[:7], (100, "Helvetica-Bold", 12, "Results"),
              (100, "Times-Bold", 12, "Physiological parameters"), *body[7:14],
              (100, "Times-Bold", 12, "Yield related traits"), *body[14:20],
              (100, "Helvetica-Bold", 12, "Discussion of the Physiological and Metabolic"),
              (100, "Helvetica-Bold", 12, "Responses to Heat"), *body[20:36]]]
    sections = parse_pdf(_pdf(pages))
    assert _titles(sections) == [(1, "Introduction"), (1, "Results"), (2, "Physiological parameters"),
                                 (2, "Yield related traits"),
                                 (1, "Discussion of the Physiological and Metabolic Responses to Heat")]
    assert all("Responses to Heat" not in p for _, s in iter_sections(sections) for p in s["paragraphs"])


def _centred(font: str, size: float, text: str, x0: float, x1: float) -> tuple[float, str, float, str]:
    """A line centred between x0 and x1, as Word and IEEE set section headings."""
    from reportlab.pdfbase.pdfmetrics import stringWidth

    return (x0 + (x1 - x0 - stringWidth(text, font, size)) / 2, font, size, text)


def _chunk(n: int, font: str = "Times-Roman") -> list[tuple[float, str, float, str]]:
    """n body lines at the left margin, the last one ending a sentence (a heading may follow)."""
    return [(72, font, 10, t) for t in _body(n, 90)]


def _paragraphs(sections: list[dict]) -> str:
    return " ".join(p for _, s in iter_sections(sections) for p in s["paragraphs"])


def test_numbered_headings_in_plain_capitals_and_italics():
    """IEEE's Word template: roman sections in the body face's capitals, centred (one nearly as wide as the
    column, wrapped), "4.1."-numbered italic subsections after section III (the paper has no IV), an italic
    lettered subsection as wide as the column. A numbered list in italics under its "…:" line and a lone italic line
    stay text: no sequence of such lines backs them."""
    from reportlab.pdfbase.pdfmetrics import stringWidth

    right = 72 + max(stringWidth(t, "Times-Roman", 10) for _, _, _, t in _chunk(8))
    def head(*lines: tuple[float, str, float, str]) -> list[tuple[float, str, float, str]]:
        return [(72, "Times-Roman", 10, ""), *lines, (72, "Times-Roman", 10, "")]  # a line's space above, below

    pages = [[(72, "Times-Bold", 18, "Requirement Prioritization"), (72, "Times-Roman", 10, "A. Author, B. Author"),
              *head(_centred("Times-Roman", 10, "I. INTRODUCTION", 72, right)), *_chunk(8),
              *head(_centred("Times-Roman", 10, "II. RELATED AREA AND LITERATURE STUDY OF MARKET PRIORITIZATION",
                             72, right)),
              *_chunk(6), (72, "Times-Roman", 10, "The model rests on these assumptions:"),
              (72, "Times-Italic", 10, "1. Abstract requirements"), (72, "Times-Italic", 10, "2. No dependencies"),
              *_chunk(4), (72, "Times-Italic", 10, "5. Each step is checked by the team"), *_chunk(4),
              *head(_centred("Times-Roman", 10, "III. MDRPM (MARKET DRIVEN REQUIREMENT PRIORITIZATION", 72, right),
                    _centred("Times-Roman", 10, "MODEL)", 72, right)), *_chunk(4)],
             [*head((72, "Times-Italic", 10, "4.1. Step 1 (Requirement Initialization)")), *_chunk(6),
              *head((72, "Times-Italic", 10, "4.2. Step 2 (Modified AHP Engine)")), *_chunk(6),
              *head(_centred("Times-Roman", 10, "V. VALIDATION", 72, right)), *_chunk(4),
              *head((72, "Times-Italic", 10, "A. Storage of Scalable Video Using Constant Time Length Data Placement")),
              *_chunk(6), *head((72, "Times-Italic", 10, "B. Experimental Results")), *_chunk(12)]]
    sections = parse_pdf(_pdf(pages))
    assert _titles(sections) == [(1, "INTRODUCTION"), (1, "RELATED AREA AND LITERATURE STUDY OF MARKET PRIORITIZATION"),
                                 (1, "MDRPM (MARKET DRIVEN REQUIREMENT PRIORITIZATION MODEL)"),
                                 (2, "Step 1 (Requirement Initialization)"), (2, "Step 2 (Modified AHP Engine)"),
                                 (1, "VALIDATION"),
                                 (2, "Storage of Scalable Video Using Constant Time Length Data Placement"),
                                 (2, "Experimental Results")]
    text = _paragraphs(sections)
    assert "1. Abstract requirements" in text and "2. No dependencies" in text
    assert "5. Each step is checked by the team" in text


def test_references_at_the_top_of_a_page_above_spaced_entries():
    """"References" set bold at the top of the last page above an entry set with wide justified gaps (read as
    cells): it is the reference list's heading, not a table's header, and the entries are no body text."""
    entries = [[(72, "Times-Bold", 11, "References")]]
    entries.append([(76, "Times-Roman", 8, "[1]"), (100, "Times-Roman", 8, "LuaJIT roadmap 2008 -"),
                    (200, "Times-Roman", 8, "http://lua-users.org/lists/lua-l/2008-"),
                    (380, "Times-Roman", 8, "02/msg00051.html.")])
    for n in range(2, 9):
        entries.append([(76, "Times-Roman", 8, f"[{n}] A. Gal and M. Franz. Incremental dynamic code generation "
                                               f"with trace trees {n}. Technical report, 2006.")])
    buf = io.BytesIO()
    c = canvas.Canvas(buf, pagesize=letter)
    y = 740.0
    for x, font, size, text in [(72, "Times-Bold", 16, "Trace Trees"), (72, "Times-Roman", 10, "A. Author"),
                                (72, "Times-Bold", 11, "1. Introduction"), *_chunk(14),
                                (72, "Times-Bold", 11, "2. Conclusions"), *_chunk(16)]:
        c.setFont(font, size)
        c.drawString(x, y, text)
        y -= size * 1.25
    c.showPage()
    y = 740.0
    for row in entries:
        for x, font, size, text in row:
            c.setFont(font, size)
            c.drawString(x, y, text)
        y -= 12
    c.showPage()
    c.save()
    sections = parse_pdf(buf.getvalue())
    assert _titles(sections) == [(1, "Introduction"), (1, "Conclusions")]
    assert "Gal and M. Franz" not in _paragraphs(sections) and "LuaJIT" not in _paragraphs(sections)


def test_appendix_line_above_its_title():
    """"APPENDIX" centred on its own line above the appendix's title: one heading, both lines in its title."""
    from reportlab.pdfbase.pdfmetrics import stringWidth

    right = 72 + max(stringWidth(t, "Times-Roman", 10) for _, _, _, t in _chunk(8))
    pages = [[(72, "Times-Bold", 18, "Scalable Video"), (72, "Times-Roman", 10, "A. Author"),
              _centred("Times-Roman", 10, "I. INTRODUCTION", 72, right), *_chunk(10),
              _centred("Times-Roman", 10, "II. CONCLUSIONS", 72, right), *_chunk(10)],
             [*_chunk(6), _centred("Times-Roman", 10, "APPENDIX", 72, right),
              _centred("Times-Roman", 10, "MEAN ADMISSION DELAY", 72, right), *_chunk(10)]]
    sections = parse_pdf(_pdf(pages))
    assert _titles(sections) == [(1, "INTRODUCTION"), (1, "CONCLUSIONS"), (1, "APPENDIX: MEAN ADMISSION DELAY")]
    assert not _paragraphs(sections).startswith("MEAN ADMISSION DELAY")
    assert "MEAN ADMISSION DELAY" not in _paragraphs(sections)


def test_bold_labels_in_separate_cells_are_no_heading():
    """A bold line whose words stand apart in two cells (the labels of two matrices in a figure, a table's
    header cells) is no heading; a bold heading of one run of words is."""
    buf = io.BytesIO()
    c = canvas.Canvas(buf, pagesize=letter)
    y = 740.0
    for x, font, size, text in [(72, "Times-Bold", 16, "Prioritization"), (72, "Times-Roman", 10, "A. Author"),
                                (72, "Times-Bold", 10, "Introduction"), *_chunk(12), (0, "", 0, "labels"),
                                *_chunk(8), (72, "Times-Bold", 10, "Method"), *_chunk(10)]:
        if text == "labels":
            y -= 8
            c.setFont("Times-Bold", 10)
            c.drawString(150, y, "Matrix C")
            c.drawString(300, y, "Matrix D")
            y -= 20
            continue
        y -= 8 if font == "Times-Bold" else 0  # a heading stands apart
        c.setFont(font, size)
        c.drawString(x, y, text)
        y -= size * 1.25
    c.showPage()
    c.save()
    sections = parse_pdf(buf.getvalue())
    assert _titles(sections) == [(1, "Introduction"), (1, "Method")]


def test_appendix_subsections_numbered_under_their_letter():
    """Appendix subsections "A.1", "A.2", "B.1" set in italics at body size after the references: they continue
    one another under their letters (this once raised TypeError: a letter number of three characters)."""
    def head(text: str) -> list[tuple[float, str, float, str]]:
        return [(72, "Times-Roman", 10, ""), (72, "Times-Italic", 10, text), (72, "Times-Roman", 10, "")]

    pages = [[(72, "Times-Bold", 18, "Dropout Networks"), (72, "Times-Roman", 10, "A. Author"),
              (72, "Times-Bold", 12, "1 Introduction"), *_chunk(10), (72, "Times-Bold", 12, "2 Conclusion"),
              *_chunk(10), (72, "Times-Bold", 12, "References"),
              (72, "Times-Roman", 8, "A. Krizhevsky. Learning multiple layers of features, 2009.")],
             [(72, "Times-Bold", 12, "Appendix A. A Practical Guide for Training"), *head("A.1 Network Size"),
              *_chunk(6), *head("A.2 Learning Rate and Momentum"), *_chunk(6),
              (72, "Times-Bold", 12, "Appendix B. Detailed Description of Experiments"), *head("B.1 MNIST"),
              *_chunk(6), *head("B.2 SVHN"), *_chunk(6)]]
    assert _titles(parse_pdf(_pdf(pages))) == [
        (1, "Introduction"), (1, "Conclusion"), (1, "Appendix A. A Practical Guide for Training"),
        (2, "Network Size"), (2, "Learning Rate and Momentum"), (1, "Appendix B. Detailed Description of Experiments"),
        (2, "MNIST"), (2, "SVHN")]


def test_contents_page_without_page_numbers():
    """A report's contents page lists its numbered sections in bold, without page numbers; the sections follow
    in capitals at body size. The contents entries are no headings, so the numbering starts again at the real
    "1 INTRODUCTION" and every section and subsection is read."""
    contents = ["1 Introduction", "2 Tokenizer & Model", "3 Pre-training", "4 Evaluation", "5 Conclusion"]

    def head(size: float, text: str) -> list[tuple[float, str, float, str]]:
        return [(72, "Times-Roman", 10, ""), (72, "Times-Roman", size, text), (72, "Times-Roman", 10, "")]

    pages = [[(72, "Times-Bold", 18, "A Technical Report"), (72, "Times-Roman", 10, "A. Author"),
              (72, "Times-Bold", 12, "Contents"), *[(72, "Times-Bold", 10, t) for t in contents]],
             [*head(12, "1 INTRODUCTION"), *_chunk(8), *head(12, "2 TOKENIZER & MODEL"), *_chunk(6),
              *head(10, "2.1 TOKENIZER"), *_chunk(6), *head(10, "2.2 MODEL ARCHITECTURE"), *_chunk(6)],
             [*head(12, "3 PRE-TRAINING"), *_chunk(8), *head(12, "4 EVALUATION"), *_chunk(8),
              *head(12, "5 CONCLUSION"), *_chunk(8)]]
    assert _titles(parse_pdf(_pdf(pages))) == [
        (1, "INTRODUCTION"), (1, "TOKENIZER & MODEL"), (2, "TOKENIZER"), (2, "MODEL ARCHITECTURE"),
        (1, "PRE-TRAINING"), (1, "EVALUATION"), (1, "CONCLUSION")]


def _canvas_pdf(*pages: list[tuple[float, float, str, float, str]]) -> bytes:
    """Pages of (x, y, font, size, text) items placed where a layout puts them (y from the page's top)."""
    buf = io.BytesIO()
    c = canvas.Canvas(buf, pagesize=letter)
    for items in pages:
        for x, y, font, size, text in items:
            c.setFont(font, size)
            c.drawString(x, 792 - y, text)
        c.showPage()
    c.save()
    return buf.getvalue()


def _column(x: float, y: float, lines: list[tuple[str, float, str]], lead: float = 12.5) -> list[tuple]:
    """(font, size, text) lines set top down from (x, y); an empty text leaves a line's space."""
    out = []
    for font, size, text in lines:
        if text:
            out.append((x, y, font, size, text))
        y += lead
    return out


def _text(n: int, width: int = 45) -> list[tuple[str, float, str]]:
    return [("Times-Roman", 10, t) for t in _body(n, width)]


def _wide(n: int) -> list[tuple[str, float, str]]:
    return [("Times-Roman", 10, t) for t in _body(n, 80)]


def test_dates_addresses_and_overlaid_text_are_no_headings():
    """A journal's margin dates ("3 November 2014"), an author's street number ("10 Kings College Road") and a
    second text layer pasted over a body line (an edit set in another face) are no headings; the numbered
    sections after them keep their numbering, and a heading with "vs." in it stays one."""
    items = [(72, 60, "Times-Bold", 18, "Quantum Computation under Micromotion"),
             (72, 84, "Times-Roman", 10, "A. Author, 10 Kings College Road, Toronto"),
             (20, 200, "Helvetica", 9, "Received"), (20, 212, "Helvetica", 9, "3 November 2014"),
             (20, 230, "Helvetica", 9, "Accepted"), (20, 242, "Helvetica", 9, "23 January 2015"),
             *_column(150, 120, [("Times-Bold", 12, "1 Introduction"), *_wide(8), ("Times-Roman", 10, ""),
                                 ("Times-Bold", 12, "2 Monte-Carlo Averaging vs. Weight Scaling"), *_wide(6),
                                 ("Times-Roman", 10, ""), ("Times-Bold", 12, "3 Results"), *_wide(8)]),
             (150, 119 + 12.5 * 20, "Helvetica", 10, "How many cells should be counted: The task force")]
    items.insert(0, (150, 122 + 12.5 * 20, "Helvetica", 10, "Method of assessment: Visual methods may be used"))
    assert _titles(parse_pdf(_canvas_pdf(items))) == [
        (1, "Introduction"), (1, "Monte-Carlo Averaging vs. Weight Scaling"), (1, "Results")]


def test_small_bold_sans_subheadings_and_a_box_title():
    """Annals' minor headings: bold sans at 8.5 pt over a 10.5 pt serif body, standing apart, one wrapped over two
    lines; the "Key Summary Points" box title over its small sans text and a small bold label of the body's
    family ("Gold Answer: 5:02") are no headings."""
    body = lambda n: [("Times-Roman", 10.5, t) for t in _body(n, 45)]  # noqa: E731
    left = _column(54, 90, [*body(6), ("Times-Roman", 10.5, ""), ("Helvetica-Bold", 11, "METHODS"), *body(10),
                            ("Times-Roman", 10.5, ""),
                            ("Helvetica-Bold", 8.5, "Surveillance Systems Collecting Clinical Reports"), *body(8),
                            ("Times-Roman", 10.5, ""),
                            ("Helvetica-Bold", 8.5, "Surveillance Systems Collecting Zoonotic and Animal"),
                            ("Helvetica-Bold", 8.5, "Disease Data"), *body(8), ("Times-Roman", 10.5, ""),
                            ("Times-Bold", 9, "Gold Answer: 5:02"), *body(4)], lead=12)
    right = _column(318, 90, [*body(6), ("Times-Roman", 10.5, ""), ("Helvetica-Bold", 9, "Key Summary Points"),
                              *[("Helvetica", 9, t) for t in _body(8, 50)], ("Times-Roman", 10.5, ""),
                              ("Helvetica-Bold", 11, "DISCUSSION"), *body(14)], lead=12)
    first = [(54, 50, "Times-Bold", 18, "Surveillance for Bioterrorism"), *_column(54, 90, body(40))]
    titles = _titles(parse_pdf(_canvas_pdf(first, [*left, *right])))
    assert titles == [(1, "METHODS"), (2, "Surveillance Systems Collecting Clinical Reports"),
                      (2, "Surveillance Systems Collecting Zoonotic and Animal Disease Data"), (1, "DISCUSSION")]


def test_roman_dotted_subsections_and_a_second_author_block():
    """A Word author's "II.I", "II.I.I", "II.I.II" italic subsections of section II form a sequence; a second
    author's block beside the first (read after the left column's text) is front matter."""
    body = lambda n: [("Times-Roman", 10, t) for t in _body(n, 45)]  # noqa: E731
    head = lambda font, text: [("Times-Roman", 10, ""), (font, 10, text), ("Times-Roman", 10, "")]  # noqa: E731
    left = _column(72, 150, [("Times-Roman", 10, "I. INTRODUCTION"), *body(12), *head("Times-Roman", "II. METHOD"),
                             *body(6), *head("Times-Italic", "II.I Validation results"), *body(6),
                             *head("Times-Italic", "II.I.I Practicality and applicability"), *body(4),
                             *head("Times-Italic", "II.I.II Model Implementation"), *body(6)])
    right = _column(320, 150, [*body(14), *head("Times-Roman", "III. RESULTS"), *body(8)])
    items = [(72, 60, "Times-Bold", 16, "Market Driven Prioritization"),
             (90, 90, "Times-Bold", 12, "Fuchun Peng"), (72, 104, "Times-Roman", 12, "Department of Computer Science"),
             (340, 90, "Times-Bold", 12, "Andrew McCallum"), (320, 104, "Times-Roman", 12, "University of Amherst"),
             *left, *right]
    assert _titles(parse_pdf(_canvas_pdf(items))) == [
        (1, "INTRODUCTION"), (1, "METHOD"), (2, "Validation results"), (3, "Practicality and applicability"),
        (3, "Model Implementation"), (1, "RESULTS")]


def test_a_heading_on_the_baseline_of_text_wrapped_around_a_figure():
    """Text wrapped around a figure ends short on the left; the next subsection's bold heading starts on the same
    baseline at the right. They are two lines, so the heading is read; plain words apart on a row stay one line."""
    from sources.pdf_lines import read_lines

    items = [*_column(90, 100, [("Times-Roman", 10.9, t) for t in _body(12, 90)]),
             (90, 262.5, "Times-Roman", 10.9, "with baseline covariates and indicators for medi-"),
             (316, 262.5, "Times-Bold", 10.9, "3.1 The MGP-RNN Classifier"),
             (90, 275, "Times-Roman", 10.9, "cations and the values of the"), (316, 275, "Times-Roman", 10.9,
                                                                            "labs drawn at the same time")]
    texts = [ln.text for ln in read_lines(_canvas_pdf(items))]
    assert "with baseline covariates and indicators for medi-" in texts and "3.1 The MGP-RNN Classifier" in texts
    assert "cations and the values of the labs drawn at the same time" in texts


def test_numbered_typewriter_headings():
    """JSS names a section after a function: "3.1. readData", the number bold, the name in typewriter set larger
    than the body. It is a heading though lower case and in a code face; code lines at body size are not."""
    buf = io.BytesIO()
    c = canvas.Canvas(buf, pagesize=letter)
    y = 740.0
    rows = [[(72, "Times-Bold", 16, "TIMP: An R Package")], [(72, "Times-Roman", 10, "A. Author")],
            [(72, "Times-Bold", 12, "1. Introduction")], *[[(72, "Times-Roman", 10, t)] for t in _body(10, 90)],
            [(72, "Times-Bold", 12, "2. The package")], *[[(72, "Times-Roman", 10, t)] for t in _body(6, 90)],
            [(72, "Courier", 10, "fit <- fitModel(data, model)")],
            *[[(72, "Times-Roman", 10, t)] for t in _body(4, 90)],
            [(72, "Times-Bold", 12, "2.1."), (100, "Courier", 12, "readData")],
            *[[(72, "Times-Roman", 10, t)] for t in _body(6, 90)],
            [(72, "Times-Bold", 12, "2.2."), (100, "Courier", 12, "initModel")],
            *[[(72, "Times-Roman", 10, t)] for t in _body(6, 90)]]
    for row in rows:
        for x, font, size, text in row:
            c.setFont(font, size)
            c.drawString(x, y, text)
        y -= 12.5 if row[0][2] <= 10 else 20
    c.showPage()
    c.save()
    assert _titles(parse_pdf(buf.getvalue())) == [(1, "Introduction"), (1, "The package"), (2, "readData"),
                                                  (2, "initModel")]


def test_a_heading_straight_above_one_set_alike_holds_it():
    """CHI's extended abstracts set "Introduction" straight above "HCI and smartphones" in the same bold type:
    the first holds the second (an empty section would be dropped); a heading after body text is a sibling."""
    text = lambda n: [(72, "Helvetica", 8.5, t) for t in _body(n, 90)]  # noqa: E731
    pages = [[(72, "Helvetica-Bold", 18, "Did You Notice?"), (72, "Helvetica", 8.5, "A. Author"),
              (72, "Helvetica-Bold", 9.5, "Abstract"), *text(12)],
             [(72, "Helvetica-Bold", 9.5, "Introduction"), (72, "Helvetica-Bold", 9.5, "HCI and smartphones"),
              *text(10), (72, "Helvetica", 8.5, ""), (72, "Helvetica-Bold", 9.5, "Physiological parameters"),
              *text(8), (72, "Helvetica", 8.5, ""), (72, "Helvetica-Bold", 9.5, "Discussion"), *text(8)]]
    assert _titles(parse_pdf(_pdf(pages))) == [(1, "Introduction"), (2, "HCI and smartphones"),
                                               (1, "Physiological parameters"), (1, "Discussion")]


def _coded_font(alias: str, ttf: str, name: str) -> str:
    """Registers reportlab's Vera face `ttf` under the PDF font name `name`, as a typesetter codes its fonts
    (Emerald's AdvPS405B6 body, AdvPS405B8 bold, AdvPS405B7 italic: names that say no weight or style)."""
    import os

    import reportlab
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont

    font = TTFont(alias, os.path.join(os.path.dirname(reportlab.__file__), "fonts", ttf))
    font.face.name = name.encode()
    pdfmetrics.registerFont(font)
    return alias


def test_coded_font_names_tell_faces_apart():
    """Emerald's fonts are coded (AdvPS405B6 body, AdvPS405B8 bold sections, AdvPS405B7 italic subsections, no
    flags or weights in their descriptors): the digits that end the name tell the faces apart (only a name with a
    single number, CMR10 or SFRM1000, carries an optical size to leave out). A heading straight above one in
    the other face holds it."""
    body = _coded_font("EmeraldBody", "Vera.ttf", "AdvPS405B6")
    bold = _coded_font("EmeraldBold", "VeraBd.ttf", "AdvPS405B8")
    italic = _coded_font("EmeraldItalic", "VeraIt.ttf", "AdvPS405B7")
    text = lambda n: [(72, body, 10, t) for t in _body(n, 80)]  # noqa: E731
    pages = [[(72, bold, 20, "Shift work interventions"), (72, body, 10, "A. Author and B. Author"),
              *text(14), (72, body, 10, ""), (72, bold, 10, "Method"), (72, italic, 10, "Participants"), *text(10),
              (72, body, 10, ""), (72, italic, 10, "Interventions"), *text(8)],
             [*text(6), (72, body, 10, ""), (72, bold, 10, "Results"), *text(12), (72, body, 10, ""),
              (72, bold, 10, "Discussion"), *text(10)]]
    assert _titles(parse_pdf(_pdf(pages))) == [(1, "Method"), (2, "Participants"), (2, "Interventions"),
                                               (1, "Results"), (1, "Discussion")]


def test_running_heads_with_the_page_number_on_a_short_paper():
    """A three-page llncs paper: the even page's head holds the page number and the authors, the odd page's the
    title and the number; each comes once, too few times for the repeated-line rule, and set larger than the
    body with a leading number it read as a section ("56 Oliver Kopp …") that broke the numbering."""
    text = lambda n: [(120, "Times-Roman", 9.5, t) for t in _body(n, 80)]  # noqa: E731
    pages = [[(120, "Times-Bold", 14, "Generalized Markdown Decision Records"), (120, "Times-Roman", 10, "O. Kopp"),
              *text(10), (120, "Times-Bold", 11, "1 Introduction"), *text(20)],
             [(120, "Times-Roman", 10, "56 Oliver Kopp and Anita Armbruster"), *text(8),
              (120, "Times-Bold", 11, "2 GADR"), *text(20)],
             [(120, "Times-Roman", 10, "Generalized Markdown Decision Records 57"), *text(8),
              (120, "Times-Bold", 11, "3 Conclusion and Outlook"), *text(8), (120, "Times-Bold", 11, "References"),
              (120, "Times-Roman", 8, "1. Kopp, O.: Markdown decision records (2018)")]]
    sections = parse_pdf(_pdf(pages))
    assert _titles(sections) == [(1, "Introduction"), (1, "GADR"), (1, "Conclusion and Outlook")]
    text = " ".join(p for _, s in iter_sections(sections) for p in s["paragraphs"])
    assert "Armbruster" not in text and "Records 57" not in text


def test_theorem_labels_in_lecture_notes_are_no_headings():
    """Lecture notes set each theorem, example and exercise under a bold label with its number and a name in
    brackets ("Satz 1.1 (Heine-Borel)", "Beispiel 4 (Produkttopologien)"): a block's label, not a section."""
    text = lambda n: [(72, "Times-Roman", 10, t) for t in _body(n, 90)]  # noqa: E731
    pages = [[(72, "Times-Bold", 20, "Geometrie und Topologie"), (72, "Times-Roman", 10, "M. Thoma"), *text(4),
              (72, "Times-Bold", 14, "1 Topologische Grundbegriffe"), *text(6),
              (72, "Times-Bold", 12, "1.1 Topologische Räume"), *text(5), (72, "Times-Roman", 10, ""),
              (72, "Times-Bold", 10, "Beispiel 4 (Produkttopologien)"), *text(4), (72, "Times-Roman", 10, ""),
              (72, "Times-Bold", 10, "Satz 1.1 (Heine-Borel)"), *text(4)],
             [(72, "Times-Bold", 12, "1.2 Metrische Räume"), *text(6), (72, "Times-Roman", 10, ""),
              (72, "Times-Bold", 10, "Bemerkung 5 (Eigenschaften von Hausdorff-Räumen)"), *text(5)]]
    assert _titles(parse_pdf(_pdf(pages))) == [(1, "Topologische Grundbegriffe"), (2, "Topologische Räume"),
                                               (2, "Metrische Räume")]


def test_a_heading_across_text_that_runs_beside_a_figure():
    """A single-column page whose text runs beside a figure (the figure's labels in a column of their own at the
    right) reads as two columns; a heading set across both, and a line of text across them, are read in their
    place between the rows above and below (they were once dropped as rows crossing the gutter)."""
    labels = ["0.9", "Accuracy", "0.8", "Monte-Carlo", "0.7", "Weight scaling", "0.6", "Samples (k)"]
    left = [("Times-Roman", 10, t) for t in _body(12, 45)]
    items = [(72, 60, "Times-Bold", 16, "Dropout Networks"), (72, 80, "Times-Roman", 10, "A. Author"),
             (72, 110, "Times-Bold", 12, "1 Introduction"),
             *_column(72, 130, [("Times-Roman", 10, t) for t in _body(4, 90)]),
             *_column(72, 190, left[:6]), *_column(360, 190, [("Helvetica", 7, t) for t in labels[:6]]),
             (72, 270, "Times-Roman", 10, "where the figure ends the text runs on across the whole width of the "
                                         "page again."),
             *_column(72, 290, left[6:]), *_column(360, 290, [("Helvetica", 7, t) for t in labels]),
             (72, 400, "Times-Bold", 12, "2 Monte-Carlo Model Averaging versus Weight Scaling"),
             *_column(72, 420, left), *_column(360, 420, [("Helvetica", 7, t) for t in labels])]
    sections = parse_pdf(_canvas_pdf(items))
    assert _titles(sections) == [(1, "Introduction"), (1, "Monte-Carlo Model Averaging versus Weight Scaling")]
    intro = " ".join(sections[0]["paragraphs"])
    assert "the text runs on across the whole width of the page again" in intro
    assert "Weight scaling" not in _paragraphs(sections)


def test_references_set_small_above_smaller_entries_end_the_body():
    """ASBMB's layout: "REFERENCES" in 7.5 pt capitals of the body face, below the 9 pt body, above 7 pt entries
    at the end of the paper; the small-type rule took it for a footnote line, so the entries that run on at the
    top of the next page (no footnote there) ended in the last section's paragraphs."""
    text = lambda n: [(72, "Helvetica", 9, t) for t in _body(n, 90)]  # noqa: E731
    refs = [(80, "Helvetica", 7, f"{n}. Smith, J. and Lee, K. (2008) Proteins of the cerebrospinal fluid in "
                                 f"disease. J. Proteome Res. {n}, 100-{n}") for n in range(1, 41)]
    pages = [[(72, "Helvetica-Bold", 11, "1 Introduction"), *text(20), (72, "Helvetica-Bold", 11, "2 Results"),
              *text(20)],
             [*text(20), (72, "Helvetica-Bold", 11, "3 Discussion"), *text(16), (250, "Helvetica", 7.5, "REFERENCES"),
              *refs[:12]], refs[12:]]  # the list runs on at the top of the next page
    sections = parse_pdf(_pdf(pages))
    assert _titles(sections) == [(1, "Introduction"), (1, "Results"), (1, "Discussion")]
    body = " ".join(p for _, s in iter_sections(sections) for p in s["paragraphs"])
    assert "Smith" not in body and "cerebrospinal" not in body
    assert "Heat stress" in sections[-1]["paragraphs"][0]


def test_roman_numbered_table_label_is_a_caption_not_a_heading():
    """"TABLE II" on its own line above the caption (ASBMB, IEEE): a table's label like "Table 2", not a heading
    in capitals, and its caption below stays out of the paragraphs."""
    text = lambda n: [(72, "Times-Roman", 10, t) for t in _body(n, 90)]  # noqa: E731
    pages = [[(72, "Times-Bold", 11, "1 Introduction"), *text(20), (72, "Times-Bold", 11, "2 Methods"), *text(12),
              (280, "Times-Roman", 10, "TABLE II"),
              (150, "Times-Roman", 10, "Numbers of peptides identified with different methods"),
              *text(10)]]
    sections = parse_pdf(_pdf(pages))
    assert _titles(sections) == [(1, "Introduction"), (1, "Methods")]
    body = " ".join(p for _, s in iter_sections(sections) for p in s["paragraphs"])
    assert "TABLE II" not in body and "Numbers of peptides" not in body


def test_reference_list_without_a_heading_ends_the_body():
    """AASTeX's draft: the entries ("Harris, A. W. & …") follow the acknowledgements in smaller type with no
    "References" line above them, and the figures come after them; the entries are no body text and a figure's
    legend set bold after them is no section."""
    text = lambda n: [(72, "Times-Roman", 10, t) for t in _body(n, 90)]  # noqa: E731
    names = ["Harris", "Boslough", "Mainzer", "Greenstreet", "Rabinowitz", "Tricarico", "Valdes", "Depoy"]
    refs = [(72, "Times-Roman", 9, f"{names[n % 8]}, {'ABCDEFGH'[n % 8]}. W. 20{10 + n % 8}, in Asteroids IV, "
                                   f"eds. P. Michel et al. (Univ. Arizona Press), ApJ, {700 + n}, {n}")
            for n in range(24)]
    pages = [[(72, "Times-Bold", 11, "1. INTRODUCTION"), *text(25), (72, "Times-Bold", 11, "2. DATA"), *text(20)],
             [*text(20), (72, "Times-Bold", 11, "3. CONCLUSIONS"), *text(12), *refs[:14]],
             [*refs[14:], (200, "Times-Bold", 11, "Synthetic asteroid magnitudes"),
              (72, "Times-Roman", 9, "Figure 1. Magnitudes of the synthetic objects planted in each night's images.")]]
    sections = parse_pdf(_pdf(pages))
    assert _titles(sections) == [(1, "INTRODUCTION"), (1, "DATA"), (1, "CONCLUSIONS")]
    body = " ".join(p for _, s in iter_sections(sections) for p in s["paragraphs"])
    assert "ApJ" not in body and "Heat stress" in sections[-1]["paragraphs"][0]


def test_a_heading_style_set_below_the_body_size_is_learned():
    """ASBMB's layout: sections in 7.5 pt capitals of the body face under a 9 pt body, subsections in 8.5 pt
    italics, both centred, and the methods set in 8 pt. No fixed rule reads type smaller than the body as a
    heading (the small-type rule took the lines for figure text and the methods that reach a page's foot for a
    footnote); the paper shows the style: short lines standing apart, each over a paragraph, three times and
    more. The section whose heading stands straight above a subsection's ranks above it, though smaller."""
    text = lambda n, size=9: [(72, "Helvetica", size, t) for t in _body(n, 90 * 9 // size)]  # noqa: E731
    gap = (72, "Helvetica", 9, "")
    head = lambda t: [gap, _centred("Helvetica", 7.5, t, 72, 540), (72, "Helvetica", 4, "")]  # noqa: E731
    sub = lambda t: [gap, _centred("Helvetica-Oblique", 8.5, t, 72, 540), (72, "Helvetica", 4, "")]  # noqa: E731
    pages = [[(72, "Helvetica-Bold", 18, "Brain Proteins in the Cerebrospinal Fluid"), *text(18),
              *head("EXPERIMENTAL PROCEDURES")[:2], *sub("Sample Collection")[1:], *text(12, 8),
              *sub("Proteomics Platforms"), *text(24, 8)],
             [*text(6, 8), *head("RESULTS"), *text(20), *sub("Concordance across Laboratories"), *text(10),
              *head("DISCUSSION"), *text(12)]]
    sections = parse_pdf(_pdf(pages))
    assert _titles(sections) == [(1, "EXPERIMENTAL PROCEDURES"), (2, "Sample Collection"),
                                 (2, "Proteomics Platforms"), (1, "RESULTS"), (2, "Concordance across Laboratories"),
                                 (1, "DISCUSSION")]
    platforms = next(s for _, s in iter_sections(sections) if s["title"] == "Proteomics Platforms")
    assert len(" ".join(platforms["paragraphs"]).split()) > 300  # its 8 pt text down to the page's foot is kept


def test_a_bold_italic_subsection_face_at_body_size_is_learned():
    """Oxford's NAR: subsections at body size in a bold italic whose coded name (AdvP6960) says no weight or
    style, most of them nearly as wide as the column (the rule for another face asked for a line shorter than
    85 % of it), two wrapped; a gap above and below and a paragraph under each, in a face no body line uses,
    mark them."""
    body = _coded_font("NarBody", "Vera.ttf", "AdvMT_RM")
    sub = _coded_font("NarSub", "VeraBI.ttf", "AdvP6960")
    text = lambda n: [(72, body, 10, t) for t in _body(n, 70)]  # noqa: E731
    gap = (72, body, 10, "")
    pages = [[(72, "Times-Bold", 18, "Alignment with Local Structure"), *text(8), gap,
              (72, "Times-Bold", 10, "MATERIALS AND METHODS"), gap,
              (72, sub, 10, "Training and testing datasets of the domain pairs compared"), gap, *text(10), gap,
              (72, sub, 10, "Performance assessment of the multiple sequence alignment"), (72, sub, 10, "programs"),
              gap, *text(12)],
             [gap, (72, "Times-Bold", 10, "RESULTS"), gap,
              (72, sub, 10, "Complex models with local structural information improve"),
              (72, sub, 10, "the alignments"), gap, *text(10), gap,
              (72, sub, 10, "Pairwise comparisons of the multiple sequence alignment tools"), gap, *text(10)]]
    assert _titles(parse_pdf(_pdf(pages))) == [
        (1, "MATERIALS AND METHODS"), (2, "Training and testing datasets of the domain pairs compared"),
        (2, "Performance assessment of the multiple sequence alignment programs"), (1, "RESULTS"),
        (2, "Complex models with local structural information improve the alignments"),
        (2, "Pairwise comparisons of the multiple sequence alignment tools")]


def test_short_lines_of_a_list_or_a_table_teach_no_heading_style():
    """Short lines in a style of their own that are no headings: a list's items in a smaller sans (straight under
    each other, no paragraph under each) and a table's bold header cells over its rows. Neither is a heading
    style, so the numbered sections are all there is."""
    text = lambda n: [(72, "Times-Roman", 10, t) for t in _body(n, 90)]  # noqa: E731
    gap = (72, "Times-Roman", 10, "")
    items = lambda *ts: [(90, "Helvetica", 9, t) for t in ts]  # noqa: E731
    header = (72, "Helvetica-Bold", 9, "Genotype          Yield          Chlorophyll          Stability")
    rows = [(72, "Helvetica", 9, f"G{n}          {3 + n}.2          {40 + n}.1          0.{n}8") for n in range(1, 6)]
    pages = [[(72, "Times-Bold", 12, "1 Introduction"), *text(10), gap,
              *items("Heat stress lowers yield", "Membranes lose stability", "Chlorophyll declines"), gap,
              *text(8), gap, header, *rows, gap, *text(6)],
             [(72, "Times-Bold", 12, "2 Methods"), *text(10), gap,
              *items("Sampling each week", "Fluorescence at noon", "Frozen leaves"), gap, *text(8), gap, header,
              *rows, gap, *text(6), (72, "Times-Bold", 12, "3 Results"), *text(8)]]
    assert _titles(parse_pdf(_pdf(pages))) == [(1, "Introduction"), (1, "Methods"), (1, "Results")]


def test_a_heading_with_bold_italic_words_and_one_in_centred_capitals_over_three_lines():
    """Wiley's headings are a bold sans ("AdvHelv-b") with a species name in its bold italic ("AdvHelv-bi", bold
    though its name says only "-b…"): the line is bold throughout and wraps onto a second line. JACoW's sections
    are centred bold capitals larger than the body, one wrapped over three lines whose first ends on "AND"."""
    from reportlab.pdfbase.pdfmetrics import stringWidth

    bold = _coded_font("WileyBold", "VeraBd.ttf", "AdvHelv-b")
    italic = _coded_font("WileyBoldItalic", "VeraBI.ttf", "AdvHelv-bi")
    text = lambda n: [("Times-Roman", 10, t) for t in _body(n, 90)]  # noqa: E731
    right = 72 + max(stringWidth(t, "Times-Roman", 10) for _, _, t in text(12))
    runs = [(bold, "Reports of "), (italic, "Aedes albopictus"), (bold, " as a vector in the early years of")]
    x, first = 72.0, []
    for font, words in runs:
        first.append((x, 150, font, 10, words))
        x += stringWidth(words, font, 10)
    caps = ["CAVITY TRANSFER FUNCTION AND", "BACKGROUND NOISE", "MEASUREMENTS"]
    centred = [(72 + (right - 72 - stringWidth(t, "Times-Bold", 12)) / 2, 230 + 14 * n, "Times-Bold", 12, t)
               for n, t in enumerate(caps)]
    items = [(72, 50, "Times-Bold", 18, "Vector Status of a Mosquito"), (72, 80, "Times-Bold", 12, "INTRODUCTION"),
             *_column(72, 95, text(4)), *first, (72, 162, bold, 10, "the twentieth century"),
             *_column(72, 180, text(18))]
    assert _titles(parse_pdf(_canvas_pdf(items, [*_column(72, 60, text(12)), *centred,
                                                 *_column(72, 275, text(10))]))) == [
        (1, "INTRODUCTION"), (2, "Reports of Aedes albopictus as a vector in the early years of the twentieth century"),
        (1, "CAVITY TRANSFER FUNCTION AND BACKGROUND NOISE MEASUREMENTS")]
