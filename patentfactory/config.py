"""Typed configuration, built once at the entry point and passed down (never read at import).

Credentials come only from the environment and are SecretStr, so they never end up in logs,
manifests or reprs.
"""
from __future__ import annotations

import os
from collections.abc import Mapping
from datetime import date
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, Field, SecretStr, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

OPS_404_RECHECK_DAYS = 30  # an EPO OPS document that answered 404 is asked again after this many days
EMBED_CHUNK = 4096  # texts per dense-embedding task of PatenTEB's build (PF_EMBED_CHUNK)
SAMPLE_PROFILE_BELOW = 5000  # a replica world of fewer inventions is built with PatenTEB's sample thresholds


class Paths(BaseModel):
    data_dir: Path = Path("data")
    # Where datasets are published (path or s3://bucket/prefix); unset: <data_dir>/published.
    published_root: str | None = None
    # Where text embeddings are cached (path or s3://bucket/prefix); unset: <data_dir>/cache/embeddings. Keyed by
    # (model, sha256(text)), so several data dirs (staging and production, a test session's runs) can share one.
    embedding_cache: str | None = None
    # Where the papers' PDFs are kept as pdfplumber read them (a local folder; `parsed-pdf/<route version>/<sha256 of
    # the PDF>.json`); unset: beside the downloaded full texts, <data_dir>/raw/semopenalex/fulltext. Keyed by the
    # bytes, so several data dirs (staging and production, a test session's runs) can share one.
    parsed_cache: Path | None = None

    @field_validator("parsed_cache", mode="before")
    @classmethod
    def _local_parsed_cache(cls, value: object) -> object:
        if value is not None and str(value).startswith("s3:"):
            raise ValueError("PF_PATHS__PARSED_CACHE must be a local folder, not an s3:// prefix")
        return value

    @property
    def world(self) -> Path:
        return self.data_dir / "world"

    @property
    def raw(self) -> Path:
        return self.data_dir / "raw"

    @property
    def warehouse(self) -> Path:
        return self.data_dir / "warehouse"

    @property
    def published(self) -> Path:
        return self.data_dir / "published"


class Upstreams(BaseModel):
    """Base URLs of the live services; the offline run points them at the local replica."""

    odp_base_url: str = "https://api.uspto.gov"
    ops_base_url: str = "https://ops.epo.org/3.2"
    sparql_endpoint: str = "https://semopenalex.org/sparql"
    # Where Lens exports are dropped (local folder or s3:// prefix); the live nightly ingests each new file once.
    lens_exports: str | None = None
    # The papers' full texts (Pap2Pat): unset, Europe PMC's REST API and each paper's open-access PDF link; set, a
    # mirror serving Europe PMC's paths under <url>/europepmc/webservices/rest and the PDFs under <url>/oa/<host>/<path>
    # (`pf upstream serve` does both), for a rehearsal or a site that caches them.
    fulltext_via: str | None = None


class DriftThresholds(BaseModel):
    """Settings `PF_QUALITY__<NAME>`; defaults a normal nightly (growth, new weeks) does not trip."""

    empty_rate_rise: float = Field(0.20, ge=0, description="points the null-or-empty rate may rise")
    text_median_drop: float = Field(0.30, ge=0, le=1, description="share the median text length may fall")
    label_tvd: float = Field(0.20, ge=0, le=1, description="largest total variation distance of a label column")
    distinct_drop: float = Field(0.50, ge=0, le=1, description="share the distinct count of a categorical column may fall")
    coverage_missing: bool = Field(True, description="block when a year, source or IPC section seen before is gone")
    min_rows: int = Field(50, ge=1, description="figures of a task split are compared only when both versions have "
                                                "at least this many rows (smaller splits are noise)")
    min_coverage_count: int = Field(5, ge=1, description="a coverage value counts as gone only if it had this many")
    flag_rate_rise: float = Field(0.02, ge=0, le=1, description="points the share of publications keeping a field "
                                  "raw (`publications.flags`: app_id, priority, classification) may rise, per flag")


class LLMSettings(BaseModel):
    """`PF_LLM__*`: an OpenAI-compatible chat-completions endpoint (vLLM, SGLang, Ollama, OpenAI, Gemini) for the
    papers' LLM steps (PILOT opinion split, Pap2Pat outline bullets). Unset base URL: the rule routes."""

    base_url: str | None = None  # e.g. http://vllm:8000/v1 (the client posts to <base_url>/chat/completions)
    model: str | None = None
    api_key: SecretStr | None = None
    concurrency: int = Field(4, ge=1, description="requests in flight at once")
    seed: int = 1337  # sent with temperature 0 where the server honours it
    min_interval_s: float = Field(0.0, ge=0, description="rate limit: least seconds between two requests")
    timeout_s: float = Field(300.0, gt=0, description="read timeout of one completion")
    attempts: int = Field(6, ge=1, description="tries per request on 429/5xx/timeouts (Retry-After honoured)")


class GrobidSettings(BaseModel):
    """`PF_GROBID__*`: a GROBID server (e.g. the lfoppiano/grobid image on :8070) that the papers' PDFs go to for
    TEI full text, as the Pap2Pat paper did. Unset URL: the PDFs are parsed with pdfplumber (sources/paper_pdf)."""

    url: str | None = None  # e.g. http://grobid:8070 (the client posts to <url>/api/processFulltextDocument)
    timeout_s: float = Field(300.0, gt=0, description="read timeout of one PDF")


class ArxivSettings(BaseModel):
    """`PF_ARXIV__*`: arXiv's OAI-PMH interface, where Pap2Pat looks up the licence of a matched paper whose open
    PDF is on arXiv and whose SemOpenAlex licence is not open (sources/arxiv_oai.py); PF_ARXIV__LOOKUP=false: none."""

    oai_url: str = "https://export.arxiv.org/oai2"
    lookup: bool = True


class ReplicaSettings(BaseModel):
    """`PF_REPLICA__*`: the local replica of the upstream services (`pf upstream serve`, a replica night)."""

    ops_rate_scale: float = Field(1.0, gt=0, description="the replica advertises EPO OPS's per-minute rates times "
                                  "this in X-Throttling-Control (1: OPS's own; the client paces by what it is told)")


class S3Settings(BaseModel):
    """Object storage for `s3://` roots (store/storage.py): the endpoint override `PF_S3_ENDPOINT_URL` (MinIO, moto;
    else `AWS_ENDPOINT_URL_S3` / `AWS_ENDPOINT_URL`) and the credentials and region under the names boto documents
    (`AWS_ACCESS_KEY_ID`, `AWS_SECRET_ACCESS_KEY`, `AWS_REGION` / `AWS_DEFAULT_REGION`)."""

    endpoint_url: str | None = None
    access_key_id: SecretStr | None = None
    secret_access_key: SecretStr | None = None
    region: str | None = None

    @classmethod
    def from_env(cls, env: Mapping[str, str]) -> "S3Settings":
        def first(*names: str) -> str | None:
            return next((env[n] for n in names if env.get(n)), None)

        key, secret = first("AWS_ACCESS_KEY_ID"), env.get("AWS_SECRET_ACCESS_KEY", "")
        return cls(endpoint_url=first("PF_S3_ENDPOINT_URL", "AWS_ENDPOINT_URL_S3", "AWS_ENDPOINT_URL"),
                   access_key_id=SecretStr(key) if key else None,
                   secret_access_key=SecretStr(secret) if key else None,
                   region=first("AWS_REGION", "AWS_DEFAULT_REGION"))

    def storage_options(self) -> dict:
        """s3fs options: the endpoint, credentials and region given; what is unset is left to boto's own lookup."""
        opts: dict = {}
        if self.endpoint_url:
            opts["client_kwargs"] = {"endpoint_url": self.endpoint_url}
        if self.access_key_id:
            opts["key"] = self.access_key_id.get_secret_value()
            opts["secret"] = self.secret_access_key.get_secret_value() if self.secret_access_key else ""
        if self.region:
            opts.setdefault("client_kwargs", {})["region_name"] = self.region
        return opts


# credentials under the names the services document (PF_<FIELD> works too); S3 under the names boto documents
CREDENTIALS = (("uspto_odp_api_key", "USPTO_ODP_API_KEY"), ("epo_ops_key", "EPO_OPS_KEY"),
               ("epo_ops_secret", "EPO_OPS_SECRET"))
S3_VARIABLES = ("PF_S3_ENDPOINT_URL", "AWS_ENDPOINT_URL_S3", "AWS_ENDPOINT_URL", "AWS_ACCESS_KEY_ID",
                "AWS_SECRET_ACCESS_KEY", "AWS_REGION", "AWS_DEFAULT_REGION")


def s3_settings() -> S3Settings:
    """The S3 section alone, for a `Storage` opened on an `s3://` root (every Storage is opened where it is used)."""
    return S3Settings.from_env(os.environ)


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="PF_", env_nested_delimiter="__", extra="ignore",
                                      env_ignore_empty=True)  # compose passes unset variables as ""

    paths: Paths = Paths()
    upstreams: Upstreams = Upstreams()
    seed: int = 1337
    # Quality gate v2 (patentfactory/store/drift.py): PF_QUALITY__EMPTY_RATE_RISE etc.
    quality: DriftThresholds = DriftThresholds()
    # LLM routes of PILOT and Pap2Pat (sources/llm.py): PF_LLM__BASE_URL, PF_LLM__MODEL, PF_LLM__API_KEY, ...
    llm: LLMSettings = LLMSettings()
    # PatenTEB thresholds (PF_PROFILE): sample (small worlds) | full (SPEC). Unset: full, except a replica night
    # of a small world, which picks by its scale (Settings.patenteb_profile: the one rule every entry point uses).
    profile: Literal["sample", "full"] | None = None
    # GROBID route of the papers' PDFs (sources/grobid.py): PF_GROBID__URL
    grobid: GrobidSettings = GrobidSettings()
    # arXiv licence lookup of Pap2Pat (sources/arxiv_oai.py): PF_ARXIV__OAI_URL
    arxiv: ArxivSettings = ArxivSettings()
    replica: ReplicaSettings = ReplicaSettings()
    # First day the live nightly asks for when the ledger has nothing yet (PF_SINCE); unset: SPEC's per source.
    since: date | None = None
    uspto_odp_api_key: SecretStr | None = None
    epo_ops_key: SecretStr | None = None
    epo_ops_secret: SecretStr | None = None
    # Look-back of the live nightly's windows (stages/windows.py): each night re-lists this many days before the
    # last ingested end, so an item posted late but dated earlier is still fetched; the ledger skips what it has.
    # PTAB decisions are posted up to weeks after their date (keep >= 30); a USPTO weekly file can be re-issued.
    ptab_lookback_days: int = Field(30, ge=0)
    uspto_lookback_days: int = Field(14, ge=0)
    # An OPS 404 is recorded in the ingest ledger; the document is not asked again before this many days.
    ops_404_recheck_days: int = Field(OPS_404_RECHECK_DAYS, ge=0)
    # Task runner of the fan-out flows (flows/runtime.py), read when a flow run starts:
    # `thread` (one process, PF_TASK_THREADS threads) or `dask` (PF_DASK_ADDRESS = an existing scheduler,
    # else a temporary local cluster of PF_DASK_WORKERS workers). See docs/scale-out.md.
    task_runner: Literal["thread", "dask"] = "thread"
    task_threads: int = Field(4, ge=1)
    dask_address: str | None = None
    dask_workers: int = Field(2, ge=1)
    dask_threads_per_worker: int = Field(1, ge=1)
    dask_processes: bool = True
    # Fan-out sizes (issue 18): decisions per PTAB PDF-reading task, texts per dense-embedding task,
    # SemOpenAlex requests in flight at once (public endpoint: keep it at 1-2; a local mirror takes more),
    # OPS grants fetched at once through one shared client (its throttle colours pace the starts whatever this is).
    ptab_batch: int = Field(25, ge=1)
    embed_chunk: int = Field(EMBED_CHUNK, ge=1)
    sparql_concurrency: int = Field(1, ge=1)
    ops_concurrency: int = Field(4, ge=1)
    # Memory budget of one stage (stages/memory.py): over it the stage fails with one line naming it.
    # None: 85 % of the machine's (or container's) memory. Sampled every memory_check_s seconds.
    memory_budget_gb: float | None = Field(None, gt=0)
    memory_check_s: float = Field(0.5, gt=0)
    # What `pf` prints (cli/main.py): library log lines from PF_LOG_LEVEL up on stderr; PF_DEBUG=1: the traceback
    # behind a one-line error; PF_PROGRESS=0: no progress bars, even on a terminal (common/progress.py).
    log_level: str = "WARNING"
    debug: bool = False
    progress: bool = True
    # s3:// roots: PF_S3_ENDPOINT_URL and the AWS_* variables (read in `load`, the names boto documents).
    s3: S3Settings = Field(default_factory=S3Settings, exclude=True)

    def roots(self, data_dir: str | None, out: str | None) -> tuple[str, str]:
        """(data dir, publish root): the given ones, else PF_PATHS__DATA_DIR / PF_PATHS__PUBLISHED_ROOT."""
        data = data_dir or str(self.paths.data_dir)
        return data, out or self.paths.published_root or str(Path(data) / "published")

    def patenteb_profile(self, given: str | None = None, scale: str | None = None) -> str:
        """PatenTEB's profile: `given` (a parameter or option), else PF_PROFILE, else by the scale of a replica
        world (`sample` or under 5,000 inventions: sample), else full. `pf build patenteb`, the build-patenteb
        flow, `pf run` and the nightly all ask here, so one build gets one profile whatever starts it."""
        if given:
            return given
        if self.profile:
            return self.profile
        if scale is not None and (scale == "sample" or int(scale) < SAMPLE_PROFILE_BELOW):
            return "sample"
        return "full"

    def lookback_days(self, source: str) -> int:
        """Days the live window of `source` (uspto_bulk | ptab_odp) re-reads before its last ingested end."""
        return {"uspto_bulk": self.uspto_lookback_days, "ptab_odp": self.ptab_lookback_days}.get(source, 0)

    def odp_api_key(self) -> str | None:
        return self.uspto_odp_api_key.get_secret_value() if self.uspto_odp_api_key else None

    def ops_credentials(self) -> tuple[str | None, str | None]:
        return (self.epo_ops_key.get_secret_value() if self.epo_ops_key else None,
                self.epo_ops_secret.get_secret_value() if self.epo_ops_secret else None)

    @classmethod
    def load(cls) -> "Settings":
        """PF_* variables plus the unprefixed credential names the services document."""
        s = cls()
        s.s3 = S3Settings.from_env(os.environ)
        for field, env in CREDENTIALS:
            if getattr(s, field) is None and os.environ.get(env):
                setattr(s, field, SecretStr(os.environ[env]))
        return s


def variables() -> list[str]:
    """Every environment variable the settings read, as README.md's configuration table lists them."""
    credentials = dict(CREDENTIALS)
    names: list[str] = []
    for name, info in Settings.model_fields.items():
        if name == "s3":
            names += S3_VARIABLES
        elif name in credentials:
            names.append(credentials[name])
        elif isinstance(info.annotation, type) and issubclass(info.annotation, BaseModel):
            names += [f"PF_{name.upper()}__{sub.upper()}" for sub in info.annotation.model_fields]
        else:
            names.append(f"PF_{name.upper()}")
    return names
