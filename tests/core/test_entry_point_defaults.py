"""Every flow and every `pf` command takes its paths, upstreams and PatenTEB profile from the one settings object,
with the same default whatever the entry point (issue 43: `ingest-uspto` hard-coded the live API and ./data,
`pf build patenteb` built `full` where the flow built `sample`). A new parameter that names a path, an upstream
or the profile joins this walk by its name; one with a default of its own fails it."""
from __future__ import annotations

import importlib
import inspect
from datetime import date
from pathlib import Path

import pytest
import typer
from prefect import Flow

from patentfactory.cli.main import ROOT_OPTIONS, app, settings_roots
from patentfactory.config import Settings

FLOWS_DIR = Path(__file__).resolve().parents[2] / "flows"
# Parameters that stand for a setting: None means "the setting", read when the run or command starts.
SETTING_PARAMETERS = {"data_dir", "out", "out_root", "out_dir", "root", "base_url", "ops_url", "endpoint",
                      "fulltext_via", "profile"}
SUFFIXES = ("_dir", "_url", "_root", "_via", "endpoint", "profile")  # how such a parameter is recognised
OTHER_MEANING = {("pf generate", "profile"): "the generated world's profile (test | real | sample), not PatenTEB's"}


def _flows() -> dict[str, Flow]:
    found = {}
    for path in sorted(FLOWS_DIR.glob("*.py")):
        module = importlib.import_module(f"flows.{path.stem}")
        found.update({f"{path.stem}.{name}": obj for name, obj in vars(module).items()
                      if isinstance(obj, Flow) and obj.fn.__module__ == module.__name__})
    return found


def _commands() -> dict[str, object]:
    """`pf ...` path -> click command, every leaf of the app."""
    def walk(cmd, prefix: str):
        subs = getattr(cmd, "commands", None)
        if subs is None:
            yield prefix, cmd
            return
        for name, sub in subs.items():
            yield from walk(sub, f"{prefix} {name}")
    return dict(walk(typer.main.get_command(app), "pf"))


def _setting_like(name: str) -> bool:
    return name in SETTING_PARAMETERS or name.endswith(SUFFIXES) or name in ("out", "root")


def test_the_walk_sees_every_flow_and_command():
    flows, commands = _flows(), _commands()
    assert {"ingest_uspto.ingest_uspto", "ingest_ptab.ingest_ptab", "build_patenteb.build_patenteb",
            "build_pap2pat.build_pap2pat", "evaluate.evaluate", "nightly.nightly"} <= set(flows)
    assert len(flows) == 11, sorted(flows)
    assert {"pf run", "pf eval", "pf build patenteb", "pf ingest uspto", "pf ingest semopenalex"} <= set(commands)


@pytest.mark.parametrize("name", sorted(_flows()))
def test_flow_parameters_that_stand_for_a_setting_default_to_none(name: str):
    params = inspect.signature(_flows()[name].fn).parameters
    for p in params.values():
        if _setting_like(p.name):
            assert p.name in SETTING_PARAMETERS, f"{name}({p.name}): a new setting-like parameter; add it here"
            assert p.default is None, f"{name}({p.name}={p.default!r}): unset must mean the settings' value"
    assert all(not isinstance(p.default, date) or p.name == "start" or p.default >= date(2100, 1, 1)
               for p in params.values()), f"{name}: a fixed end date stops the flow fetching after it"


@pytest.mark.parametrize("name", sorted(_commands()))
def test_command_options_that_stand_for_a_setting_default_to_none(name: str):
    for p in _commands()[name].params:
        if _setting_like(p.name) and (name, p.name) not in OTHER_MEANING:
            assert p.name in SETTING_PARAMETERS, f"{name} --{p.name}: a new setting-like option; add it here"
            assert p.default is None, f"{name} --{p.name}={p.default!r}: unset must mean the settings' value"


def test_an_unset_root_option_is_the_settings_root_in_every_command(tmp_path: Path, monkeypatch):
    """What `friendly` fills before any command body runs, against what each flow computes (Settings.roots)."""
    monkeypatch.setenv("PF_PATHS__DATA_DIR", str(tmp_path / "d"))
    monkeypatch.setenv("PF_PATHS__PUBLISHED_ROOT", str(tmp_path / "pub"))
    flow_roots = Settings.load().roots(None, None)
    assert flow_roots == (str(tmp_path / "d"), str(tmp_path / "pub"))
    with_roots = {n: c for n, c in _commands().items() if {p.name for p in c.params} & set(ROOT_OPTIONS)}
    assert {"pf run", "pf eval", "pf build patenteb", "pf ingest uspto", "pf ingest lens"} <= set(with_roots)
    for name, cmd in with_roots.items():
        kwargs = {p.name: None for p in cmd.params if p.name in ROOT_OPTIONS}
        settings_roots(kwargs)
        if "data_dir" in kwargs:
            assert str(kwargs["data_dir"]) == flow_roots[0], name
        if "out_root" in kwargs:
            assert kwargs["out_root"] == flow_roots[1], name
    typed = {"data_dir": tmp_path / "typed", "out_root": None}
    settings_roots(typed)
    assert typed == {"data_dir": tmp_path / "typed", "out_root": str(tmp_path / "pub")}, "a typed value wins"


def test_one_patenteb_profile_rule_for_every_entry_point(monkeypatch):
    monkeypatch.delenv("PF_PROFILE", raising=False)
    flow_default = inspect.signature(_flows()["build_patenteb.build_patenteb"].fn).parameters["profile"].default
    command_default = next(p.default for p in _commands()["pf build patenteb"].params if p.name == "profile")
    assert flow_default is command_default is None
    settings = Settings.load()
    assert settings.patenteb_profile(None) == "full", "a standalone build is the SPEC build"
    assert settings.patenteb_profile(None, "sample") == "sample" and settings.patenteb_profile(None, "300") == "sample"
    assert settings.patenteb_profile(None, "20000") == "full"
    assert settings.patenteb_profile("sample") == "sample", "a parameter or option wins"
    monkeypatch.setenv("PF_PROFILE", "sample")
    assert Settings.load().patenteb_profile(None) == Settings.load().patenteb_profile(None, "20000") == "sample"
