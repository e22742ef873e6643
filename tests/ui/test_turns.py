"""The turn-building state machine without a widget: clicks in, the engine's turns out."""

from __future__ import annotations

import pytest

from amoeboid_edu import Game, Position, random_turn, seeded_rng
from amoeboid_edu.common.intents import Refused
from amoeboid_edu.engine.rules import apply, legal_move_pairs
from amoeboid_edu.ui.turns import TurnBuilder


def build(position: Position, turn) -> object:
    """Click ``turn`` into a fresh builder as a student would; what the last click hands back."""
    builder = TurnBuilder(position, turn.roll)
    if builder.passed is not None:
        return builder.passed
    if builder.phase == "grow":
        assert turn.grow in builder.selectable()
        made = builder.click(turn.grow)
        if made is not None:
            return made
    assert builder.grow == turn.grow and builder.phase == "source"
    assert builder.click(turn.src) is None and builder.phase == "destination"
    if builder.counts != (turn.a, turn.b):
        builder.set_counts(turn.a, turn.b)
    assert turn.dst in builder.destinations()
    return builder.click(turn.dst)


@pytest.mark.parametrize("seed", range(4))
def test_clicking_the_engines_random_turns_builds_exactly_those_turns(seed):
    game = Game(seed=seed)
    while not game.is_over and len(game) < 60:
        position, roll = game.position, game.roll()
        turn = random_turn(position, roll, seeded_rng(seed, "test-turns", len(game)))
        built = build(position, turn)
        assert built == turn, (str(position), str(turn), str(built))
        assert apply(position, built) == apply(position, turn)
        game.play(turn)


def test_one_amoeba_grows_at_once_and_a_grow_without_a_move_is_a_pass():
    builder = TurnBuilder(Position.parse("(4,0) . . / . . . / . . (0,2) A"), roll=2)
    assert builder.auto_grow and builder.grow == "a1" and builder.phase == "source" and not builder.can_cancel
    # B's (0,1) in the corner is hemmed in by bigger amoebae: after growing it still cannot move
    cornered = Position.parse("(1,0) . . / . (9,0) (9,0) / . (9,0) (0,1) B")
    assert not legal_move_pairs(cornered, 1, "c3")
    passed = TurnBuilder(cornered, 1).passed
    assert passed is not None and passed.is_pass and passed.grow == "c3"


def test_refusals_name_what_was_wrong_and_what_to_click():
    builder = TurnBuilder(Position.parse("(3,0) . (2,0) / . . . / . . (0,3) A"), roll=1)
    with pytest.raises(Refused, match="c3 holds .* to grow it"):
        builder.click("c3")
    with pytest.raises(Refused, match="no cell 'z9'"):
        builder.click("z9")
    with pytest.raises(Refused, match="choose an amoeba to move from"):
        builder.set_counts(1, 0)
    builder.click("a1")
    builder.click("a1")
    with pytest.raises(Refused, match="at least 1 unit"):
        builder.set_counts(0, 0)
    with pytest.raises(Refused, match="a1 holds"):
        builder.set_counts(9, 0)
    assert builder.can_cancel and builder.presets()[0]["label"] == "whole"
