# %% [markdown]
# # Lesson 8: The paper's example game, replayed
#
# The paper ends (section *Pen and Paper with Example Game*) with a game the authors played, told in sentences and
# matrices. In this lesson you replay it on the board, check every matrix against the rules, follow δ and Δ through
# the game, and ask a search bot what it would have played instead.
#
# **Learning goals**
#
# - Turn a game told in prose into a checked game record, and replay it turn by turn.
# - Recognise Case III ideas (going to the centre, neutralising, eating) in a real game.
# - Compare human play with a search bot's choices, turn by turn, using Δ.

# %%
import altair as alt
import ipywidgets as widgets
import pandas as pd
from IPython.display import display

from amoeboid_edu import analysis, paper, seeded_rng
from amoeboid_edu.bots import expectimax
from amoeboid_edu.exercises import check
from amoeboid_edu.strategy import advantage_after
from amoeboid_edu.widget import Replay

# Charts are drawn as SVG in the kernel (vl-convert): they render offline and reproduce exactly.
_ = alt.renderers.enable("svg")

# %% [markdown]
# ## The game as a record
#
# Each sentence of the paper becomes one turn. The paper never says *how many* units move, so the record uses the
# counts that reproduce the paper's next matrix (the comments quote the paper):

# %%
print(paper.EXAMPLE_GAME)

# %% [markdown]
# `paper.example_game()` replays this record through the rules: an illegal turn would stop it with the turn number.
# Drag the slider (or use the arrows) to step through the game; under the board you see the paper's matrix for that
# moment whenever the paper prints one.

# %%
game = paper.example_game()
replay = Replay(game)
matrices = dict(paper.EXAMPLE_MATRICES)
paper_matrix = widgets.Label()


def show_paper_matrix(_change=None):
    """Under the board: the paper's matrix after this turn, if it prints one."""
    printed = matrices.get(replay.ply)
    paper_matrix.value = f"The paper's matrix after turn {replay.ply}: {printed}" if printed else "(no matrix here)"


replay.observe(show_paper_matrix, names="view")
show_paper_matrix()
display(replay, paper_matrix)

# %% [markdown]
# From code, `replay.seek(n)` shows the position after turn n. Every printed matrix equals the replayed position:

# %%
check_game = paper.example_game_check()
check_game

# %%
check_game.evidence

# %% [markdown]
# ## δ and Δ through the game
#
# The circled points are eats and neutralisations. Player 1 (A) walks around the edge until δ = 5, then "makes a
# risky move to the center" (turn 5): exactly the situation of Case II with δ = 5 (lesson 5). B splits, A eats half,
# and from then on A plays Case III: neutralise while Δ is large (turns 11 and 13), eat when it is not (turn 15).

# %%
frame = analysis.game_frame(game)
analysis.delta_chart(frame, title="The paper's example game")

# %% [markdown]
# **Exercise 1.** After which turn does B have advantage 2 (Δ < 0) for the only time in the game?

# %%
my_answer = ...
check(my_answer, int(frame.loc[frame["Delta"] < 0, "turn"].iloc[0]), hint="look for the orange line below zero")

# %% [markdown]
# ## What would a search bot have played?
#
# The strategy lab's `expectimax` bot looks two turns ahead: its own turn, then every roll of the opponent (a chance
# node weighted 1/6) and the opponent's best reply. For every position of the game we ask it for its turn with the
# same roll, and compare Δ after its turn with Δ after the paper's (both from the mover's side).

# %%
rows = []
for number, (turn, before) in enumerate(zip(game.turns, game.positions), start=1):
    choice = expectimax(before, turn.roll, seeded_rng(2010, "example-game", number))
    rows.append({
        "turn": number,
        "player": before.to_move,
        "paper played": str(turn),
        "expectimax": str(choice),
        "same": choice == turn,
        "Δ after paper's": advantage_after(before, turn)[1],
        "Δ after expectimax's": advantage_after(before, choice)[1],
    })
comparison = pd.DataFrame(rows)
comparison

# %% [markdown]
# Read the table turn by turn. The bot agrees with the authors on most of the opening and on A's first eat
# (turn 7). At turn 5, the paper's "risky move to the center", the bot stays on the edge instead. At turns 11 and 13,
# where the authors neutralise, the bot *captures*: at turn 11 it moves 8 units onto B's `(0,7)` and owns the result;
# at turn 13 it pours most of its centre amoeba onto the neutral `(8,8)`. Measured by Δ right after the turn, the bot's turns
# for A are never worse than the paper's and often much better; but Δ is not all it weighs: it also counts how exposed
# its amoebae are to B's next roll. Whether capturing beats neutralising in the long run is exactly the kind of
# question lesson 9 lets you settle by playing many games.

# %%
print(f"the bot agrees with the paper on {comparison['same'].sum()} of {len(comparison)} turns")

# %% [markdown]
# ## Summary
#
# - The paper's example game is legal turn by turn and reproduces all nine printed matrices; A wins on turn 17.
# - Its δ/Δ chart shows the paper's opening cases at work: stall, go to the centre with δ = 5, then neutralise and eat.
# - A two-ply search bot agrees with the authors on some turns and not others; comparing Δ after each choice is how
#   lesson 9 will score your own strategy. Next: [lesson 9](09-strategy-lab.ipynb).
