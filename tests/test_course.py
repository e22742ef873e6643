"""The lessons' live chart follows the board: it redraws after every turn and undo, and never captures output."""

import pytest

pytest.importorskip("amoeboid_edu.widget")

from amoeboid_edu import analysis  # noqa: E402
from amoeboid_edu.course import WAITING, LiveChart, chart_svg  # noqa: E402
from amoeboid_edu.widget import Board  # noqa: E402


def delta_chart(game):
    return analysis.delta_chart(analysis.game_frame(game), title="live")


def test_the_chart_waits_for_the_first_turn_then_follows_every_turn_and_undo():
    board = Board.from_position(". . . / . (9,0) . / . (0,1) (0,2) A", seed=1)
    live = LiveChart(board, delta_chart)
    assert live.value == WAITING
    board.queue(["1 b2 b2-c3 2,0", "3 b3 b3-a3"])
    board.next()
    after_one = live.value
    assert after_one.startswith("<svg") and after_one == chart_svg(delta_chart(board.game))
    board.next()
    assert live.value == chart_svg(delta_chart(board.game)) != after_one
    board.handle_intent({"kind": "undo", "version": board.version})
    assert len(board.game) == 1 and live.value == after_one


def test_its_text_form_is_stable_for_nbval():
    board = Board(seed=3)
    assert repr(LiveChart(board, delta_chart)) == f"LiveChart(following {board!r})"
    assert "0x" not in repr(board)


def test_the_delta_chart_spec_plots_both_advantages_per_turn():
    board = Board.from_position(". . . / . (9,0) . / . (0,1) (0,2) A", seed=1)
    board.queue(["1 b2 b2-c3 2,0"])
    board.next()
    spec = delta_chart(board.game).to_dict()
    encodings = [layer.get("encoding", {}) for layer in spec["layer"]]
    assert any(enc.get("x", {}).get("field") == "turn" and enc.get("y", {}).get("field") == "value" for enc in encodings)
    (values,) = spec["datasets"].values()
    after = board.game.position  # (8,0) in the centre, (2,2) neutral: delta 9 - 2, Delta 8 - 1
    assert {(row["quantity"], row["value"]) for row in values} == {("delta", after.delta), ("Delta", after.Delta)}
    assert (after.delta, after.Delta) == (7, 7)
