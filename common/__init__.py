"""The bottom layer: what every other layer may use and which imports nothing else of the project.

`patent_ids` and `ipc_symbols` (the one id and IPC normalisers at every join), `sections` and `ptab_cover`
(pure text helpers the sources and the builds share), `errors` (the error root and the upstream stop),
`progress` (terminal bars that library code feeds). pyproject.toml's import-linter contracts hold it there.
"""
