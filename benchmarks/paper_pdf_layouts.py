"""Paper PDFs of real layouts (85: 17 + 18 in paper_pdf_fresh4/5.py) through the routes: heading P/R, outside share.

The PDFs are the ones public extractor and layout projects keep in their test folders (s2orc-doc2json,
CERMINE, pdffigures2, science-parse, GROBID, papermage, MinerU, scipdf_parser, docling), mostly beside an
expected extraction (CERMINE's test1.pdf is left out: it holds 4 of an article's 11 pages, its outline names
headings of all 11). They are read from the mirrors (`--mirror`, bare git dirs `<owner>+<name>/repo` as `fetch`
makes them) or from a folder holding the files under their base names (`--folder`); none is committed here.
Expected headings come from what sits beside each PDF: GROBID TEI (s2orc-doc2json's tests), CERMINE's NLM
output (its tests), docling's kept Markdown (`docling`: `#` lines; table rows and captions are outside text),
or, where there is none, the PDF's own outline (bookmarks the authors' LaTeX/InDesign/Word wrote; a number
glued to its title is spaced): its Abstract (and sub-entries), Figure/Table entries, and a sole top entry
holding the title are dropped. Where the kept extraction is known wrong (`HEADINGS`), the headings read off
the PDF replace it (3 files); `read` files (IEEE, PLOS: no extraction kept anywhere) have only those.
Where an outline lists only top-level headings (`outline-top`), only top-level headings are compared; an
outline file's headings are compared down to its outline's depth (acmart bookmarks sections and
subsections, not its numbered run-in subsubsections).
Titles are compared without their numbers (arabic, roman, letter), case and punctuation; front and back
matter names (abstract, references, acknowledgements, competing interests, author contributions, funding,
supporting information) are out of both sides. P = matched / headings found, R = matched / headings
expected (multisets).

Outside-body share: the share of body words that lie in a 6-word run also found in the text that is not
body: the reference list (TEI `listBibl`, NLM `ref-list`; for an outline/read file the PDF's text after its
last "References" line, read column by column), footnotes (TEI `note`, NLM `fn`) and table text (TEI
`figure[@type=table]`, NLM `table-wrap`, docling's tables), runs also present in the expected body text
excepted. An outline file gives only the references (up to the first heading of the outline found after
them: an appendix), so notes and tables there are not counted (the share is a lower bound).

Routes: `pdfplumber` (sources.paper_pdf) on every file; `grobid` (sources.grobid on the recorded TEI, what
GROBID 0.6.1 gave) where a TEI is kept. `TUNED` names the files the pdfplumber rules were adjusted on before
the held-out set was gathered; the 12 files after them in FILES were added with their expected side before
any route's output on them was looked at (the held-out set, with GLIA). Overall figures are given for all
files and per group (tuned, seen = that held-out set, fresh, fresh2). Last line: heading F1 of the pdfplumber
route over all files. Goal (issue 41): P and R >= 0.90 and outside share <= 2 % on held-out layouts. First
score of the held-out set (13 files,
196 headings, commit 51a0342, before any rule was changed for it): pdfplumber P 0.72 R 0.86 F1 0.78, outside
0.10 %; all 23 files P 0.81 R 0.87 F1 0.84, outside 0.14 %. The errors on the held-out files were then
looked at and the rules changed (files tagged `seen`; the rules stay generic: no file's name or text in
them): held-out P 0.96 R 0.98 F1 0.97, outside 0.12 %; all files P 0.97 R 0.97 F1 0.97, outside 0.15 %
(without the outline-depth limit, added after the first score: held-out P 0.90 R 0.98 F1 0.94; with it, the
first score would have been P 0.77 R 0.86 F1 0.81). There is no
unseen file left; a next held-out set has to be gathered anew.

FRESH set (second held-out round, `FRESH`, 8 files, 122 headings): PDFs from the same kind of test folders
(science-parse, GROBID, CERMINE, MinerU, unstructured) that no rule was written on; none has an outline or a
kept extraction with headings, so all are `read` (headings in HEADINGS, read off the PDF's lines and fonts and
committed, 2880a73, before any route ran on them). Their after-references text is cut at the first read heading
found in it (an appendix), as an outline file's is. First score, THE HELD-OUT SCORE of this set (commit 2880a73,
rules as merged in 5214fe6, before any rule saw these files; one run, ~90 s with `--group fresh`):

    file (layout)                                   P     R   outside
    2a774230 (IEEE Trans. CSVT 1997)               0.92  0.73  0.00 %
    test_Grobid_1_05452615 (IEEE conf., Word)      0.75  0.23  0.00 %
    tracemonkey-pldi-09 (ACM SIGPLAN PLDI 2009)    1.00  1.00  3.51 %
    test6 (PeerJ Comput. Sci. 2017)                0.89  1.00  0.00 %
    demo3 (NAACL 2022)                             1.00  1.00  0.00 %
    multi-column (EMNLP 2020 + appendix)           0.92  1.00  0.00 %
    c921a74c (ACM CHI 2012 extended abstract)      0.89  0.50  0.00 %
    Wang-paperAVE2008 (CLEF 2008 notes, Word)      1.00  1.00  0.00 %
    fresh overall: P 0.94 R 0.82 F1 0.88, outside 0.98 % (hit 100, found 106, expected 122)
    all 31 files:  P 0.96 R 0.94 F1 0.95, outside 0.35 % (512 headings); the earlier held-out figures unchanged
                   (P 0.96 R 0.98 F1 0.97, outside 0.12 %)

So the issue's goal (P and R >= 0.90, outside <= 2 % on layouts not tuned on) is met for P and for the overall
outside share, not for R; one file is at 3.51 %. The share is a lower bound here: a read file gives only its
reference list as outside text, so table cells in the body (seen in EMNLP's, class 4) are not counted.
Failure classes seen (at that score): (1) numbered headings set at body size in
upright capitals or italics, not bold (IEEE Word "II. RELATED AREA ...", "4.1. Step 1 (...)", "V.I ...";
IEEE Trans. italic "A. Storage of ...", "C. Experimental Results") kept as one-line paragraphs: 10 + 3
misses; (2) "References" at the top of PLDI's last page not taken for a heading: the whole reference list
became the body of "Acknowledgments" (the 3.51 %); (3) a three-region landscape page (CHI extended abstract:
margin column beside two text columns) read across regions: two headings merged ("Questionnaire Results"),
"Introduction" and others lost, lines of two columns spliced; (4) bold table labels or header cells taken for
headings ("Matrix C Matrix D", "Sim Loss Retrieval Accuracy", "Training Model"); (5) an "APPENDIX" line above
its title dropped, the title kept alone. Two misses are the expected side's: PeerJ's "Supplemental
Information" is a real heading left out as back matter (NON_BODY lists only "supporting information"), and
CSVT's appendix is expected as "Appendix: Mean Admission Delay" while the page sets two lines; counted as
they fall, they would give fresh P 0.96 R 0.83 F1 0.89.

After generic rules for classes 1, 2, 4 and 5 (issue 41, sources/paper_pdf.py: numbered body-size lines in
capitals or italics standing alone in a sequence of such lines; "References" never a table's header; an
"APPENDIX" line joined to the title under it; an unnumbered line of separate cells no heading). The rules were
written looking at the fresh files' errors, so their after-figures are tuning figures, not held-out ones (the
held-out figure stays the first score above). All files, one run:

    group (files, headings)     before (ca7827b)                       after
    tuned  (10, 194)            P 0.97 R 0.96 F1 0.97, 0.20 %          P 0.98 R 0.96 F1 0.97, 0.20 %
    seen   (13, 196)            P 0.96 R 0.98 F1 0.97, 0.12 %          P 0.97 R 0.98 F1 0.98, 0.12 %
    fresh  (8, 122)             P 0.94 R 0.82 F1 0.88, 0.98 %          P 0.99 R 0.91 F1 0.95, 0.00 %
    all    (31, 512)            P 0.96 R 0.94 F1 0.95, 0.35 %          P 0.98 R 0.96 F1 0.97, 0.11 %

Per file, changed: CSVT P 0.92 R 0.73 -> 1.00 1.00; IEEE Word P 0.75 R 0.23 -> 1.00 0.69 (its "V.I",
"V.I.I" … headings, 4, are not read as numbers); PLDI outside 3.51 % -> 0.00 %; EMNLP P 0.92 -> 1.00; CHI
extended abstract P 0.89 R 0.50 -> 1.00 0.56 (class 3, the three-region page, not fixed); and on files seen
before: elsarticle Sensors R 0.93 -> 1.00, NeurIPS P 0.90 -> 0.93, JSS P 0.93 -> 0.94. No file got worse.

FRESH2 set (third held-out round, `FRESH2`, 9 files, 173 headings), gathered after every earlier file had been
looked at: repositories no earlier file came from (pdfminer.six samples, PyMuPDF test resources, allenai/pawls
fixtures, ad-freiburg/pdfact); layouts IEEEtran journal, Nature Scientific Reports, MDPI, NAACL 2018, Annals of
Internal Medicine, HLT-NAACL 2004, NAACL 2006, JMLR journal and an arXiv technical report. Seven are `read`
(HEADINGS, from pdfplumber's raw `extract_text()` and the lines' fonts), two (JMLR, Qwen2) `outline`; all
committed before any route ran on them. Left out: pdf.js's TAMReview.pdf, a Word paper whose body font has no
Unicode map (its text layer is `(cid:N)` codes), so no text route can read it. Scientific Reports sets no
"References" line, so its outside share is not measured. First score, THE HELD-OUT SCORE of this set (commit
2ba8b0a, rules as on main at 7ba3a9f; one run of `--group fresh2`): P 0.84 R 0.52 F1 0.64, outside 0.11 %
(173 headings). The route raised TypeError on JMLR (a letter number "B.2" after "B.1"; counted as a file that
gave nothing: R 0 on its 45 headings) and read the Qwen2 report's bold contents page (no page numbers) as its
sections, so the real "1 INTRODUCTION" went back in the numbering: 1 of 27. Other classes: Annals' minor
headings set at 8.5 pt in bold sans under a 10.5 pt serif body (8 missed); margin dates ("3 November 2014")
and a second author's block beside the first taken for headings; an edit layer set over MDPI body lines read
as two headings; IEEEtran's "V. ε-iDP" lost its ε (no Unicode map), so "V." and its two lettered subsections
were missed; two-column row splicing (a heading on the baseline of text wrapped around a figure).

Metric changes made after that first score (each applies to both sides of every file): IEEE's "D. Composition
theorems" and "E. Privacy axioms", real italic subsections, were added to HEADINGS (left out when the list was
first written); "supplemental information", "supplementary information" and "additional information" joined
NON_BODY (back matter, as "supporting information" was; PeerJ's and Scientific Reports'); an appendix label
("Appendix A.") is stripped like a number, and a dotted roman number ("V.I.II") too. With them, the first
score is P 0.87 R 0.53 F1 0.65, outside 0.11 % (175 headings). After the generic rules of issue 41's third
round (sources/paper_pdf.py, sources/pdf_lines.py; written looking at these files' errors, so tuning
figures, not held-out ones), the whole benchmark in one run, main's route (7ba3a9f) -> this branch's:

    group (files, headings)     before                                 after
    tuned  (10, 194)            P 0.98 R 0.96 F1 0.97, 0.20 %          P 0.98 R 0.99 F1 0.99, 0.20 %
    seen   (13, 196)            P 0.97 R 0.98 F1 0.98, 0.12 %          P 0.97 R 0.99 F1 0.98, 0.12 %
    fresh  (8, 122)             P 1.00 R 0.91 F1 0.95, 0.00 %          P 1.00 R 0.96 F1 0.98, 0.00 %
    fresh2 (9, 175)             P 0.87 R 0.53 F1 0.65, 0.11 %          P 0.96 R 0.98 F1 0.97, 0.09 %
    all    (40, 687)            P 0.96 R 0.85 F1 0.90, 0.11 %          P 0.98 R 0.98 F1 0.98, 0.11 %

Per file, changed: JMLR crash -> P 0.98 R 0.98; Qwen2 R 0.04 -> 1.00; Annals R 0.64 -> 1.00; MDPI P 0.67 ->
1.00; NAACL 2006 P 0.87 -> 1.00; HLT-NAACL 2004 P 0.83 -> 0.92; IEEEtran P 0.89 R 0.85 -> 0.95 0.95; and on
files seen before: IEEE Word ("V.I" numbering) R 0.69 -> 1.00, JSS (typewriter "3.1. readData") P 0.94 R 0.91
-> 0.96 0.99, JMLR W&CP (heading beside wrapped text) R 0.95 -> 1.00, CHI extended abstract R 0.56 -> 0.69
(its three-region pages are still read across the margin column: a split of each column at a gutter no word
crosses was tried and dropped, it cut tables of ACM papers into columns). One file is worse: Scientific
Reports P 0.40 -> 0.33 (its margin dates were numbered headings that kept the paper "numbered"; without them
its bold run-in paragraph leads count as headings, the rule Nature Neuroscience's outline asks for). Left:
HLT-NAACL's "Hyperbolic-L1 prior" (the subscript 1 is on its own row), IEEEtran's lost ε.

FRESH3 set (fourth held-out round, `FRESH3`, 10 files): gathered after every earlier file had been looked at,
from files no earlier round used (jsvine/pdfplumber's and py-pdf sample-files' test PDFs, unused files of CERMINE,
GROBID, science-parse, pdffigures2 and PyMuPDF): Emerald, Cambridge (Int. Psychogeriatrics), Portland Press
(Clinical Science, with its supplement), an ACM journal (acmtrans LaTeX), an IEEE Word conference paper, an llncs
workshop paper, IJCAI 2007, an arXiv IEEEtran-style preprint, a German LaTeX lecture-notes book (117 pages,
thesis-like) and a NIST Special Publication. Seven are `read` (HEADINGS, from raw pdfplumber words' fonts and
`extract_text()` lines), three `outline`; committed with the metric changes below before any route ran on them.
Metric changes made with this set, before its score (both sides of every file): "author contribution" (singular),
"further reading" and "about the author(s)" joined NON_BODY (back matter after the references); IEEEtran's
hyperref bookmark numbers ("II", "III-A", "A-B", no dot) are stripped like other numbers. First score, THE
HELD-OUT SCORE of this set (commit f0fcecf, rules as on main at 6aa118b; one run of `--group fresh3`, 85 s):

    file (layout)                                   P     R   outside
    issue-316-example (Emerald 2007)               0.00  0.00  0.90 %
    example1 (Cambridge Int. Psychogeriatrics)     1.00  0.91  0.18 %
    example3 (Portland Clinical Science + supp.)   0.82  0.82  0.00 %
    c0690a1d (ACM journal, acmtrans)               0.81  1.00  1.14 %
    test_Grobid_2_05982691 (IEEE Word conf.)       1.00  0.90  0.32 %
    gadr (llncs workshop)                          0.50  0.33  0.00 %
    498bb0ef (IJCAI 2007)                          1.00  1.00  0.12 %
    issue-982-example (arXiv IEEEtran-style)       0.71  0.89  0.00 %
    GeoTopo-komprimiert (German lecture notes)     0.31  0.80  0.00 % (no "References" line: not measured)
    test_3842 (NIST SP 800-223)                    0.88  0.95  0.14 %
    fresh3 overall: P 0.63 R 0.85 F1 0.72, outside 0.33 % (168 headings)

Metric change after that first score: ACM's four numbered italic run-in subsubsections ("4.1.1 Preprocessing
the Input Instance. We say …", GROBID's headings too) were added to HEADINGS (read as paragraph leads when the list
was first written; the route found them, counted then as wrong); with them the first score is P 0.65 R 0.85 F1
0.74, outside 0.33 % (172 headings), ACM P 0.81 -> 1.00. As first scored, P 0.63 (0.84 without the 117-page
lecture notes, whose bold "Beispiel"/"Bemerkung"/"Aufgabe" block labels are taken for headings), R 0.85.
After generic rules of issue 41's fourth round (written looking at these files' errors, so tuning figures, not
held-out ones): a coded font name's digits tell faces apart (Emerald's AdvPS405B6 body, AdvPS405B8 sections and
AdvPS405B7 subsections, no weight in their names or descriptors; before, every digit was dropped as an optical
size); a page's top line carrying the page's number (number less page index the same on two pages) is a running
head (a 3-page llncs paper's "56 Oliver Kopp and Anita Armbruster" broke its numbering); a theorem-like label
("Satz 1.1 (Heine-Borel)") is no heading. The whole benchmark in one run each (expected side as committed in
ee3e3fc), main's route (6aa118b) -> this branch's (c277c11):

    group (files, headings)     before                                 after
    tuned   (10, 194)           P 0.98 R 0.99 F1 0.99, 0.20 %          P 0.98 R 0.99 F1 0.99, 0.20 %
    seen    (13, 196)           P 0.97 R 0.99 F1 0.98, 0.12 %          P 0.97 R 0.99 F1 0.98, 0.12 %
    fresh   (8, 122)            P 1.00 R 0.96 F1 0.98, 0.00 %          P 1.00 R 0.96 F1 0.98, 0.00 %
    fresh2  (9, 175)            P 0.96 R 0.98 F1 0.97, 0.09 %          P 0.96 R 0.98 F1 0.97, 0.09 %
    fresh3  (10, 172)           P 0.65 R 0.85 F1 0.74, 0.33 %          P 0.81 R 0.91 F1 0.86, 0.32 %
    all     (50, 859)           P 0.90 R 0.96 F1 0.92, 0.15 %          P 0.94 R 0.97 F1 0.95, 0.15 %

Per file, changed (no other file of any group changed): Emerald P 0.00 R 0.00 -> 0.75 1.00 (outside 0.90 ->
0.53 %); llncs 0.50 0.33 -> 1.00 1.00; German lecture notes P 0.31 -> 0.57. Left (fresh3): the lecture notes'
unnumbered labels ("Aufgabe 10", "Teilaufgabe a") and lines set like headings, one chapter title, its three
"Übungsaufgaben" sections and three index chapters missed (P 0.57 R 0.80); Clinical Science's
first and sixth pages read across their columns (a vertical banner in the margin; "INTRODUCTION" and
"DISCUSSION" spliced into rows of the other column) and its supplement's author line; the arXiv preprint's
appendix of generated play text (speaker names in bold); NIST's contents page (entries with page numbers kept as
headings, so the real "2." comes twice, "Introduction" lost); Emerald's margin title ("Shift work", 13 pt) and
its subsections at their sections' level (same size and weight), its reference list read into "Discussion".
The goal (P and R >= 0.90, outside <= 2 %) is met on this set for R and the outside share, not for P.

OUTLINE ROUTE (issue 41, fifth round): where a PDF's outline names its sections, the headings come from it
(sources/pdf_outline.py, route `pdf-outline`), else from the layout rules (`pdf-layout`); the last column of
each file's row names the route taken. An `outline` file's expected side IS its outline, so its figures score
the outline route against its own input (they measure how entries are matched to lines, not heading
detection); the honest figure is `not-outl`: the files whose expected side is read off the pages, GROBID's TEI,
CERMINE's NLM or docling's Markdown (29 files, 391 headings). Of the 50 files, 24 have an outline: the 21
`outline`/`outline-top` files, MDPI (fresh2, `read`), Scientific Reports (`read`: entries "Title", Figures
and "References": too few match, falls back) and docling's LNCS page (its title alone: falls back); 22 take
the outline route (the 21 and MDPI), 28 the layout rules. The 29 `read`/TEI/NLM/docling files were chosen as
such because they had no outline or extraction, so the outline route changes nothing there: the honest figure
is the layout rules'. With the outline route came one pdf_lines fix (a text row across both columns below
their top, e.g. a heading over text that runs beside a figure, was dropped). The whole benchmark in one run
each, main's route (f4bac78) -> this branch's:

    group (files, headings)     before                                 after
    tuned    (10, 194)          P 0.98 R 0.99 F1 0.99, 0.20 %          P 1.00 R 1.00 F1 1.00, 0.20 %
    seen     (13, 196)          P 0.97 R 0.99 F1 0.98, 0.12 %          P 0.98 R 1.00 F1 0.99, 0.12 %
    fresh    (8, 122)           P 1.00 R 0.96 F1 0.98, 0.00 %          P 1.00 R 0.96 F1 0.98, 0.00 %
    fresh2   (9, 175)           P 0.96 R 0.98 F1 0.97, 0.09 %          P 0.96 R 0.99 F1 0.97, 0.09 %
    fresh3   (10, 172)          P 0.81 R 0.91 F1 0.86, 0.32 %          P 0.97 R 0.97 F1 0.97, 0.35 %
    not-outl (29, 391)          P 0.97 R 0.97 F1 0.97, 0.21 %          P 0.97 R 0.97 F1 0.97, 0.21 %
    all      (50, 859)          P 0.94 R 0.97 F1 0.95, 0.15 %          P 0.98 R 0.99 F1 0.98, 0.16 %

Per file, changed (all outline files but Emerald): elsarticle superscripttest R 0.95 -> 1.00; JSS P 0.96 R 0.99
-> 1.00 1.00; acmart 2203.00130 P 0.89 -> 0.92 (its numbered run-in subsubsections "3.0.1 Procedure" under a
section the outline lists without subsections are kept, as GROBID keeps them; the outline lacks them); NeurIPS
P 0.93 -> 1.00; IOP Word R 0.91 -> 1.00; J. Hydrology R 0.93 -> 1.00; JMLR P 0.98 R 0.98 -> 1.00 1.00 (its
"7.5 Monte-Carlo …" was the pdf_lines fix); arXiv IEEEtran-style P 0.71 R 0.89 -> 1.00 1.00, outside 0.00 ->
0.83 % (its appendix of generated play text is now body; the expected side counts it as after-references text
because its title, set over two lines "APPENDIX A" / "AUTOMATICALLY GENERATED TEXTS", is not where the cut
looks); German lecture notes P 0.57 R 0.80 -> 1.00 0.97 ("Stichwortverzeichnis", the index, missed: its
entry points at the page before it, and the heading's text is also the index pages' running head); NIST P 0.88
R 0.95 -> 1.00 1.00, outside 0.14 -> 0.07 %; Emerald outside 0.53 -> 0.52 % (pdf_lines). No file got worse in
P or R. A tagged-PDF route (StructTreeRoot H/H1..H6, matched the same way) was tried and not kept: 3 of the 50
files are tagged, 2 of them with an outline; on the third (CHI extended abstract, Word) the tags give the same
11 of 16 headings as the layout rules (the misses are its three-region pages' reading order, and Word tags
every heading H1 and the authors' lines H2).

FRESH4 (17 never-seen PDFs, 204 headings, benchmarks/paper_pdf_fresh4.py, labelled blind). FIRST SCORE, THE
HELD-OUT FIGURE (commit 709ee8e, routes as merged in 2e16af5, one run): pdfplumber P 0.90 R 0.85 F1 0.87,
outside 3.42 %; the 5 outline files P 1.00 R 0.98; MCP P 0 R 0 at 28.9 % outside, AASTeX P 0.53 at 13.0 %.
After generic rules written looking at these files' errors (TUNED NOW, no longer held out): "REFERENCES" set
in small capitals above smaller entries still ends the body (the small-type rule took it for a footnote line
at a column's foot, and the entries at the top of the next column ran into the last section); a roman table
label ("TABLE II") is a caption like "Table 2"; a reference list with no heading (AASTeX's draft: smaller type,
five "Surname, I." entries in a run) ends the body when no References line is found, so the figure legends
after it are no sections. The whole benchmark in one run each, main's route (709ee8e) -> this branch's:

    group (files, headings)     before                                 after
    tuned    (10, 194)          P 1.00 R 1.00 F1 1.00, 0.20 %          P 1.00 R 1.00 F1 1.00, 0.20 %
    seen     (13, 196)          P 0.98 R 1.00 F1 0.99, 0.12 %          P 0.98 R 1.00 F1 0.99, 0.12 %
    fresh    (8, 122)           P 1.00 R 0.96 F1 0.98, 0.00 %          P 1.00 R 0.96 F1 0.98, 0.00 %
    fresh2   (9, 175)           P 0.96 R 0.99 F1 0.97, 0.09 %          P 0.96 R 0.99 F1 0.97, 0.09 %
    fresh3   (10, 172)          P 0.97 R 0.97 F1 0.97, 0.35 %          P 0.98 R 0.97 F1 0.97, 0.11 %
    fresh4   (17, 204)          P 0.90 R 0.85 F1 0.87, 3.42 %          P 0.96 R 0.85 F1 0.90, 0.23 %
    not-outl (41, 595)          P 0.95 R 0.93 F1 0.94, 1.48 %          P 0.97 R 0.93 F1 0.95, 0.15 %
    all      (67, 1063)         P 0.97 R 0.96 F1 0.96, 0.93 %          P 0.98 R 0.96 F1 0.97, 0.13 %

Per file, changed: MCP outside 28.89 -> 0.00 %, its four "TABLE II"... headings gone, so no heading is left
and the route fails (PdfError "no headed body text found"; its section headings, 7.5 pt centred capitals in
the body face below a 9 pt body, and 8.5 pt italic subsections are still not read: R 0); AASTeX P 0.53 R 1.00
13.02 % -> 1.00 1.00 1.31 %; Emerald (fresh3) P 0.75 -> 0.82, outside 0.52 -> 0.00 % (its reference list no
longer read into "Discussion"); ACM acmtrans (fresh3) outside 1.14 -> 0.00 %. No other file changed.
Left (fresh4): MCP's small capitals headings; NAR R 0.47, Med. Vet. Entomology R 0.50, J Korean
Med Sci R 0.67 (subsection classes not looked at in this round); the ACS letter's "Scheme N" captions (2.61 %).

LAYOUT RECALL ROUND (issue 41, TUNED on fresh4's errors, NOT HELD OUT). Fresh4's misses by cause: a heading
style no rule knew (MCP's 7.5 pt capitals under a 9 pt body and its 8.5 pt italics; a Korean journal's 10 pt
sans under an 11 pt Garamond body: the small-type rule took both for figure text, and MCP's 8 pt methods that
reach a column's foot for a footnote), a face's headings nearly as wide as the column (NAR's coded bold italic
AdvP6960, Wiley's sans: the other-face rule asked for a line under 85 % of it), a bold italic named "-bi" not
read as bold (Wiley's "Aedes albopictus" in a heading made it a mixed line), reading order (NAR's first pages:
two columns over a figure and caption across the foot read as one), wraps (three lines; JACoW's centred
capitals), levels (MCP's smaller sections ranked under their larger subsections, so emptied and dropped),
captions ("Scheme 3." in the ACS letter). Generic rules written for them (no file's name or text in them):
a heading style learned per document (`sources/pdf_styles.py`: a font and size other than the body's whose
lines stand apart over a paragraph of running text, two distinct titles or more, used for little else; type
more than 2 pt below the body is never one; only the lines that stand so are headings, and small type
straight under one is its section's text); a style whose headings stand straight over another's ranks above
it; "-bi" names are bold; a heading wraps over up to three lines (centred capitals too); "Scheme N"/"Chart N"
are captions; columns found over a figure across the page's foot (page middle only); after the references a
heading set as "References" is a section. `--layout` (the outline passed over, so all 67 files test the
layout rules) was added to measure them. Main's route (0241488) -> this branch's, the whole benchmark in
one run each:

    default route              before                                 after
    tuned    (10, 194)          P 1.00 R 1.00 F1 1.00, 0.20 %          P 1.00 R 1.00 F1 1.00, 0.20 %
    seen     (13, 196)          P 0.98 R 1.00 F1 0.99, 0.12 %          P 0.98 R 1.00 F1 0.99, 0.12 %
    fresh    (8, 122)           P 1.00 R 0.96 F1 0.98, 0.00 %          P 1.00 R 0.96 F1 0.98, 0.00 %
    fresh2   (9, 175)           P 0.96 R 0.99 F1 0.97, 0.09 %          P 0.96 R 0.99 F1 0.97, 0.09 %
    fresh3   (10, 172)          P 0.98 R 0.97 F1 0.97, 0.11 %          P 0.98 R 0.98 F1 0.98, 0.11 %
    fresh4   (17, 204)          P 0.96 R 0.85 F1 0.90, 0.23 %          P 0.98 R 0.99 F1 0.99, 0.21 %
    not-outl (41, 595)          P 0.97 R 0.93 F1 0.95, 0.15 %          P 0.97 R 0.98 F1 0.98, 0.15 %
    all      (67, 1063)         P 0.98 R 0.96 F1 0.97, 0.13 %          P 0.98 R 0.99 F1 0.99, 0.13 %

    layout rules (--layout)    before                                 after
    tuned    (10, 194)          P 0.98 R 0.99 F1 0.99, 0.20 %          P 0.98 R 0.99 F1 0.99, 0.20 %
    seen     (13, 196)          P 0.97 R 0.99 F1 0.98, 0.12 %          P 0.97 R 0.99 F1 0.98, 0.12 %
    fresh    (8, 122)           P 1.00 R 0.96 F1 0.98, 0.00 %          P 1.00 R 0.96 F1 0.98, 0.00 %
    fresh2   (9, 175)           P 0.96 R 0.99 F1 0.97, 0.09 %          P 0.96 R 0.99 F1 0.97, 0.09 %
    fresh3   (10, 172)          P 0.80 R 0.91 F1 0.85, 0.07 %          P 0.80 R 0.92 F1 0.86, 0.07 %
    fresh4   (17, 204)          P 0.92 R 0.81 F1 0.86, 0.23 %          P 0.94 R 0.99 F1 0.96, 0.21 %
    not-outl (41, 595)          P 0.95 R 0.92 F1 0.94, 0.15 %          P 0.96 R 0.98 F1 0.97, 0.15 %
    all      (67, 1063)         P 0.93 R 0.94 F1 0.94, 0.13 %          P 0.94 R 0.97 F1 0.96, 0.13 %

The default route's figures changed only on files without an outline (the outline files keep their outline
route). Per file (layout rules), changed: NAR R 0.47 -> 0.95; MCP no headed text (R 0) -> P 1.00 R 1.00, outside
0.00 %; J Korean Med Sci R 0.67 -> 1.00; Med. Vet. Entomology R 0.50 -> 1.00; BMC (outline file) R 0.63 ->
0.95; MNRAS (outline file) P 0.53 R 0.80 -> 0.56 0.90; JACoW P 0.83 R 0.83 -> 1.00 1.00; ACS letter P 0.50 ->
1.00 (its "Scheme" captions gone; the letter has no body heading, so its text now falls before the first
heading and is left out: the outside share of what is left, 20 words, reads 20 %); medRxiv P 1.00 R 0.93 ->
0.94 1.00 (the tables section after the references is kept, with a table's "Total" line, outside 0.51 ->
1.01 %); Clinical Science (fresh3) P 0.82 R 0.82 -> 0.83 0.91. No other file changed in P or R. Left:
MNRAS's figure labels ("Wavelength μm") set bold at body size (its outline route is unaffected), bioRxiv's
peptide sequences and PMID line, the lecture notes' block labels (layout rules only), NAR's "Secondary
structure prediction …" (the paragraph under it is read as a table row).

FRESH5 (18 never-seen PDFs, 342 headings labelled, 339 compared; benchmarks/paper_pdf_fresh5.py, labelled blind
from the pages while the layout recall round was written, by someone who ran no route of ours on them; 15 have
no outline). FIRST SCORE, THE HELD-OUT FIGURE (commit efc4a34, routes as merged there, one run each):

    fresh5   (18, 339)   default route  P 0.92 R 0.91 F1 0.92, 0.05 %   (pdf-layout 15 files, pdf-outline 3)
                         --layout       P 0.90 R 0.90 F1 0.90, 0.05 %   (outline files 0.93/1.00, 0.86/0.88, 1.00/1.00)

The first never-seen set on which the goal (P and R >= 0.90, <= 2 % outside) holds on first sight. Misses:
AI Magazine (QuarkXPress; headings in the body face, only larger, no Introduction heading) P 0 R 0; ICML 2011
R 0.46 (headings with ℓ and ‖·‖ glyphs the text layer garbles, bold run-on subsections); a 4-page pharmacy
paper (Word) P 0.33 R 0.67 (its bold run-in method heads taken for headings); the Elsevier CAS preprint P 0.78
(its RQ table labels); the IEEE Word paper R 0.83 (small capitals split by the text layer). No rule was
changed after this score.

    PYTHONPATH=$PWD python benchmarks/paper_pdf_layouts.py [--mirror /work/.mirror | --folder DIR]
        [--group tuned|seen|fresh|fresh2|fresh3|fresh4|fresh5] [--only NAME] [--layout] [-v]

`--group fresh4` (and the fresh4 rows) exist when benchmarks/paper_pdf_fresh4.py defines FILES4 and HEADINGS4,
`--group fresh5` when benchmarks/paper_pdf_fresh5.py defines FILES5 and HEADINGS5. `--layout` scores the layout
rules alone (the pdfplumber route told to pass over every outline), so that files with an outline test them too.
"""
from __future__ import annotations

import argparse
import io
import re
import subprocess
import sys
import unicodedata
from collections import Counter
from pathlib import Path

from lxml import etree

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from sources.grobid import TEI, parse_tei  # noqa: E402
from sources.paper_pdf import PdfError, read_pdf  # noqa: E402
from transforms.outlines import iter_sections  # noqa: E402

CERMINE = "cermine-impl/src/test/resources/pl/edu/icm/cermine"
# Where the kept extraction is wrong, the headings as the PDF sets them (read off the PDF) replace it:
# CERMINE's output for its test2.pdf tags 17 interview quotations as titles (also listed in
# ../shared/real-samples/paper-pdf/README.md); GROBID 0.6.1's TEI of 2020.acl-main.207 merges "2 Model" with
# "2.1 Overview", takes a formula line for a head ("ELMo ELMo"), and misses a heading and the appendix.
HEADINGS = {
    "test2.pdf": ["Introduction", "Methods", "Results", "Experience of Programmes", "Maintenance", "Improvements",
                  "GP Services", "Quality of Care", "Labelling the Condition Heart Failure", "Medication",
                  "Discussion"],
    "2020.acl-main.207.pdf": ["Introduction", "Model", "Overview", "Background: Pretrained Transformers",
                              "Citation-Based Pretraining Objective", "Selecting Negative Distractors", "Inference",
                              "SCIDOCS Evaluation Framework", "Document Classification", "Citation Prediction",
                              "User Activity", "Recommendation", "Experiments", "Results", "Analysis",
                              "Comparison with Task Specific Fine-Tuning", "Related Work",
                              "Conclusions and Future Work", "Appendix A - Baseline Details"],
    # Held-out, outline with a lost glyph: the authors' outline writes "-multiplier" where the PDF sets
    # "β-multiplier" (its text and headings); the outline's other entries as they are.
    "key-error-585bcfc650f744efa7942900b742c1b64863350e.pdf": [
        "1 Introduction", "2 Analytical Model", "2.1 Piezoresistive effect", "2.2 Current reference configuration",
        "2.3 Current subtraction configuration", "3 Experiment and discussion", "3.1 Experimental set-up",
        "3.2 Transistor analysis", "3.3 β-multiplier analysis", "3.3.1 β-multiplier with resistor (Fig. 2.a)",
        "3.3.2 β-multiplier with active load (Fig. 2.b) and subtraction circuit (Fig. 3)", "4 Conclusion",
        "Appendix A Output current in β-multiplier with resistor",
        "Appendix B Output current in full-transistor β-multiplier"],
    # Held-out, `read`: no extraction is kept beside these two (IEEE, PLOS), so the headings were read off the
    # rendered pages (IEEE: roman/letter-numbered small caps and italics; PLOS: the 12 pt bold lines) before
    # any route's output was looked at.
    "demo2.pdf": ["I. Introduction", "II. Background", "III. Method", "A. Two-Pass Spatial Cost Aggregation",
                  "B. Temporal cost aggregation", "C. Disparity Selection and Confidence Assessment",
                  "D. Iterative Disparity Refinement", "IV. Results", "V. Conclusion"],
    "e4faf2c1d76b9bf8f8b4524dfb8c5c6b93be5f35.pdf": [
        "Introduction", "Materials and methods", "Genetic materials, growth and experimental conditions",
        "Measures of physiological traits", "Measures of growth and yield related traits",
        "Leaf tissue sampling for metabolomic analyses", "Untargeted metabolomic analyses",
        "Data processing and statistical analysis", "Results", "Physiological parameters", "Yield related traits",
        "Profiling of metabolites", "Discussion", "Conclusion"],
    # FRESH set (issue 41, second held-out round), all `read`: none of these PDFs has an outline or a kept
    # extraction with headings, so the headings were read off each PDF's text lines and fonts (pdfplumber lines
    # with their font name and size, not any route of ours) before any route's output on them was looked at;
    # each title as the page sets it, wrapped lines joined, run-in paragraph heads ("Type specialization.")
    # left out as the other files do.
    "2a774230b5328df3f8125da9b84a82d92b46a240.pdf": [
        "I. Introduction", "II. System Parameters", "III. Data Placement for Scalable Video",
        "A. Storage of Scalable VBR Video Using CTL Data Placement",
        "B. Storage of Scalable VBR Video Using Hybrid Data Placement", "C. Experimental Results",
        "IV. Interactivity in Scalable VBR Video", "A. Data-Limit Deterministic Admission Control",
        "B. Experimental Results", "V. True VCR Functionality", "VI. Multiple Disk Video Storage",
        "A. System Delay: Interleaving Versus Striping", "B. Four-Disk Array Example", "VII. Conclusions",
        "Appendix: Mean Admission Delay"],
    # the paper numbers no section IV: its "4.1"-"4.4" follow III; "V.I", "V.I.I" as set
    "test_Grobid_1_05452615.pdf": [
        "I. Introduction", "II. Related Area and Literature Study",
        "III. MDRPM (Market Driven Requirement Prioritization Model)", "4.1. Step 1 (Requirement Initialization)",
        "4.2. Step 2 (Modified AHP Engine)", "4.3. Step 3 (Consistency Check)",
        "4.4. Step 4 (Requirement Prioritization)", "V. Validation of MDRPM", "V.I Validation results",
        "V.I.I Practicality and applicability", "V.I.II Model Implementation", "V.I.III Effectiveness and Efficiency",
        "VI. Conclusion"],
    "compressed.tracemonkey-pldi-09.pdf": [
        "1. Introduction", "2. Overview: Example Tracing Run", "3. Trace Trees", "3.1 Traces", "3.2 Trace Trees",
        "3.3 Blacklisting", "4. Nested Trace Tree Formation", "4.1 Nesting Algorithm", "4.2 Blacklisting with Nesting",
        "5. Trace Tree Optimization", "5.1 Optimizations", "5.2 Register Allocation", "6. Implementation",
        "6.1 Calling Compiled Traces", "6.2 Trace Stitching", "6.3 Trace Recording", "6.4 Preemption",
        "6.5 Calling External Functions", "6.6 Correctness", "7. Evaluation", "8. Related Work", "9. Conclusions",
        "10. Future Work"],
    # PeerJ's back-matter block ("Additional Information and Declarations" and its parts) is set as headings
    # of the same type; those not in NON_BODY are expected
    "test6.pdf": ["Introduction", "Methods", "Results", "Discussion", "Conclusion",
                  "Additional Information and Declarations", "Grant Disclosures", "Data Availability"],
    "demo3.pdf": [
        "1 Introduction", "2 Preliminaries: TAPAS for Table Encoding",
        "3 TABLEFORMER: Robust Structural Table Encoding", "4 Experimental Setup", "4.1 Datasets and Evaluation",
        "4.2 Baselines", "4.3 Perturbing Tables as Augmented Data", "5 Experiments and Results", "5.1 Main Results",
        "5.2 Perturbation Results", "5.3 Model Size Comparison", "5.4 Analysis of TABLEFORMER Submodules",
        "5.5 Comparison of TABLEFORMER and Perturbed Data Augmentation", "5.6 Attention Bias Ablation Study",
        "5.7 Limitations of TABLEFORMER", "6 Other Related Work", "7 Conclusion", "Ethical Considerations"],
    "multi-column.pdf": [
        "1 Introduction", "2 Background", "3 Dense Passage Retriever (DPR)", "3.1 Overview", "3.2 Training",
        "4 Experimental Setup", "4.1 Wikipedia Data Pre-processing", "4.2 Question Answering Datasets",
        "5 Experiments: Passage Retrieval", "5.1 Main Results", "5.2 Ablation Study on Model Training",
        "5.3 Qualitative Analysis", "5.4 Run-time Efficiency", "6 Experiments: Question Answering",
        "6.1 End-to-end QA System", "6.2 Results", "7 Related Work", "8 Conclusion", "A Distant Supervision",
        "B Alternative Similarity Functions & Triplet Loss", "C Qualitative Analysis",
        "D Joint Training of Retriever and Reader"],
    # CHI extended abstract (landscape, margin column): 9.5 pt bold headings; Methods and Results each hold
    # "Questionnaire", "EEG", "Reaction time"
    "c921a74c209e720534939dfa191d639e647dd242.pdf": [
        "Introduction", "HCI and smartphones", "Physiological parameters", "Experimental Preview", "Experiment",
        "Task and stimuli", "Methods", "Questionnaire", "EEG", "Reaction time", "Results", "Questionnaire", "EEG",
        "Reaction time", "Discussion and conclusion", "Future work"],
    "Wang-paperAVE2008.pdf": [
        "1 Introduction and Related Work", "2 The RTE System", "3 The AVE System",
        "3.1 Preprocessing and Post-processing", "3.2 Additional Components", "4 Results",
        "5 Conclusion and Future Work"],
    # FRESH2 set (issue 41, third held-out round), `read`: headings read off each PDF's raw pdfplumber text
    # (`extract_text()`) and the lines' font names and sizes, before any route of ours ran on these files; words
    # the text layer sets without spaces are spaced as the page shows them.
    # IEEEtran journal: roman sections in small caps, lettered italic subsections; run-in "1) ...:" left out;
    # the epsilon of V. is a glyph without a Unicode map in the PDF. IV.D and IV.E were left out of the list as
    # first committed (the raw text interleaves them with the other column) and added after the first score
    "issue-1061-colour-space-stack.pdf": [
        "I. Introduction", "II. Background on Differential Privacy", "A. Noise calibration to the global sensitivity",
        "B. Noise calibration to the smooth sensitivity", "III. Related Work", "IV. Individual differential privacy",
        "A. Intuitive view of differential privacy", "B. Formalization of individual differential privacy",
        "C. Disclosure limitation for groups of data subjects", "D. Composition theorems", "E. Privacy axioms",
        "V. ε-iDP for Numerical Queries",
        "A. Laplace mechanism", "B. Discrete Laplace mechanism", "VI. Evaluation", "A. Median", "B. Maximum",
        "C. Range queries", "VII. Conclusions and future work", "Acknowledgments and disclaimer"],
    # Scientific Reports: the introduction has no heading; run-in bold paragraph heads left out
    "test_3780.pdf": ["Results", "Discussion"],
    # MDPI (Current Oncology): the appendix title is set on the "Appendix A." line
    "test_4026.pdf": ["1. Background", "2. Questions to Address", "3. Summary and Recommendations",
                      "Appendix A. Synoptic Report Template"],
    "3febb2bed8865945e7fddc99efd791887bb7e14f.pdf": [
        "1 Introduction", "2 Related work", "3 ELMo: Embeddings from Language Models",
        "3.1 Bidirectional language models", "3.2 ELMo", "3.3 Using biLMs for supervised NLP tasks",
        "3.4 Pre-trained bidirectional language model architecture", "4 Evaluation", "5 Analysis",
        "5.1 Alternate layer weighting schemes", "5.2 Where to include ELMo?",
        "5.3 What information is captured by the biLM's representations?", "5.4 Sample efficiency",
        "5.5 Visualization of learned weights", "5.6 Contextual vs. sub-word information",
        "5.7 Are pre-trained vectors necessary with ELMo?", "6 Conclusion"],
    # Annals of Internal Medicine review: upper-case sections, bold subsections at two sizes; the "Key Summary
    # Points" box and the appendix tables are not sections
    "553c58a05e25f794d24e8db8c2b8fdb9603e6a29.pdf": [
        "Methods", "Literature Sources and Search Strategies", "Study Selection and Data Abstraction",
        "Evaluation of Reports of Surveillance Systems", "Data Synthesis",
        "Surveillance Systems Designed for Bioterrorism-Related Diseases or Syndromes",
        "Surveillance Systems Collecting Syndromic Reports", "Surveillance Systems Designed for Other Purposes",
        "Surveillance Systems Collecting Clinical Reports",
        "Surveillance Systems Collecting Environmental Detection Data",
        "Surveillance Systems Collecting Influenza-related Data", "Surveillance Systems Collecting Laboratory Data",
        "Surveillance Systems Collecting Foodborne Illness Data",
        "Surveillance Systems Collecting Zoonotic and Animal Disease Data",
        "Surveillance Systems Collecting Other Kinds of Data", "Evaluation of Reports of Surveillance Systems",
        "Discussion", "Timeliness", "Sensitivity and Specificity",
        "Analyses That Facilitate Public Health Decision Making",
        "Limitations", "Conclusion"],
    "ACL_2004.pdf": [
        "1 Introduction", "2 Conditional Random Fields", "2.1 Regularization in CRFs", "2.1.1 Gaussian prior",
        "2.1.2 Exponential prior", "2.1.3 Hyperbolic-L1 prior", "2.2 Exploration of Feature Space",
        "2.2.1 State transition features", "2.2.2 Supported features and unsupported features",
        "2.2.3 Local features, layout features and lexicon features", "3 Empirical Study", "3.1 Hidden Markov Models",
        "3.2 Datasets", "3.2.1 Paper header dataset", "3.2.2 Paper reference dataset", "3.3 Performance Measures",
        "3.3.1 Measuring field-specific performance", "3.3.2 Measuring overall performance",
        "3.4 Experimental Results", "3.5 Analysis", "3.5.1 Overall performance comparison",
        "3.5.2 Effects of regularization", "3.5.3 Effects of exploring feature space", "3.5.4 Error analysis",
        "4 Conclusions and Future Work"],
    # an unnumbered bold subsection ("Increasing Basic Patterns") under 2
    "naacl06-shinyama.pdf": [
        "1 Background", "2 Basic Idea", "Increasing Basic Patterns", "3 Implementation",
        "3.1 Web Crawling and Basic Clustering", "3.2 Parsing and GLARFing",
        "3.3 NE Tagging and Coreference Resolution",
        "3.4 Basic Pattern Generation", "3.5 Metaclustering", "4 Experiment and Evaluation", "4.1 Evaluation Method",
        "4.2 Results", "5 Conclusion"],
    # FRESH3 set (issue 41, fourth held-out round), `read`: headings read off each PDF's raw pdfplumber words (font
    # name, size, position) and `extract_text()` lines before any route of ours ran on these files; run-in
    # paragraph heads ("Automation The first step ...", "1) Route Request:") left out as elsewhere.
    # Emerald: bold 10 pt sections, italic 10 pt subsections; the introduction has no heading
    "issue-316-example.pdf": [
        "Interventions to improve coping by shift workers", "Method", "Participants", "Interventions",
        "Instrumentation", "Results", "Impact of training on WFC and FWC", "Open text responses", "Discussion"],
    # International Psychogeriatrics (Cambridge): 12 pt extra-bold sections, 10.5 pt bold subsections
    "example1.pdf": [
        "Introduction", "Method", "Study population", "Participants", "Diagnosis of dementia",
        "Life event inventory", "Potential confounders", "Statistical analysis", "Results", "Discussion",
        "Description of authors' roles"],
    # Clinical Science (Portland Press): upper-case sections and sentence-case subsections in the same 10 pt
    # sans; the supplementary data (own title page, after the references) holds three more sections
    "example3.pdf": [
        "Introduction", "Materials and Methods", "Modelling methodology and synthesis",
        "Inhibition characterization", "Protein purification and X-ray crystallography", "Results", "Discussion",
        "Clinical Perspectives", "Materials and Methods", "SHOP search", "Synthesis"],
    # ACM journal (acmtrans LaTeX): numbered sans-serif headings at body size; appendices A and B after the
    # references, B with an unnumbered "Numerical Results". The numbered italic run-in subsubsections of 4.1 and
    # 4.2 ("4.1.1 Preprocessing the Input Instance. We say …") were left out of the list as first committed
    # (read as paragraph leads) and added after the first score
    "c0690a1d74ab781bd54f9fa7e67267cce656.pdf": [
        "1. Introduction", "1.1 Related Work", "1.2 Our Results", "1.3 Motivational Application",
        "1.4 Organization", "2. Sliding-Window Algorithm", "3. Analysis", "3.1 Tight Examples",
        "3.2 Numerical Results", "3.3 Approximation Ratio", "3.4 The Assignment Problem",
        "4. Polynomial Time Approximation Schemes", "4.1 Homogeneous Storage Systems",
        "4.1.1 Preprocessing the Input Instance", "4.1.2 Structured Approximate Solutions",
        "4.1.3 The Approximation Scheme", "4.2 Uniform Ratio Storage Systems",
        "4.2.1 Preprocessing the Input Instance", "A. NP-Hardness Proof", "B. The Sliding-Window Algorithm",
        "Numerical Results"],
    # IEEE conference (Word): roman sections in small caps at body size, lettered italic subsections (V has
    # no "A.")
    "test_Grobid_2_05982691.pdf": [
        "I. Introduction", "II. Related Work", "III. Network Setup", "IV. Protocol Operation",
        "A. Mobility Factor and Zone Head Selection", "B. Route Maintenance", "C. Node Mobility",
        "V. Simulation Results", "B. Simulation results", "VI. Conclusion"],
    "gadr.pdf": ["1 Introduction", "2 GADR", "3 Conclusion and Outlook"],
    # IJCAI 2007: "TextRunner" in small caps; two unnumbered bold 10 pt lines under 3.2; the misspelt
    # "Acknowledegments" is a heading NON_BODY does not know, so it is expected as set
    "498bb0efad6ec15dd09d941fb309aa18d6df9f5f.pdf": [
        "1 Introduction and Motivation", "2 Open IE in TextRunner", "2.1 Self-Supervised Learner",
        "2.2 Single-Pass Extractor", "2.3 Redundancy-based Assessor", "2.4 Query Processing", "2.5 Analysis",
        "3 Experimental Results", "3.1 Comparison with Traditional IE", "3.2 Global Statistics on Facts Learned",
        "Estimating the Correctness of Facts", "Estimating the Number of Distinct Facts", "4 Related Work",
        "5 Conclusions", "Acknowledegments"],
}
# (layout, repo, pdf path, expected: "tei:<path>" | "nlm:<path>" | "outline")
FILES = [
    ("ACL 2018, two-column LaTeX", "allenai/s2orc-doc2json", "tests/pdf/N18-3011.pdf",
     "tei:tests/pdf/N18-3011.tei.xml"),
    ("ACL 2020, two-column LaTeX", "allenai/s2orc-doc2json", "tests/pdf/2020.acl-main.207.pdf",
     "tei:tests/pdf/2020.acl-main.207.tei.xml"),
    ("Hindawi 2010, two-column", "CeON/CERMINE", f"{CERMINE}/test2.pdf", f"nlm:{CERMINE}/test2-content.xml"),
    ("Elsevier journal 2011", "CeON/CERMINE", f"{CERMINE}/test5.pdf", f"nlm:{CERMINE}/test5-content.xml"),
    ("BioMed Central 2014", "CeON/CERMINE", "cermine-web/src/main/resources/examples/example2.pdf", "outline"),
    ("Wiley GLIA 1998 (XPP)", "allenai/pdffigures2",
     "src/test/resources/test-pdfs/3a9202f9f176d3377516e3da0866cc19148c033b.pdf", "outline-top"),
    ("Nature Neuroscience 2011 (InDesign)", "allenai/pdffigures2",
     "src/test/resources/test-pdfs/f63cb20759fab2514802c3ef2a743c76bf9dc9f1.pdf", "outline"),
    ("arXiv elsarticle preprint", "allenai/science-parse", "core/src/test/resources/superscripttest.pdf", "outline"),
    ("IOP JCAP 2008", "kermitt2/grobid", "grobid-core/src/test/resources/test/0807.3577.pdf", "outline"),
    ("arXiv REVTeX two-column", "kermitt2/grobid", "grobid-core/src/test/resources/test/1001._0908.0054.pdf",
     "outline"),
    ("Journal of Statistical Software 2007", "kermitt2/grobid",
     "grobid-core/src/test/resources/test/MullenJSSv18i03.pdf", "outline"),
    # Held-out set (added, with its expected side, before any route's output on them was looked at):
    ("ACM acmart manuscript (arXiv 2022)", "allenai/papermage", "tests/fixtures/2203.00130v1.pdf", "outline"),
    ("ACM acmart sigconf (CHI 2023)", "allenai/papermage", "tests/fixtures/2302.07302v1.pdf", "outline"),
    ("ACM acmart (arXiv 2023, 4 pages)", "allenai/papermage", "tests/fixtures/2304.02623v1.pdf", "outline"),
    ("NeurIPS 2022 Datasets and Benchmarks", "allenai/papermage", "tests/fixtures/2206.10883v3.pdf", "outline"),
    ("IOP J. Phys. Conf. Ser. 2022 (Word)", "allenai/papermage",
     "tests/fixtures/svm_word_predictor/index-list-out-of-range-7f4e18385a30ccb00dc637d5123f894f1f862964.pdf",
     "outline"),
    ("elsarticle preprint 2022 (Sensors Actuators)", "allenai/papermage",
     "tests/fixtures/svm_word_predictor/key-error-585bcfc650f744efa7942900b742c1b64863350e.pdf", "outline"),
    ("AAAI two-column (arXiv 2022)", "allenai/papermage",
     "tests/fixtures/svm_word_predictor/value-error-box-diff-page-3574574f60182fc886aa13ad9d9dd3efc4d0a081.pdf",
     "outline"),
    ("Elsevier J. Hydrology 2005 (typeset)", "opendatalab/MinerU", "demo/pdfs/demo1.pdf", "outline"),
    ("JMLR W&CP (MLHC 2017)", "titipata/scipdf_parser", "example_data/futoma2017improved.pdf", "outline"),
    ("Springer LNCS (arXiv 2023, page 9)", "DS4SD/docling", "tests/data/pdf/2305.03393v1-pg9.pdf",
     "docling:tests/data/groundtruth/docling_v2/2305.03393v1-pg9.md"),
    ("IEEE conference 2013 (PDF eXpress)", "opendatalab/MinerU", "demo/pdfs/demo2.pdf", "read"),
    ("PLOS ONE 2018", "allenai/science-parse", "core/src/test/resources/e4faf2c1d76b9bf8f8b4524dfb8c5c6b93be5f35.pdf",
     "read"),
    # FRESH set (second held-out round): added with their expected side (HEADINGS) before any route ran on them
    ("IEEE Trans. CSVT 1997 (Distiller)", "allenai/science-parse",
     "core/src/test/resources/2a774230b5328df3f8125da9b84a82d92b46a240.pdf", "read"),
    ("IEEE conference 2010 (Word, iText)", "kermitt2/grobid",
     "grobid-core/src/test/resources/test/test_Grobid_1_05452615.pdf", "read"),
    ("ACM SIGPLAN PLDI 2009 (two-column)", "kermitt2/grobid",
     "grobid-service/src/main/resources/web/resources/pdf.js/web/compressed.tracemonkey-pldi-09.pdf", "read"),
    ("PeerJ Computer Science 2017", "CeON/CERMINE", f"{CERMINE}/test6.pdf", "read"),
    ("NAACL 2022 (ACL two-column, pdfTeX)", "opendatalab/MinerU", "demo/pdfs/demo3.pdf", "read"),
    ("EMNLP 2020 with appendix (arXiv)", "Unstructured-IO/unstructured", "example-docs/pdf/multi-column.pdf", "read"),
    ("ACM CHI 2012 extended abstract (Word)", "allenai/science-parse",
     "core/src/test/resources/c921a74c209e720534939dfa191d639e647dd242.pdf", "read"),
    ("CLEF 2008 working notes (LNCS-like, Word)", "kermitt2/grobid",
     "grobid-core/src/test/resources/test/Wang-paperAVE2008.pdf", "read"),
    # FRESH2 set (third held-out round): from repositories no earlier file came from (pdfminer.six samples,
    # PyMuPDF test resources, allenai/pawls fixtures, pdfact); expected sides (HEADINGS, or the authors'
    # outline) committed before any route ran on them
    ("IEEE Trans. Inf. Forensics Security 2016 (IEEEtran)", "pdfminer/pdfminer.six",
     "samples/contrib/issue-1061-colour-space-stack.pdf", "read"),
    ("Nature Scientific Reports 2014", "pymupdf/PyMuPDF", "tests/resources/test_3780.pdf", "read"),
    ("MDPI Current Oncology 2023", "pymupdf/PyMuPDF", "tests/resources/test_4026.pdf", "read"),
    ("NAACL 2018 (ACL two-column)", "allenai/pawls",
     "cli/test/fixtures/pawls/3febb2bed8865945e7fddc99efd791887bb7e14f/3febb2bed8865945e7fddc99efd791887bb7e14f.pdf",
     "read"),
    ("Annals of Internal Medicine 2004 (review)", "allenai/pawls",
     "cli/test/fixtures/pawls/553c58a05e25f794d24e8db8c2b8fdb9603e6a29/553c58a05e25f794d24e8db8c2b8fdb9603e6a29.pdf",
     "read"),
    ("HLT-NAACL 2004 (ACL two-column, Times)", "ad-freiburg/pdfact", "pdfact-cli/src/test/resources/ACL_2004.pdf",
     "read"),
    ("NAACL 2006 (ACL two-column, Nimbus)", "pdfminer/pdfminer.six", "samples/nonfree/naacl06-shinyama.pdf", "read"),
    ("JMLR 2014 (journal, 30 pages)", "allenai/pawls",
     "cli/test/fixtures/pawls/34f25a8704614163c4095b3ee2fc969b60de4698/34f25a8704614163c4095b3ee2fc969b60de4698.pdf",
     "outline"),
    ("arXiv technical report 2024 (Qwen2)", "pymupdf/PyMuPDF", "tests/resources/test_4751.pdf", "outline"),
    # FRESH3 set (fourth held-out round): repositories or files no earlier file came from (jsvine/pdfplumber test
    # PDFs, py-pdf sample-files, unused CERMINE/GROBID/science-parse/pdffigures2/PyMuPDF files); expected sides
    # (HEADINGS, or the authors' outline) committed before any route ran on them
    ("Emerald Employee Relations 2007 (margin notes)", "jsvine/pdfplumber", "tests/pdfs/issue-316-example.pdf",
     "read"),
    ("Cambridge Int. Psychogeriatrics 2014", "CeON/CERMINE", "cermine-web/src/main/resources/examples/example1.pdf",
     "read"),
    ("Portland Clinical Science 2014 + supplement", "CeON/CERMINE",
     "cermine-web/src/main/resources/examples/example3.pdf", "read"),
    ("ACM journal (acmtrans LaTeX, 28 pages)", "allenai/science-parse",
     "core/src/test/resources/c0690a1d74ab781bd54f9fa7e67267cce656.pdf", "read"),
    ("IEEE conference 2011 (Word)", "kermitt2/grobid",
     "grobid-core/src/test/resources/test/test_Grobid_2_05982691.pdf", "read"),
    ("llncs workshop paper 2023 (LaTeX, 3 pages)", "kermitt2/grobid",
     "grobid-service/src/test/resources/sample5/gadr.pdf", "read"),
    ("IJCAI 2007 (two-column, Nimbus)", "allenai/pdffigures2",
     "src/test/resources/test-pdfs/498bb0efad6ec15dd09d941fb309aa18d6df9f5f.pdf", "read"),
    ("arXiv IEEEtran-style preprint 2016 (hyperref)", "jsvine/pdfplumber", "tests/pdfs/issue-982-example.pdf",
     "outline"),
    ("German lecture notes (LaTeX book, 117 pages)", "py-pdf/sample-files",
     "009-pdflatex-geotopo/GeoTopo-komprimiert.pdf", "outline"),
    ("NIST Special Publication 2024 (report)", "pymupdf/PyMuPDF", "tests/resources/test_3842.pdf", "outline"),
]
# Files whose errors were looked at while the pdfplumber rules were written (issue 41): all but GLIA. The rules
# are generic (no file's name or text appears in them), but only GLIA is a layout they were not fitted to.
TUNED = {"N18-3011.pdf", "2020.acl-main.207.pdf", "test2.pdf", "example2.pdf", "test5.pdf", "1001._0908.0054.pdf",
         "superscripttest.pdf", "MullenJSSv18i03.pdf", "0807.3577.pdf", "f63cb20759fab2514802c3ef2a743c76bf9dc9f1.pdf"}
# Held-out files whose errors were looked at after the held-out score was recorded (the second round of rules,
# see the module doc): all of them.
FRESH = {"2a774230b5328df3f8125da9b84a82d92b46a240.pdf", "test_Grobid_1_05452615.pdf",
         "compressed.tracemonkey-pldi-09.pdf", "test6.pdf", "demo3.pdf", "multi-column.pdf",
         "c921a74c209e720534939dfa191d639e647dd242.pdf", "Wang-paperAVE2008.pdf"}
# Third held-out round (issue 41): the 9 files before FRESH3 in FILES.
FRESH2 = {Path(f[2]).name for f in FILES[-19:-10]}
# Fourth held-out round (issue 41): the last 10 files of FILES.
FRESH3 = {Path(f[2]).name for f in FILES[-10:]}
SEEN = {Path(f[2]).name for f in FILES if Path(f[2]).name not in TUNED | FRESH | FRESH2 | FRESH3}
# Fifth and sixth held-out rounds, when present: `benchmarks/paper_pdf_fresh4.py` and `paper_pdf_fresh5.py`
# (written apart from this file) define FILES4/HEADINGS4 and FILES5/HEADINGS5 (FILES' and HEADINGS' shapes);
# their files form groups `fresh4` and `fresh5`.
sys.path.insert(0, str(Path(__file__).resolve().parent))
try:
    from paper_pdf_fresh4 import FILES4, HEADINGS4  # noqa: E402
except ImportError:
    FILES4, HEADINGS4 = [], {}
try:
    from paper_pdf_fresh5 import FILES5, HEADINGS5  # noqa: E402
except ImportError:
    FILES5, HEADINGS5 = [], {}
APART = {"fresh4": (FILES4, HEADINGS4), "fresh5": (FILES5, HEADINGS5)}  # group -> (files, headings)
GROUPS = ["tuned", "seen", "fresh", "fresh2", "fresh3"] + [g for g, (files, _) in APART.items() if files]
NON_BODY = re.compile(r"^(abstract|references?|bibliography|literature cited|keywords?|key words|author details|"
                      r"additional files?|summary|acknowledge?ments?|competing (financial )?interests|"
                      r"authors?( s)? contributions?|funding|conflicts? of interests?|supporting information|"
                      r"supplementa(l|ry) information|additional information|further reading|"
                      r"about the authors?)$")
# numbers: arabic, roman, letter; and IEEEtran's hyperref bookmark forms "II", "III-A", "A-B" (no dot)
_NUM = re.compile(r"^(\d+(\.\d+)*\.?|[ivxIVX]+(\.[ivxIVX]+)*\.|[ivxIVX]+(\.[ivxIVX]+)+|[IVX]+-[A-Z]\d*|[A-Z]-[A-Z]\d*|"
                  r"[A-Z](\.\d+)*\.?|[IVX]+)\s+(?=\S)")
_APPENDIX_LABEL = re.compile(r"^appendix\s+[A-Z0-9]{1,2}\b\s*[.:\-–]?\s+(?=\S)", re.I)
_REFS_LINE = re.compile(r"^\s*(references|bibliography|literature cited)\s*$", re.I | re.M)


def norm(title: str) -> str:
    t = "".join(ch for ch in unicodedata.normalize("NFKD", title.strip()) if not unicodedata.combining(ch))
    t = re.sub(r"\{\\?\W\s*(\w)\s*\}", r"\1", t)  # TeX accents left in an outline: Lema{\^i }tre
    t = _APPENDIX_LABEL.sub("", t)  # "Appendix A. A Practical Guide …" is the outline's "A Practical Guide …"
    t = _NUM.sub("", t.replace("ˆ", "").replace("ı", "i"))
    return " ".join(re.sub(r"[^\w\s]", " ", t.lower()).split())


def read(args, repo: str, path: str) -> bytes:
    if args.folder:
        return (Path(args.folder) / Path(path).name).read_bytes()
    git = Path(args.mirror) / repo.replace("/", "+") / "repo"
    return subprocess.run(["git", f"--git-dir={git}", "show", f"HEAD:{path}"], check=True,
                          capture_output=True).stdout


def _text(el) -> str:
    return " ".join("".join(el.itertext()).split())


def expected_tei(data: bytes) -> tuple[list[str], str, str]:
    root = etree.fromstring(data)
    heads = [_text(h) for h in root.iter(f"{TEI}head") if h.getparent().tag == f"{TEI}div"
             and (h.getparent().getparent().tag == f"{TEI}body" or h.getparent().get("type") == "annex"
                  or h.getparent().getparent().get("type") == "annex")]
    body = " ".join(_text(p) for p in root.iter(f"{TEI}p") if next(p.iterancestors(f"{TEI}body"), None) is not None
                    and next(p.iterancestors(f"{TEI}note"), None) is None
                    and next(p.iterancestors(f"{TEI}figure"), None) is None)
    outside = [_text(e) for e in root.iter(f"{TEI}listBibl", f"{TEI}note", f"{TEI}figure")
               if e.tag != f"{TEI}figure" or e.get("type") == "table"]
    return heads, body, " ".join(outside)


def expected_nlm(data: bytes) -> tuple[list[str], str, str]:
    root = etree.fromstring(data)
    body_el = root.find(".//body")
    heads = [_text(t) for t in body_el.iter("title") if t.getparent().tag == "sec"]
    body = " ".join(_text(p) for p in body_el.iter("p"))
    outside = " ".join(_text(e) for e in root.iter("ref-list", "fn", "table-wrap"))
    return heads, body, outside


def _reading_text(page) -> str:
    """The page's lines, a two-column page column by column (few words straddle its middle), so that the
    reference list's text is not interleaved with the body beside it."""
    words = page.extract_words(x_tolerance=1.5, y_tolerance=2.5)
    mid = page.width / 2
    two = len(words) > 50 and sum(w["x0"] < mid - 5 and w["x1"] > mid + 5 for w in words) < 0.02 * len(words)
    rows: dict[tuple[int, int], list[dict]] = {}
    for w in sorted(words, key=lambda w: (w["top"], w["x0"])):
        col = int(two and w["x0"] >= mid - 5)
        key = next((k for k in rows if k[0] == col and abs(k[1] - w["top"]) <= 2.5), (col, round(w["top"])))
        rows.setdefault(key, []).append(w)
    return "\n".join(" ".join(w["text"] for w in sorted(rows[k], key=lambda w: w["x0"])) for k in sorted(rows))


def expected_outline(data: bytes, top_only: bool = False) -> tuple[list[str], str, str]:
    import pdfplumber

    from pdfminer.pdfdocument import PDFNoOutlines

    with pdfplumber.open(io.BytesIO(data)) as pdf:
        try:
            entries = [(level, title) for level, title, *_ in pdf.doc.get_outlines()]
        except PDFNoOutlines:
            entries = []
        text = "\n".join(_reading_text(p) for p in pdf.pages)
    refs = list(_REFS_LINE.finditer(text))
    outside = text[refs[-1].end():] if refs else ""
    if not entries:
        return [], "", outside
    # a number glued to its title in the outline ("3.1Encoding module") is spaced as the page sets it
    entries = [(level, re.sub(r"^(\d+(?:\.\d+)*\.?)(?=[^\W\d_])", r"\1 ", title.strip())) for level, title in entries]
    top = min(level for level, _ in entries)
    if sum(level == top for level, _ in entries) == 1 and entries[0][0] == top:
        entries = entries[1:]  # one top entry holding everything: the paper's title
        top = min(level for level, _ in entries)
    heads, in_abstract = [], None
    for level, title in entries:
        n = norm(title)
        if in_abstract is not None and level > in_abstract:
            continue
        in_abstract = level if n == "abstract" else None
        if re.match(r"^(fig|figure|table)\b", n) or (top_only and level > top):
            continue
        heads.append(title)
    return heads, "", cut_at_headings(outside, heads)


def cut_at_headings(outside: str, heads: list[str]) -> str:
    """The text after the references up to the first expected heading found in it (an appendix)."""
    for title in heads:
        start = re.escape(_NUM.sub("", title.strip())[:25])
        at = re.search(r"\n\s*(?:[A-Z]\.?\s*|\d+(?:\.\d+)*\.?\s*)?" + start, outside, re.I)
        outside = outside[:at.start()] if at else outside
    return outside


def expected_docling(data: bytes) -> tuple[list[str], str, str]:
    """Docling's kept Markdown: `#` lines are headings; table rows and Table/Figure captions are outside."""
    heads, body, outside = [], [], []
    for block in data.decode().split("\n\n"):
        block = block.strip()
        if block.startswith("#"):
            heads.append(block.lstrip("#").strip())
        elif block.startswith("|") or re.match(r"^(Table|Fig\.?|Figure)\s*\d", block):
            outside.append(block.replace("|", " "))
        elif block:
            body.append(block)
    return heads, " ".join(body), " ".join(outside)


def _shingles(words: list[str], n: int = 6) -> set[tuple[str, ...]]:
    return {tuple(words[k:k + n]) for k in range(len(words) - n + 1)}


def _words(text: str) -> list[str]:
    return re.findall(r"\w+", text.lower())


def outside_share(paragraphs: list[str], body: str, outside: str) -> tuple[int, int]:
    """(body words covered by a 6-word run of the outside text, body words)."""
    bad = _shingles(_words(outside)) - _shingles(_words(body))
    covered = total = 0
    for p in paragraphs:
        w = _words(p)
        total += len(w)
        hit = [False] * len(w)
        for k in range(len(w) - 5):
            if tuple(w[k:k + 6]) in bad:
                hit[k:k + 6] = [True] * 6
        covered += sum(hit)
    return covered, total


def outline_depth(data: bytes) -> int | None:
    """How many levels the PDF's outline has (its sole title entry left out): headings deeper than that are not
    in it (acmart bookmarks sections and subsections, not its numbered run-in subsubsections)."""
    import pdfplumber

    from pdfminer.pdfdocument import PDFNoOutlines

    with pdfplumber.open(io.BytesIO(data)) as pdf:
        try:
            levels = [level for level, *_ in pdf.doc.get_outlines()]
        except PDFNoOutlines:
            return None
    if levels and levels.count(min(levels)) == 1 and levels[0] == min(levels):
        levels = levels[1:]
    return len(set(levels)) or None


def score(sections: list[dict], expected: list[str], depth: int | None = None) -> tuple[int, int, int, list[str]]:
    got = Counter(n for lv, s in iter_sections(sections, 1) if (n := norm(s["title"])) and not NON_BODY.match(n)
                  and (depth is None or lv <= depth))
    want = Counter(n for t in expected if (n := norm(t)) and not NON_BODY.match(n))
    hit = sum((got & want).values())
    return hit, sum(got.values()), sum(want.values()), sorted((got - want).elements()) + \
        [f"MISSED {m}" for m in sorted((want - got).elements())]


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--mirror", default="/work/.mirror")
    ap.add_argument("--folder", help="a folder holding the PDFs and expected files under their base names")
    ap.add_argument("--only", default="", help="run only the files whose name contains this")
    ap.add_argument("--group", choices=GROUPS,
                    help="run only the files of this group")
    ap.add_argument("--layout", action="store_true", help="the layout rules alone: every outline passed over")
    ap.add_argument("-v", "--verbose", action="store_true", help="list wrong and missed headings")
    args = ap.parse_args(argv)
    totals: dict[tuple[str, str], Counter] = {}
    print(f"{'file':<28} {'layout':<44} {'route':<10} {'P':>5} {'R':>5} {'outside':>8}  headings from")
    used: Counter = Counter()
    for (layout, repo, path, how), apart in [(f, None) for f in FILES] + [
            (f, g) for g, (files, _) in APART.items() for f in files]:
        name = Path(path).name
        group = apart or ("tuned" if name in TUNED else "fresh" if name in FRESH
                          else "fresh2" if name in FRESH2 else "fresh3" if name in FRESH3 else "seen")
        if args.only not in path or args.group not in (None, group):
            continue
        pdf = read(args, repo, path)
        kind, _, exp_path = how.partition(":")
        raw = read(args, repo, exp_path) if kind in ("tei", "nlm", "docling") else pdf
        heads, body, outside = {"tei": expected_tei, "nlm": expected_nlm, "docling": expected_docling,
                                "outline": expected_outline, "read": expected_outline,
                                "outline-top": lambda d: expected_outline(d, True)}[kind](raw)
        heads = (APART[apart][1] if apart else HEADINGS).get(name, heads)
        if kind == "read":  # no outline to cut the after-references text at an appendix: the read headings do
            outside = cut_at_headings(outside, heads)
        depth = 1 if kind == "outline-top" else outline_depth(pdf) if kind == "outline" else None
        routes = [("pdfplumber", lambda: read_pdf(pdf, outline=not args.layout))]
        if kind == "tei":
            routes.append(("grobid", lambda: parse_tei(raw)))
        for route, run in routes:
            try:
                got = run()
            except PdfError as exc:
                print(f"{name[:28]:<28} {layout[:44]:<44} {route:<10} failed: {exc}")
                got = []
            sections, via = (got.sections, got.route) if hasattr(got, "route") else (got, "grobid" if got else "-")
            if route == "pdfplumber":
                used[via] += 1
            hit, got, want, wrong = score(sections, heads, depth)
            cov, words = outside_share([p for _, s in iter_sections(sections) for p in s["paragraphs"]], body,
                                       outside)
            # group "seen": the first held-out set; "not-outl": files whose expected side is not the PDF's
            # outline (read, TEI, NLM, docling), where the outline route is not scored against its own input
            keys = [(route, "all"), (route, group)] + ([(route, "not-outl")] if not kind.startswith("outline") else [])
            for key in keys:
                totals.setdefault(key, Counter()).update(hit=hit, got=got, want=want, cov=cov, words=words)
            tag = f" ({group})"
            print(f"{name[:28]:<28} {layout[:44]:<44} {route:<10} {hit / max(got, 1):5.2f} {hit / max(want, 1):5.2f} "
                  f"{100 * cov / max(words, 1):7.2f}%{tag} {via}")
            if args.verbose and wrong:
                print("      " + "; ".join(wrong))
    f1 = 0.0
    for (route, subset), t in sorted(totals.items()):
        p, r = t["hit"] / max(t["got"], 1), t["hit"] / max(t["want"], 1)
        f = 2 * p * r / (p + r) if p + r else 0.0
        print(f"overall {route} {subset:<8}: P {p:.2f} R {r:.2f} F1 {f:.2f} outside "
              f"{100 * t['cov'] / max(t['words'], 1):.2f}% ({t['want']} headings expected)")
        if route == "pdfplumber" and subset == "all":
            f1 = f
    print("pdfplumber route, headings from: " + ", ".join(f"{v} {n}" for v, n in sorted(used.items())))
    print(f"paper_pdf_layouts_heading_f1: {f1:.2f} F1")


if __name__ == "__main__":
    main()
