"""Patent <-> paper matching (Pap2Pat), precision first, vectorised in polars; every threshold a parameter.

Pipeline, as the authors' step_02/step_03 (boschresearch/Pap2Pat) with their defaults: inventors are matched to
paper authors by name (`transforms.person_names`: transliterated, apostrophes, ae/oe/ue, initials, name order,
joined hyphens and particles; `names="exact"` keeps the paper's exact-alias rule); patents with >= 2 inventors;
author overlap (share of inventors that are authors) >= 0.8; paper date within -365..+730 days of the application
filing; term overlap of titles and of abstracts (spaCy tokens minus spaCy stop words and punctuation, NLTK's Porter
stems), weighted by the smoothed IDF ln((1 + N) / (1 + df)) + 1 over the candidate documents (title + abstract;
`idf_table`: ours estimates the df of the authors' ~930k documents from our candidates and an English word-frequency
prior), min- and max-normalised, kept when both min >= 0.15 and both max >= 0.1; near-duplicate papers of one
patent (title copy similarity >= 0.8 and abstract >= 0.6, or an abstract under 80 characters) merged first, keeping
the longer abstract; distinctiveness per patent: a candidate survives only when it beats every other remaining
candidate of its patent in 3 of the 4 scores by 0.15 (min) / 0.1 (max); a paper matched to several patents is
dropped; then the licence filter (CC-BY, CC0, public domain; the arXiv lookup is the build's, stages/build_pap2pat).
`distinct="pooled"` is the older rule (margins over the best competitor of the patent or the paper). Every pair keeps
its evidence. Stemming runs once per distinct token.
"""
from __future__ import annotations

import logging
import math
from dataclasses import dataclass
from difflib import SequenceMatcher
from functools import lru_cache

import polars as pl

from transforms.person_names import fold_names, name_parts, same_person, variant_keys

log = logging.getLogger(__name__)
OPEN_LICENCES = ("cc-by", "cc0", "public-domain")
SCORES = ("title_min", "title_max", "abstract_min", "abstract_max")


@dataclass(frozen=True)
class MatchParams:
    """Thresholds of the matcher (SPEC defaults)."""
    min_inventors: int = 2
    min_author_overlap: float = 0.8
    days_before: int = 365
    days_after: int = 730
    min_normalised: float = 0.15
    max_normalised: float = 0.1
    margin_min: float = 0.15
    margin_max: float = 0.1
    scores_to_win: int = 3
    allow_middle_drop: bool = True
    # who competes in the distinctiveness test: "dated" = every author+date candidate (precision first: a
    # pair whose true rival failed the term threshold cannot win by default), "scored" = only pairs that
    # passed the term thresholds (the literal SPEC order)
    competitors: str = "dated"
    licences: tuple[str, ...] = OPEN_LICENCES
    # "initials" (default): person_names rules with first names agreeing on their initial (metadata without
    # alternative names: the best rule with no false pair over the release's 1,813 x 1,813); "fuzzy": first names
    # equal or one an initial; "exact": the paper's rule, a name equals an alias (case and diacritics folded)
    names: str = "initials"
    name_variants: bool = True  # also compare `person_names.name_variants` spellings (not with names="exact")
    idf: str = "prior"  # `idf_table`: "candidates" = the authors' smoothed IDF over our candidate documents
    distinct: str = "patent"  # the authors' per-patent test; "pooled": margins over patent and paper competitors
    merge_duplicates: bool = True
    duplicate_title: float = 0.8
    duplicate_abstract: float = 0.6
    short_abstract: int = 80  # an abstract this short (or missing) does not block a duplicate


# ---------- stemming ----------

@lru_cache(maxsize=1)
def _stemmer():
    from nltk.stem import PorterStemmer  # the authors' stemmer (NLTK's Porter with its extensions), pure Python

    return PorterStemmer()


@lru_cache(maxsize=200_000)
def porter_stem(word: str) -> str:
    """NLTK's Porter stem, as the authors' `get_terms` ('connections' -> 'connect', 'array' -> 'array')."""
    return _stemmer().stem(word)


# ---------- names ----------

def normalise_name(expr: pl.Expr) -> pl.Expr:
    """'Jörg-Peter  Müller.' -> 'jorg peter muller' (`person_names.fold_name`, ae/oe/ue as a/o/u)."""
    return fold_names(expr)


def _keys(frame: pl.LazyFrame, raw: pl.Expr, variants: bool) -> pl.LazyFrame:
    """Adds key (folded name) and primary (the name as folded, not one of its `name_variants`), one row per key."""
    if not variants:
        return frame.with_columns(normalise_name(raw).alias("key"), pl.lit(True).alias("primary"))
    keyed = frame.with_columns(variant_keys(raw).alias("key")).with_columns(
        pl.int_ranges(0, pl.col("key").list.len()).alias("variant")).explode("key", "variant")
    return keyed.with_columns((pl.col("variant") == 0).alias("primary")).drop("variant")


def explode_inventors(patents: pl.LazyFrame, min_inventors: int = 2, variants: bool = False) -> pl.LazyFrame:
    """(pub_id, inv_idx, key, primary, first_tok, last_tok, mid, n_inventors) for patents with enough inventors
    (`variants`: a row per `person_names.name_variants` key)."""
    inv = (patents.select("pub_id", "inventors").with_columns(pl.col("inventors").list.len().alias("n_inventors"))
           .filter(pl.col("n_inventors") >= min_inventors).explode("inventors")
           .with_columns(pl.int_range(pl.len()).over("pub_id").alias("inv_idx"))
           .unnest("inventors"))
    full = pl.when(pl.col("first").is_not_null() & pl.col("last").is_not_null()) \
        .then(pl.concat_str("first", pl.lit(" "), "last")).otherwise(pl.col("name"))
    inv = _keys(inv.select("pub_id", "inv_idx", "n_inventors", full.alias("raw")), pl.col("raw"), variants)
    inv = inv.filter(pl.col("key").is_not_null() & (pl.col("key") != ""))
    return name_parts(inv.select("pub_id", "inv_idx", "key", "primary", "n_inventors"), "key")


def explode_aliases(papers: pl.LazyFrame, variants: bool = False) -> pl.LazyFrame:
    """(work_id, author_id, key, primary, first_tok, last_tok, mid): one row per distinct normalised alias."""
    al = (papers.select("work_id", "authors").explode("authors").unnest("authors")
          .with_columns(pl.concat_list(pl.col("name"), pl.col("alt_names").fill_null([])).alias("alias"))
          .explode("alias").select("work_id", pl.col("id").alias("author_id"), "alias"))
    al = (_keys(al, pl.col("alias"), variants).filter(pl.col("key").is_not_null() & (pl.col("key") != ""))
          .group_by("work_id", "author_id", "key").agg(pl.col("primary").any()))
    return name_parts(al, "key")


def match_authors(inventors: pl.LazyFrame, aliases: pl.LazyFrame, allow_middle_drop: bool = True,
                  names: str = "fuzzy") -> pl.LazyFrame:
    """Inventor-author name matches (pub_id, inv_idx, work_id, author_id, exact) by `person_names.same_person`;
    differing middle initials block."""
    if names not in ("fuzzy", "exact", "initials"):
        raise ValueError(f"names must be 'fuzzy', 'exact' or 'initials', not {names!r}")
    pairs = same_person(inventors, aliases, names != "exact", allow_middle_drop, names == "initials")
    pairs = pairs.with_columns(pl.col("exact") & pl.col("primary") & pl.col("primary_a"))
    return (pairs.group_by("pub_id", "inv_idx", "work_id", "author_id")
            .agg(pl.col("exact").any(), pl.col("n_inventors").first()))


def author_candidates(inventors: pl.LazyFrame, aliases: pl.LazyFrame, params: MatchParams) -> pl.LazyFrame:
    """(pub_id, work_id, author_overlap, n_matched, all_exact) with overlap >= the threshold."""
    m = match_authors(inventors, aliases, params.allow_middle_drop, params.names)
    return (m.group_by("pub_id", "work_id")
            .agg(pl.col("inv_idx").n_unique().alias("n_matched"), pl.col("n_inventors").first(),
                 pl.col("exact").all().alias("all_exact"))
            .with_columns((pl.col("n_matched") / pl.col("n_inventors")).alias("author_overlap"))
            .filter(pl.col("author_overlap") >= params.min_author_overlap)
            .drop("n_inventors"))


# ---------- terms ----------

@lru_cache(maxsize=1)
def _tokenizer():
    import spacy  # the rule-based English tokenizer of en_core_web_sm, without its model

    return spacy.blank("en").tokenizer


@lru_cache(maxsize=200_000)  # polars may evaluate a lazy branch more than once
def text_words(text: str | None) -> tuple[tuple[str, str], ...]:
    """(term, word) of the authors' `get_terms`: spaCy tokens minus stop words, punctuation and blanks, the
    lower-cased word and its Porter stem; sorted, distinct."""
    words = {t.text.strip().lower() for t in _tokenizer()(text or "")
             if not (t.is_stop or t.is_punct or not t.text.strip())}
    return tuple(sorted({(porter_stem(w), w) for w in words}))


def text_terms(text: str | None) -> tuple[str, ...]:
    """The authors' `get_terms` as a sorted set of stems."""
    return tuple(sorted({term for term, _ in text_words(text)}))


_WORDS = pl.List(pl.Struct({"term": pl.String, "word": pl.String}))


def _terms(frame: pl.LazyFrame, id_col: str, kind: str) -> pl.LazyFrame:
    """(doc, field, term, word) of title and abstract (`text_words`, once per distinct text)."""
    parts = []
    for fld in ("title", "abstract"):
        texts = frame.select(pl.concat_str(pl.lit(kind + ":"), pl.col(id_col)).alias("doc"), pl.lit(fld).alias("field"),
                             pl.col(fld).fill_null("").alias("text"))
        vocab = texts.select("text").unique().with_columns(pl.col("text").map_elements(
            lambda t: [{"term": a, "word": b} for a, b in text_words(t)], return_dtype=_WORDS).alias("tw"))
        parts.append(texts.join(vocab, on="text").select("doc", "field", "tw").explode("tw").unnest("tw"))
    return pl.concat(parts).drop_nulls("term")


@lru_cache(maxsize=1)
def english_frequencies() -> pl.DataFrame:
    """(word, freq): wordfreq's large English list (share of running words), shipped inside the package."""
    from wordfreq import get_frequency_dict

    freq = get_frequency_dict("en", wordlist="large")
    return pl.DataFrame({"word": list(freq), "freq": list(freq.values())})


def idf_table(terms: pl.LazyFrame, mode: str = "prior", corpus_docs: int = 930_000, doc_words: int = 200
              ) -> pl.LazyFrame:
    """(term, idf) over the (doc, field, term, word) rows of the candidate documents.

    `candidates`: the authors' smoothed IDF ln((1 + n) / (1 + df)) + 1 over the n candidate documents;
    `all`: ln(n / df); `prior` (default): the authors' formula over their corpus size N (`corpus_docs`, ~930k
    candidate documents), with the term's document share estimated as the geometric mean of its share among our n
    candidates (df / n) and its share in general English, 1 - exp(-L p) for a document of L running words
    (`doc_words`) and p the wordfreq frequency summed over the term's words here (0 when none is listed). A few
    thousand candidates cannot tell a rare term from a very rare one, the authors' ~930k could; the English prior
    ranks the rare ones (a stated departure)."""
    if mode not in ("candidates", "all", "prior"):
        raise ValueError(f"idf must be 'candidates', 'all' or 'prior', not {mode!r}")
    n = terms.select(pl.col("doc").n_unique().alias("n"))
    df = terms.select("doc", "term").unique().group_by("term").agg(pl.len().alias("df")).join(n, how="cross")
    if mode == "candidates":
        return df.select("term", (((pl.col("n") + 1) / (pl.col("df") + 1)).log() + 1).alias("idf"))
    if mode == "all":
        return df.select("term", (pl.col("n") / pl.col("df")).log().alias("idf"))
    p = (terms.select("term", "word").unique().join(english_frequencies().lazy(), on="word", how="left")
         .group_by("term").agg(pl.col("freq").fill_null(0.0).sum().alias("p")))
    big = float(corpus_docs)
    local = (big * pl.col("df") / pl.col("n") + 1).log()
    english = (big * (1 - (-doc_words * pl.col("p")).exp()) + 1).log()
    return df.join(p, on="term").select("term", (math.log(1 + big) + 1 - (local + english) / 2).alias("idf"))


def term_overlaps(cands: pl.LazyFrame, patents: pl.LazyFrame, papers: pl.LazyFrame,
                  idf_mode: str = "prior") -> pl.LazyFrame:
    """Adds title_min/max and abstract_min/max (IDF-weighted, `idf_table`) to (pub_id, work_id) candidates; the
    IDF runs over the candidate documents (title + abstract), or over every patent and paper given (`all`)."""
    if idf_mode in ("candidates", "prior"):
        patents = patents.join(cands.select("pub_id").unique(), on="pub_id", how="semi")
        papers = papers.join(cands.select("work_id").unique(), on="work_id", how="semi")
    words = pl.concat([_terms(patents, "pub_id", "P"), _terms(papers, "work_id", "W")]).cache()
    idf = idf_table(words, idf_mode)
    terms = words.select("doc", "field", "term").unique()
    weighted = terms.join(idf, on="term")
    mass = weighted.group_by("doc", "field").agg(pl.col("idf").sort().sum().alias("mass"))
    c = cands.select("pub_id", "work_id").with_columns(
        pl.concat_str(pl.lit("P:"), "pub_id").alias("pdoc"), pl.concat_str(pl.lit("W:"), "work_id").alias("wdoc"))
    shared = (c.join(weighted.rename({"doc": "pdoc"}), on="pdoc")
              .join(weighted.select(pl.col("doc").alias("wdoc"), "field", "term"), on=["wdoc", "field", "term"])
              .group_by("pub_id", "work_id", "field").agg(pl.col("idf").sort().sum().alias("shared")))
    grid = (c.join(pl.LazyFrame({"field": ["title", "abstract"]}), how="cross")
            .join(mass.rename({"doc": "pdoc", "mass": "pm"}), on=["pdoc", "field"], how="left")
            .join(mass.rename({"doc": "wdoc", "mass": "wm"}), on=["wdoc", "field"], how="left")
            .join(shared, on=["pub_id", "work_id", "field"], how="left")
            .with_columns(pl.col("shared", "pm", "wm").fill_null(0.0)))
    lo, hi = pl.min_horizontal("pm", "wm"), pl.max_horizontal("pm", "wm")
    scored = grid.with_columns(
        pl.when(lo > 0).then(pl.col("shared") / lo).otherwise(0.0).alias("min"),
        pl.when(hi > 0).then(pl.col("shared") / hi).otherwise(0.0).alias("max"))
    wide = scored.group_by("pub_id", "work_id").agg(
        *[pl.col(k).filter(pl.col("field") == f).first().alias(f"{f}_{k}") for f in ("title", "abstract")
          for k in ("min", "max")])
    return cands.join(wide, on=["pub_id", "work_id"], how="left")


# ---------- distinctiveness ----------

def _best_other(score: str, group: str) -> pl.Expr:
    """Highest competing score within `group` (null when the pair has no competitor)."""
    s = pl.col(score)
    top = s.max().over(group)
    n_top = (s == top).sum().over(group)
    second = s.sort(descending=True).slice(1, 1).first().over(group)
    alone = pl.len().over(group) == 1
    return pl.when(alone).then(None).when((s == top) & (n_top == 1)).then(second).otherwise(top)


def add_margins(pairs: pl.LazyFrame, params: MatchParams) -> pl.LazyFrame:
    """Per score: margin over the best competitor sharing the patent or the paper; wins counted."""
    exprs, wins = [], []
    for score in SCORES:
        other = pl.max_horizontal(_best_other(score, "pub_id"), _best_other(score, "work_id"))
        exprs.append((pl.col(score) - other).alias(f"m_{score}"))
    out = pairs.with_columns(exprs)
    for score in SCORES:
        need = params.margin_min if score.endswith("_min") else params.margin_max
        wins.append(pl.col(f"m_{score}").is_null() | (pl.col(f"m_{score}") >= need))
    won = [pl.when(w & pl.col(f"m_{s}").is_not_null()).then(pl.col(f"m_{s}")) for w, s in zip(wins, SCORES)]
    return out.with_columns(pl.sum_horizontal([w.cast(pl.Int8) for w in wins]).alias("n_wins"),
                            pl.min_horizontal(won).alias("margin"))


def beat_every_rival(pairs: pl.LazyFrame, params: MatchParams) -> pl.LazyFrame:
    """The authors' test per patent: `n_wins` = the fewest scores in which the pair beats one of its patent's other
    candidates by the margin (4 without rivals); it is distinct when that is >= `scores_to_win` for every rival."""
    s = pairs.select("pub_id", "work_id", *SCORES)
    need = {k: params.margin_min if k.endswith("_min") else params.margin_max for k in SCORES}
    wins = pl.sum_horizontal([(pl.col(k) >= pl.col(f"{k}_o") + need[k]).cast(pl.Int8) for k in SCORES])
    rivals = (s.join(s, on="pub_id", suffix="_o").filter(pl.col("work_id") != pl.col("work_id_o"))
              .group_by("pub_id", "work_id").agg(wins.min().alias("n_wins")))
    return pairs.drop("n_wins", strict=False).join(rivals, on=["pub_id", "work_id"], how="left").with_columns(
        pl.col("n_wins").fill_null(len(SCORES)).cast(pl.Int32))


# ---------- near-duplicate papers ----------

def copy_similarity(a: str | None, b: str | None) -> float:
    """Share of characters in the blocks two lower-cased texts have in common: 2 * copied / (len(a) + len(b))."""
    a, b = (a or "").lower(), (b or "").lower()
    if not a and not b:
        return 0.0
    copied = sum(m.size for m in SequenceMatcher(None, a, b, autojunk=False).get_matching_blocks())
    return 2 * copied / (len(a) + len(b))


def _duplicate(row: dict, params: MatchParams) -> bool:
    if row["work_id"] >= row["work_id_b"]:  # polars evaluates the struct before the join's filter
        return False
    if copy_similarity(row["title"], row["title_b"]) < params.duplicate_title:
        return False
    short = min(len(row["abstract"] or ""), len(row["abstract_b"] or "")) <= params.short_abstract
    return short or copy_similarity(row["abstract"], row["abstract_b"]) >= params.duplicate_abstract


def drop_duplicate_papers(cands: pl.LazyFrame, papers: pl.LazyFrame, params: MatchParams) -> pl.LazyFrame:
    """Candidates of one patent that are the same paper twice (a preprint and its journal version) merged first:
    the one with the shorter abstract leaves (ties: the larger work id), so the two do not block each other."""
    c = cands.select("pub_id", "work_id").join(papers.select("work_id", "title", "abstract"), on="work_id")
    pairs = c.join(c, on="pub_id", suffix="_b").filter(pl.col("work_id") < pl.col("work_id_b"))
    dup = pl.struct("work_id", "work_id_b", "title", "title_b", "abstract", "abstract_b").map_elements(
        lambda r: _duplicate(r, params), return_dtype=pl.Boolean)
    shorter = pl.when(pl.col("abstract").fill_null("").str.len_chars() >= pl.col("abstract_b").fill_null("")
                      .str.len_chars()).then(pl.col("work_id_b")).otherwise(pl.col("work_id"))
    losers = pairs.filter(dup).select("pub_id", shorter.alias("work_id")).unique()
    return cands.join(losers, on=["pub_id", "work_id"], how="anti")


# ---------- pipeline ----------

def match_stages(patents: pl.LazyFrame, papers: pl.LazyFrame, params: MatchParams = MatchParams()
                 ) -> dict[str, pl.LazyFrame]:
    """The matcher's funnel as lazy frames, in order: candidates (names + overlap), dated, distinct_papers
    (near-duplicates merged), term_overlap (thresholds passed), distinct (rivals beaten), one_to_one, licensed."""
    head = _scored_stages(patents, papers, params)
    ranked = _ranked_stages(head["scored"].cache(), params)  # Python UDFs in the scoring: evaluate them once
    return {**{k: head[k] for k in ("candidates", "dated", "distinct_papers")}, **ranked}


def _scored_stages(patents: pl.LazyFrame, papers: pl.LazyFrame, params: MatchParams) -> dict[str, pl.LazyFrame]:
    """The funnel up to the term-overlap scores of every dated candidate (`scored`, the competitors' pool)."""
    variants = params.name_variants and params.names != "exact"
    cands = author_candidates(explode_inventors(patents, params.min_inventors, variants),
                              explode_aliases(papers, variants), params)
    dated = (cands.join(patents.select("pub_id", "app_date"), on="pub_id")
             .join(papers.select("work_id", "pub_date", "license"), on="work_id")
             .with_columns((pl.col("pub_date") - pl.col("app_date")).dt.total_days().cast(pl.Int32).alias("day_delta"))
             .filter(pl.col("day_delta").is_between(-params.days_before, params.days_after)))
    merged = drop_duplicate_papers(dated, papers, params) if params.merge_duplicates else dated
    scored = term_overlaps(merged.cache(), patents, papers, params.idf)
    return {"candidates": cands, "dated": dated, "distinct_papers": merged, "scored": scored}


def _ranked_stages(scored: pl.LazyFrame, params: MatchParams) -> dict[str, pl.LazyFrame]:
    """From the scored candidates: term_overlap (thresholds passed), distinct (rivals beaten), one_to_one, licensed."""
    passes = ((pl.col("title_min") >= params.min_normalised) & (pl.col("abstract_min") >= params.min_normalised)
              & (pl.col("title_max") >= params.max_normalised) & (pl.col("abstract_max") >= params.max_normalised))
    if params.competitors == "scored":
        scored = scored.filter(passes)
    elif params.competitors != "dated":
        raise ValueError(f"competitors must be 'dated' or 'scored', not {params.competitors!r}")
    margins = add_margins(scored, params)
    if params.distinct == "patent":
        margins = beat_every_rival(margins, params)
    elif params.distinct != "pooled":
        raise ValueError(f"distinct must be 'patent' or 'pooled', not {params.distinct!r}")
    distinct = margins.filter(passes & (pl.col("n_wins") >= params.scores_to_win))
    one_to_one = distinct.filter((pl.len().over("pub_id") == 1) & (pl.len().over("work_id") == 1))
    licensed = one_to_one.filter(pl.col("license").is_in(list(params.licences)))
    return {"term_overlap": scored.filter(passes), "distinct": distinct, "one_to_one": one_to_one, "licensed": licensed}


def match_pairs(patents: pl.LazyFrame, papers: pl.LazyFrame, params: MatchParams = MatchParams()) -> pl.LazyFrame:
    """patents (pub_id, app_date, title, abstract, inventors) x papers (`papers` schema) -> evidence pairs.

    Returns every `patent_paper_pairs` column plus n_matched, all_exact, license and n_wins."""
    return _pair_columns(match_stages(patents, papers, params)["licensed"])


def _pair_columns(licensed: pl.LazyFrame) -> pl.LazyFrame:
    return licensed.select("pub_id", "work_id", "author_overlap", "day_delta", *SCORES, "margin", "n_matched",
                           "all_exact", "license", "n_wins").sort("pub_id", "work_id")


def funnel_counts(stages: dict[str, pl.LazyFrame]) -> dict[str, int]:
    """Pairs left after each stage of `match_stages`, collected together (their shared plan runs once)."""
    counts = pl.collect_all([frame.select(pl.len()) for frame in stages.values()])
    return {name: int(c.item()) for name, c in zip(stages, counts)}


def pairs_and_funnel(patents: pl.LazyFrame, papers: pl.LazyFrame, params: MatchParams = MatchParams()
                     ) -> tuple[pl.DataFrame, dict[str, int]]:
    """`match_pairs` and the `funnel_counts` of its stages, the matcher run once: the scored candidates are
    collected with the first counts, and the ranking stages run on that frame (collecting each count of the
    lazy funnel apart planned and ran the whole matcher 8 times)."""
    head = _scored_stages(patents, papers, params)
    names = ("candidates", "dated", "distinct_papers")
    scored, *counts = pl.collect_all([head["scored"]] + [head[k].select(pl.len()) for k in names])
    tail = _ranked_stages(scored.lazy(), params)
    pairs, *tail_counts = pl.collect_all([_pair_columns(tail["licensed"])]
                                         + [frame.select(pl.len()) for frame in tail.values()])
    return pairs, {name: int(c.item()) for name, c in zip((*names, *tail), (*counts, *tail_counts))}


def collect_ranked_stage(patents: pl.LazyFrame, papers: pl.LazyFrame, stage: str,
                         params: MatchParams = MatchParams()) -> pl.DataFrame:
    """One ranking stage of `match_stages` (term_overlap, distinct, one_to_one, licensed) collected in two steps,
    as `pairs_and_funnel` does: the scored candidates first, the ranking on that frame (a fraction of the plan)."""
    scored = _scored_stages(patents, papers, params)["scored"].collect()
    return _ranked_stages(scored.lazy(), params)[stage].collect()


def inventor_query_names(patents: pl.LazyFrame, min_inventors: int = 2) -> pl.LazyFrame:
    """Distinct (name) spellings to look up on SemOpenAlex for patents with enough inventors.

    The SPARQL lookup matches `foaf:name` / `alternativeName` exactly, so each inventor is asked for
    as printed, as 'first last', title-cased when printed in capitals ('AMIYA' -> 'Amiya') and with
    diacritics folded; the matcher then compares normalised names itself."""
    inv = (patents.select("inventors").filter(pl.col("inventors").list.len() >= min_inventors)
           .explode("inventors").unnest("inventors"))
    joined = pl.when(pl.col("first").is_not_null() & pl.col("last").is_not_null()) \
        .then(pl.concat_str("first", pl.lit(" "), "last"))
    forms = pl.concat([inv.select(pl.col("name").alias("q")), inv.select(joined.alias("q"))])
    forms = forms.with_columns(pl.col("q").str.strip_chars().str.replace_all(r"\s+", " "))
    titled = forms.select(pl.col("q").str.to_titlecase())
    folded = forms.select(pl.col("q").str.normalize("NFKD").str.replace_all(r"\p{Mn}", ""))
    return (pl.concat([forms, titled, folded]).drop_nulls().filter(pl.col("q").str.len_chars() > 1)
            .unique().sort("q"))
