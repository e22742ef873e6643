"""The bots choose exactly the turns they chose when ``bot_games.json`` was recorded (same games, same seeds).

The fixture holds a fingerprint of every game of ``tests/players/record_bot_games.py``'s pairings, re-recorded
only when a bot's choices are meant to change (in a commit of its own that says which games changed): any changed
choice of any bot, or of the referee's handling of a strategy's answer, changes a game's fingerprint.  A sample of
every pairing runs by default; ``AMOEBOID_ALL_BOT_GAMES=1`` replays all 3,320 games (about a minute).
"""

from __future__ import annotations

import json
import os

import pytest

from record_bot_games import FIXTURE, PAIRINGS, key, play

RECORDED = json.loads(FIXTURE.read_text())["pairings"]
EVERY = 1 if os.environ.get("AMOEBOID_ALL_BOT_GAMES") else 15


@pytest.mark.parametrize("first, second, count, max_turns", PAIRINGS, ids=[key(p[0], p[1]) for p in PAIRINGS])
def test_the_bots_play_the_recorded_games(first, second, count, max_turns):
    recorded = RECORDED[key(first, second)]
    assert recorded["max_turns"] == max_turns and len(recorded["games"]) == count
    games = range(0, count, EVERY if count > 20 else 1)
    different = [game for game in games if play(first, second, game, max_turns) != recorded["games"][game]]
    assert not different, f"{key(first, second)}: games {different} differ from the recorded ones"
