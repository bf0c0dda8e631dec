"""Patent <-> paper matching (Pap2Pat), precision first, vectorised in polars; every threshold a parameter.

Pipeline (SPEC, Pap2Pat): inventors are matched to paper authors by name (diacritics folded, case,
dots and hyphens normalised; a name equals one of the author's aliases, or, optionally, agrees on
first and last name with a middle name dropped on one side — a *conflicting* middle initial always
blocks); patents with >= 2 inventors; author overlap (share of inventors that are authors) >= 0.8;
paper date within -365..+730 days of the application filing; IDF-weighted title and abstract term
overlap (stopwords and punctuation removed, Porter-stemmed), each min- and max-normalised, kept when
both min >= 0.15 and both max >= 0.1; distinctiveness: a pair with competitors (same patent or same
paper) survives only when 3 of its 4 scores beat every competitor by 0.15 (min) / 0.1 (max); then the
licence filter (CC-BY, CC0, public domain) and a 1-to-1 check. Every pair keeps its evidence.
Stemming runs once per distinct token (a vocabulary join), never per row.
"""
from __future__ import annotations

import logging
import re
from dataclasses import dataclass
from functools import lru_cache

import polars as pl

log = logging.getLogger(__name__)
OPEN_LICENCES = ("cc-by", "cc0", "public-domain")
SCORES = ("title_min", "title_max", "abstract_min", "abstract_max")
STOPWORDS = frozenset("""a about above after again against all am an and any are as at be because been before being
below between both but by can could did do does doing down during each few for from further had has have having he
her here hers herself him himself his how i if in into is it its itself just me more most my myself no nor not of
off on once only or other our ours ourselves out over own same she should so some such than that the their theirs
them themselves then there these they this those through to too under until up very was we were what when where
which while who whom why will with would you your yours yourself yourselves also via using use used thereof wherein
whereby herein said one two first second may""".split())


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


# ---------- Porter stemmer (M. F. Porter, 1980), applied once per distinct token ----------


def _cons(w: str, i: int) -> bool:
    if w[i] in "aeiou":
        return False
    return not (w[i] == "y" and i > 0 and _cons(w, i - 1))


def _m(stem: str) -> int:
    """Porter's measure: number of VC sequences in the stem."""
    form = "".join("c" if _cons(stem, i) else "v" for i in range(len(stem)))
    return len(re.findall("vc+", form.lstrip("c")))


def _has_vowel(stem: str) -> bool:
    return any(not _cons(stem, i) for i in range(len(stem)))


def _cvc(w: str) -> bool:
    return len(w) >= 3 and _cons(w, -3 % len(w)) and not _cons(w, len(w) - 2) and _cons(w, len(w) - 1) \
        and w[-1] not in "wxy"


def _replace(w: str, rules: tuple[tuple[str, str], ...], min_m: int) -> str:
    for suf, rep in rules:
        if w.endswith(suf):
            stem = w[: len(w) - len(suf)]
            return stem + rep if _m(stem) > min_m else w
    return w


_STEP2 = (("ational", "ate"), ("tional", "tion"), ("enci", "ence"), ("anci", "ance"), ("izer", "ize"),
          ("abli", "able"), ("alli", "al"), ("entli", "ent"), ("eli", "e"), ("ousli", "ous"), ("ization", "ize"),
          ("ation", "ate"), ("ator", "ate"), ("alism", "al"), ("iveness", "ive"), ("fulness", "ful"),
          ("ousness", "ous"), ("aliti", "al"), ("iviti", "ive"), ("biliti", "ble"))
_STEP3 = (("icate", "ic"), ("ative", ""), ("alize", "al"), ("iciti", "ic"), ("ical", "ic"), ("ful", ""), ("ness", ""))
_STEP4 = ("al", "ance", "ence", "er", "ic", "able", "ible", "ant", "ement", "ment", "ent", "ion", "ou", "ism", "ate",
          "iti", "ous", "ive", "ize")


def _step1(w: str) -> str:
    if w.endswith("sses") or w.endswith("ies"):
        w = w[:-2]
    elif w.endswith("s") and not w.endswith("ss"):
        w = w[:-1]
    if w.endswith("eed"):
        return w[:-1] if _m(w[:-3]) > 0 else w
    for suf in ("ed", "ing"):
        if w.endswith(suf) and _has_vowel(w[: -len(suf)]):
            w = w[: -len(suf)]
            if w.endswith(("at", "bl", "iz")):
                return w + "e"
            if len(w) > 1 and w[-1] == w[-2] and _cons(w, len(w) - 1) and w[-1] not in "lsz":
                return w[:-1]
            return w + "e" if _m(w) == 1 and _cvc(w) else w
    if w.endswith("y") and _has_vowel(w[:-1]):
        w = w[:-1] + "i"
    return w


def _step4(w: str) -> str:
    for suf in sorted(_STEP4, key=len, reverse=True):
        if w.endswith(suf):
            stem = w[: -len(suf)]
            if suf == "ion" and not stem.endswith(("s", "t")):
                return w
            return stem if _m(stem) > 1 else w
    return w


@lru_cache(maxsize=200_000)
def porter_stem(word: str) -> str:
    """Porter stem of a lower-case word ('connections' -> 'connect', 'relational' -> 'relat')."""
    if len(word) <= 2:
        return word
    w = _replace(_replace(_step1(word), _STEP2, 0), _STEP3, 0)
    w = _step4(w)
    if w.endswith("e"):
        stem = w[:-1]
        if _m(stem) > 1 or (_m(stem) == 1 and not _cvc(stem)):
            w = stem
    if _m(w) > 1 and w.endswith("ll"):
        w = w[:-1]
    return w


# ---------- names ----------

def normalise_name(expr: pl.Expr) -> pl.Expr:
    """'Jörg-Peter  Müller.' -> 'jorg peter muller': NFKD, non-ASCII dropped, lower, hyphens/dots out."""
    return (expr.str.normalize("NFKD").str.replace_all(r"[^\x00-\x7F]", "").str.to_lowercase()
            .str.replace_all(r"[-‐–_]", " ").str.replace_all(r"[.,']", " ").str.replace_all(r"\s+", " ")
            .str.strip_chars())


def _name_parts(frame: pl.LazyFrame, col: str) -> pl.LazyFrame:
    """Adds first token, last token and middle initials of a normalised name column."""
    toks = pl.col(col).str.split(" ")
    return frame.with_columns(
        toks.list.first().alias("first_tok"), toks.list.last().alias("last_tok"),
        toks.list.slice(1, toks.list.len() - 2).list.eval(pl.element().str.slice(0, 1)).list.join("").alias("mid"))


def explode_inventors(patents: pl.LazyFrame, min_inventors: int = 2) -> pl.LazyFrame:
    """(pub_id, inv_idx, key, first_tok, last_tok, mid, n_inventors) for patents with enough inventors."""
    inv = (patents.select("pub_id", "inventors").with_columns(pl.col("inventors").list.len().alias("n_inventors"))
           .filter(pl.col("n_inventors") >= min_inventors).explode("inventors")
           .with_columns(pl.int_range(pl.len()).over("pub_id").alias("inv_idx"))
           .unnest("inventors"))
    full = pl.when(pl.col("first").is_not_null() & pl.col("last").is_not_null()) \
        .then(pl.concat_str("first", pl.lit(" "), "last")).otherwise(pl.col("name"))
    inv = inv.with_columns(normalise_name(full).alias("key")).filter(pl.col("key") != "")
    return _name_parts(inv.select("pub_id", "inv_idx", "key", "n_inventors"), "key")


def explode_aliases(papers: pl.LazyFrame) -> pl.LazyFrame:
    """(work_id, author_id, key, first_tok, last_tok, mid): one row per distinct normalised alias."""
    al = (papers.select("work_id", "authors").explode("authors").unnest("authors")
          .with_columns(pl.concat_list(pl.col("name"), pl.col("alt_names").fill_null([])).alias("alias"))
          .explode("alias").select("work_id", pl.col("id").alias("author_id"),
                                   normalise_name(pl.col("alias")).alias("key"))
          .filter(pl.col("key").is_not_null() & (pl.col("key") != "")).unique())
    return _name_parts(al, "key")


def match_authors(inventors: pl.LazyFrame, aliases: pl.LazyFrame, allow_middle_drop: bool = True) -> pl.LazyFrame:
    """Inventor-author name matches (pub_id, inv_idx, work_id, author_id, exact): exact alias equality,
    or same first and last token with a middle name missing on one side; differing middles block."""
    pairs = inventors.join(aliases, on=["first_tok", "last_tok"], suffix="_a")
    exact = pl.col("key") == pl.col("key_a")
    dropped = (pl.col("mid") == "") | (pl.col("mid_a") == "")
    ok = exact | (dropped if allow_middle_drop else pl.lit(False))
    return (pairs.filter(ok).group_by("pub_id", "inv_idx", "work_id", "author_id")
            .agg(exact.any().alias("exact"), pl.col("n_inventors").first()))


def author_candidates(inventors: pl.LazyFrame, aliases: pl.LazyFrame, params: MatchParams) -> pl.LazyFrame:
    """(pub_id, work_id, author_overlap, n_matched, all_exact) with overlap >= the threshold."""
    m = match_authors(inventors, aliases, params.allow_middle_drop)
    return (m.group_by("pub_id", "work_id")
            .agg(pl.col("inv_idx").n_unique().alias("n_matched"), pl.col("n_inventors").first(),
                 pl.col("exact").all().alias("all_exact"))
            .with_columns((pl.col("n_matched") / pl.col("n_inventors")).alias("author_overlap"))
            .filter(pl.col("author_overlap") >= params.min_author_overlap)
            .drop("n_inventors"))


# ---------- terms ----------

def _terms(frame: pl.LazyFrame, id_col: str, kind: str) -> pl.LazyFrame:
    """(doc, field, tok) unique raw tokens of title and abstract, stopwords removed."""
    parts = []
    for fld in ("title", "abstract"):
        toks = (normalise_name(pl.col(fld).fill_null("")).str.extract_all(r"[a-z][a-z0-9]+"))
        parts.append(frame.select(pl.concat_str(pl.lit(kind + ":"), pl.col(id_col)).alias("doc"),
                                  pl.lit(fld).alias("field"), toks.alias("tok")).explode("tok"))
    out = pl.concat(parts).drop_nulls("tok")
    return out.filter(~pl.col("tok").is_in(list(STOPWORDS))).unique()


def stem_terms(terms: pl.LazyFrame) -> pl.LazyFrame:
    """Replace `tok` by its Porter stem `term`, stemming each distinct token once."""
    vocab = terms.select("tok").unique().with_columns(
        pl.col("tok").map_elements(porter_stem, return_dtype=pl.String).alias("term"))
    return terms.join(vocab, on="tok").select("doc", "field", "term").unique()


def term_overlaps(cands: pl.LazyFrame, patents: pl.LazyFrame, papers: pl.LazyFrame) -> pl.LazyFrame:
    """Adds title_min/max and abstract_min/max (IDF-weighted) to (pub_id, work_id) candidates.

    IDF = ln(N / df) over all patent and paper documents (title + abstract as one document)."""
    terms = stem_terms(pl.concat([_terms(patents, "pub_id", "P"), _terms(papers, "work_id", "W")]))
    n_docs = pl.col("doc").n_unique()
    idf = (terms.select("doc", "term").unique().group_by("term").agg(pl.len().alias("df"))
           .join(terms.select(n_docs.alias("n")), how="cross")
           .select("term", (pl.col("n") / pl.col("df")).log().alias("idf")))
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


# ---------- pipeline ----------

def match_pairs(patents: pl.LazyFrame, papers: pl.LazyFrame, params: MatchParams = MatchParams()) -> pl.LazyFrame:
    """patents (pub_id, app_date, title, abstract, inventors) x papers (`papers` schema) -> evidence pairs.

    Returns every `patent_paper_pairs` column plus n_matched, all_exact, license and n_wins."""
    cands = author_candidates(explode_inventors(patents, params.min_inventors), explode_aliases(papers), params)
    dated = (cands.join(patents.select("pub_id", "app_date"), on="pub_id")
             .join(papers.select("work_id", "pub_date", "license"), on="work_id")
             .with_columns((pl.col("pub_date") - pl.col("app_date")).dt.total_days().cast(pl.Int32).alias("day_delta"))
             .filter(pl.col("day_delta").is_between(-params.days_before, params.days_after)))
    passes = ((pl.col("title_min") >= params.min_normalised) & (pl.col("abstract_min") >= params.min_normalised)
              & (pl.col("title_max") >= params.max_normalised) & (pl.col("abstract_max") >= params.max_normalised))
    scored = term_overlaps(dated, patents, papers)
    if params.competitors == "scored":
        scored = scored.filter(passes)
    elif params.competitors != "dated":
        raise ValueError(f"competitors must be 'dated' or 'scored', not {params.competitors!r}")
    distinct = add_margins(scored, params).filter(passes & (pl.col("n_wins") >= params.scores_to_win))
    one_to_one = distinct.filter((pl.len().over("pub_id") == 1) & (pl.len().over("work_id") == 1))
    licensed = one_to_one.filter(pl.col("license").is_in(list(params.licences)))
    return licensed.select("pub_id", "work_id", "author_overlap", "day_delta", *SCORES, "margin", "n_matched",
                           "all_exact", "license", "n_wins").sort("pub_id", "work_id")


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
