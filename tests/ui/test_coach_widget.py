"""The coach on the board: the Hint and Review intents, played without a browser."""

from __future__ import annotations

import threading

from amoeboid_edu import Game, random_turn, seeded_rng
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
    assert _intent(board, "review")  # the review runs on its own thread
    board._review_thread.join(timeout=120)
    assert board.review_progress == {}
    view = board.review_view
    assert [row["played"] for row in view["rows"]] == board.history
    assert view["rows"][0]["class"] == "best" and view["rows"][0]["A_after"] == 1.0
    assert view["picked"] == -1 and view["chart"].count("data-ply=") == len(board.history)
    assert _intent(board, "review_pick", ply=1)  # a turn picked on the chart: Python draws its board
    assert board.review_view["picked"] == 1 and 'data-cell="c3"' in board.review_view["picked_svg"]
    assert 'amb-picked' in board.review_view["chart"]
    assert not _intent(board, "review_pick", ply=len(board.history) + 1) and "not" in board.error
    _intent(board, "new")
    assert board.review_view == {}  # a new game forgets the old review


def test_hint_when_no_human_is_to_move_is_refused():
    board = Board.from_position(". . . / . (3,0) . / . . . B", seed=1)
    assert not _intent(board, "hint")
    assert "hints are for a human's turn" in board.error


def _finished_board() -> Board:
    """A board on which a seeded game of the random player was stepped through to its end (a scripted line)."""
    game = Game(seed=5)
    while not game.is_over:
        game.play(random_turn(game.position, game.roll(), seeded_rng(5, "widget", len(game))))
    board = Board(seed=5)
    board.queue(game.turns)
    for _ in game.turns:
        board.next()
    assert board.phase == "over"
    ahead = getattr(board, "_prefetcher", None)  # the rows computed ahead while the game was stepped through:
    if ahead is not None:  # finished first, so a test that replaces coach.review_turn sees only the review's calls
        ahead.join(timeout=120)
    return board


def test_the_board_answers_clicks_while_the_review_runs_and_cancel_stops_it(monkeypatch):
    """The review thread holds no lock while it computes: an intent is answered between two of its turns, and
    Cancel stops it before the next turn, with a notice on the board and no review shown."""
    board = _finished_board()
    turns_done = []
    gate, resume = threading.Event(), threading.Event()
    real = coach.review_turn

    def slow_turn(*args, **kwargs):  # the review pauses after its first turn until the test lets it go on
        row = real(*args, **kwargs)
        turns_done.append(row["turn"])
        if len(turns_done) == 1:
            gate.set()
            assert resume.wait(60)
        return row

    monkeypatch.setattr(coach, "review_turn", slow_turn)
    assert _intent(board, "review")
    assert gate.wait(60)
    assert board.review_progress["total"] == len(board.game) > 1
    click = threading.Thread(target=_intent, args=(board, "cell"), kwargs={"cell": "z9"})
    click.start()
    click.join(timeout=30)
    assert not click.is_alive() and "no cell 'z9'" in board.error  # answered during the review
    assert _intent(board, "cancel_review")
    resume.set()
    board._review_thread.join(timeout=60)
    assert turns_done == [1]  # stopped before its second turn
    assert board.review_progress == {} and board.review_view == {}
    assert "The review was cancelled." in board.message


def test_cancel_is_answered_while_the_reviews_turn_is_still_computed_and_its_late_end_changes_nothing(monkeypatch):
    """A turn of the review can take long (a loaded machine; the coach's kernel compiled on first use in a fresh
    install): Cancel ends the review on the board at once, Review is offered again, and when the cancelled thread
    finally ends its turn it leaves the new review alone."""
    board = _finished_board()
    started, release = threading.Event(), threading.Event()
    real = coach.review_turn
    calls = []

    def stuck_first(*args, **kwargs):  # the first review's first turn does not end until the test lets it
        calls.append(threading.current_thread())
        if len(calls) == 1:
            started.set()
            assert release.wait(60)
        return real(*args, **kwargs)

    monkeypatch.setattr(coach, "review_turn", stuck_first)
    assert _intent(board, "review") and started.wait(60)
    first = board._review_thread
    assert _intent(board, "cancel_review")
    assert first.is_alive()  # still inside its turn, and yet:
    assert board.review_progress == {} and board.review_view == {}
    assert "The review was cancelled." in board.message
    assert _intent(board, "review")  # offered again at once
    second = board._review_thread
    assert second is not first and board.review_progress["total"] == len(board.game)
    release.set()
    first.join(timeout=60)
    assert not first.is_alive()
    assert board._review_thread is second and (board.review_progress or board.review_view)  # untouched by the first
    second.join(timeout=120)
    assert board.review_progress == {} and len(board.review_view["rows"]) == len(board.game)
    assert sum(thread is first for thread in calls) == 1  # the first review stopped before its next turn


def test_a_second_review_while_one_runs_is_refused(monkeypatch):
    board = _finished_board()
    gate, resume = threading.Event(), threading.Event()

    def paused(*args, **kwargs):
        gate.set()
        assert resume.wait(60)
        raise coach.ReviewCancelled("stopped by the test")

    monkeypatch.setattr(coach, "review_turn", paused)
    assert _intent(board, "review") and gate.wait(60)
    assert not _intent(board, "review")
    assert "already running" in board.error
    resume.set()
    board._review_thread.join(timeout=60)


def test_the_reviews_rows_are_computed_ahead_while_the_game_is_played():
    """At a human's turn (here: a scripted line, stepped through), a thread values the turns played as the review
    will, so Review at the end finds them cached."""
    coach._ESTIMATES.clear()
    game = Game(seed=5)
    for _ in range(6):
        game.play(random_turn(game.position, game.roll(), seeded_rng(5, "ahead", len(game))))
    board = Board(seed=5)
    board.queue(game.turns)
    for _ in range(4):
        board.next()
        board._prefetcher.join(timeout=120)
    before, after = game.positions[3], game.positions[4]
    for position in (before, after):
        assert (position, coach.GREEDY_PLIES, 5, coach.ROLLOUTS) in coach._ESTIMATES  # win_before, win_next
    assert (after, coach.GREEDY_PLIES - 1, 5, coach.ROLLOUTS) in coach._ESTIMATES  # win_after
    assert board._prefetched_count == 4
