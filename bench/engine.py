"""Engine speed: random playouts, the calls strategies make most, and in-process scoring (prints figures, asserts nothing).

    python bench/engine.py [--games N] [--score-games N] [--skip-score] [--skip-splits]

1. Random playouts in turns per CPU-second (time.process_time): the spec's
   random policy (``random_playout``) on 3x3 and 8x8 boards, and the same games
   through the public immutable API (``apply(position, random_turn(...))``).
   Both play identical games (tests/engine/test_game.py checks it), so the ratio is a
   fair speed-up.
2. Micro-benchmarks of the calls bots and students make most, on positions
   from seeded random games: ``list(legal_turns(...))`` (turns/s),
   ``apply`` (calls/s), the checked ``Position(...)`` constructor,
   ``Position.parse``, and ``Splits`` indexing on a huge amoeba.
3. ``lab.score`` of ``walk``, a five-line strategy that walks ``legal_turns``,
   against random, greedy and paper, in-process (the engine's share of
   ``amoeboid score``; isolation is bench/scoring.py's business).  CPU time
   (the one-core figure on a shared machine), and wall time.
"""

from __future__ import annotations

import argparse
import time

from amoeboid_edu import Position, apply, legal_turns, random_playout, random_turn, seeded_rng
from amoeboid_edu.engine.rules import Splits


def straightforward_playout(start: Position, rng, max_turns: int = 1000) -> int:
    position, turns = start, 0
    while not position.is_over and turns < max_turns:
        roll = rng.randint(1, 6)
        position = apply(position, random_turn(position, roll, rng))
        turns += 1
    return turns


def measure(play, start: Position, games: int) -> tuple[float, float]:
    began = time.process_time()
    turns = sum(play(start, seeded_rng(0, "bench", i)) for i in range(games))
    seconds = time.process_time() - began
    return turns / seconds, turns / games


def walk(position, roll, rng):
    """A five-line student strategy: walk every legal turn; eat if you can, and move as many units as you can."""
    def appeal(turn):
        eats = turn.dst is not None and position[turn.dst] is not None
        return eats, (turn.a or 0) + (turn.b or 0), rng.random()
    return max(legal_turns(position, roll), key=appeal)


def sample_positions(side: int, count: int) -> list[tuple[Position, int]]:
    """Positions (with a roll) from seeded random games, a few turns in: what a strategy is asked about."""
    samples, index = [], 0
    while len(samples) < count:
        rng = seeded_rng(0, "bench-positions", side, index)
        index += 1
        position = random_playout(Position.start(side), rng, max_turns=rng.randint(2, 30)).final
        if not position.is_over:
            samples.append((position, rng.randint(1, 6)))
    return samples


def rate(work, repeat: int) -> float:
    """Calls of ``work`` per CPU-second."""
    began = time.process_time()
    for _ in range(repeat):
        work()
    return repeat / max(time.process_time() - began, 1e-9)


def micro(side: int) -> None:
    samples = sample_positions(side, 200)
    turn_lists = [list(legal_turns(position, roll)) for position, roll in samples]
    turns = sum(len(t) for t in turn_lists)
    began = time.process_time()
    for _ in range(5):
        for position, roll in samples:
            for _ in legal_turns(position, roll):
                pass
    legal_rate = 5 * turns / (time.process_time() - began)
    firsts = [(position, listed[-1]) for (position, _), listed in zip(samples, turn_lists)]
    began = time.process_time()
    for _ in range(20):
        for position, turn in firsts:
            apply(position, turn)
    apply_rate = 20 * len(firsts) / (time.process_time() - began)
    board_cells = [(position.board, position.cells, position.to_move) for position, _ in samples]
    began = time.process_time()
    for _ in range(20):
        for board, cells, to_move in board_cells:
            Position(board, cells, to_move)
    construct_rate = 20 * len(board_cells) / (time.process_time() - began)
    texts = [str(position) for position, _ in samples]
    began = time.process_time()
    for _ in range(5):
        for text in texts:
            Position.parse(text)
    parse_rate = 5 * len(texts) / (time.process_time() - began)
    print(f"{side}x{side}: legal_turns {legal_rate:,.0f} turns/CPU-s ({turns / len(samples):.1f} per call)"
          f" | apply {apply_rate:,.0f}/CPU-s | Position() {construct_rate:,.0f}/CPU-s"
          f" | Position.parse {parse_rate:,.0f}/CPU-s")


def huge_splits() -> None:
    splits = Splits(10**6, 10**6, 10**5)
    count = len(splits)
    index = seeded_rng(0, "splits").randrange(count)
    per_second = rate(lambda: splits[index], 2000)
    print(f"Splits(10**6, 10**6, 10**5): {count:,} splits, indexing {per_second:,.0f}/CPU-s")


def score_walk(games: int) -> None:
    from amoeboid_edu.players.registry import BOTS
    from amoeboid_edu.lab import score

    BOTS["walk"] = walk  # registered bots play in-process: the engine's share, without isolation
    try:
        began, cpu = time.perf_counter(), time.process_time()
        card = score(walk, games=games, seed=0, opponents=["random", "greedy", "paper"], progress=False)
        wall, cpu = time.perf_counter() - began, time.process_time() - cpu
    finally:
        BOTS.pop("walk", None)
    summary = card.summary()
    total = int(summary["games"].sum())
    turns = float((summary["games"] * summary["mean_turns"]).sum())
    print(f"score(walk) in-process vs random, greedy, paper: {total} games ({games} each), {cpu:.2f} CPU-s "
          f"({wall:.2f} s wall), {turns / cpu:,.0f} turns/CPU-s, win rates "
          + ", ".join(f"{row.opponent} {row.win_rate:.3f}" for row in summary.itertuples(index=False)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20000, help="3x3 games (8x8 plays a fiftieth of that)")
    parser.add_argument("--score-games", type=int, default=1000, help="games per opponent for score(walk)")
    parser.add_argument("--skip-score", action="store_true")
    parser.add_argument("--skip-splits", action="store_true", help="skip the huge Splits (minutes on an O(a) Splits)")
    args = parser.parse_args()
    games = args.games
    for side, count in ((3, games), (8, max(1, games // 50))):
        start = Position.start(side)
        fast, mean = measure(lambda p, rng: random_playout(p, rng).turns, start, count)
        slow, _ = measure(straightforward_playout, start, max(1, count // 10))
        print(
            f"{side}x{side}: random_playout {fast:,.0f} turns/CPU-s | public API {slow:,.0f} turns/CPU-s"
            f" | speed-up {fast / slow:.1f}x | {count} games, mean {mean:.1f} turns"
        )
    for side in (3, 8):
        micro(side)
    if not args.skip_splits:
        huge_splits()
    if not args.skip_score:
        score_walk(args.score_games)


if __name__ == "__main__":
    main()
