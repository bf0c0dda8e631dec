"""Upstream sources: the only code that touches the network or raw bytes (bytes -> typed records)."""
