"""Turn-based battles: the pure rules engine in engine/ and its API."""
