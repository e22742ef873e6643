# %% [markdown]
# # Lesson 2: Rules and definitions
#
# The paper (section *Rules*) defines the game in a page. This lesson takes each definition in turn, shows it in
# code, and asks you to **predict, then check**: write your prediction in place of `...`, run the cell, and the
# check tells you whether you were right, with a hint if not.
#
# **Learning goals**
#
# - Use the paper's words precisely: amoeba, composition, size, owner (and *neutral*), turn, eat, split.
# - Read and write positions and turns in the course notation.
# - Predict the effect of a turn, and recognise illegal turns and the end of the game.

# %%
from amoeboid_edu import Amoeba, Position, Turn, apply, count_legal_turns, is_legal, legal_turns, resolve
from amoeboid_edu.ui.exercises import check

# %% [markdown]
# ## Amoeba: composition, size, owner (paper, *Definitions* 1a-1d)
#
# An amoeba sits on one cell and has a **composition** `(a, b)`: `a` unit amoebae controlled by A and `b` controlled
# by B. Its **size** is `a + b`. Its **owner** is the player with the bigger number, and when both numbers are equal
# the amoeba is **neutral**: nobody owns it, nobody may grow it or move it, but anybody may eat it.

# %%
for amoeba in [Amoeba(3, 0), Amoeba(3, 2), Amoeba(2, 5), Amoeba(4, 4)]:
    print(f"{str(amoeba):8} size {amoeba.size:2}   owner {amoeba.owner}")

# %% [markdown]
# **Exercise 1** (done for you, to show how checks work). Who owns `(6, 7)`? Answer `"A"`, `"B"` or `None`
# (neutral). Try a wrong answer too, to see the hint.

# %%
my_answer = "B"
check(my_answer, Amoeba(6, 7).owner, hint="compare the two numbers: the bigger share owns the amoeba")

# %% [markdown]
# ## Positions in notation
#
# A position lists the rows from top to bottom, separated by `/`; `.` is an empty cell; then the side to move.
# Columns are letters from the left, rows numbers from the top, so `a1` is the top-left cell, as in the paper's
# matrices. Adjacent cells are the 8 around a cell (king moves): the paper's example game needs diagonal steps.

# %%
position = Position.parse("(1,0) (0,3) . / . (2,2) . / . . (0,1) A")
position

# %%
print(position["b1"], position["b2"].owner, position.owned("A"), position.owned("B"))
print(position.board.neighbours_of("a1"))

# %% [markdown]
# A position that is not well formed is refused with one line saying what is wrong:

# %%
try:
    Position.parse("(1,0) . . / . . / . . (0,1) A")
except ValueError as error:
    print(error)

# %% [markdown]
# ## The turn (paper, *Game play*)
#
# 1. **Roll and grow.** The player rolls the die and adds the roll to *their own part* of one amoeba they own.
# 2. **Move.** They take some of the units of an amoeba they own, `A` of player A's and `B` of player B's, and
#    move them as one new amoeba to an adjacent cell. The cell must be empty, or hold an amoeba of size at most
#    `A + B`: then the mover **eats** it and the two compositions add up.
#
# In notation a turn is `ROLL GROW SRC-DST A,B`. Leaving out `A,B` moves the whole amoeba. A move is compulsory
# whenever one exists; a player with no legal move after the grow writes `ROLL GROW -`.

# %%
start = Position.start()
turn = resolve(start, "3 a1 a1-b1")  # fills in the omitted counts: the whole amoeba moves
print(turn, "| grow on", turn.grow, "| move", turn.src, "->", turn.dst, "| units", (turn.a, turn.b))
apply(start, turn)

# %% [markdown]
# Moving only part of an amoeba **splits** it: the rest stays behind.

# %%
apply(start, "5 a1 a1-b2 3,0")

# %% [markdown]
# **Exercise 2.** From the start, A rolls 4 and moves 2 of its units from `a1` to `a2`. Write the position that
# results in notation (B is to move next), as text in quotes; the `/` between rows may be left out, the side to move
# may not. Positions are immutable values, so `start` itself never changes.

# %%
my_answer = ...  # solution: "(3,0) . . / (2,0) . . / . . (0,1) B"
check(my_answer, apply(start, "4 a1 a1-a2 2,0"), hint="a1 has 1 + 4 units of A before the move; 2 of them leave")

# %% [markdown]
# ## Eating and neutralising
#
# In this position A owns `(6,0)` on `b2`, B owns `(0,5)` on `c3`. A rolls 1. What can A do to B's amoeba?

# %%
duel = Position.parse(". . . / . (6,0) . / . . (0,5) A")
for counts in ["7,0", "5,0", "4,0"]:
    turn = f"1 b2 b2-c3 {counts}"
    outcome = apply(duel, turn) if is_legal(duel, turn) else "illegal"
    print(f"{turn:18} -> {outcome}")

# %% [markdown]
# Eating with all 7 units makes `(7,5)`, which A owns: B owns nothing and **A wins**. Eating with exactly 5 units
# makes `(5,5)`: a **neutral** amoeba, the key idea of the paper's Case III (lesson 6). With 4 units A is too small:
# an illegal turn is refused with the rule it breaks, and nothing changes.

# %%
try:
    apply(duel, "1 b2 b2-c3 4,0")
except ValueError as error:
    print(error)

# %% [markdown]
# **Exercise 3.** In `duel`, how many different legal turns does A have with a roll of 1? (Count every choice of
# grow, source, destination and numbers of units.) Make a guess first, then look at the count of turns by destination
# below.

# %%
my_answer = ...  # solution: 52
check(my_answer, count_legal_turns(duel, 1), hint="7 units can go to 8 neighbours; to eat c3 you need at least 5")

# %%
from collections import Counter

Counter(turn.dst for turn in legal_turns(duel, 1))  # legal turns by destination cell

# %% [markdown]
# ## When no move exists: passing
#
# On a one-row board of two cells, B's small amoeba cannot reach a size of 9 with one roll, and there is no empty
# neighbour: B grows and passes.

# %%
stuck = Position.parse("(0,1) (9,0) B")
print(list(legal_turns(stuck, 6)))

# %% [markdown]
# ## The end of the game (paper, *End Game*)
#
# The game ends as soon as one player owns no amoeba. A player who still owns an amoeba wins; if neither does, it is
# a tie. **Exercise 4.** A owns `(1,0)` on `a1` and B owns `(0,3)` on `b1`; A rolls 2 and eats `b1` with everything.
# What is the result: `"A"`, `"B"`, `"tie"` or `"ongoing"` (capitals do not matter)?

# %%
my_answer = ...  # solution: "tie"
check(
    my_answer,
    apply(Position.parse("(1,0) (0,3) . / . . . / . . . A"), "2 a1 a1-b1").result,
    hint="after the eat there is one amoeba on the board: who owns (3,3)?",
)

# %% [markdown]
# ## Where the dice went: σ and Σ
#
# Units are never created or destroyed except by the dice, so a position remembers the sum of each player's rolls:
# `sigma_A` is A's units on the board minus the one A started with. Lessons 3 and 4 are about these numbers.

# %%
after_two = apply(apply(start, "3 a1 a1-b1"), "5 c3 c3-b3 0,2")
after_two, after_two.sigma_A, after_two.sigma_B

# %% [markdown]
# ## Summary
#
# - An amoeba `(a,b)` has size `a + b` and is owned by the bigger share; `(k,k)` is neutral and belongs to nobody.
# - A turn is `ROLL GROW SRC-DST A,B`: grow your part of an amoeba you own, then move some of your amoeba's units to
#   a neighbour that is empty or holds an amoeba no bigger than what you move (eating it). A move is compulsory.
# - The game ends when a player owns nothing; the other player wins if they own something, otherwise it is a tie.
# - Next: [lesson 3](03-advantage-1-delta.ipynb) follows the dice through a game.
