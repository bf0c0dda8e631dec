"""Flow `build-patenteb`: the headline deployment (`prefect deployment run build-patenteb/<name>`).

The dense encoding of the negatives' corpus, most of a cold build, fans out: the texts the embedding cache
lacks go in chunks of `PF_EMBED_CHUNK` to `embed-texts` tasks on the flow's task runner (threads, Dask
workers; a GPU where a worker has one), each writing its own cache part; the build reads them back.
"""
from __future__ import annotations

from prefect import flow
from prefect.states import State
from prefect.artifacts import create_markdown_artifact

from flows.observe import published_counts, read_manifest
from flows.outcomes import expected_outcomes, is_outcome, outcome_state
from flows.preflight import missing_inputs
from flows.runtime import ConfiguredTaskRunner, stage_limits
from flows.tasks import task
from patentfactory.config import EMBED_CHUNK, Settings
from patentfactory.errors import NothingToPublish
from patentfactory.stages.build_patenteb import build_and_publish_patenteb, embed_texts, make_params
from patentfactory.store.inspect import inspect_version
from patentfactory.store.publish_options import PublishOptions
from patentfactory.store.storage import Storage


@task(name="embed-texts", task_run_name="embed-texts-{n}")
def embed_task(data_dir: str, texts: list[str], n: int, shared: str | None = None) -> int:
    return embed_texts(data_dir, texts, shared)


def fan_out_embedding(data_dir: str, shared: str | None = None):  # noqa: ANN201 - an embedding_cache.Fill
    def fill(chunks: list[list[str]]) -> None:
        futures = [embed_task.submit(data_dir, chunk, i, shared) for i, chunk in enumerate(chunks)]
        for fut in futures:
            fut.result()
    return fill


@task(name="build-and-publish-patenteb")
@expected_outcomes
def build_task(data_dir: str, out: str, seed: int, profile: str, publish_options: PublishOptions,
               use_model: bool = True, embeddings: str | None = None, embed_chunk: int = EMBED_CHUNK) -> dict:
    try:
        pub = build_and_publish_patenteb(data_dir, out, seed=seed, profile=profile,
                                         publish_options=publish_options, use_model=use_model,
                                         embed_fill=fan_out_embedding(data_dir, embeddings), embeddings=embeddings,
                                         embed_chunk=embed_chunk)
    except NothingToPublish as exc:
        need = make_params(seed, profile, None).min_families_per_ipc3
        raise NothingToPublish(f"too few families per IPC3 for the {profile} profile (it needs {need} per IPC3; "
                               f"{exc.message})", "grow the inputs, or pass --profile sample for a rehearsal"
                               if profile == "full" else exc.hint) from None
    manifest = read_manifest(out, pub.dataset, pub.version)
    stats = manifest["stats"]
    families_in = stats["funnel"]["simple_families"]
    families_out = sum(stats["families_by_split"].values())
    published_counts("build-patenteb", manifest, records_in=families_in,
                     records_out=families_out, rejected=families_in - families_out, unit="families",
                     removed_duplicates=stats["removed_duplicates_total"],
                     cross_split_pairs_dropped=stats["cross_split_pairs_dropped"])
    return {"dataset": pub.dataset, "version": pub.version, "path": pub.path, "created": pub.created}


@task(name="verify-published")
def verify_task(out: str, dataset: str, version: str) -> dict:
    rep = inspect_version(Storage(out), dataset, version)
    if not rep.ok:
        raise RuntimeError(f"{dataset} {version} failed verification: {rep.problems[:3]}")
    rows = "\n".join(f"| {f['path']} | {f['rows']:,} | `{f['sha256'][:12]}` |" for f in rep.manifest["files"])
    create_markdown_artifact(key=f"{dataset}-published", description=f"{dataset} {version}",
                             markdown=f"# {dataset} {version}\n\n| file | rows | sha256 |\n|---|---:|---|\n{rows}\n")
    return {"dataset": dataset, "version": version, "files": len(rep.manifest["files"])}


@flow(name="build-patenteb", task_runner=ConfiguredTaskRunner())
def build_patenteb(data_dir: str | None = None, out: str | None = None, seed: int = 1337, profile: str | None = None,
                   allow_drop: bool = False, allow_drift: bool = False, use_model: bool = True) -> dict | State:
    """`use_model=False` skips the sentence-transformers model: BM25 negatives only, no token counts
    (a quick build; the card and manifest say `model: null`). `data_dir`/`out` unset: the settings'
    PF_PATHS__DATA_DIR / PF_PATHS__PUBLISHED_ROOT; `profile` unset: PF_PROFILE, else full (as `pf build patenteb`)."""
    settings = Settings.load()
    data_dir, out = settings.roots(data_dir, out)
    profile = settings.patenteb_profile(profile)
    if (missing := missing_inputs(data_dir, "build-patenteb", ("publications",))) is not None:
        return missing
    with stage_limits(settings):
        pub = build_task(data_dir, out, seed, profile, PublishOptions.from_settings(settings, allow_drop, allow_drift),
                         use_model, settings.paths.embedding_cache, settings.embed_chunk)
    if is_outcome(pub):  # skipped or blocked: a named state with its line, not a traceback
        return outcome_state(pub)
    return verify_task(out, pub["dataset"], pub["version"]) | {"created": pub["created"]}
