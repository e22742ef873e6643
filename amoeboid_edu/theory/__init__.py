"""Theory: statistics of games, exact and sampled analysis, game-tree search, the coach, and the paper's claims.

Imports the engine, the players and the lab's statistics; never the user interface (charts are Altair
specifications, drawn by :mod:`amoeboid_edu.ui`).
"""
