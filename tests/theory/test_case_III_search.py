"""The Case III card's search against one completion (:func:`~amoeboid_edu.theory.paper.case_III.b_win_line`): the
rule facts its pruning rests on, each checked against every legal turn, and the pruned search against the plain one."""

from __future__ import annotations

from amoeboid_edu import Amoeba, Board, Position, Turn, apply, legal_turns, random_playout, seeded_rng
from amoeboid_edu.theory.paper import case_III_start, paper_line
from amoeboid_edu.theory.paper.case_III import (
    a_holds_after_any_b_turn, a_keeps_an_amoeba, b_out_of_reach, b_win_line, cells_that_corner_a)


def _positions(count: int) -> list[Position]:
    """Seeded positions from random play out of Case III's set-ups, both sides to move, games over left out."""
    rng = seeded_rng("case III search facts")
    found = []
    while len(found) < count:
        start = case_III_start(rng.choice((7, 10)), rng.choice((1, 5)))
        position = random_playout(start, rng, max_turns=rng.randint(1, 14)).final
        if not position.is_over:
            found.append(position)
    return found


def _crowded(count: int, to_move: str = "B") -> list[Position]:
    """Seeded crowded 3x3 boards, ``to_move`` to move: A owns one or two amoebae among six to eight pieces, so that a B turn
    can leave A's last amoeba with no empty cell next to it."""
    rng = seeded_rng("case III crowded", to_move)
    found = []
    while len(found) < count:
        cells: list[Amoeba | None] = [None] * 9
        spots = rng.sample(range(9), rng.randint(6, 8))
        for k, j in enumerate(spots):
            a, b = rng.randint(0, 4), rng.randint(0, 4)
            cells[j] = Amoeba(b + rng.randint(1, 3), b) if k < rng.randint(1, 2) else Amoeba(a, a + rng.randint(0, 5))
            if cells[j].size == 0:
                cells[j] = None
        position = Position(Board.grid(3), tuple(cells), to_move)
        if not position.is_over:
            found.append(position)
    return found


def _cornered(position: Position) -> bool:
    owned = position.owned_indices("A")
    return len(owned) == 1 and all(position.cells[j] is not None for j in position.board.neighbours[owned[0]])


def test_a_turn_takes_at_most_one_amoeba_from_a_and_b_turns_corner_a_only_by_the_cells_named():
    turns = cornering = 0
    for position in _positions(120) + _crowded(120):
        before = len(position.owned_indices("A"))
        reach = cells_that_corner_a(position) if position.to_move == "B" else None
        for roll in range(1, 7):
            for turn in legal_turns(position, roll):
                after = apply(position, turn)
                assert len(after.owned_indices("A")) >= before - 1, (position, turn)
                turns += 1
                if reach is not None and after.result == "ongoing" and _cornered(after):
                    assert turn.dst in reach, (position, turn)
                    cornering += 1
    assert turns > 20_000 and cornering > 0


LOST_ON_ITS_OWN_TURN = Position.parse(". . . / . (5,5) (0,6) / . (5,5) (3,2) A")
"""Turn 7 of the paper bot's line from A 10 v B 1: with a 1, A's only legal turn moves all of c3 onto c2."""


def test_a_keeps_an_amoeba_exactly_when_a_legal_turn_neither_loses_nor_ties():
    checked = kept = 0
    for position in _positions(200) + _crowded(200, "A") + [LOST_ON_ITS_OWN_TURN]:
        if position.to_move != "A":
            continue
        for roll in range(1, 7):
            some = any(apply(position, turn).result in ("ongoing", "A") for turn in legal_turns(position, roll))
            assert a_keeps_an_amoeba(position, roll) == some, (position, roll)
            checked += 1
            kept += some
    assert checked > 500 and 0 < kept < checked and not a_keeps_an_amoeba(LOST_ON_ITS_OWN_TURN, 1)


def test_after_any_b_turn_a_keeps_an_amoeba_where_the_card_says_so():
    checked = 0
    for position in _positions(300):
        if position.to_move != "B" or not a_holds_after_any_b_turn(position):
            continue
        for roll in range(1, 7):
            for turn in legal_turns(position, roll):
                after = apply(position, turn)
                if after.result == "ongoing":
                    assert all(a_keeps_an_amoeba(after, a_roll) for a_roll in range(1, 7)), (position, turn)
                    checked += 1
    assert checked > 1000


def test_the_arithmetic_bound_holds_on_every_line_of_play():
    rng = seeded_rng("case III bound")
    checked = 0
    for position in _positions(150):
        for turns in (1, 2, 3):
            if not b_out_of_reach(position, turns):
                continue
            for _ in range(20):  # random lines of that length never end in B's win
                game = random_playout(position, rng, max_turns=turns)
                assert game.final.result != "B", (position, turns)
                checked += 1
    assert checked > 500


def _small_crowded(count: int) -> list[Position]:
    """Seeded 3x3 boards of five to eight pure amoebae of 1 to 3 units, A (one or two of them) to move: close enough
    for B to win within three turns from some of them, small enough to search without pruning."""
    rng = seeded_rng("case III small crowded")
    found = []
    while len(found) < count:
        cells: list[Amoeba | None] = [None] * 9
        for k, j in enumerate(rng.sample(range(9), rng.randint(5, 8))):
            cells[j] = Amoeba(rng.randint(1, 3), 0) if k < rng.randint(1, 2) else Amoeba(0, rng.randint(1, 3))
        position = Position(Board.grid(3), tuple(cells), "A")
        if not position.is_over:
            found.append(position)
    return found


def test_the_pruned_search_against_the_paper_bot_finds_what_the_plain_search_finds():
    """``paper_line`` is searched with the shortcuts of :data:`KEEPS_AN_AMOEBA`; a wrapper of it is not in that
    tuple, so the same line is searched without them: three turns (A's, B's with one turn left, A's last, where the
    shortcuts act) from seeded positions, both say the same, and every line found is a B win."""

    def plain(position: Position, roll: int) -> Turn:
        return paper_line(position, roll)

    found = {True: 0, False: 0}
    for start in _small_crowded(30):
        pruned, general = b_win_line(start, paper_line, 3), b_win_line(start, plain, 3)
        assert (pruned is None) == (general is None), start
        found[pruned is not None] += 1
        if pruned is not None:
            final = start
            for entry in pruned:
                final = apply(final, Turn.parse(entry.split(" ", 1)[1]))
            assert final.result == "B" and len(pruned) <= 3
    assert found[True] >= 3 and found[False] >= 10
