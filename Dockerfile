FROM python:3.11-slim
RUN apt-get update -qq && apt-get install -y -qq --no-install-recommends tesseract-ocr git make && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY pyproject.toml README.md ./
COPY patentfactory patentfactory
COPY sources sources
COPY transforms transforms
COPY schemas schemas
COPY flows flows
COPY data/sample data/sample
COPY prefect.yaml ./
# Set PIP_EXTRA_INDEX_URL to a CPU-only torch index at build time for a smaller image.
ARG PIP_EXTRA_INDEX_URL=
RUN pip install --no-cache-dir -e '.[dask]'
ENV HF_HUB_OFFLINE=1 PREFECT_SERVER_ANALYTICS_ENABLED=false
CMD ["pf", "--help"]
