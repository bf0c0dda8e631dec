"""Every environment variable the project reads is a field of the one Settings and a row of README's table.

The environment is read in patentfactory/config.py only. Elsewhere code may only switch third-party libraries
(`os.environ.setdefault` of the names below, before those libraries read them) and word an orchestrator error
with Prefect's own variables; any other read of `os.environ` / `getenv` fails `test_no_environment_read_...`.
The Settings are built at the entry points only (a `pf` command, a flow run) and passed down: a
`Settings.load()` or `Settings(...)` below flows/ and patentfactory/cli/ fails `test_settings_are_built_...`.
"""
from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

from patentfactory.config import Settings, variables

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("patentfactory", "flows", "transforms", "sources", "schemas", "common")
CONFIG = "patentfactory/config.py"
ENTRY_POINTS = ("flows/", "patentfactory/cli/")  # where the one Settings of a command or a flow run is built
# switches of other libraries, set (never overridden) before they read them
THIRD_PARTY_SWITCHES = {"HF_HUB_OFFLINE", "TRANSFORMERS_OFFLINE", "HF_HUB_DISABLE_PROGRESS_BARS", "TRANSFORMERS_VERBOSITY",
                        "TQDM_DISABLE", "DO_NOT_TRACK", "OMP_THREAD_LIMIT", "PREFECT_SERVER_ANALYTICS_ENABLED",
                        "PREFECT_LOGGING_LEVEL", "PREFECT_SERVER_EPHEMERAL_STARTUP_TIMEOUT_SECONDS"}
# Prefect's own settings, read only to word the one-line error when its API cannot be reached
PREFECT_READS = {("patentfactory/cli/orchestrator.py", "PREFECT_API_URL"),
                 ("patentfactory/cli/orchestrator.py", "PREFECT_SERVER_EPHEMERAL_STARTUP_TIMEOUT_SECONDS")}


def _constants(tree: ast.Module) -> dict[str, str]:
    return {t.id: node.value.value for node in tree.body if isinstance(node, ast.Assign)
            and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str)
            for t in node.targets if isinstance(t, ast.Name)}


def environment_reads(source: str, rel: str) -> list[str]:
    """`file:line what` for each use of the environment in `source` that is not allowed (see module docstring)."""
    tree = ast.parse(source)
    consts, parents, found = _constants(tree), {}, []
    for node in ast.walk(tree):
        for child in ast.iter_child_nodes(node):
            parents[child] = node
    for node in ast.walk(tree):
        is_environ = (isinstance(node, ast.Attribute) and node.attr == "environ") or (
            isinstance(node, ast.Name) and node.id == "environ")
        is_getenv = (isinstance(node, ast.Attribute) and node.attr == "getenv") or (
            isinstance(node, ast.Name) and node.id == "getenv")
        if not (is_environ or is_getenv) or isinstance(parents.get(node), ast.ImportFrom):
            continue
        method, call = parents.get(node), None
        if isinstance(method, ast.Attribute) and isinstance(parents.get(method), ast.Call):
            call = parents[method]
        key = None
        if call is not None and call.args:
            arg = call.args[0]
            key = arg.value if isinstance(arg, ast.Constant) else consts.get(getattr(arg, "id", ""))
        if is_environ and call is not None and method.attr == "setdefault" and key in THIRD_PARTY_SWITCHES:
            continue
        if is_environ and call is not None and method.attr == "get" and (rel, key) in PREFECT_READS:
            continue
        found.append(f"{rel}:{node.lineno} {ast.unparse(call or parents.get(node) or node)[:80]}")
    return found


def project_sources() -> Iterator[tuple[str, str]]:
    """(path from the repository root, source) of every module of the project's packages but config.py."""
    for pkg in PACKAGES:
        for path in sorted((ROOT / pkg).rglob("*.py")):
            rel = path.relative_to(ROOT).as_posix()
            if rel != CONFIG:
                yield rel, path.read_text(encoding="utf-8")


def test_no_environment_read_outside_the_settings():
    found = [read for rel, source in project_sources() for read in environment_reads(source, rel)]
    assert found == [], "read these through patentfactory/config.py's Settings:\n" + "\n".join(found)


def test_a_new_read_of_the_environment_is_caught():
    snippets = ['import os\nlevel = os.environ.get("PF_NEW_KNOB", "1")\n',
                'import os\nlevel = os.getenv("PF_NEW_KNOB")\n',
                'from os import environ\nlevel = environ["PF_NEW_KNOB"]\n',
                'import os\nenv = dict(os.environ)\n',
                'import os\nos.environ.setdefault("PF_NEW_KNOB", "1")\n']
    for source in snippets:
        assert len(environment_reads(source, "patentfactory/stages/x.py")) == 1, source
    assert environment_reads('import os\nos.environ.setdefault("HF_HUB_OFFLINE", "1")\n', "x.py") == []


def _last_name(node: ast.expr) -> str | None:
    return node.id if isinstance(node, ast.Name) else node.attr if isinstance(node, ast.Attribute) else None


def settings_built(source: str, rel: str) -> list[str]:
    """`file:line call` for each `Settings.load()` / `Settings(...)` (a BaseSettings reads the environment for every
    field not given) in `source`."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        loads = isinstance(func, ast.Attribute) and func.attr == "load" and _last_name(func.value) == "Settings"
        if loads or _last_name(func) == "Settings":
            found.append(f"{rel}:{node.lineno} {ast.unparse(node)[:80]}")
    return found


def test_settings_are_built_only_at_entry_points():
    found = [call for rel, source in project_sources() if not rel.startswith(ENTRY_POINTS)
             for call in settings_built(source, rel)]
    assert found == [], ("take the entry point's settings (or the part needed) as an argument instead:\n"
                         + "\n".join(found))


def test_a_settings_built_below_the_entry_points_is_caught():
    snippets = ["from patentfactory.config import Settings\nsettings = settings or Settings.load()\n",
                "from patentfactory import config\nbudget = config.Settings.load().memory_budget_gb\n",
                "from patentfactory.config import Settings\nsettings = Settings(memory_check_s=0.1)\n"]
    for source in snippets:
        assert len(settings_built(source, "patentfactory/stages/x.py")) == 1, source
    assert settings_built("from patentfactory.config import LLMSettings\nllm = LLMSettings()\n"
                          "s = settings.load_x()\n", "x.py") == []


def settings_outside_runs(source: str, rel: str) -> list[str]:
    """`file:line call` for each Settings built in `source` outside a run's own body: a `@flow` (its one
    Settings), a `@task` (a task reads its credentials itself, never as parameters) and the configured task
    runner's `duplicate` (Prefect calls it as a run starts, before the flow's body) are the places; a helper a
    flow calls takes the flow's object."""
    places = [fn for fn in ast.walk(ast.parse(source)) if isinstance(fn, ast.FunctionDef)
              and ({_last_name(d.func if isinstance(d, ast.Call) else d) for d in fn.decorator_list} & {"flow", "task"}
                   or fn.name == "duplicate")]
    found = []
    for call in settings_built(source, rel):
        line = int(call.split(" ", 1)[0].rsplit(":", 1)[1])
        if not any(fn.lineno <= line <= fn.end_lineno for fn in places):
            found.append(call)
    return found


def test_flow_helpers_take_the_flows_settings():
    found = [hit for rel, source in project_sources() if rel.startswith("flows/")
             for hit in settings_outside_runs(source, rel)]
    assert found == [], "pass the flow's Settings (or the part needed) down:\n" + "\n".join(found)
    helper = ("from prefect import flow\nfrom patentfactory.config import Settings\n\n"
              "def ingest(d, batch=None):\n    return batch or Settings.load().ptab_batch\n\n"
              "@flow(name='x')\ndef run(d):\n    return ingest(d, Settings.load().ptab_batch)\n")
    assert [h.split(" ")[0] for h in settings_outside_runs(helper, "flows/x.py")] == ["flows/x.py:5"]


def test_the_one_table_lists_every_variable_the_settings_read():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    table = readme[readme.index("## Configuration"):readme.index("## Offline by design")]
    names = variables()
    assert {"PF_PROGRESS", "PF_LOG_LEVEL", "PF_DEBUG", "PF_S3_ENDPOINT_URL", "AWS_ACCESS_KEY_ID",
            "PF_PATHS__DATA_DIR", "USPTO_ODP_API_KEY"} <= set(names)
    assert [n for n in names if f"`{n}`" not in table] == []


def test_the_cli_variables_are_settings(monkeypatch):
    monkeypatch.setenv("PF_PROGRESS", "0")
    monkeypatch.setenv("PF_DEBUG", "1")
    monkeypatch.setenv("PF_LOG_LEVEL", "INFO")
    monkeypatch.setenv("PF_S3_ENDPOINT_URL", "http://127.0.0.1:9000")
    monkeypatch.setenv("AWS_ACCESS_KEY_ID", "AKIDEXAMPLE")
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "sekrit")
    s = Settings.load()
    assert (s.progress, s.debug, s.log_level) == (False, True, "INFO")
    assert s.s3.storage_options() == {"client_kwargs": {"endpoint_url": "http://127.0.0.1:9000"},
                                      "key": "AKIDEXAMPLE", "secret": "sekrit"}
    assert "AKIDEXAMPLE" not in repr(s) and "sekrit" not in repr(s) and "s3" not in s.model_dump()  # credentials stay SecretStr and out of dumps


def test_the_parsed_cache_is_a_local_folder(monkeypatch, tmp_path):
    """PF_PATHS__PARSED_CACHE: a folder is taken as a path; an s3:// prefix (parses are read back file by file from
    a local folder) is refused naming the variable, not written to a local folder called 's3:'."""
    import pytest
    from pydantic import ValidationError

    monkeypatch.setenv("PF_PATHS__PARSED_CACHE", str(tmp_path / "parsed"))
    assert Settings.load().paths.parsed_cache == tmp_path / "parsed"
    monkeypatch.setenv("PF_PATHS__PARSED_CACHE", "s3://bucket/parsed")
    with pytest.raises(ValidationError, match="PF_PATHS__PARSED_CACHE must be a local folder"):
        Settings.load()
