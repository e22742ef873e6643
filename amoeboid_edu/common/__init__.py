"""Pieces every layer and the namesakes share, importing nothing of Amoeboid's: the boards' intent channel
(:mod:`.intents`) and the course's palette (:mod:`.palette`).  import-linter keeps them so (pyproject.toml)."""
