"""Case I (not adjacent, delta < 3.5): stall, rather than split or move next to the opponent."""

from __future__ import annotations

from fractions import Fraction
from typing import Callable

import pandas as pd

from .. import analysis
from ...engine.rules import Position, Turn, apply, legal_turns
from ...engine.seeding import seed_text
from .advantage import DELTA_SIZE
from .lines import annotated_record, at, describe_turn, ends, opening_position
from .verdict import Verdict, judged

QUOTE = ("We claim that the optimal strategy here is to move to one of the two adjacent positions not adjacent to the "
         "enemy amoeba.")  # fmt: skip

SPLIT_QUOTE = ("Splitting in this case guarantees that at least one of your amoebae is smaller than the opponent's "
               "amoeba and the delta between each of your amoebae and the opponent's amoeba increases in favor of the "
               "opponent.")  # fmt: skip

CASE_I_OPTIONS: dict[str, Callable[..., str]] = {  # the paper's three options, as A's turn from a1 (size s) after rolling r
    "stall": lambda r, s=1: f"{r} a1 a1-b1",  # to a cell not adjacent to B on c3 (the paper's choice)
    "adjacent": lambda r, s=1: f"{r} a1 a1-b2",  # to b2, next to B
    "split": lambda r, s=1: f"{r} a1 a1-b1 {(s + r) // 2},0",  # half of A's amoeba to b1, the rest stays on a1
}

WINS_AT_ONCE = "P(B wins at once), mean over r = 1-3"
TIES_AT_ONCE = "P(B only ties at once), mean over r = 1-3"
"""Case I's exact columns: a mean over A's rolls 1-3, each a third of the time (each roll alone: the summary)."""


def _b_ends_at_once(after: Position) -> tuple[Fraction, Fraction]:
    """(P(B can win at once), P(B can only tie at once)) over B's roll, every legal B reply."""
    wins = ties = Fraction(0)
    for roll, p in after.dice_outcomes():
        results = {apply(after, turn).result for turn in legal_turns(after, roll)}
        wins += p * ("B" in results)
        ties += p * ("tie" in results and "B" not in results)
    return wins, ties


def _interval(points: float, games: int) -> tuple[float, float]:
    """The 95% Wilson interval of a score counting a tie as half a win (the formula takes any real count)."""
    low, high = analysis.wilson_interval(points, games)  # type: ignore[arg-type]
    return low, high


def split_premise_holds(a_size: int, b_size: int) -> bool:
    """The paper's premise: *every* split of A's amoeba leaves a piece smaller than B's (exact, by enumeration)."""
    return all(min(x, a_size - x) < b_size for x in range(1, a_size))


def case_I_table(b_sizes: tuple[int, ...] = tuple(range(1, 13)), games: int = 30,
                 opponents: tuple[str, ...] = ("greedy", "paper"), seed: int | str = 0,
                 board: int = 3) -> pd.DataFrame:  # fmt: skip
    """Per B size b: A (size b) on a1 rolls r = 1, 2, 3 (delta = r), B (b) on c3; the three options.

    Exact for every (b, r): B's chance to end the game at once after each option,
    and whether every split leaves a piece smaller than B's (the paper's premise).
    Simulated: A's score (win 1, tie 1/2) over ``games`` seeded games per (b,
    option, opponent), A's roll r = 1 + i mod 3 in game i, then A plays the
    paper bot (which stalls again and again, as the paper means) and B the named
    bot; game i uses the same dice for every option.
    """
    from ...players.registry import BOTS

    rows = []
    for b in b_sizes:
        for option, turn_for in CASE_I_OPTIONS.items():
            exact_win = exact_tie = Fraction(0)
            least = None  # the smallest P(B ends the game at once) over A's rolls 1-3
            for r in (1, 2, 3):
                win, tie = _b_ends_at_once(apply(opening_position(b, b, board=board), turn_for(r, b)))
                exact_win, exact_tie = exact_win + win / 3, exact_tie + tie / 3
                least = win + tie if least is None else min(least, win + tie)
            row = {"board": f"{board}x{board}", "B size": b, "option": option,
                   WINS_AT_ONCE: float(exact_win), TIES_AT_ONCE: float(exact_tie),
                   "least P(B ends it at once), r = 1-3": str(least),
                   "premise holds (r=1,2,3)": all(split_premise_holds(b + r, b) for r in (1, 2, 3))}  # fmt: skip
            for opponent in opponents:
                results = []
                for i in range(games):
                    r = 1 + i % 3
                    after = apply(opening_position(b, b, board=board), turn_for(r, b))
                    game = analysis.play_game(BOTS["paper"], BOTS[opponent], seed=seed_text(seed, "case-I", b), index=i,
                                              start=after, max_turns=200)  # fmt: skip
                    results.append(game.result)
                points = sum((x == "A") + 0.5 * (x == "tie") for x in results)
                low, high = _interval(points, games)  # a tie counts half a win
                row.update({f"score v {opponent}": points / games, f"low v {opponent}": low, f"high v {opponent}": high,
                            f"games v {opponent}": games})  # fmt: skip
            rows.append(row)
    return pd.DataFrame(rows)


def _label(stall: tuple[float, float], split: tuple[float, float]) -> str:
    """'stall higher', 'split higher' (95% intervals apart) or 'not separated', from (low, high) pairs."""
    if stall[0] > split[1]:
        return "stall higher"
    if split[0] > stall[1]:
        return "split higher"
    return "not separated"


def _comparison(table: pd.DataFrame, opponent: str) -> pd.DataFrame:
    """Stall against split per B size, and pooled over the sizes: the scores, their intervals and the label."""
    rows = []
    for b, group in table.groupby("B size"):
        group = group.set_index("option")
        stall, split = group.loc["stall"], group.loc["split"]
        label = _label((stall[f"low v {opponent}"], stall[f"high v {opponent}"]),
                       (split[f"low v {opponent}"], split[f"high v {opponent}"]))  # fmt: skip
        rows.append({"B size": b, "opponent": opponent, "stall": stall[f"score v {opponent}"],
                     "split": split[f"score v {opponent}"], "stall v split": label})  # fmt: skip
    pooled = {}
    for option in ("stall", "split"):
        part = table[table["option"] == option]
        games = int(part[f"games v {opponent}"].sum())
        points = float((part[f"score v {opponent}"] * part[f"games v {opponent}"]).sum())
        pooled[option] = (points / games, *_interval(points, games), games)
    rows.append({"B size": "all", "opponent": opponent, "stall": pooled["stall"][0], "split": pooled["split"][0],
                 "stall v split": _label(pooled["stall"][1:3], pooled["split"][1:3]),
                 "stall interval": f"[{pooled['stall'][1]:.2f}, {pooled['stall'][2]:.2f}]",
                 "split interval": f"[{pooled['split'][1]:.2f}, {pooled['split'][2]:.2f}]",
                 "games per option": pooled["stall"][3]})  # fmt: skip
    return pd.DataFrame(rows)


def _sizes_text(sizes: tuple[int, ...]) -> str:
    ordered = sorted(sizes)
    contiguous = ordered == list(range(ordered[0], ordered[-1] + 1))
    return f"{ordered[0]}-{ordered[-1]}" if contiguous and len(ordered) > 2 else ", ".join(map(str, ordered))


def case_I(b_sizes: tuple[int, ...] = tuple(range(1, 13)), games: int = 30,
           opponents: tuple[str, ...] = ("greedy", "paper"), seed: int | str = 0,
           boards: tuple[int, ...] = (3,)) -> Verdict:  # fmt: skip
    """Case I: the word from exact facts (B's immediate chances, the splitting premise); simulations add numbers.

    The paper rules out moving next to B (exact: B then ends the game at once
    with probability (7 - r)/6 >= 2/3 for A's roll r <= 3) and splitting, because
    a split leaves a piece smaller than B's amoeba: exactly true when B is
    bigger than delta, false exactly when B's size <= delta (the very first
    move among them).  That stalling is *optimal* is decided by no exact
    comparison (simulations decide no word), so the word is "open", whatever
    the number of games.
    """
    tables = [case_I_table(b_sizes, games, opponents, seed, board) for board in boards]
    table = pd.concat(tables, ignore_index=True)
    main = tables[0]
    adjacent = main[main["option"] == "adjacent"]
    others = main[main["option"] != "adjacent"]
    least = min(Fraction(x) for x in adjacent["least P(B ends it at once), r = 1-3"])
    safe_otherwise = bool((others[WINS_AT_ONCE] == 0).all())
    premise = main.drop_duplicates("B size").set_index("B size")["premise holds (r=1,2,3)"]
    fails = [int(b) for b, holds in premise.items() if not holds]
    comparisons = pd.concat([_comparison(main, o) for o in opponents], ignore_index=True)
    per_size = comparisons[comparisons["B size"] != "all"]
    pooled = comparisons[comparisons["B size"] == "all"].set_index("opponent")
    counts = per_size.groupby(["opponent", "stall v split"]).size().unstack(fill_value=0)

    def finding(o: str) -> str:
        row = pooled.loc[o]
        sizes = ", ".join(f"{label} at {counts.loc[o].get(label, 0)} of {len(b_sizes)} sizes" for label in
                          ("stall higher", "not separated", "split higher") if counts.loc[o].get(label, 0))  # fmt: skip
        return (f"v {o}: pooled over sizes stall {row['stall']:.2f} {row['stall interval']} v split "
                f"{row['split']:.2f} {row['split interval']} ({row['stall v split']}; {int(row['games per option'])} "
                f"games each); per size: {sizes}")  # fmt: skip

    findings = "; ".join(finding(o) for o in opponents)
    # The word: B's next turn after the adjacent square is exact, but "optimal" is shown nowhere: its argument
    # against splitting rests on a premise that fails where B is not bigger than delta (the paper's start-of-game
    # example among them), and no exact comparison of stalling with splitting exists; simulations decide no word.
    verdict = judged(None, None)  # optimality: neither shown nor refuted by an exact comparison
    sizes = _sizes_text(b_sizes)
    adjacent_text = (f"next to B, B ends the game at once with probability >= {least} (exactly (7 - r)/6 for A's "
                     "roll r), counting B's choice to tie: the paper's 'likely loss' (B strictly bigger: (6 - r)/6, 1/2 at r = 3)" if least >= Fraction(1, 2) else "next to B is not always worse at once")
    start_example = ("e.g. at the start of a game A rolls 3 to (4,0) and splits 2/2 against B's 1: neither piece is "
                     "smaller" if not split_premise_holds(4, 1) else "")  # exact, by enumeration of the splits
    summary = (f"exact: {adjacent_text}; the sentence of the argument against splitting ('Splitting in this case "
               "guarantees that at least one of your amoebae is smaller than the opponent's amoeba') is false when "
               f"B's size <= delta (= A's roll r, equal bases): {start_example} (by enumeration: B sizes {fails} for "
               f"some r), true above; optimality of stalling: decided by no exact comparison; simulated, A's score (a tie counts 1/2): {findings}")  # fmt: skip
    scope = (f"{', '.join(f'{n}x{n}' for n in boards)}; only delta = 1..3 with equal sizes, A and B both of size b "
             f"before A's roll (unequal sizes not tested; delta <= 0, A behind, not tested); about the square next to "
             f"B only B's chance to end the game on its very next turn is computed; A (size b) on a1 rolls 1-3 against B (size b) on c3, "
             f"b = {sizes}; exact one-turn lookahead over every B roll and legal reply; simulations: A continues "
             f"with the paper bot (stalling repeatedly), B plays {', '.join(opponents)}; {games} seeded games per "
             "size, option and opponent, 95% Wilson intervals")  # fmt: skip
    other_boards = ""
    if len(boards) > 1:
        by_board = table[table["option"] == "adjacent"].groupby("board")[WINS_AT_ONCE].min()
        other_boards = (" On " + ", ".join(by_board.index) + " the exact facts are the same (B is two steps away "
                        "on every board); the simulations are in the evidence.")  # fmt: skip

    def in_words(o: str) -> str:
        row = pooled.loc[o]
        name = "the paper's own B" if o == "paper" else f"the {o} bot"
        scores = f"({row['stall']:.2f} v {row['split']:.2f})"
        if row["stall v split"] == "stall higher":
            return f"stalling did better than splitting against {name} {scores}"
        if row["stall v split"] == "split higher":
            return f"splitting did better than stalling against {name} {scores}"
        return f"against {name} the two were not separated {scores}"

    games_words = " and ".join(in_words(o) for o in opponents)
    explanation = (
        "The paper's three options from a1 with B on c3: stall (b1, not next to B), move next to B (b2) or split "
        "(half to b1). Exact: after moving next to B, B wins (rolling more than A's roll r) or ties (rolling r) at "
        f"once with probability (7 - r)/6, at least {least} for r <= 3, "
        + ("while after stalling or splitting B cannot end the game at once" if safe_otherwise else
           "and after stalling or splitting B can sometimes end it at once too")
        + ": on B's very next turn the paper's 'likely loss' is borne out (later turns are not computed). Its case against splitting rests on 'at least one of "
        "your amoebae is smaller than the opponent's', which is exactly true when B's amoeba is bigger than delta "
        "and false at the very first move (B size 1, A size 2-4 splits into pieces no smaller than 1). In played-out "
        f"games ({games} seeded games per size and option, A going on the paper's way), pooled over the sizes: "
        f"{games_words} at this sample size; the pooled figure favours stalling against the greedy bot. Those games "
        "decide no word (their verdict could change with more games, and they test two bots, not every opponent), "
        "and no exact comparison of stalling with splitting exists, so whether stalling is *optimal* is 'open', not "
        "'false'. Only delta = 1..3 with equal bases was tested; Case I's 'delta < 3.5' also covers delta <= 0."
        + other_boards
    )
    per_option = int(pooled["games per option"].iloc[0])
    plain = (f"Open: after a step next to the enemy, the enemy wins or ties on its very next turn at least "
             f"{least} of the time (all we compute about that square, not what happens later in the game), but the paper's reason for never splitting fails when B is no bigger than the lead (as at "
             f"the start of the game), and nobody has shown stalling to be best. In "
             f"played-out games ({per_option} per option over {len(b_sizes)} sizes), {games_words}.")  # fmt: skip
    evidence = pd.concat([table, comparisons], ignore_index=True)
    board = opening_position(2, 1).board
    squares = {cell: len(board.neighbours[board.index[cell]]) for cell in ("a1", "b1")}
    scope += (f"; {DELTA_SIZE}; the sentence against splitting is its own item, case-I-split; not given items, with "
              "the reason: 'the three adjacent squares' is a count, true from "
              f"a corner only (a1 has {squares['a1']} neighbours on 3x3, b1, where the paper's own stall goes, has "
              f"{squares['b1']}): stalling from b1 means a square not next to the enemy among those; 'split ... with a "
              "chance of a comeback' is a 'chance', not a claim a search can refute (B's reply is a fact of the rules)")
    boards_text = ", ".join(f"{n}x{n}" for n in boards)
    brief = (f"{boards_text}, equal sizes, A's roll 1-3 ahead: next to B, B ends it at once >= {least} (all that is "
             "computed there); the no-split reason fails at the start.")
    return Verdict("case-I", verdict, summary, explanation, evidence, scope=scope, plain=plain, quote=QUOTE,
                   brief=brief, reach="3x3; A's lead 1 to 3 at equal sizes only; B's next turn exact; played-out games against two bots")  # fmt: skip


def _start_split_line(failing: pd.DataFrame) -> tuple[list[str], str]:
    """The counter-line at the start of the game, and its sentence: A's biggest failing roll r, split in half, then
    B's smallest roll (1) onto a cell next to none of A's pieces, so that no piece of A's is smaller than B's amoeba
    whether B's size is read before or after B's roll (checked here on the replayed positions)."""
    r = int(failing["A's roll r"].max())
    half = (1 + r) // 2
    start = opening_position(1, 1)
    a_turn = f"{r} a1 a1-b1 {half},0"
    split = apply(start, a_turn)
    b_turn = next(turn for turn in legal_turns(split, 1) if not turn.is_pass and split[ends(turn)[1]] is None
                  and len(apply(split, turn).owned("B")) == 1  # B moves its whole amoeba
                  and not any(split.board.are_adjacent(ends(turn)[1], cell) for cell in split.owned("A")))  # fmt: skip
    after = apply(split, b_turn)
    pieces = sorted(at(split, cell).size for cell in split.owned("A"))
    b_before, b_after = (at(p, p.owned("B")[0]).size for p in (split, after))
    assert pieces[0] >= b_after >= b_before  # neither reading finds a smaller piece (the line's purpose)
    example = (f"at the start of the game A rolls {r} to ({1 + r},0) and splits it {pieces[0]} + {pieces[1]}; B "
               f"rolls {b_turn.roll} to (0,{b_after}) and moves away: neither of A's pieces is smaller than B's "
               f"amoeba, whether B's size is read before its roll ({b_before}) or after it ({b_after})")
    return [f"A {a_turn}", f"B {b_turn}"], example


def case_I_split(b_sizes: tuple[int, ...] = tuple(range(1, 13))) -> Verdict:
    """Case I's "Splitting in this case guarantees that at least one of your amoebae is smaller than the opponent's
    amoeba", by enumeration of every split, for A's roll r = 1..3 at equal sizes b, and at the start of the game (b =
    1), where the paper itself applies Case I ("For example at the start of the game"): the word from :func:`judged`."""
    rows = [{"B size": b, "A's roll r": r, "A's size": b + r, "every split leaves a piece smaller than B's":
             split_premise_holds(b + r, b), "start of the game": b == 1} for b in b_sizes for r in (1, 2, 3)]  # fmt: skip
    evidence = pd.DataFrame(rows)
    column = "every split leaves a piece smaller than B's"
    at_start = evidence[evidence["start of the game"]]
    holds_everywhere = bool(evidence[column].all())
    holds_at_start = bool(at_start[column].all()) if len(at_start) else None
    verdict = judged(holds_everywhere, holds_at_start)
    fails = sorted({int(b) for b in evidence[~evidence[column]]["B size"]})
    record = ""
    if holds_at_start is False:
        line, example = _start_split_line(at_start[~at_start[column]])
        start = opening_position(1, 1)

        def annotate(position: Position, turn: Turn) -> str:
            return f"the split the sentence speaks of: {describe_turn(position, turn)}"

        record = annotated_record(start, line, annotate=annotate)
    else:
        example = "no split at the start of the game leaves both pieces as big as B's"
    summary = (f"by enumeration of every split of A's amoeba (size b + r) against B's b, r = 1..3: the sentence "
               f"fails for B sizes {fails or 'none'} (exactly when B's size <= delta = r); {example}")
    scope = (f"any board (sizes only); equal bases b = {_sizes_text(b_sizes)}, A's roll r = 1..3 (delta < 3.5), "
             "every split exact; the paper applies Case I at the start of the game (its own example), b = 1; B's size "
             "read before its next roll, and after it on the counter-line (B rolls 1); "
             f"{DELTA_SIZE}")
    explanation = (
        "A split of s units gives pieces x and s - x. 'At least one of your amoebae is smaller than the opponent's' "
        "needs min(x, s - x) < b for every x. With s = b + r that fails exactly when b <= r: both halves of b + r "
        "are then at least b. The paper applies Case I to the start of the game ('For example at the start of the "
        "game'), where B's amoeba is 1 and A's, after its roll, 2 to 4: every split there leaves both pieces at "
        "least 1, so the sentence fails in a case the paper applies it to."
        + (" 'Smaller than the opponent's amoeba' may also be read after B's next roll; the counter-line meets that "
           f"reading too: {example}. The counter-line:\n{record}" if record else "")
    )
    plain = ("False as stated: at the start of the game, when the enemy amoeba is still no bigger than your lead, a "
             "split can leave both pieces at least as big as the enemy's." if verdict == "false as stated" else
             "See the summary.")
    brief = ("at the start, where the paper applies Case I, a split can leave both pieces as big as the enemy's, "
             "even after its roll." if verdict == "false as stated" else "see the details.")
    return Verdict("case-I-split", verdict, summary, explanation, evidence, scope=scope, plain=plain,
                   counter_line=record, quote=SPLIT_QUOTE, brief=brief,
                   reach="every split, exact; equal sizes, A's lead 1 to 3")  # fmt: skip
