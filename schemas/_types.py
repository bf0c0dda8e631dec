"""Shared arrow types used by several table contracts."""
import pyarrow as pa

PERSON = pa.struct([("name", pa.string()), ("first", pa.string()), ("last", pa.string()), ("country", pa.string())])
PARTY = pa.struct([("name", pa.string()), ("country", pa.string()), ("kind", pa.string())])
PRIORITY = pa.struct([("country", pa.string()), ("number", pa.string()), ("date", pa.date32())])
RELATED = pa.struct([("relation", pa.string()), ("country", pa.string()), ("number", pa.string()), ("date", pa.date32())])
STR_LIST = pa.list_(pa.string())
INT_LIST = pa.list_(pa.int32())
