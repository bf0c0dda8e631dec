"""Published IPBench items: one row per question; the open classification tasks add the code list.

Not a warehouse table (not in `TABLES`): the contract the build validates before publishing."""
import pyarrow as pa

from ._base import Column as C, TableSpec
from ._types import STR_LIST

_COMMON = (
    C("task_id", pa.string(), "IPBench task id as in the paper (1-5-1, 3-3, 4-2), or a named variant (1-5-1-mc)",
      nullable=False),
    C("mechanism", pa.string(), "knowledge mechanism probed; 'patent' for every data-derived task", nullable=False),
    C("language", pa.string(), "language of question and answer (ISO 639-1); 'en'", nullable=False),
    C("question", pa.string(), "the instruction line, then the item's own material (title + abstract, claims, ...)",
      nullable=False),
    C("options", STR_LIST, "choice tasks: the four options, exactly one right; empty for open and generation tasks",
      nullable=False),
    C("answer", pa.string(), "gold: the right option's text, the main code (open 1-5) or the reference text",
      nullable=False),
    C("source_ids", STR_LIST, "publications behind the item: the patent; for 3-3 the query then each option's patent",
      nullable=False),
)

IPBENCH_ITEMS = TableSpec(name="ipbench_items", key=(), columns=_COMMON,
                          doc="IPBench choice and generation items (3-3, 1-5-x-mc, 4-1, 4-2).")
IPBENCH_CLASSIFICATION_ITEMS = TableSpec(
    name="ipbench_classification_items", key=(),
    columns=(*_COMMON, C("codes", STR_LIST, "the patent's full IPC (1-5-1) or CPC (1-5-2) code list, main code first",
                         nullable=False)),
    doc="IPBench open classification items (1-5-1, 1-5-2): exact match at section, class, subclass, full code.")
