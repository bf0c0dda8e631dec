"""Real IPC classes with a skewed (Zipf-like) popularity, and vectorised symbol drawing.

PatenTEB's domains are IPC3 classes (section + class); the real distribution is very skewed
(A61, G06, H04, H01 dominate), so tasks stratified by IPC3 must cope with tiny classes. The
table below lists real IPC3 classes in rough order of real filing volume, each with real
subclasses, real main groups and a few topic phrases used by the text generator.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

# ipc3 | subclasses with main groups | topic phrases (for titles and abstracts)
_TABLE = """
A61|K:9,31,35,38,39,47;B:5,8,17,34;F:2,13;M:5,25;P:3,9,25,35|drug delivery formulation;surgical instrument;diagnostic imaging
G06|F:3,9,11,16,17,21;N:3,20;Q:10,30,50;T:7,15;V:10,40|data processing;neural network model;image recognition
H04|L:5,9,12,29,41,67;W:4,24,72,76;N:5,7,19,21;B:1,7,10|data packet transmission;wireless network access;video coding
H01|L:21,23,27,29,33;M:4,10,50;Q:1,9;R:13,43|semiconductor device;battery electrode;antenna structure
C07|D:209,213,401,471,487;K:14,16;C:69,211,229|heterocyclic compound;antibody;organic synthesis
G01|N:21,27,33;S:7,13,17;R:31,33;B:7,11|optical measurement;radar sensing;electrical testing
B65|D:5,25,33,81,83;G:1,47;H:29,75|packaging container;conveyor system;sheet handling
A01|B:63,79;K:67;N:25,43,63;G:7,9|crop treatment;agricultural implement;plant cultivation
C12|N:1,5,9,15;Q:1,68;P:7,21|recombinant enzyme;gene expression;fermentation process
B60|L:1,50,53,58;W:10,30,40;R:16,21;K:6,35|electric vehicle charging;vehicle control;vehicle seat
G02|B:1,5,6,27;F:1|optical lens;display panel;light guide
F16|H:1,57,61;L:11,37;K:1,31;C:33|gear transmission;pipe coupling;valve assembly
H02|J:3,7,50;K:1,7;M:1,3,7;P:6,27|power converter;electric motor;battery charging circuit
C08|L:23,67,77;G:59,63;K:3,5;J:5|polymer composition;resin blend;fiber reinforced plastic
B01|D:46,53;J:20,23,37;F:3|catalyst;gas separation membrane;mixing apparatus
G05|B:13,19,23;D:1,23|process control;autonomous navigation;feedback regulation
A47|L:9,15;J:31,36,43;C:1,7|vacuum cleaner;cooking appliance;furniture support
E21|B:7,10,17,33,43,47|drilling tool;wellbore completion;downhole sensor
F02|D:41;M:26,35,37;B:37|fuel injection;internal combustion engine;turbocharger
B29|C:45,48,64,70;B:7|injection molding;additive manufacturing;extrusion
C09|D:11,133;K:3,11;J:7|coating composition;phosphor;adhesive
H05|K:1,3,5,7;B:1,6,33,45|circuit board;induction heating;light emitting diode driver
F24|F:1,11,13;C:15;H:1|air conditioning;solar heater;heat pump
G09|G:3,5;F:9|display driving;pixel circuit;signage
C02|F:1,3,9|water treatment;wastewater purification;desalination
B23|K:26,37;B:27,51;P:15|laser welding;machining tool;cutting insert
F01|D:5,9,25;N:3,13;L:1|turbine blade;exhaust aftertreatment;valve train
C01|B:3,32,33;G:23;F:7|carbon material;silica particle;lithium compound
B32|B:5,7,15,27|laminated film;multilayer sheet;composite panel
G08|G:1,5;B:13,21,25|traffic management;alarm system;remote monitoring
A23|L:2,33;G:1,9;C:9|food composition;beverage;dairy product
C22|C:9,14,21,38;F:1|aluminium alloy;steel sheet;heat treatment
E04|B:1,2;F:13,15;G:21|building panel;roof structure;concrete formwork
B62|D:1,7,21,25;J:45;K:25|steering system;bicycle frame;vehicle body
G11|B:5,7,20;C:11,16|magnetic recording;memory cell;optical disc
C10|G:1,45;L:1,3;M:169|fuel additive;lubricant;hydrocarbon cracking
F25|B:9,39;D:11,17;J:3|refrigeration cycle;cryogenic cooler;gas liquefaction
B41|J:2,11,29;M:5;F:15|inkjet printing;print head;image transfer
D06|F:33,35,58;M:11,15;P:5|washing machine;textile finishing;dyeing process
A63|B:21,69;F:13,9;H:30|game apparatus;exercise equipment;toy vehicle
H03|K:17,19;M:1,3,13;F:1,3|analog to digital conversion;amplifier circuit;signal encoding
G03|F:7,1;G:15,21;B:21|photolithography;electrophotographic printing;projector
C23|C:14,16,22;F:11|vapor deposition;corrosion inhibitor;surface coating
F21|V:5,7,23,29;S:4;K:9|lighting fixture;lamp housing;optical emitter
B22|F:1,3,10;D:17|metal powder;sintering process;die casting
E02|F:3,9;D:5,17|excavator attachment;foundation pile;earth moving
D21|H:11,17,21;F:7|paper making;cellulose pulp;paper coating
G21|C:3,9,17;F:5|nuclear reactor;fuel assembly;radiation shielding
"""

SUBGROUPS = ("00", "02", "04", "06", "08", "10", "12", "14", "16", "18", "20", "22", "24", "26", "28",
             "30", "32", "34", "36", "38", "40", "42", "44", "46", "48", "50", "52", "56", "60", "64",
             "066", "068", "072", "086", "092", "116", "122", "136", "142", "1423", "1433")


@dataclass(frozen=True)
class IpcClass:
    """One IPC3 class with real subclasses (each with real main groups) and topic phrases."""
    ipc3: str
    subclasses: tuple[tuple[str, tuple[int, ...]], ...]
    topics: tuple[str, ...]

    @property
    def section(self) -> str:
        return self.ipc3[0]


def _parse_table() -> tuple[IpcClass, ...]:
    out = []
    for line in _TABLE.strip().splitlines():
        ipc3, subs, topics = line.split("|")
        parsed = tuple((s.split(":")[0], tuple(int(g) for g in s.split(":")[1].split(","))) for s in subs.split(";"))
        out.append(IpcClass(ipc3, parsed, tuple(topics.split(";"))))
    return tuple(out)


CLASSES: tuple[IpcClass, ...] = _parse_table()
IPC3_CODES: tuple[str, ...] = tuple(c.ipc3 for c in CLASSES)


def zipf_weights(n: int, exponent: float) -> np.ndarray:
    """Normalised rank weights 1/rank^s: rank 1 is the most frequent class."""
    w = 1.0 / np.arange(1, n + 1, dtype=np.float64) ** exponent
    return w / w.sum()


def draw_classes(rng: np.random.Generator, n: int, exponent: float) -> np.ndarray:
    """Index into CLASSES for n inventions, Zipf-skewed by the table's rank order."""
    return rng.choice(len(CLASSES), size=n, p=zipf_weights(len(CLASSES), exponent))


def draw_symbol_parts(rng: np.random.Generator, cls: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Vectorised (subclass index, main group, subgroup index) for class indices `cls`."""
    u_sub, u_grp = rng.random(len(cls)), rng.random(len(cls))
    nsub = np.array([len(c.subclasses) for c in CLASSES])[cls]
    # first subclass is the most common one within a class (skew inside the class too)
    sub = np.minimum((u_sub ** 1.6 * nsub).astype(np.int64), nsub - 1)
    grp = (u_grp * 6).astype(np.int64)  # resolved modulo the subclass's group list when formatted
    subgrp = rng.integers(0, len(SUBGROUPS), len(cls))
    return sub, grp, subgrp


def format_symbol(cls: int, sub: int, grp: int, subgrp: int) -> str:
    """IPC symbol in the canonical 'H04L 29/06' style."""
    c = CLASSES[cls]
    letter, groups = c.subclasses[sub]
    return f"{c.ipc3}{letter} {groups[grp % len(groups)]}/{SUBGROUPS[subgrp]}"


def cpc_from_ipc(symbol: str, salt: int) -> str:
    """A CPC symbol refining an IPC symbol (CPC subgroups often add digits to the IPC ones)."""
    head, sub = symbol.split("/")
    return f"{head}/{sub}{salt % 10}" if salt % 3 == 0 and len(sub) < 4 else symbol


def split_symbol(symbol: str) -> tuple[str, str, str, str, str]:
    """('H','04','L','29','06') from 'H04L 29/06' for element-wise XML (section, class, subclass, group, subgroup)."""
    head, rest = symbol.split(" ")
    main, sub = rest.split("/")
    return head[0], head[1:3], head[3], main, sub
