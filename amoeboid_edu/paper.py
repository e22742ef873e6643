"""The paper's statements, each checked by computation on the real rules at call time.

One function per statement; each returns a :class:`Verdict` — the item's name,
one of :data:`VERDICTS`, a one-line summary, a one-paragraph explanation and the
evidence as a pandas frame — so a lesson shows it in two lines::

    from amoeboid_edu import paper
    paper.symmetry_theorem()          # renders as a card in a notebook

Nothing is stored: every number is computed from :mod:`amoeboid_edu.rules` when
the function runs.  ``amoeboid paper`` prints one line per item; the sizes used
there (``SIZES["quick"]``) are smaller than the lessons' (``SIZES["full"]``).
"""

from __future__ import annotations

import html
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Callable

import pandas as pd

from . import analysis
from .examples import PAPER_EXAMPLE_MATRICES, PAPER_EXAMPLE_RECORD, PAPER_EXAMPLE_WINNER
from .game import Game, random_playout, seeded_rng
from .rules import Amoeba, Position, Turn, apply, legal_move_pairs, legal_turns, resolve
from .strategy import as_function, candidate_turns

VERDICTS = ("confirmed", "refuted", "confirmed with a correction", "verified up to a bound")


@dataclass(frozen=True, eq=False)
class Verdict:
    """What the computation says about one statement of the paper."""

    item: str
    verdict: str
    summary: str
    explanation: str
    evidence: pd.DataFrame = field(repr=False)

    def __post_init__(self) -> None:
        if self.verdict not in VERDICTS:
            raise ValueError(f"verdict must be one of {VERDICTS}, not {self.verdict!r}")

    @property
    def line(self) -> str:
        """``ITEM: VERDICT — summary``: what ``amoeboid paper`` prints."""
        return f"{self.item}: {self.verdict} — {self.summary}"

    def __str__(self) -> str:
        return self.line

    def _repr_markdown_(self) -> str:
        return f"**{self.item}: {self.verdict}** — {self.summary}\n\n{self.explanation}\n"

    def _repr_html_(self) -> str:
        return (
            f"<div><p><b>{html.escape(self.item)}: {html.escape(self.verdict)}</b> — {html.escape(self.summary)}</p>"
            f"<p>{html.escape(self.explanation)}</p>{self.evidence.to_html(index=False, max_rows=20)}</div>"
        )


# --------------------------------------------------------------------------- 1. the Advantage claims


BOT_GAME_TURNS = 100  # bot games end in about 5 turns; the few that stall would cost minutes at 1000


def final_results(random_games: int = 20_000, bot_games: int = 100, seed: int | str = 0,
                  expectimax_games: int = 0) -> pd.DataFrame:  # fmt: skip
    """Final rows of seeded random games plus the bot pairings' games (shared by both Advantage claims).

    Every bot of the strategy lab plays the random player from both sides and
    itself, and the paper bot meets greedy from both sides: ``bot_games`` games
    per pairing, ``expectimax_games`` for pairings with the expectimax bot (about
    0.1 s a turn; none by default).  A bot game still going after
    ``BOT_GAME_TURNS`` turns counts as unfinished.
    """
    from .bots import BOTS

    frames = [analysis.random_results(random_games, seed=seed)]
    pairings = [(name, "random") for name in BOTS if name != "random"]
    pairings += [("random", name) for name in BOTS if name != "random"]
    pairings += [(name, name) for name in BOTS if name != "random"] + [("paper", "greedy"), ("greedy", "paper")]
    for a, b in pairings:
        games = expectimax_games if "expectimax" in (a, b) else bot_games
        if games:
            frames.append(analysis.match_results(BOTS[a], BOTS[b], games, seed=seed, max_turns=BOT_GAME_TURNS))
    return pd.concat(frames, ignore_index=True)


def _advantage_claim(item: str, column: str, name: str, proof: str, rows: pd.DataFrame) -> Verdict:
    evidence_rows = []
    for label, group in rows.groupby("players", sort=False):
        won_a, won_b = group[group["result"] == "A"], group[group["result"] == "B"]
        ties = group[group["result"] == "tie"]
        evidence_rows.append({
            "players": label, "games": len(group), "A wins": len(won_a), "B wins": len(won_b), "ties": len(ties),
            "unfinished": int((group["result"] == "ongoing").sum()),
            f"A wins with {column} <= 0": int((won_a[column] <= 0).sum()),
            f"B wins with {column} >= 0": int((won_b[column] >= 0).sum()),
            f"smallest {column} of an A win": won_a[column].min() if len(won_a) else None,
            f"ties with {column} != 0": int((ties[column] != 0).sum()),
        })  # fmt: skip
    evidence = pd.DataFrame(evidence_rows)
    violations = int(evidence[f"A wins with {column} <= 0"].sum() + evidence[f"B wins with {column} >= 0"].sum())
    games = len(rows)
    winners = int(evidence["A wins"].sum() + evidence["B wins"].sum())
    verdict = "confirmed" if violations == 0 else "refuted"
    summary = f"{winners:,} of {games:,} seeded games had a winner; {violations} without {name} ({column})"
    explanation = (
        f"Claim: a player can only win with {name}. Checked on the final position of {games:,} seeded games "
        f"({', '.join(evidence['players'])}): every winner had {column} in its favour, and every tie had "
        f"{column} = 0 ({int(evidence[f'ties with {column} != 0'].sum())} exceptions). Proof: {proof}"
    )
    return Verdict(item, verdict, summary, explanation, evidence)


def advantage_1_claim(random_games: int = 20_000, bot_games: int = 100, seed: int | str = 0, *,
                      results: pd.DataFrame | None = None) -> Verdict:  # fmt: skip
    """A winner has delta > 0 (advantage 1), checked over seeded random and bot games (or given ``results``)."""
    proof = (
        "units are never created or destroyed except by rolls, so sigma_A + 1 and sigma_B + 1 are the A and B units "
        "on the board. When A wins B owns nothing, so every amoeba has a >= b, and A's own amoeba has a > b; summing, "
        "sigma_A > sigma_B."
    )
    rows = final_results(random_games, bot_games, seed) if results is None else results
    return _advantage_claim("advantage-1-claim", "delta", "advantage 1", proof, rows)


def advantage_2_claim(random_games: int = 20_000, bot_games: int = 100, seed: int | str = 0, *,
                      results: pd.DataFrame | None = None) -> Verdict:  # fmt: skip
    """A winner has Delta > 0 (advantage 2), checked over the same games as :func:`advantage_1_claim`."""
    proof = "when A wins B owns nothing, so Sigma_B = 0, and A owns an amoeba, so Sigma_A > 0."
    rows = final_results(random_games, bot_games, seed) if results is None else results
    return _advantage_claim("advantage-2-claim", "Delta", "advantage 2", proof, rows)


# --------------------------------------------------------------------------- 2. symmetry of difference


def symmetry_theorem(rounds: int = 10, games: int = 5_000, seed: int | str = 0) -> Verdict:
    """E[delta] = 0 holds after full rounds only: after A's roll it is 7/2 (exact laws with Fractions).

    ``games`` seeded random games illustrate the same bias at the end of a game.
    """
    laws = analysis.delta_law_frame(2 * rounds)
    ends = analysis.random_results(games, seed=seed)
    ended_on_a = float((ends["last_mover"] == "A").mean())
    after_b = laws[laws["after"] == "B"]
    after_a = laws[laws["after"] == "A"]
    holds_after_rounds = bool((after_b["mean"] == 0).all() and after_b["symmetric"].all())
    a_means = sorted(set(after_a["mean"]))
    correction = bool((after_a["mean"] != 0).any())
    verdict = "confirmed with a correction" if holds_after_rounds and correction else (
        "confirmed" if holds_after_rounds else "refuted")  # fmt: skip
    shown = ", ".join(str(m) for m in a_means)
    summary = (
        f"E[delta] = 0 and P(delta=k) = P(delta=-k) after each of rounds 1..{rounds}; "
        f"after A's roll E[delta] = {shown}, not 0"
    )
    explanation = (
        "delta counts only rolls and every turn has exactly one roll whatever anyone chooses, so its law after n turns "
        f"is an exact convolution of the die (computed with Fractions for n = 0..{2 * rounds}). At the end of every "
        "full round (after B's turn) the law is symmetric and the mean is 0, as the theorem says. The proof's symmetry "
        "argument ignores who rolls first: in the middle of a round A has rolled once more than B, so "
        f"E[delta] = {shown} (the mean of one die) and P(delta > 0) > 1/2. So the statement holds at the end of full "
        "rounds, not 'always'. The same holds at the end of a game (a stopping time): by optional stopping "
        "E[final delta] = 7/2 x P(the game ended on A's turn); in "
        f"{games:,} seeded random games the mean final delta is {ends['delta'].mean():.2f} against "
        f"7/2 x {ended_on_a:.3f} = {3.5 * ended_on_a:.2f}."
    )
    evidence = laws.assign(mean=laws["mean"].astype(str), variance=laws["variance"].astype(str),
                           **{"P(delta>0)": laws["P(delta>0)"].astype(str)})  # fmt: skip
    return Verdict("symmetry-theorem", verdict, summary, explanation, evidence)


# --------------------------------------------------------------------------- 3. unboundedness of difference


def unboundedness_conjecture(
    levels: tuple[int, ...] = (10, 20, 50), target: float = 0.9, walks: int = 20_000, mc_turns: int = 400,
    seed: int | str = 0,
) -> Verdict:  # fmt: skip
    """P_M(n) -> 1: exact DP curves, a Monte Carlo check, and the recurrence theorem that proves it."""
    reached = {}
    rows = []
    for level in levels:
        # P_M(n) ~ 2(1 - Phi(M / sqrt(35 n / 12))) reaches 0.9 near 22 M^2 turns: compute a little beyond
        horizon = int(25 * level * level + 200)
        curve = analysis.exceedance_curve(level, horizon)
        reached[level] = {p: analysis.turns_to_reach(curve, p) for p in (0.5, target)}
        rows.append({"M": level, "turns to P_M >= 1/2": reached[level][0.5],
                     f"turns to P_M >= {target}": reached[level][target], "turns computed": horizon,
                     "P_M at the last turn": float(curve[-1])})  # fmt: skip
    evidence = pd.DataFrame(rows)
    check_level = min(levels)
    exact = analysis.exceedance_curve(check_level, mc_turns)[1:]
    sampled = analysis.exceedance_monte_carlo([check_level], mc_turns, walks, seed=seed)["probability"].to_numpy()
    gap, band = float(abs(sampled - exact).max()), analysis.dkw_band(walks)
    all_reached = all(reached[level][target] is not None for level in levels)
    verdict = "confirmed" if all_reached and gap <= band else "verified up to a bound"
    steps = ", ".join(f"M={level}: {reached[level][target]:,}" for level in levels)
    ratio = max(reached[level][target] / level**2 for level in levels if reached[level][target])
    summary = f"a theorem (mean-zero walks are recurrent); P_M(n) >= {target} once n reaches {steps} turns"
    explanation = (
        "delta after each turn is a random walk whose round increments (A's roll minus B's) have mean 0 and variance "
        "35/6. By the Chung-Fuchs theorem a mean-zero random walk on the integers with finite variance is recurrent, "
        "and its limsup is +infinity almost surely, so it passes every level M with probability 1: "
        "lim P_M(n) = 1 for every M. The conjecture is a theorem. The curves are computed exactly by dynamic "
        "programming over the walk (walks that pass M are absorbed; float64, cross-checked against Fractions in the "
        f"tests) and approach 1 slowly, like 2(1 - Phi(M/sqrt(35n/12))): reaching {target} takes up to {ratio:.1f} M^2 "
        f"turns. Monte Carlo with {walks:,} seeded walks stays within {gap:.4f} of the exact curve for M={check_level} "
        f"over turns 1..{mc_turns} (simultaneous 95% band: {band:.4f}). Here P_M(n) is the probability that "
        "delta > M after some turn among the first n."
    )
    return Verdict("unboundedness-conjecture", verdict, summary, explanation, evidence)


# --------------------------------------------------------------------------- 8. the example game

# The paper's example game as the lessons name it (the data lives in :mod:`amoeboid_edu.examples`).
EXAMPLE_GAME = PAPER_EXAMPLE_RECORD
EXAMPLE_MATRICES = PAPER_EXAMPLE_MATRICES


def example_game() -> Game:
    """The paper's example game, replayed through the rules (every turn checked)."""
    return Game.parse(PAPER_EXAMPLE_RECORD)


def example_game_check() -> Verdict:
    """Replay the paper's example game and match each of its matrices; evidence for :func:`analysis.delta_chart`."""
    game = example_game()
    rows = []
    for turns, text in PAPER_EXAMPLE_MATRICES:
        replayed = game.positions[turns]
        printed = Position.parse(f"{text} {replayed.to_move}")  # the paper's matrices do not say whose turn it is
        rows.append({"after turn": turns, "paper": str(printed), "replayed": str(replayed),
                     "matches": printed == replayed})  # fmt: skip
    evidence = pd.DataFrame(rows)
    matched = int(evidence["matches"].sum())
    verdict = "confirmed" if matched == len(rows) and game.result == PAPER_EXAMPLE_WINNER else "refuted"
    summary = (
        f"{len(game)} legal turns, {matched}/{len(rows)} matrices match, result {game.result} (paper: player 1 wins)"
    )
    explanation = (
        f"The game's prose was written as {len(game)} turns in notation and replayed through the rules, each turn "
        "checked for legality (king adjacency: move 16 eats diagonally from a3). The counts moved are not in the "
        "prose; the ones written are those that reproduce the paper's next matrix (for example player 1's first "
        "'neutralisation' moves 8 of A's units and 1 of B's, not the smallest neutralising split 7,0). Every matrix "
        "printed in the paper equals the replayed position, and the final turn leaves B owning nothing: A wins, as "
        "the paper says. analysis.delta_chart(analysis.game_frame(paper.example_game())) draws delta and Delta."
    )
    return Verdict("example-game", verdict, summary, explanation, evidence)


# --------------------------------------------------------------------------- the opening cases: shared tools


def opening_position(a_size: int, b_size: int, a_cell: str = "a1", b_cell: str = "c3", to_move: str = "A") -> Position:
    """A 3x3 position with one pure amoeba each (the paper's opening cases); A's units on ``a_cell``."""
    start = Position.start(3)
    cells = [None] * len(start.board)
    cells[start.board.index[a_cell]] = Amoeba(a_size, 0)
    cells[start.board.index[b_cell]] = Amoeba(0, b_size)
    return Position(start.board, tuple(cells), to_move, start.rules)


def _replies(position: Position, roll: int) -> list[Position]:
    """Every position the mover can reach with ``roll`` (all legal turns, no pruning)."""
    return [apply(position, turn) for turn in legal_turns(position, roll)]


def _best_share_eaten(position: Position) -> Fraction:
    """The largest share of B's units that A's next turn can eat, for A's worst roll (A to move)."""
    b_units = sum(cell.b for cell in position.cells if cell is not None)
    worst = None
    for roll, _ in position.dice_outcomes():
        best = 0
        for grow in position.owned("A"):
            for _, dst in legal_move_pairs(position, roll, grow):
                target = position[dst]
                if target is not None:
                    best = max(best, target.b)
        worst = best if worst is None else min(worst, best)
    return Fraction(worst, b_units)


# --------------------------------------------------------------------------- 5. Case II

# The paper's numbers for Case II, to compare with (that is the point of this item).
CASE_II_PAPER = {
    4: "P(A not winning) >= 1/2 (B wins or, rolling 4, ties)",
    5: "P(A not winning) >= 1/3 (B ties); rolls 1-4: A eats at least half of B",
    6: "A never loses; B ties only with a 6; otherwise (5/6) A takes at least half of B's size",
}
_CASE_II_BOUND = {4: Fraction(1, 2), 5: Fraction(1, 3), 6: Fraction(1, 6)}


def case_II_table(deltas: tuple[int, ...] = (4, 5, 6), bases: tuple[int, ...] = (1, 10, 40)) -> pd.DataFrame:
    """A (base+delta) moves from a1 to the centre, B (base) is on c3: every B roll, every legal B reply.

    One row per (delta, base, B's roll): can B win or tie at once, and the share of
    B's units A is sure to eat next turn when B does neither (worst B reply, worst A roll).
    """
    rows = []
    for delta in deltas:
        for base in bases:
            before = opening_position(base + delta - 1, base)
            centre = apply(before, "1 a1 a1-b2")  # A's roll of 1 brings A to base + delta
            for roll, _ in centre.dice_outcomes():
                replies = _replies(centre, roll)
                results = [reply.result for reply in replies]
                playing_on = [reply for reply in replies if not reply.is_over]
                share = min((_best_share_eaten(reply) for reply in playing_on), default=None)
                rows.append({"delta": delta, "base": base, "B roll": roll, "B replies": len(replies),
                             "B can win": "B" in results, "B can tie": "tie" in results,
                             "A sure to eat (share of B)": share})  # fmt: skip
    return pd.DataFrame(rows)


def case_II(bases: tuple[int, ...] = (1, 10, 40)) -> Verdict:
    """Case II (delta = 4, 5, 6): the paper's probabilities, recomputed by exhaustive search on 3x3."""
    table = case_II_table((4, 5, 6), bases)
    rows, agree = [], True
    for (delta, base), group in table.groupby(["delta", "base"]):
        win = Fraction(int(group["B can win"].sum()), 6)
        tie_only = Fraction(int((group["B can tie"] & ~group["B can win"]).sum()), 6)
        tie_rolls = tuple(group.loc[group["B can tie"], "B roll"])
        rest = group[~group["B can win"] & ~group["B can tie"]]
        share = min(rest["A sure to eat (share of B)"], default=None)
        rows.append({"delta": delta, "base": base, "P(B can win)": str(win), "P(B can tie, not win)": str(tie_only),
                     "P(A not winning)": str(win + tie_only), "B ties with": tie_rolls,
                     "otherwise A eats at least": str(share), "paper": CASE_II_PAPER[delta]})  # fmt: skip
        agree &= win + tie_only >= _CASE_II_BOUND[delta] and (share is None or share >= Fraction(1, 2))
        if delta == 6:
            agree &= win == 0 and tie_rolls == (6,)
    evidence = pd.DataFrame(rows)
    by_delta = evidence.drop_duplicates("delta").set_index("delta")["P(A not winning)"]
    summary = (
        "P(A not winning at once) = " + ", ".join(f"{by_delta[d]} for delta={d}" for d in (4, 5, 6))
        + "; otherwise A eats at least half of B" + ("" if agree else " — differs from the paper")
    )
    explanation = (
        "Set-up: A's amoeba on a1 grows to base + delta and moves to the centre b2; B's amoeba of size base is on c3. "
        "For every B roll every legal B reply was applied (no pruning), and for each reply that does not end the "
        "game every A roll and every legal A eat next turn. 'Not winning' is read as 'B can end the game at once "
        "in a win or, by eating A with an equal amoeba, a tie' (the paper: 'B will choose to tie'). "
        + (
            f"The results do not depend on the base size (bases {', '.join(map(str, bases))} checked): B wins when it "
            "rolls more than delta, ties when it rolls exactly delta, and otherwise must move (moves are compulsory) "
            "and can only split into two pieces, every cell next to the centre, so A eats the larger piece: at least "
            "half of B's units. The paper's 'at least' bounds are exact: 1/2 for delta=4, 1/3 for delta=5, and for "
            "delta=6 B never wins and ties only with a 6."
            if agree and evidence.groupby("delta")["P(A not winning)"].nunique().eq(1).all()
            else "The computed numbers differ from the paper's somewhere: see the evidence, one row per set-up."
        )
    )
    return Verdict("case-II", "confirmed" if agree else "refuted", summary, explanation, evidence)


# --------------------------------------------------------------------------- 4. Case I

CASE_I_OPTIONS = {  # the paper's three options from the opening, as A's move after rolling r
    "stall": lambda r: f"{r} a1 a1-b1",  # to a cell not adjacent to B (the paper's choice)
    "adjacent": lambda r: f"{r} a1 a1-b2",  # to the centre, next to B
    "split": lambda r: f"{r} a1 a1-b1 {(1 + r) // 2},0",  # half of A's amoeba to b1, the rest stays on a1
}


def case_I_table(rolls: tuple[int, ...] = (1, 2, 3), games: int = 500,
                 continuations: tuple[str, ...] = ("random", "greedy"), seed: int | str = 0) -> pd.DataFrame:  # fmt: skip
    """The three opening options for each A roll r (delta = r < 3.5), by exact lookahead and by simulation.

    Exact, over B's next roll and every legal B reply: the chance B can win or tie
    at once, and A's Delta after B's reply that minimises it, averaged over B's
    roll.  Simulated, for each name in ``continuations`` (bots of the strategy
    lab; ``"random"`` uses the fast random playouts): A's score (win 1, tie 1/2)
    over ``games`` seeded games from the position after A's option, both sides
    then playing that bot; game i uses the same dice for every option.
    """
    from .bots import BOTS

    start = Position.start(3)
    rows = []
    for r in rolls:
        for option, turn_for in CASE_I_OPTIONS.items():
            turn = turn_for(r)
            after = apply(start, turn)
            b_wins = b_ties = Fraction(0)
            worst_delta = Fraction(0)
            for roll, p in after.dice_outcomes():
                replies = _replies(after, roll)
                results = {reply.result for reply in replies}
                b_wins += p * ("B" in results)
                b_ties += p * ("tie" in results and "B" not in results)
                worst_delta += p * min(reply.Delta for reply in replies)
            for continuation in continuations:
                if continuation == "random":  # the same player as BOTS["random"], on the fast playout path
                    results = [random_playout(after, seeded_rng(seed, "case-I", r, i)).result for i in range(games)]
                else:
                    bot = BOTS[continuation]
                    results = [analysis.play_game(bot, bot, seed=f"{seed}:case-I:{r}", index=i, start=after).result
                               for i in range(games)]  # fmt: skip
                score = sum((result == "A") + 0.5 * (result == "tie") for result in results) / games
                low, high = analysis.wilson_interval(round(score * games), games)
                rows.append({"A roll": r, "option": option, "turn": turn, "P(B can win next)": str(b_wins),
                             "P(B can only tie next)": str(b_ties), "E[Delta] after B's best reply": float(worst_delta),
                             "continuation": continuation, "A score (sim)": score, "low": low, "high": high,
                             "games": games})  # fmt: skip
    return pd.DataFrame(rows)


def case_I(rolls: tuple[int, ...] = (1, 2, 3), games: int = 500,
           continuations: tuple[str, ...] = ("random", "greedy"), seed: int | str = 0) -> Verdict:  # fmt: skip
    """Case I (delta < 3.5): stall, move next to B, or split — which do the numbers favour?

    The paper claims stalling is optimal: refuted if, for some continuation,
    another option scores clearly better (95% intervals apart); confirmed if
    stalling is clearly best for every continuation; otherwise confirmed with a correction.
    """
    table = case_I_table(rolls, games, continuations, seed)
    pooled = []
    for (continuation, option), group in table.groupby(["continuation", "option"], sort=False):
        n = int(group["games"].sum())
        score = float((group["A score (sim)"] * group["games"]).sum() / n)
        low, high = analysis.wilson_interval(round(score * n), n)
        pooled.append({"continuation": continuation, "option": option, "score": score, "low": low, "high": high,
                       "lookahead Delta": float(group["E[Delta] after B's best reply"].mean()),
                       "P(B wins next)": float(sum(Fraction(x) for x in group["P(B can win next)"]) / len(group))})
    pooled = pd.DataFrame(pooled)
    findings, any_better, all_beaten = [], False, True
    for continuation, group in pooled.groupby("continuation", sort=False):
        group = group.set_index("option")
        stall, others = group.loc["stall"], group.drop(index="stall")
        better = others[others["low"] > stall["high"]].index.tolist()
        level = [o for o in others.index if o not in better and others.loc[o, "high"] >= stall["low"]]
        any_better |= bool(better)
        all_beaten &= not better and not level
        scores = ", ".join(f"{option} {row.score:.3f}" for option, row in group.iterrows())
        findings.append(f"{continuation} afterwards: {scores}"
                        + (f" ({', '.join(better)} clearly better than stalling)" if better else "")
                        + (f" ({', '.join(level)} not separated from stalling)" if level else ""))  # fmt: skip
    verdict = "refuted" if any_better else ("confirmed" if all_beaten else "confirmed with a correction")
    lookahead = pooled.drop_duplicates("option").set_index("option")
    summary = "A's score per option — " + "; ".join(findings)
    explanation = (
        f"From the opening on 3x3, for A rolls {', '.join(map(str, rolls))} (delta = roll < 3.5) A either stalls "
        "(a1-b1, not adjacent to B), moves next to B (a1-b2) or splits (half to b1). Exact one-turn lookahead over "
        "B's roll and every legal B reply: B can win at once with probability "
        + ", ".join(f"{option} {row['P(B wins next)']:.2f}" for option, row in lookahead.iterrows())
        + " on average, and A's expected Delta after the B reply that minimises it is "
        + ", ".join(f"{option} {row['lookahead Delta']:+.2f}" for option, row in lookahead.iterrows())
        + f". Simulation: {games:,} seeded games per roll, option and continuation, both sides playing the named "
        "bot afterwards, the same dice for every option. " + "; ".join(findings) + ". "
        + ("The paper claims stalling is optimal; a continuation in which another option does clearly better "
           "refutes that against that opponent (the paper rules splitting out because one of the pieces is then "
           "smaller than B's amoeba). " if any_better else "")
        + "The simulated answer depends on how both sides play afterwards; the lookahead does not."
    )
    return Verdict("case-I", verdict, summary, explanation, table)


# --------------------------------------------------------------------------- Cases III and IV: searching a line


class SearchBudgetExceeded(RuntimeError):
    """The search visited more nodes than it was allowed to: the answer is unknown, not negative."""


def _grid_symmetries(board) -> list[tuple[int, ...]]:
    """The 8 symmetries of a square grid as index permutations (king and rook moves are invariant)."""
    if board.rows != board.cols:
        return [tuple(range(len(board)))]
    n = board.rows
    maps = [lambda r, c: (r, c), lambda r, c: (c, r), lambda r, c: (r, n - 1 - c), lambda r, c: (n - 1 - r, c),
            lambda r, c: (n - 1 - r, n - 1 - c), lambda r, c: (c, n - 1 - r), lambda r, c: (n - 1 - c, r),
            lambda r, c: (n - 1 - c, n - 1 - r)]  # fmt: skip
    return [tuple(f(i // n, i % n)[0] * n + f(i // n, i % n)[1] for i in range(n * n)) for f in maps]


@dataclass
class ForcedWinSearch:
    """AND-OR search: can A force a win within ``a_turns`` of its turns, whatever the dice and B do?

    A to move at the root.  A's options for a roll are ``a_options(position, roll)``
    (an iterable, the paper's line first, so a line that works is found first; an
    immediate win is always tried before anything deeper).  B's replies are
    ``b_replies(position, roll)`` — every legal turn by default.  Results are
    memoised per (position, turns left), up to the board's symmetries when
    ``symmetric`` — sound when A's options are the same up to symmetry, as
    candidate turns are (the strategy lab's bots only play candidate turns); a
    fixed line (one option) is not, so search it with ``symmetric=False``.
    ``budget`` caps the B replies visited (:class:`SearchBudgetExceeded`).
    """

    a_options: Callable[[Position, int], object]
    b_replies: Callable[[Position, int], object] = legal_turns
    budget: int = 2_000_000
    symmetric: bool = True
    nodes: int = 0
    memo: dict = field(default_factory=dict)
    symmetries: list = field(default_factory=list, repr=False)  # index permutations, filled from the first board

    def _key(self, position: Position, a_turns: int) -> tuple:
        board = position.board
        if not self.symmetries:
            use = self.symmetric and board.is_grid
            self.symmetries = _grid_symmetries(board) if use else [tuple(range(len(board)))]
        cells = position.cells
        return min(tuple(cells[i] or (0, 0) for i in perm) for perm in self.symmetries), position.to_move, a_turns

    def wins(self, position: Position, a_turns: int) -> bool:
        """True if A (to move) wins within ``a_turns`` A turns against every roll and reply."""
        key = self._key(position, a_turns)
        known = self.memo.get(key)
        if known is not None:
            return known
        answer = all(self._some_option_wins(position, roll, a_turns) for roll, _ in position.dice_outcomes())
        self.memo[key] = answer
        return answer

    def _some_option_wins(self, position: Position, roll: int, a_turns: int) -> bool:
        if self._wins_at_once(position, roll):
            return True
        if a_turns == 1:
            return False
        for turn in self.a_options(position, roll):
            after = apply(position, turn)
            if not after.is_over and self._every_reply_loses(after, a_turns - 1):
                return True
        return False

    @staticmethod
    def _wins_at_once(position: Position, roll: int) -> bool:
        """Whether some A turn ends the game now: eating B's last amoeba (only possible with one left)."""
        targets = position.owned("B")
        if len(targets) != 1:
            return False
        return any(
            turn.dst == targets[0] and apply(position, turn).result == "A" for turn in candidate_turns(position, roll)
        )

    def refutation(self, position: Position, a_turns: int) -> tuple[list[str], Position]:
        """After ``wins`` said False: one line of play on which A's *first* option never wins in time.

        Returns the rolls and turns in notation (``A 3 a1 a1-b2 ...``, ``B ...``)
        and the position where it ends (the game over, or A's turns used up).
        """
        path = []
        while True:
            roll = next(r for r, _ in position.dice_outcomes() if not self._some_option_wins(position, r, a_turns))
            turn = next(iter(self.a_options(position, roll)))
            position = apply(position, turn)
            path.append(f"A {turn}")
            if position.is_over or a_turns == 1:
                return path, position
            a_turns -= 1
            for b_roll, _ in position.dice_outcomes():
                replies = self.b_replies(position, b_roll)
                reply = next((reply for reply in replies if self._survives(position, reply, a_turns)), None)
                if reply is not None:
                    break
            position = apply(position, reply)
            path.append(f"B {reply}")
            if position.is_over:
                return path, position

    def _survives(self, position: Position, reply, a_turns: int) -> bool:
        after = apply(position, reply)
        return after.result != "A" and (after.is_over or not self.wins(after, a_turns))

    def _every_reply_loses(self, position: Position, a_turns: int) -> bool:
        for roll, _ in position.dice_outcomes():
            for reply in self.b_replies(position, roll):
                self.nodes += 1
                if self.nodes > self.budget:
                    raise SearchBudgetExceeded(f"more than {self.budget:,} B replies visited")
                after = apply(position, reply)
                if after.result == "A":
                    continue
                if after.is_over or not self.wins(after, a_turns):
                    return False
        return True


@dataclass
class LineOutcomes:
    """A plays a fixed line, B anything: the best B can do against it within a horizon.

    ``value(position, turns)`` is the largest probability, over every B
    strategy (B's replies from ``b_replies``, all legal turns by default), that
    ``goal`` holds when the game ends or the horizon of ``turns`` turns runs out
    (A's turn from ``a_line(position, roll)``, the dice averaged exactly).
    ``goal`` is ``"B wins"`` or ``"A has not won"``.  Memoised; ``budget`` caps B replies.
    """

    a_line: Callable[[Position, int], object]
    goal: str = "B wins"
    b_replies: Callable[[Position, int], object] = legal_turns
    budget: int = 2_000_000
    nodes: int = 0
    memo: dict = field(default_factory=dict)
    reached: dict = field(default_factory=dict)  # results of the ended games found: {result: distinct positions}

    def _score(self, position: Position) -> Fraction:
        if position.is_over:
            self.reached.setdefault(position.result, set()).add(position.cells)
        result = position.result
        return Fraction(int(result == "B" if self.goal == "B wins" else result != "A"))

    def value(self, position: Position, turns: int) -> Fraction:
        if position.is_over or turns == 0:
            return self._score(position)
        key = (position.cells, position.to_move, turns)
        known = self.memo.get(key)
        if known is not None:
            return known
        total = Fraction(0)
        for roll, p in position.dice_outcomes():
            if position.to_move == "A":
                total += p * self.value(apply(position, self.a_line(position, roll)), turns - 1)
                continue
            best = Fraction(0)
            for reply in self.b_replies(position, roll):
                self.nodes += 1
                if self.nodes > self.budget:
                    raise SearchBudgetExceeded(f"more than {self.budget:,} B replies visited")
                best = max(best, self.value(apply(position, reply), turns - 1))
                if best == 1:
                    break
            total += p * best
        self.memo[key] = total
        return total


def line_counterexample(position: Position, a_line: Callable[[Position, int], object], turns: int,
                        b_replies: Callable[[Position, int], object] = legal_turns,
                        budget: int = 2_000_000) -> list[str] | None:  # fmt: skip
    """A line of play, within ``turns`` turns, on which B wins against ``a_line``; None if there is none.

    Depth-first over every roll and every B reply (A's turns from ``a_line``),
    stopping at the first B win, so a refutation is found fast and a None is
    an exhaustive check.  ``budget`` caps B replies (:class:`SearchBudgetExceeded`).
    """
    no_win: set = set()
    visited = [0]

    def search(position: Position, turns: int) -> list[str] | None:
        if position.result == "B":
            return []
        if position.is_over or turns == 0 or (position.cells, position.to_move, turns) in no_win:
            return None
        for roll, _ in position.dice_outcomes():
            moves = [a_line(position, roll)] if position.to_move == "A" else b_replies(position, roll)
            for turn in moves:
                visited[0] += 1
                if visited[0] > budget:
                    raise SearchBudgetExceeded(f"more than {budget:,} turns visited")
                rest = search(apply(position, turn), turns - 1)
                if rest is not None:
                    return [f"{position.to_move} {turn}"] + rest
        no_win.add((position.cells, position.to_move, turns))
        return None

    return search(position, turns)


# --------------------------------------------------------------------------- the paper's line (strategy lab)


def paper_line(position: Position, roll: int) -> Turn:
    """The strategy lab's ``paper`` bot's turn, its rng fixed by (position, roll) so the line is a function."""
    from .bots import BOTS  # the paper's play, implemented once, by the strategy lab

    return resolve(position, as_function(BOTS["paper"])(position, roll, seeded_rng("paper-line", position, roll)))


def line_then_candidates(position: Position, roll: int):
    """A's options for the AND-OR search: the paper's line first, then every other candidate turn."""
    line = paper_line(position, roll)
    yield line
    for turn in candidate_turns(position, roll):
        if turn != line:
            yield turn


def only_the_line(position: Position, roll: int) -> list[Turn]:
    return [paper_line(position, roll)]


# --------------------------------------------------------------------------- 6. Case III


def case_III_table(deltas: tuple[int, ...] = (7, 10), bases: tuple[int, ...] = (1, 6), turns: int = 6,
                   chance_turns: int = 4, budget: int = 2_000_000) -> pd.DataFrame:  # fmt: skip
    """A (base+delta after a roll of 1) on a1 plays the paper's line, B (base) on c3 plays anything.

    Per set-up: a line of play on which B wins within ``turns`` turns (every roll,
    every legal B turn searched; "none" is exhaustive), and, within
    ``chance_turns`` turns, the largest chance over every B strategy that B wins
    and that A has not won (exact expectimax), with the game ends met.
    """
    rows = []
    for delta in deltas:
        for base in bases:
            start = opening_position(base + delta - 1, base)
            try:
                found = line_counterexample(start, paper_line, turns, budget=budget)
                b_win = "none" if found is None else " ; ".join(found)
            except SearchBudgetExceeded:
                b_win = f"unknown (more than {budget:,} turns visited)"
            row = {"delta": delta, "base": base, "start": str(start), "turns searched": turns,
                   "B wins along the line": b_win, "chance turns": chance_turns}  # fmt: skip
            for goal, column in (("B wins", "max P(B wins)"), ("A has not won", "max P(A has not won)")):
                search = LineOutcomes(paper_line, goal, budget=budget)
                try:
                    row[column] = str(search.value(start, chance_turns))
                except SearchBudgetExceeded:
                    row[column] = "unknown"
                if goal == "B wins":
                    row["endings met"] = ", ".join(f"{result}: {len(cells)}" for result, cells in
                                                   sorted(search.reached.items())) or "none"  # fmt: skip
            rows.append(row)
    return pd.DataFrame(rows)


def case_III(deltas: tuple[int, ...] = (7,), bases: tuple[int, ...] = (1,), turns: int = 6,
             chance_turns: int = 4) -> Verdict:  # fmt: skip
    """Case III (delta > 6): 'the opponent cannot win' along the paper's line — searched over every B roll and reply."""
    table = case_III_table(deltas, bases, turns, chance_turns)
    found = table[~table["B wins along the line"].str.startswith(("none", "unknown"))]
    unknown = table[table["B wins along the line"].str.startswith("unknown")]
    verdict = "refuted" if len(found) else "verified up to a bound"
    setups = f"delta {', '.join(map(str, deltas))}, B sizes {', '.join(map(str, bases))}"
    if len(found):
        first = found.iloc[0]
        summary = (f"B can win within {turns} turns along the line, e.g. from {first['start']}: "
                   f"{first['B wins along the line']}")  # fmt: skip
    else:
        summary = f"no B win within {turns} turns along the paper's line ({setups}; every B roll and legal reply)"
    explanation = (
        "Set-up: A's amoeba on a1 reaches base + delta with a roll of 1 (more with higher rolls), B's amoeba of size "
        "base is on c3, A to move. A plays the paper's line as the strategy lab's paper bot reads it: the centre, "
        "then neutralising one of B's pieces while Delta > 6, eating one (with the whole amoeba: the paper does not "
        "say with how much) once Delta is no longer above 6, and the greedy bot where the paper's text prescribes "
        f"nothing. Every B roll and every legal B turn was searched for {turns} turns (A moves first, depth first, "
        "stopping at the first B win). "
        + (f"B wins along the line in {len(found)} of {len(table)} set-ups: the claim that 'the opponent cannot win' "
           "fails for this reading of the line (see the evidence for each line of play). " if len(found) else
           f"No B win exists within {turns} turns in any set-up. ")
        + (f"{len(unknown)} set-ups ran out of budget (unknown, not negative). " if len(unknown) else "")
        + f"Within {chance_turns} turns the exact best chance of a B win is "
        + ", ".join(table["max P(B wins)"]) + " per set-up. Beyond the depths searched nothing is claimed."
    )
    return Verdict("case-III", verdict, summary, explanation, table)


# --------------------------------------------------------------------------- 7. Case IV


def case_IV_position(delta: int = 45, b_size: int = 16) -> Position:
    """The paper's Case IV set-up: A on a1, B (``b_size``) on c3, A to move; delta counted after A rolls a 1.

    With ``delta=44`` this is the paper's own example (A reaches 60 on the centre against 16).
    """
    return opening_position(b_size + delta - 1, b_size)


def forced_win_report(position: Position, a_options, b_replies, a_turns: int, budget: int = 400_000) -> dict:
    """One :class:`ForcedWinSearch` as a row: the answer (None when the budget ran out), its cost, a refutation.

    Symmetry reduction is used unless ``a_options`` is :func:`only_the_line`.
    """
    search = ForcedWinSearch(a_options, b_replies, budget=budget, symmetric=a_options is not only_the_line)
    try:
        wins = search.wins(position, a_turns)
    except SearchBudgetExceeded:
        wins = None
    line, end = search.refutation(position, a_turns) if wins is False else ([], None)
    return {"forced win": wins, "B replies visited": search.nodes, "positions stored": len(search.memo),
            "refutation": " ; ".join(line), "refutation ends": "" if end is None else str(end)}  # fmt: skip


def smallest_forcing_delta(b_size: int = 16, a_turns: int = 4, deltas: range = range(7, 46),
                           budget: int = 400_000) -> tuple[int | None, pd.DataFrame]:  # fmt: skip
    """The smallest delta in ``deltas`` from which A forces a win within ``a_turns`` turns (Case IV set-up).

    A plays the paper's line first, then any candidate turn; B any candidate
    turn.  Scans upwards, so every smaller delta of the range was checked and
    failed (no monotonicity is assumed).  Returns it (None if none) and the scan.
    """
    rows = []
    for delta in deltas:
        start = case_IV_position(delta, b_size)
        row = forced_win_report(start, line_then_candidates, candidate_turns, a_turns, budget)
        rows.append({"delta": delta, "forced win": row["forced win"], "B replies visited": row["B replies visited"]})
        if row["forced win"]:
            return delta, pd.DataFrame(rows)
    return None, pd.DataFrame(rows)


def case_IV(delta: int = 45, b_size: int = 16, a_turns: int = 8, free_depths: tuple[int, int] = (4, 3),
            budget: int = 400_000, find_smallest: bool = False) -> Verdict:  # fmt: skip
    """Case IV (delta > 44: A wins within 8 turns) by AND-OR search on 3x3; see the explanation for the bounds.

    ``find_smallest`` adds the research extra (:func:`smallest_forcing_delta`, about a minute).
    """
    start = case_IV_position(delta, b_size)
    runs = [
        ("the paper's line only", "every legal B turn", a_turns, only_the_line, legal_turns),
        ("line first, then any candidate turn", "B's candidate turns", free_depths[0], line_then_candidates,
         candidate_turns),
        ("line first, then any candidate turn", "every legal B turn", free_depths[1], line_then_candidates,
         legal_turns),
    ]  # fmt: skip
    rows = []
    for a_plays, b_plays, depth, a_options, b_replies in runs:
        rows.append({"A plays": a_plays, "B plays": b_plays, "A turns": depth,
                     **forced_win_report(start, a_options, b_replies, depth, budget)})  # fmt: skip
    extra = ""
    if find_smallest:
        smallest, scan = smallest_forcing_delta(b_size, free_depths[0], budget=budget)
        rows.append({"A plays": "line first, then any candidate turn", "B plays": "B's candidate turns",
                     "A turns": free_depths[0], "forced win": smallest is not None,
                     "B replies visited": int(scan["B replies visited"].sum()),
                     "refutation": f"smallest delta with a forced win: {smallest} (scanned {scan['delta'].min()}.."
                                   f"{scan['delta'].max()})"})  # fmt: skip
        extra = (f" Research extra: scanning delta upwards from {scan['delta'].min()}, the smallest delta from which "
                 f"A forces a win within {free_depths[0]} A turns against B's candidate turns is {smallest}.")
    evidence = pd.DataFrame(rows)
    line_wins, candidate_wins, free_wins = evidence["forced win"][:3]
    if line_wins:
        verdict = "verified up to a bound"
    elif line_wins is False:
        verdict = "refuted"
    else:
        verdict = "verified up to a bound"
    status = {True: "wins", False: "does not force a win", None: "unknown (budget)"}
    summary = (
        f"from {start} (delta {delta} after A's roll of 1): the paper's line {status[line_wins]} within {a_turns} A "
        f"turns against every B reply; A with any candidate turn {status[candidate_wins]} within "
        f"{free_depths[0]} turns if B plays candidate turns, {status[free_wins]} within {free_depths[1]} "
        "against every B turn"
    )
    refuted = evidence.loc[0, "refutation"]
    explanation = (
        f"Set-up: A's amoeba on a1 of size {b_size + delta - 1} (delta = {delta} after a roll of 1, more after higher "
        f"rolls), B's of size {b_size} on c3, A to move: the paper's example (60 against 16 on the centre) is "
        "delta = 44, one below its own threshold. AND-OR search: at A's turns every roll and some A option must win; "
        "at B's turns every roll and every B reply must lose; memoised (up to the 8 symmetries of the board when A "
        "may play any candidate turn), "
        f"capped at {budget:,} B replies per search. A's options are the strategy lab's paper bot (the paper's line: "
        "centre, then neutralise or eat the bigger B piece 'with an amoeba just as big', capture 'with a number 1 "
        "higher' when one square is left, eat to win) alone, or that line first and then every candidate turn "
        "(whole, half, smallest eat, capture, neutralisation for every grow and move); a turn that wins at once "
        "is always taken. B's replies are every legal "
        "turn, or B's candidate turns (a pruning, said where used). "
        + (f"The paper's line fails: {refuted}; ending in {evidence.loc[0, 'refutation ends']} (the paper assumes "
           "B splits 'obviously in half'; B need not). " if refuted else "")
        + "A refutation gives, at each A turn, a roll for which no A option wins in time and the line's turn for it, "
        "then a B reply that survives. "
        + "Deeper searches with A free and B unrestricted are out of reach of this budget: what is verified is "
        "exactly the rows of the evidence, each at its depth." + extra
    )
    return Verdict("case-IV", verdict, summary, explanation, evidence)


# --------------------------------------------------------------------------- every item at once

ITEMS = (
    "advantage-1-claim", "symmetry-theorem", "unboundedness-conjecture", "advantage-2-claim", "case-I", "case-II",
    "case-III", "case-IV", "example-game",
)  # fmt: skip

# Sizes for `amoeboid paper` (quick: under a minute in all) and for the lessons (`--full`).
SIZES = {
    "quick": {
        "random_games": 20_000, "bot_games": 100, "expectimax_games": 0, "rounds": 10, "symmetry_games": 5_000,
        "walks": 20_000, "case_I_games": 500, "case_II_bases": (1, 10, 40), "case_III_setups": ((7,), (1,)),
        "case_IV_free_depths": (4, 3), "case_IV_smallest": False,
    },
    "full": {
        "random_games": 100_000, "bot_games": 1_000, "expectimax_games": 30, "rounds": 30, "symmetry_games": 50_000,
        "walks": 200_000, "case_I_games": 5_000, "case_II_bases": (1, 10, 40, 1000),
        "case_III_setups": ((7, 10), (1, 6)), "case_IV_free_depths": (4, 4), "case_IV_smallest": True,
    },
}  # fmt: skip


def check_all(full: bool = False, seed: int | str = 0, only: tuple[str, ...] = ITEMS):
    """Yield the :class:`Verdict` of each item in ``only`` (in :data:`ITEMS` order), computed now."""
    size = SIZES["full" if full else "quick"]
    results = None
    if {"advantage-1-claim", "advantage-2-claim"} & set(only):
        results = final_results(size["random_games"], size["bot_games"], seed, size["expectimax_games"])
    runners = {
        "advantage-1-claim": lambda: advantage_1_claim(results=results),
        "symmetry-theorem": lambda: symmetry_theorem(size["rounds"], size["symmetry_games"], seed),
        "unboundedness-conjecture": lambda: unboundedness_conjecture(walks=size["walks"], seed=seed),
        "advantage-2-claim": lambda: advantage_2_claim(results=results),
        "case-I": lambda: case_I(games=size["case_I_games"], seed=seed),
        "case-II": lambda: case_II(size["case_II_bases"]),
        "case-III": lambda: case_III(*size["case_III_setups"]),
        "case-IV": lambda: case_IV(
            free_depths=size["case_IV_free_depths"], find_smallest=size["case_IV_smallest"]
        ),
        "example-game": example_game_check,
    }
    for item in ITEMS:
        if item in only:
            yield runners[item]()


# --------------------------------------------------------------------------- the charts that show each item


def advantage_chart(results: pd.DataFrame | None = None, seed: int | str = 0):
    """Win rates with 95% intervals for the games behind the Advantage claims (item 1)."""
    results = final_results(2_000, 50, seed) if results is None else results
    title = "Who wins (the games behind the Advantage claims)"
    return analysis.win_rate_chart(analysis.win_rates(results), title=title)


def symmetry_chart(rounds: int = 5, walks: int = 100_000, seed: int | str = 0):
    """delta after ``rounds`` rounds: the exact symmetric law against seeded dice walks (item 2)."""
    frame = analysis.delta_samples_frame(rounds, walks, seed=seed)
    return analysis.delta_distribution_chart(frame, title=f"delta after {rounds} full rounds: symmetric, mean 0")


def unboundedness_chart(levels: tuple[int, ...] = (10, 20, 50), turns: int = 20_000, points: int = 400,
                        walks: int = 20_000, mc_turns: int = 2_000, seed: int | str = 0):  # fmt: skip
    """P_M(n) curves approaching 1 (exact DP, ``points`` samples per curve) with Monte Carlo points (item 3)."""
    exact = analysis.exceedance_frame(levels, turns, every=max(1, turns // points))
    sampled = analysis.exceedance_monte_carlo(levels, mc_turns, walks, seed=seed)
    sampled = sampled[sampled["turn"] % max(1, mc_turns // 50) == 0]
    return analysis.exceedance_chart(pd.concat([exact, sampled], ignore_index=True))


def example_game_chart():
    """delta and Delta over the paper's example game, eats and neutralisations marked (item 8)."""
    return analysis.delta_chart(analysis.game_frame(example_game()), title="The paper's example game")
