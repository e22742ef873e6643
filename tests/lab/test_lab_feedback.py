"""The strategy lab's feedback for a beginner: stop early on a repeated failure, name the line, fast defaults."""

from __future__ import annotations

import textwrap

from amoeboid_edu.lab import score
from amoeboid_edu.lab.scoring import SAME_FAILURE_STOP
from amoeboid_edu.sandbox.defaults import FAST_OPPONENTS


def write_strategy(tmp_path, body: str) -> str:
    path = tmp_path / "student.py"
    path.write_text("from amoeboid_edu.players.strategy import candidate_turns\n\n\n" + textwrap.dedent(body))
    return f"{path}:strategy"


def test_a_strategy_failing_the_same_way_every_game_is_stopped_early_with_the_line(tmp_path):
    target = write_strategy(tmp_path, '''
        def strategy(position, roll, rng):
            cell = "b2"
            return min(candidate_turns(position, roll), key=lambda turn: distance(turn.dst, cell))
    ''')
    card = score(target, games=16, seed=9, progress=False)
    assert len(card.records) == SAME_FAILURE_STOP < 16 * len(FAST_OPPONENTS)
    assert card.stopped.startswith("your strategy fails the same way every game: fix this first.")
    assert "NameError: name 'distance' is not defined" in card.stopped
    assert "in <lambda>, line 7 of student.py: return min(candidate_turns(position, roll)" in card.stopped
    assert str(card).startswith("⚠ your strategy fails the same way") and "⚠" in card._repr_html_()


def test_a_strategy_failing_only_sometimes_is_scored_in_full(tmp_path):
    target = write_strategy(tmp_path, '''
        def strategy(position, roll, rng):
            if len(position.amoebae()) > 3:
                raise RuntimeError("too many amoebae for me")
            return next(iter(candidate_turns(position, roll)))
    ''')
    card = score(target, games=8, seed=1, opponents=["random"], progress=False)
    assert card.stopped == "" and len(card.records) == 8


def test_score_defaults_to_the_fast_bots(capsys):
    card = score("random", games=2, seed=1, opponents=None, progress=False)
    assert sorted({record.second for record in card.records}) == sorted(FAST_OPPONENTS)
    assert "expectimax" not in capsys.readouterr().out


def test_the_card_draws_its_chart_with_its_table():
    card = score("random", games=2, seed=1, opponents=["greedy"], progress=False)
    html = card._repr_html_()
    assert html.index("<table") < html.index("<svg") and 'class="amoeboid-chart"' in html
