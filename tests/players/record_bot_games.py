"""Record (or check) the fingerprints of seeded games between the bots: the fixture ``bot_games.json``.

    .venv/bin/python tests/players/record_bot_games.py            # write tests/players/bot_games.json
    .venv/bin/python tests/players/record_bot_games.py --check    # compare today's code with it

Each game is played in-process with :func:`~amoeboid_edu.engine.match.play_match` (the lab's seeding scheme:
the dice of the pair at the table named by the pairing, each bot its own game-long stream, a strategy a fresh
per-move generator) and kept as ``[turns, result, digest]``, the digest being the first 16 hex digits of the
SHA-256 of the game's turns in notation, one a line.  Two codes that choose the same turn at every move of every
game give the same fixture; the first different choice changes that game's digest.

The fixture pins the bots' choices against speed work: ``tests/players/test_bot_games.py`` replays a sample of it
on every run and all of it with ``AMOEBOID_ALL_BOT_GAMES=1``.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
from pathlib import Path
from typing import Any, Callable

from amoeboid_edu.engine.game import TURN_CAP
from amoeboid_edu.engine.match import play_match
from amoeboid_edu.players.registry import BOTS

STRATEGIES = Path(__file__).resolve().parents[1] / "strategies"
if str(STRATEGIES) not in sys.path:  # run as a script; under pytest, tests/conftest.py puts it there
    sys.path.insert(0, str(STRATEGIES))
from student import first_eater  # noqa: E402 - the walker of legal_turns, shared with bench/scoring.py

FIXTURE = Path(__file__).with_name("bot_games.json")
SEED = "bot-games"


def first_eater_text(position: Any, roll: int, rng: random.Random) -> Any:
    """The same walker answering in notation: the referee's text path."""
    return str(first_eater(position, roll, rng))


PLAYERS: dict[str, Callable[..., Any]] = {
    **{name: BOTS[name] for name in ("random", "greedy", "paper", "expectimax")},
    "first_eater": first_eater,
    "first_eater_text": first_eater_text,
}

# (first, second, games, max_turns): every pairing of the three fast bots both ways, the walker against each,
# and expectimax (about 15 ms a move) over fewer, shorter games.
PAIRINGS: list[tuple[str, str, int, int]] = [
    *[(first, second, 300, TURN_CAP) for first in ("random", "greedy", "paper")
      for second in ("random", "greedy", "paper")],
    *[("first_eater", bot, 300, TURN_CAP) for bot in ("random", "greedy", "paper")],
    ("first_eater_text", "paper", 100, TURN_CAP),
    ("expectimax", "greedy", 10, 60),
    ("paper", "expectimax", 10, 60),
]


def digest(turns: list[Any]) -> str:
    return hashlib.sha256("\n".join(map(str, turns)).encode()).hexdigest()[:16]


def play(first: str, second: str, game: int, max_turns: int) -> list[Any]:
    """Game ``game`` of a pairing: pair ``game // 2``, the first player at A for even games and at B for odd ones."""
    match = play_match(PLAYERS[first], PLAYERS[second], seed=SEED, pair=game // 2, first_seat="AB"[game % 2],
                       max_turns=max_turns, table=(first, second))
    return [len(match.turns), match.winner or ("capped" if match.capped else "tie"), digest(match.turns)]


def key(first: str, second: str) -> str:
    return f"{first} v {second}"


def record() -> dict[str, Any]:
    games = {}
    for first, second, count, max_turns in PAIRINGS:
        games[key(first, second)] = {"max_turns": max_turns,
                                     "games": [play(first, second, game, max_turns) for game in range(count)]}
        print(key(first, second), file=sys.stderr)
    return {"made_by": "tests/players/record_bot_games.py", "seed": SEED, "pairings": games}


def dump(fixture: dict[str, Any]) -> str:
    """The fixture as JSON text, one game a line."""
    lines = [f'{{"made_by": {json.dumps(fixture["made_by"])}, "seed": {json.dumps(fixture["seed"])}, "pairings": {{']
    for number, (name, pairing) in enumerate(fixture["pairings"].items()):
        lines.append(f'{"," if number else ""}{json.dumps(name)}: {{"max_turns": {pairing["max_turns"]}, "games": [')
        last = len(pairing["games"]) - 1
        lines += [json.dumps(game) + ("," if i < last else "") for i, game in enumerate(pairing["games"])]
        lines.append("]}")
    return "\n".join(lines) + "\n}}\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="compare with the fixture instead of writing it")
    args = parser.parse_args()
    if not args.check:
        FIXTURE.write_text(dump(record()))
        return
    recorded = json.loads(FIXTURE.read_text())["pairings"]
    different = 0
    for first, second, count, max_turns in PAIRINGS:
        for game, expected in enumerate(recorded[key(first, second)]["games"]):
            if play(first, second, game, max_turns) != expected:
                different += 1
                print(f"{key(first, second)} game {game} differs", file=sys.stderr)
    print(f"{different} games differ")
    sys.exit(1 if different else 0)


if __name__ == "__main__":
    main()
