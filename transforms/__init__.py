"""Pure functions over polars/duckdb tables (no I/O, no settings)."""
