"""Storage rooms: local/S3 storage, the raw cache, the ingest ledger, the warehouse, versioned publish, cards."""
