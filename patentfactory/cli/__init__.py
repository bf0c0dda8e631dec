"""The `pf` command line: `main` holds the app and shared helpers, one module per command group."""
from patentfactory.cli.main import app, main

__all__ = ["app", "main"]
