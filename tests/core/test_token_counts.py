"""PatenTEB's token counts come from the model's tokenizer.json without loading the model (a night whose texts
are all in the embedding cache never imports torch), and they equal the loaded model's own counts on real text."""
from __future__ import annotations

from pathlib import Path

from sources.lens import parse_lens_jsonl
from sources.uspto_bulk import iter_documents, parse_document

from patentfactory.stages import build_patenteb as stage

ODD = ["Ünïcödé ﬁ ligature — “quotes” α-β H₂O 10⁻³ µm ＡＢＣ", "日本語の特許文献【課題】", "", "  \t\n ",
       "[0001] FIG. 1A shows … wherein R¹ is C₁-C₆ alkyl;"]


def _real_texts(real_samples: Path) -> list[str]:
    texts = list(ODD)
    lens = parse_lens_jsonl(real_samples / "lens" / "lens_api_biopoly.jsonl", "lens.jsonl").rows
    texts += [r[c] for r in lens["publications"] for c in ("title", "abstract") if r.get(c)]
    texts += [r["text"] for r in lens.get("claims", []) if r.get("text")]
    for path in sorted((real_samples / "uspto-xml").glob("*.xml")):
        for doc in iter_documents(path):
            rows = parse_document(doc.data, path.name, 0, doc.offset).rows
            texts += [r[c] for r in rows.get("publications", []) for c in ("title", "abstract") if r.get(c)]
            texts += [r["text"] for r in rows.get("claims", []) if r.get("text")]
            texts += [r["text"] for r in rows.get("descriptions", [])[:40] if r.get("text")]
    return texts


def test_counts_without_the_model_then_the_model_on_first_encode():
    stage.load_model.cache_clear()
    encode, count = stage.model_functions()
    assert count(["A bicycle frame.", ""]) == [6, 2]  # [CLS] a bicycle frame . [SEP] / [CLS] [SEP]
    assert stage.load_model.cache_info().currsize == 0, "counting tokens loaded the model"
    vectors = encode(["A bicycle frame."])
    assert stage.load_model.cache_info().currsize == 1 and vectors.shape == (1, 384)


def test_counts_equal_the_loaded_models_tokenizer_on_real_text(real_samples: Path):
    texts = _real_texts(real_samples)
    assert len(texts) > 300
    ours = stage.count_tokens(texts)
    theirs = [len(ids) for ids in stage.load_model().tokenizer(texts, add_special_tokens=True,
                                                               truncation=False)["input_ids"]]
    assert ours == theirs
    assert max(ours) > 256, "some texts exceed the model's window: counts are untruncated"
