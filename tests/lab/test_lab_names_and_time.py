"""What a student is told before and while a run plays: which function of a file is played when none is named, why a
class folder's file does not enter, and (within seconds) that a run will be long and how to make it shorter."""

from __future__ import annotations

import itertools
import re

import pytest

from amoeboid_edu import cli
from amoeboid_edu.lab import estimate, score, tournament
from amoeboid_edu.lab.entrants import entry

QUIET = dict(progress=False, per_move_limit=5.0)
CARD = dict(QUIET, workers=1)
"""A card played here (``workers=1``); the default would follow the machine's cores (a pool of processes on two).
The tests of the default and of a pool ask for them."""
PLAYS = "    from amoeboid_edu import legal_turns\n    return next(iter(legal_turns(position, roll)))\n"


# --------------------------------------------------------------------------- which function of a file plays


def test_a_file_without_a_function_name_plays_strategy_when_it_defines_one(tmp_path):
    path = tmp_path / "bob.py"
    path.write_text(f"def other(position, roll, rng):\n{PLAYS}\n\ndef strategy(position, roll, rng):\n{PLAYS}")
    assert entry(str(path)).load["name"] == "strategy"
    card = score(str(path), games=2, opponents=["random"], **CARD)
    assert card.player == "bob" and card.summary()["games"].tolist() == [2]


def test_a_file_without_strategy_plays_its_one_function_that_takes_position_roll_rng(tmp_path):
    path = tmp_path / "bob.py"
    path.write_text(f"def helper(x):\n    return x\n\n\ndef my_strategy(position, roll, rng):\n{PLAYS}")
    assert entry(str(path)).load["name"] == "my_strategy"
    card = score(str(path), games=2, opponents=["random"], **CARD)
    assert card.summary()["forfeits"].tolist() == [0]


def test_a_file_with_several_candidates_or_none_is_refused_in_one_line_listing_them(tmp_path):
    several = tmp_path / "two.py"
    several.write_text("def careful(position, roll, rng):\n    pass\n\n\ndef bold(pos, r, g=None):\n    pass\n")
    with pytest.raises(ValueError, match=r"two.py defines no 'strategy' but 2 functions that take \(position, roll, "
                                         r"rng\): careful, bold; say which one to play after a ':', e\.g\. .*two\.py:careful"):
        score(str(several), games=2, **CARD)
    none = tmp_path / "none.py"
    none.write_text("def helper(x):\n    return x\n")
    with pytest.raises(ValueError, match=r"none.py defines no function that takes \(position, roll, rng\) \(it defines "
                                         r"helper\): write one, def strategy"):
        score(str(none), games=2, **CARD)


def test_the_command_line_scores_a_file_given_without_a_function(tmp_path, capsys):
    path = tmp_path / "bob.py"
    path.write_text(f"def my_strategy(position, roll, rng):\n{PLAYS}")
    assert cli.main(["score", str(path), "--games", "2", "--opponents", "random", "-q"]) == 0
    assert capsys.readouterr().out.startswith("bob:my_strategy: 2 games")
    assert cli.main(["score", str(tmp_path / "missing.py"), "--games", "2", "-q"]) == 2
    assert "no such file" in capsys.readouterr().err


# --------------------------------------------------------------------------- a class folder's file without strategy


def test_a_hand_in_without_strategy_lists_its_functions_escaped_and_says_how_to_name_one(tmp_path):
    (tmp_path / "nina.py").write_text(f"def helper(x):\n    return x\n\n\ndef my_strategy(position, roll, rng):\n{PLAYS}")
    (tmp_path / "omar.py").write_text(f"def ｓtrategy_v2(position, roll, rng):\n{PLAYS}")  # a full-width letter
    (tmp_path / "paul.py").write_text(f"def mine(position, roll, rng):\n{PLAYS}\nstrategy = mine\n")  # named so too
    (tmp_path / "ann.py").write_text(f"def strategy(position, roll, rng):\n{PLAYS}")
    text = str(tournament(str(tmp_path), games=2, progress=False))
    assert "paul: did not load" not in text and "ann: did not load" not in text
    assert ("nina: did not load: nina.py defines no 'strategy' (it defines helper, my_strategy): name the one to play "
            "strategy, e.g. add the line strategy = my_strategy at the end of nina.py") in text
    omar = next(line for line in text.splitlines() if line.startswith("omar: did not load"))
    assert "(it defines strategy_v2)" in omar  # Python reads the full-width letter as s: the name it defines


def test_a_tournament_that_cannot_start_says_why_each_file_did_not_load(tmp_path):
    (tmp_path / "nina.py").write_text(f"def my_strategy(position, roll, rng):\n{PLAYS}")
    (tmp_path / "ann.py").write_text(f"def strategy(position, roll, rng):\n{PLAYS}")
    with pytest.raises(ValueError, match=r"at least two strategies that can be read; nina: nina.py defines no "
                                         r"'strategy' \(it defines my_strategy\)"):
        tournament(str(tmp_path), games=2, progress=False)


# --------------------------------------------------------------------------- a long run says so


class Clock:
    """Seconds that advance by ``step`` at every reading: a run whose games seem to take ``step`` each."""

    def __init__(self, step: float) -> None:
        self.readings = itertools.count()
        self.step = step

    def __call__(self) -> float:
        return next(self.readings) * self.step


def test_the_estimate_is_said_once_calibrated_on_the_games_after_the_first_ones():
    said: list[str] = []
    run = estimate.RunEstimate("scoring nina", 600, estimate.score_advice(200, ["random", "greedy", "paper"], 1, 6),
                               said.append, clock=Clock(0.5))
    for _ in range(600):
        run.finished()
    assert len(said) == 1
    line = said[0]
    assert line.startswith("scoring nina: about 5 min for 600 games (timed on the first ")  # 600 x 0.5 s
    fewer = re.search(r"fewer games, e\.g\. games=(\d+) / --games \1 \(about (\d+) s\)", line)
    assert fewer and int(fewer[1]) < 200 and int(fewer[2]) <= estimate.LONG_RUN
    assert "opponents=['random'] / --opponents random" in line
    more = estimate.cores()
    assert (f"workers={min(more, 6)} / --workers {min(more, 6)}" in line) == (more > 1)
    assert "\n" not in line


def test_a_short_run_or_a_fast_one_says_nothing():
    said: list[str] = []
    quick = estimate.RunEstimate("scoring nina", 600, estimate.score_advice(200, ["random"], 1, 2), said.append,
                                 clock=Clock(0.01))
    short = estimate.RunEstimate("scoring nina", 2, estimate.score_advice(2, ["random"], 1, 2), said.append,
                                 clock=Clock(10.0))  # over before a second game could time the rate
    for run in (quick, short):
        for _ in range(run.total):
            run.finished()
    assert said == []


def test_games_finishing_together_do_not_make_a_long_run_look_short():
    """A tournament's batch reports its games at once: they count as one start, not as a rate."""
    said: list[str] = []
    now = [0.0]
    run = estimate.RunEstimate("tournament", 1000, estimate.tournament_advice(100, ["greedy"], 1), said.append,
                               clock=lambda: now[0])
    for batch in range(3):
        now[0] = 20.0 * (batch + 1)  # a batch of 100 games every 20 s: 200 s in all
        for _ in range(100):
            run.finished()
    assert len(said) == 1 and re.match(r"tournament: about [34] min for 1,000 games", said[0])
    fewer = re.search(r"fewer games per pairing, e\.g\. games=(\d+) / --games \1 ", said[0])
    assert fewer and 2 <= int(fewer[1]) < 100 and int(fewer[1]) % 2 == 0
    assert "fewer baseline bots (now greedy" in said[0]


def test_score_and_tournament_print_the_estimate_on_stderr(monkeypatch, capsys, tmp_path):
    monkeypatch.setattr(estimate, "CLOCK", Clock(2.0))  # every game seems to take seconds
    score("random", games=40, opponents=["greedy"], progress=True, workers=1)
    err = capsys.readouterr().err
    assert re.search(r"scoring random: about \d+ (s|min) for 40 games \(timed on the first \d+\)\. To make it shorter: "
                     r"fewer games, e\.g\. games=\d+ / --games \d+", err)
    tournament(["random", "greedy"], games=40, progress=True)
    assert "tournament: about " in capsys.readouterr().err
    score("random", games=40, opponents=["greedy"], progress=False, workers=1)
    assert "about" not in capsys.readouterr().err
