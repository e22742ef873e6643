"""Case III's "it cannot eat the neutral piece which is twice its size": exactly on the rules, and on a line of play."""

from __future__ import annotations

from fractions import Fraction

import pandas as pd

from ...engine.game import Game
from ...engine.rules import Position, legal_turns
from ...players.bots import can_end_at_once
from .case_III import NEUTRAL_QUOTE
from .case_IV import STEP_2_AFTER, fewest_turns_to_force_a_win
from .lines import annotated_record, at, ends, reachability
from .verdict import WORD_RULE, Verdict, judged

NEUTRAL_START = "(14,0) . . / . . . / . . (0,5) A"
"""Lesson 6's Case III start: A 14 on a1 v B 5 on c3, A to move (its dice sums fit a game from the paper's start)."""

NEUTRAL_LINE = ("A 1 a1 a1-b2 15,0", "B 2 c3 c3-c2 0,3", "A 1 b2 b2-c3 4,0", "B 6 c2 c2-c3 0,8")
"""A reviewer's line (replayed here, never trusted): A moves to the centre (Case III), B splits its 7 in half (3 +
4), A neutralises the bigger half with exactly its 4 units (Delta 8 before A's turn), and B's other half of 3 rolls 6
and eats the neutral (4,4) with 8 units, keeping 1 behind: B owns the new piece and A has no win at once."""

READING = ("'cannot' read as the rules' cannot (the sentence names no cost, unlike step 2's 'without loosing', which "
           "case-IV-step-2 reads as losing the game); the counter-line's eat is also not suicidal: A has no win at once "
           "with any roll after it")  # fmt: skip
"""How the card reads the sentence, one rule with case-IV-step-2: a sentence is read by its own words."""


def neutral_eats_table(sizes: tuple[int, ...] = tuple(range(1, 9))) -> pd.DataFrame:
    """B's piece of size k next to the neutral (k,k), every roll and legal turn: which rolls let it eat the neutral."""
    rows = []
    for k in sizes:
        position = Position.parse(f"(0,{k}) ({k},{k}) . / . . . / . . (20,0) B")
        rolls = [r for r, _ in position.dice_outcomes() if any(
            turn.dst == "b1" for turn in legal_turns(position, r) if not turn.is_pass)]  # fmt: skip
        rows.append({"B's piece k": k, "neutral piece": f"({k},{k})", "rolls that let B eat it": tuple(rolls),
                     "P(B can eat it)": float(Fraction(len(rolls), 6)), "exact": str(Fraction(len(rolls), 6))})  # fmt: skip
    return pd.DataFrame(rows)


def neutral_twice_its_size(sizes: tuple[int, ...] = tuple(range(1, 9)), start: str = NEUTRAL_START,
                           line: tuple[str, ...] = NEUTRAL_LINE) -> Verdict:  # fmt: skip
    """B's half of size k next to the neutral (k,k): it may eat it exactly when its roll r >= k (k + r >= 2k); and a
    line of the paper's plan in which B's half eats the neutral piece A has just made and A has no win at once."""
    evidence = neutral_eats_table(sizes)
    eats = evidence[evidence["P(B can eat it)"] > 0]["B's piece k"].tolist()
    never = evidence[evidence["P(B can eat it)"] == 0]["B's piece k"].tolist()
    always = evidence[evidence["P(B can eat it)"] == 1]["B's piece k"].tolist()
    first = Position.parse(start)
    record = annotated_record(first, line)  # raises unless every A turn is one the paper's plan allows
    game = Game.parse(record)
    before, last, after = game.positions[-2], game.turns[-1], game.position
    eaten, eater = at(before, last.dst), at(before, last.grow).size  # the piece before its roll
    kept = after[ends(last)[0]]
    made = max(i for i, turn in enumerate(game.turns[:-1]) if game.positions[i + 1][ends(turn)[1]] == eaten)
    neutralised = game.positions[made]  # before A's neutralising turn
    halves = sorted(at(neutralised, cell).size for cell in neutralised.owned("B"))
    owned_by_b = at(after, last.dst).owner == "B"
    no_win_at_once = {roll: not can_end_at_once(after, roll, ties=False) for roll, _ in after.dice_outcomes()}
    safe = all(no_win_at_once.values())
    forced, visited = fewest_turns_to_force_a_win(after) if safe else (None, 0)
    line_rows = pd.DataFrame([{"counter-line": "after B's eat", "A rolls": roll, "A can win at once": not ok}
                              for roll, ok in no_win_at_once.items()])  # fmt: skip
    evidence = pd.concat([evidence, line_rows], ignore_index=True)
    # the rule: false in some case (small pieces); the counter-line plays the paper's own plan, so false as stated
    refutes = eaten.is_neutral and owned_by_b and safe  # a legal eat of the neutral piece that is no blunder
    verdict = judged(not eats, False if refutes else None)
    forced_text = (f"A forces a win within {forced} of its turns against every B (exhaustive)" if forced else
                   f"A, playing its candidate turns, does not force a win within {STEP_2_AFTER} of its turns against "
                   f"every B (exhaustive over B's rolls and turns, {visited:,} B replies)")  # fmt: skip
    twice = "exactly twice" if eaten.size == 2 * eater else "more than twice" if eaten.size > 2 * eater else "less"
    summary = (f"exact: a piece of size k may eat the neutral (k,k) exactly when it rolls at least k: with probability "
               f"(7 - k)/6 for k <= 6 (always for k = {', '.join(map(str, always))}), never for k >= {min(never)}; so "
               f"'cannot' is false for pieces of {max(eats)} units or fewer; counter-line from lesson 6's start (A "
               f"{at(first, 'a1').size} v B {at(first, 'c3').size}; {reachability(first)}), every A turn the paper's "
               f"plan: A to the centre, B splits {sum(halves)} in half ({halves[0]} + {halves[1]}), A neutralises the "
               f"bigger half at Delta {neutralised.Delta}, and B's other half of {eater} rolls {last.roll} and eats "
               f"the neutral ({eaten.a},{eaten.b}), {twice} its size, keeping "
               + (f"a piece of {kept.size}" if kept is not None else "nothing behind")
               + f"; B owns the new piece, Delta {after.Delta}; A has no win at once with any roll "
               + ("(checked for each)" if safe else "(false: A wins at once with some roll)")
               + f", and {forced_text}")  # fmt: skip
    scope = (f"any board: B's piece of size k = {sizes[0]}..{sizes[-1]} next to a neutral (k,k), every roll and legal "
             f"turn, exact; counter-line on 3x3 from lesson 6's start {start} ({reachability(first)}), A's turns the "
             f"paper's Case III plan (annotated), B's eat then checked against every A roll (no win at once) and an "
             f"exact AND-OR search to {STEP_2_AFTER} A turns (every roll, every legal B turn; A: the paper bot's turn first, "
             f"then any candidate turn); the reading: {READING}")
    explanation = (
        "Eating needs a size at least the target's: k + r >= 2k, that is r >= k. So the sentence is right for pieces "
        f"of {min(never)} units or more, and false for smaller ones: a piece of 1 can always eat a neutral (1,1), a "
        "half of 4 that rolls 4, 5 or 6 may eat a neutral (4,4). In Case III B's pieces are often small (delta > 6 "
        "but B itself can be tiny). The counter-line plays the paper's own sequence from lesson 6's start: A to the "
        "centre, B splits in half, A neutralises one half with exactly its units, and the other half eats the "
        "neutral piece. Eating it gives B a piece of which it controls most, so B owns it. The eat is no blunder: "
        f"Delta goes from {neutralised.Delta} to {after.Delta}, and A, with one amoeba next to two of B's, cannot eat "
        f"both in one turn, so it has no win at once whatever it rolls; {forced_text}. How the sentence is read, one "
        "rule with case-IV-step-2: each sentence by its own words. Step 2 says B 'can't eat anything without "
        "loosing', a cost, read as losing the game; this sentence says B 'cannot eat' the neutral piece, no cost "
        "named: the rules allow the eat, so 'cannot' is false. A reader who hears 'cannot without losing' finds the "
        "eat losing nothing at once here" + (" and A not forcing a win within the turns searched." if not forced else
                                             ", though A then forces a win: under that reading the line would be no "
                                             "counterexample, as in case-IV-step-2.")
    )
    plain = (f"False as stated: a piece of k units can eat the neutral piece (k,k) whenever it rolls at least k, so "
             f"pieces of {max(eats)} units or fewer sometimes can (a piece of 1 always can); from {min(never)} units "
             "on the sentence is true. In the card's game B's piece eats the neutral piece A has just made, and A "
             "cannot win at once afterwards.")
    brief = (f"a piece of k units can eat the neutral (k,k) when it rolls at least k; true from {min(never)} "
             "units on.")
    return Verdict("neutral-twice-its-size", verdict, summary, explanation, evidence, scope=f"{scope}; {WORD_RULE}",
                   plain=plain, counter_line=record, quote=NEUTRAL_QUOTE, brief=brief,
                   reach="any board, exact for pieces of 1 to 8 units; a line of the plan from lesson 6's start")  # fmt: skip
