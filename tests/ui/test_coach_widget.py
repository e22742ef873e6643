"""The coach on the board: the Hint and Review intents, played without a browser."""

from __future__ import annotations

from amoeboid_edu.theory import coach
from amoeboid_edu.ui.widget import Board


def _intent(board: Board, kind: str, **fields) -> bool:
    return board.handle_intent({"kind": kind, "version": board.version, **fields})


def test_hint_shows_the_coachs_top_three_and_a_hint_can_be_played():
    board = Board.from_position(". . . / . (5,0) . / . . (0,2) A", seed=1)
    roll = board.view["roll"]
    assert board.hints == []
    assert _intent(board, "hint")
    expected = coach.hints(board.game.position, roll, grow="b2", seed=1)  # the only amoeba: grown already
    assert [hint["turn"] for hint in board.hints] == [str(hint.turn) for hint in expected]
    assert board.hints[0]["win"] == expected[0].win and len(board.hints) == 3
    played = board.hints[0]["turn"]
    assert _intent(board, "play_hint", turn=played)
    assert board.history == [played]
    assert board.hints == []  # hints belong to the turn they were made for


def test_a_turn_that_was_not_hinted_is_refused_and_changes_nothing():
    board = Board.from_position("(3,0) . . / . . . / . . (0,3) A", seed=2)
    assert not _intent(board, "play_hint", turn="1 a1 a1-b1")
    assert "not one of the hints" in board.error and board.history == []


def test_hints_true_gives_hints_at_every_human_turn():
    board = Board.from_position("(3,0) . . / . . . / . . (0,3) A", seed=2, opponent="greedy", hints=True)
    assert len(board.hints) == 3
    assert _intent(board, "play_hint", turn=board.hints[0]["turn"])
    assert board.phase == "over" or len(board.hints) == 3  # new hints after the bot replied


def test_review_at_the_end_of_a_game_sends_every_position():
    board = Board.from_position(". . . / . (5,0) . / . . (0,2) A", seed=1, opponent="greedy")
    _intent(board, "hint")
    _intent(board, "play_hint", turn=board.hints[0]["turn"])
    assert board.phase == "over"
    assert _intent(board, "review")
    view = board.review_view
    assert [row["played"] for row in view["rows"]] == board.history
    assert view["rows"][0]["class"] == "best" and view["rows"][0]["A_after"] == 1.0
    assert len(view["plies"]) == len(board.history) + 1 and view["moves"][1] == ["b2", "c3"]
    _intent(board, "new")
    assert board.review_view == {}  # a new game forgets the old review


def test_hint_when_no_human_is_to_move_is_refused():
    board = Board.from_position(". . . / . (3,0) . / . . . B", seed=1)
    assert not _intent(board, "hint")
    assert "hints are for a human's turn" in board.error
