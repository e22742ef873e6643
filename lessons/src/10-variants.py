# %% [markdown]
# # Lesson 10: Variants: other boards, other neighbours, any graph
#
# The paper says the game "can be played on any graph (or n-dimensional board)" and then studies the 3×3 board
# (section *Set up*). The engine plays every variant with the same rules, so we can ask what the paper could not
# easily try: does moving first help, and does the answer depend on the board?
#
# **Learning goals**
#
# - Set up a game on any rectangle, with king or rook adjacency, and on a graph of your own.
# - Simulate many seeded games per variant and read win rates with their uncertainty.
# - Explain how the first player's advantage changes with the board size and the adjacency.

# %%
import altair as alt
import pandas as pd

from amoeboid_edu import Board, Position, Rules, random_playout, seeded_rng
from amoeboid_edu.theory import analysis
from amoeboid_edu.ui.exercises import check

# Charts are drawn as SVG in the kernel where vl-convert is installed (offline, exact), else by vega-embed in the page.
_ = alt.renderers.enable("amoeboid")  # charts drawn in the kernel as SVG: offline, reproducible, light and dark

# %% [markdown]
# ## Bigger and rectangular boards
#
# `Position.start(rows, cols)` sets up the standard start on any grid: A in the top-left corner, B in the opposite one.

# %%
Position.start(4, 5)

# %% [markdown]
# ## Rook adjacency
#
# With `Rules(adjacency="rook")` an amoeba moves only up, down, left or right, not diagonally.

# %%
rook = Rules(adjacency="rook")
rook_start = Position.start(3, rules=rook)
print("king neighbours of b2:", Position.start(3).board.neighbours_of("b2"))
print("rook neighbours of b2:", rook_start.board.neighbours_of("b2"))

# %% [markdown]
# **Exercise 1.** On a 3×3 rook board, how many cells can an amoeba in a corner move to?

# %%
my_answer = ...  # solution: 2
corner_moves = len(rook_start.board.neighbours_of("a1"))
check(my_answer, corner_moves, hint="from a corner, two of the four directions leave the board")

# %% [markdown]
# ## A graph board
#
# Any graph works: give each node's neighbours and the two start nodes. Here is a ring of six nodes with one chord,
# A starting on `n0` and B on `n3`, opposite each other.

# %%
ring = {f"n{i}": [f"n{(i + 1) % 6}"] for i in range(6)}
ring["n1"].append("n4")  # a chord across the ring
ring_board = Board.graph(ring, start=("n0", "n3"))
ring_start = Position.start(ring_board)
ring_start

# %% [markdown]
# A graph position has no grid notation; its text form is JSON, which the engine reads back. A seeded random game:

# %%
playout = random_playout(ring_start, seeded_rng(10, "ring"))
print(playout.result, "after", playout.turns, "turns")
playout.final

# %% [markdown]
# ## Does moving first help? It depends on the board
#
# For each board we play 600 seeded games between two random players and count A's wins, B's wins and ties. The
# bars show the rates and the whiskers 95% intervals (Wilson): two bars whose whiskers do not overlap differ for
# real, not by luck of the dice.

# %%
variants = {
    f"{n}x{n} {adjacency}": Board.grid(n, n, adjacency) for adjacency in ("king", "rook") for n in (2, 3, 4)
}
variants["ring of 6"] = ring_board
results = pd.concat(
    [analysis.random_results(600, seed=10, board=board).assign(board=name) for name, board in variants.items()],
    ignore_index=True,
)
rates = analysis.win_rates(results, by="board")
rates[rates["outcome"] != "capped"].pivot(index="board", columns="outcome", values="rate").loc[list(variants)].round(3)

# %%
analysis.win_rate_chart(rates, by="board", title="Random players: who wins, by board")

# %% [markdown]
# With king adjacency, moving first is a big advantage on a 2×2 board (every cell touches every other, so A's very
# first move can eat B), and it shrinks as the board grows. With rook adjacency it is reversed on the smallest board:
# A cannot reach B at once, B grows second and can often eat first. (`ongoing` games reached the limit of 1,000
# turns: on bigger boards random players rarely finish, so we stop at 4×4.)
#
# **Exercise 2.** Does A win more often on the 2×2 king board than on the 3×3 king board? Answer `True` or `False`.

# %%
a_rate = rates[rates["outcome"] == "A"].set_index("board")["rate"]
my_answer = ...  # solution: True
check(my_answer, bool(a_rate["2x2 king"] > a_rate["3x3 king"]), hint="read the blue bars of the two king boards")

# %% [markdown]
# **Try it:** add your own graph to `variants` (a path `{"p0": ["p1"], "p1": ["p2"], ...}`, a star, a 3-D grid) and
# run the cells again. Lesson 9's strategies play on any of these boards too.

# %% [markdown]
# ## Summary
#
# - `Position.start(rows, cols)`, `Rules(adjacency="rook")` and `Board.graph(neighbours, start)` give every variant;
#   the rules and the analysis tools are the same on all of them.
# - The first player's advantage is not a constant: it is largest on a tiny king board, shrinks with the board's size,
#   and turns into a *second*-player advantage on small rook boards (for random players).
# - Next, [lesson 11](11-three-amoebas.ipynb) meets two other games called Amoeba. Or go back to
#   [lesson 9](09-strategy-lab.ipynb) and make your strategy win on the board of your choice.
