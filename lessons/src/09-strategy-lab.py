# %% [markdown]
# # Lesson 9: The strategy lab
#
# Everything so far was about *understanding* positions. Now you write a player. A **strategy** is a Python function
# `strategy(position, roll, rng)` that returns a turn: the lab plays it against the baseline bots, many times, with
# fair dice, and shows a score card. The paper's *Analysis* is full of advice (stall, take the centre, neutralise);
# here you turn that advice into code and measure it.
#
# **Learning goals**
#
# - Write a strategy with the helpers of `amoeboid_edu.players.strategy`, and score it against the baseline bots.
# - Read a score card: win rates with 95% intervals, and why the dice are *paired*.
# - Grow a strategy step by step from the paper's opening cases (stalling, centre control, neutralising) and run a
#   tournament between the steps.

# %%
import altair as alt

from amoeboid_edu import Position, apply, other, seeded_rng
from amoeboid_edu.ui import charts
from amoeboid_edu.theory import coach
from amoeboid_edu.players.bots import greedy
from amoeboid_edu.ui.exercises import check
from amoeboid_edu.lab import compare, score, tournament
from amoeboid_edu.players.strategy import candidate_turns, neighbours
from amoeboid_edu.ui.widget import Replay

_ = alt.renderers.enable("amoeboid")  # charts drawn in the kernel as SVG (amoeboid_edu.ui.charts): offline, reproducible
rng = seeded_rng(9, "lesson 9 checks")  # the random generator the checks below hand to a strategy

# %% [markdown]
# ## What a strategy sees
#
# The lab calls your function with the position (you are `position.to_move`), your roll, and a seeded random
# generator `rng` of your own. You return a turn, as a `Turn` or as notation text. `candidate_turns(position, roll)`
# gives the *meaningful* legal turns one by one (whole amoeba, half, just enough to eat, capture or neutralise), so
# you never have to enumerate every split: loop over them, or `list(...)` them to pick one with `rng.choice`. The baseline bots: `random`, `greedy` (best Δ after its turn), `paper` (the paper's
# opening cases, then greedy) and `expectimax` (a two-turn search).

# %%
position = Position.parse("(5,0) . . / . . . / . . (0,3) A")
for turn in candidate_turns(position, 2):
    print(turn)

# %% [markdown]
# ## Growing a strategy from the paper
#
# Each step adds one rule from the paper on top of the previous step, and falls back to the `greedy` bot.
#
# **Step 1: stalling (Case I).** In the opening (one amoeba each), move the whole amoeba to an empty cell that no
# enemy amoeba touches.

# %%
def touches_enemy(position, cell):
    """Whether an amoeba of the opponent is next to ``cell``."""
    enemy = other(position.to_move)
    return any(position[n] is not None and position[n].owner == enemy for n in neighbours(position, cell))


def whole_moves(position, roll):
    """The candidate turns that grow an amoeba and move all of it."""
    for turn in candidate_turns(position, roll):
        if not turn.is_pass and turn.src == turn.grow and turn.a + turn.b == position[turn.src].size + roll:
            yield turn


def stalling(position, roll, rng):
    """Step 1 (paper, Case I): in the opening, step to a cell no enemy touches; otherwise play greedy."""
    if len(position.amoebae()) == 2:
        for turn in whole_moves(position, roll):
            if position[turn.dst] is None and not touches_enemy(position, turn.dst):
                return turn
    return greedy(position, roll, rng)


turn = stalling(position, 2, rng)
check(touches_enemy(position, turn.dst), False, hint="the stall must not end next to B",
      why=f"{turn} ends on {turn.dst}, away from B.")

# %% [markdown]
# **Step 2: centre control (Case III).** With a lead in dice of more than 6 (after your roll), take the centre `b2`
# with the whole amoeba; otherwise stall.

# %%
def centre_control(position, roll, rng):
    """Step 2 (paper, Case III): in the opening with delta > 6 after the roll, move to the centre; else stall."""
    lead = (position.delta if position.to_move == "A" else -position.delta) + roll
    if len(position.amoebae()) == 2 and lead > 6:
        for turn in whole_moves(position, roll):
            if turn.dst == "b2":
                return turn
    return stalling(position, roll, rng)


case_III = Position.parse("(14,0) . . / . . . / . . (0,5) A")
check(centre_control(case_III, 3, rng).dst, "b2", hint="δ = 9 here: Case III says take the centre")

# %% [markdown]
# **Step 3: neutralising (Case III).** While Δ > 6, answer every enemy amoeba next to you by neutralising it with
# exactly its size; otherwise play step 2.

# %%
def neutraliser(position, roll, rng):
    """Step 3 (paper, Case III): with Delta > 6, neutralise an enemy amoeba next to yours; else step 2."""
    lead = position.Delta if position.to_move == "A" else -position.Delta
    if lead > 6:
        for turn in candidate_turns(position, roll):
            target = None if turn.is_pass else position[turn.dst]
            if target is None or target.owner != other(position.to_move):
                continue
            if apply(position, turn)[turn.dst].is_neutral:
                return turn
    return centre_control(position, roll, rng)


after_split = Position.parse(". . . / . (20,0) (0,4) / . . (0,5) A")
turn = neutraliser(after_split, 3, rng)
check(apply(after_split, turn)[turn.dst].is_neutral, True, hint="move exactly as many units as the enemy amoeba holds",
      why=f"{turn} leaves {apply(after_split, turn)[turn.dst]} on {turn.dst}.")

# %% [markdown]
# ## ✎ Your strategy
#
# **This is your cell.** It starts as step 3; change it, then run the cells below to score it. Ideas: the paper's
# second Case III branch (when Δ is no longer above 6, *eat* one of the enemy's split amoebae; the helper
# `smallest_capture` from `amoeboid_edu.players.strategy` gives the counts), or avoid moving next to an amoeba that could grow
# bigger than yours.

# %%
def my_strategy(position, roll, rng):
    """My strategy: for now, step 3 of the paper's plan."""
    return neutraliser(position, roll, rng)


# %% solution
def my_strategy(position, roll, rng):
    """My strategy: step 3 of the paper's plan, and the centre with δ = 6 too (lesson 5)."""
    lead = (position.delta if position.to_move == "A" else -position.delta) + roll
    if len(position.amoebae()) == 2 and lead >= 6:
        for turn in whole_moves(position, roll):
            if turn.dst == "b2":
                return turn
    return neutraliser(position, roll, rng)

# %% [markdown]
# **Exercise.** Lesson 5 showed that with δ = 6 after your roll, after moving to the centre A cannot lose on B's next
# turn (B can at best tie, with a 6) and gains at least half of B's units with probability 5/6 (the paper's "A is never
# going to lose", about the whole game, is not tested). Steps 2 and 3 only take the centre with δ > 6. Make `my_strategy` take the
# centre with δ = 6 too, then run the check below. It says "✎ your turn" until `my_strategy` plays differently from
# step 3 here, and if your code raises, it shows the line.

# %%
case_II = Position.parse("(6,0) . . / . . . / . . (0,1) A")  # δ = 5, and A rolls 1
check(lambda: my_strategy(case_II, 1, rng), "1 a1 a1-b2", position=case_II, unanswered=neutraliser(case_II, 1, rng),
      code=my_strategy, starting="return neutraliser(position, roll, rng)",
      hint="with δ = 6 after the roll, move the whole amoeba to b2")

# %% [markdown]
# ## The score card
#
# `score` plays your strategy against each opponent. Each dice seed is played **twice with the seats swapped**, so
# both sides meet exactly the same luck (like duplicate bridge); your strategy runs in a separate process, so a bug
# or an endless loop costs a game, not your notebook. The card first says in words what the games show: "beats
# greedy", "loses to paper", or "too close to call" when the difference could be luck. It counts the dice pairs your
# strategy won (both games together) against those it lost. Win rates come with 95% intervals. More games tell
# closer strategies apart: `score(my_strategy)` plays 200 games against each of the fast bots `random`, `greedy` and
# `paper`. Add the two-turn search with `opponents=["random", "greedy", "paper", "expectimax"]` (much slower: the
# progress bar shows the time left).

# %% tags=["nbval-ignore-output"]
# (the progress bar shows only when scoring takes over a second, so this cell's output depends on the machine)
card = score(my_strategy, games=16, seed=9)

# %%
card

# %% [markdown]
# ### Did my change help?
#
# Opponents can be strategies too: `compare(new, old)` plays your new version against the old one on paired dice,
# and `score(my_strategy, opponents=[neutraliser, "greedy"])` plays both at once. Two versions that play the same on
# almost every position split almost every dice pair evenly, so only the pairs where they play differently count.

# %% tags=["nbval-ignore-output"]
# (the progress bar shows only when scoring takes over a second, so this cell's output depends on the machine)
change = compare(my_strategy, neutraliser, games=16, seed=9)

# %%
change

# %% [markdown]
# ### Watch your games
#
# The card keeps every game. `card.games()` lists them (numbered), `card.worst_losses()` picks your quickest defeats,
# and `card.game(i)` is game *i* as a `Game`: step through it with `Replay`, or let the coach review every turn with
# `coach.review` (as in lesson 8). `card.replay(i, my_strategy)` plays the same game again here, with the same dice,
# so you can add a `print` to your strategy and watch it decide.

# %%
card.worst_losses(3)

# %%
worst = int(card.worst_losses(1)["game"].iloc[0]) if len(card.worst_losses(1)) else 0
Replay(card.game(worst))

# %%
print(coach.review(card.game(worst), seed=9).summary())  # the coach's own rollouts: classes that hold (lesson 8)

# %% [markdown]
# ### When your strategy has a bug
#
# A strategy that raises loses that game (a *forfeit*). If it fails the same way 5 games in a row, `score` stops
# early and says what to fix first, with the line of your code that raised. Here `distance` was never defined:

# %%
def buggy(position, roll, rng):
    """Move towards the centre... with a typo: there is no function `distance`."""
    return min(candidate_turns(position, roll), key=lambda turn: distance(turn.dst, "b2"))

# %% tags=["nbval-ignore-output"]
# (the progress bar shows only when scoring takes over a second, so this cell's output depends on the machine)
buggy_card = score(buggy, games=16, seed=9)

# %%
buggy_card

# %% [markdown]
# ## A tournament of the steps
#
# Every pair of strategies plays the same number of paired games; the table ranks them by rating (a Bradley–Terry
# fit of every result, on the Elo scale), and shows each win rate with its interval too. When two players' rating
# intervals or win-rate intervals overlap, the column `could_be` shows the ranks each could have had (say `2-4`):
# their order may be luck.

# %% tags=["nbval-ignore-output"]
# (a progress bar shows while the games are played, so this cell's output depends on the machine)
result = tournament([stalling, centre_control, neutraliser, my_strategy, "greedy", "paper"], games=8, seed=9)

# %%
result

# %%
result.chart()

# %% [markdown]
# How long were the games, and how many did the lab stop at its turn cap (counted as ties)? The table above has no
# length column; this one does, in the table's order:

# %%
from IPython.display import Markdown

games_played = result.to_frame().groupby("player", as_index=False)
per_player = games_played.agg(mean_turns=("turns", "mean"), capped=("capped", "sum"))
lengths = result.table()[["rank", "player", "win_rate"]].merge(per_player)
lengths.round({"win_rate": 2, "mean_turns": 0})

# %% [markdown]
# Read the tables from the bottom. Stalling never attacks, so its games last until somebody else does, or until the
# lab stops them. Taking the centre changes little on its own, because the opening rarely reaches δ > 6 before
# someone attacks. Neutralising is what makes the plan competitive. The `paper` bot adds the rest of the paper
# (Cases II and IV, captures). Where each ended up in *this* run, written by the computation:

# %%
def place(name: str) -> str:
    row = lengths[lengths["player"] == name].iloc[0]
    return f"`{name}` ranks **{row['rank']} of {len(lengths)}** ({row['mean_turns']:.0f} turns a game on average)"


longest = lengths.sort_values(["mean_turns", "rank"], ascending=[False, True]).iloc[0]
# the rank follows the rating, where a tie counts half a win; win_rate counts wins only
above = [(high, low) for _, high in lengths.iterrows() for _, low in lengths.iterrows()
         if high["rank"] < low["rank"] and high["win_rate"] < low["win_rate"]]
ties = (f"`{above[0][0]['player']}` ranks above `{above[0][1]['player']}` with a lower win rate "
        f"({above[0][0]['win_rate']:.3f} against {above[0][1]['win_rate']:.3f}): ties count half in the rating, "
        "and not at all in the win rate." if above else
        "Ties count half in the rating (and so in the rank), and not at all in the win rate.")
Markdown(f"In this run {place('paper')}, and {place('stalling')}. The longest games are "
         f"`{longest['player']}`'s, {longest['mean_turns']:.0f} turns on average, {longest['capped']} of them "
         f"stopped at the cap. {ties}")

# %% [markdown]
# With 8 games per pairing the intervals are wide: strategies whose intervals overlap may swap places with another
# seed. Play more games before you believe a small difference, and remember that a strategy tuned against one
# opponent can lose to another.

# %% [markdown]
# ## A class tournament
#
# At the end of the unit the teacher collects every student's strategy, one file each (`alice.py` defining
# `strategy`; the last section shows how you write yours from this notebook), and plays them all against each other
# with one command:
#
# ```text
# amoeboid tournament class/ --games 100 --seed-file seed.txt --out results.csv --executor processes:2
# ```
#
# Each finished batch of games is written to `results.csv` at once, so after a crash the same command carries on
# where it stopped. A file that does not load gets one line on the leaderboard and the tournament goes on. The
# leaderboard is printed and saved next to the CSV as `results.html`. The same from Python, with this lesson's steps
# as the class and the `greedy` bot as a guest:

# %% tags=["nbval-ignore-output"]
# (with a progress bar, as above)
import tempfile
from pathlib import Path

results_file = Path(tempfile.mkdtemp()) / "results.csv"
league = tournament([stalling, centre_control, neutraliser, my_strategy], games=8, seed=9, opponents=["greedy"],
                    out=results_file)

# %%
league

# %% [markdown]
# The **rating** is a Bradley–Terry fit on the Elo scale: a strategy 200 points above another is expected to score
# about 3 games in 4 against it, ties counting half. Its interval comes from refitting on resampled games. The chart
# shows each rating with its interval; the grid shows every pairing, row against column.

# %%
league.rating_chart()

# %%
league.pairwise_chart()

# %% [markdown]
# ## ✎ Hand in your strategy
#
# One step enters the very function you scored into the class tournament: `hand_in` writes it, with everything it
# uses from the other cells (here `neutraliser`, `centre_control`, `stalling`, `whole_moves`, `touches_enemy` and the
# imports), into one file named after you. Your teacher tells you the folder; put your own name instead of `nina`.
# The leaderboard then shows `nina`, and if your code raises during the contest, the message gives the line of
# `nina.py`, the file you can open. Handing in again replaces the file. (A whole notebook can be handed in too, but
# only its code cells tagged `strategy` are read: in JupyterLab, the property inspector (the gear icon at the right),
# Cell Tags, add `strategy`. `hand_in` needs no tag.)
#
# Helper code belongs in the notebook's cells: `hand_in` copies it for you. A helper *file* beside the notebook
# (`import myhelpers`, with `myhelpers.py` next to it) works in the notebook, but not in the sandbox, which sees only
# your function and the cells it uses: `score` and `hand_in` refuse it in one line. Either put the helper's code in a
# cell, or hand in a folder instead of a file: `class/nina/` holding your strategy as `strategy.py` and
# `myhelpers.py` beside it (the tournament reads the folder, and names you `nina`).

# %%
from amoeboid_edu.lab import hand_in

class_folder = Path(tempfile.mkdtemp()) / "class"  # in class: the folder your teacher gives you
my_file = hand_in(my_strategy, class_folder / "nina")
print(my_file.read_text()[:400])

# %% [markdown]
# The teacher's tournament reads that folder. Here it holds only your file, so the `greedy` bot joins as a guest:

# %% tags=["nbval-ignore-output"]
# (with a progress bar, as above)
contest = tournament(class_folder, games=8, seed=9, opponents=["greedy"])
contest

# %% [markdown]
# ## Summary
#
# - A strategy is a function `(position, roll, rng) -> turn`; `candidate_turns` and the other helpers keep it short.
# - `score` gives a fair score card (paired dice, separate process, intervals); `tournament` ranks several strategies.
# - The paper's advice becomes code one rule at a time, and the lab measures each rule. Next:
#   [lesson 10](10-variants.ipynb) changes the board itself.
# - A class tournament (`amoeboid tournament FOLDER`) plays both seats of every pairing on the same dice, keeps every game in a
#   CSV file it can resume, and ranks the class with intervals.
# - `hand_in(my_strategy, "class/YOUR_NAME")` enters the function you scored into the class tournament, under your name.
