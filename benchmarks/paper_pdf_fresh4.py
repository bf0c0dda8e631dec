"""FRESH4: a fifth held-out set of real paper PDFs for `paper_pdf_layouts.py` (issue 41), expected side only.

Every file in `paper_pdf_layouts.FILES` had been looked at by the authors of the pdfplumber rules by the time
this set was gathered, so the issue's goal ("on layouts you did not tune on") needed files nobody on the
project had seen. This module holds 17 of them: `FILES4` (tuples as in FILES: layout, repo, path, "read")
and `HEADINGS4` (base name -> headings, as HEADINGS). It imports nothing from the project; the benchmark
loads it.

Gathered: from public GitHub repositories' test or example folders that no earlier round used
(kermitt2/entity-fishing's PDF examples, allenai/mmda's fixtures, kermitt2/grobid_client_python's test PDF,
metachris/pdfx's tests, inspirehep/refextract's test data, pymupdf/pymupdf4llm's tests), read from the
`fetch` mirrors at the commits named below. Each file was checked against every file of FILES by repository,
path and content sha256 (none matches; `SHA256_4` holds each file's digest). Kept: research articles of a
publisher's or a template's layout that no earlier round has (Oxford NAR, ASBMB MCP, Wiley/Blackwell,
J. Korean Med. Sci., IDOSI, older MDPI, BMC/Springer Nature, ACM CCS, MNRAS, AASTeX, JACoW, revtex,
CoRL/NIPS, CVPR-family, bioRxiv and medRxiv Word preprints, an ACS-style letter). Left out: the tracemonkey
copies in pdf.js (a paper already in FILES), the PoS proceedings 2503.05621 (its title and much of its text
are math glyphs), theses, slide decks, forms, books and 1-3 page fragments.

Labelled: by reading the pages, never by running a route of this project (sources.paper_pdf, sources.grobid,
the benchmark, `pf`) on these files: every line's words from pdfplumber (`extract_words(extra_attrs=
["fontname", "size"])`, grouped by column and baseline) with the line's dominant font and size, the lines
whose font or size differs from the body's listed page by page, and `extract_text()` / `extract_text_lines()`
searched for numbered and upper-case lines (a heading set in the body font). Each heading is written as the page
sets it (numbers, case and trailing colons kept; the benchmark compares without them), wrapped lines joined;
run-in paragraph heads ("Single Treatment of Larvae: ...", "Description of HMM structures. ...") are left out,
as are the title, the author block and captions. Front and back matter that the benchmark's NON_BODY names
(abstract, references, acknowledgements, competing interests, authors' contributions, funding, author details,
conflicts of interest) are left out; other back-matter headings set as headings (Data Availability,
Abbreviations, Supplementary Data, AUTHOR INFORMATION) are expected, as earlier rounds did (PeerJ's "Data
Availability"); a misspelt heading is expected as set (IDOSI's "DISSCUSION" and "REFFERENCES", as IJCAI's
"Acknowledegments"). No outline was looked at: five files have one (noted per file), so the lead can report
the figures for files with and without an outline; no file is tagged (none has /StructTreeRoot).

Outside-body share: two files' reference heads are not a bare "References" line (IDOSI's "REFFERENCES",
bioRxiv's "References:"), so the benchmark's after-references text is empty there (not measured).
"""
from __future__ import annotations

# folders of kermitt2/entity-fishing and allenai/mmda (commits in the note above SHA256_4)
EF = "src/main/resources/web/resources/pdf-examples"
MMDA_FT = "src/ai2_internal/figure_table_predictors/test_fixtures"
MMDA_BIB = "src/ai2_internal/bibentry_detection_predictor/data"

HEADINGS4 = {
    # Nucleic Acids Research 2006 (Oxford, 3B2 + Distiller), 11 pages, two columns; outline no, tagged no.
    # Sections in bold capitals, subsections in bold italic at body size (one wraps: "Performance assessment of
    # multiple sequence / alignment programs"); italic run-in heads ("Description of HMM structures.",
    # "Conflict of interest statement.") left out. "SUPPLEMENTARY DATA" is a section of one line (not NON_BODY).
    "PMC1636350.pdf": [
        "INTRODUCTION", "MATERIALS AND METHODS", "Training and testing datasets of SCOP domain pairs",
        "HMMs of pairwise sequence alignment", "Multiple sequence alignment procedure",
        "Performance assessment of multiple sequence alignment programs", "Availability", "RESULTS",
        "Complex HMMs with local structural information improve pairwise alignments",
        "MUMMALS and multiple sequence alignment tests", "Secondary structure prediction and alignment quality",
        "Evaluation of programs with reference-independent scores",
        "Pairwise comparisons of multiple sequence aligners", "DISCUSSION",
        "Comparison of multiple sequence alignment programs", "Time complexity of HMMs and MUMMALS",
        "Methods for alignment quality evaluation", "Multiple sequence alignment: still an unsolved problem",
        "SUPPLEMENTARY DATA"],
    # Molecular & Cellular Proteomics 2009 (ASBMB, XPP), 16 pages, two columns; outline no, tagged no.
    # No introduction heading; sections in 7.5 pt upright capitals (smaller than the 9 pt body), centred;
    # Experimental Procedures' subsections in 8.5 pt italic, centred (two wrap); the results' and methods'
    # italic run-in heads ending in an em dash ("General Work Flow of the Primary Data Analysis—") left out,
    # as is the run-in "Acknowledgments—".
    "PMC2649809.pdf": [
        "EXPERIMENTAL PROCEDURES", "Sample Collection", "Proteomics Platforms",
        "Individual Lab Data Processing and Analysis", "Gene Name and Group Assignments",
        "Deriving a List of Consensus Proteins",
        "Deriving the Rank of Proteins Changes by Combining Ratios across Laboratories",
        "Annotating Proteins for Tissue Specificity and for Changes in HD Brain",
        "Summary of Statistical Analysis Procedures Used to Interrogate the Protein List", "RESULTS",
        "DISCUSSION"],
    # Journal of Korean Medical Science 2005 (Distiller for Mac), 5 pages, two columns, Garamond body; outline
    # no, tagged no. Sections in 11.3 pt bold Helvetica capitals, centred; two subsections in 10 pt Helvetica
    # (not bold) under MATERIALS AND METHODS.
    "PMC2808580.pdf": ["INTRODUCTION", "MATERIALS AND METHODS", "Study subjects", "Methods", "RESULTS",
                       "DISCUSSION"],
    # Medical and Veterinary Entomology 2004 (Blackwell/Wiley, 3B2 + PLOP), review, 13 pages, two columns;
    # outline no, tagged no. All headings in 9 pt bold Helvetica at body size (one level); three wrap over two
    # or three lines; "The control of Aedes albopictus" is set in bold italic. "REVIEW ARTICLE" (a label over
    # the title) is not a heading.
    "species_filter.pdf": [
        "Introduction", "Reports of Aedes albopictus as a vector in the early 20th century",
        "Reports of Ae. albopictus as a vector after 1945",
        "Aedes albopictus as a vector in its areas of recent expansion; Europe, the Americas, the Middle East "
        "and Africa",
        "Aedes albopictus in the Americas and its vector status", "Aedes albopictus in continental Africa",
        "The control of Aedes albopictus", "Conclusions"],
    # bioRxiv preprint 2020 (Word, PScript5 + Distiller), 28 pages, one column, 12 pt; outline no, tagged no.
    # Bold numbered headings at body size, most ending in a colon, three levels ("2.9.1."); the results'
    # subsection 3.5 wraps. Tables fill pages 10-16. "Abbreviations:" and "Data Availability:" are expected
    # (not NON_BODY); the reference head is "References:" (outside share not measured).
    "mesh_filter.pdf": [
        "1. Introduction:", "2. Materials and Methods", "2.1. Data retrieval:",
        "2.2. The Artemis Comparison Tool (ACT):", "2.3. VaxiJen server:", "2.4. BioEdit:",
        "2.5. The Molecular Evolutionary Genetics Analysis (MEGA):", "2.6. Prediction of T-cell epitopes:",
        "2.7. Population coverage analysis:", "2.8. Tertiary structure (3D) Modeling:",
        "2.9. In silico Molecular Docking:", "2.9.1. Ligand Preparation:", "2.9.2. Molecular docking",
        "3. Results:", "3.1. The Artemis Comparison Tool:", "3.2. VaxiJen server:", "3.3. BioEdit:",
        "3.4. The Molecular Evolutionary Genetics Analysis:",
        "3.5. Prediction of T-cell epitopes and population coverage:", "4. Discussion:", "5. Conclusion:",
        "Data Availability:", "Abbreviations:"],
    # medRxiv preprint 2020 (Word, Quartz), 21 pages, one column; outline no, tagged no. Unnumbered 11.7 pt bold
    # headings at body size, all one style; "References" and "Tables, charts and figures" (after the
    # references, holding the tables) in 18 pt bold. Ambiguous: the bold "Authors" over the author list on
    # page 1 is taken for front matter and left out; "Other information" heads Funding, Ethical consideration,
    # Disclosure and Acknowledgement, set in the same style.
    "COVID-19-medRxiv.pdf": [
        "Introduction", "Methods", "Study design and patient selection", "Testing for SARS-CoV-2 infection",
        "Sample size", "Data collection", "Statistical analysis", "Result", "Discussion", "Conclusion",
        "Limitations", "Other information", "Ethical consideration", "Disclosure Conflict of interests",
        "Tables, charts and figures"],
    # MDPI Future Internet 2014 (Word, PScript5 + Distiller; MDPI's 2014 layout, not the 2023 one of FRESH2),
    # 15 pages, one column, 12 pt; outline no, tagged no. Bold numbered sections, italic numbered subsections,
    # both at body size; the numbered "1. What is a city?" lines and the numbered rows of the matrix tables are
    # not headings.
    "test_doc_sha_d0450478c38dda61f9943f417ab9fcdb2ebeae0a.pdf": [
        "1. Introduction", "2. Results and Discussion", "2.1. Main Objectives", "2.2. Scope of Application",
        "3. Experimental Section: Matrix Development", "3.1. Matrix Objectives", "3.2. Matrix Development",
        "4. Smart City Labeling: Case Studies on Matrix Testing", "4.1. TAM (Technologies Analysis Matrix) Testing",
        "4.2. SCM (Smart Cities Qualification Matrix) Testing", "5. Conclusions"],
    # Middle-East Journal of Scientific Research 2015 (IDOSI; Word via XPS), 6 pages, two columns; outline no,
    # tagged no. Centred bold capitals at body size, misspelt as set ("DISSCUSION", "REFFERENCES": not NON_BODY,
    # so expected); bold run-in heads ("Single Treatment of Larvae:") left out.
    "000026bab3c52aa8ff37dc3e155ffbcb506aa1f6.pdf": [
        "INTRODUCTION", "MATERIALS AND METHODS", "RESULTS", "DISSCUSION", "REFFERENCES"],
    # Journal of NeuroEngineering and Rehabilitation 2016 (BioMed Central, Arbortext + Distiller + iText),
    # 9 pages, two columns; outline YES (29 entries, not looked at), tagged no. Sections in 10.3 pt bold sans;
    # two subsection levels at 9.2 pt: upright sans ("Participants") and italic ("Kinematics recording"), one
    # wraps. "Background" is the body's first section (the abstract's "Background:" is run-in). Back matter at
    # 7.5 pt (Competing interests, Authors' contribution, Acknowledgements, Author details) is NON_BODY.
    "0046d83a-edd6-4631-b57c-755cdcce8b7f.pdf": [
        "Background", "Methods", "Participants", "Experimental setup",
        "Neuromuscular electrical stimulation and EMG recording", "Kinematics recording", "Experimental protocol",
        "Scanning the array and selecting the optimal stimulation patterns", "Stimulating at the optimal patterns",
        "Data analysis", "Results", "Optimal patterns vs control measurements",
        "Selectivity with optimal stimulation pattern", "Hand opening with a rotated forearm position",
        "Discussion", "Innovation of the study", "Potential Application for Neurorehabilitation",
        "Possible limitations and future perspectives", "Conclusions"],
    # CVPR-family two-column LaTeX (arXiv 1910.06601, Nimbus), 10 pages; outline no, tagged no. Sections 12 pt,
    # subsections 11 pt, bold; bold run-in paragraph heads ("Knowledge guided neural networks", "Non-spatial vs
    # geospatial statistics") and bold table cells left out; arXiv's margin stamp beside the abstract.
    "e5910c027af0ee9c1901c57f6579d903aedee7f4.pdf": [
        "1. Introduction", "2. Related Work", "3. Methods", "3.1. Getis-Ord G* pooling (G-pooling)",
        "3.2. Definition", "3.3. Network Architecture", "4. Experiments", "4.1. Dataset",
        "4.2. Experimental settings", "4.3. Evaluation Metrics", "4.4. Implementation Details",
        "5. Effectiveness of G-pooling", "6. G-pooling and state-of-the-art methods", "7. Discussion",
        "8. Conclusion"],
    # ACM CCS 2015 (sig-alternate LaTeX, Latin Modern body, Nimbus headings), 13 pages, two columns; outline YES
    # (16 entries, not looked at), tagged no. Numbered capitals sections and numbered subsections, 12 pt bold;
    # bold run-in heads ("Improperly generated groups", "Transition to elliptic curves.") left out;
    # "8. REFERENCES" is NON_BODY once its number is stripped. The text layer drops many inter-word spaces.
    "valid.pdf": [
        "1. INTRODUCTION", "2. DIFFIE-HELLMAN CRYPTANALYSIS", "3. ATTACKING TLS", "3.1 TLS and Diffie-Hellman",
        "3.2 Active Downgrade to Export-Grade DHE", "3.3 512-bit Discrete Log Computations",
        "3.4 Active Attack Implementation", "3.5 Other Weak and Misconfigured Groups",
        "4. STATE-LEVEL THREATS TO DH", "4.1 Scaling NFS to 768- and 1024-bit DH",
        "4.2 Is NSA Breaking 1024-bit DH?", "4.3 Effects of a 1024-bit Break", "5. RECOMMENDATIONS",
        "6. DISCLOSURE AND RESPONSE", "7. CONCLUSION"],
    # MNRAS 2025 (mnras LaTeX, TeX Gyre Termes), 14 pages, two columns; outline YES (9 entries, not looked at),
    # tagged no. Sections in bold capitals, subsections in bold, both at body size (two wrap); bold italic run-in
    # heads ("Fourier Transformed Infrared (FTIR) Spectroscopy: ...") left out; arXiv's margin stamp sits beside
    # "1 INTRODUCTION". "DATA AVAILABILITY" is expected (not NON_BODY).
    "2502.18907.pdf": [
        "1 INTRODUCTION", "2 EXPERIMENTAL METHODS", "3 RESULTS",
        "3.1 DBD-produced carbon dust description: from the macro to the nanoscale",
        "3.2 Determination of H/C ratios", "4 EVOLUTION AFTER IRRADIATION WITH 3 MEV H+: ASTROPHYSICAL IMPLICATIONS",
        "4.1 Carbon structure", "4.2 Destruction rates of aliphatic CH bonds", "5 CONCLUSIONS",
        "DATA AVAILABILITY"],
    # AASTeX 6.1 draft (dvips + Ghostscript, Computer Modern), 21 pages, figures and tables after the
    # references; outline no, tagged no. Sections in upright capitals at body size, centred; subsections in
    # italic at body size, centred; no bold at all.
    "1707.04066v1.pdf": [
        "1. INTRODUCTION", "2. OBSERVATIONS AND DATA PROCESSING", "3. DETECTION EFFICIENCY",
        "4. THE SIZE DISTRIBUTION OF NEOS", "5. DISCUSSION", "5.1. Objects not included in this analysis",
        "5.2. Uncertainties", "5.3. Comparison to previous estimates", "5.4. Implications of our result",
        "6. CONCLUSIONS AND FUTURE WORK"],
    # JACoW IPAC 2018 (LuaTeX), 3 pages, two columns; outline no, tagged no. Unnumbered 12 pt bold capitals
    # sections (one over three lines), 12 pt italic subsections; the copyright stamp runs down the left margin
    # beside several headings, the conference's running heads sit at the foot.
    "wepml008.pdf": [
        "INTRODUCTION", "TUNER TEST RESULTS", "Slow/Coarse Tuner Test", "Fast/Fine Tuner Test",
        "CAVITY TRANSFER FUNCTION AND BACKGROUND NOISE MEASUREMENTS", "CONCLUSION"],
    # revtex two-column physics letter (arXiv 2021, Computer Modern), 8 pages; outline YES (12 entries, not
    # looked at), tagged no. Unnumbered 9 pt bold capitals sections, centred, one 9 pt bold subsection; the
    # bold run-in "Low Energy Trigger Burst Cut:" left out.
    "2110.02751.pdf": [
        "INTRODUCTION", "EXPERIMENTAL CONFIGURATION", "DATA ANALYSIS", "Data Quality Cuts and Efficiencies",
        "CAPTURE SPECTRUM", "NON-CAPTURE SPECTRA", "FITTING", "CONCLUSIONS"],
    # CoRL 2017 (NIPS-derived one-column LaTeX, Nimbus), 10 pages; outline YES (20 entries, not looked at),
    # tagged no. Sections 12 pt and subsections 10 pt, bold; bold table cells ("Majority Voting Ensemble") are
    # not headings; the text layer drops inter-word spaces in places.
    "1706.09498v1.pdf": [
        "1 Introduction", "2 Literature Review", "2.1 Cell Phone Usage Detection",
        "2.2 UCSD's Laboratory of Intelligent and Safe Automobiles Work",
        "2.3 Southeast University Distracted Driver Dataset", "2.4 StateFarm's Dataset", "3 Dataset Design",
        "3.1 Camera Setup", "3.2 Labeling", "3.3 Statistics", "4 Proposed Method", "4.1 Skin Segmentation",
        "4.2 Face & Hands Detection", "4.3 Convolutional Neural Network", "4.4 GA-based Ensemble of Classifiers",
        "5 Experiments", "5.1 Benchmarking", "5.2 Real System", "5.3 Analysis", "6 Conclusion"],
    # ACS-style letter (Word via macOS Quartz), 5 pages, two columns; outline no, tagged no. The body has no
    # headings at all (as in Org. Lett.): bold "Scheme N."/"Table N." captions are not headings. Only the back
    # matter is headed: "AUTHOR INFORMATION" (10.6 pt bold capitals) over "Corresponding Author" and "Notes"
    # (9.6 pt bold); ACKNOWLEDGMENT and REFERENCES are NON_BODY. A file for precision more than recall.
    "test_370.pdf": ["AUTHOR INFORMATION", "Corresponding Author", "Notes"],
}

# (layout, repo, pdf path, expected) as in paper_pdf_layouts.FILES; all "read": headings in HEADINGS4
FILES4 = [
    ("Nucleic Acids Research 2006 (Oxford, 3B2)", "kermitt2/entity-fishing", f"{EF}/PMC1636350.pdf", "read"),
    ("Molecular & Cellular Proteomics 2009 (ASBMB, XPP)", "kermitt2/entity-fishing", f"{EF}/PMC2649809.pdf",
     "read"),
    ("J. Korean Medical Science 2005 (Distiller)", "kermitt2/entity-fishing", f"{EF}/PMC2808580.pdf", "read"),
    ("Medical and Veterinary Entomology 2004 (Wiley/Blackwell, 3B2)", "kermitt2/entity-fishing",
     f"{EF}/species_filter.pdf", "read"),
    ("bioRxiv preprint 2020 (Word, one column)", "kermitt2/entity-fishing", f"{EF}/mesh_filter.pdf", "read"),
    ("medRxiv preprint 2020 (Word, one column)", "kermitt2/entity-fishing", f"{EF}/COVID-19-medRxiv.pdf", "read"),
    ("MDPI Future Internet 2014 (Word)", "allenai/mmda",
     f"{MMDA_FT}/test_doc_sha_d0450478c38dda61f9943f417ab9fcdb2ebeae0a.pdf", "read"),
    ("IDOSI Middle-East J. Sci. Res. 2015 (Word via XPS)", "allenai/mmda",
     f"{MMDA_BIB}/000026bab3c52aa8ff37dc3e155ffbcb506aa1f6.pdf", "read"),
    ("BMC J. NeuroEng. Rehabil. 2016 (Arbortext)", "kermitt2/grobid_client_python",
     "resources/test_pdf/0046d83a-edd6-4631-b57c-755cdcce8b7f.pdf", "read"),
    ("CVPR-family two-column LaTeX (arXiv 2019)", "allenai/mmda",
     "tests/fixtures/e5910c027af0ee9c1901c57f6579d903aedee7f4.pdf", "read"),
    ("ACM CCS 2015 (sig-alternate LaTeX)", "metachris/pdfx", "tests/pdfs/valid.pdf", "read"),
    ("MNRAS 2025 (mnras LaTeX)", "inspirehep/refextract", "tests/data/2502.18907.pdf", "read"),
    ("AASTeX 6.1 draft 2017 (dvips)", "inspirehep/refextract", "tests/data/1707.04066v1.pdf", "read"),
    ("JACoW IPAC 2018 (LuaTeX, 3 pages)", "inspirehep/refextract", "tests/data/wepml008.pdf", "read"),
    ("revtex two-column letter (arXiv 2021)", "inspirehep/refextract", "tests/data/2110.02751.pdf", "read"),
    ("CoRL 2017 (NIPS-style one column)", "inspirehep/refextract", "tests/data/1706.09498v1.pdf", "read"),
    ("ACS-style letter (Word, no body headings)", "pymupdf/pymupdf4llm", "tests/test_370.pdf", "read"),
]

# Content sha256 of each file (checked against every file of FILES: no match), as read at the commits
# kermitt2/entity-fishing 52b097024cd4f3fe91b3539550402eaa81d092fd, allenai/mmda
# 882dcb0e8c13b0346a5b331076d06f03a5cd0702, kermitt2/grobid_client_python
# 7f5a73cf06c041b19ef495ef575d4984da114f7c, metachris/pdfx 9e6864c5f9bcc8801e12c63a64d6efdfd1960494,
# inspirehep/refextract 218f5b645a2d2bd831ae6d878aa077b2112dfb8b, pymupdf/pymupdf4llm
# 6e511542f672438215cbde2363199b864e772987.
SHA256_4 = {
    "PMC1636350.pdf": "a19d4491bc94a8911a01b2afacdca0feb484a5400dc5434b29902071679c6961",
    "PMC2649809.pdf": "ea2dea0c6c275b4eaf83f4a83433a1e4fe45fd7986aba97b3999e58b6d6a5c2d",
    "PMC2808580.pdf": "a02e1ba6facdb283f353a1180499c6f1e8f04773f2f04f1069f7e582c0040931",
    "species_filter.pdf": "ff85a07178f8c810d56481be9d52f15506e60074ca2d2a18a381577bee73f974",
    "mesh_filter.pdf": "3f3ee0cd48539253eff6fbdc792ac7960e0cb661a45c010e64d83199cfdd2e67",
    "COVID-19-medRxiv.pdf": "386e76bee4ede8ffc926ce425c77bcd781d3dc70a5637c203798e0a6537b6321",
    "test_doc_sha_d0450478c38dda61f9943f417ab9fcdb2ebeae0a.pdf":
        "aeeae46124811b779c9171d53e1352be7038e2baabd4c9ecbb208f7ad069f800",
    "000026bab3c52aa8ff37dc3e155ffbcb506aa1f6.pdf": "b25770a5558d713bed5e51f8a245b27bd1844683a750fa7aa3968db2fdd5b99a",
    "0046d83a-edd6-4631-b57c-755cdcce8b7f.pdf": "89f89b74dea7d506324b7a77121261ccc1e25c0be32267d3a14ba17c48007fd5",
    "e5910c027af0ee9c1901c57f6579d903aedee7f4.pdf": "eb1c80bb5a6c974c32608ed1c6f269187f7febb5152b8c94f676b1bc65b1210b",
    "valid.pdf": "34229b5a84df1c71f6a8f6c2fbd22fb444d37a13ea7fdfe2f50f3fe60983e984",
    "2502.18907.pdf": "03cdfb5bfaa805edc42be02c997438d38b4466f15794f65ebe905c86ef4a6f17",
    "1707.04066v1.pdf": "fa0c045a5a0f1a5d42afcc6417ee9e5a6a4db6e0da6e1565da43c2a5133485b2",
    "wepml008.pdf": "187f1a198a21010a999f5824d6dabfcb48d2b505441471a7ddc6aa81b23a426f",
    "2110.02751.pdf": "7f6c24feaa795028369af3694bb26a17715fc02331fa89ab882d6d6934bcef66",
    "1706.09498v1.pdf": "fa47e3479e02a8ed60d05e4ed98291d32b4767f5d77832a6a86666d191031d4a",
    "test_370.pdf": "17bdd312e8fd94036cb1680dca636ac07720a334a4fe36eb4ff81b5e3f44d9ef",
}
