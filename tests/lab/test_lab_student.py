"""The student's lab in plain words (issue 25): verdicts, their own games, a card they can read, messages to act on."""

from __future__ import annotations


import pytest

import student_mistakes as mistakes
from amoeboid_edu.theory import coach
from amoeboid_edu.players.bots import greedy
from amoeboid_edu.ui.exercises import check
from amoeboid_edu.lab import compare, score, tournament
from amoeboid_edu.lab.scoring import SAME_FAILURE_STOP
from amoeboid_edu.sandbox.defaults import DEFAULT_GAMES, FAST_OPPONENTS
from amoeboid_edu.engine.match import play_match
from amoeboid_edu.engine.rules import Position

QUIET = dict(progress=False, per_move_limit=5.0)
CARD = dict(QUIET, workers=1)
"""A card played here (``workers=1``); the default would follow the machine's cores (a pool of processes on two).
The tests of the default and of a pool ask for them."""


# --------------------------------------------------------------------------- plain-language results


def test_the_sign_test_is_exact_and_the_rank_ranges_follow_overlaps():
    from amoeboid_edu.lab.stats import paired_verdict, rank_ranges, sign_test

    assert sign_test(5, 0) == 2 / 2**5 and sign_test(6, 0) == 2 / 2**6  # all one way: 2 x (1/2)^n
    assert sign_test(3, 3) == 1.0 and sign_test(0, 0) == 1.0
    assert paired_verdict([2, 2, 2, 2, 2], "greedy")[0] == "too close to call"  # 5 pairs cannot reach 5%
    assert paired_verdict([2, 1.5, 2, 2, 2, 2, 1, 1], "greedy")[0] == "beats greedy"
    assert paired_verdict([0, 0, 0.5, 0, 0, 0], "paper")[0] == "loses to paper"
    assert paired_verdict([], "paper")[0] == "not enough games"
    assert rank_ranges([10, 5, 0], [20, 15, 4]) == [(1, 2), (1, 2), (3, 3)]


def test_two_versions_differing_on_a_rare_position_are_too_close_to_call_at_50_games():
    card = compare(mistakes.best_delta_but_rarely, mistakes.best_delta, games=50, seed=4, **CARD)
    assert card.verdicts()["verdict"].tolist() == ["too close to call"]
    assert "too close to call" in str(card) and "could be luck" in str(card)


def test_clearly_different_strategies_are_separated_both_ways():
    card = score(mistakes.best_delta, games=50, seed=4, opponents=[mistakes.first_turn, "random"], **CARD)
    assert card.verdicts()["verdict"].tolist() == ["loses to first_turn", "beats random"]  # eating at once is naive
    assert card.summary()["verdict"].tolist() == ["loses to first_turn", "beats random"]
    assert "\nbest_delta loses to first_turn: on the same dice (seats swapped) it did better on " in str(card)
    better = compare(mistakes.first_turn, mistakes.best_delta, games=50, seed=4, **CARD)
    assert better.verdicts()["verdict"].tolist() == ["beats best_delta"]


def test_a_strategy_can_play_its_own_old_version_on_the_same_dice_as_the_bots():
    card = score(mistakes.best_delta, games=4, seed=2, opponents=[mistakes.best_delta, "greedy"], **CARD)
    assert card.summary()["opponent"].tolist() == ["best_delta", "greedy"]
    assert card.player == "best_delta (player)"


def test_the_leaderboard_shows_overlapping_ratings_as_a_rank_range_with_a_sentence():
    result = tournament([mistakes.best_delta, mistakes.best_delta_but_rarely, "random"], games=6, seed=1,
                        progress=False, per_move_limit=5.0)
    table = result.table().set_index("player")
    twins = table.loc["best_delta", "could_be"], table.loc["best_delta_but_rarely", "could_be"]
    assert twins[0] == twins[1] and "-" in twins[0]  # the same strategy almost: neither rank is certain
    assert f"Could be: a rank range under 'could_be' such as {twins[0]}" in str(result)


# --------------------------------------------------------------------------- see your games


@pytest.mark.parametrize("workers", [1, 2])
def test_the_cards_games_are_games_and_replay_turn_for_turn(workers):
    card = score(mistakes.best_delta, games=6, seed=7, opponents=["random", "greedy"], workers=workers, **QUIET)
    games = card.games()
    assert games["game"].tolist() == list(range(12))
    for i in (0, 3, 7, 10):
        record = card.records[i]
        game = card.game(i)
        assert len(game) == record.turns and [str(turn) for turn in game.turns] == record.played()
        assert card.replay(i, mistakes.best_delta).turns == game.turns
        side_a = record.first_seat == "A"
        players = (mistakes.best_delta, greedy) if record.second == "greedy" else None
        if players:  # the same game from the public one-game function, with the card's seeds
            match = play_match(*players, seed=7, pair=record.pair, first_seat=record.first_seat, table=("greedy",))
            assert tuple(match.turns) == game.turns
        assert side_a in (True, False)
    worst = card.worst_losses(3)
    assert (worst["result"] == "loss").all() and list(worst["turns"]) == sorted(worst["turns"])
    with pytest.raises(IndexError, match="this card has games 0 to 11"):
        card.game(12)


def test_a_cards_game_opens_in_replay_and_review():
    from amoeboid_edu.ui.widget import Replay

    card = score(mistakes.best_delta, games=2, seed=3, opponents=["greedy"], **CARD)
    game = card.game(0)
    replay = Replay(game)
    replay.seek(len(game))
    assert replay.position == str(game.position)
    review = coach.review(card.game(1), rollouts=4, candidates=1)
    assert len(review.frame) == card.records[1].turns


# --------------------------------------------------------------------------- the card a student reads


def test_the_card_says_time_per_move_and_hidden_prints_and_folds_the_jargon():
    card = score(mistakes.prints_a_little, games=2, seed=1, opponents=["greedy"], **CARD)
    text = str(card)
    assert "Time per move: every move well within the limit of 5 s" in text
    assert "(the limit is 5 s of CPU time a move)" in card.timing() and " ms at most over " in card.timing()
    printed = sum(record.lines[0] for record in card.records)
    assert printed > 0 and f"Your strategy printed {printed:,} lines (hidden): card.printed(0)" in text
    assert card.printed(0).splitlines()[-1].startswith("my roll is ")
    assert text.index("Time per move") < text.index("opponent") < text.index("details: isolation")
    html = card._repr_html_()
    assert "<details><summary>details</summary><p>isolation" in html
    assert html.index("Your strategy printed") < html.index("<details>")


def test_a_repeated_forfeit_kind_gets_the_fix_this_first_banner():
    card = score(mistakes.malformed_each_time_differently, games=8, seed=1, opponents=["greedy"], **CARD)
    assert len(card.records) == SAME_FAILURE_STOP
    assert len({record.value for record in card.records}) > 1  # different values, one kind of mistake
    assert card.stopped.startswith("your strategy fails the same way every game: fix this first.")


# --------------------------------------------------------------------------- messages that say what to fix


def test_a_forgotten_return_says_so():
    card = score(mistakes.forgets_return, games=2, seed=1, opponents=["greedy"], **CARD)
    record = card.records[0]
    assert record.reason == "malformed" and record.value == "None"
    assert "a `return` is missing" in record.message
    assert "'None'" not in str(card)


def test_changing_the_position_points_at_the_students_line_and_suggests_apply():
    card = score(mistakes.changes_the_position, games=2, seed=1, opponents=["greedy"], **CARD)
    message = card.records[0].message
    assert "line 36 of student_mistakes.py: position.to_move = \"B\"" in message
    assert "apply(position, turn)" in message and "<string>" not in message


def test_a_wrong_function_name_is_refused_before_any_game_with_the_real_names(tmp_path):
    path = tmp_path / "nina.py"
    path.write_text("def helper(x):\n    return x\n\n\ndef strategy(position, roll, rng):\n    return None\n")
    with pytest.raises(ValueError, match=r"nina.py defines no strategi \(it defines helper, strategy\)"):
        score(f"{path}:strategi", games=2, **CARD)


def test_a_tournament_where_nothing_loads_says_so_in_a_sentence(tmp_path):
    for name in ("ann", "bob"):
        (tmp_path / f"{name}.py").write_text("raise RuntimeError('broken on purpose')\n")
    result = tournament(str(tmp_path), games=2, progress=False)
    text = str(result)
    assert text.startswith("No tournament: no strategy loaded.") and "Empty DataFrame" not in text
    assert "ann: did not load: " in text and "broken on purpose" in text
    assert "No tournament" in result._repr_html_()


def test_a_timeout_says_where_the_strategy_was_stuck_and_how_to_allow_more_time():
    card = score(mistakes.loops_forever, games=2, seed=1, opponents=["greedy"], progress=False, per_move_limit=0.5)
    message = card.records[0].message
    assert card.records[0].reason == "timeout"
    assert "it was stopped in loops_forever, line " in message and "of student_mistakes.py: " in message
    assert "per_move_limit=1" in message and "--per-move-limit 1" in message
    timeouts = sum(record.reason == "timeout" for record in card.records)
    assert f"; {timeouts} more {'was' if timeouts == 1 else 'were'} stopped at the limit (forfeits: timeout)" in card.timing()


def test_a_timeout_caused_by_printing_says_so():
    card = score(mistakes.prints_too_much, games=2, seed=1, opponents=["greedy"], progress=False, per_move_limit=0.2)
    record = card.records[0]
    assert record.reason == "timeout" and "printing that much is what took the time" in record.message


def test_check_stops_an_endless_loop_and_says_where():
    def my_strategy(position, roll, rng):
        while True:
            pass

    position = Position.start()
    verdict = check(lambda: my_strategy(position, 1, None), "1 a1 a1-b2", position=position, hint="h", seconds=0.3)
    assert verdict.correct is False
    assert "ran for 0.3 s without finishing" in str(verdict) and "in my_strategy, line " in str(verdict)


def test_check_says_still_the_starting_code_only_while_the_code_is_unchanged():
    position = Position.parse("(6,0) . . / . . . / . . (0,1) A")
    starting = "return first(position, roll)"

    def first(position, roll):
        return "1 a1 a1-a2"

    def my_strategy(position, roll, rng):
        """My strategy."""
        return first(position, roll)  # a comment changes nothing

    def edited(position, roll, rng):
        turn = first(position, roll)
        return turn

    options = dict(position=position, unanswered="1 a1 a1-a2", starting=starting, hint="h")
    unchanged = check(lambda: my_strategy(position, 1, None), "1 a1 a1-b2", code=my_strategy, **options)
    assert unchanged.correct is None and "still the starting code's answer" in str(unchanged)
    changed = check(lambda: edited(position, 1, None), "1 a1 a1-b2", code=edited, **options)
    assert changed.correct is False and "starting code" not in str(changed)


# --------------------------------------------------------------------------- one set of defaults


def test_the_cli_and_the_api_score_with_the_same_defaults():
    import inspect

    from amoeboid_edu.cli import build_parser
    from amoeboid_edu.lab import score as api_score

    args = build_parser().parse_args(["score", "x.py:strategy"])
    assert args.games == inspect.signature(api_score).parameters["games"].default == DEFAULT_GAMES
    assert args.opponents.split(",") == list(FAST_OPPONENTS)
    usage = build_parser()._subparsers._group_actions[0].choices["score"].format_help()
    assert f"default {DEFAULT_GAMES}" in usage and "default random,greedy,paper" in " ".join(usage.split())


# --------------------------------------------------------------------------- robust to the releases students install

CELL = "/tmp/ipykernel_4242/1234567.py"  # the file name IPython gives a cell; its source lives only in linecache
CELL_SOURCE = '''def helper(turns):
    return turns[99]


def my_strategy(position, roll, rng):
    return helper(list(candidate_turns(position, roll)))
'''


def test_a_notebook_cells_forfeit_shows_the_students_line():
    import linecache

    from amoeboid_edu.players.strategy import candidate_turns

    linecache.cache[CELL] = (len(CELL_SOURCE), None, CELL_SOURCE.splitlines(True), CELL)
    namespace = {"__name__": "__main__", "candidate_turns": candidate_turns}
    exec(compile(CELL_SOURCE, CELL, "exec"), namespace)
    card = score(namespace["my_strategy"], games=2, opponents=["greedy"], **CARD)
    assert "raised in helper, line 2 of its notebook cell: return turns[99]" in card.records[0].message


def test_a_line_named_by_cloudpickles_dynamic_code_file_is_found_by_function_and_line():
    # cloudpickle 3.1.3 renames every pickled code object's file to "<dynamic-code>": the worker's traceback then
    # names that, and the line is found among the strategy's own functions as this process sees them.
    import linecache

    from amoeboid_edu.lab.entrants import _source_index, _with_source
    from amoeboid_edu.lab.scoring import _raised_where
    from amoeboid_edu.players.strategy import candidate_turns

    linecache.cache[CELL] = (len(CELL_SOURCE), None, CELL_SOURCE.splitlines(True), CELL)
    namespace = {"__name__": "__main__", "candidate_turns": candidate_turns}
    exec(compile(CELL_SOURCE, CELL, "exec"), namespace)
    where = _with_source(["<dynamic-code>", 2, "helper", ""], _source_index(namespace["my_strategy"]))
    assert _raised_where(where) == "raised in helper, line 2 of its notebook cell: return turns[99]"


NEWEST = "AMOEBOID_NEWEST_PACKAGES"
"""A folder of newer releases of the runtime dependencies (e.g. ``pip install --target DIR -U cloudpickle``): the
non-default job runs the notebook-cell test above with them first on the import path, workers included."""


@pytest.mark.skipif(not __import__("os").environ.get(NEWEST), reason=f"set {NEWEST} to a folder of newer releases")
def test_a_notebook_cells_forfeit_shows_the_students_line_with_the_newest_releases():
    import os
    import subprocess
    import sys

    environment = {**os.environ, "PYTHONPATH": os.pathsep.join([os.environ[NEWEST], os.environ.get("PYTHONPATH", "")])}
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:nbval", "-o", "addopts=", __file__, "-k",
                           "notebook_cells_forfeit_shows_the_students_line and not newest"],
                          capture_output=True, text=True, env=environment, timeout=600,
                          cwd=os.path.dirname(os.path.dirname(__file__)))
    assert done.returncode == 0, done.stdout[-3000:]
    version = subprocess.run([sys.executable, "-c", "import cloudpickle; print(cloudpickle.__version__)"],
                             capture_output=True, text=True, env=environment).stdout.strip()
    print(f"cloudpickle {version}")


def test_score_plays_on_every_core_by_default_with_the_same_card(monkeypatch):
    import amoeboid_edu.lab.scoring as lab

    asked = []
    real = lab._run
    monkeypatch.setattr(lab, "_run", lambda *args, **kwargs: asked.append(args[4]) or real(*args, **kwargs))
    default = score(mistakes.best_delta, games=2, seed=5, opponents=["random", "greedy"], **QUIET)
    assert asked == [lab.default_workers(4)] and 1 <= asked[0] <= 4
    assert default.records == score(mistakes.best_delta, games=2, seed=5, opponents=["random", "greedy"], workers=1,
                                    **QUIET).records
