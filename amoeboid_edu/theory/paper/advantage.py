"""The paper's *Advantage* section: the two claims, the symmetry theorem and the unboundedness conjecture."""

from __future__ import annotations

import math
import re

import pandas as pd

from .. import analysis
from ...engine.game import CAPPED
from ...players.registry import BOTS
from .lines import BOARDS
from .verdict import WORD_RULE, Verdict, judged

BOT_GAME_TURNS = 100  # bot games end in about 5 turns; the few that stall would cost minutes at 1000


CORE_BOTS = ("random", "greedy", "paper", "expectimax")
"""The bots whose games test the claims: the package's own (an optional extra's ``mcts`` would change the figures)."""


ONE_RULE = ("the same rule for both delta items (symmetry, unboundedness): " + WORD_RULE + "; both fail in cases "
            "their words cover (symmetry just after A's roll and at a game's end, unboundedness inside a game, which "
            "can end on turn 2) and hold in the case the paper's own text puts them to: symmetry after whole rounds, "
            "the only moments its example of delta counts ('after three turns A has rolled 1,2,3 and B has rolled "
            "4,5,6') and the only ones at which its proof's 'the players start and play with the same conditions' is "
            "true (the paper uses the theorem nowhere else); unboundedness for the dice sums as if play went on, what "
            "its 'computer modeling' of delta supports: confirmed with a correction, for both; both read delta after "
            "every turn of the game, inside the game, the moments their words cover ('in a given moment', 'before n "
            "turns'), and their corrections confine them: symmetry to after whole rounds of the dice as if play went "
            "on (inside a game, delta stops when the game ends, and its mean after a round is then 7/2 x P(the game "
            "ended on an A turn before it)), unboundedness to the dice as if play went on (its n counts turns of the game; counted in rounds, as the paper's example counts a "
            "turn, the limit is the same)")
"""How the symmetry theorem and the unboundedness conjecture read delta: the same reading for both words."""

REACH = "delta as the dice sums (exact); inside a game it fails: the correction (same rule for both delta items)"
"""The short scope of the two delta cards (the rule itself is in the full scope)."""

DELTA_MEANINGS = ("delta has two meanings in the paper: in 'Advantage' the difference of the dice sums (A's rolls "
                  "minus B's); in 'Opening strategies' (Cases I-IV) 'the difference of size of initial amoebae'")
"""The paper's two deltas, said on every card that uses one of them (students trip on it)."""
DELTA_DICE = f"{DELTA_MEANINGS}; this card uses the first"
DELTA_SIZE = f"{DELTA_MEANINGS}; this card uses the second (before any eat or split the two agree, up to A's last roll)"

def final_results(random_games: int = 20_000, bot_games: int = 100, seed: int | str = 0,
                  expectimax_games: int = 0, boards: tuple[int, ...] = (3,)) -> pd.DataFrame:  # fmt: skip
    """Final rows of seeded random games (on each of ``boards``) plus the bot pairings' games on 3x3.

    Every bot of the strategy lab plays the random player from both sides and
    itself, and the paper bot meets greedy from both sides: ``bot_games`` games
    per pairing, ``expectimax_games`` for pairings with the expectimax bot.
    A bot game still going after ``BOT_GAME_TURNS`` turns counts as unfinished.
    """
    frames = []
    for board in boards:
        frame = analysis.random_results(random_games if board == 3 else random_games // 10, seed=seed, board=board)
        frames.append(frame.assign(players=f"{frame['players'].iloc[0]} ({board}x{board})") if len(frame) else frame)
    bots = [name for name in CORE_BOTS if name != "random"]
    pairings = [(name, "random") for name in bots] + [("random", name) for name in bots]
    pairings += [(name, name) for name in bots] + [("paper", "greedy"), ("greedy", "paper")]
    for a, b in pairings:
        games = expectimax_games if "expectimax" in (a, b) else bot_games
        if games:
            frames.append(analysis.match_results(BOTS[a], BOTS[b], games, seed=seed, max_turns=BOT_GAME_TURNS))
    return pd.concat(frames, ignore_index=True)


def _advantage_claim(item: str, column: str, name: str, proof: str, quote: str, rows: pd.DataFrame,
                     holds_on: str = "every board and graph (the proof)") -> Verdict:  # fmt: skip
    evidence_rows = []
    for label, group in rows.groupby("players", sort=False):
        won_a, won_b = group[group["result"] == "A"], group[group["result"] == "B"]
        ties = group[group["result"] == "tie"]
        evidence_rows.append({
            "players": label, "games": len(group), "A wins": len(won_a), "B wins": len(won_b), "ties": len(ties),
            "unfinished": int((group["result"] == CAPPED).sum()),
            f"A wins with {column} <= 0": int((won_a[column] <= 0).sum()),
            f"B wins with {column} >= 0": int((won_b[column] >= 0).sum()),
            f"ties with {column} != 0": int((ties[column] != 0).sum()),
        })  # fmt: skip
    evidence = pd.DataFrame(evidence_rows)
    violations = int(evidence[f"A wins with {column} <= 0"].sum() + evidence[f"B wins with {column} >= 0"].sum())
    games = len(rows)
    winners = int(evidence["A wins"].sum() + evidence["B wins"].sum())
    # The word rests on the proof; a game breaking it would be a counterexample to the proof itself.
    verdict = judged(violations == 0, None, evidence_bears_it=violations == 0)  # the proof covers every case
    summary = f"a proof; {winners:,} of {games:,} seeded games had a winner, {violations} without {name} ({column})"
    boards = sorted(set(re.findall(r"\((\d+x\d+)\)", " ".join(evidence["players"])))) or ["3x3"]
    scope = (f"{holds_on}; illustrated on {games:,} seeded games: random players on "
             f"{', '.join(boards)}, the strategy lab's bots on 3x3")  # fmt: skip
    explanation = (
        f"Proof: {proof} The games are an illustration, not the argument: every winner had {column} in its favour, "
        f"and every tie had {column} = 0 ({int(evidence[f'ties with {column} != 0'].sum())} exceptions)."
    )
    plain = f"Right, and proved: whoever wins always has {name} ({column} in their favour) at the end."
    brief = f"whoever wins has {name} ({column} in their favour) at the end: a proof."
    return Verdict(item, verdict, summary, explanation, evidence, scope=scope, plain=plain, quote=quote, brief=brief,
                   reach=holds_on)  # fmt: skip


def advantage_1_claim(random_games: int = 20_000, bot_games: int = 100, seed: int | str = 0, *,
                      results: pd.DataFrame | None = None) -> Verdict:  # fmt: skip
    """A winner has delta > 0 (advantage 1): a proof, illustrated on seeded random and bot games (or given ``results``)."""
    proof = (
        "units are never created or destroyed except by rolls, so sigma_A + 1 and sigma_B + 1 are the A and B units "
        "on the board. When A wins B owns nothing, so every amoeba has a >= b, and A's own amoeba has a > b; summing, "
        "sigma_A > sigma_B."
    )
    quote = "Player A can only win if he has advantage 1 and player B can only win if he has advantage 1."
    rows = final_results(random_games, bot_games, seed, boards=BOARDS) if results is None else results
    return _advantage_claim("advantage-1-claim", "delta", "advantage 1", proof, quote, rows,
                            "every board and graph, from the standard start of one unit each (the proof)")


def advantage_2_claim(random_games: int = 20_000, bot_games: int = 100, seed: int | str = 0, *,
                      results: pd.DataFrame | None = None) -> Verdict:  # fmt: skip
    """A winner has Delta > 0 (advantage 2): a proof, illustrated on the same games as :func:`advantage_1_claim`."""
    proof = "when A wins B owns nothing, so Sigma_B = 0, and A owns an amoeba, so Sigma_A > 0."
    quote = "Player A can only win if he has advantage 2 and player B can only win if he has advantage 2."
    rows = final_results(random_games, bot_games, seed, boards=BOARDS) if results is None else results
    return _advantage_claim("advantage-2-claim", "Delta", "advantage 2", proof, quote, rows)


def symmetry_theorem(rounds: int = 10, games: int = 5_000, seed: int | str = 0) -> Verdict:
    """E[delta] = 0 after every turn in the paper's sense, a round (its own example: "after three turns A has rolled
    1,2,3 and B has rolled 4,5,6"): exact laws with Fractions.  Said too: after A's roll (mid-round) E[delta] = 7/2,
    and delta frozen at the end of a game has mean 7/2 x P(the game ends on A's turn) (``games`` seeded random games)."""
    laws = analysis.delta_law_frame(2 * rounds)
    ends = analysis.random_results(games, seed=seed)
    ended_on_a = float((ends["last_mover"] == "A").mean())
    after_b = laws[laws["after"] == "B"]
    after_a = laws[laws["after"] == "A"]
    holds_after_rounds = bool((after_b["mean"] == 0).all() and after_b["symmetric"].all())
    a_means = sorted(set(after_a["mean"]))
    # "always", with delta defined "in a given moment": mid-round moments are included, and there E[delta] = 7/2;
    # the theorem holds once "always" is corrected to "after every round" (the proof overlooks that A rolls first).
    verdict = judged(holds_after_rounds and a_means == [0], holds_after_rounds)
    shown = ", ".join(str(m) for m in a_means)
    summary = (f"a proof: after every round (a turn as the paper's own example counts it: 'after three turns A has "
               f"rolled 1,2,3 and B has rolled 4,5,6') delta, the dice sums (the paper's sigma), is a sum of k "
               f"independent differences A's roll - B's roll, each symmetric about 0, so its law is symmetric and "
               f"E[delta] = 0 (exact laws for rounds 0..{rounds} agree); correction: 'always' is too strong, as delta "
               f"is defined 'in a given moment' and the proof's 'same conditions' overlooks that A rolls first: in "
               f"the middle of a round (after A's roll) E[delta] = {shown}; also a moment its words cover: "
               f"delta at the end of a game has E = 7/2 x P(the game ends on A's turn) ({games:,} seeded random games: mean "
               f"{ends['delta'].mean():.2f} against 7/2 x {ended_on_a:.3f} = {3.5 * ended_on_a:.2f})")  # fmt: skip
    scope = (f"the proof: every round (any board: delta counts only the dice); delta read as the paper defines it, "
             f"the dice sums as if play went on (inside a game delta stops when the game ends: the end-of-game "
             f"figure); exact laws of delta after turns 0..{2 * rounds} of the game, i.e. rounds 0..{rounds}; 'turn' read as the paper's example uses it (a round); end-of-game figure: "
             f"{games:,} seeded random games on 3x3, random players, cut at 1,000 turns (an illustration of the exact "
             "identity)")  # fmt: skip
    explanation = (
        "delta counts only rolls and every turn of the game has exactly one roll whatever anyone chooses, so its law "
        f"after n turns of the game is an exact convolution of the die (computed with Fractions for n = 0..{2 * rounds}). "
        "The paper's own example uses 'turn' for a round ('If after three turns A has rolled 1,2,3 and B has rolled "
        "4,5,6'), and sigma for the sum of a player's rolls; after every round both have rolled equally often, the "
        "law of delta is symmetric and its mean is exactly 0, as the theorem says. The correction: the theorem says "
        "'always', and delta is defined 'in a given moment'; in the middle of a round A has rolled once more than B "
        f"(the proof's 'the players start and play with the same conditions' overlooks that A rolls first), so there "
        f"E[delta] = {shown} (the mean of one die) and P(delta > 0) > 1/2. And another moment its words cover, where it "
        "fails too: the delta of a finished game is not mean 0 either: a game stops when it is won, so by optional stopping "
        "E[final delta] = 7/2 x P(the game ended on A's turn), which is 0 only if no game ends on A's turn; in "
        f"{games:,} seeded random games the mean final delta is {ends['delta'].mean():.2f} against "
        f"7/2 x {ended_on_a:.3f} = {3.5 * ended_on_a:.2f}."
    )
    evidence = laws.assign(mean=laws["mean"].astype(float), variance=laws["variance"].astype(float),
                           **{"P(delta>0)": laws["P(delta>0)"].astype(float)})  # fmt: skip
    plain = ("Right once 'always' is corrected to 'after every round, for the dice as if play went on': after A and B "
             "have each rolled the same number of times, delta is 0 on average. But just after A's roll A is on "
             "average 3.5 ahead (A rolls first), and inside a game, where delta stops when the game ends (which it "
             "may do on A's turn), the average is not 0 either.")  # fmt: skip
    quote = "The expected value of delta is always 0."
    brief = (f"on average delta is 0 after every round, as if play went on; not 'always': after A's roll {shown}, or "
             "in a game.")
    return Verdict("symmetry-theorem", verdict, summary, explanation, evidence,
                   scope=f"{ONE_RULE}; {DELTA_DICE}; {scope}",
                   plain=plain, quote=quote, brief=brief, reach=REACH)  # fmt: skip


def game_lengths(games: int = 2_000, seed: int | str = 0, boards: tuple[int, ...] = BOARDS, cap: int = 1000) -> pd.DataFrame:
    """How many turns half and 90% of seeded random games per board (and of bot games on 3x3) end within.

    Games still going after ``cap`` turns never ended: when too few ended, the figure is ``"> cap"``.
    """
    from ...players.registry import BOTS

    def row(label: str, frame: pd.DataFrame) -> dict[str, object]:
        unfinished = int((frame["result"] == CAPPED).sum())

        ended = sorted(int(t) for t in frame.loc[frame["result"] != CAPPED, "turns"])

        def within(q: float) -> str:
            """The fewest turns within which a share q of the games ended (unfinished ones never did)."""
            need = math.ceil(q * len(frame))
            return f"> {cap}" if len(ended) < need else str(ended[need - 1])

        return {"games": label, "played": len(frame), "half end within": within(0.5), "90% end within": within(0.9),
                f"unfinished ({cap} turns)": unfinished}  # fmt: skip

    rows = [row(f"random v random, {board}x{board}", analysis.random_results(games, seed=seed, board=board))
            for board in boards]  # fmt: skip
    frame = analysis.match_results(BOTS["paper"], BOTS["greedy"], max(20, games // 50), seed=seed, max_turns=cap)
    rows.append(row("paper v greedy, 3x3", frame))
    return pd.DataFrame(rows)


def unboundedness_conjecture(
    levels: tuple[int, ...] = (10, 20, 50), target: float = 0.9, walks: int = 20_000, mc_turns: int = 400,
    seed: int | str = 0, length_games: int = 2_000,
) -> Verdict:  # fmt: skip
    """P_M(n) -> 1 for the dice sums (a theorem): "confirmed", read as the paper defines delta (its sigma, the rolls).

    The word rests on the recurrence theorem.  Said beside it, as the symmetry item says it too: inside a game delta
    stops when the game ends (one can end on turn 2, with delta at most 6); the DP curves, the Monte Carlo check and
    the game lengths add numbers.
    """
    reached = {}
    rows = []
    for level in levels:
        horizon = int(25 * level * level + 200)  # P_M(n) reaches 0.9 near 22 M^2 turns: compute a little beyond
        curve = analysis.exceedance_curve(level, horizon)
        reached[level] = {p: analysis.turns_to_reach(list(curve), p) for p in (0.5, target)}
        rows.append({"M": level, "turns to P_M >= 1/2": reached[level][0.5],
                     f"turns to P_M >= {target}": reached[level][target], "turns computed": horizon,
                     "P_M at the last turn": float(curve[-1])})  # fmt: skip
    evidence = pd.DataFrame(rows)
    check_level = min(levels)
    exact = analysis.exceedance_curve(check_level, mc_turns)[1:]
    sampled = analysis.exceedance_monte_carlo([check_level], mc_turns, walks, seed=seed)["probability"].to_numpy()
    gap, band = float(abs(sampled - exact).max()), analysis.dkw_band(walks)
    lengths = game_lengths(length_games, seed)
    ends_early, game_ends_on_turn_two = _ends_on_turn_two()
    need = reached[check_level][target]
    steps = ", ".join(f"M={level}: {reached[level][target]:,}" for level in levels)
    medians = ", ".join(f"{row['games']} {row['half end within']}" for _, row in lengths.iterrows())
    median_3 = lengths.loc[0, "half end within"]
    summary = (f"a theorem for delta as the paper defines it, the dice sums as if play went on (P_M(n) >= {target} "
               f"once n reaches {steps} turns); correction: for the dice sums only, as the paper models them (its words cover delta inside a "
               f"game too, where delta stops when the game ends and a game can end on turn 2, {ends_early}, so there "
               f"P_M(n) < 1 for M >= 6); half of the games end within: {medians} turns")  # fmt: skip
    scope = (f"delta read as the paper defines it, the dice sums alone, as if play went on (any board); 'bigger than "
             f"M before n turns' read as at some turn among the first n (the running maximum; delta at turn n itself "
             f"passes M with a chance that tends to 1/2), n counting turns of the game, one roll each, delta read after "
             f"every one (the paper's example counts a round as a turn: read so, the limit is the same, the figures "
             f"differ); exact DP for M = {', '.join(map(str, levels))}; game lengths from "
             f"{length_games:,} seeded random games per board ({', '.join(f'{n}x{n}' for n in BOARDS)}, cut at 1,000 "
             "turns) and bot games on 3x3")  # fmt: skip
    explanation = (
        "delta after each turn is a random walk whose round increments (A's roll minus B's) have mean 0 and variance "
        "35/6. By the Chung-Fuchs theorem a mean-zero random walk on the integers with finite variance is recurrent, "
        "and its limsup is +infinity almost surely, so it passes every level M with probability 1: "
        "lim P_M(n) = 1 for every M, as the paper conjectured (its 'computer modeling' was right). The curves are "
        "exact dynamic programming (float64, cross-checked against Fractions in the tests) and approach 1 slowly: "
        f"M = {check_level} needs {need:,} turns for {target}. Monte Carlo with {walks:,} seeded walks stays within "
        f"{gap:.4f} of the exact curve (simultaneous 95% band {band:.4f}). The correction: this holds for the dice "
        "'as if play went on', the case the paper applies it to (its modelling); its words cover delta inside a game too. Inside a game delta stops when the game ends, and a game can end on turn 2 (A steps "
        "next to B, B rolls higher and eats it), when delta has never been above 6; so for delta inside a game, with "
        "players who can end it that early, P_M(n) stays below 1 for every M >= 6. Real games are short: half of "
        f"the games between random players on 3x3 end within {median_3} turns (every board tried; the larger the "
        "board, the longer)."
    )
    plain = (f"Right once corrected to the dice alone, and then even a theorem: if the players kept rolling forever, the dice difference would "
             f"pass any level. But a real game stops (on 3x3 half of them within {median_3} turns), long "
             f"before the {need:,} turns the difference needs to pass {check_level} with 90% chance, so inside a game "
             "it may never get there.")  # fmt: skip
    quote = "Let P_M(n) be the probability of delta being bigger than M, before n turns. Then lim P_M(n) = 1 for any integer M."
    evidence = pd.concat([evidence, lengths], ignore_index=True)
    brief = (f"for the dice alone, as if play went on; a real game stops first (on 3x3 half end within {median_3} "
             "turns).")
    # the words cover delta inside a game too, where a game ending on turn 2 keeps P_M(n) < 1 for M >= 6; the paper
    # applies the conjecture to the dice sums (its modelling), where the theorem and the exact curves hold
    dice_hold = all(reached[level][target] is not None for level in levels)
    verdict = judged(dice_hold and not game_ends_on_turn_two, dice_hold)
    return Verdict("unboundedness-conjecture", verdict, summary, explanation, evidence,
                   scope=f"{ONE_RULE}; {DELTA_DICE}; {scope}", plain=plain, quote=quote, brief=brief,
                   reach=REACH)  # fmt: skip


def _ends_on_turn_two() -> tuple[str, bool]:
    """A game replayed through the rules (a witness that games end early): its record, and whether it ended on
    turn 2 (B winning with delta never above 6)."""
    from ...engine.game import Game

    game = Game.parse("start (1,0) . . / . . . / . . (0,1) A\n3 a1 a1-b2\n4 c3 c3-b2")
    ended = game.result == "B" and len(game) == 2
    return "3 a1 a1-b2 then 4 c3 c3-b2: B wins with delta = -1", ended
