"""Players: the helpers a strategy is written with, the baseline bots and their registry, and OpenSpiel's MCTS.

Imports only :mod:`amoeboid_edu.engine`.
"""
