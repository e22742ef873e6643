""""The opponent's best move is to split in half" (Cases III and IV), measured against the paper's line."""

from __future__ import annotations

import pandas as pd

from ..rules import legal_turns
from .case_IV import case_IV_position, line_survivor
from .lines import annotated_record
from .verdict import Verdict

QUOTE = ("Therefore in order to avoid losing, the opponent's best move is to split in half. (Case IV: B's only "
         "option is to split his amoeba, obviously in half.)")  # fmt: skip


def split_in_half(b_size: int = 16, delta: int = 45, a_turns: int = 9) -> Verdict:
    """With the paper's own dice (A 1s, B 6s): halving loses to the paper's line in time, splitting small survives."""
    start = case_IV_position(delta, b_size)
    halving = line_survivor(start, 1, 6, a_turns)
    other = line_survivor(start, 1, 6, a_turns, legal_turns)
    evidence = pd.DataFrame([
        {"B's replies": "split in half onto any empty cell", "B survives some line": halving is not None,
         "turns": " ; ".join(halving or [])},
        {"B's replies": "every legal turn", "B survives some line": other is not None, "turns": " ; ".join(other or [])},
    ])  # fmt: skip
    better = halving is None and other is not None
    record = annotated_record(start, other) if better else ""
    # "Best" needs a measure: lasting past the plan's own bound is ours, so this supports no "false" (a B that
    # survives 9 A turns may still lose on the 10th).
    verdict = "not supported" if better else "open"
    summary = (f"with the paper's own dice (A rolls 1, B rolls 6) at delta = {delta}: every halving B loses to the "
               f"paper's line within {a_turns} A turns, while a B that splits off small pieces survives them"
               if better else f"halving survives: {halving is not None}; any B survives: {other is not None}")  # fmt: skip
    scope = (f"3x3, Case IV set-up A {b_size + delta - 1} v B {b_size} (delta {delta}); the paper's dice; A plays "
             f"any turn the paper's text allows; B halves onto any empty cell, or plays any legal turn; {a_turns} A turns; "
             "measure: B still owns something after them; exact")  # fmt: skip
    explanation = (
        "B's aim against the plan is to survive (and in Case III to win). With the dice of the paper's own example, "
        f"from a lead where halving always loses in time (delta = {delta}), B survives by splitting off small pieces, "
        "each of which costs A a turn to neutralise. So splitting in half is not B's best move against the plan; the "
        "plan was built against the reply it assumed. (In Case III B's best reply also varies with its roll.)"
    )
    plain = ("Not supported: against the paper's plan B lasts longer by splitting off small pieces than by "
             f"splitting in half (halving loses within {a_turns} of A's turns, small pieces survive them), though we "
             "have not shown that small pieces change the final result.") if better else "Open within the searched bound."  # fmt: skip
    return Verdict("split-in-half", verdict, summary, explanation, evidence, scope=scope, plain=plain,
                   counter_line=record, quote=QUOTE)  # fmt: skip
