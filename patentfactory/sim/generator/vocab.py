"""Technical vocabulary per IPC section: the raw material of template sentences.

Texts must share terms within a domain (so that retrieval, paraphrase and term-overlap matching
have signal) and differ across domains (so that OUT pairs are hard). One word pool per section;
the class's topic phrases (ipc.py) add class-specific terms.
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class SectionVocab:
    """Word pools of one IPC section (A..H)."""
    subjects: tuple[str, ...]
    components: tuple[str, ...]
    qualities: tuple[str, ...]
    actions: tuple[str, ...]
    objects: tuple[str, ...]
    effects: tuple[str, ...]
    materials: tuple[str, ...]
    fields: tuple[str, ...]


def _v(*parts: str) -> SectionVocab:
    return SectionVocab(*(tuple(p.split(";")) for p in parts))


VOCAB: dict[str, SectionVocab] = {
    "A": _v("medical device;pharmaceutical composition;implant;catheter;food product;agricultural machine;"
            "wound dressing;inhaler",
            "housing;reservoir;needle;sensor;valve;membrane;carrier;active ingredient;excipient;tube;plunger;"
            "electrode;handle;filter;nozzle;coating layer",
            "biocompatible;sterile;flexible;porous;hydrophilic;controlled-release;disposable;implantable",
            "deliver;monitor;release;inject;stabilize;measure;dispense;absorb",
            "dose;tissue;blood flow;patient data;drug substance;nutrient;body fluid;seed",
            "reduced side effects;improved bioavailability;faster recovery;lower infection risk;"
            "better patient compliance;longer shelf life",
            "polyethylene glycol;hydrogel;titanium;collagen;silicone;chitosan",
            "medicine;pharmaceutics;agriculture;food industry;veterinary medicine"),
    "B": _v("packaging machine;conveyor;vehicle;printing apparatus;laminate;separator;cutting tool;container",
            "frame;roller;belt;gripper;nozzle;drive unit;blade;chamber;lid;sheet;layer;actuator;guide rail;"
            "motor;clamp;spring",
            "rigid;multilayer;adjustable;lightweight;sealed;rotatable;detachable;modular",
            "convey;separate;cut;seal;print;laminate;transport;position",
            "article;web material;workpiece;package;fluid stream;particle;vehicle body;label",
            "higher throughput;reduced material waste;lower noise;improved safety;easier maintenance;"
            "reduced energy consumption",
            "polypropylene;aluminium foil;corrugated board;steel;glass fibre;rubber",
            "mechanical engineering;packaging;transport;printing;chemical engineering"),
    "C": _v("compound;polymer composition;catalyst;alloy;coating composition;cell line;fermentation broth;"
            "fuel composition",
            "monomer unit;substituent;ligand;binder;filler;solvent;promoter;plasmid;enzyme;dopant;"
            "additive;crosslinker;precursor;support;surfactant;buffer",
            "thermally stable;crystalline;water-soluble;high-purity;biodegradable;amorphous;recombinant;"
            "low-viscosity",
            "synthesize;polymerize;purify;catalyse;express;coat;anneal;dissolve",
            "reaction product;yield;target protein;melt;film;slurry;hydrocarbon feed;metal surface",
            "higher yield;improved selectivity;enhanced corrosion resistance;lower toxicity;"
            "improved tensile strength;reduced emissions",
            "zeolite;palladium;polyamide;ethylene;graphene;silica",
            "chemistry;metallurgy;biotechnology;polymer chemistry;petrochemistry"),
    "D": _v("textile;nonwoven fabric;yarn;paper web;washing machine;fibre composite",
            "fibre;drum;pulp;binder;roller;yarn guide;fabric layer;dye;detergent dispenser;felt",
            "absorbent;elastic;breathable;water-repellent;dyed;bleached",
            "spin;weave;bleach;dry;wash;dye",
            "fabric;fibre web;laundry;pulp suspension;thread;garment",
            "softer touch;faster drying;lower water use;higher tear strength;improved colour fastness",
            "cellulose;polyester;cotton;viscose;aramid;wool",
            "textiles;paper making;laundry"),
    "E": _v("building panel;drilling tool;wellbore assembly;excavator;roof element;lock;formwork system",
            "anchor;drill bit;casing;packer;bucket;beam;insulation layer;hinge;bolt;seal;shaft;mud motor",
            "load-bearing;prefabricated;weatherproof;expandable;reinforced;retrievable",
            "drill;anchor;insulate;excavate;seal;support",
            "borehole;soil;wall structure;formation fluid;concrete;door leaf",
            "faster installation;higher load capacity;improved thermal insulation;reduced drilling time;"
            "better sealing",
            "concrete;timber;steel;mineral wool;cement;polyurethane foam",
            "construction;mining;oil and gas;civil engineering"),
    "F": _v("internal combustion engine;heat exchanger;valve;turbine;lighting device;heat pump;gear unit;"
            "refrigerator",
            "piston;rotor;compressor;bearing;housing;injector;blade;fin;pipe;gear;light source;reflector;"
            "seal ring;shaft;evaporator;condenser",
            "high-pressure;compact;variable;cooled;low-friction;energy-efficient",
            "compress;cool;heat;inject;rotate;lubricate",
            "working fluid;exhaust gas;refrigerant;torque;air flow;fuel",
            "higher efficiency;lower emissions;reduced wear;lower noise;improved heat transfer",
            "stainless steel;ceramic;copper;nickel alloy;carbon fibre;brass",
            "mechanical engineering;heating;lighting;engines;thermodynamics"),
    "G": _v("computing system;measuring device;neural network;control unit;display device;memory device;"
            "optical system;sensor arrangement",
            "processor;memory;interface;sensor;controller;lens;detector;data bus;classifier;encoder;"
            "training module;buffer;light source;display panel;register;database",
            "machine-learning;real-time;distributed;optical;calibrated;programmable",
            "process;measure;classify;store;render;predict",
            "input data;image;measurement signal;user request;feature vector;data record",
            "higher accuracy;lower latency;reduced power consumption;improved robustness;"
            "reduced memory footprint",
            "silicon;liquid crystal;glass;quartz;polymer film;photoresist",
            "physics;computing;measurement;optics;control engineering"),
    "H": _v("communication device;semiconductor device;battery;power converter;antenna;circuit board;"
            "base station;light emitting device",
            "transceiver;transistor;electrode;capacitor;inductor;antenna element;switch;gate layer;"
            "substrate;modulator;separator;terminal;scheduler;amplifier;channel;encoder",
            "wireless;low-power;high-frequency;solid-state;flexible;multi-band",
            "transmit;receive;switch;modulate;charge;amplify",
            "data packet;radio signal;electric current;charge carriers;control information;video stream",
            "higher data rate;lower power loss;improved reliability;longer battery life;reduced interference",
            "gallium nitride;silicon carbide;lithium;copper;indium tin oxide;graphite",
            "electricity;telecommunications;electronics;power engineering"),
}
