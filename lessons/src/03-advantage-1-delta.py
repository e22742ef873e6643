# %% [markdown]
# # Lesson 3: Advantage 1, the dice difference δ
#
# The paper's *Analysis* starts with two numbers that "give a good idea of the development of the game". The first
# one, **δ**, only counts the dice. This lesson states the paper's definition, its claim, its symmetry theorem and
# its unboundedness conjecture, and checks each one by computation: exactly where the mathematics allows it, by
# simulation where it helps to see it.
#
# **Learning goals**
#
# - Compute σ_A, σ_B and δ for any game, and explain why δ depends on the dice only, never on the players' choices.
# - Prove the claim "a player can only win with advantage 1", and check it on thousands of games.
# - Read the exact distribution of δ, and say exactly when the paper's symmetry theorem holds (and when it does not).
# - Explain why the unboundedness conjecture is in fact a theorem about random walks.
#
# **The results in one sentence each** (the computations below show how we know):
#
# - *A player can only win with advantage 1*: **confirmed**, and there is a short proof.
# - *The expected δ is always 0*: **confirmed with a correction**: right with "turn" meaning a full round as in the
#   paper's own example; just after A's roll (mid-round) A is 3.5 ahead on average, and at the end of a game δ is not
#   0 on average either.
# - *δ eventually passes any level*: **confirmed with a correction**: right for the dice alone, if you imagine
#   rolling forever (then it is even a theorem); inside a real game, which may end first, it can fail, by the same
#   rule as the symmetry theorem.

# %%
import altair as alt
import pandas as pd
from IPython.display import Markdown

from amoeboid_edu import Game, legal_turns, random_turn
from amoeboid_edu.theory import analysis, paper
from amoeboid_edu.ui.exercises import check

# Charts are drawn as SVG in the kernel where vl-convert is installed (offline, exact), else by vega-embed in the page.
_ = alt.renderers.enable("amoeboid")  # charts drawn in the kernel as SVG: offline, reproducible, light and dark

# %% [markdown]
# ## Definition (paper, *Advantage 1*)
#
# σ_A and σ_B are the sums of A's and B's rolls so far, and **δ = σ_A − σ_B**. A has *advantage 1* when δ > 0,
# B when δ < 0. The paper's example: "after three turns A has rolled 1,2,3 and B has rolled 4,5,6".
#
# **Turn or round?** In this course (the game records, the CLI, the charts) a **turn** is one player's roll and move,
# and a **round** is A's turn followed by B's. The paper's example counts differently: its "three turns" are three
# rounds (six of our turns). Below, "turn" always means ours, and where the paper's turn is meant we say "round".
# Let us play such a game, three rounds, six turns (the moves do not matter):

# %%
game = Game()
for turn in ["1 a1 a1-b1", "4 c3 c3-b3", "2 b1 b1-c1", "5 b3 b3-a3", "3 c1 c1-b1", "6 a3 a3-b3"]:
    game.play(turn)
game.position, game.position.sigma_A, game.position.sigma_B

# %% [markdown]
# **Exercise 1.** What is δ in this position?

# %%
my_answer = ...  # solution: -9
check(my_answer, game.position.delta, hint="δ = σ_A − σ_B: A's rolls minus B's rolls")

# %% [markdown]
# The position remembers the dice because units are only ever created by rolls: moving, splitting and eating just
# rearrange them. So **δ depends only on the dice**. Two games with the same dice but different players have the
# same δ after every turn, as long as both last. Here the same seeded dice are played once by two random players
# and once by two players who always take the first legal turn:

# %%
def first_legal(position, roll, rng):
    return next(legal_turns(position, roll))


random_game = analysis.play_game(random_turn, random_turn, seed=7)
stubborn_game = analysis.play_game(first_legal, first_legal, seed=7)
both = pd.DataFrame({
    "roll": [row["roll"] for row in random_game.rows()],
    "δ (random players)": [row["delta"] for row in random_game.rows()],
    "δ (first-legal players)": [row["delta"] for row in stubborn_game.rows()][: len(random_game)],
})
both.head(8)

# %% [markdown]
# ## The claim: only a player with advantage 1 can win
#
# **Claim (paper).** Player A can only win if δ > 0, and B only if δ < 0.
#
# **In one sentence:** the authors are right: whoever wins has rolled more in total, on any board.
#
# <details><summary>For the curious: the proof</summary>
#
# Each player starts with one unit, and only rolls add units, so A has σ_A + 1 units on the board and B
# has σ_B + 1. Suppose A wins. Then B owns no amoeba, so in every amoeba `(a, b)` we have a ≥ b, and A owns at least
# one amoeba, where a > b. Adding over all amoebae: σ_A + 1 > σ_B + 1, that is δ > 0. ∎ The proof also shows that a
# **tie** needs δ = 0 (every amoeba neutral).
#
# </details>
#
# A computer cannot prove a claim by examples, but it can catch a wrong proof: here are the final positions of 5,000
# seeded games between random players, and 30 games of each pairing of the strategy lab's quicker bots (`greedy`,
# `paper`, `random`).

# %%
results = paper.final_results(5_000, 30, seed=3)
results.groupby("result")["delta"].agg(["count", "min", "max"])

# %%
from amoeboid_edu.engine.game import CAPPED, TURN_CAP

Markdown(f"(A `{CAPPED}` game was still going after {TURN_CAP} turns, the turn limit: it stops there and counts as a "
         f"tie, so it can end with any δ.)")

# %% [markdown]
# Every game won by A ends with δ ≥ 1, every game won by B with δ ≤ −1, every tie with δ = 0. The verdict card says it in one sentence, with its scope; open "For the curious" for the details.
# (The verdict cards come from the package that checks the paper, which spells δ as `delta` and σ_A as `sigma_A`.)

# %%
paper.advantage_1_claim(results=results)

# %% [markdown]
# ## The symmetry theorem, exactly
#
# **Theorem (paper).** The expected value of δ is always 0, because the players "start and play with the same
# conditions", so P(δ = k) = P(δ = −k).
#
# **In one sentence:** right, with "turn" read as the paper's own example reads it: "If after three turns A has
# rolled 1,2,3 and B has rolled 4,5,6", so a turn is a full round, and after every round the mean of δ is exactly 0.
# Read turn by turn it would fail: just after A's roll, A is 3.5 ahead on average, because A has rolled once more.
#
# Since δ is a sum of independent die rolls with signs (+ for A's, − for B's), its distribution after n turns can be
# computed exactly, as fractions. After one full round (A's roll minus B's roll):

# %%
law = analysis.delta_distribution(2)
law

# %%
print("symmetric:", all(law[k] == law[-k] for k in law), "  mean:", sum(k * p for k, p in law.items()))

# %% [markdown]
# After 5 rounds the law is already bell-shaped. The bars are the exact law; the dots are the frequencies in 20,000
# seeded simulated games, which scatter around it:

# %%
analysis.delta_distribution_chart(analysis.delta_samples_frame(5, 20_000, seed=1), title="δ after 5 full rounds")

# %% [markdown]
# ### The half-round subtlety
#
# **Exercise 2.** After A's very first turn, what is the probability that δ > 0? (Give a whole number, a fraction like
# `Fraction(1, 2)` or `"1/2"`, or a decimal like `0.5`.)

# %%
laws = analysis.delta_law_frame(6)
my_answer = ...  # solution: 1
check(my_answer, laws.loc[1, "P(delta>0)"], hint="after one turn only A has rolled, and a die shows at least 1")

# %% [markdown]
# The symmetry argument forgets that A rolls first. After every full round (after B's turn) the mean is 0 and the law
# is symmetric; after A's turn A has rolled once more, the mean is 7/2 (the mean of one die) and A is ahead more
# often than not:

# %%
laws.assign(mean=laws["mean"].astype(float), variance=laws["variance"].astype(float),
            **{"P(δ>0)": laws["P(delta>0)"].astype(float)}).drop(columns="P(delta>0)").round(4)

# %%
paper.symmetry_theorem(games=2_000)

# %% [markdown]
# So the theorem is right at the end of every round (what the paper's example calls a turn) for the dice as if play
# went on, but not "always": δ is defined "in a given moment", and in the middle of a round A has rolled once more
# (7/2 on average). The paper's proof ("the players start and play with the same conditions") overlooks that A rolls
# first: **confirmed with a correction**. Another moment its words cover, where it fails too: δ at the end of a game.
# A game can end after A's turn, and then A has had one roll more: on average the final δ is 7/2 × P(the game ends on
# A's turn). (The verdict above quantifies this at the end of random games, under "For the curious".)

# %% [markdown]
# ## The unboundedness "conjecture"
#
# **Conjecture (paper).** Let P_M(n) be the probability that δ > M "before n turns". Then P_M(n) → 1 as n → ∞, for
# every M. We count n in our turns (one roll each); in the paper's rounds, n turns are n/2 rounds. Which one does not
# change the limit, only the numbers. The authors "have run computer modeling that supports this claim".
#
# **In one sentence:** the authors' modelling was right, and it is even a theorem, for the dice sums *as if play went
# on forever*; but a game gives δ only as many turns as it lasts (the card below measures both: how long games last,
# and how many turns δ needs).
#
# We can do better than modelling: P_M(n) can be computed exactly, turn by turn, by keeping the probability of every
# value of δ among the walks that have not yet passed M (dynamic programming). Lines: exact curves. Dots: 5,000
# seeded Monte Carlo walks for M = 10, which agree.

# %%
curves = pd.concat([
    analysis.exceedance_frame([5, 10, 20], 600, every=5),
    analysis.exceedance_monte_carlo([10], 600, 5_000, seed=2).iloc[4::10],
])
analysis.exceedance_chart(curves)

# %%
exact = analysis.exceedance_frame([10, 20], 600)  # every turn, exact
half = {m: int(exact[(exact["M"] == m) & (exact["probability"] >= 0.5)]["turn"].min()) for m in (10, 20)}
Markdown(f"The curves climb towards 1, slowly: δ passes 10 with probability 1/2 within {half[10]} turns, and 20, twice "
         f"as high, within {half[20]}: {half[20] / half[10]:.1f} times as many turns. δ spreads like the square root "
         "of the number of turns, so for higher and higher levels this ratio tends to 4.")

# %% [markdown]
# <details><summary>For the curious: why it is a theorem</summary>
#
# Over a full round δ changes by A's roll minus B's roll, a step with mean 0 and finite variance 35/6. By the
# **Chung–Fuchs theorem** such a random walk on the integers is *recurrent*: it comes back to every value infinitely
# often, so its highest value grows without bound and passes every level M with probability 1. This is about the dice
# alone: a game that has ended rolls no more dice, so inside one game δ only gets as far as the game lasts (most
# games end long before δ passes 10, though a long game can drift far).
#
# </details>

# %%
unbounded = paper.unboundedness_conjecture(walks=5_000, length_games=300)
unbounded

# %% [markdown]
# The card measures game lengths on several boards (random players, 300 seeded games per board here; the CLI plays
# more, so its medians can differ by a turn). The sentence below is written by the computation, not by us:

# %%
lengths = unbounded.evidence.dropna(subset=["half end within"])
median = dict(zip(lengths["games"], lengths["half end within"]))
levels = unbounded.evidence.dropna(subset=["M"]).set_index("M")
need = int(levels.loc[10, "turns to P_M >= 0.9"])
passed = analysis.exceedance_curve(10, max(int(turns) for turns in median.values()))  # P_10(n), exact, n = 0, 1, ...
by_then = "; ".join(f"{'<1%' if 0 < passed[int(turns)] < 0.005 else format(passed[int(turns)], '.0%')} ({games})"
                    for games, turns in median.items())
Markdown(f"Half of the games end within: {'; '.join(f'{turns} turns ({games})' for games, turns in median.items())}. "
         f"δ needs {need:,} turns ({need / 2:,g} rounds) to pass 10 with 90% chance. The bigger the board, the longer "
         f"the games, and the further δ can wander: in as many turns as half the games last, the dice alone take δ past "
         f"10 with chance {by_then}.")

# %% [markdown]
# **Exercise 3.** Using `analysis.exceedance_curve(M, turns)` (it returns P_M(n) for n = 0..turns) and
# `analysis.turns_to_reach(curve, probability)`, find how many turns it takes until δ has passed 5 with probability
# at least 1/2. Predict first: more or fewer than 100 turns?

# %%
curve = analysis.exceedance_curve(5, 400)
my_answer = ...  # solution: 9
check(my_answer, analysis.turns_to_reach(curve, 0.5), hint="read it off the M = 5 curve in the chart, then compute it")

# %% [markdown]
# ## Summary
#
# - δ = σ_A − σ_B counts the dice only: no choice of the players changes it.
# - The claim holds, with a short proof: a winner has δ in their favour (and a tie has δ = 0).
# - δ's law is a convolution of dice, computable exactly. Its mean is 0 after every full round (a "turn" in the
#   paper's example): the symmetry theorem is confirmed with a correction, since mid-round (after A's roll) it is
#   7/2, not 0; at the end of a
#   game 7/2 × P(the game ends on A's turn).
# - The unboundedness conjecture is a theorem (recurrence of mean-zero random walks) about the dice as if play went
#   on, and false inside a game (one can end on turn 2, in the first round): confirmed with a correction, by the same rule as the
#   symmetry theorem; exact curves show how slowly P_M(n) approaches 1, far more slowly than games end. Next: [lesson 4](04-advantage-2-size.ipynb), the advantage that choices *do* change.
