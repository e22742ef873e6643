"""The strategy lab: fair, reproducible scoring that a student's code cannot break or fool."""

from __future__ import annotations

import random
import re
import subprocess
import sys
from pathlib import Path

import pytest

import hostile
from amoeboid_edu import Position, seeded_rng
from amoeboid_edu.players.bots import greedy
from amoeboid_edu.players.registry import BOTS
from amoeboid_edu.lab import score, tournament, wilson_interval

STRATEGIES = Path(__file__).parents[1] / "strategies"
FAST = dict(opponents=["random", "greedy"], progress=False, per_move_limit=5.0, workers=1)
"""A short card played here (``workers=1``); the default would follow the machine's cores (a pool of two here).
The tests that are about a pool ask for one."""


def test_wilson_interval_matches_known_values():
    # Reference values from the closed form (Wilson 1927), e.g. Brown, Cai & DasGupta (2001), table values.
    low, high = wilson_interval(5, 10)
    assert (round(low, 4), round(high, 4)) == (0.2366, 0.7634)
    low, high = wilson_interval(0, 10)
    assert (round(low, 4), round(high, 4)) == (0.0, 0.2775)
    low, high = wilson_interval(10, 10)
    assert (round(low, 4), round(high, 4)) == (0.7225, 1.0)


def test_score_pairs_every_dice_seed_with_seats_swapped():
    card = score(hostile.plays_fair, games=6, seed=3, **FAST)
    frame = card.to_frame()
    assert len(frame) == 12
    assert sorted(frame.groupby(["opponent", "pair"])["seat"].apply("".join).unique()) == ["AB"]
    summary = card.summary()
    assert summary["games"].tolist() == [6, 6]
    assert (summary["wins"] + summary["ties"] + summary["losses"] == 6).all()
    assert not frame["forfeit"].notna().any()


def test_both_games_of_a_pair_deal_the_same_dice_to_the_same_seat():
    # Whoever sits at A forfeits on the first turn, naming the roll it was dealt: the seat, not the player, gets it.
    results = tournament([hostile.reports_first_roll, hostile.reports_first_roll], games=40, seed=8, progress=False)
    first_rolls: dict[int, list[str]] = {}
    for record in results.records:
        assert record.forfeit_by == ("first" if record.first_seat == "A" else "second") and record.turns == 0
        first_rolls.setdefault(record.pair, []).append(record.value)
    assert all(len(set(rolls)) == 1 for rolls in first_rolls.values())
    assert len({rolls[0] for rolls in first_rolls.values()}) == 6  # and the dice differ from pair to pair


def test_same_seed_same_card_serial_or_parallel():
    # A worker that takes longer than the load limit to start is a forfeit by design, so on a loaded machine (CI saw
    # a portable start pass 30 s) a generous limit keeps this test about the dice, not the machine's load.
    patient = dict(FAST, load_limit=600)
    serial = score(hostile.plays_fair, games=10, seed=11, **patient)
    parallel = score(hostile.plays_fair, games=10, seed=11, **dict(patient, workers=2))  # a rerun, in other processes
    other_seed = score(hostile.plays_fair, games=10, seed=12, **patient)
    assert serial.records == parallel.records
    measured = re.compile(r"Time per move: [0-9.]+ (ms|s) on average, [0-9.]+ (ms|s) at most")  # the one clock figure
    assert measured.sub("", str(serial)) == measured.sub("", str(parallel))
    assert measured.sub("", serial._repr_html_()) == measured.sub("", parallel._repr_html_())
    assert serial.records != other_seed.records


def test_a_long_card_splits_each_pairing_in_two_blocks_and_starts_the_dearest_first():
    # Two processes share the paper bot's games (the dearest) instead of one playing them alone; a short card keeps
    # one batch per pairing (each block starts its game processes afresh).
    from amoeboid_edu.lab.entrants import entry
    from amoeboid_edu.lab.scoring import _card_blocks

    entries = {name: entry(name) for name in ("random", "greedy", "paper")}
    entries["mine"] = entry(hostile.plays_fair)
    matches = [("mine", "random"), ("mine", "greedy"), ("mine", "paper")]
    blocks = _card_blocks(matches, 200, entries)
    assert [(block[0][1], block[0][2], block[-1][2]) for block in blocks] == [
        ("paper", 0, 49), ("paper", 50, 99), ("random", 0, 49), ("random", 50, 99), ("greedy", 0, 49),
        ("greedy", 50, 99)]
    assert sorted(task for block in blocks for task in block) == sorted(
        (first, second, pair) for first, second in matches for pair in range(100))
    assert [len(block) for block in _card_blocks(matches, 16, entries)] == [8, 8, 8]
    # a strategy that keeps state in its module: each block's lanes meet the same games on any executor
    options = dict(games=100, seed=4, opponents=["greedy"], progress=False, per_move_limit=5.0)
    serial = score(hostile.counts_its_moves, workers=1, **options)
    parallel = score(hostile.counts_its_moves, workers=2, **options)
    assert [record.moves for record in serial.records] == [record.moves for record in parallel.records]
    assert len(serial.records) == 100 and not any(record.forfeit_by for record in serial.records)


def test_strategy_from_a_notebook_cell_travels_by_value():
    # Like a notebook cell: defined in __main__, helper and constant included, not importable by any worker.
    cell = '''
from amoeboid_edu import legal_move_pairs
WHOLE = "{roll} {grow} {src}-{dst}"

def whole_move(roll, grow, pair):
    return WHOLE.format(roll=roll, grow=grow, src=pair[0], dst=pair[1])

def wander(position, roll, rng):
    grow = rng.choice(position.owned())
    pairs = legal_move_pairs(position, roll, grow)
    return whole_move(roll, grow, rng.choice(pairs)) if pairs else f"{roll} {grow} -"

class Wanderer:
    def choose(self, position, roll, rng):
        return wander(position, roll, rng)
'''
    namespace = {"__name__": "__main__"}
    exec(compile(cell, "<notebook cell>", "exec"), namespace)
    assert namespace["wander"].__module__ == "__main__"
    function_card = score(namespace["wander"], games=4, seed=5, **FAST)
    object_card = score(namespace["Wanderer"](), games=4, seed=5, **FAST)
    assert function_card.forfeits().empty and object_card.forfeits().empty
    # The same play from the same streams, whatever the strategy is called.
    assert function_card.to_frame()[["result", "turns"]].equals(object_card.to_frame()[["result", "turns"]])
    assert function_card.records == score(hostile.plays_fair, games=4, seed=5, name="wander", **FAST).records


HOSTILE = [
    (hostile.raises, "exception", "RuntimeError: boom"),
    (hostile.loops_forever, "timeout", "no answer within"),
    (hostile.returns_garbage, "malformed", "42"),
    (hostile.returns_nonsense_text, "malformed", "move my amoeba please"),
    (hostile.returns_illegal, "illegal", "-"),
    (hostile.mutates_and_cheats, "illegal", "1,1"),
    (hostile.snoops_for_dice, "exception", "LookupError: no dice generator in reach"),
    (hostile.prints_a_megabyte, "exception", "ValueError: after the megabyte"),
    (hostile.exits, "crash", "the worker exited"),
    (hostile.hoards_memory, "exception", "MemoryError"),
]


@pytest.mark.parametrize("strategy, reason, value", HOSTILE, ids=[s.__name__ for s, _, _ in HOSTILE])
def test_hostile_strategy_forfeits_with_the_right_reason(strategy, reason, value, capfd):
    limit = 0.2 if reason == "timeout" else 5.0  # a timeout is waited out; the other moves are honest and quick
    card = score(strategy, games=2, seed=1, opponents=["random", "greedy"], per_move_limit=limit, progress=False)
    frame = card.to_frame()
    assert len(frame) == 4  # the run completed: every game was played
    assert (frame["forfeit"] == "player").all() and (frame["result"] == "loss").all()
    assert set(frame["reason"]) == {reason}
    assert all(value in text for text in frame["value"])
    forfeits = card.forfeits()
    assert forfeits["reason"].tolist() == [reason] and forfeits["games"].tolist() == [4]
    assert reason in str(card) and reason in card._repr_html_()
    out, err = capfd.readouterr()
    assert "xxxx" not in out + err  # printing is captured, never spilled into the notebook or terminal


def test_printed_lines_are_kept_short_and_shown_with_the_forfeit():
    card = score(hostile.prints_a_megabyte, games=2, opponents=["random"], progress=False)
    frame = card.to_frame()
    assert (frame["printed"] > 1_000_000).all()
    last_lines = frame["output"].iloc[0].splitlines()
    assert last_lines[-1] == "last words before the forfeit"
    assert len(frame["output"].iloc[0]) < 5000
    assert "last words before the forfeit" in str(card)


def test_printing_alone_is_no_forfeit():
    card = score(hostile.prints_a_megabyte_and_plays, games=2, opponents=["random"], progress=False)
    assert card.forfeits().empty


def test_what_a_strategy_does_to_its_copy_or_to_random_changes_nothing():
    honest = score(hostile.plays_fair, games=6, seed=2, **FAST).to_frame()
    for strategy in (hostile.mutates_then_plays, hostile.reseeds_global_random):
        frame = score(strategy, games=6, seed=2, **FAST).to_frame()
        assert frame[["result", "turns"]].equals(honest[["result", "turns"]]), strategy.__name__


def test_the_snooper_would_find_dice_in_reach():
    """Control for the isolation test: run in this process, next to a generator, the snooper does find it."""
    dice = random.Random(0)
    assert hostile.snoops_for_dice(Position.start(3), 3, seeded_rng(0)) is not None
    del dice


def test_a_timeout_kills_only_that_game_and_the_worker_is_restarted():
    calls = '''
import time
from amoeboid_edu import legal_turns

def sometimes_slow(position, roll, rng):
    if roll == 6 and position.to_move == "A":
        while True:
            time.sleep(1)
    return next(legal_turns(position, roll))
'''
    namespace = {"__name__": "__main__"}
    exec(calls, namespace)
    # A sleeping move uses no CPU, so the wall-clock guard (WAIT_FACTOR times the limit) stops it: 3 s at 0.3 s in
    # each A game that rolls a 6.  The honest moves (the first legal turn) take milliseconds of CPU.  Four games: the
    # strategy plays A in games 0 and 2 (each killed) and B in games 1 and 3, each after a kill.
    card = score(namespace["sometimes_slow"], games=4, seed=4, opponents=["random"], per_move_limit=0.3,
                 progress=False)
    frame = card.to_frame()
    timeouts = frame[frame["reason"] == "timeout"]
    assert 0 < len(timeouts) < len(frame)
    assert (timeouts["seat"] == "A").all()
    assert frame[frame["reason"].isna()]["turns"].min() > 1  # the other games went on past the kill
    assert frame[frame["reason"].isna()]["game"].max() > timeouts["game"].min()  # a game played after a kill


def test_bad_arguments_are_clear_errors():
    with pytest.raises(ValueError, match="even"):
        score(hostile.plays_fair, games=3, progress=False)
    with pytest.raises(ValueError, match="opponents"):
        score(hostile.plays_fair, games=2, opponents=["grandmaster"], progress=False)
    with pytest.raises(TypeError, match="strategy"):
        score(42, games=2, progress=False)
    with pytest.raises(ValueError, match="MODULE:FUNCTION"):
        score("no colon here", games=2, progress=False)


def test_baselines_beat_random_clearly_through_the_lab():
    for name in ("greedy", "paper"):
        summary = score(BOTS[name], games=200, seed="vs-random", opponents=["random"], progress=False).summary()
        assert summary["ci_low"].iloc[0] > 0.55, (name, summary.to_dict("records"))


def test_expectimax_beats_random_and_greedy():
    # Games still going after 150 turns count as ties (capped): expectimax must win more than it loses.
    results = tournament([BOTS["expectimax"], greedy], games=40, seed="expectimax", progress=False,
                         executor="processes:2", max_turns=150)
    table = results.table().set_index("player")
    wins, losses = table.loc["expectimax", "wins"], table.loc["expectimax", "losses"]
    assert table.loc["expectimax", "rank"] == 1
    assert wilson_interval(wins, wins + losses)[0] > 0.6, table.to_dict("index")
    summary = score(BOTS["expectimax"], games=40, seed="expectimax", opponents=["random"], workers=2,
                    max_turns=150, progress=False).summary()
    assert summary["ci_low"].iloc[0] > 0.55, summary.to_dict("records")


def test_tournament_ranks_with_intervals_and_matches_serial_in_parallel():
    entrants = [hostile.plays_fair, "random", greedy, hostile.Chooser()]
    serial = tournament(entrants, games=6, seed=9, progress=False)
    parallel = tournament(entrants, games=6, seed=9, progress=False, executor="processes:2")
    assert serial.records == parallel.records
    table = serial.table()
    assert table["rating"].is_monotonic_decreasing and table["rank"].tolist() == [1, 2, 3, 4]
    assert set(table["player"]) == {"wander", "random", "greedy", "chooser"}  # plays_fair is student.wander
    assert (table["games"] == 18).all()
    assert len(serial.records) == 6 * 6
    assert serial.chart().to_dict()["layer"]


def test_card_renders_as_table_and_chart():
    card = score(hostile.plays_fair, games=4, **FAST)
    html = card._repr_html_()
    assert "<table" in html and "win_rate" in html and "greedy" in html
    spec = card.chart().to_dict()
    assert len(spec["layer"]) == 3
    assert [row["opponent"] for row in next(iter(spec["datasets"].values()))] == ["random", "greedy"]


def run_cli(*args, cwd=None):
    return subprocess.run([sys.executable, "-m", "amoeboid_edu", "score", *args], capture_output=True, text=True,
                          timeout=120, cwd=cwd)


def test_cli_scores_a_file_and_lists_forfeits_with_exit_status_0():
    done = run_cli(f"{STRATEGIES / 'student.py'}:shout", "--games", "2", "--opponents", "random,greedy", "-q")
    assert done.returncode == 0, done.stderr
    assert "shout: 4 games, seed 0" in done.stdout
    assert "exception x4: ValueError: no idea what to do with a" in done.stdout
    assert "| thinking about (1,0) . . / . . . / . . (0,1) A" in done.stdout
    broken = run_cli(f"{STRATEGIES / 'broken.py'}:broken", "--games", "2", "--opponents", "random", "-q")
    assert broken.returncode == 2 and broken.stdout == ""  # refused before any game, in one line
    assert broken.stderr.startswith("error: ") and broken.stderr.count("\n") == 1
    assert "broken.py has a SyntaxError on line 1" in broken.stderr


def test_cli_imports_module_targets_in_the_worker():
    # As a student runs it, next to their module: the workers import it from the current directory.
    done = run_cli("student:wander", "--games", "4", "--seed", "7", "--opponents", "random", "--workers", "2", "-q",
                   cwd=STRATEGIES)
    assert done.returncode == 0, done.stderr
    assert "wander: 4 games, seed 7" in done.stdout and "forfeits:" not in done.stdout


def test_cli_usage_errors_are_one_line_with_status_2():
    from cli_runner import amoeboid  # refused before any game: in this process (tests/cli_runner.py)

    for args in (["missing.py:f"], ["nocolon"], [f"{STRATEGIES / 'student.py'}:wander", "--games", "3"]):
        done = amoeboid("score", *args)
        stderr = done.stderr.decode()
        assert done.returncode == 2 and stderr.count("\n") == 1 and stderr.startswith("error: "), (args, stderr)


def test_score_in_a_notebook_kernel_with_a_cell_strategy():
    """As in class: the strategy is a notebook cell, the card is the cell's output, its prints stay out."""
    import nbformat
    from nbclient import NotebookClient

    notebook = nbformat.v4.new_notebook()
    notebook.cells = [
        nbformat.v4.new_code_cell(
            "from amoeboid_edu import legal_move_pairs\n"
            "from amoeboid_edu.lab import score\n"
            "\n"
            "def wander(position, roll, rng):\n"
            "    grow = rng.choice(position.owned())\n"
            "    pairs = legal_move_pairs(position, roll, grow)\n"
            "    print('thinking out loud about', grow)\n"
            "    return f\"{roll} {grow} {'-'.join(rng.choice(pairs))}\" if pairs else f'{roll} {grow} -'"
        ),
        nbformat.v4.new_code_cell('score(wander, games=10, opponents=["random", "greedy"], workers=2, progress=False)'),
    ]
    NotebookClient(notebook, timeout=120, kernel_name="python3").execute()
    outputs = notebook.cells[1]["outputs"]
    assert [output["output_type"] for output in outputs] == ["execute_result"]
    html = outputs[0]["data"]["text/html"]
    assert "wander: 20 games, seed 0" in html and "<table" in html and "greedy" in html
    assert not any("thinking out loud" in str(cell.get("outputs")) for cell in notebook.cells)


def test_bots_turns_played_unchecked_make_the_positions_the_checked_referee_makes():
    # The lab plays a baseline bot's turn without checking it again (Match.play_trusted): the same position and
    # record as the checked play, move for move, on games of every fast bot against the others.
    from amoeboid_edu.engine.match import Match

    for pair in range(6):
        for first, second in (("random", "greedy"), ("paper", "random"), ("greedy", "paper")):
            checked = Match(first, second, seed="trusted", pair=pair, max_turns=150)
            trusted = Match(first, second, seed="trusted", pair=pair, max_turns=150)
            while (seat := checked.due()) is not None:
                assert trusted.due() == seat
                bot = BOTS[checked.kinds[seat]]
                roll = checked.roll()
                assert trusted.roll() == roll
                checked.play(bot(checked.position, roll, checked.rng()))
                trusted.play_trusted(bot(trusted.position, roll, trusted.rng()))
                assert trusted.position == checked.position
            assert trusted.turns == checked.turns and trusted.due() is None
