"""Case III's plan searched as a whole: the turns its text allows A, and the AND-OR search against a plain one."""

from __future__ import annotations

import random

import pytest

from amoeboid_edu import Position, apply, legal_turns
from amoeboid_edu.engine.rules import Amoeba
from amoeboid_edu.players.bots import can_end_at_once
from amoeboid_edu.theory.paper import case_III_start
from amoeboid_edu.theory.paper.case_III_plan import PlanSearch, a_holds, plan_turns, search_plan


def reference_b_wins(position: Position, turns: int) -> bool:
    """B wins within ``turns`` against every completion of the plan: no memo, no pruning (an A roll with which A can
    win at once is A's win: the plan always allows it)."""
    if position.result == "B":
        return True
    if position.is_over or turns == 0:
        return False
    if position.to_move == "B":
        return any(reference_b_wins(apply(position, turn), turns - 1)
                   for roll in range(1, 7) for turn in legal_turns(position, roll))  # fmt: skip
    return any(not can_end_at_once(position, roll, ties=False)
               and all(reference_b_wins(apply(position, turn), turns - 1) for _, turn in plan_turns(position, roll))
               for roll in range(1, 7))  # fmt: skip


def small_positions(count: int, seed: int) -> list[Position]:
    """Seeded 3x3 positions with two or three small amoebae each side might own, either side to move."""
    rng, found = random.Random(seed), []
    start = Position.start(3)
    while len(found) < count:
        cells: list[Amoeba | None] = [None] * 9
        for index in rng.sample(range(9), rng.choice((2, 3))):
            a, b = rng.choice(((rng.randint(1, 6), 0), (0, rng.randint(1, 5)), (2, 1), (1, 3)))
            cells[index] = Amoeba(a, b)
        position = Position(start.board, tuple(cells), rng.choice("AB"), start.rules)
        if not position.is_over:
            found.append(position)
    return found


@pytest.mark.parametrize("turns", [1, 2, 3])
def test_the_search_agrees_with_a_plain_and_or_search(turns):
    for position in small_positions(12 if turns < 3 else 4, seed=turns):
        assert PlanSearch().b_wins(position, turns) == reference_b_wins(position, turns), str(position)


def test_every_turn_the_text_offers_keeps_an_amoeba_of_as_and_a_holds_is_sound():
    for position in small_positions(40, seed=7):
        if position.to_move != "A":
            continue
        for roll in range(1, 7):
            for label, turn in plan_turns(position, roll):
                if label != "silent":  # the lemma a_holds rests on
                    assert apply(position, turn).owned("A"), (str(position), str(turn))
        for turns in (1, 2):
            if a_holds(position, turns):
                assert not reference_b_wins(position, turns), (str(position), turns)


def test_the_text_allows_every_eat_count_below_6_and_only_neutralisations_above():
    # A 12 in the centre, B's halves 1 and 6: Delta 5 before any roll, so every eat; A's roll of 2 makes it 7 after
    low = Position.parse(". . . / . (12,0) (0,1) / . . (0,6) A")
    kinds = {label for label, _ in plan_turns(low, 2)}
    assert kinds == {"eat", "neutralise"}  # Delta read before A's roll (5) or after it (7): A's choice
    eats = sorted(turn.a for label, turn in plan_turns(low, 1) if label == "eat" and turn.dst == "c2")
    assert eats == list(range(2, 14))  # from the least that gains control (2) to the whole amoeba of 13
    high = Position.parse(". . . / . (20,0) (0,1) / . . (0,6) A")
    assert {label for label, _ in plan_turns(high, 1)} == {"neutralise"}
    assert {(turn.dst, turn.a) for _, turn in plan_turns(high, 1)} == {("c2", 1), ("c3", 6)}


def test_from_the_cards_set_up_the_whole_plan_holds_where_completion_iv_loses():
    from amoeboid_edu.theory.paper.case_III import first_b_win, whole_eat_line

    start = case_III_start(10, 1)
    depth, line = first_b_win(start, whole_eat_line, 6)
    assert line is not None  # (iv) loses by turn 6 ...
    result = search_plan(start, depth, line)
    assert result.first is None and result.where is not None  # ... the plan does not, and the card shows where
    assert not PlanSearch().b_wins(start, depth)
