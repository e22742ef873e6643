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
