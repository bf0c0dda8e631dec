"""Croissant 1.0 JSON-LD (`croissant.json`) of a published version, generated from its manifest.

One `cr:FileObject` per Parquet file (relative `contentUrl`, the manifest's sha256) and one `cr:RecordSet`
per task and split whose fields read the file's columns. Column types come from the Parquet schema written
at publish; a list column is a `repeated` field of its item type; a type Croissant has no name for is Text.
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


def _field(record: str, path: str, name: str, t: pa.DataType) -> dict:
    dtype, repeated = data_type(t)
    field = {"@type": "cr:Field", "@id": f"{record}/{name}", "name": name, "dataType": dtype,
             "source": {"fileObject": {"@id": path}, "extract": {"column": name}}}
    if repeated:
        field["repeated"] = True
    return field


def croissant(manifest: dict, schemas: dict[str, pa.Schema], base_url: str = "") -> dict:
    """The JSON-LD document of `manifest`'s files; `schemas` maps each file's path to its Parquet schema."""
    info = dataset_info(manifest["dataset"])
    files = sorted(manifest["files"], key=lambda f: f["path"])
    distribution = [{"@type": "cr:FileObject", "@id": f["path"], "name": f["path"], "contentUrl": f["path"],
                     "encodingFormat": "application/x-parquet", "sha256": f["sha256"],
                     "contentSize": f"{f['bytes']} B"} for f in files]
    record_sets = []
    for f in files:
        record = f"{f['task']}/{f['split']}"
        record_sets.append({"@type": "cr:RecordSet", "@id": record, "name": record,
                            "description": f"{f['rows']} rows of task {f['task']}, split {f['split']}",
                            "field": [_field(record, f["path"], c.name, c.type) for c in schemas[f["path"]]]})
    doc = {"@context": _context(), "@type": "sc:Dataset", "name": manifest["dataset"],
           "description": (f"{info.pretty_name}, version {manifest['version']} (code {manifest['code_version']}): "
                           f"{len(files)} Parquet files, {sum(f['rows'] for f in files)} rows."),
           "conformsTo": CONFORMS_TO, "license": info.license_details if info.license == "other" else info.license,
           "url": base_url or info.paper_url or "https://example.invalid/",
           "version": manifest["version"],
           "distribution": distribution, "recordSet": record_sets}
    if info.citation:
        doc["citeAs"] = info.citation
    return doc


__all__ = ["CONFORMS_TO", "CROISSANT_FILE", "croissant", "data_type"]
