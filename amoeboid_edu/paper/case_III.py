"""Case III (not adjacent, delta > 6): the centre, neutralise while Delta > 6, eat, then "reset"."""

from __future__ import annotations

from fractions import Fraction

import pandas as pd

from ..game import Game
from ..rules import Position, apply, legal_turns
from ..search import LineOutcomes, SearchBudgetExceeded, line_counterexample
from .lines import annotate_paper_turn, annotated_record, opening_position, paper_line
from .verdict import Verdict

QUOTE = ("We can show that by moving to the center with an Advantage 2 in your favor, the opponent cannot win. After "
         "your amoeba moves to the center, your opponent's amoeba grows but not by more than 6.")  # fmt: skip


def case_III_start(delta: int = 7, base: int = 1, board: int = 3) -> Position:
    """A (``base + delta - 1``, so delta after a roll of 1) on a1, B (``base``) on c3, A to move."""
    return opening_position(base + delta - 1, base, board=board)


def whole_eat_line(position: Position, roll: int):
    """The paper bot's line, except that Case III's eat uses A's whole amoeba (the other reading of 'eat one of the
    opponent's split amoebae'; the bot's own default eats with one unit more than the piece)."""
    from ..bots import paper_options

    rule, turns, _ = paper_options(position, roll)
    if rule.key == "III-eat":
        for turn in turns:
            if apply(position, turn)[turn.src] is None:
                return turn
    return paper_line(position, roll)


EAT_DEFAULT = ("the paper bot eats with one unit more than the piece (the smallest capture keeping the centre, as "
               "Case IV step 4's 'a number 1 higher' and the example game's 'splits and eats'), else with its whole "
               "amoeba")  # fmt: skip
"""How many units eat in Case III: the paper is silent; this is the paper bot's named default."""

ONE_MORE_LINE = ("A 1 a1 a1-b2", "B 6 c3 c3-c2 0,3", "A 1 b2 b2-c3 5,0", "B 6 c2 c2-b2", "A 1 c3 c3-b3",
                 "B 1 b2 b2-b3")  # fmt: skip
"""From A 7 on a1 v B 1 on c3: A to the centre, B splits in half, A eats c3 with one unit more, B eats the weakened
centre, A 'resets' with its whole amoeba (every square it can reach touches the centre), B eats it and wins."""


def _annotate_one_more(position: Position, turn) -> str:
    """The paper's sentence for each A turn of :data:`ONE_MORE_LINE`; the reset is read as the paper words it."""
    try:
        return annotate_paper_turn(position, turn)
    except ValueError:
        pass
    board = position.board
    reach = [board.names[j] for j in board.neighbours[board.index[turn.src]] if position.cells[j] is None]
    enemy = [name for name in board.names if position[name] is not None and position[name].owner == "B"]
    touching = all(any(board.are_adjacent(cell, e) for e in enemy) for cell in reach)
    if apply(position, turn)[turn.src] is not None or not touching or position.Delta >= 0:
        raise ValueError(f"{turn} is not the reset this counter-line reads")
    return ('Case III: "the Delta may continue to decrease from your advantage in which case the optimal move is to '
            f'move to an opposite square from your opponent" [here: Delta = {position.Delta}; the whole amoeba moves '
            f"(the paper's 'move'); paper silent when every empty square it can reach ({', '.join(reach)}) touches "
            f"B's amoeba: default (this line) {turn.dst}; the paper bot plays its greedy default instead]")


def case_III_table(setups: tuple[tuple[int, int, int], ...] = ((7, 1, 3),), turns: int = 6, chance_turns: int = 0,
                   budget: int = 2_000_000, line=paper_line) -> pd.DataFrame:  # fmt: skip
    """Per set-up (delta, B size, board): A plays ``line`` (the paper bot), B every roll and every legal turn.

    A line on which B wins within ``turns`` turns ("none" is exhaustive), and,
    when ``chance_turns`` > 0, the largest chance over every B strategy that B
    wins within that many turns (exact expectimax).
    """
    rows = []
    for delta, base, board in setups:
        start = case_III_start(delta, base, board)
        try:
            found = line_counterexample(start, line, turns, budget=budget)
            outcome = "none" if found is None else " ; ".join(found)
        except SearchBudgetExceeded:
            found, outcome = None, f"unknown (more than {budget:,} turns visited)"
        row = {"board": f"{board}x{board}", "delta": delta, "B size": base, "start": str(start),
               "turns searched": turns, "B wins along the plan": outcome, "found": found}  # fmt: skip
        if chance_turns:
            search = LineOutcomes(line, "B wins", budget=budget)
            try:
                value = search.value(start, chance_turns)
                row.update({"chance turns": chance_turns, "max P(B wins)": float(value), "exact": str(value)})
            except SearchBudgetExceeded:
                row.update({"chance turns": chance_turns, "max P(B wins)": None, "exact": "unknown"})
        rows.append(row)
    return pd.DataFrame(rows)


def b_wins_at_once_after_centre(delta: int, base: int, board: int = 3) -> bool:
    """The paper's one-turn argument, exactly: after A's move to the centre can any B roll and reply win at once?"""
    centre = apply(case_III_start(delta, base, board), "1 a1 a1-b2")
    return any(apply(centre, turn).result == "B" for roll, _ in centre.dice_outcomes()
               for turn in legal_turns(centre, roll))  # fmt: skip


GAME_STARTS = ((8, 1), (20, 14), (30, 24))
"""Case III starts for played-out games: A (size a) on a1 and B (size b) on c3, A to move (delta = a + 1 - b)."""


def case_III_games(starts: tuple[tuple[int, int], ...] = GAME_STARTS, games: int = 10, opponent: str = "expectimax",
                   max_turns: int = 60, seed: int | str = 0) -> pd.DataFrame:  # fmt: skip
    """The paper bot as A against a bot as B from Case III starts: results with 95% intervals, and for every B win
    whether A had already played a turn on which the paper is silent (its instructions had run out)."""
    from .. import analysis
    from ..bots import BOTS, paper_options

    rows = []
    for a_size, b_size in starts:
        start = opening_position(a_size, b_size)
        results, after_default = [], 0
        for i in range(games):
            game = analysis.play_game(BOTS["paper"], BOTS[opponent], seed=f"{seed}:case-III", index=i, start=start,
                                      max_turns=max_turns)  # fmt: skip
            results.append(game.result)
            if game.result == "B":
                after_default += any(paper_options(before, turn.roll)[0].is_default
                                     for before, turn in zip(game.positions, game.turns) if before.to_move == "A")  # fmt: skip
        b_wins = results.count("B")
        low, high = analysis.wilson_interval(b_wins, games)
        rows.append({"start": str(start), "B plays": opponent, "games": games, "A wins": results.count("A"),
                     "B wins": b_wins, "B win rate": b_wins / games, "low": low, "high": high,
                     "ties": results.count("tie"), f"unfinished ({max_turns} turns)": results.count("ongoing"),
                     "B wins after A played a paper-silent default": after_default})  # fmt: skip
    return pd.DataFrame(rows)


def case_III(setups: tuple[tuple[int, int, int], ...] = ((7, 1, 3), (10, 1, 3), (7, 1, 4), (7, 1, 5)),
             turns: int = 6, chance_turns: int = 0, games: int = 0, game_starts=GAME_STARTS, game_turns: int = 60,
             seed: int | str = 0) -> Verdict:  # fmt: skip
    """Case III: 'the opponent cannot win' depends on how A eats (the paper is silent): false when A eats with one unit
    more (a replayable counter-line), open when A eats with its whole amoeba (exhaustive within ``turns``); exact for
    B's next turn; ``games`` played-out games per start against the expectimax bot add numbers (they decide no word)."""
    table = case_III_table(setups, turns, chance_turns, line=whole_eat_line)
    immediate = {(d, b, n): b_wins_at_once_after_centre(d, b, n) for d, b, n in setups}
    wins = table[table["found"].notna()]
    unknown = table[table["B wins along the plan"].str.startswith("unknown")]
    boards = sorted({n for _, _, n in setups})
    names = ", ".join(f"{n}x{n}" for n in boards)
    setups_text = "; ".join(f"delta {d}, B size {b} on {n}x{n}" for d, b, n in setups)
    deep = f"{turns} turns of the game ({(turns + 1) // 2} of A's, {turns // 2} of B's)"
    played = case_III_games(game_starts, games, max_turns=game_turns, seed=seed) if games else None
    one_more_start = case_III_start(7, 1)
    record = annotated_record(one_more_start, ONE_MORE_LINE, annotate=_annotate_one_more)
    one_more_wins = Game.parse(record).result == "B"
    whole_text = (f"open if A eats with its whole amoeba: no B win along the plan within {deep} in any set-up "
                  "(exhaustive over B's every roll and legal reply), beyond undecided" if not len(wins) else
                  f"false if A eats with its whole amoeba too: B wins within {turns} turns from {wins.iloc[0]['start']}")
    if len(wins):
        verdict, depends_on = "false as stated", ""
        record = annotated_record(Position.parse(wins.iloc[0]["start"]), wins.iloc[0]["found"])
    elif one_more_wins:
        verdict, depends_on = "depends", "how A eats (the paper does not say)"
    else:
        verdict, depends_on, record = "open", "", ""
    summary = ((f"false if A eats with one unit more than the piece (the paper bot's default, the paper's own idiom "
                f"in Case IV step 4) and then resets by moving its whole amoeba: B wins on turn {len(ONE_MORE_LINE)} "
                "of the game from A 7 v B 1 (counter-line); " if one_more_wins else "")
               + whole_text + "; either way B cannot win at once after the centre move (exact)")  # fmt: skip
    if chance_turns and "max P(B wins)" in table:
        summary += f"; best chance of a B win within {chance_turns} turns: " + ", ".join(table["exact"])
    games_text = ""
    if played is not None:
        b_total, n_total = int(played["B wins"].sum()), int(played["games"].sum())
        late = int(played["B wins after A played a paper-silent default"].sum())
        summary += ("; played out (the paper bot, eating with one unit more) against expectimax, B wins " + ", ".join(
            f"{row['B wins']}/{row['games']} [{row['low']:.2f}, {row['high']:.2f}] from A {a} v B {b}"
            for (a, b), (_, row) in zip(game_starts, played.iterrows())))  # fmt: skip
        games_text = (f"In played-out games against the expectimax bot B won {b_total} of {n_total}"
                      + (", every time after A had played a turn on which the paper is silent" if b_total and
                         late == b_total else f" ({late} after A had played a paper-silent turn)" if b_total else "")
                      + ": too few games to support anything. ")  # fmt: skip
    scope = ("only the clause 'the opponent cannot win' is tested (not 'the optimal strategy here is to move your "
             "amoeba to the center', nor 'splitting can be ruled out'); "
             f"{names}; {setups_text}; A on a1 and B on c3 on every board (two steps apart, b2 next to both: the "
             f"paper's 3x3 picture inside the bigger boards); how many units eat: paper silent, {EAT_DEFAULT}; "
             f"searched: A plays the paper bot (centre, neutralise the biggest piece while Delta > 6, eat, reset to an "
             f"opposite square; defaults named in its rules) but eats with its whole amoeba, B every roll and every "
             f"legal turn, to {deep}; counter-line: 3x3, A 7 on a1 v B 1 on c3, A eats with one unit more and resets "
             "with its whole amoeba onto a square next to B (every square it can reach is)"
             + (f"; {len(unknown)} set-ups ran out of budget" if len(unknown) else "")
             + (f"; played out: 3x3, {games} seeded games per start ({', '.join(f'{a} v {b}' for a, b in game_starts)})"
                f" against the expectimax bot, at most {game_turns} turns each, 95% Wilson intervals"
                if played is not None else ""))  # fmt: skip
    explanation = (
        "The paper's own argument is about B's next turn: A's centre amoeba exceeds B's by more than 6, so no roll "
        f"lets B eat it; checked exactly ({sum(not v for v in immediate.values())} of {len(immediate)} set-ups: B "
        "cannot win at once). The claim goes further: playing the plan, 'the opponent cannot win'. Once Delta <= 6 "
        "the plan says 'eat one of the opponent's split amoebae' without saying with how many units. Eating with one "
        "unit more than the piece (the paper's idiom in Case IV step 4, 'a number 1 higher', and the paper bot's "
        "default) leaves A's centre weak: in the counter-line B eats it, Delta turns negative, A 'resets' by moving "
        "its whole amoeba to a square away from the centre, but on 3x3 every square touches the centre, and B eats "
        "it and wins, six turns into the game. (The paper bot itself, finding no square next to no enemy, plays its "
        "greedy default there instead.) Eating with the whole amoeba keeps A's units together: along that plan "
        f"every B roll and every legal B turn was searched for {deep} and B never wins; that is not a proof that B "
        "can never win (the game can last longer), so that reading is 'open', with this bound. Only the clause 'the "
        "opponent cannot win' is checked here. "
        + games_text
        + ("A bot game is not a counterexample: A played one of the turns the text allows, and after the text runs "
           "out a default; another choice might have won. " if played is not None else "")
    )
    plain = ("It depends on how A eats, which the paper does not say: if A eats a piece with one unit more than it "
             "(as the paper does in Case IV), B can win six turns into the game (the counter-line); if A eats with "
             f"its whole amoeba, a computer that tried every roll and every reply found no way for B to win within "
             f"{turns} turns of the game, and beyond that nobody knows.")  # fmt: skip
    if verdict == "false as stated":
        plain = "False as stated: even playing exactly as the paper says, there are dice and replies with which B wins."
    elif verdict == "open":
        plain = f"Open: no way for B to win was found within {turns} turns of the game; beyond that nobody knows."
    evidence = table.drop(columns=["found"])
    if played is not None:
        evidence = pd.concat([evidence, played], ignore_index=True)
    return Verdict("case-III", verdict, summary, explanation, evidence, scope=scope, plain=plain,
                   depends_on=depends_on, counter_line=record, quote=QUOTE)  # fmt: skip


# --------------------------------------------------------------------------- "it cannot eat the neutral piece"

NEUTRAL_QUOTE = ("Again your opponent's amoeba must split in half to avoid losing and it cannot eat the neutral piece "
                 "which is twice its size.")  # fmt: skip


NEUTRAL_LINE = ("A 1 a1 a1-b2 21,0", "B 3 c3 c3-c2 0,2", "A 1 b2 b2-c2 2,0", "B 3 c3 c3-c2 0,4")
"""From (20,0) v (0,1): A to the centre, B splits in half, A neutralises a half, B's other half (2) rolls 3 and
eats it with 4 units, keeping a piece of 1 behind."""


def neutral_twice_its_size(sizes: tuple[int, ...] = tuple(range(1, 9))) -> Verdict:
    """B's half of size k next to the neutral (k,k): it may eat it exactly when its roll r >= k (k + r >= 2k)."""
    rows = []
    for k in sizes:
        position = Position.parse(f"(0,{k}) ({k},{k}) . / . . . / . . (20,0) B")
        rolls = [r for r, _ in position.dice_outcomes() if any(
            turn.dst == "b1" for turn in legal_turns(position, r) if not turn.is_pass)]  # fmt: skip
        rows.append({"B's piece k": k, "neutral piece": f"({k},{k})", "rolls that let B eat it": tuple(rolls),
                     "P(B can eat it)": float(Fraction(len(rolls), 6)), "exact": str(Fraction(len(rolls), 6))})  # fmt: skip
    evidence = pd.DataFrame(rows)
    eats = evidence[evidence["P(B can eat it)"] > 0]["B's piece k"].tolist()
    never = evidence[evidence["P(B can eat it)"] == 0]["B's piece k"].tolist()
    always = evidence[evidence["P(B can eat it)"] == 1]["B's piece k"].tolist()
    start = opening_position(20, 1)
    record = annotated_record(start, NEUTRAL_LINE)
    summary = (f"exact: a piece of size k may eat the neutral (k,k) exactly when it rolls at least k: with probability "
               f"(7 - k)/6 for k <= 6 (always for k = {', '.join(map(str, always))}), never for k >= {min(never)}; so "
               f"'cannot' is false for pieces of {max(eats)} units or fewer; counter-line: A plays the paper's Case III, "
               "B splits in half and its half of 2 rolls 3 and eats the neutral (2,2) with 4 units, keeping a piece of 1")  # fmt: skip
    scope = (f"any board: B's piece of size k = {sizes[0]}..{sizes[-1]} next to a neutral (k,k), every roll and legal "
             "turn, exact; counter-line on 3x3 from A 20 on a1 v B 1 on c3 (Case III), A's turns the paper's")  # fmt: skip
    explanation = (
        "Eating needs a size at least the target's: k + r >= 2k, that is r >= k. So the sentence is right for pieces "
        f"of {min(never)} units or more, and false for smaller ones: a piece of 1 can always eat a neutral (1,1), a "
        "half of 4 that rolls 4, 5 or 6 may eat a neutral (4,4). In Case III B's pieces are often small (delta > 6 "
        "but B itself can be tiny). Eating the neutral piece gives B a piece of 3k + r units, of which it controls "
        "2k + r, so it owns it. The counter-line plays the paper's own sequence: A to the centre, B splits in half, "
        "A neutralises one half, and the other half eats the neutral piece twice its size."
    )
    plain = (f"False as stated: a piece of k units can eat the neutral piece (k,k) whenever it rolls at least k, so "
             f"pieces of {max(eats)} units or fewer sometimes can (a piece of 1 always can); from {min(never)} units "
             "on the sentence is true.")
    return Verdict("neutral-twice-its-size", "false as stated", summary, explanation, evidence, scope=scope,
                   plain=plain, counter_line=record, quote=NEUTRAL_QUOTE)  # fmt: skip
