"""Amoeboid through OpenSpiel: steps per CPU-second next to OpenSpiel's own games, and the `mcts` bot's
time per move and strength (prints figures, asserts nothing).

    .venv/bin/python bench/openspiel.py [--seconds 3] [--games 40] [--seed 0] [--workers 1] [--skip-matches]

Speed: one loop plays random games through ``pyspiel``'s interface (chance outcomes
sampled, then a uniform legal action) for ``--seconds`` of CPU time per game and
counts the actions applied (rolls included): ``python_amoeboid`` (3x3), OpenSpiel's
Python tic-tac-toe and its C++ backgammon, in this one run.  Strength: ``mcts``
against expectimax, greedy and paper over ``--games`` seeded games each (paired
dice, seats swapped), win rate with its 95% Wilson interval; ties and capped games
(150 turns) count as not won.
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np
import open_spiel.python.games  # noqa: F401 - registers OpenSpiel's Python games (python_tic_tac_toe)
import pyspiel

from amoeboid_edu import Position, apply, random_playout, seeded_rng
from amoeboid_edu.players import openspiel as aos
from amoeboid_edu.lab import score


def steps_per_cpu_second(game: pyspiel.Game, seconds: float, seed: int) -> tuple[float, int]:
    """Random play through the pyspiel interface for ``seconds`` of CPU: (actions per CPU-second, games)."""
    rng = np.random.RandomState(seed)
    steps = games = 0
    began = time.process_time()
    while time.process_time() - began < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                actions, probabilities = zip(*state.chance_outcomes())
                state.apply_action(rng.choice(actions, p=probabilities))
            else:
                state.apply_action(rng.choice(state.legal_actions()))
            steps += 1
        games += 1
    return steps / (time.process_time() - began), games


def engine_turns_per_cpu_second(seconds: float, seed: int) -> float:
    """Our engine alone: :func:`random_playout` on flat lists (the rollouts of ``mcts``)."""
    rng = seeded_rng(seed, "bench-openspiel")
    turns = 0
    began = time.process_time()
    while time.process_time() - began < seconds:
        turns += random_playout(Position.start(3), rng, max_turns=500).turns
    return turns / (time.process_time() - began)


def mcts_move_times(games: int, seed: int) -> list[float]:
    """CPU seconds per ``mcts`` move over seeded games of mcts against greedy (both sides: mcts)."""
    from amoeboid_edu.players.bots import greedy

    times = []
    for index in range(games):
        dice, position = seeded_rng(seed, "dice", index), Position.start(3)
        players = {"A": aos.mcts, "B": greedy} if index % 2 == 0 else {"A": greedy, "B": aos.mcts}
        rng = seeded_rng(seed, "players", index)
        for _ in range(150):
            if position.is_over:
                break
            roll, player = dice.randint(1, 6), players[position.to_move]
            began = time.process_time()
            turn = player(position, roll, rng)
            if player is aos.mcts:
                times.append(time.process_time() - began)
            position = apply(position, turn)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="CPU seconds per game for the speed figures")
    parser.add_argument("--games", type=int, default=40, help="games per opponent for the strength figures")
    parser.add_argument("--seed", default="0")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--skip-matches", action="store_true", help="speed only")
    args = parser.parse_args()

    print(f"open_spiel {pyspiel.__version__ if hasattr(pyspiel, '__version__') else ''}".strip())
    print("steps per CPU-second through pyspiel (random play, chance sampled):")
    for label, game in [
        ("python_amoeboid 3x3 (ours)", pyspiel.load_game(aos.GAME_NAME)),
        ("python_tic_tac_toe (OpenSpiel, Python)", pyspiel.load_game("python_tic_tac_toe")),
        ("backgammon (OpenSpiel, C++)", pyspiel.load_game("backgammon")),
    ]:
        rate, games = steps_per_cpu_second(game, args.seconds, 0)
        print(f"  {label:40s} {rate:10,.0f} steps/s  ({games} games)")
    print(f"  {'our engine alone (random_playout)':40s} {engine_turns_per_cpu_second(args.seconds, 0):10,.0f} turns/s")

    times = mcts_move_times(4, 0)
    print(f"mcts ({aos.MCTS_SIMULATIONS} simulations) CPU s per move over {len(times)} moves: "
          f"mean {statistics.mean(times):.3f}, median {statistics.median(times):.3f}, "
          f"95th {sorted(times)[int(0.95 * (len(times) - 1))]:.3f}, max {max(times):.3f}")
    if args.skip_matches:
        return
    began = time.perf_counter()
    card = score("mcts", games=args.games, seed=args.seed, opponents=["expectimax", "greedy", "paper"],
                 workers=args.workers, max_turns=150, progress=False)
    print(f"mcts against the baselines ({args.games} games each, seed {args.seed!r}, "
          f"{time.perf_counter() - began:.0f} s wall, {args.workers} worker(s)):")
    print(card.summary().to_string(index=False))


if __name__ == "__main__":
    main()
