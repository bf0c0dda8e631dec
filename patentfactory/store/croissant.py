"""Croissant 1.0 JSON-LD (`croissant.json`) of a published version, generated from its manifest.

One `cr:FileObject` per Parquet file (relative `contentUrl`, the manifest's sha256) and one `cr:RecordSet`
per task and split whose fields read the file's columns. Column types come from the Parquet schema written
at publish; a list column is a `repeated` field of its item type, a struct column has one `subField` per
member; a type Croissant has no name for is Text.
Written by hand (no runtime dependency); the tests validate it with `mlcroissant`.
"""
from __future__ import annotations

import pyarrow as pa

from .hf_layout import dataset_info

CROISSANT_FILE = "croissant.json"
CONFORMS_TO = "http://mlcommons.org/croissant/1.0"
_CR_KEYS = ("citeAs", "column", "data", "dataType", "examples", "extract", "field", "fileProperty", "fileObject",
            "fileSet", "format", "includes", "isLiveDataset", "jsonPath", "key", "md5", "parentField", "path",
            "recordSet", "references", "regex", "repeated", "replace", "samplingRate", "separator", "source",
            "subField", "transform", "equivalentProperty")
_JSON_KEYS = ("data", "examples")


def _context() -> dict:
    ctx: dict = {"@language": "en", "@vocab": "https://schema.org/", "sc": "https://schema.org/",
                 "cr": "http://mlcommons.org/croissant/", "rai": "http://mlcommons.org/croissant/RAI/",
                 "dct": "http://purl.org/dc/terms/", "conformsTo": "dct:conformsTo"}
    for key in _CR_KEYS:
        ctx[key] = {"@id": f"cr:{key}", "@type": "@json"} if key in _JSON_KEYS else f"cr:{key}"
    ctx["dataType"] = {"@id": "cr:dataType", "@type": "@vocab"}
    return ctx


def data_type(t: pa.DataType) -> tuple[str, bool]:
    """(Croissant data type, repeated) of an Arrow type."""
    if pa.types.is_list(t) or pa.types.is_large_list(t):
        return data_type(t.value_type)[0], True
    if pa.types.is_boolean(t):
        return "sc:Boolean", False
    if pa.types.is_integer(t):
        return "sc:Integer", False
    if pa.types.is_floating(t):
        return "sc:Float", False
    if pa.types.is_date(t):
        return "sc:Date", False
    if pa.types.is_timestamp(t):
        return "sc:DateTime", False
    return "sc:Text", False


def _scalar(t: pa.DataType) -> bool:
    return not pa.types.is_nested(t) and not pa.types.is_dictionary(t)


def _field(record: str, path: str, name: str, t: pa.DataType) -> dict | None:
    """A column as a Croissant field: scalar, list of scalars (`repeated`) or struct of scalars (`subField`,
    read by JSON path); None for a shape Croissant readers do not take (named in the record set's description)."""
    source = {"fileObject": {"@id": path}, "extract": {"column": name}}
    field: dict = {"@type": "cr:Field", "@id": f"{record}/{name}", "name": name}
    if pa.types.is_struct(t):
        if not all(_scalar(t.field(i).type) for i in range(t.num_fields)):
            return None
        field["subField"] = [{"@type": "cr:Field", "@id": f"{record}/{name}/{m.name}", "name": m.name,
                              "dataType": data_type(m.type)[0],
                              "source": {**source, "transform": {"jsonPath": m.name}}}
                             for m in (t.field(i) for i in range(t.num_fields))]
        return field
    if (pa.types.is_list(t) or pa.types.is_large_list(t)) and not _scalar(t.value_type):
        return None
    dtype, repeated = data_type(t)
    field.update({"dataType": dtype, "source": source})
    if repeated:
        field["repeated"] = True
    return field


def _record_set(f: dict, schema: pa.Schema) -> dict:
    record = f"{f['task']}/{f['split']}"
    fields = {c.name: _field(record, f["path"], c.name, c.type) for c in schema}
    left_out = [n for n, fd in fields.items() if fd is None]
    note = f"; columns not described (nested lists or structs): {', '.join(left_out)}" if left_out else ""
    return {"@type": "cr:RecordSet", "@id": record, "name": record,
            "description": f"{f['rows']} rows of task {f['task']}, split {f['split']}{note}",
            "field": [fd for fd in fields.values() if fd is not None]}


def croissant(manifest: dict, schemas: dict[str, pa.Schema], base_url: str = "") -> dict:
    """The JSON-LD document of `manifest`'s files; `schemas` maps each file's path to its Parquet schema."""
    info = dataset_info(manifest["dataset"])
    files = sorted(manifest["files"], key=lambda f: f["path"])
    distribution = [{"@type": "cr:FileObject", "@id": f["path"], "name": f["path"], "contentUrl": f["path"],
                     "encodingFormat": "application/x-parquet", "sha256": f["sha256"],
                     "contentSize": f"{f['bytes']} B"} for f in files]
    record_sets = [_record_set(f, schemas[f["path"]]) for f in files]
    doc = {"@context": _context(), "@type": "sc:Dataset", "name": manifest["dataset"],
           "description": (f"{info.pretty_name}, version {manifest['version']} (code {manifest['code_version']}): "
                           f"{len(files)} Parquet files, {sum(f['rows'] for f in files)} rows."),
           "conformsTo": CONFORMS_TO, "license": info.license_details if info.license == "other" else info.license,
           "url": base_url or info.paper_url or "https://example.invalid/",
           "version": manifest["version"], "datePublished": manifest["version"][:10].replace(".", "-"),
           "distribution": distribution, "recordSet": record_sets}
    if info.citation:
        doc["citeAs"] = info.citation
    return doc


__all__ = ["CONFORMS_TO", "CROISSANT_FILE", "croissant", "data_type"]
