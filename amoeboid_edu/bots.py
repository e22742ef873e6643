"""The baseline bots: four strategies a student's strategy is measured against.

Each bot is a plain strategy ``bot(position, roll, rng) -> Turn``, exactly
like a student's, and ``BOTS`` maps their names to them::

    >>> from amoeboid_edu import Position, seeded_rng
    >>> from amoeboid_edu.bots import BOTS
    >>> BOTS["greedy"](Position.parse(". . . / . (4,0) (0,3) / . . . A"), 2, seeded_rng(0))
    Turn.parse('2 b2 b2-c2 6,0')

- ``random``: the engine's random player (:func:`~amoeboid_edu.game.random_turn`).
- ``greedy``: one ply, the turn with the best Delta afterwards (:func:`greedy`).
- ``paper``: the opening play of the paper, Cases I-IV, then greedy (:func:`paper`).
- ``expectimax``: a two-ply search with the opponent's roll as a chance node (:func:`expectimax`).

They only choose among :func:`~amoeboid_edu.strategy.candidate_turns`, so they
stay fast on large amoebae.
"""

from __future__ import annotations

import random
from typing import Callable, Iterable

from .game import random_turn
from .rules import Amoeba, Position, Turn, apply, cells_after_legal, other
from .strategy import candidate_turns, smallest_capture, smallest_neutralisation

WIN_SCORE = 10_000
"""What a won game is worth to the bots' evaluations: more than any Delta they will meet."""


# --------------------------------------------------------------------------- shared evaluation


def _assess(cells: list[Amoeba | None], neighbours: tuple, sides: int) -> tuple[int, float, float, int, int]:
    """``(Delta, exposure of A, exposure of B, amoebae A owns, amoebae B owns)`` in one pass over the cells."""
    delta = owned_a = owned_b = 0
    exposed_a = exposed_b = 0.0
    for i, cell in enumerate(cells):
        if cell is None:
            continue
        a, b = cell
        if a == b:
            continue
        size = a + b
        biggest = 0
        if a > b:
            delta += size
            owned_a += 1
            for j in neighbours[i]:
                enemy = cells[j]
                if enemy is not None and enemy.b > enemy.a and enemy.a + enemy.b > biggest:
                    biggest = enemy.a + enemy.b
        else:
            delta -= size
            owned_b += 1
            for j in neighbours[i]:
                enemy = cells[j]
                if enemy is not None and enemy.a > enemy.b and enemy.a + enemy.b > biggest:
                    biggest = enemy.a + enemy.b
        if biggest:
            need = size - biggest  # the roll the enemy needs to eat this amoeba
            lost = size if need <= 1 else size * max(0, sides - need + 1) / sides
            if a > b:
                exposed_a += lost
            else:
                exposed_b += lost
    return delta, exposed_a, exposed_b, owned_a, owned_b


def outcome_after(position: Position, turn: Turn) -> tuple[bool, int, int, float]:
    """``(wins, Delta, -pieces, threat balance)`` after a legal ``turn``, from the mover's side.

    ``pieces`` is how many amoebae the mover owns; the threat balance is the
    opponent's :func:`exposure` minus the mover's: what the mover stands to
    eat next minus what it stands to lose.  The larger the tuple, the better: greedy's key.
    """
    delta, exposed_a, exposed_b, owned_a, owned_b = _assess(
        cells_after_legal(position, turn), position.board.neighbours, position.rules.die_sides
    )
    if position.to_move == "A":
        return not owned_b, delta, -owned_a, exposed_b - exposed_a
    return not owned_a, -delta, -owned_b, exposed_a - exposed_b


def exposure(position: Position, player: str | None = None) -> float:
    """The expected size ``player`` (default: the side to move) can lose to the opponent's next roll.

    For each of the player's amoebae: its size times the chance that the
    largest adjacent opponent amoeba reaches its size with one roll (paper,
    "Advantage 2": being eaten is what loses games).  A position term of the
    bots' evaluations and of greedy's tie-break.
    """
    player = position.to_move if player is None else player
    _, exposed_a, exposed_b, _, _ = _assess(list(position.cells), position.board.neighbours, position.rules.die_sides)
    return exposed_a if player == "A" else exposed_b


def _best(turns: Iterable[Turn], key: Callable[[Turn], object]) -> list[Turn]:
    """The turns with the largest key (ties kept, in candidate order)."""
    best: list[Turn] = []
    best_key = None
    for turn in turns:
        value = key(turn)
        if best_key is None or value > best_key:
            best, best_key = [turn], value
        elif value == best_key:
            best.append(turn)
    return best


# --------------------------------------------------------------------------- greedy


def greedy(position: Position, roll: int, rng: random.Random) -> Turn:
    """One ply: the candidate turn after which the mover's Delta (Advantage 2) is largest.

    Tie-breaks, in order: a turn that wins the game comes first (before any
    Delta); then the largest Delta; then the fewest amoebae of the mover's
    (split only when it pays); then the best threat balance (the
    opponent's :func:`exposure` minus the mover's: eat soon, be eaten late);
    then a uniform choice with the bot's own ``rng`` among the turns still tied.
    """
    best = _best(candidate_turns(position, roll), lambda turn: outcome_after(position, turn))
    return best[0] if len(best) == 1 else rng.choice(best)


# --------------------------------------------------------------------------- the paper's opening

ADVANCED_SIZE = 30
"""Case II, delta = 5: the paper moves to the centre only when "the game is advanced (the two
amoebae have a significant size)"; we read that as the opponent's amoeba having at least this size."""

CASE_IV_DELTA = 44
"""Case IV's threshold, the paper's figure for the 3x3 board."""


def _opening(position: Position) -> tuple[int, int] | None:
    """``(mine, theirs)`` cell indices while the paper's opening lasts, else None.

    The opening ("no amoebae has been eaten or split"): exactly two amoebae,
    one per player, each holding only its owner's units, and not adjacent.
    """
    present = [(i, cell) for i, cell in enumerate(position.cells) if cell is not None]
    if len(present) != 2 or any(cell.a and cell.b for _, cell in present):
        return None
    mover = position.to_move
    mine = [i for i, cell in present if cell.owner == mover]
    theirs = [i for i, cell in present if cell.owner == other(mover)]
    if len(mine) != 1 or len(theirs) != 1 or theirs[0] in position.board.neighbours[mine[0]]:
        return None
    return mine[0], theirs[0]


def _opening_delta(position: Position, cells: tuple[int, int], roll: int) -> int:
    mine, theirs = cells
    return position.cells[mine].size + roll - position.cells[theirs].size


def paper_case(position: Position, roll: int = 0) -> str | None:
    """Which opening Case of the paper applies to the side to move: ``"I"``..``"IV"``, or None after the opening.

    delta is the paper's "difference of size of initial amoebae" from the
    mover's side, counted *after* the mover's grow by ``roll`` (the paper's
    Case II arithmetic, "if B rolls 4 he will choose to tie", needs this);
    ``roll=0`` classifies the position before the roll.
    Case I: delta < 3.5; Case II: delta = 4, 5, 6; Case III: delta > 6;
    Case IV: delta > 44.  None when the amoebae are adjacent or the opening is over.
    """
    cells = _opening(position)
    if cells is None:
        return None
    delta = _opening_delta(position, cells, roll)
    if delta > CASE_IV_DELTA:
        return "IV"
    if delta > 6:
        return "III"
    if delta >= 4:
        return "II"
    return "I"


def _whole_move(position: Position, roll: int, src: int, dst: int) -> Turn:
    """Grow ``src`` and move all of it to ``dst``, counts written out as records print them."""
    names, cell = position.board.names, position.cells[src]
    a, b = (cell.a + roll, cell.b) if position.to_move == "A" else (cell.a, cell.b + roll)
    return Turn(roll, names[src], names[src], names[dst], a, b)


def _stall(position: Position, roll: int, mine: int, theirs: int, rng: random.Random) -> Turn | None:
    """Paper, Case I: move to a neighbouring cell that is not adjacent to the enemy amoeba."""
    neighbours = position.board.neighbours
    cells = [j for j in neighbours[mine] if position.cells[j] is None and theirs not in neighbours[j]]
    return _whole_move(position, roll, mine, rng.choice(cells)) if cells else None


def _to_centre(position: Position, roll: int, mine: int, theirs: int) -> Turn | None:
    """Paper, Cases III/IV step 1: move the whole amoeba to the centre.

    "The centre" on a larger board or a graph: the empty neighbouring cell with
    the most neighbours, preferring one adjacent to the enemy, then board order.
    """
    neighbours = position.board.neighbours
    cells = [j for j in neighbours[mine] if position.cells[j] is None]
    if not cells:
        return None
    centre = max(cells, key=lambda j: (len(neighbours[j]), theirs in neighbours[j], -j))
    return _whole_move(position, roll, mine, centre)


def _centre_plan(position: Position, roll: int) -> Turn | None:
    """After the centre move of Cases III and IV: neutralise, capture, or eat, as the paper plays on.

    Plays from the mover's largest amoeba when enemy amoebae are next to it.
    Case III: "while Delta remains larger than 6 ... neutralis[e] one of the
    opponent's split amoeba" (Case IV step 2: "eat the bigger ... with an amoeba
    just as big"), keeping the rest out of the enemy's reach; Case IV step 4:
    "when only one square is empty, eat B's amoeba with a number 1 higher";
    Case III: once Delta is no longer above 6, "eat one of the opponent's split
    amoebae".  None when nothing of this applies (then greedy decides).
    """
    mover, board = position.to_move, position.board
    owned = position._owned_indices(mover)
    if not owned:
        return None
    home = max(owned, key=lambda i: (position.cells[i].size, -i))  # "the centre": our main amoeba
    names = board.names
    cells = list(position.cells)
    cell = cells[home]
    cells[home] = Amoeba(cell.a + roll, cell.b) if mover == "A" else Amoeba(cell.a, cell.b + roll)
    me = cells[home]
    enemy = other(mover)
    targets = sorted(
        (j for j in board.neighbours[home] if cells[j] is not None and cells[j].owner == enemy),
        key=lambda j: (-cells[j].size, j),
    )
    if not targets:
        return None
    enemy_sizes = {j: cells[j].size for j, c in enumerate(cells) if c is not None and c.owner == enemy}
    sides = position.rules.die_sides
    advantage = position.Delta if mover == "A" else -position.Delta  # "the new Advantage 2", before our roll
    empty = sum(1 for c in cells if c is None)

    def safe(counts: tuple[int, int], target: int) -> bool:
        rest = me.size - sum(counts)
        biggest = max((size for j, size in enemy_sizes.items() if j != target), default=0)
        return rest > biggest + sides

    if advantage > sides:
        split = smallest_capture if empty <= 1 else (lambda source, target, _: smallest_neutralisation(source, target))
        for target in targets:
            counts = split(me, cells[target], mover)
            if counts is not None and safe(counts, target):
                return Turn(roll, names[home], names[home], names[target], *counts)
        return None
    eatable = [j for j in targets if cells[j].size <= me.size]
    return _whole_move(position, roll, home, eatable[0]) if eatable else None


def paper(position: Position, roll: int, rng: random.Random) -> Turn:
    """The paper's opening play, Cases I-IV as written ("Opening strategies"), then :func:`greedy`.

    - Case I (delta < 3.5) and Case II with delta = 4: stall, moving to a cell
      not adjacent to the enemy (a uniform choice with ``rng``).
    - Case II, delta = 5: "case by case"; we move to the centre when the game is
      advanced (the enemy amoeba has size >= ``ADVANCED_SIZE``), else stall.
    - Case II, delta = 6, Case III and Case IV: move the whole amoeba to the centre.
    - After the centre move (Cases III and IV): :func:`_centre_plan`.
    - Anything else, or when the board leaves no such cell: greedy.
    """
    opening = _opening(position)
    if opening is not None:
        mine, theirs = opening
        delta = _opening_delta(position, opening, roll)
        if delta < 4 or (delta == 5 and position.cells[theirs].size < ADVANCED_SIZE):
            turn = _stall(position, roll, mine, theirs, rng)  # Case I (Case II, delta = 4 and 5: "play as in case 1")
        else:
            turn = _to_centre(position, roll, mine, theirs)  # Case II delta = 5 advanced or 6, Cases III and IV
        if turn is not None:
            return turn
    else:
        turn = _centre_plan(position, roll)  # Case III ("while Delta remains larger than 6") and Case IV steps 2-5
        if turn is not None:
            winning = [t for t in candidate_turns(position, roll) if outcome_after(position, t)[0]]
            return winning[0] if winning else turn  # Case IV step 5: "A eats and wins" whenever it can
    return greedy(position, roll, rng)


# --------------------------------------------------------------------------- expectimax

EXPECTIMAX_NODE_BUDGET = 3000
"""Leaf evaluations per turn: on 3x3 games about 15 ms a turn on average, under 0.1 s at worst
(``bench/scoring.py`` prints the figures)."""


def _leaf_value(delta: int, exposed_a: float, exposed_b: float, owns_a: int, owns_b: int, player: str,
                to_move: str) -> float:
    if not (owns_a and owns_b):
        winner = "A" if owns_a else "B" if owns_b else None
        return 0.0 if winner is None else (WIN_SCORE if winner == player else -WIN_SCORE)
    mine, theirs = (exposed_a, exposed_b) if player == "A" else (exposed_b, exposed_a)
    # exposure(P) is what P may lose to the other side's next roll: imminent when the other side moves next.
    mine_weight = 0.5 if to_move == player else 1.0
    return (delta if player == "A" else -delta) - mine_weight * mine + (1.5 - mine_weight) * theirs


def evaluate(position: Position, player: str) -> float:
    """The expectimax evaluation from ``player``'s side: Delta plus position terms.

    A finished game is worth ``WIN_SCORE`` (won), ``-WIN_SCORE`` (lost) or 0
    (tie).  Otherwise: Delta (Advantage 2, the paper's predictor of the winner)
    minus the :func:`exposure` of the player's amoebae plus that of the
    opponent's, each weighted by 1 when the side that could eat it moves next
    and by 1/2 when that side's threat is a turn further away.
    """
    summary = _assess(list(position.cells), position.board.neighbours, position.rules.die_sides)
    return _leaf_value(*summary, player, position.to_move)


def _ranked(position: Position, roll: int, limit: int) -> list[Turn]:
    """The ``limit`` most promising candidates in greedy's order (win, Delta, threat balance), best first."""
    scored = [(outcome_after(position, turn), -i, turn) for i, turn in enumerate(candidate_turns(position, roll))]
    scored.sort(key=lambda item: item[:2], reverse=True)
    return [turn for _, _, turn in scored[: max(1, limit)]]


def expectimax(position: Position, roll: int, rng: random.Random, node_budget: int = EXPECTIMAX_NODE_BUDGET) -> Turn:
    """Two plies with the opponent's roll as a chance node, within ``node_budget`` leaf evaluations.

    For each of the mover's candidate turns: the average over the opponent's
    rolls (``dice_outcomes``) of the opponent's best reply, the reply that
    minimises :func:`evaluate` from the mover's side.  When the full tree is
    larger than the budget, both sides keep only their most promising
    candidates in greedy's order: about sqrt(budget / sides) each.
    Ties between equally good turns are broken uniformly with ``rng``.
    """
    mover = position.to_move
    neighbours, sides = position.board.neighbours, position.rules.die_sides
    mine = _ranked(position, roll, node_budget)
    per_side = max(2, int((node_budget / sides) ** 0.5))
    if len(mine) > per_side:  # too many of ours: both sides keep their best per_side
        mine, replies_limit = mine[:per_side], per_side
    else:  # ours all fit: the opponent gets the rest of the budget
        replies_limit = max(2, node_budget // (sides * len(mine)))

    def value(turn: Turn) -> float:
        after = apply(position, turn)
        if after.is_over:
            return evaluate(after, mover)
        total = 0.0
        for enemy_roll, probability in after.dice_outcomes():
            total += float(probability) * min(
                _leaf_value(*_assess(cells_after_legal(after, reply), neighbours, sides), mover, mover)
                for reply in _ranked(after, enemy_roll, replies_limit)
            )
        return total

    best = _best(mine, value)
    return best[0] if len(best) == 1 else rng.choice(best)


BOTS: dict[str, Callable[[Position, int, random.Random], Turn]] = {
    "random": random_turn,
    "greedy": greedy,
    "paper": paper,
    "expectimax": expectimax,
}
"""The baseline bots by name: every one a strategy ``(position, roll, rng) -> Turn``."""

__all__ = ["BOTS", "evaluate", "expectimax", "exposure", "greedy", "outcome_after", "paper", "paper_case"]
