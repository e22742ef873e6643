# %% [markdown]
# # Lesson 11: Three games called Amoeba
#
# Amoeboid is not the only game with that name. Masahiro Nakajima's *Amoeba* (2010) is a stacking game for two on a
# hexagonal board, with no dice. Erik Oosterwal's *Amoeba* (2009) is a placement game for 2 to 6 players on a board
# that grows every turn, scored by points. All three share a name and nothing else, and that makes them a good
# comparison: three kinds of game, measured with the same tools.
#
# **Learning goals**
#
# - Play Nakajima's and Oosterwal's games and state their rules next to Amoeboid's.
# - Measure a game the same way for all three: chance or none, moves per turn (branching), game length,
#   the first player's advantage (with a Wilson interval), draws and repetitions.
# - Argue which of the three a computer could solve first, from the numbers.

# %%
import altair as alt
import pandas as pd

from amoeboid_edu import Position as AmoeboidPosition
from amoeboid_edu.ui.exercises import check
from amoeboid_edu.theory import namesakes_compare as compare
from amoeboid_edu.namesakes import nakajima, oosterwal
from amoeboid_edu.namesakes.widget import NakajimaBoard, OosterwalBoard

_ = alt.renderers.enable("amoeboid")  # charts drawn in the kernel as SVG: offline, reproducible, light and dark

# %% [markdown]
# ## The rules side by side
#
# | | Amoeboid (Dabdoub and Cuellar) | Nakajima's Amoeba (2010) | Oosterwal's Amoeba (2009) |
# |---|---|---|---|
# | players | 2 | 2 | 2 to 6 |
# | board | a 3×3 grid (any graph) | 37 points in a hexagon | chips in hex packing, one more every turn |
# | chance | a die roll every turn | none | none |
# | a turn | grow an amoeba by the roll, then move some or all of it | move a stack you control (your piece on top) exactly as far as it is tall, or *sow* it one piece per point | place a pyramid (1-3 pips) on an empty chip and score it, then add a chip touching two chips |
# | goal | be the last player owning an amoeba | control the stack holding the enemy kernel, or leave the enemy without a move | the most points when every pyramid is placed; equal totals share the win |
# | draw | both eliminated at once | a position seen three times: more stacks wins, equal stacks draw\* | equal highest totals |
#
# \* The designer's page also lets the stack count decide when "there is no effective hand to control both Kernels".
# The engine does not implement that ending, because a program cannot check it: read as "no move now takes a kernel"
# it is true at the start and would end every game at once; read as "no one can ever take a kernel" it needs a search
# of every position the game can still reach; and the page leaves it to the players, who "offer the final" to each
# other. Such a game goes on until a position is seen three times, or until a safety cap of 300 plies (not in the
# rules) that is also decided by the stack count.
#
# The notation of both new games, and each reading we made where the texts are silent, is in
# `docs/namesakes-notation.md`.

# %%
AmoeboidPosition.start()

# %% [markdown]
# Nakajima's start: Black's ten discs and kernel (the gold ring) at the top, White's at the bottom. White moves first.

# %%
nakajima.Position.start()

# %% [markdown]
# ## Nakajima's game: move or sow
#
# A stack of height *h* travels exactly *h* points along one of the three lines, jumping over whatever is between,
# and lands on top. *Sowing* drops the bottom piece on the first point, the next on the second, and the top one on
# the last. Below, White stacks two discs on `d2` (`e1-d2`, then `e2-d2`) and sows that stack of two back down the
# line (`d2~f2`: one disc on `e2`, one on `f2`). For a stack of one, moving and sowing are the same move, so the engine
# lists it once.

# %%
position = nakajima.Position.start()
for move in ["e1-d2", "a1-b1", "e2-d2", "b1-a1", "d2~f2"]:
    position = nakajima.apply(position, move)
print(position)
position

# %% [markdown]
# **Exercise 1.** How many legal moves does White have in the starting position? (Ten single discs and a kernel, each
# with up to six neighbours, minus those that leave the board.)

# %%
my_answer = ...  # solution: 52
check(my_answer, len(list(nakajima.legal_moves(nakajima.Position.start()))), hint="count the edge discs' missing neighbours")

# %% [markdown]
# Counting every sequence of moves to a given depth is called *perft*: a number other programs can check theirs
# against. The course's tests check it with a second, independent move generator; depth 3 gives 138,506 and depth 4
# 7,079,544. Depth 4 takes about 2 seconds of CPU time on the machine that builds the course: try it in a new cell.

# %%
{depth: nakajima.perft(nakajima.Position.start(), depth) for depth in (1, 2)}

# %% [markdown]
# ## Oosterwal's game: scoring runs
#
# A new pyramid scores its pips times *S*, where *S* adds the pips of each unbroken straight run of your own colour
# that starts next to it, in all six directions; with no own pyramid next to it, it scores just its pips. Here is the
# third example of the rules (X is player A, Y is B): X places a 3-pip pyramid on the empty chip at the bottom right.

# %%
example = oosterwal.Position.parse(
    "A:0 B:0 | o@6,0 B3@3,1 B2@5,1 B3@7,1 A3@2,2 B1@4,2 B1@6,2 B1@8,2 o@1,3 A1@3,3 B2@5,3 A1@7,3 "
    "B1@0,4 A2@2,4 A3@4,4 A1@6,4 A3@1,5 A2@3,5 o@5,5 | A"
)
print("S =", example.multiplier((5, 5), 0), " score =", example.score((5, 5), 3))
example

# %% [markdown]
# **Exercise 2.** The top chip (`6,0`) is where Y threatens a big score. What is Y's multiplier *S* there?

# %%
my_answer = ...  # solution: 7
check(my_answer, example.multiplier((6, 0), 1), hint="follow Y's two diagonal runs down from the top chip")

# %% [markdown]
# ## Play them
#
# Click a stack with your piece on top, then where it goes; *Sow* switches from moving to sowing. In Oosterwal's
# game choose the pyramid's size, click an empty chip, then click one of the dashed spots for the new chip. Both
# boards play against the `greedy` bot here; try `opponent="alphabeta"` (Nakajima), `opponent="maxn"` (Oosterwal),
# `opponent="human"` for two players at one screen, or `OosterwalBoard(4, ...)` for four players. *Undo* takes back
# your move and the bot's reply.

# %%
NakajimaBoard(opponent="greedy", seed=11)

# %%
OosterwalBoard(2, opponent="greedy", seed=11)

# %% [markdown]
# ## Measuring the three games the same way
#
# We let random players play 60 seeded games of each (Amoeboid on 3×3, Oosterwal with two players) and record, at
# every ply, how many legal moves there were, and at the end how long the game was and who won. Random players
# are not good players: these numbers describe the games' *shape*, not expert play.

# %%
plies, games = compare.self_play(60, seed=11)
table = compare.summary(plies, games)
table.set_index("game").T  # one column per game: the table fits a narrow window

# %% [markdown]
# **Chance vs none.** In Amoeboid the moves you may choose from depend on the die: the same position offers a
# different set of turns for each roll. In the other two games the position alone decides.

# %%
start = AmoeboidPosition.start()
{roll: start.count_legal_turns(roll) for roll in range(1, 7)}

# %% [markdown]
# **Branching over a game.** The median number of legal moves at each ply. Amoeboid's amoebae grow with every roll
# and can be split in many ways, so its count climbs into the tens of thousands; Nakajima's slowly falls from about
# fifty (taller stacks have fewer directions); Oosterwal's is placements × chip spots, and grows with the board's rim.

# %%
compare.branching_chart(plies)

# %% [markdown]
# **Game length.** Oosterwal's game always lasts exactly 15 turns per player. The other two end when someone is
# captured, which random players take very different times to do.

# %%
compare.length_chart(games)

# %% [markdown]
# **The first player's advantage.** Each bar is the share of games the first player won, the thin line across its
# end the 95% Wilson interval, the dashed line 1/2: an interval that contains 1/2 means 60 games cannot tell an
# advantage from luck.

# %%
compare.first_player_chart(games)

# %% [markdown]
# Read from the same table as the chart:

# %%
for row in table.itertuples():
    verdict = "cannot tell an advantage from luck" if row.ci_low <= 0.5 <= row.ci_high else (
        "the first player has the advantage" if row.ci_low > 0.5 else "the second player has the advantage")
    print(f"{row.game:10} first player won {row.first_rate:.2f} (95% interval {row.ci_low:.2f} to {row.ci_high:.2f}):"
          f" {verdict}")

# %% [markdown]
# Better players change the picture. The `greedy` bots of the two namesakes (Nakajima: take a kernel if you can,
# else keep the most stacks; Oosterwal: the highest-scoring placement) play 30 games each:

# %%
greedy_plies, greedy_games = compare.self_play(30, seed=11, bot="greedy", only=("Nakajima", "Oosterwal"))
greedy_table = compare.summary(greedy_plies, greedy_games)
columns = ["game", "mean_plies", "first_wins", "games", "first_rate", "ci_low", "ci_high", "draws"]
greedy_table[columns].set_index("game").T

# %% [markdown]
# **Draws and repetitions.** How each game ended, for both kinds of player. A threefold repetition in Nakajima's game
# would show as `repetition`; a tie in Oosterwal's as `shared win`.

# %%
endings = pd.concat([games, greedy_games]).groupby(["game", "players", "ended_by"]).size()
endings.rename("games").reset_index()

# %% [markdown]
# ## Which game would you rather solve by computer?
#
# Solving a game means knowing the result of perfect play from the start. A computer searches the game tree, and the
# size of that tree is roughly the product of the branching factors along a game (the `log10_tree` row: the
# number of digits). Chance makes it worse: every die roll multiplies the tree by six, and the solver must average
# over the rolls instead of picking the best reply.
#
# **Exercise 3.** Which of the three games has the smallest estimated game tree (`log10_tree`)? Answer with its name,
# e.g. `"Nakajima"`.

# %%
my_answer = ...  # solution: "Oosterwal"
smallest = table.sort_values("log10_tree").iloc[0]["game"]
check(my_answer, smallest, hint="read the log10_tree row of the table above", why="Fewer digits, a smaller tree.")

# %% [markdown]
# **Exercise 4 (discuss).** Which game would *you* rather solve by computer, and why? Weigh the tree size against
# the other things you measured: Amoeboid's dice (a solver must average over rolls), Oosterwal's scores for up to six
# players (there is no single "opponent" to minimise against: our `maxn` bot assumes each player maximises its own
# lead) and Nakajima's repetitions (a solver must remember the positions seen). Write two sentences in a markdown
# cell below.

# %% [markdown]
# ## Summary
#
# - Three games share a name: Amoeboid has dice, Nakajima's and Oosterwal's games have none.
# - The same measurements (branching, length, first-player rate with its interval, how games end) describe all
#   three, and the numbers, not the names, tell you which game a computer could solve first.
