"""The generic game-tree searches of :mod:`amoeboid_edu.theory.search` (the paper's verdicts test them at length)."""

from __future__ import annotations

from amoeboid_edu.engine.rules import Board, Position
from amoeboid_edu.theory.search import grid_symmetries


def test_a_square_grid_has_eight_symmetries_and_other_boards_only_the_identity():
    assert len(set(grid_symmetries(Position.start(3).board))) == 8
    assert grid_symmetries(Board.grid(2, 3)) == [tuple(range(6))]
    path = Board.graph({"x": ["y"], "y": ["z"], "z": []}, start=("x", "z"))
    assert grid_symmetries(path) == [(0, 1, 2)]
