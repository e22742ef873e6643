"""The paper's example game ("Pen and Paper with Example Game"), as data.

``PAPER_EXAMPLE_RECORD`` is the game in the spec's record format.  The paper
gives rolls and prose ("splits in half upwards"); the exact counts are the
ones that produce the paper's matrices.  ``PAPER_EXAMPLE_MATRICES`` are those
matrices, copied from the paper (after every second turn, the side to move
omitted as in the paper), so the replay can be checked against them.
"""

from __future__ import annotations

PAPER_EXAMPLE_RECORD = """\
# The example game at the end of Dabdoub and Cuellar's paper.
board 3x3
3 a1 a1-b1 4,0    # Player 1 rolls a 3 and moves to the right
2 c3 c3-b3 0,3    # Player 2 rolls a 2 and moves to the left
3 b1 b1-c1 7,0    # Player 1 rolls a 3 and moves to the right again
1 b3 b3-a3 0,4    # Player 2 rolls a 1 and moves to the left again
2 c1 c1-b2 9,0    # Player 1 rolls a 2 and makes a risky move to the center
4 a3 a3-a2 0,4    # Player 2 rolls a 4 and splits in half upwards
5 b2 b2-a2 14,0   # Player 1 rolls a 5 and eats the amoeba to his left
2 a3 a3-b3 0,3    # Player 2 rolls a 2 and splits his amoeba in half to the right
4 a2 a2-b2 18,4   # Player 1 rolls a 4 and moves to the center
4 b3 b3-c3 0,7    # Player 2 rolls a 4 and moves that piece to the right
6 b2 b2-c3 8,1    # Player 1 rolls a 6 and neutralizes the bottom right amoeba
4 a3 a3-a2 0,4    # Player 2 rolls a 4 and splits upwards
1 b2 b2-a2 5,1    # Player 1 rolls a 1 and neutralizes the amoeba to its left
6 a3 a3-b3 0,4    # Player 2 rolls a 6 and splits to the right
5 b2 b2-b3 11,0   # Player 1 rolls a 5, splits and eats the piece under it
4 a3 a3-b2 0,9    # Player 2 rolls a 4 and eats player 1's center amoeba
5 b3 b3-b2 16,4   # Player 1 rolls a 5 and eats player 2's center amoeba winning the game
"""

#: (number of turns played, the board as the paper draws it), rows top to bottom.
PAPER_EXAMPLE_MATRICES: tuple[tuple[int, str], ...] = (
    (0, "(1,0) . . / . . . / . . (0,1)"),
    (2, ". (4,0) . / . . . / . (0,3) ."),
    (4, ". . (7,0) / . . . / (0,4) . ."),
    (6, ". . . / (0,4) (9,0) . / (0,4) . ."),
    (8, ". . . / (14,4) . . / (0,3) (0,3) ."),
    (10, ". . . / . (18,4) . / (0,3) . (0,7)"),
    (12, ". . . / (0,4) (16,3) . / (0,3) . (8,8)"),
    (14, ". . . / (5,5) (12,2) . / (0,5) (0,4) (8,8)"),
    (16, ". . . / (5,5) (6,11) . / . (11,4) (8,8)"),
)

#: The paper's last sentence: "Player 1 rolls a 5 and eats player 2's center amoeba winning the game."
PAPER_EXAMPLE_WINNER = "A"
