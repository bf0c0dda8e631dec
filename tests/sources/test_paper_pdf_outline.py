"""The outline route: headings taken from the PDF's own bookmarks, each matched to its line of the text.

The PDFs are drawn with reportlab, which writes a real outline (`bookmarkPage` + `addOutlineEntry`: /Outlines
with /Dest arrays pointing at a page and a height, as hyperref writes them). The headings are set in the body's
own type (no number, no bold, no other size), so the layout rules cannot see them: the same pages without the
outline give other sections, which is what the outline route is for."""
from __future__ import annotations

import io

from reportlab.lib.pagesizes import letter
from reportlab.pdfgen import canvas

from sources.paper_pdf import read_pdf
from sources.pdf_outline import read_outline, sections_of
from transforms.outlines import iter_sections

WORDS = ("Stream flow falls in dry summers when the catchment holds less water than it did in the wet years "
         "before the drought. We measured discharge at four gauges each week and sampled the riparian "
         "vegetation along every reach. The reaches differ in slope, shade and the depth of their soils. ").split()


def _body(n: int) -> list[str]:
    """n body lines of about 90 characters, the last one ending a sentence."""
    out, line, k = [], "", 0
    while len(out) < n:
        word = WORDS[k % len(WORDS)]
        k += 1
        if len(line) + len(word) + 1 > 90:
            out.append(line)
            line = ""
        line = f"{line} {word}".strip()
    out[-1] = out[-1].rstrip(".") + "."
    return out


# (text, font, size, outline entry: (title, level) or None); "" leaves a line's space; None text: a new page
Item = tuple[str | None, str, float, tuple[str, int] | None]


def _pdf(items: list[Item], extra: list[tuple[str, int]] = ()) -> bytes:
    """The items set top down at the left margin; an item with an entry gets a bookmark at its height and an
    outline entry. `extra` adds entries (title, level) that point at the last page's top."""
    buf = io.BytesIO()
    c = canvas.Canvas(buf, pagesize=letter)
    y, page, n = 740.0, 0, 0
    for text, font, size, entry in items:
        if text is None:
            c.showPage()
            y, page = 740.0, page + 1
            continue
        if entry is not None:
            key = f"k{n}"
            n += 1
            c.bookmarkPage(key, fit="XYZ", left=0, top=y + size + 2)
            c.addOutlineEntry(entry[0], key, level=entry[1])
        if text:
            c.setFont(font, size)
            c.drawString(72, y, text)
        y -= size * 1.3
    for title, level in extra:
        c.bookmarkPage(f"x{title}", fit="XYZ", left=0, top=792)  # the last page's top: a page bookmark
        c.addOutlineEntry(title, f"x{title}", level=level)
    c.showPage()
    c.save()
    return buf.getvalue()


def _plain(text: str, entry: tuple[str, int] | None = None) -> list[Item]:
    """A heading in the body's type on a line of its own (a line's space above)."""
    return [("", "Times-Roman", 10, None), (text, "Times-Roman", 10, entry)]


def _text(n: int) -> list[Item]:
    return [(t, "Times-Roman", 10, None) for t in _body(n)]


def _paper(with_outline: bool) -> list[Item]:
    """A paper whose headings are set like its body: a title-only top entry over the others, an Abstract entry
    with a sub-entry, a number glued to its title in the outline ("2.1Gauges"), a heading upper case on the page
    and mixed case in the outline, a title wrapped over two lines, a Figure entry, a glyph the outline lost, the
    references (no entry) and an appendix after them."""
    def e(title: str, level: int) -> tuple[str, int] | None:
        return (title, level) if with_outline else None

    return [("Drought and Stream Flow", "Times-Bold", 18, e("Drought and Stream Flow", 0)),
            ("A. Author and B. Author", "Times-Roman", 10, None),
            *_plain("Abstract", e("Abstract", 1)), ("Stream flow falls in dry summers.", "Times-Roman", 10,
                                                    e("Highlights", 2)),
            *_plain("Introduction", e("1 Introduction", 1)), *_text(8),
            *_plain("Study reaches and the sampling of their", e("2 Study reaches and the sampling of their riparian "
                                                                 "vegetation", 1)),
            ("riparian vegetation", "Times-Roman", 10, None), *_text(6),
            *_plain("Gauges", e("2.1Gauges", 2)), *_text(6),
            ("Figure 1: The four gauges on the map.", "Times-Roman", 9, e("Figure 1", 2)), *_text(4),
            *_plain("Vegetation surveys", e("2.2 Vegetation surveys", 2)), *_text(6),
            (None, "", 0, None),
            *_plain("RESULTS", e("3 Results", 1)), *_text(8),
            *_plain("Response of the Z-index to drought", e("3.1 Response of the -index to drought", 2)), *_text(8),
            *_plain("Discussion", e("4 Discussion", 1)), *_text(10),
            *_plain("References"),
            ("[1] A. Author. Stream flow in dry years. Journal of Hydrology, 2001.", "Times-Roman", 8, None),
            ("[2] B. Author. Riparian vegetation. Ecology, 2004.", "Times-Roman", 8, None),
            (None, "", 0, None),
            *_plain("Appendix A: Gauge records", e("A Gauge records", 1)), *_text(6)]


def _titles(sections: list[dict]) -> list[tuple[int, str]]:
    return [(level, s["title"]) for level, s in iter_sections(sections, 1)]


def _paragraphs(sections: list[dict]) -> str:
    return " ".join(p for _, s in iter_sections(sections) for p in s["paragraphs"])


def test_outline_entries_point_at_their_pages_and_heights():
    """reportlab's bookmarks resolve to page indexes and heights; the title entry and the Figure entry, and the
    entry under Abstract, are no sections."""
    entries = read_outline(_pdf(_paper(True)))
    assert [(e.level, e.title, e.page) for e in entries][:3] == [
        (1, "Drought and Stream Flow", 0), (2, "Abstract", 0), (3, "Highlights", 0)]
    assert all(e.top is not None and 0 < e.top < 792 for e in entries)
    assert [e.title for e in sections_of(entries)] == [
        "Abstract", "1 Introduction", "2 Study reaches and the sampling of their riparian vegetation", "2.1Gauges",
        "2.2 Vegetation surveys", "3 Results", "3.1 Response of the -index to drought", "4 Discussion",
        "A Gauge records"]


def test_headings_from_the_outline_where_the_type_shows_none():
    got = read_pdf(_pdf(_paper(True)))
    assert got.route == "pdf-outline"
    assert _titles(got.sections) == [
        (1, "Introduction"), (1, "Study reaches and the sampling of their riparian vegetation"), (2, "Gauges"),
        (2, "Vegetation surveys"), (1, "RESULTS"), (2, "Response of the Z-index to drought"), (1, "Discussion"),
        (1, "Appendix A: Gauge records")]
    text = _paragraphs(got.sections)
    assert "Stream flow falls in dry summers when the catchment" in text
    assert "riparian vegetation Stream" not in text  # the wrapped title's second line is no body text
    assert "Journal of Hydrology" not in text and "Ecology, 2004" not in text  # the references end the body
    assert "Stream flow falls in dry summers." not in text  # the abstract is front matter
    assert "four gauges on the map" not in text  # a caption


def test_the_same_pages_without_an_outline_go_to_the_layout_rules():
    """Without bookmarks the headings set in body type are not seen: this is what the outline route adds."""
    got = read_pdf(_pdf(_paper(False)))
    assert got.route == "pdf-layout"
    assert _titles(got.sections) != _titles(read_pdf(_pdf(_paper(True))).sections)
    assert (2, "Gauges") not in _titles(got.sections)


def _layout_paper() -> list[Item]:
    """A paper whose numbered bold headings the layout rules read."""
    return [("Drought and Stream Flow", "Times-Bold", 18, None), ("A. Author", "Times-Roman", 10, None),
            ("", "Times-Roman", 10, None), ("1 Introduction", "Times-Bold", 11, None), *_text(10),
            ("", "Times-Roman", 10, None), ("2 Methods", "Times-Bold", 11, None), *_text(10),
            ("", "Times-Roman", 10, None), ("3 Results", "Times-Bold", 11, None), *_text(10)]


def test_an_outline_of_pages_is_not_the_papers_sections():
    """Page bookmarks ("Page 1", "Page 2", "Page 3") match no line: the layout rules read the headings, as
    they do for the same pages without an outline."""
    plain = read_pdf(_pdf(_layout_paper()))
    paged = read_pdf(_pdf(_layout_paper(), [("Page 1", 0), ("Page 2", 0), ("Page 3", 0)]))
    assert paged.route == "pdf-layout" and plain.route == "pdf-layout"
    assert _titles(paged.sections) == _titles(plain.sections) == [(1, "Introduction"), (1, "Methods"), (1, "Results")]


def test_a_title_only_or_mostly_unmatched_outline_falls_back():
    """An outline of the title alone, or one whose entries are mostly not lines of the text (another document's
    sections), leaves the headings to the layout rules."""
    items = _layout_paper()
    items[0] = ("Drought and Stream Flow", "Times-Bold", 18, ("Drought and Stream Flow", 0))
    assert read_pdf(_pdf(items)).route == "pdf-layout"
    items = _layout_paper()
    items[3] = ("1 Introduction", "Times-Bold", 11, ("1 Introduction", 0))
    other = [("Background and aims of the review", 0), ("Search strategy", 0), ("Data extraction", 0),
             ("Quality assessment", 0)]
    got = read_pdf(_pdf(items, other))
    assert got.route == "pdf-layout" and _titles(got.sections) == [(1, "Introduction"), (1, "Methods"),
                                                                   (1, "Results")]


def test_a_contents_page_listing_the_headings_is_passed_over():
    """A report's contents page lists its sections as the pages set them (no page numbers); each outline entry
    points at its section's page, so the heading is the line there, not the contents line, and the contents
    page (under its own "Contents" entry) is front matter."""
    toc = ["1 Scope of the report", "2 Gauges and records", "3 Findings"]
    items = [("Stream Flow Report", "Times-Bold", 18, None), *_plain("Contents", ("Contents", 0)),
             *[(t, "Times-Roman", 10, None) for t in toc], (None, "", 0, None),
             *_plain(toc[0], (toc[0], 0)), *_text(8), *_plain(toc[1], (toc[1], 0)), *_text(8),
             (None, "", 0, None), *_plain(toc[2], (toc[2], 0)), *_text(8)]
    got = read_pdf(_pdf(items))
    assert got.route == "pdf-outline"
    assert _titles(got.sections) == [(1, "Scope of the report"), (1, "Gauges and records"), (1, "Findings")]
    assert all(s["paragraphs"] and "Gauges and records" not in s["paragraphs"][0] for s in got.sections)


def test_an_outline_where_the_type_marks_no_heading_at_all():
    """Title and headings all in the body's type, no reference list: the layout rules find no heading (they give
    up), the outline's headings are the sections."""
    items = [("Drought and Stream Flow", "Times-Roman", 10, None), *_plain("Introduction", ("1 Introduction", 0)),
             *_text(8), *_plain("Study reaches", ("2 Study reaches", 0)), *_text(8),
             *_plain("Discussion", ("3 Discussion", 0)), *_text(8)]
    got = read_pdf(_pdf(items))
    assert got.route == "pdf-outline"
    assert _titles(got.sections) == [(1, "Introduction"), (1, "Study reaches"), (1, "Discussion")]
