# %% [markdown]
# # Start here: Amoeboid, a dice game of growing and eating
#
# *Amoeboid* is a two-player game invented by Sebastien Dabdoub and Santiago Cuellar for MIT's course
# SP.268 *The Mathematics in Toys and Games*. This course teaches their paper by letting you play the game,
# then check every definition, claim and opening case of the paper with code you can run and change.
#
# **Learning goals**
#
# - Know what the game is about after five minutes, and play a first game on the board against a random bot.
# - Read a position on the board and in text notation.
# - Know how the course is organised and how to run it on your own machine or on Binder.
#
# **How to use a lesson:** run the cells from top to bottom (*Run → Run All Cells*, or Shift+Enter cell by
# cell). Every random thing in the course takes a *seed*, so you see exactly what the text describes; change
# the seed to see something new.

# %% [markdown]
# ## The game in one minute (paper, *Rules*)
#
# Two players, **A** (blue) and **B** (orange), each start with one *amoeba* of size 1 in opposite corners of
# a 3×3 board. An amoeba is a little pile of unit amoebae: `(a,b)` means `a` units belong to A and `b` to B.
# Whoever has more units *owns* the amoeba; if both numbers are equal the amoeba is **neutral** and nobody owns it.
#
# A turn has two steps:
#
# 1. **Grow.** Roll a die and add the number to one of your amoebae (your part of it grows).
# 2. **Move.** Take some or all of the units of an amoeba you own and move them, as one new amoeba, to an
#    adjacent cell (the 8 surrounding cells). The cell must be empty, or hold an amoeba *no bigger* than the one
#    you move: then you **eat** it, and the two piles merge.
#
# The game ends as soon as one player owns no amoeba. If the other player owns one, they win; otherwise it is a tie.
#
# > **Rules card**
# >
# > | | |
# > |---|---|
# > | amoeba `(a,b)` | `a` units of A, `b` of B; the bigger share owns it; `a = b` is **neutral** (nobody's) |
# > | your turn | 1. roll, add the roll to one amoeba you own · 2. move some or all of an amoeba you own one step (8 neighbours) |
# > | a move may land on | an empty cell, or an amoeba **no bigger** than what you move: they merge (you *eat* it) |
# > | the end | a player owns nothing: the other wins (or a tie if nobody owns anything) |
#
# **Four numbers** appear under every board. The paper calls them *advantages*; lessons 3 and 4 study them.
#
# - **σ** (sigma) counts the dice: σ<sub>A</sub> is the sum of everything A has rolled so far, σ<sub>B</sub> the same
#   for B. **δ = σ<sub>A</sub> − σ<sub>B</sub>** is A's lead in dice (*Advantage 1*). Only the dice change it.
# - **Σ** (capital sigma) counts the board: Σ<sub>A</sub> is the total size of the amoebae A owns, Σ<sub>B</sub> the same
#   for B. **Δ = Σ<sub>A</sub> − Σ<sub>B</sub>** is A's lead in size (*Advantage 2*). Eating and neutralising change it.
#
# Positive means A is ahead, negative means B is.

# %%
from amoeboid_edu import Game, Position, random_turn, seeded_rng

start = Position.start()
start

# %% [markdown]
# The picture is the board: each disc is an amoeba, its area is its size, the blue and orange slices are A's and
# B's shares, and the ring shows the owner (dashed grey: neutral). Under the board: whose turn it is, δ and Δ (both 0
# at the start: nobody has rolled or eaten yet).
#
# The same position in the course's text notation: rows from top to bottom, `.` for an empty cell, then the side
# to move. You can paste such a line into any lesson.

# %%
print(start)

# %% [markdown]
# ## Your first game, on the board
#
# You play A (blue) against the random bot, which plays B. Everything you need is on the board:
#
# 1. The die is rolled for you (the message says what you rolled). **Click one of your amoebae to grow it**; with
#    a single amoeba this happens by itself.
# 2. **Click the amoeba to move from**, then choose how many units move: the `+`/`−` buttons, or a one-click choice
#    (*whole*, *half*, or just enough to *eat* or *neutralise* a neighbour).
# 3. **Click a highlighted cell** to move there. The bot answers at once.
#
# *Undo* takes your turn back, *New game* starts another one. The board checks every click with the rules, and if
# a move is not allowed it tells you why. The line above the board shows σ, δ, Σ and Δ after every turn.

# %%
from amoeboid_edu.ui.widget import play

board = play("random", seed=2010)
board

# %% [markdown]
# When you have played a few turns, run the next cell: it prints your game as a record, one turn per line.

# %%
if len(board.game):
    print(board.game)
else:
    print("No turn played yet: play a few turns on the board above, then run this cell again.")

# %% [markdown]
# ## Other opponents
#
# `play` takes the opponent's name. Each line below starts a new board; run the one you want (they are all ready).
#
# - `play("greedy")`: a bot that always takes the turn with the best Δ right after it. Easy to trap?
# - `play("paper")`: the paper's own plan (its opening cases, then greedy). The strongest simple bot of the course.
# - `play("expectimax")`: a bot that looks two turns ahead, dice included (slower).
# - `play("random", human="B")`: you play B (orange) and the bot moves first.
# - `play("human")`: two players at one screen, taking turns.
# - `play(my_strategy)`: any function `my_strategy(position, roll, rng)` that returns a turn: your own bot.
#   Lesson 9 shows how to write one.
#
# **Play the greedy bot, then press Review.** Every board has a coach. *Hint* shows the three turns it likes best
# for your roll, with your win chance after each; click one to play it. When the game is over, *Review* draws your
# win chance turn by turn and marks each turn best, good, inaccuracy, mistake or blunder, so you can see where the
# game was won and lost (lesson 8 explains how the coach estimates a win chance).

# %%
play("greedy", seed=1)

# %%
play("paper", human="B", seed=1)

# %% [markdown]
# Your own strategy is a plain function. This one always grows its first amoeba and plays the first legal turn the
# engine lists: a weak bot, but yours. Change it, run the cell again, and play against it.

# %%
from amoeboid_edu import legal_turns


def first_turn(position, roll, rng):
    """Play the first legal turn of the list (the engine lists them in a fixed order)."""
    return next(legal_turns(position, roll))


play(first_turn, seed=1)

# %% [markdown]
# ## The same game, from code
#
# Everything the board does, code can do too; the rest of the course mostly uses code. A `Game` keeps the
# position, rolls its own seeded die and checks every turn you play. First roll the die:

# %%
game = Game(seed=2010)
roll = game.roll()
roll

# %% [markdown]
# A turn is written `ROLL GROW SRC-DST A,B`: the roll, the cell of the amoeba that grows, the move from one
# cell to a neighbour, and how many of A's and B's units move (leave it out to move the whole amoeba).
# These are all the legal turns for this roll:

# %%
for turn in game.legal_turns():
    print(turn)

# %% [markdown]
# Let us grow our amoeba on `a1` and move all of it one step right, to `b1`. The game answers with the new position.

# %%
game.play(f"{roll} a1 a1-b1")

# %% [markdown]
# Now the random bot plays for B. It is the engine's simplest strategy: it picks an amoeba to grow and a move at
# random. It gets its own seeded random generator, so its choices are the same every time you run the lesson.

# %%
bot_rng = seeded_rng(2010, "random bot")
game.play(random_turn(game.position, game.roll(), bot_rng))

# %% [markdown]
# An illegal turn is refused with a message that names the rule, and nothing changes:

# %%
try:
    game.play(f"{game.roll()} a1 a1-b1")
except ValueError as error:
    print(error)

# %% [markdown]
# Let both sides play randomly to the end, and look at the game record: one line per turn, A first.

# %%
game.play_random()
print(game)

# %%
game.position

# %% [markdown]
# **Try it:** change `seed=2010` above to another number and run the lesson again; or replace the bot's turn by
# one of yours. Lesson 2 explains every rule in detail.

# %% [markdown]
# ## How the course is organised
#
# | Lesson | What you do | Paper section |
# |---|---|---|
# | [1 Start here](01-start-here.ipynb) | play a first game | Rules |
# | [2 Rules and definitions](02-rules-and-definitions.ipynb) | amoeba, owner, turn, notation | Rules, Definitions |
# | [3 Advantage 1 (δ)](03-advantage-1-delta.ipynb) | claim, symmetry, unboundedness | Analysis, Advantage 1 |
# | [4 Advantage 2 (Δ)](04-advantage-2-size.ipynb) | the size difference, δ vs Δ in real games | Analysis, Advantage 2 |
# | [5 Opening Cases I and II](05-opening-cases-1-2.ipynb) | stalling, splitting, δ = 4, 5, 6 | Opening strategies |
# | [6 Case III: neutralisation](06-case-3-neutralisation.ipynb) | classroom demo | Case III |
# | [7 Case IV: the forced win](07-case-4-forced-win.ipynb) | replay the line, check the claim | Case IV |
# | [8 The paper's example game](08-example-game.ipynb) | replay it turn by turn | Pen and Paper with Example Game |
# | [9 Strategy lab](09-strategy-lab.ipynb) | write and score your own strategy | all of *Analysis* |
# | [10 Variants](10-variants.ipynb) | other boards, other neighbours | Set up |
# | [11 Three games called Amoeba](11-three-amoebas.ipynb) | Nakajima's and Oosterwal's namesakes, measured alike | — |
# | [12 Appendix: MCTS](12-appendix-mcts.ipynb) | OpenSpiel's MCTS against the paper's plan (optional extra) | — |
#
# The lessons build on each other, but each one runs on its own.
#
# ## Running the course
#
# - **On Binder** (nothing to install): {{binder_launch}} It starts JupyterLab on this lesson with everything
#   installed. Binder forgets your changes when you close the tab: download what you want to keep.
# - **On your machine** (Python 3.11 or newer): in a copy of the repository run `./dev.sh course`. It creates a
#   virtual environment, installs the package and opens this lesson in JupyterLab.
# - Everything works offline: the charts are drawn in the notebook itself.

# %% [markdown]
# ## Summary
#
# - Amoebae are piles of A's and B's units; the bigger share owns the amoeba, a tie makes it neutral.
# - A turn is *grow by the die roll*, then *move* part or all of an amoeba you own to a neighbouring cell,
#   eating an amoeba there if it is no bigger.
# - You lose when you own nothing. Next: [lesson 2](02-rules-and-definitions.ipynb) makes all of this precise.
