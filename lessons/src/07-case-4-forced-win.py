# %% [markdown]
# # Lesson 7: Case IV, the forced win
#
# The paper's boldest claim (section *Case IV*): when the amoebae are not adjacent and δ > 44, player A "can win the
# game in finitely many turns (a max of 8)", whatever B does. The paper supports it with one line of play in which A
# always rolls 1 and B always rolls 6. In this lesson you replay that line on the board, then let a search program
# check the claim against *every* roll and *every* reply of B.
#
# **Learning goals**
#
# - Replay the paper's Case IV line and name each of its steps: centre, neutralise, capture, squeeze.
# - Tell apart "a line that wins" from "a strategy that forces a win": what a claim about all replies requires.
# - Read the verdict of an AND-OR search, including a refutation, and say exactly what it proves.

# %%
import altair as alt
from IPython.display import display

from amoeboid_edu import Game, Position, analysis, paper
from amoeboid_edu.course import LiveChart
from amoeboid_edu.exercises import check
from amoeboid_edu.widget import Board

_ = alt.renderers.enable("svg")  # charts as SVG drawn in the kernel: offline and reproducible

# %% [markdown]
# ## The paper's line
#
# The paper's example starts with A's 60 units arriving in the centre against B's 16 in a corner: A had 59 on `a1`
# and rolled 1, so δ = 44 (one less than the claim's threshold, but it is the paper's own example). The paper's
# matrices, written as turns (A rolls 1 every time, B rolls 6 every time):

# %%
START = str(paper.case_IV_position(44))
LINE = """\
1 a1 a1-b2        # 1. A moves to the centre
6 c3 c3-c2 0,11   #    B splits in half
1 b2 b2-c3 11,0   # 2. A eats the bigger half with an amoeba just as big: (11,11), neutral
6 c2 c2-c1 0,8    #    B splits again
1 b2 b2-c2 9,0    # 3. A repeats step 2 ...
6 c1 c1-b1 0,7
1 b2 b2-c1 7,0
6 b1 b1-a1 0,6
1 b2 b2-b1 7,0
6 a1 a1-a2 0,6
1 b2 b2-a1 6,0
6 a2 a2-a3 0,6    #    only one square (b3) is left empty
1 b2 b2-a2 7,0    # 4. A eats with one unit more than B's piece: (7,6) is A's
6 a3 a3-b3 0,6
1 b2 b2-a3 7,0
6 b3 -            # 5. B has nowhere to go, even with a 6
1 b2 b2-b3 12,0   #    A eats and wins
"""
print(START)

# %% [markdown]
# Press **Next** on the board to step through the line; the chart follows δ and Δ.

# %%
board = Board.from_position(START, seed=4)
board.queue(LINE)
chart = LiveChart(board, lambda game: analysis.delta_chart(analysis.game_frame(game), title="Case IV: δ and Δ"))
display(board, chart)

# %% [markdown]
# The same line, replayed and checked turn by turn (an illegal turn would stop here with its number):

# %%
game = Game.parse(f"start {START}\n{LINE}")
print(game.result, "wins after", len(game), "turns")
game.position

# %% [markdown]
# Every matrix of the paper is in this replay, except for two misprints in the paper: after step 2 the paper shows
# `9B` on `c2` where the rules leave 11 (its next matrices are consistent with 11), and its last matrix changes the
# corner `a1`. The line works: B's pieces shrink, the board fills with neutral amoebae, and B ends up stuck.
#
# **Exercise 1.** The paper says "a max of 8" turns. How many turns did *A* play in this line?

# %%
my_answer = ...
check(my_answer, sum(1 for before in game.positions[:-1] if before.to_move == "A"),
      hint="A plays turns 1, 3, 5, ... of the record")

# %% [markdown]
# ## One line is not a proof
#
# In the line, A rolls 1 every time and B rolls 6. The claim is about **every** roll and **every** reply. To check it,
# the theory module runs an **AND-OR search** from the Case IV start with δ = 45, the smallest δ the claim covers:
#
# - at A's turns, *for every roll* A must have *some* turn that still forces the win (an OR over A's turns);
# - at B's turns, *for every roll* and *every* reply of B, A must still force the win (an AND over B's turns);
# - positions that are the same up to a symmetry of the board are searched once.
#
# It searches three ways: A plays exactly the paper's line (as the strategy lab's `paper` bot plays it) against every
# legal B turn, 8 turns of A deep; and A may deviate from the line (any candidate turn) against B's candidate turns,
# or against every B turn, to smaller depths (here 3 turns of A, so that the lesson runs in a second).

# %%
verdict = paper.case_IV(free_depths=(3, 3))
verdict

# %% [markdown]
# The line fails. The search found a **refutation**: B keeps splitting off tiny pieces (rolling 1s), so A needs many
# neutralisations, one per piece, and after 8 A turns B still owns an amoeba. The paper's line assumed B always rolls 6
# and splits in half; with small rolls B's pieces are small, but there are as many of them to deal with. Here is the
# refutation, replayed from the search's own notation:

# %%
refutation = verdict.evidence.loc[0, "refutation"]
print(refutation.replace(" ; ", "\n"))

# %% [markdown]
# Where the refutation stops, after A's 8th turn: B still owns one tiny amoeba, so the game is not over, although A
# owns almost everything.

# %%
end = Position.parse(verdict.evidence.loc[0, "refutation ends"])
print("B owns", {cell: str(end[cell]) for cell in end.owned("B")}, " Δ =", end.Delta)
end

# %% [markdown]
# What the search proves is exactly the rows of its evidence, each at its depth, and nothing beyond. Deeper searches
# cost much more: `paper.case_IV()` searches 4 turns of A against B's candidate turns (about 15 seconds) and finds
# that there A **does** force a win, by deviating from the paper's line. Try it in a new cell.
#
# **Exercise 2.** Which part of the paper's claim does the refutation break: "A wins" or "within 8 turns"? Answer
# `"wins"` or `"8 turns"`.

# %%
my_answer = ...
check(my_answer, "8 turns", hint="in the refutation, does B ever own more than A? Look at what B still owns at the end")

# %% [markdown]
# ## Summary
#
# - The paper's Case IV line (centre, neutralise the bigger half, capture with one unit more, squeeze) is legal and wins
#   when A rolls 1s and B rolls 6s, in 9 turns of A, not 8.
# - A claim about *all* dice and *all* replies needs a search over all of them: the AND-OR search refutes "within 8
#   turns" for the paper's line: B's small rolls make more, smaller pieces, and the squeeze takes longer.
# - Next: [lesson 8](08-example-game.ipynb), a whole game of the authors, replayed.
