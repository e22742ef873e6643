# %% [markdown]
# # Lesson 5: Opening Cases I and II: stall, or go for the centre?
#
# The paper's *Opening strategies* section studies the start of the game, while nobody has eaten or split, by the
# difference δ between the two amoebae. On a 3×3 board the centre `b2` touches every cell, so the only real question
# is when to walk next to the opponent. This lesson checks the paper's answers for small δ.
#
# **Learning goals**
#
# - Explain the paper's three options in Case I (stall, move next to the opponent, split) and why it stalls.
# - See where the numbers confirm the paper, and where they only partly do (splitting).
# - Compute, for δ = 4, 5, 6, the exact probability that going to the centre does not win, and compare with the
#   paper's Case II.

# %%
from fractions import Fraction

from amoeboid_edu import Position, apply, paper
from amoeboid_edu.exercises import check

# %% [markdown]
# ## Case I: not adjacent, δ < 3.5
#
# A has just rolled r = 1, 2 or 3 on the first turn, so δ = r. A can
#
# - **stall**: move to a cell *not* adjacent to B (from `a1`, that is `b1` or `a2`),
# - move **adjacent** to B (to the centre `b2`),
# - **split**: move part of the amoeba and keep the rest.
#
# Here are the three options for a roll of 2:

# %%
start = Position.start()
options = {name: apply(start, turn_for(2)) for name, turn_for in paper.CASE_I_OPTIONS.items()}
for name, after in options.items():
    print(f"{name:9} {after}")

# %%
options["adjacent"]

# %% [markdown]
# **Exercise 1.** After A moves its `(3,0)` to the centre, B (size 1) rolls. With which rolls can B eat A at once?
# Give a tuple of rolls, like `(5, 6)`.

# %%
adjacent = options["adjacent"]
eating_rolls = tuple(roll for roll in range(1, 7)
                     if any(apply(adjacent, turn).result != "ongoing" for turn in adjacent.legal_turns(roll)))
my_answer = ...
check(my_answer, eating_rolls, hint="B needs a size of at least 3 (A's size) after the roll; a tie counts too")

# %% [markdown]
# The paper's argument: the opponent's expected roll is 3.5, more than δ, so next to B you are likely to be eaten;
# splitting leaves a piece smaller than B's amoeba and gains nothing. Stalling keeps both amoebae safe until δ grows.
# Stall moves alternate like this (the paper's two matrices):

# %%
stalling = [Position.start()]
for turn in ["2 a1 a1-b1", "1 c3 c3-b3", "3 b1 b1-a1", "2 b3 b3-c3"]:
    stalling.append(apply(stalling[-1], turn))
print(*stalling, sep="\n")

# %% [markdown]
# The theory module checks Case I two ways: an **exact one-turn lookahead** (every B roll, every legal B reply: can B
# win at once, and what is A's Δ after B's best reply?) and a **simulation** (200 seeded games per option and roll,
# both sides then playing the random player, or both the `greedy` bot, with the same dice for every option).

# %%
case_1 = paper.case_I(games=200)
case_1

# %%
columns = ["A roll", "option", "turn", "P(B can win next)", "E[Delta] after B's best reply", "continuation", "A score (sim)"]
case_1.evidence[columns]

# %% [markdown]
# Moving next to B is clearly a mistake: B wins at once with probability 1/2 to 5/6, and the simulation agrees. But
# the numbers do **not** show that splitting is worse than stalling: their intervals overlap, whichever bot plays on
# (with `greedy`, splitting even scores a little higher). The paper's argument ("at least one of your amoebae is smaller than the opponent's") is about
# the next turns; over a whole game played by `greedy`, the extra amoeba seems to cost nothing. The verdict's
# "correction" is exactly this. Lesson 9 lets you test it with other strategies.

# %% [markdown]
# ## Case II: not adjacent, δ = 4, 5 or 6
#
# Now A is 4, 5 or 6 bigger than B and considers moving to the centre, next to B. B rolls:
#
# - if B's roll is bigger than δ, B is bigger than A and eats it: **B wins**;
# - if B's roll equals δ, B can eat A with an equal amoeba: a neutral amoeba, a **tie**;
# - otherwise B must move (moves are compulsory), and every cell B can reach is next to the centre, so the paper says
#   B splits in half and A eats at least half of B's units next turn.
#
# The theory module checks this by exhaustive search: every B roll, every legal B reply (not just the paper's), and
# every A roll and eat afterwards, for amoebae of several sizes ("base").

# %%
case_2 = paper.case_II()
case_2

# %%
columns = ["delta", "base", "P(B can win)", "P(B can tie, not win)", "P(A not winning)", "otherwise A eats at least"]
case_2.evidence[columns]

# %% [markdown]
# **Exercise 2.** With δ = 5, what is the probability that A does *not* win at once? (The paper says "at least 1/3".)

# %%
my_answer = ...
not_winning = case_2.evidence.set_index(["delta", "base"]).loc[(5, 1), "P(A not winning)"]
check(my_answer, Fraction(not_winning), hint="B ends the game at once only with the rolls 5 (tie) and 6 (win)")

# %% [markdown]
# So for δ = 4 going to the centre fails half the time, and the paper stalls as in Case I; for δ = 6 A never loses and
# gains at least half of B's units with probability 5/6; δ = 5 is the paper's "complicated case" that depends on how
# big the amoebae already are. Per B roll, for δ = 5 (base size 1):

# %%
paper.case_II_table((5,), (1,))

# %% [markdown]
# ## Summary
#
# - Case I (δ < 3.5): moving next to the opponent loses often (exactly computed); stalling beats it, but the
#   simulations cannot tell stalling from splitting: the paper's case against splitting is not confirmed.
# - Case II: going to the centre fails with probability exactly 1/2, 1/3 and 1/6 for δ = 4, 5, 6; otherwise A eats at
#   least half of B. The paper's numbers are exact, not just bounds.
# - Next: [lesson 6](06-case-3-neutralisation.ipynb), what to do with a big advantage: neutralise.
