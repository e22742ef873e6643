"""The paper's statements, each checked by computation on the real rules at call time, in the paper's order.

One function per statement; each returns a :class:`Verdict`: a word from
:data:`VERDICTS` (never decided by a sample size), its scope, one plain
sentence, the evidence in one line and as a frame, and, for every "false as
stated", an annotated counter-line that ``amoeboid replay`` replays::

    from amoeboid_edu.theory import paper
    paper.symmetry_theorem()          # renders as a card in a notebook

Modules, in the paper's order: :mod:`.advantage` (the Advantage section),
:mod:`.case_I`, :mod:`.case_II` (with the size-1000 example), :mod:`.case_III`,
:mod:`.neutral` (Case III's "twice its size"), :mod:`.split` (the opponent's split in half),
:mod:`.case_IV`, :mod:`.example`.  The searches live in :mod:`amoeboid_edu.theory.search`.
``amoeboid paper`` prints one line per item (``SIZES["quick"]``); ``--full``
(``SIZES["full"]``) gives the same words with tighter numbers.
"""

from __future__ import annotations

from typing import Callable, Iterator, TypedDict

import altair as alt

import pandas as pd

from .. import analysis
from ...engine.rules import legal_turns
from ..shared_results import shared
from ..search import ForcedWinSearch, LineOutcomes, SearchBudgetExceeded, grid_symmetries, line_counterexample
from .advantage import (
    advantage_1_claim,
    advantage_2_claim,
    final_results,
    game_lengths,
    symmetry_theorem,
    unboundedness_conjecture,
)  # fmt: skip
from .case_I import CASE_I_OPTIONS, case_I, case_I_split, case_I_table, split_premise_holds
from .case_II import (
    CASE_II_PAPER, STREAK_START, case_II, case_II_length, case_II_streak, case_II_table, case_II_tie,
)  # fmt: skip
from .case_III import case_III, case_III_games, case_III_start, case_III_table
from .case_IV import (
    PAPER_CASE_IV_LINE, PAPER_CASE_IV_MATRICES, case_IV_forced_win, case_IV_matrices, case_IV_matrix_differences,
    case_IV_max_8, case_IV_position, case_IV_step_2, case_IV_threshold, forced_win_report, paper_example_a_turns, paper_steps_line,
)  # fmt: skip
from .example import EXAMPLE_GAME, EXAMPLE_MATRICES, example_game, example_game_check
from .neutral import neutral_twice_its_size
from .lines import (
    BOARDS,
    annotate_paper_turn,
    annotated_record,
    case_IV_options,
    corner_cells,
    describe_turn,
    half_splits,
    line_then_candidates,
    only_the_line,
    opening_position,
    paper_annotation,
    paper_line,
    plan_options,
)  # fmt: skip
from .split import split_in_half
from .verdict import SHORT_LINE, VERDICTS, WORD_CLAUSES, WORD_RULE, Verdict, judged

ITEMS = (
    "advantage-1-claim", "symmetry-theorem", "unboundedness-conjecture", "advantage-2-claim", "case-I", "case-I-split", "case-II",
    "case-II-tie", "case-II-streak", "case-II-length", "case-III", "split-in-half", "neutral-twice-its-size", "case-IV-max-8",
    "case-IV-step-2", "case-IV-forced-win", "case-IV-threshold", "case-IV-matrices", "example-game",
)  # fmt: skip
"""The paper's statements in the paper's order."""

# Sizes for `amoeboid paper` (quick) and `--full`.  Everything that decides a word (proofs, exact computations,
# exhaustive searches) is the same in both; only simulations and extra exact tables grow.
class Sizes(TypedDict):
    """The sample sizes and extra tables of one run (quick or full)."""

    random_games: int
    bot_games: int
    expectimax_games: int
    rounds: int
    symmetry_games: int
    walks: int
    length_games: int
    case_I_sizes: tuple[int, ...]
    case_I_games: int
    case_II_bases: tuple[int, ...]
    streak_games: int
    case_III_games: int
    threshold_extra: tuple[int, ...]


class WordSearches(TypedDict):
    """The searches that decide words."""

    case_III_setups: tuple[tuple[int, int, int], ...]
    case_III_turns: int
    forced_depths: tuple[int, int]
    threshold_deltas: tuple[int, ...]


SIZES: dict[str, Sizes] = {
    "quick": {
        "random_games": 5_000, "bot_games": 20, "expectimax_games": 0, "rounds": 10, "symmetry_games": 2_000,
        "walks": 5_000, "length_games": 500, "case_I_sizes": (1, 2, 3, 4, 6, 8, 10, 12), "case_I_games": 6,
        "case_II_bases": (1, 10), "streak_games": 40, "case_III_games": 0, "threshold_extra": (15, 16, 17),
    },
    "full": {
        "random_games": 50_000, "bot_games": 300, "expectimax_games": 20, "rounds": 30, "symmetry_games": 20_000,
        "walks": 100_000, "length_games": 5_000, "case_I_sizes": tuple(range(1, 13)), "case_I_games": 60,
        "case_II_bases": (1, 10, 40, 1000), "streak_games": 400, "case_III_games": 60,
        "threshold_extra": tuple(range(7, 61)),
    },
}  # fmt: skip
WORD_SEARCHES: WordSearches = {"case_III_setups": ((10, 1, 3), (10, 5, 3)), "case_III_turns": 8,  # 3x3: the plan's board; the bot's first B win from lesson 6's start is on turn 8
                 "forced_depths": (4, 4), "threshold_deltas": (45, 46, 47, 48, 50, 55, 60)}
"""The searches that decide words: identical in quick and full runs, so the words cannot differ."""


def _key(item: str, full: bool, seed: int | str) -> tuple[str, bool, str]:
    """The key of :data:`_COMPUTED`: every computation is seeded through ``str(seed)``, so 0 and "0" are one."""
    return item, full, str(seed)


_COMPUTED: dict[tuple[str, bool, str], Verdict] = {}
"""Verdicts computed in this process, by (item, full, seed): the CLI, a lesson and a test session that ask for the
same item again get the same object instead of recomputing it (every computation is seeded, so it is the same)."""

_RESULTS: dict[tuple[bool, str], pd.DataFrame] = {}


def _results(full: bool, seed: int | str) -> pd.DataFrame:
    """The games behind both Advantage claims, computed once per (size, seed)."""
    key = (full, str(seed))
    if key not in _RESULTS:
        size = SIZES["full" if full else "quick"]
        _RESULTS[key] = final_results(size["random_games"], size["bot_games"], seed, size["expectimax_games"], BOARDS)
    return _RESULTS[key]


def _compute(item: str, full: bool, seed: int | str) -> Verdict:
    """The verdict on ``item``, computed (or, in a test session, read from :mod:`..shared_results`)."""
    name = f"paper-verdict-{item}-{'full' if full else 'quick'}-seed-{seed}"
    return shared(name, lambda: _compute_now(item, full, seed))


def _compute_now(item: str, full: bool, seed: int | str) -> Verdict:
    size = SIZES["full" if full else "quick"]
    runners: dict[str, Callable[[], Verdict]] = {
        "advantage-1-claim": lambda: advantage_1_claim(results=_results(full, seed)),
        "symmetry-theorem": lambda: symmetry_theorem(size["rounds"], size["symmetry_games"], seed),
        "unboundedness-conjecture": lambda: unboundedness_conjecture(walks=size["walks"], seed=seed,
                                                                     length_games=size["length_games"]),
        "advantage-2-claim": lambda: advantage_2_claim(results=_results(full, seed)),
        "case-I": lambda: case_I(size["case_I_sizes"], size["case_I_games"], seed=seed),
        "case-I-split": case_I_split,
        "case-II": lambda: case_II(size["case_II_bases"], BOARDS),
        "case-II-tie": case_II_tie,
        "case-II-streak": lambda: case_II_streak(size["streak_games"], seed),
        "case-II-length": case_II_length,
        "case-III": lambda: case_III(WORD_SEARCHES["case_III_setups"], WORD_SEARCHES["case_III_turns"],
                                     games=size["case_III_games"], seed=seed),
        "split-in-half": split_in_half,
        "neutral-twice-its-size": neutral_twice_its_size,
        "case-IV-max-8": case_IV_max_8,
        "case-IV-step-2": case_IV_step_2,
        "case-IV-forced-win": lambda: case_IV_forced_win(depths=WORD_SEARCHES["forced_depths"]),
        "case-IV-threshold": lambda: case_IV_threshold(deltas=WORD_SEARCHES["threshold_deltas"],
                                                       extra=size["threshold_extra"]),
        "case-IV-matrices": case_IV_matrices,
        "example-game": example_game_check,
    }  # fmt: skip
    return runners[item]()


_HEAVIEST_FIRST = ("case-III", "case-IV-threshold")
"""The items that cost most (about 33 and 14 CPU-seconds of the quick run's 60): started first when the items are
computed in parallel, so one process takes Case III while the other works through the rest."""
_TOGETHER = (("advantage-1-claim", "advantage-2-claim"),)
"""Items that share their games (:func:`_results`): computed in one process, once."""


def _batches(items: tuple[str, ...]) -> list[tuple[str, ...]]:
    """The items to compute, as batches for :func:`_compute_batch`: the heaviest first, shared games together."""
    batches: list[tuple[str, ...]] = []
    for item in (*_HEAVIEST_FIRST, *ITEMS):
        if item in items and not any(item in batch for batch in batches):
            group = next((g for g in _TOGETHER if item in g), (item,))
            batches.append(tuple(i for i in group if i in items))
    return batches


def _compute_batch(batch: tuple[tuple[str, ...], bool, int | str]) -> list[Verdict]:
    """A batch of items computed in one process (a pool process of :func:`check_all` with ``workers`` > 1)."""
    items, full, seed = batch
    return list(check_all(full, seed, only=items))


def check_all(full: bool = False, seed: int | str = 0, only: tuple[str, ...] = ITEMS,
              workers: int = 1) -> Iterator[Verdict]:
    """Yield the :class:`Verdict` of each item in ``only`` (in :data:`ITEMS` order), computed now (or earlier in
    this process with the same size and seed).

    ``workers`` > 1 computes the items not yet computed in that many fresh processes of this machine (the lab's
    ``processes:K`` executor); each item is computed exactly as it is here, so the verdicts are the same, only
    sooner on a machine with the cores.
    """
    wanted = tuple(item for item in ITEMS if item in only)
    todo = tuple(item for item in wanted if _key(item, full, seed) not in _COMPUTED)
    if workers > 1 and len(todo) > 1:
        yield from _in_parallel(wanted, todo, full, seed, workers)
        return
    for item in wanted:
        key = _key(item, full, seed)
        if key not in _COMPUTED:
            _COMPUTED[key] = _compute(item, full, seed)
        yield _COMPUTED[key]


def _in_parallel(wanted: tuple[str, ...], todo: tuple[str, ...], full: bool, seed: int | str,
                 workers: int) -> Iterator[Verdict]:
    """Every verdict of ``wanted`` in :data:`ITEMS` order, each yielded as soon as it and those before it are in."""
    from ...lab.executors import Executor, map_unordered

    batches = [(items, full, seed) for items in _batches(todo)]
    results = map_unordered(_compute_batch, batches, Executor("processes", workers=min(workers, len(batches))))
    try:
        for item in wanted:
            while _key(item, full, seed) not in _COMPUTED:
                _, verdicts = next(results)
                for card in verdicts:
                    _COMPUTED[_key(card.item, full, seed)] = card
            yield _COMPUTED[_key(item, full, seed)]
    finally:
        results.close()


def verdict(item: str, full: bool = False, seed: int | str = 0) -> Verdict:
    """The verdict on one item exactly as ``amoeboid paper ITEM`` computes it (lessons show these cards)."""
    if item not in ITEMS:
        raise ValueError(f"unknown item {item!r}; the items are: {', '.join(ITEMS)}")
    return next(check_all(full, seed, only=(item,)))


# --------------------------------------------------------------------------- the charts that show each item


def advantage_chart(results: pd.DataFrame | None = None, seed: int | str = 0) -> alt.LayerChart:
    """Win rates with 95% intervals for the games behind the Advantage claims."""
    results = final_results(2_000, 50, seed) if results is None else results
    title = "Who wins (the games behind the Advantage claims)"
    return analysis.win_rate_chart(analysis.win_rates(results), title=title)


def symmetry_chart(rounds: int = 5, walks: int = 100_000, seed: int | str = 0) -> alt.LayerChart:
    """delta after ``rounds`` rounds: the exact symmetric law against seeded dice walks."""
    frame = analysis.delta_samples_frame(rounds, walks, seed=seed)
    return analysis.delta_distribution_chart(frame, title=f"delta after {rounds} full rounds: symmetric, mean 0")


def unboundedness_chart(levels: tuple[int, ...] = (10, 20, 50), turns: int = 20_000, points: int = 400,
                        walks: int = 20_000, mc_turns: int = 2_000, seed: int | str = 0) -> alt.LayerChart:  # fmt: skip
    """P_M(n) curves approaching 1 (exact DP, ``points`` samples per curve) with Monte Carlo points."""
    exact = analysis.exceedance_frame(levels, turns, every=max(1, turns // points))
    sampled = analysis.exceedance_monte_carlo(levels, mc_turns, walks, seed=seed)
    sampled = sampled[sampled["turn"] % max(1, mc_turns // 50) == 0]
    return analysis.exceedance_chart(pd.concat([exact, sampled], ignore_index=True))


def example_game_chart() -> alt.LayerChart:
    """delta and Delta over the paper's example game, eats and neutralisations marked."""
    return analysis.delta_chart(analysis.game_frame(example_game()), title="The paper's example game")


__all__ = [
    "BOARDS", "CASE_II_PAPER", "CASE_I_OPTIONS", "EXAMPLE_GAME", "EXAMPLE_MATRICES", "ForcedWinSearch", "ITEMS",
    "LineOutcomes", "PAPER_CASE_IV_LINE", "SHORT_LINE", "SIZES", "STREAK_START", "SearchBudgetExceeded", "VERDICTS",
    "Verdict",
    "advantage_1_claim", "advantage_2_claim", "advantage_chart", "annotate_paper_turn", "annotated_record", "case_I",
    "case_I_split",
    "case_III", "case_III_games", "case_III_start", "case_III_table", "case_IV_options", "corner_cells",
    "describe_turn", "plan_options", "case_II", "case_II_tie", "WORD_CLAUSES", "WORD_RULE", "judged", "case_II_length", "case_II_streak", "case_II_table",
    "case_IV_forced_win", "case_IV_matrices", "case_IV_matrix_differences", "PAPER_CASE_IV_MATRICES", "case_IV_max_8", "case_IV_step_2",
    "case_IV_position", "case_IV_threshold", "case_I_table", "check_all",
    "example_game", "example_game_chart", "example_game_check", "final_results", "forced_win_report", "game_lengths",
    "grid_symmetries", "half_splits", "legal_turns", "line_counterexample", "line_then_candidates",
    "neutral_twice_its_size", "only_the_line", "opening_position", "paper_annotation", "paper_example_a_turns",
    "paper_line", "paper_steps_line", "split_in_half", "split_premise_holds", "symmetry_chart", "symmetry_theorem",
    "unboundedness_chart", "unboundedness_conjecture", "verdict",
]  # fmt: skip
