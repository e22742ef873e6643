# %% [markdown]
# # Appendix: Monte-Carlo tree search from OpenSpiel
#
# [OpenSpiel](https://github.com/google-deepmind/open_spiel) is DeepMind's library of games and game-playing
# algorithms. With the optional extra (`pip install 'amoeboid-edu[openspiel]'`, which `./dev.sh test` installs and the
# next cell installs where it is missing), Amoeboid is an OpenSpiel game, `python_amoeboid`, and OpenSpiel's
# Monte-Carlo tree search (MCTS) plays it as the bot `mcts`. Is blind search with a good budget a strong player? Let us measure it.
#
# MCTS knows little about Amoeboid beyond its rules. For each move it runs a number of *simulations*: walk down a
# tree of turns and dice, choosing turns that have done well so far, turns that a quick look calls promising (the
# Advantage 2 they leave, the greedy bot's measure) and, now and then, ones it has tried little; then finish the game
# with random moves and note who won. After its budget of simulations it plays the turn it tried most.
#
# **Learning goals**
#
# - Say what an *action* is for MCTS in Amoeboid, and which turns it never considers.
# - Play against MCTS.
# - Measure how many simulations MCTS needs to beat the paper's plan, with honest error bars.

# %% tags=["nbval-ignore-output"]
# OpenSpiel is an optional extra: where it is missing (Binder, `amoeboid course`), this installs it, once, saying so.
from amoeboid_edu.ui.course_files import ensure_installed

ensure_installed("open-spiel==2.0.2", "pyspiel")

# %%
import altair as alt
import pandas as pd

from amoeboid_edu import Position
from amoeboid_edu.theory import analysis
from amoeboid_edu.players import openspiel as boss
from amoeboid_edu.players.bots import paper
from amoeboid_edu.lab import wilson_interval

# Charts are drawn as SVG in the kernel where vl-convert is installed (offline, exact), else by vega-embed in the page.
_ = alt.renderers.enable("amoeboid")  # charts drawn in the kernel as SVG: offline, reproducible, light and dark

# %% [markdown]
# ## Turns as actions
#
# An amoeba of size 20 can be split in about 200 ways, so OpenSpiel cannot list every turn. The game offers MCTS the
# same *meaningful* turns the other bots choose from: for every grow and every move, the whole amoeba, half of it,
# and next to an enemy the smallest eat, the smallest capture and the exact neutralisation. Here are A's actions
# after rolling 2 with an amoeba next to B's, as OpenSpiel numbers them and as our notation writes them.

# %%
position = Position.parse(". . . / . (5,0) (0,4) / . . . A")
state = boss.game_for(position).state_at(position, roll=2)
actions = pd.DataFrame({"action": state.legal_actions(), "turn": [str(state.turn(a)) for a in state.legal_actions()]})
print(len(actions), "actions, among", position.count_legal_turns(2), "legal turns")
actions[actions["turn"].str.contains("-c2 ")]  # onto B: whole, smallest eat (= neutralisation), capture

# %% [markdown]
# What the abstraction loses: moving, say, 3 of 8 units to an empty cell, or eating with more than the minimum but
# less than everything. MCTS never tries those turns.
#
# ## Play against MCTS
#
# The board works as in lesson 1; `mcts` answers each of your turns after its simulations (about a tenth of a
# second).

# %%
from amoeboid_edu.ui.widget import play

board = play("mcts", seed=12)
board

# %% [markdown]
# ## How many simulations does MCTS need to beat the paper's plan?
#
# We let MCTS with a budget of 2, 8, 32 and 128 simulations per move play the `paper` bot (the paper's opening
# plan, then greedy). Each budget plays the same 8 dice sequences twice, once from each side, so both players meet
# the same luck. A game still going after 150 turns is a tie. MCTS's *score* counts a win 1 and a tie 1/2.

# %%
BUDGETS = [2, 8, 32, 128]
GAMES = 8  # dice sequences; each is played from both sides
rows = []
for simulations in BUDGETS:
    mcts = boss.mcts_strategy(simulations)
    as_a = analysis.match_results(mcts, paper, GAMES, seed=12, max_turns=150)
    as_b = analysis.match_results(paper, mcts, GAMES, seed=12, max_turns=150)
    wins = int((as_a["result"] == "A").sum() + (as_b["result"] == "B").sum())
    losses = int((as_a["result"] == "B").sum() + (as_b["result"] == "A").sum())
    ties = 2 * GAMES - wins - losses
    score = (wins + ties / 2) / (2 * GAMES)
    low, high = wilson_interval(score * 2 * GAMES, 2 * GAMES)
    rows.append({"simulations": simulations, "games": 2 * GAMES, "wins": wins, "ties": ties, "losses": losses,
                 "score": score, "low": low, "high": high})
budget = pd.DataFrame(rows)
budget.round(3)

# %%
span = [int(budget["simulations"].min()), int(budget["simulations"].max())]  # the axis ends where the data do
axis = alt.X("simulations:Q", scale=alt.Scale(type="log", domain=span, nice=False),
             axis=alt.Axis(values=budget["simulations"].tolist()), title="simulations per move (log scale)")
points = alt.Chart(budget).mark_line(point=True).encode(axis, alt.Y("score:Q", scale=alt.Scale(domain=[0, 1])))
bars = alt.Chart(budget).mark_errorbar().encode(axis, alt.Y("low:Q", title="MCTS's score against paper"),
                                                alt.Y2("high:Q"))
even = alt.Chart(pd.DataFrame({"y": [0.5]})).mark_rule(strokeDash=[4, 4]).encode(y="y:Q")
(bars + points + even).properties(title="MCTS against the paper's plan, 95% Wilson intervals", width=420,
                                  height=260)

# %% [markdown]
# **Reading the chart.** Where the whole interval lies above the dashed line, MCTS beats the paper's plan on this
# evidence; below it, the plan beats MCTS; an interval that straddles the line says "not yet decided", not
# "equal". Up to 128 simulations the paper's plan wins most of these games: a plan that knows the game's openings
# is worth a lot of blind search. `bench/openspiel.py` plays 40 games at the bot's own budget of 400 simulations
# against paper, greedy and expectimax.
#
# **Exercise.** Score your own strategy against MCTS. In [lesson 9](09-strategy-lab.ipynb), where your `my_strategy`
# and `score` (from `amoeboid_edu.lab`) are defined, run `score(my_strategy, games=20, opponents=["mcts"])`; or, in
# a terminal, `amoeboid score my.py:strategy --opponents mcts` with your strategy saved in `my.py`.

# %% [markdown]
# ## Summary
#
# - Amoeboid runs in OpenSpiel as `python_amoeboid`: the die is a chance node, and each action is one of the
#   candidate turns the bots choose from (whole, half, smallest eat or capture, exact neutralisation).
# - OpenSpiel's MCTS plays as the bot `mcts`, and intervals tell you when a difference is real. The paper's plan
#   beats it at small budgets, and still at its default budget of 400 simulations, where MCTS beats greedy but
#   loses to the paper's plan and to expectimax (README, `bench/openspiel.py`). Many of its games against greedy end
#   in a stalemate that the turn cap calls a tie: a big mixed amoeba that cannot split without losing control,
#   chasing small pieces that run.
