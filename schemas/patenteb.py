"""PatenTEB published tables: the 15 tasks (the paper's fields, then the ids each row was built from) and the
retrieval tasks' corpus / queries / qrels layout. Validated before publish (`patentfactory.stages`)."""
import pyarrow as pa

from ._base import Column as C, SchemaError, TableSpec

S, I64 = pa.string(), pa.int64()
FAMILY = "simple-family id (`transforms.families`)"
PUB = "publication id of the family's representative (text source)"


def _retrieval(name: str, doc: str) -> TableSpec:
    return TableSpec(name=name, key=("query_id", "pos_id", "neg_id"), doc=doc, columns=(
        C("q_text", S, "query family text: title + abstract + first claim", nullable=False),
        C("pos_text", S, "a citation-linked family's text (the positive)", nullable=False),
        C("neg_text", S, "hard negative: outside the query's citation network, from the relation SPEC names",
          nullable=False),
        C("query_id", S, f"query {FAMILY}", nullable=False), C("pos_id", S, f"positive {FAMILY}", nullable=False),
        C("neg_id", S, f"negative {FAMILY}", nullable=False), C("q_pub_id", S, PUB, nullable=False),
        C("pos_pub_id", S, PUB, nullable=False), C("neg_pub_id", S, PUB, nullable=False)))


def _asymmetric(name: str, query: str, query_doc: str, target: str, target_doc: str) -> TableSpec:
    return TableSpec(name=name, key=("query_id",), doc="one family per row: a fragment and the text without it",
                     columns=(C(query, S, query_doc, nullable=False), C(target, S, target_doc, nullable=False),
                              C("query_id", S, f"{FAMILY} of the query", nullable=False),
                              C("doc_id", S, f"{FAMILY} of the document (the query's own family)", nullable=False),
                              C("pub_id", S, PUB, nullable=False)))


def _labelled(name: str, label: pa.DataType, label_doc: str, key: str = "family_id") -> TableSpec:
    return TableSpec(name=name, key=(key,), doc="one family per row", columns=(
        C("text", S, "family text", nullable=False), C("label", label, label_doc, nullable=False),
        C("family_id", S, FAMILY, nullable=False), C("pub_id", S, PUB, nullable=False)))


def _paraphrase(name: str, segment: str) -> TableSpec:
    return TableSpec(name=name, key=("id1", "id2"), doc=f"pairs of {segment} segments", columns=(
        C("text1", S, f"{segment} of family id1", nullable=False), C("text2", S, f"{segment} of family id2",
                                                                       nullable=False),
        C("label", I64, "1: IN-domain citation pair; 0: families of different domains", nullable=False),
        C("id1", S, FAMILY, nullable=False), C("id2", S, FAMILY, nullable=False)))


FULL_NO = "family text without the query fragment and its section marker"
PATENTEB_TABLES: dict[str, TableSpec] = {t.name: t for t in (
    _retrieval("retrieval_IN", "citation pairs with identical IPC3 sets"),
    _retrieval("retrieval_MIXED", "citation pairs with overlapping IPC3 sets"),
    _retrieval("retrieval_OUT", "citation pairs with disjoint IPC3 sets"),
    _asymmetric("title2full", "title", "title of the family", "full_text", "abstract + first claim"),
    _asymmetric("problem2full", "problem", "problem segment of the abstract", "full_text", FULL_NO),
    _asymmetric("problem2solution", "problem", "problem segment", "solution", "solution segment"),
    _asymmetric("effect2full", "effect", "effect segment (first sentence)", "full_text", FULL_NO),
    _asymmetric("effect2substance", "effect", "effect segment (first sentence)", "substance", "substance segment"),
    _labelled("class_text2ipc3", S, "dominant IPC3 of the family"),
    _labelled("class_bloom", S, "early | late | normal citation bloomer within its IPC3"),
    TableSpec(name="class_nli_oldnew", key=("query_id", "target_id"), doc="one citation edge per row", columns=(
        C("q_text", S, "query family text", nullable=False), C("t_text", S, "target family text", nullable=False),
        C("label", I64, "1: query cites target; 0: target cites query", nullable=False),
        C("query_id", S, FAMILY, nullable=False), C("target_id", S, FAMILY, nullable=False))),
    _paraphrase("para_problem", "problem"),
    _paraphrase("para_solution", "solution"),
    _labelled("clusters_ext_full_ipc", S, "cluster: the identical full IPC set, `; `-joined"),
    _labelled("clusters_inventor", S, "cluster: inventor id (`transforms.inventors`)"),
)}

CORPUS = TableSpec(name="corpus", key=("_id",), doc="BEIR / mteb corpus of one split", columns=(
    C("_id", S, f"document {FAMILY}", nullable=False), C("title", S, "title ('' where the title is the query)"),
    C("text", S, "document text", nullable=False)))
QUERIES = TableSpec(name="queries", key=("_id",), doc="BEIR / mteb queries of one split", columns=(
    C("_id", S, f"query {FAMILY}", nullable=False), C("text", S, "query text", nullable=False)))
QRELS = TableSpec(name="qrels", key=("query-id", "corpus-id"), doc="BEIR qrels of one split", columns=(
    C("query-id", S, "queries `_id`", nullable=False), C("corpus-id", S, "corpus `_id`", nullable=False),
    C("score", I64, "relevance (1: a citation-linked positive / the query's own document)", nullable=False)))
LAYOUT_TABLES: dict[str, TableSpec] = {"corpus": CORPUS, "queries": QUERIES, "qrels": QRELS}


def patenteb_table(name: str) -> TableSpec:
    """The contract of a published PatenTEB table: a task, or `<task>.corpus|queries|qrels`."""
    task, _, part = name.rpartition(".")
    if task in PATENTEB_TABLES and part in LAYOUT_TABLES:
        return LAYOUT_TABLES[part]
    if name not in PATENTEB_TABLES:
        raise SchemaError(f"unknown PatenTEB table {name!r}")
    return PATENTEB_TABLES[name]
