"""Case II (not adjacent, delta = 4, 5, 6): the centre's risks, the size-1000 example's streak and length."""

from __future__ import annotations

import math
from typing import Iterator
from fractions import Fraction

import pandas as pd

from .. import analysis
from ...engine.rules import Position, Turn, apply, legal_move_pairs, legal_turns
from ...engine.game import CAPPED, Game
from ...engine.seeding import seed_text
from .advantage import DELTA_SIZE
from .lines import annotated_record, at, corner_cells, describe_turn, opening_position
from .verdict import WORD_RULE, Verdict, judged

QUOTE = ("If delta = 4 moving to the center has at least a possibility of 1/2 of not winning ... If delta = 5 ... at "
         "least a possibility of 1/3 of not winning ... If delta = 6, ... B will chose to tie if he rolls a 6. In all "
         "the other cases, with probability 5/6, A will take at least half of B's size.")  # fmt: skip
"""The sentences this item tests: the immediate chances.  Its "A is never going to lose" (delta = 6) is a claim about
the whole game, left out of the quote and named in the scope as not tested."""

CASE_II_PAPER = {  # the paper's numbers, to compare with
    4: "P(A not winning) >= 1/2 (B wins or, rolling 4, ties)",
    5: "P(A not winning) >= 1/3 (B ties); rolls 1-4: A eats at least half of B",
    6: "A never loses; B ties only with a 6; otherwise (5/6) A takes at least half of B's size",
}
_CASE_II_BOUND = {4: Fraction(1, 2), 5: Fraction(1, 3), 6: Fraction(1, 6)}


def _best_share_eaten(position: Position) -> Fraction:
    """The largest share of B's units that A's next turn can eat, for A's worst roll (A to move)."""
    b_units = sum(cell.b for cell in position.cells if cell is not None)
    worst: int | None = None
    for roll, _ in position.dice_outcomes():
        best = 0
        for grow in position.owned("A"):
            for _, dst in legal_move_pairs(position, roll, grow):
                target = position[dst]
                if target is not None:
                    best = max(best, target.b)
        worst = best if worst is None else min(worst, best)
    return Fraction(worst or 0, b_units)


def case_II_table(deltas: tuple[int, ...] = (4, 5, 6), bases: tuple[int, ...] = (1, 10, 40),
                  board: int = 3, corner: bool = True, cells: tuple[str, str, str] | None = None) -> pd.DataFrame:  # fmt: skip
    """A (base+delta) moves to the centre, next to B (base): every B roll, every legal B reply.

    B sits in its corner and A two steps away on the diagonal (:func:`corner_cells`: the paper's set-up on every
    board); ``corner=False`` puts B on c3 and A on a1 instead, which on 4x4 and 5x5 is not a corner; ``cells`` =
    (A's cell, the cell A moves to, B's cell) sets any placement.
    One row per (delta, base, B's roll): can B win or tie at once, and the share of
    B's units A is sure to eat next turn when B does neither (worst B reply, worst A roll).
    """
    a_cell, centre_cell, b_cell = cells or (corner_cells(board) if corner else ("a1", "b2", "c3"))
    rows = []
    for delta in deltas:
        for base in bases:
            start = opening_position(base + delta - 1, base, a_cell, b_cell, board=board)
            centre = apply(start, f"1 {a_cell} {a_cell}-{centre_cell}")
            for roll, _ in centre.dice_outcomes():
                replies = [apply(centre, turn) for turn in legal_turns(centre, roll)]
                results = [reply.result for reply in replies]
                playing_on = [reply for reply in replies if not reply.is_over]
                share = min((_best_share_eaten(reply) for reply in playing_on), default=None)
                rows.append({"board": f"{board}x{board}", "A on": a_cell, "A moves to": centre_cell, "B on": b_cell,
                             "delta": delta, "base": base, "B roll": roll,
                             "B replies": len(replies), "B can win": "B" in results, "B can tie": "tie" in results,
                             "A sure to eat (share of B)": share})  # fmt: skip
    return pd.DataFrame(rows)


def _summarise(table: pd.DataFrame) -> tuple[pd.DataFrame, bool]:
    rows, agree = [], True
    for (board, _, _, delta, base), group in table.groupby(["board", "A on", "B on", "delta", "base"], sort=False):
        win = Fraction(int(group["B can win"].sum()), 6)
        tie_only = Fraction(int((group["B can tie"] & ~group["B can win"]).sum()), 6)
        tie_rolls = tuple(int(r) for r in group.loc[group["B can tie"], "B roll"])
        rest = group[~group["B can win"] & ~group["B can tie"]]
        share = min(rest["A sure to eat (share of B)"], default=None)
        rows.append({"board": board, "A on": group["A on"].iloc[0], "A moves to": group["A moves to"].iloc[0],
                     "B on": group["B on"].iloc[0], "delta": delta, "base": base,
                     "P(B can win)": float(win),
                     "P(B can tie, not win)": float(tie_only), "P(B can end the game at once)": float(win + tie_only),
                     "exact": f"{win + tie_only}", "B ties with": tie_rolls,
                     "otherwise A eats at least": float(share) if share is not None else None,
                     "paper": CASE_II_PAPER[delta]})  # fmt: skip
        ok = win + tie_only >= _CASE_II_BOUND[delta] and (share is None or share >= Fraction(1, 2))
        if delta == 6:
            ok &= win == 0 and tie_rolls == (6,)
        agree &= ok
    return pd.DataFrame(rows), agree


def placements(board: int = 3) -> list[tuple[str, str, str]]:
    """Every placement Case II's words cover on a ``board`` x ``board`` grid with an odd side: (A's cell, the centre,
    B's cell) with A and B not adjacent and both next to the centre, one per class of the board's symmetries.  On 3x3
    every cell touches the centre b2, so these are all the non-adjacent pairs off the centre."""
    from ..search import grid_symmetries

    grid = Position.start(board).board
    centre = grid.names[(len(grid) - 1) // 2]
    around = [grid.names[j] for j in grid.neighbours[grid.index[centre]]]
    seen: set[tuple[int, int]] = set()
    found = []
    for a_cell in around:
        for b_cell in around:
            if a_cell == b_cell or grid.are_adjacent(a_cell, b_cell):
                continue
            pair = (grid.index[a_cell], grid.index[b_cell])
            images = {(m[pair[0]], m[pair[1]]) for m in grid_symmetries(grid)}
            if not images & seen:
                found.append((a_cell, centre, b_cell))
            seen |= images
    return found


BIG_CENTRE = (5, ("b2", "c3", "d4"))
"""The case Case II's words cover off 3x3: on 5x5 A on b2 moves to the center c3, next to B on d4 (not adjacent to
A, not in its corner); B can step away from the center, to e5."""


def case_II(bases: tuple[int, ...] = (1, 10, 40), boards: tuple[int, ...] = (3,)) -> Verdict:
    """Case II: the paper's probabilities, recomputed by exhaustive search (exact, so the word cannot flip).

    The words ('moving to the center' with the amoebae 'not adjacent', on the paper's 'n x n Board') are read over
    every placement: on 3x3, every pair of non-adjacent cells off the centre (every cell touches b2); on 5x5, B
    next to the center but not in its corner, where B can step away (:data:`BIG_CENTRE`).  The paper applies Case
    II to 3x3 (every matrix of the paper is 3x3), so a failure off 3x3 is a correction (:func:`judged`)."""
    summaries = {board: _summarise(case_II_table((4, 5, 6), bases, board)) for board in boards}
    evidence, agree = summaries[boards[0]]
    by_delta = evidence.drop_duplicates("delta").set_index("delta")["exact"]
    everywhere = [_summarise(case_II_table((4, 5, 6), bases[:2], 3, cells=cells)) for cells in placements(3)
                  if cells != corner_cells(3)]  # the corner set-up is the first table
    on_3x3 = agree and all(holds for _, holds in everywhere)
    corner_boards = [n for n in boards[1:] if summaries[n][1]]
    big, cells = BIG_CENTRE
    away, away_holds = _summarise(case_II_table((4, 5, 6), (bases[0],), big, cells=cells))
    least = away["otherwise A eats at least"].min()
    sure = "is not sure to eat anything of B" if least == 0 else f"is sure to eat only {least:.2f} of B"
    evidence = pd.concat([evidence, *(summaries[n][0] for n in boards[1:]), *(frame for frame, _ in everywhere),
                          away.assign(**{"B on": f"{cells[2]} (not a corner)"})], ignore_index=True)  # fmt: skip
    where = ", ".join(f"{a}/{b}" for a, _, b in placements(3))
    correction = (f"on {big}x{big} (the paper's 'n x n Board'), with A on {cells[0]} moving to the center {cells[1]} "
                  f"next to B on {cells[2]} (not adjacent, not in its corner), B can step away from the center and A "
                  f"{sure} next turn: 'A will take at least half of B's size' needs a center that touches every "
                  "cell B can reach, as on 3x3")  # fmt: skip
    summary = ("P(B can end the game at once, by winning or by choosing to tie) = "
               + ", ".join(f"{by_delta[d]} for delta={d}" for d in (4, 5, 6))
               + ", as the paper says (its 'at least' is right: A can still fail later); otherwise A eats at least "
               f"half of B; on 3x3 at every placement of the two amoebae ({len(placements(3))} up to symmetry, A/B: "
               f"{where}), {'the same' if on_3x3 else 'not always'}"
               + (f"; the same on {', '.join(f'{n}x{n}' for n in corner_boards)} with B in its corner and A moving "
                  "to the cell next to both (there not the center)" if corner_boards else "")
               + (f"; correction: {correction}" if not away_holds else ""))  # fmt: skip
    corner = [corner_cells(n) for n in boards]
    scope = (f"{', '.join(f'{n}x{n}' for n in boards)} with B in its corner ({', '.join(c[2] for c in corner)}), A two "
             f"steps away on the diagonal moving to the cell next to both ({', '.join(c[1] for c in corner)}); 3x3 at "
             f"every placement of the two amoebae off the centre, not adjacent, up to symmetry (B sizes "
             f"{', '.join(map(str, bases[:2]))}); {big}x{big} with A on {cells[0]}, B on {cells[2]}, A moving to the "
             f"center {cells[1]} (B size {bases[0]}); B sizes {', '.join(map(str, bases))}; every B roll and every legal "
             "B reply, then every A roll and eat; exact (no sampling); the paper's advice at delta = 4 ('play as in "
             "case 1') and the decision at delta = 5 and 6 are not tested, only the probabilities")  # fmt: skip
    explanation = (
        "For every B roll every legal B reply was applied (no pruning), and for each reply that does not end the "
        "game every A roll and every legal A eat next turn. B wins when it rolls more than delta, ties when it "
        "rolls exactly delta (the paper: 'B will choose to tie'), and otherwise must move (moves are compulsory). "
        "These immediate numbers are exact: 1/2, 1/3 and 1/6; the paper's 'at least' is the right word for the "
        "game, since after the first exchange A may still fail to win. Which placements the words cover: the paper "
        "plays 'a n x n Board', and Case II's 'moving to the center' with the amoebae 'not adjacent' covers every "
        "placement in which A's step to the center brings it next to B. On 3x3 the center b2 touches every cell, so "
        "every cell B can reach is next to A's new amoeba, and A eats at least half of B's units: checked at every "
        "placement. On a bigger board the center does not touch every cell: "
        + correction + ". The paper applies Case II only on 3x3 (every matrix it prints is 3x3; bigger boards are "
        "named, never played), so by the rule, the same as for the symmetry and unboundedness items (a failure in a "
        "case the words cover, none where the paper applies them), the word is 'confirmed with a correction', the "
        "correction: 'where the cell A moves to touches every cell B can reach (on 3x3, the center)'. Calling the 5x5 case 'outside the set-up' and keeping "
        "'confirmed' would read 'the center' as '3x3 only', which the paper's 'n x n Board' does not say."
        + (f" With B in its corner and A moving to the cell next to both (which there is not the center) the same "
           f"holds on {', '.join(f'{n}x{n}' for n in corner_boards)}." if corner_boards else "")
    )
    plain = (f"Right on 3x3: moving next to the opponent with a lead of 4, 5 or 6 fails at once exactly {by_delta[4]}, "
             f"{by_delta[5]} or {by_delta[6]} of the time, and otherwise you eat at least half of the opponent, wherever the two amoebae stand. On a "
             "bigger board the opponent can step away from the center, and then you may eat nothing: that is the "
             "correction.")  # fmt: skip
    holds_everywhere = agree and on_3x3 and away_holds
    verdict = judged(holds_everywhere, agree and on_3x3, evidence_bears_it=agree and on_3x3)
    scope += (f"; {DELTA_SIZE}; only the immediate chances are tested; not given items, with the reason: 'A is "
              "never going to lose' at delta = 6 is a claim about the whole game after the first exchange, as "
              "case-III's 'the opponent cannot win' is (the same search question, open there); 'he will probably "
              "choose to tie because he will roll again and get an advantage' is its own item, case-II-tie")
    brief = (f"a lead of 4-6 next to B fails at once {by_delta[4]}, {by_delta[5]}, {by_delta[6]} of the time, else A "
             "eats half; off 3x3 B may step away.")
    return Verdict("case-II", verdict, summary, explanation, evidence, scope=scope, plain=plain, quote=QUOTE,
                   brief=brief, reach="B's very next turn, every roll and reply; 3x3 at every placement; bigger "
                                      "boards with B in its corner, and one case off it")  # fmt: skip


# --------------------------------------------------------------------------- "he will roll again"

TIE_QUOTE = ("If delta = 4 ... (if B rolls 4 he will probably choose to tie because he will roll again and get an "
             "advantage).")
TIE_LINE = ("A 4 a1 a1-b2", "B 4 c3 c3-b2")
"""From the standard start (delta = 4 after A's roll): A moves to the centre, B rolls 4 and eats it: (5,5), a tie."""


def _centre_note(position: Position, turn: Turn) -> str:
    return ('Case II, delta = 4: "moving to the center" (the move the sentence is about; the paper itself advises '
            "playing as in Case I instead)")


def case_II_tie(deltas: tuple[int, ...] = (4, 5, 6), bases: tuple[int, ...] = (1, 10, 40)) -> Verdict:
    """"He will probably choose to tie because he will roll again": every tie B can choose after A's move to the
    centre, checked against the End Game rule (a game in which nobody owns a piece is over)."""
    rows = []
    for delta in deltas:
        for base in bases:
            centre = apply(opening_position(base + delta - 1, base), "1 a1 a1-b2")
            for roll, _ in centre.dice_outcomes():
                ties = [after for after in (apply(centre, turn) for turn in legal_turns(centre, roll))
                        if after.result == "tie"]  # fmt: skip
                if ties:
                    rows.append({"delta": delta, "base": base, "B roll": roll, "ways to tie": len(ties),
                                 "game over after the tie": all(after.is_over for after in ties),
                                 "A owns a piece after it": any(after.owned("A") for after in ties)})  # fmt: skip
    evidence = pd.DataFrame(rows)
    record = annotated_record(Position.start(3), TIE_LINE, annotate=_centre_note)
    ended = bool(evidence["game over after the tie"].all())
    # the rule: it fails wherever B ties, the very case the paper applies it to (delta = 4) included
    at_four = bool(evidence.loc[evidence["delta"] == 4, "game over after the tie"].all())
    verdict = judged(not ended, not at_four)
    summary = (f"exact: after A's move to the centre at delta = {', '.join(map(str, deltas))} (B sizes "
               f"{', '.join(map(str, bases))}), each of the {int(evidence['ways to tie'].sum())} ways B can tie "
               + ("ends the game at once: nobody owns a piece, the End Game rule's tie, so nobody rolls again"
                  if ended else "does not always end the game") + "; counter-line from the standard start")
    scope = (f"3x3; A on a1 moves to the centre b2 next to B on c3, delta = {', '.join(map(str, deltas))}, B sizes "
             f"{', '.join(map(str, bases))}; every B roll and every legal B turn that ties; exact; {DELTA_SIZE}; "
             f"{WORD_RULE}")
    explanation = (
        "A tie in Amoeboid is the end of the game: 'The game ends when one does not own any of the pieces on the "
        "board ... otherwise it's a tie.' When B rolls exactly delta and eats A's centre amoeba with all its units, "
        "the piece is neutral, nobody owns anything, and the game is over, so B cannot 'roll again and get an "
        "advantage'. The paper applies the sentence to delta = 4 itself, so by the rule it is false as stated. "
        "What B can do instead is not tie: eat with fewer units than it has, or move away, and play on.\n" + record
    )
    plain = "False: choosing to tie ends the game (nobody owns a piece), so B never gets to roll again after it."
    brief = "a tie ends the game: nobody owns a piece, so B never rolls again after choosing it."
    return Verdict("case-II-tie", verdict, summary, explanation, evidence, scope=scope, plain=plain,
                   counter_line=record, quote=TIE_QUOTE, brief=brief,
                   reach="every tie B can choose after A's centre move, delta 4-6; exact")  # fmt: skip


# --------------------------------------------------------------------------- the size-1000 example

STREAK_QUOTE = ("Suppose the size of both amoebae is 1000, and in the last 10 turns A and B have only roll 5's and "
                "6's and a single 3. ... In this case the probability of B rolling 5 or 6 is extremely low, so A "
                "shouldn't worry about losing.")  # fmt: skip
STREAK_START = opening_position(1000, 1000)


def case_II_streak(games: int = 40, seed: int | str = 0) -> Verdict:
    """The gambler's fallacy: after any streak, P(B rolls 5 or 6) = 1/3; B's real chance of a comeback."""
    centre = apply(STREAK_START, "5 a1 a1-b2")  # "A rolls a 5" and moves to the middle, as the paper concludes
    rolls = []
    for roll, p in centre.dice_outcomes():
        results = {apply(centre, turn).result for turn in _eats_of(centre, roll)}
        rolls.append({"B roll": roll, "probability": float(p), "B can win at once": "B" in results,
                      "B can tie at once": "tie" in results})  # fmt: skip
    table = pd.DataFrame(rolls)
    p_end = Fraction(int((table["B can win at once"] | table["B can tie at once"]).sum()), 6)
    p_win = Fraction(int(table["B can win at once"].sum()), 6)
    from ...players.registry import BOTS
    from ...engine.seeding import seeded_rng

    going_on = [int(r) for r in table.loc[~(table["B can win at once"] | table["B can tie at once"]), "B roll"]]
    p_on = Fraction(len(going_on), 6)
    later_rows = []  # B rolled 1-4: the game goes on; how often does B still come back? (simulated, for the numbers)
    for opponent in ("greedy", "paper"):
        outcomes: list[str] = []
        for i in range(games):
            roll = going_on[i % len(going_on)]  # B's rolls that do not end the game, in turn
            reply = BOTS[opponent](centre, roll, seeded_rng(seed, "streak", opponent, i))
            game = analysis.play_game(BOTS["paper"], BOTS[opponent], seed=seed_text(seed, "streak"), index=i,
                                      start=apply(centre, reply), max_turns=60)  # fmt: skip
            outcomes.append(game.result)
        b = outcomes.count("B")
        low, high = analysis.wilson_interval(b, games)
        later_rows.append({"B plays": opponent, "games (B rolled 1-4 first)": games, "B wins later": b,
                      "P(B comes back)": b / games, "low": low, "high": high,
                      "P(B wins the game)": float(p_win + p_on * Fraction(b, games)),
                      "P(B wins) low": float(p_win) + float(p_on) * low,
                      "P(B wins) high": float(p_win) + float(p_on) * high,
                      "unfinished (60 turns)": outcomes.count(CAPPED)})  # fmt: skip
    later = pd.DataFrame(later_rows)
    record = annotated_record(STREAK_START, ["A 5 a1 a1-b2", "B 6 c3 c3-b2"])
    summary = (f"exact: whatever the earlier rolls, P(B rolls 5 or 6) = 1/3, so B ties or wins at once with "
               f"probability {p_end} (wins with {p_win}); over the whole game B wins with probability {p_win} + "
               f"{p_on} x P(B comes back after rolling {going_on[0]}-{going_on[-1]}): simulated, "
               + " and ".join(f"{row['P(B wins the game)']:.2f} [{row['P(B wins) low']:.2f}, "
                              f"{row['P(B wins) high']:.2f}] as {row['B plays']}" for _, row in later.iterrows())
               + f" ({games} games each after B's roll of {going_on[0]}-{going_on[-1]}; unfinished after 60 turns, "
               "counted as no comeback: " + ", ".join(f"{row['unfinished (60 turns)']} as {row['B plays']}"
                                                      for _, row in later.iterrows()) + ")")  # fmt: skip
    scope = (f"3x3; the paper's position: A and B of size 1000 in opposite corners, A rolls 5 and moves to the "
             f"middle; exact over B's roll and every B eat; then, after each B roll that does not end the game (in "
             f"turn), {games} seeded games per B bot (A: the paper bot, at most 60 turns; a game still going then counts as "
             "no comeback, so the figure is a lower bound), 95% Wilson intervals scaled into the exact formula; B's 5 "
             "counted as a tie, as the paper says ('B will choose to tie'), though B may play on instead")  # fmt: skip
    explanation = (
        "Dice have no memory: each roll is 5 or 6 with probability 2/6 = 1/3 whatever came before (the gambler's "
        "fallacy is to think a streak makes the next roll less likely). After A's move to the middle B ties with a "
        f"5 and wins with a 6 at once: {p_end} of the time, exactly. The paper's arithmetic after B's failure is "
        "right (A eats at least 500 and becomes (1006,502)), and its conclusion that A should move to the middle may "
        "still be the right choice; what is false is the reason given. Counter-line: A follows the paper's advice "
        "and B rolls a 6."
    )
    plain = ("False: dice have no memory, so after any streak B still rolls a 5 or 6 one time in three, and then B "
             "ties or wins at once. The paper's sums after that are right.")
    evidence = pd.concat([table, later], ignore_index=True)
    brief = "dice have no memory; after any streak B still rolls 5 or 6 one time in three, then ties or wins."
    # the rule: the paper applies "extremely low" to its own position after the streak; the dice make P(5 or 6) the
    # same 1/3 after any streak as after none, so the streak lowers nothing there
    streak_lowers_it = p_end < Fraction(2, 6)  # 2 of the 6 faces, the chance with no streak at all
    verdict = judged(streak_lowers_it, streak_lowers_it)
    return Verdict("case-II-streak", verdict, summary, explanation, evidence, scope=scope, plain=plain,
                   counter_line=record, quote=STREAK_QUOTE, brief=brief,
                   reach="the dice after any streak; the size-1000 set-up in opposite corners")  # fmt: skip


def _eats_of(position: Position, roll: int) -> Iterator[str]:
    """B's turns that move onto A's amoeba: the whole amoeba and the exact tie (enough to decide win/tie at once)."""
    target = position.owned("A")[0]
    for src in position.owned("B"):
        grown = at(position, src).b + roll
        size = at(position, target).size
        if position.board.are_adjacent(src, target) and grown >= size:
            yield f"{roll} {src} {src}-{target} 0,{grown}"
            yield f"{roll} {src} {src}-{target} 0,{size}"


LENGTH_QUOTE = ("Then B will never be able to eat A until he gets 1006 more in size, this will take him more than 200 "
                "turns.")  # fmt: skip


def _p_sum_at_least(rolls: int, total: int, sides: int = 6) -> Fraction:
    """P(the sum of ``rolls`` fair dice >= ``total``), exactly."""
    ways = {0: 1}
    for _ in range(rolls):
        step: dict[int, int] = {}
        for s, w in ways.items():
            for r in range(1, sides + 1):
                step[s + r] = step.get(s + r, 0) + w
        ways = step
    return Fraction(sum(w for s, w in ways.items() if s >= total), sides**rolls)


def _expected_rolls(total: int, sides: int = 6) -> Fraction:
    """The expected number of fair dice rolls until their sum reaches ``total``, exactly (E(n) = 1 + mean E(n - r))."""
    values = [Fraction(0)] * sides  # E(k) = 0 for k <= 0
    for _ in range(total):
        values.append(1 + sum(values[-sides:], Fraction(0)) / sides)
    return values[-1]


LENGTH_START = Position.parse(". . . / . . . / . (1006,502) (0,502) B")
"""The paper's position after A's eat in the size-1000 example: A's (1006,502) beside B's (0,502), B to move."""
SPLIT_LINE = ("B 1 c3 c3-c2", "A 1 b3 b3-b2 500,0", "B 6 c2 c2-b2", "A 1 b3 b3-a3", "B 1 b2 b2-a3")
"""From :data:`LENGTH_START`, A splits its amoeba: B eats the piece, grows by 500 at once, and eats the rest (a
reviewer's line)."""


def case_II_length(need: int = 1006, claimed: int = 200) -> Verdict:
    """"More than 200 turns": both readings (B's own turns, turns of the game), exactly, in the paper's set-up.

    While A keeps its one amoeba whole, each of A's rolls grows it (at least 1 a turn) and B can grow only by its
    own rolls (there is nothing else to eat): B's deficit shrinks by at most 5 a round, so it is certain under both
    readings.  If A splits, B can eat a piece and grow by far more than a roll: :data:`SPLIT_LINE`, replayed here,
    ends within a few turns.  The chance that B's rolls alone add up to 1006 within 200 is given beside."""
    fewest_b_turns = math.ceil(need / 6)
    # after B's j-th turn A has grown j - 1 times: B catches up when need + (j - 1) - 6 j <= 0
    fewest_with_growth = math.ceil((need - 1) / 5)

    def game_turn(b_turns: int) -> int:  # B moves first from the set-up: B's k-th turn is turn 2k - 1 of the game
        return 2 * b_turns - 1

    p_within = _p_sum_at_least(claimed, need)
    expected_b_turns = float(_expected_rolls(need))
    record = annotated_record(LENGTH_START, SPLIT_LINE, claimant="B", annotate=describe_turn)
    split = Game.parse(record)
    split_b_turns = sum(1 for position in split.positions[:-1] if position.to_move == "B")
    if split.result != "B":
        raise AssertionError(f"the split line ends {split.result!r}, not in a B win")
    before_split = split.positions[1]  # A to move, B now next to A's amoeba
    passes_up_a_win = any(apply(before_split, turn).result == "A"
                          for turn in legal_turns(before_split, split.turns[1].roll))
    passed = ("; in it A even passes up a win, as it could have eaten B's amoeba at once: the line only shows that "
              "the count needs A's amoeba whole" if passes_up_a_win else "")
    rows = [
        {"reading": "B's own turns, A's amoeba whole", "fewest possible": fewest_with_growth,
         "expected (rolls only)": None, f"P(done within {claimed})": 0.0,
         "more than 200?": "surely" if fewest_with_growth > claimed else "not surely"},
        {"reading": "turns of the game, A's amoeba whole", "fewest possible": game_turn(fewest_with_growth),
         "expected (rolls only)": None, f"P(done within {claimed})": 0.0,
         "more than 200?": "surely" if game_turn(fewest_with_growth) > claimed else "not surely"},
        {"reading": "B's own turns, B's rolls alone (A's amoeba not growing)", "fewest possible": fewest_b_turns,
         "expected (rolls only)": expected_b_turns, f"P(done within {claimed})": float(p_within),
         "more than 200?": f"with probability 1 - {float(p_within):.1e}"},
    ]  # fmt: skip
    evidence = pd.DataFrame(rows)
    summary = (f"exact: in the paper's set-up A keeps its one amoeba whole, so every roll of A's grows it and B grows "
               f"only by its own rolls: B needs at least {fewest_with_growth} of its own turns, turn "
               f"{game_turn(fewest_with_growth)} of the game, so more than 200 surely in either reading "
               f"({need}/5, about 201, may be the authors' count); the correction: 'while A keeps its amoeba whole': "
               f"the set-up the paper applies the sentence to, A's reason to move to the middle; if A splits, B can eat a "
               f"piece and win on its turn {split_b_turns} (turn {len(split.turns)} of the game, the line below, "
               f"replayed{passed}); B's rolls alone, if A's amoeba stood still, would need at least "
               f"{fewest_b_turns} of B's turns, and reach {need} within {claimed} with probability "
               f"{float(p_within):.1e}")  # fmt: skip
    scope = ("the paper's set-up, A's (1006,502) beside B's (0,502), B to move, any board; both readings of 'turns' "
             "(of the game; B's own); A keeping its amoeba whole (the set-up: A's roll then grows it), and A "
             "splitting (one replayed line); B's growth counted as the paper does ('until he gets 1006 more in "
             "size'); exact convolution of 200 dice for B's rolls alone")  # fmt: skip
    explanation = (
        f"While A keeps its amoeba whole, A's roll grows it by at least 1 every turn, and B, with nothing else to eat, "
        f"grows only by its rolls, 6 at most: B gains at most 5 a round, so it needs at least ceil({need - 1}/5) = "
        f"{fewest_with_growth} of its own turns, which with A's turns in between is turn "
        f"{game_turn(fewest_with_growth)} of the game: 'more than 200 turns' is certain in either reading. If A "
        f"splits, that count no longer holds: in the line below A splits off 500, B eats the piece (growing by 500 "
        f"at once) and then A's amoeba, winning on its turn {split_b_turns}. For comparison, B's rolls alone would "
        f"take at least ceil({need}/6) = {fewest_b_turns} of B's turns to add {need}, {expected_b_turns:.1f} on "
        f"average (a little more than {need}/3.5 = {need / 3.5:.1f}, because the last roll overshoots), and do it "
        f"within {claimed} with probability {float(p_within):.1e}."
    )
    plain = (f"Right, with a correction: in the paper's set-up A has one amoeba, and each of A's rolls grows it, so B, "
             f"which can grow only by its own rolls, needs at least {fewest_with_growth} of its own turns even rolling "
             f"only sixes (turn {game_turn(fewest_with_growth)} of the game): certain, however 'turns' is counted. "
             f"The correction: this holds while A keeps its amoeba whole. If A splits, B can eat a piece, grow by "
             f"hundreds at once, and win on its turn {split_b_turns} (the line below{passed}).")
    brief = (f"over 200 turns while A's amoeba stays whole (B needs {fewest_with_growth} of its turns); if A splits, "
             f"B can win on its turn {split_b_turns}.")
    # the rule: the words cover A's every way of playing; if A splits, B can win within a few turns (the line), so it
    # fails in a case its words cover; in the set-up the paper describes (A's one amoeba, growing with A's rolls) it
    # holds surely in both readings: confirmed with a correction
    every_case = len(split.turns) > claimed
    surely = fewest_with_growth > claimed and game_turn(fewest_with_growth) > claimed
    verdict = judged(every_case, surely)
    return Verdict("case-II-length", verdict, summary, explanation, evidence, scope=scope, plain=plain,
                   counter_line=record, quote=LENGTH_QUOTE, brief=brief,
                   reach="the paper's set-up, exact; both readings of 'turns'; one line where A splits")  # fmt: skip
