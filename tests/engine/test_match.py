"""The one match loop: a game's streams depend on the seed and the players, never on what else was imported."""

import subprocess
import sys

from amoeboid_edu.engine.game import random_turn
from amoeboid_edu.engine.match import STRATEGY, kind_of, play_match


def test_the_engines_random_player_is_a_known_bot_without_the_players_layer():
    code = ("import sys; from amoeboid_edu.engine.match import kind_of; from amoeboid_edu.engine.game import random_turn;"
            " print(kind_of(random_turn), 'amoeboid_edu.players.bots' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.stdout.split() == ["random", "False"], done.stderr


def test_a_game_is_the_same_whether_or_not_the_bots_were_imported():
    here = play_match(random_turn, random_turn, seed="same", pair=3)
    code = ("from amoeboid_edu.engine.match import play_match; from amoeboid_edu.engine.game import random_turn;"
            " print(' / '.join(map(str, play_match(random_turn, random_turn, seed='same', pair=3).turns)))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.stdout.strip() == " / ".join(map(str, here.turns)), done.stderr


def test_an_unknown_function_is_a_strategy():
    assert kind_of(lambda position, roll, rng: None) == STRATEGY


def _counting_checks(monkeypatch):
    """Count the referee's full checks of a turn (every checked path goes through ``rules._resolve``)."""
    from amoeboid_edu.engine import rules

    calls = []
    check = rules._resolve

    def counted(position, turn):
        calls.append(turn)
        return check(position, turn)

    monkeypatch.setattr(rules, "_resolve", counted)
    return calls


def test_play_match_checks_a_strategys_turns_once_each_and_a_bots_not_again(monkeypatch):
    from amoeboid_edu import legal_turns
    from amoeboid_edu.players.registry import BOTS

    def first_legal_as_text(position, roll, rng):
        return str(next(legal_turns(position, roll)))

    calls = _counting_checks(monkeypatch)
    bots_only = play_match(BOTS["greedy"], random_turn, seed="checks", pair=1, max_turns=60)
    assert bots_only.turns and calls == []  # the bots' turns come from their generators: not checked again
    mixed = play_match(first_legal_as_text, random_turn, seed="checks", pair=1, max_turns=60)
    strategy_moves = len(mixed.turns[::2])
    assert strategy_moves and len(calls) == strategy_moves  # each text answer read and checked once
