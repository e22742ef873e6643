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
from IPython.display import Markdown

from amoeboid_edu.theory import analysis, paper
from amoeboid_edu import seeded_rng
from amoeboid_edu.players.bots import expectimax
from amoeboid_edu.engine.examples import PAPER_EXAMPLE_MATRICES, PAPER_EXAMPLE_RECORD
from amoeboid_edu.ui.exercises import check
from amoeboid_edu.players.strategy import advantage_after
from amoeboid_edu.ui.widget import Column, Replay, explore

# Charts are drawn as SVG in the kernel where vl-convert is installed (offline, exact), else by vega-embed in the page.
_ = alt.renderers.enable("amoeboid")  # charts drawn in the kernel as SVG: offline, reproducible, light and dark

# %% [markdown]
# ## The game as a record
#
# Each sentence of the paper becomes one turn. The paper never says *how many* units move, so the record uses the
# counts that reproduce the paper's next matrix (the comments quote the paper):

# %%
print(PAPER_EXAMPLE_RECORD)

# %% [markdown]
# `paper.example_game()` replays this record through the rules: an illegal turn would stop it with the turn number.
# Drag the slider (or use the arrows) to step through the game; under the board you see the paper's matrix for that
# moment whenever the paper prints one.

# %%
game = paper.example_game()
replay = Replay(game)
matrices = dict(PAPER_EXAMPLE_MATRICES)
paper_matrix = widgets.Label()


def show_paper_matrix(_change=None):
    """Under the board: the paper's matrix after this turn, if it prints one."""
    printed = matrices.get(replay.ply)
    paper_matrix.value = f"The paper's matrix after turn {replay.ply}: {printed}" if printed else "(no matrix here)"


replay.observe(show_paper_matrix, names="view")
show_paper_matrix()
Column([replay, paper_matrix])  # the board with the matrix under it

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
# and from then on A plays Case III: neutralise while Δ is large, eat when it is not (the turns are listed below).

# %%
frame = analysis.game_frame(game)
events = frame[frame["event"].isin(["eat", "neutralise"])]
Markdown("Eats and neutralisations: " + "; ".join(f"turn {row.turn} ({row.player}) {row.event}s"
                                                 for row in events.itertuples()))

# %%
analysis.delta_chart(frame, title="The paper's example game")

# %% [markdown]
# **Exercise 1.** After which turn does B have advantage 2 (Δ < 0) for the only time in the game?

# %%
my_answer = ...  # solution: 16
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
# at turn 13 it captures the neutral `(8,8)` (how much of its centre amoeba it moves is printed below the
# table). Measured by Δ right after the turn, the
# bot's turns for A are never worse than the paper's and often much better; but Δ is not all it weighs: it also
# counts how exposed its amoebae are to B's next roll. Whether capturing beats neutralising in the long run is
# exactly the kind of question lesson 9 lets you settle by playing many games.

# %%
print(f"the bot agrees with the paper on {comparison['same'].sum()} of {len(comparison)} turns")
bot_13 = expectimax(game.positions[12], game.turns[12].roll, seeded_rng(2010, "example-game", 13))  # as in the table
centre_13 = game.positions[12][bot_13.src] if bot_13.src else None
if centre_13 is not None:
    grown = centre_13.size + (bot_13.roll if bot_13.grow == bot_13.src else 0)  # the roll grows it first
    moved = grown if bot_13.a is None or bot_13.b is None else bot_13.a + bot_13.b
    print(f"turn 13, the bot: {bot_13}: it moves {moved} of the {grown} units on {bot_13.src}"
          + (" (the whole amoeba)" if moved == grown else ""))

# %% [markdown]
# ## The coach reviews the paper's game
#
# Chess players get a *review* after a game: the advantage curve, and every inaccuracy, mistake and blunder with a
# better move. `coach.review(game)` does the same for Amoeboid. Read its numbers carefully:
#
# - **Win chance** is A's chance to win (a tie counts half) *if both sides went on playing a simple fixed way*: like
#   the greedy bot for two turns, then at random. It is measured by playing many seeded games from the position, so
#   it can be a few points off; how many games and how far off is in `help(coach)`. It says how good a position is
#   for that way of playing, not for perfect play.
# - For every turn the review gives the mover's chance **before the roll**, **after the roll** (if the mover now
#   played greedy's turn for that roll) and **after the turn played**; the last two value the position after a turn
#   the same way (the reply greedy, then random). **Luck** is after the roll minus before: over the six rolls it
#   averages exactly zero, so a roll is lucky only when it is better than the average roll. **Choice** is after the
#   turn minus after the roll: how the turn played compares with greedy's. Greedy is a weak player, and that shows:
#   when greedy would blunder with a roll (step next to a bigger enemy amoeba, say), the roll counts as unlucky and
#   any sensible turn as a good choice.
# - The **class** is the drop from the best turn found (among the turn played and greedy's 3 most promising turns,
#   valued the same way) to the turn played: *best* (under 2 points: the best found, or as good as the estimates can
#   tell), *good* (under 5 points), *inaccuracy* (under 10), *mistake* (under 20), *blunder* (20 or more); a turn
#   with no choice is *forced*. Each side's **accuracy** averages lichess's formula over its turns (100 = always the
#   best found). Two estimates of 385 games differ by up to about 7 points by chance alone (about 5 when both are
#   played on the same dice, as the coach plays them), so when a drop is that close to a class line the coach plays
#   twice as many games, again and again up to 16 times as many, for the turns that decide it: a class then rarely
#   depends on the rollouts' seed.

# %%
from amoeboid_edu.theory import coach

example_review = coach.review(game, seed=2010)
example_review

# %%
columns = ["turn", "player", "played", "class", "best", "win_before", "win_after_roll", "win_after", "drop", "luck",
           "choice"]
example_review.frame[columns].round(2)

# %% [markdown]
# The chart shows A's win chance at the start of every turn (and the result at the end): the same chart the board
# draws when you press Review. Each turn's step of the curve is drawn in three parts: the dice's swing (dashed
# grey), the choice's swing (solid blue) and a third part, the *horizon* (dotted), which is neither: the start of
# the next turn values the same position with the greedy turns counted afresh, one turn further than "after the
# turn" looked. The three parts add up to the step. The big dots are inaccuracies, mistakes and blunders.
#
# Where the curve touches 100% at the start of B's turns 8, 10, 12 and 14, A has not won yet: these values are exact,
# and they say that greedy, playing B from there, would lose with every roll (it steps next to A's bigger amoeba).
# The paper's B does better, which the review books as B's choice (the solid blue parts going down, in A's terms).

# %%
example_review.chart(title="The paper's example game, reviewed")

# %% [markdown]
# The chart is a picture: its marks cannot be clicked. To see a position, pick a turn here and the board jumps to the
# position after it:

# %%
explore(example_review)

# %% [markdown]
# **Does the paper agree?** Next to every turn the review flags, here is the paper's own sentence for it:

# %%
comments = [line.split("#", 1)[1].strip() for line in PAPER_EXAMPLE_RECORD.splitlines() if line[:1].isdigit()]
flagged = example_review.mistakes()[["turn", "player", "played", "class", "best", "drop"]].round(2)
flagged.assign(paper_says=[comments[turn - 1] for turn in flagged["turn"]])

# %% [markdown]
# The paper calls one move "risky": A's walk to the centre at turn 5. The review flags it too: in the centre A's
# `(9,0)` sits next to B's `(0,4)`, which reaches it with a roll of 5 (a neutral `(9,9)`: nobody owns an amoeba, a
# tie) or 6 (an eat: B wins), while a step along the edge keeps it out of reach. The review also flags a turn the
# paper passes over in silence: at turn 16 B eats A's centre amoeba with all 9 units, leaving nothing else of its own
# on the board; eating with 8 keeps one unit on `a3`, so A's eat on the next turn would no longer end the game.
#
# How big is each drop? It depends a little on the rollouts' dice. The cell below reviews the game again under a few
# more seeds and writes, for every turn flagged under any of them, who played it and the range of its drops; a flag
# that comes and goes with the seed is at the edge of the noise.

# %%
sweep = {2010: example_review.frame.set_index("turn")}  # the review above, and two more seeds
sweep.update({seed: coach.review(game, seed=seed).frame.set_index("turn") for seed in (0, 1)})
sweep_seeds = tuple(sweep)
flag_rows = []
for number in sorted({turn for frame in sweep.values() for turn in frame.index[frame["class"].isin(coach.MISTAKES)]}):
    drops = [100 * float(sweep[seed].loc[number, "drop"]) for seed in sweep_seeds]
    flagged_under = sum(sweep[seed].loc[number, "class"] in coach.MISTAKES for seed in sweep_seeds)
    flag_rows.append(f"- turn {number} ({sweep[2010].loc[number, 'player']}'s): a drop of {min(drops):.0f} to "
                     f"{max(drops):.0f} points, flagged under {flagged_under} of {len(sweep_seeds)} seeds "
                     f"({', '.join(sorted({str(sweep[seed].loc[number, 'class']) for seed in sweep_seeds}))})")
Markdown(f"Over the seeds {', '.join(map(str, sweep_seeds))}:\n\n" + "\n".join(flag_rows))

# %%
risky = [number for number, comment in enumerate(comments, start=1) if "risky" in comment]
print(f"the paper calls turn(s) {risky} risky; the review flags turn(s) {list(flagged['turn'])}")

# %% [markdown]
# **Your turn.** Play the greedy bot (you are A), then press **Review** when the game is over. Press **Hint** during
# the game to see the coach's three best turns for your roll, drawn as arrows; click one to play it.

# %%
from amoeboid_edu.ui.widget import play

play("greedy", seed=8)

# %% [markdown]
# ## Summary
#
# - The paper's example game is legal turn by turn and reproduces all nine printed matrices; A wins on turn 17.
# - Its δ/Δ chart shows the paper's opening cases at work: stall, go to the centre with δ = 5, then neutralise and eat.
# - A two-ply search bot agrees with the authors on some turns and not others; comparing Δ after each choice is how
#   lesson 9 will score your own strategy. Next: [lesson 9](09-strategy-lab.ipynb).
# - The coach's review puts a number on each turn: it flags the move to the centre on turn 5, which the paper calls
#   risky, and it tells the luck of the dice apart from the choice of move.
