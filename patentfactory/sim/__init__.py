"""The simulated world: the deterministic generator (real wire formats) and the upstream replica that serves it."""
