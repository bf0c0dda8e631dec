# Two commands on a fresh machine: `make run` and `make test`.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-$(shell sha256sum pyproject.toml | cut -c1-12)
OUT ?= data/published
SCALE ?= sample
# Two workers a core: the whole-run tests wait on subprocesses and servers. Measured on a clean clone beside one busy
# job (2 cores): 3 workers 9:15, 4 workers 8:55, 5 workers 9:07-9:22 (each worker collects the suite and imports
# the stack again: 819 / 855 / ~925 CPU-s).
TEST_WORKERS ?= 4
export HF_HUB_OFFLINE := 1
export TRANSFORMERS_OFFLINE := 1
export PREFECT_SERVER_ANALYTICS_ENABLED := false

.PHONY: install tesseract run sample test test-fast bench deploy clean

# pip is told not to compile the dependencies (~27,000 modules, ~50 CPU-s: most are never imported); the ones the
# project and its tests import (~7,000) are compiled by importing them once with bytecode on, so that no later
# process compiles them again (these machines set PYTHONDONTWRITEBYTECODE=1). Two processes, one per core, over two
# lists that share little (the models' stack; the orchestration and test stack): 29 -> 16 s. An import that fails
# here fails the install. A module imported only later is compiled by its first importer.
WARM_MODELS := sentence_transformers spacy pdfplumber pytesseract lxml.etree bm25s rank_bm25 pyoxigraph
WARM_REST := patentfactory.cli.main flows.nightly flows.nightly_live flows.evaluate prefect.engine \
	prefect.server.api.server prefect.cli duckdb SPARQLWrapper s3fs boto3 dask.distributed prefect_dask \
	pytest xdist moto.server hypothesis
WARM := PYTHONDONTWRITEBYTECODE= $(BIN)/python -c 'import importlib, sys; [importlib.import_module(m) for m in sys.argv[1:]]'

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q --no-compile -e '.[test,dask]'
	$(WARM) $(WARM_MODELS) & models=$$!; $(WARM) $(WARM_REST) && wait $$models
	rm -f $(VENV)/.installed-* && touch $(STAMP)

tesseract:
	@command -v tesseract >/dev/null 2>&1 || { \
	  SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
	  $$SUDO apt-get update -qq && $$SUDO apt-get install -y -qq tesseract-ocr >/dev/null; }

install: $(STAMP) tesseract

run: install
	$(BIN)/pf run --scale $(SCALE) --out $(OUT)

sample: install  # regenerate the embedded sample world (committed under data/sample)
	rm -rf data/sample && $(BIN)/pf generate --profile sample --scale 300 --seed 1337 --out data/sample

# Bytecode is written for the suite even where the environment says not to (PYTHONDONTWRITEBYTECODE=1 on the build
# machines): the suite starts ~100 Python processes (xdist workers, `pf` runs, deployment flow runs), and without
# .pyc files each compiles the project's modules again and each worker rewrites every test module again
# (collection 9.4 -> 5.0 CPU-s a process). The packages are compiled once before the workers start.
PYC := PYTHONDONTWRITEBYTECODE=
COMPILE := $(PYC) $(BIN)/python -m compileall -q common schemas sources transforms flows patentfactory

# The whole suite on every core (xdist, modules kept together, `long_run` tests first; see tests/conftest.py),
# slowest 15 listed last.
test: install
	@$(COMPILE)
	$(PYC) $(BIN)/python -m pytest -q -n $(TEST_WORKERS) --dist loadgroup

# The inner loop: unit and conformance tests, no services and no whole runs (< 2 min); by the modules' markers.
test-fast: install
	@$(COMPILE)
	$(PYC) PF_TEST_PREFECT_SERVER=0 $(BIN)/python -m pytest -q -n $(TEST_WORKERS) --dist loadgroup -m "not slow and not e2e and not services"

bench: install
	$(BIN)/python benchmarks/uspto_parse.py
	$(BIN)/python benchmarks/generate_world.py
	$(BIN)/python benchmarks/negatives.py
	$(BIN)/python benchmarks/build_patenteb.py --scale 10000
	$(BIN)/python benchmarks/scale.py
	$(BIN)/python benchmarks/dask_scaleout.py
	$(BIN)/python benchmarks/ingest_scaling.py
	$(BIN)/python benchmarks/realistic_costs.py
	$(BIN)/python benchmarks/capacity_slopes.py

deploy: install  # registers every deployment in prefect.yaml against $$PREFECT_API_URL
	@test -n "$$PREFECT_API_URL" || { echo "set PREFECT_API_URL (e.g. http://127.0.0.1:4200/api)"; exit 2; }
	$(BIN)/prefect work-pool inspect local-pool >/dev/null 2>&1 || $(BIN)/prefect work-pool create local-pool --type process
	PF_WORKDIR=$(CURDIR) $(BIN)/prefect --no-prompt deploy --all

clean:
	rm -rf data/world data/raw data/warehouse data/published
