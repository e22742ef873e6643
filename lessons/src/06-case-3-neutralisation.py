# %% [markdown]
# # Lesson 6: Case III, neutralisation (classroom demo)
#
# The paper's *Case III*: the two amoebae are not adjacent and δ > 6 in your favour. Its advice: move to the centre;
# when the opponent splits in half, use part of your amoeba to make one half **neutral**, keep the centre, and repeat
# while Δ > 6. This lesson is built for a projector: load the position, press **Next** on the board to step through
# a neutralisation line, and watch δ and Δ on the chart beside the board. Then check the line by computation.
#
# **Learning goals**
#
# - Follow the Case III plan move by move: centre, neutralise, repeat, win once B's last piece has no empty cell
#   next to it and nothing it may eat.
# - Explain, using Δ, the paper's argument that neutralising (rather than eating) keeps the opponent from winning,
#   and see how far a search can check it.
# - Check a line of play by exhaustive computation, and find where the paper's argument depends on luck.

# %%
import altair as alt
import pandas as pd
from IPython.display import Markdown

from amoeboid_edu import Game, Position, apply, legal_turns
from amoeboid_edu.engine.game import CAPPED
from amoeboid_edu.theory import analysis, paper
from amoeboid_edu.players.registry import BOTS
from amoeboid_edu.players.bots import paper as paper_bot
from amoeboid_edu.ui.course_files import VL_CONVERT, ensure_installed
from amoeboid_edu.ui.exercises import check
from amoeboid_edu.ui.widget import Board

ensure_installed(VL_CONVERT, "vl_convert")  # the live chart beside the board draws with it (installed once on Binder)
_ = alt.renderers.enable("amoeboid")  # charts drawn in the kernel as SVG: offline, reproducible, light and dark

# %% [markdown]
# ## The position
#
# A has 14 units in the top-left corner, B has 5 in the opposite corner, and A is to move. A has rolled 13 in total,
# B 4: δ = 9 > 6, and the amoebae are not adjacent. This is Case III.

# %%
CASE_III_START = "(14,0) . . / . . . / . . (0,5) A"
start = Position.parse(CASE_III_START)
start

# %% [markdown]
# ## The line
#
# Here is a line played by the paper's plan, one turn per line. A moves to the centre, B splits in half (the paper:
# "the opponent's best move is to split in half"), and A answers each split by neutralising the half next to it with
# exactly as many units as it holds.

# %%
LINE = """\
6 a1 a1-b2 20,0   # A rolls 6 and moves to the centre
4 c3 c3-c2 0,4    # B rolls 4 and splits in half
3 b2 b2-c3 5,0    # A neutralises c3: (0,5) + (5,0) = (5,5)
3 c2 c2-b1 0,3    # B splits again
1 b2 b2-c2 4,0    # A neutralises c2
5 b1 b1-a1 0,4    # B splits again
5 b2 b2-a1 4,0    # A neutralises a1
5 b1 b1-c1 0,4    # B splits into the last corner
4 b2 b2-b1 5,0    # A neutralises b1: every cell next to B's last piece (c1) is taken
2 c1 -            # B rolls 2: no empty neighbour, nothing it may eat. B passes
4 b2 b2-c1 19,0   # A eats B's last amoeba and wins
"""

# %% [markdown]
# ## The demo: press Next
#
# The board checks every queued turn when it is queued (a typo fails here, not in front of the class). Before each
# turn the board names only the mover and the roll ("Next: B's reply, with a roll of 4"): ask the class, then press
# **Reveal** to show the turn, or **Next** to play it. **Undo** steps back through the line, as far as you like;
# **Restart line** goes back to its first turn. The chart beside the board follows, from the start position (turn 0)
# on. `with_chart` lays out board and chart side by side at presenter size, to fit one projector screen.

# %%
board = Board.from_position(CASE_III_START, seed=3)
board.queue(LINE)
board.with_chart(lambda game: analysis.delta_chart(analysis.game_frame(game, start=True), title="Case III: δ and Δ"))

# %% [markdown]
# ## The whole line at a glance
#
# The same line as a table (`analysis.game_frame`), and the chart you get at the end of the demo:

# %%
game = Game.parse(f"start {CASE_III_START}\n{LINE}")
frame = analysis.game_frame(game)
frame[["turn", "player", "notation", "event", "delta", "Delta"]]

# %%
analysis.delta_chart(analysis.game_frame(game, start=True), title="Case III line: δ and Δ")

# %% [markdown]
# Look at the two lines: **Δ = δ from the start until the last turn**, where A eats B's last amoeba (δ is the dashed
# line drawn over Δ). A neutralisation moves k of A's units onto B's k units: A's total loses k, B's total loses k,
# and Δ does not move. So neutralising costs A nothing in Δ, while it
# takes B's half out of play: nobody may move a neutral amoeba. Δ stays above 6 throughout, so by the paper's rule A
# keeps neutralising. Once every cell next to B's last piece is taken (three cells of the board are still empty,
# but none of them next to it), B cannot split any more and, with a small roll, cannot eat anything: it passes, and
# A wins. (The paper's "until ... there are no squares left unoccupied" is the same idea for the whole board.)
#
# **Exercise 1.** In turn 3, A moved exactly 5 units onto B's `(0,5)`. What would have happened with 6 units instead?
# Give the amoeba left on `c3` in notation, like `"(5,5)"`.

# %%
after_two = game.positions[2]
my_answer = ...  # solution: "(6,5)"
check(my_answer, str(apply(after_two, "3 b2 b2-c3 6,0")["c3"]),
      hint="6 of A's units plus 5 of B's: who has more?")

# %% [markdown]
# Compare Δ after the two choices:

# %%
{counts: apply(after_two, f"3 b2 b2-c3 {counts}").Delta for counts in ["5,0", "6,0"]}

# %% [markdown]
# Owning `(6,5)` gives A a bigger Δ *now*, and B's half next to it (size 4, at most 10 after a roll) cannot eat it
# next turn. So why does the paper neutralise? Keep this question for the end of the lesson.

# %% [markdown]
# ## Checking the line by computation
#
# The paper claims that, playing this way, **the opponent cannot win**. For every position of the line where B is to
# move we try *every* roll and *every* legal B turn, and ask what the best of them could achieve at once.

# %%
def best_reply_for_b(position):
    """Over every roll and every legal turn of B: can B win or tie at once, or eat a neutral piece?"""
    rows = []
    for roll in range(1, 7):
        results, eats_neutral = set(), False
        for turn in legal_turns(position, roll):
            results.add(apply(position, turn).result)
            target = None if turn.is_pass else position[turn.dst]
            eats_neutral |= target is not None and target.is_neutral
        rows.append({"B rolls": roll, "B can win": "B" in results, "B can tie": "tie" in results,
                     "B can eat a neutral piece": eats_neutral})
    return rows


checks = []
for number, (turn, before) in enumerate(zip(game.turns, game.positions), start=1):
    if before.to_move == "B":
        for row in best_reply_for_b(before):
            checks.append({"turn": number, "Δ before": before.Delta, **row})
checks = pd.DataFrame(checks)
checks.groupby("turn")[["B can win", "B can tie", "B can eat a neutral piece"]].any()

# %% [markdown]
# The claim holds on this line: **with any roll and any reply, B can never win or even tie at once.** But the table
# also shows where the paper is too quick. It says B "cannot eat the neutral piece which is twice its size". That is
# only true for small rolls: a half of size 4 that rolls 6 has size 10 and may eat a neutral `(5,5)`. Which rolls let
# B eat a neutral piece on turn 4?

# %%
checks[(checks["turn"] == 4)]

# %% [markdown]
# The paper's sentence is, in one line: with a lead in the centre, "the opponent cannot win". The verdict card shows
# its word, a few plain sentences and what was checked; everything else (the game records where B wins, with a note on each
# of A's turns) is under "For the curious", or `card_III.details()`.

# %%
card_III = paper.verdict("case-III")  # what `amoeboid paper` computes; `amoeboid paper case-III` prints the details
card_III

# %%
bot_rows = card_III.evidence[card_III.evidence["completion"] == "(v) the paper bot"]
beaten = [(Position.parse(row["start"]), int(row["first B win turn"])) for _, row in bot_rows.iterrows()
          if pd.notna(row["first B win turn"])]
held = [(Position.parse(row["start"]), int(row["turns searched"])) for _, row in bot_rows.iterrows()
        if pd.isna(row["first B win turn"])]
Markdown("The strategy lab's `paper` bot fills in the plan's gaps with defaults of its own. The card searches it too, "
         "one turn deeper at a time over every roll and every turn of B's: " + "; ".join(
             [f"from A {s['a1'].size} v B {s['c3'].size} B beats it on turn {t}"
              + (" (on A's own turn: the bot is left no move that keeps a piece)" if t % 2 else "")
              + ", and before that turn nothing B does wins" for s, t in beaten]
             + [f"from A {s['a1'].size} v B {s['c3'].size} B cannot beat it within the {t} turns searched"
                for s, t in held]) + ".")

# %% [markdown]
# The table above also shows where the paper is too quick about the neutral pieces. Its sentence "it cannot eat the
# neutral piece which is twice its size" is false for small pieces: a piece of k units may eat it whenever it rolls at
# least k. The card's counter-line starts from this lesson's own position, plays the paper's own sequence (centre,
# B halves, A neutralises a half) and ends with such an eat; and the eat is no blunder: afterwards A cannot win at
# once, whatever it rolls (the card checks every roll):

# %%
paper.neutral_twice_its_size()

# %% [markdown]
# **Exercise 2.** On turn 10 B rolled 2 and had to pass. With how many of the six rolls could B have eaten a neutral
# piece instead?

# %%
my_answer = ...  # solution: 3
check(my_answer, int(checks.loc[checks["turn"] == 10, "B can eat a neutral piece"].sum()),
      hint="B's (0,4) on c1 grows by the roll; its neighbours are (5,5), A's centre and (4,4)")

# %% [markdown]
# ## Does the plan work against other opponents?
#
# One line is one story. The strategy lab's `paper` bot plays the paper's Cases I-IV, Case III included. From our
# start position, let it play A against each baseline bot as B, 16 seeded games each:

# %%
rows = []
for name in ["random", "greedy", "paper", "expectimax"]:
    results = [game.result for game in analysis.play_games(paper_bot, BOTS[name], 16, seed=6, start=start)]
    rows.append({"B plays": name, "games": len(results), "A wins": results.count("A"), "B wins": results.count("B"),
                 "ties": results.count("tie"), CAPPED: results.count(CAPPED)})  # capped: stopped at the turn limit
pd.DataFrame(rows)

# %% [markdown]
# ## Questions for the class
#
# 1. Why does A neutralise with *exactly* the size of B's half, and not capture it with one unit more, which gives a
#    bigger Δ (exercise 1)? Think about what B can do against a second A amoeba, and about what lesson 8's search bot
#    chose in the example game.
# 2. On turn 4, B could have rolled 6 and eaten the neutral `(5,5)`. Who would own the result? Would A still be
#    safe? (Try it: `apply(game.positions[3], "6 c2 c2-c3")`.)
# 3. The paper switches from neutralising to eating "when your Advantage 2 is no longer greater than 6". Why 6?
# 4. Open the card's details and find the game under (iv) that starts from *this lesson's* position (A 14 v B 5): A
#    fills in the plan one way, and B wins. Now look under (vi), where the computer tried *every* way of following
#    the plan that the paper's text allows. Which of A's turns in the (iv) game lets B's win come within reach, and
#    what does a way that holds play there instead? Why does that keep B out? Then play A yourself from the same
#    position: can you keep B from winning?

# %%
plan_rows = card_III.evidence[card_III.evidence["completion"] == "(vi) the plan: every completion its text allows"]
mine = plan_rows[plan_rows["start"] == CASE_III_START].iloc[0]
Markdown("**For the teacher (question 4), from the card:** " + (
    f"every way of following the plan that the text allows loses from this start: B can win by turn "
    f"{mine['first B win turn']} whatever A chooses (the card's counter-line is the first line of B's winning "
    "strategy)." if pd.notna(mine["first B win turn"]) else
    f"a way of following the plan holds B off for all {mine['turns searched']} turns the computer searched. " + (
        f"In the (iv) game, A's turn {mine['losing line parts at A turn']} is the one that lets B's win come within "
        f"reach; the way that holds plays {mine['holding completion plays']} there instead (count A's amoebae after "
        "it, and how many of them one move of B's can take). " if pd.notna(mine["losing line parts at A turn"]) else
        "No losing line of (iv) or (v) ends within those turns. ")
    + "Beyond the searched turns nobody knows: the word is the card's."))

# %% [markdown]
# ## Summary
#
# - Case III's plan: take the centre, then neutralise each half B splits off, using exactly its size, while Δ > 6.
# - On our line B can never win or tie at once, whatever it rolls: the paper's claim checks out there.
# - "B cannot eat the neutral piece" is false as stated for small pieces: a piece of size k may eat it when it rolls
#   at least k, so small pieces sometimes can (the card gives the size from which on the sentence is true).
#
# **What is actually known about the plan.** The paper's one-turn argument is right: after the move to the centre B
# cannot win on its next turn (exact). Beyond that, "eat one of the opponent's split amoebae" does not say which
# piece, nor with how many units, and "move to an opposite square" does not say where when every square touches B.
# Those choices are A's to make (as in lesson 7, "A can win" means *some* way of playing wins), and some lose:
#   - A eats B's smaller piece with its whole amoeba: B wins four turns into the game (the line in the card's
#     details: B splits off a piece of 1, A eats it, B's other piece rolls 6 and eats A);
#   - A eats with one unit more than the piece (as in the paper's Case IV) and then moves its whole amoeba next to B
#     (on 3x3 no square is away from B, and there the paper does not say where to go; the line's b3 is our default,
#     not the paper's): B wins six turns into the game (its record is in the card's details);
#   - A always eats, with its whole amoeba, the biggest of B's pieces next to it *that it can eat*: the card's search
#     finds B winning from this lesson's own start (question 4). There B's small piece first eats the neutral piece A
#     has just made (more than twice its size: B rolled high), before A's eat; A's eat then takes B's *smallest*
#     piece (the biggest is out of reach), and on its next turn B's big piece eats that new amoeba of A's, which
#     holds a unit of B's, turning it neutral: A owns nothing, and B wins. (Only 3x3 is tested: the plan needs a
#     centre that touches every cell, and the paper names none on bigger boards.)
#
#   A losing way of filling in the plan refutes that way, not the paper; a way that holds is not proved beyond the
#   search. The card also searches the plan itself, every way of filling it in that the text allows (question 4),
#   and its word follows from that search.
#
#   The strategy lab's `paper` bot eats the biggest piece next to it with one unit more, and otherwise plays greedy's
#   candidate turns (whole, half, the smallest eat, capture or neutralisation), avoiding one after which B can win at
#   once when another candidate does; the card's search beats it too (the cell after the card says on which turn).
#   The games against the bots above are examples, not proofs.
# - Next: [lesson 7](07-case-4-forced-win.ipynb), where the paper claims that a large enough δ makes the win certain.
