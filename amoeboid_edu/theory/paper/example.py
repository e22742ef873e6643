"""The paper's example game, replayed through the rules."""

from __future__ import annotations

import pandas as pd

from ...engine.examples import PAPER_EXAMPLE_MATRICES, PAPER_EXAMPLE_RECORD, PAPER_EXAMPLE_WINNER
from ...engine.game import Game
from ...engine.rules import Position
from .verdict import Verdict, judged

EXAMPLE_GAME = PAPER_EXAMPLE_RECORD
QUOTE = ("we end this paper with an example pen and paper game that we played. ... Player 1 rolls a 5 and eats player "
         "2's center amoeba winning the game.")  # fmt: skip
EXAMPLE_MATRICES = PAPER_EXAMPLE_MATRICES


def example_game() -> Game:
    """The paper's example game, replayed through the rules (every turn checked)."""
    return Game.parse(PAPER_EXAMPLE_RECORD)


def example_game_check() -> Verdict:
    """Replay the paper's example game and match each of its matrices."""
    game = example_game()
    rows = []
    for turns, text in PAPER_EXAMPLE_MATRICES:
        replayed = game.positions[turns]
        printed = Position.parse(f"{text} {replayed.to_move}")  # the paper's matrices do not say whose turn it is
        rows.append({"after turn": turns, "paper": str(printed), "replayed": str(replayed),
                     "matches": printed == replayed})  # fmt: skip
    evidence = pd.DataFrame(rows)
    matched = int(evidence["matches"].sum())
    agrees = matched == len(rows) and game.result == PAPER_EXAMPLE_WINNER
    verdict = judged(agrees, None, evidence_bears_it=agrees)
    summary = (
        f"{len(game)} legal turns, {matched}/{len(rows)} matrices match, result {game.result} (paper: player 1 wins)"
    )
    scope = "3x3, the paper's example game, every turn checked by the rules (king adjacency)"
    explanation = (
        f"The game's prose was written as {len(game)} turns in notation and replayed through the rules, each turn "
        "checked for legality (king adjacency: move 16 eats diagonally from a3). The counts moved are not in the "
        "prose; the ones written are those that reproduce the paper's next matrix. Every matrix printed in the paper "
        "equals the replayed position, and the final turn leaves B owning nothing: A wins, as the paper says."
    )
    plain = "Right: the authors' example game is legal move by move, every board they printed is correct, and A wins."
    brief = (f"the authors' example game is legal move by move, {matched} of {len(rows)} printed boards match, "
             f"and {game.result} wins.")
    return Verdict("example-game", verdict, summary, explanation, evidence, scope=scope, plain=plain, quote=QUOTE,
                   brief=brief, reach="3x3, the paper's example game, every turn")  # fmt: skip
