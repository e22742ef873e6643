# %% [markdown]
# # Lesson 4: Advantage 2, the size difference Δ
#
# δ only counts the dice, so no decision of a player can change it. The paper's second measure counts what the
# players have made of their rolls: the total size of the amoebae each one *owns*.
#
# **Learning goals**
#
# - Compute Σ_A, Σ_B and Δ, remembering that neutral amoebae belong to nobody.
# - Prove the claim "a player can only win with advantage 2", and check it on thousands of games.
# - Explain how eating and neutralising make Δ and δ part ways, and read both on a chart of a real game, and of
#   a game you play.

# %%
import altair as alt
import pandas as pd

from amoeboid_edu import Position, apply, random_turn
from amoeboid_edu.theory import analysis, paper
from amoeboid_edu.ui.course_files import VL_CONVERT, ensure_installed
from amoeboid_edu.ui.exercises import check

ensure_installed(VL_CONVERT, "vl_convert")  # the live chart beside the board draws with it (installed once on Binder)
# Charts are drawn as SVG in the kernel where vl-convert is installed (offline, exact), else by vega-embed in the page.
_ = alt.renderers.enable("amoeboid")  # charts drawn in the kernel as SVG: offline, reproducible, light and dark

# %% [markdown]
# ## Definition (paper, *Advantage 2*)
#
# Σ_A is the sum of the sizes of the amoebae A owns, Σ_B the same for B, and **Δ = Σ_A − Σ_B**. A has *advantage 2*
# when Δ > 0. Note what Σ_A counts: the *whole* size of A's amoebae, B's units inside them included; and a neutral
# amoeba counts for nobody.
#
# **Exercise 1.** In this position, what is Δ?

# %%
position = Position.parse("(5,2) . . / . (3,3) . / . . (0,4) A")
position

# %%
my_answer = ...  # solution: 3
check(my_answer, position.Delta, hint="A owns (5,2), B owns (0,4); the neutral (3,3) counts for nobody")

# %%
print(f"Σ_A = {position.Sigma_A}, Σ_B = {position.Sigma_B}, Δ = {position.Delta};  δ = {position.delta}")

# %% [markdown]
# Here the two advantages disagree: B has rolled more (δ < 0), but A owns more (Δ > 0). At the start of a game they are
# equal: as long as nobody has eaten, every amoeba is pure, A owns exactly its σ_A + 1 units and B its σ_B + 1, so
# Δ = δ. **Eating** moves units into the eater's amoeba: Δ jumps while δ stays. **Neutralising** takes a whole amoeba
# out of both totals.

# %%
duel = Position.parse(". . . / . (6,0) . / . . (0,5) A")
for turn in ["1 b2 b2-c3 7,0", "1 b2 b2-c3 5,0", "1 b2 b2-c1 3,0"]:
    after = apply(duel, turn)
    print(f"{turn:16} -> {str(after):36} δ = {after.delta:2}  Δ = {after.Delta:3}  result: {after.result}")

# %% [markdown]
# ## The claim: only a player with advantage 2 can win
#
# **Claim (paper).** Player A can only win if Δ > 0, and B only if Δ < 0.
#
# **Proof.** If A wins, B owns nothing, so Σ_B = 0; and A owns at least one amoeba, so Σ_A > 0. Hence Δ > 0. ∎
#
# This proof is even shorter than the one for δ, because Δ is defined through ownership, and winning *is* about
# ownership. The computational check, on the same seeded games as lesson 3's:

# %%
paper.advantage_2_claim(results=paper.final_results(5_000, 30, seed=3))

# %% [markdown]
# ## δ and Δ in real games
#
# The theory module turns a game into a table with one row per turn (`analysis.game_frame`). Here is a game between
# two random players, seeded so that you see the same game as the text:

# %%
games = analysis.play_games(random_turn, random_turn, 200, seed=4)
frame = analysis.game_frame(games[0])
frame[["turn", "player", "notation", "event", "delta", "Delta"]].head(14)

# %%
analysis.delta_chart(frame, title="δ and Δ in one random game")

# %% [markdown]
# The two lines run together until somebody eats: then Δ jumps while δ does not move (the circled points are eats).
# When does that happen in this game? The table knows:

# %%
eats = frame[frame["event"] == "eat"]
if eats.empty:
    print(f"Nobody eats in this game's {len(frame)} turns: δ and Δ run together to the end.")
else:
    first = eats.iloc[0]
    print(f"δ and Δ run together until turn {first['turn']} of {len(frame)}, when {first['player']} eats: "
          f"Δ jumps to {first['Delta']} while δ is {first['delta']}.")

# %% [markdown]
# In 200 games, how often do the two advantages point at different players after a turn?

# %%
turns = analysis.games_frame(games)
disagree = (turns["delta"] * turns["Delta"]) < 0
games_played = turns["game"].nunique()
print(f"{len(turns)} turns in {games_played} games; δ and Δ disagree in sign after {disagree.mean():.1%} of them")

# %% [markdown]
# **Exercise 2.** In the final positions of these 200 games, does the winner always have *both* advantages? Predict
# `True` or `False` (`"yes"` and `"no"` work too), then read the table.

# %%
finals = turns.groupby("game").tail(1)
won = finals[finals["result"] != "tie"]
sign = won["result"].map({"A": 1, "B": -1})  # +1 when A won, -1 when B won
winner_has_both = bool(((won["delta"] * sign > 0) & (won["Delta"] * sign > 0)).all())
my_answer = ...  # solution: True
check(my_answer, winner_has_both, hint="both claims of the paper are about the winner")

# %%
finals.groupby("result")[["delta", "Delta"]].agg(["min", "max"])

# %% [markdown]
# ## Your own game, charted live
#
# Play against the random bot on the board below (you are A). The chart beside it redraws after every turn, yours and
# the bot's: watch Δ jump when someone eats, while δ only follows the dice. Try to eat, then try to neutralise.

# %%
from amoeboid_edu.ui.widget import play

board = play("random", seed=44)
board.with_chart(lambda game: analysis.delta_chart(analysis.game_frame(game, start=True), title="δ and Δ, your game"))

# %% [markdown]
# ## Summary
#
# - Δ = Σ_A − Σ_B compares the sizes of the amoebae each player *owns*; neutral amoebae count for nobody.
# - A winner has Δ > 0 trivially (the loser owns nothing), and δ > 0 by lesson 3's counting argument.
# - Until the first eat Δ = δ. Eating moves Δ and never δ; neutralising removes an amoeba from both sides' Σ. So Δ is
#   the advantage a player's *decisions* build. Next: [lesson 5](05-opening-cases-1-2.ipynb) uses both to choose
#   an opening.
