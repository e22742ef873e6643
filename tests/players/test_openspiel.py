"""Amoeboid in OpenSpiel (the optional `openspiel` extra): the game passes OpenSpiel's checks, the action
abstraction is a bijection onto the candidate turns, MCTS plays as the class "boss", and without the extra
everything else still works."""

from __future__ import annotations

import pickle
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from cli_runner import amoeboid

from amoeboid_edu import Position, Rules, Turn, random_playout, seeded_rng
from amoeboid_edu.players.strategy import candidate_turns

ROOT = Path(__file__).resolve().parents[2]

try:
    import numpy as np
    import pyspiel

    from amoeboid_edu.players import openspiel as aos
except ImportError:  # CI installs the extra (./dev.sh); without it only the last test runs, and it checks that case
    pyspiel = None
needs_extra = pytest.mark.skipif(pyspiel is None, reason="the openspiel extra is not installed")


def sample_positions(count: int, rows: int, cols: int, rules: Rules = Rules()) -> list[Position]:
    """Unfinished positions from seeded random playouts of various lengths."""
    positions = []
    for index in range(count * 3):
        rng = seeded_rng("openspiel-test", rows, cols, rules.adjacency, index)
        final = random_playout(Position.start(rows, cols, rules), rng, max_turns=rng.randint(0, 40)).final
        if not final.is_over:
            positions.append(final)
        if len(positions) == count:
            break
    return positions


# --------------------------------------------------------------------------- OpenSpiel's own checks


@pytest.mark.parametrize("params", [{"rows": 3, "columns": 3}, {"rows": 5, "columns": 5, "turn_cap": 40}],
                         ids=["3x3", "5x5"])
@needs_extra
def test_random_sim_test_passes(params):
    game = pyspiel.load_game(aos.GAME_NAME, params)
    pyspiel.random_sim_test(game, num_sims=3, serialize=True, verbose=False)


@needs_extra
def test_serialisation_and_pickle_round_trip():
    game = pyspiel.load_game(aos.GAME_NAME, {"rows": 3, "columns": 4, "adjacency": "rook", "die_sides": 4})
    state = game.new_initial_state()
    rng = np.random.RandomState(3)
    for _ in range(21):
        state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]) if state.is_chance_node()
                           else rng.choice(state.legal_actions()))
    text = pyspiel.serialize_game_and_state(game, state)
    new_game, new_state = pyspiel.deserialize_game_and_state(text)
    assert str(new_game) == str(game)
    assert (str(new_state), new_state.history()) == (str(state), state.history())
    assert new_state.legal_actions() == state.legal_actions()
    assert str(pickle.loads(pickle.dumps(state))) == str(state)


@needs_extra
def test_chance_nodes_are_the_die_with_exact_probabilities():
    state = pyspiel.load_game(aos.GAME_NAME, {"die_sides": 4}).new_initial_state()
    assert state.is_chance_node()
    assert state.chance_outcomes() == [(0, 0.25), (1, 0.25), (2, 0.25), (3, 0.25)]
    state.apply_action(2)
    assert state.roll == 3 and state.current_player() == 0
    assert state.action_to_string(state.legal_actions()[0]) == "3 a1 a1-b1 4,0"


@needs_extra
def test_str_is_our_notation_and_returns_follow_the_result():
    game = aos.game_for(Position.start(3))
    won = game.state_at(Position.parse(". . . / . (4,0) . / . . . B"))
    assert str(won) == ". . . / . (4,0) . / . . . B"
    assert won.is_terminal() and won.returns() == [1.0, -1.0]
    state = game.state_at(Position.parse(". . . / . (4,0) (0,3) / . . . A"), roll=2)
    assert str(state) == ". . . / . (4,0) (0,3) / . . . A\nroll 2"
    eat = game.action_of(state.position, Turn.parse("2 b2 b2-c2 6,0"))
    state.apply_action(eat)
    assert state.is_terminal() and state.returns() == [1.0, -1.0] and str(state).endswith(" B")


@needs_extra
def test_the_turn_cap_ends_the_game_as_a_tie():
    state = pyspiel.load_game(aos.GAME_NAME, {"turn_cap": 2}).new_initial_state()
    for _ in range(2):
        state.apply_action(0)
        state.apply_action(state.legal_actions()[0])
    assert state.is_terminal() and state.position.result == "ongoing" and state.returns() == [0.0, 0.0]


@needs_extra
def test_observation_tensor_holds_compositions_side_to_move_and_roll():
    game = aos.game_for(Position.start(3))
    state = game.state_at(Position.parse("(2,1) . . / . . . / . . (0,5) B"), roll=4)
    planes = np.array(state.observation_tensor(0)).reshape(3 + 6, 3, 3)
    assert planes[0, 0, 0] == 2 and planes[1, 0, 0] == 1 and planes[1, 2, 2] == 5
    assert planes[0].sum() == 2 and planes[1].sum() == 6
    assert planes[2].all()  # B to move
    assert [plane.sum() for plane in planes[3:]] == [0, 0, 0, 9, 0, 0]  # rolled 4
    assert state.observation_tensor(1) == state.observation_tensor(0)  # perfect information


# --------------------------------------------------------------------------- the action abstraction


@needs_extra
@pytest.mark.parametrize("rows, cols, adjacency", [(3, 3, "king"), (4, 5, "rook")])
def test_every_candidate_turn_maps_to_an_action_and_back(rows, cols, adjacency):
    game = pyspiel.load_game(aos.GAME_NAME, {"rows": rows, "columns": cols, "adjacency": adjacency})
    checked = 0
    for index, position in enumerate(sample_positions(40, rows, cols, Rules(adjacency=adjacency))):
        roll = index % 6 + 1
        turns = list(candidate_turns(position, roll))
        actions = [game.action_of(position, turn) for turn in turns]
        assert len(set(actions)) == len(turns), f"two candidate turns share an action in {position}"
        assert all(0 <= action < game.num_distinct_actions() for action in actions)
        assert [game.turn_of(position, roll, action) for action in actions] == turns
        state = game.state_at(position, roll)
        assert state.legal_actions() == sorted(actions)
        assert [state.turn(action) for action in actions] == turns
        checked += len(turns)
    assert checked > 500


@needs_extra
def test_a_turn_outside_the_abstraction_is_named():
    position = Position.parse("(3,0) . . / . . . / . . (0,1) A")
    game = aos.game_for(position)
    assert position.is_legal("1 a1 a1-b1 2,0")  # 2 of 4 units: half is 2,0, so this one is in
    game.action_of(position, Turn.parse("1 a1 a1-b1 2,0"))
    with pytest.raises(ValueError, match="outside OpenSpiel's action abstraction: it moves 3,0 of"):
        game.action_of(position, Turn.parse("1 a1 a1-b1 3,0"))


@needs_extra
def test_an_illegal_action_is_refused_and_the_state_is_unchanged():
    state = aos.game_for(Position.start(3)).new_initial_state()
    state.apply_action(0)
    with pytest.raises(ValueError, match="not legal"):
        state.apply_action(2)  # a1 grows, then a move to a1's neighbour slot 1 whole... not a candidate
    assert str(state) == "(1,0) . . / . . . / . . (0,1) A\nroll 1"


@needs_extra
def test_asking_a_chance_node_for_turns_says_to_roll_first():
    from amoeboid_edu.players.registry import BOTS

    state = aos.game_for(Position.start(3)).new_initial_state()
    with pytest.raises(ValueError, match="is a chance node: apply a roll"):
        state.turns_by_action()
    with pytest.raises(ValueError, match="is a chance node"):
        aos.StrategyBot(BOTS["greedy"]).step(state)


# --------------------------------------------------------------------------- bots both ways


@needs_extra
def test_the_registry_names_mcts_without_importing_openspiel_until_it_moves():
    # every process of the lab imports the registry: OpenSpiel (and NumPy through it) only for a game of mcts
    script = textwrap.dedent("""
        import sys
        from amoeboid_edu import Position, seeded_rng
        from amoeboid_edu.players.registry import BOTS
        assert "mcts" in BOTS
        assert "pyspiel" not in sys.modules and "amoeboid_edu.players.openspiel" not in sys.modules
        BOTS["mcts"](Position.parse("(5,0) . . / . (3,2) . / . . (0,7) A"), 3, seeded_rng("mcts", 1))
        assert "pyspiel" in sys.modules
    """)
    subprocess.run([sys.executable, "-c", script], check=True, cwd=Path(__file__).parent)


@needs_extra
def test_mcts_is_a_deterministic_strategy_in_bots():
    from amoeboid_edu.players.registry import BOTS

    position = Position.parse("(5,0) . . / . (3,2) . / . . (0,7) A")
    turns = {str(bot(position, 3, seeded_rng("mcts", 1))) for bot in (BOTS["mcts"], aos.mcts, aos.mcts)}
    assert len(turns) == 1 and position.is_legal(turns.pop())


@needs_extra
def test_a_search_enumerates_each_nodes_turns_once(monkeypatch):
    """MCTS walks each simulation down a fresh copy of the root: the game keeps what each node's turns were."""
    asked = []

    def counted(position, roll):
        asked.append((position, roll))
        return candidate_turns(position, roll)

    monkeypatch.setattr(aos, "candidate_turns", counted)
    game = aos.AmoeboidGame({"turn_cap": 499})  # a game of its own: nothing kept from the other tests
    position = Position.parse("(5,0) . . / . (3,2) . / . . (0,7) A")
    state = game.state_at(position, 3)
    bot = aos.mcts_bot(game, seed=1, simulations=64)
    assert state.turn(bot.step(state)) in set(candidate_turns(position, 3))
    assert len(asked) == len(set(asked)) > 1


@needs_extra
def test_mcts_takes_a_winning_eat():
    position = Position.parse(". . . / . (4,0) (0,3) / . . . A")
    for seed in range(3):
        assert position.apply(aos.mcts(position, 1, seeded_rng(seed))).result == "A"


def _mcts_against_greedy(game: tuple[int, str]) -> str | None:
    """One seeded game of the ``mcts`` bot against greedy: "first" (mcts won), "second" or None (tie or cap)."""
    from amoeboid_edu.players.bots import greedy
    from amoeboid_edu.engine.match import play_match

    pair, seat = game
    return play_match(aos.mcts, greedy, seed="boss", pair=pair, first_seat=seat, max_turns=BOSS_TURN_CAP).winner


BOSS_GAMES = 40
"""The boss test plays at most 40 games (20 dice pairs, seats swapped)."""
BOSS_TURN_CAP = 100
"""Games that reach it count as ties.  Decided games between mcts and greedy end in about 30 turns; the rest are
stalemates (a big mixed amoeba that cannot split without losing control, small pieces that run) that the lab's
500-turn cap would also end as ties, at five times the cost."""
BOSS_ERROR = 0.025
"""The chance of wrongly claiming "score above 1/2": the one-sided error of a 95% interval."""
BOSS_ALTERNATIVE = 0.85
"""The boss the sequential test is tuned to find fast: it wins 85% of the decided games."""


def boss_evidence(wins: int, losses: int, alternative: float = BOSS_ALTERNATIVE) -> float:
    """The likelihood ratio of ``wins`` and ``losses`` (ties aside) for mcts winning a decided game with probability
    ``alternative`` against 1/2: the boss test claims the score is above 1/2 once it reaches ``1 / BOSS_ERROR``.

    The score (win 1, tie 1/2) is above 1/2 exactly when mcts wins more often than it loses, that is when it wins
    more than half of the decided games, whatever the share of ties.  While mcts wins at most half of them the ratio
    is a nonnegative supermartingale starting at 1 (each decided game multiplies it by ``2 * alternative`` or
    ``2 * (1 - alternative)``, whose mean is then at most 1), so by Ville's inequality it ever reaches ``1 / BOSS_ERROR``
    with probability at most ``BOSS_ERROR``: the claim may be looked at after every game, and the test stop at once,
    at the error of one 95% interval over a fixed sample.
    """
    return (2 * alternative) ** wins * (2 * (1 - alternative)) ** losses


@needs_extra
@pytest.mark.slow
def test_mcts_beats_greedy_at_its_budget():
    """The class "boss": its score against greedy (win 1, tie 1/2) is above 1/2, at the budget ``mcts`` plays with.

    A sequential test of a fixed rule (:func:`boss_evidence`): games are played in the order of the dice pairs (pair 0
    with mcts first, then second, pair 1, ...), at most 40, and the claim is made as soon as the decided games so far
    carry the evidence.  A clear boss stops after a dozen games or so; the test fails only if 40 games do not show it.
    """
    import multiprocessing

    games = [(pair, seat) for pair in range(BOSS_GAMES // 2) for seat in "AB"]
    winners: list[str | None] = []
    with multiprocessing.get_context("fork").Pool(2) as pool:  # leaving the block ends the game still being played
        for winner in pool.imap(_mcts_against_greedy, games):
            winners.append(winner)
            if boss_evidence(winners.count("first"), winners.count("second")) >= 1 / BOSS_ERROR:
                return
    wins, losses = winners.count("first"), winners.count("second")
    pytest.fail(f"mcts v greedy over {len(winners)} games: {wins} won, {losses} lost, {len(winners) - wins - losses} "
                f"tied; likelihood ratio {boss_evidence(wins, losses):.3g}, short of {1 / BOSS_ERROR:g}")


def claim_probability(win: float, decided: int) -> float:
    """The exact chance that the boss test's rule claims within ``decided`` decided games, each won with ``win``."""
    claimed, paths = 0.0, {(0, 0): 1.0}  # (wins, losses) not yet claimed -> probability
    for _ in range(decided):
        after: dict[tuple[int, int], float] = {}
        for (wins, losses), chance in paths.items():
            for step, odds in (((wins + 1, losses), win), ((wins, losses + 1), 1 - win)):
                if boss_evidence(*step) >= 1 / BOSS_ERROR:
                    claimed += chance * odds
                else:
                    after[step] = after.get(step, 0.0) + chance * odds
        paths = after
    return claimed


def test_the_boss_tests_rule_errs_at_most_as_often_as_one_95_percent_interval():
    assert BOSS_GAMES % 2 == 0 and 1 / BOSS_ERROR == 40
    # mcts no better than greedy: a claim within 40 decided games (every game decided) is at most BOSS_ERROR
    for win in (0.5, 0.45, 0.3):
        assert claim_probability(win, BOSS_GAMES) <= BOSS_ERROR, win
    assert claim_probability(0.5, BOSS_GAMES) > BOSS_ERROR / 2  # and not far below it: the bound is nearly used
    # a boss as strong as the tuning is found within 40 decided games; one as strong as MCTS_UCT_C's figures (23 won,
    # 2 lost of 40 games) within the 40 games even if only half of them are decided
    assert claim_probability(BOSS_ALTERNATIVE, BOSS_GAMES) > 0.9
    assert claim_probability(23 / 25, BOSS_GAMES // 2) > 0.95
    assert boss_evidence(7, 0) >= 1 / BOSS_ERROR > boss_evidence(6, 0)  # seven wins in a row: a clear boss


@needs_extra
def test_our_bots_play_in_openspiels_evaluate_bots():
    from open_spiel.python.algorithms.evaluate_bots import evaluate_bots

    from amoeboid_edu.players.bots import greedy, paper

    game = pyspiel.load_game(aos.GAME_NAME, {"turn_cap": 200})
    bots = [aos.StrategyBot(greedy, seed=1), aos.StrategyBot(paper, seed=2)]
    returns = evaluate_bots(game.new_initial_state(), bots, np.random.RandomState(4))
    again = evaluate_bots(game.new_initial_state(), bots, np.random.RandomState(4))
    assert returns == again and sorted(returns) in ([-1.0, 1.0], [0.0, 0.0])
    mixed = [aos.mcts_bot(game, seed=5, simulations=20), aos.StrategyBot(greedy, seed=1)]
    assert sorted(evaluate_bots(game.new_initial_state(), mixed, np.random.RandomState(6))) in ([-1.0, 1.0],
                                                                                               [0.0, 0.0])


@needs_extra
def test_a_strategy_bot_names_a_turn_outside_the_abstraction():
    def three_units(position, roll, rng):
        return f"{roll} a1 a1-b1 3,0"

    state = aos.game_for(Position.start(3)).new_initial_state()
    state.apply_action(2)  # A rolls 3: a1 holds (4,0)
    with pytest.raises(ValueError, match="outside OpenSpiel's action abstraction"):
        aos.StrategyBot(three_units).step(state)


@needs_extra
@pytest.mark.slow  # two games of mcts: half a minute
def test_score_cli_plays_mcts(tmp_path):
    strategy = tmp_path / "my.py"  # a student who copied greedy
    strategy.write_text("from amoeboid_edu.players.bots import greedy\n\n\ndef strategy(position, roll, rng):\n"
                        "    return greedy(position, roll, rng)\n")
    # seed 1: both games are decided within 100 turns (others may stall to the 500-turn cap: minutes of mcts)
    done = amoeboid("score", f"{strategy}:strategy", "--opponents", "mcts", "--games", "2", "--seed", "1", "--quiet")
    assert done.returncode == 0, done.stderr.decode()
    row = [line.split() for line in done.stdout.decode().splitlines() if line.split()[:1] == ["mcts"]]
    assert row and row[0][1] == "2", done.stdout.decode()  # opponent mcts, 2 games


# What `import pyspiel` meets in an environment without the extra: a None entry in sys.modules is Python's own
# mark for "not importable" (import raises ModuleNotFoundError, importlib.util.find_spec returns None), while the
# rest of the environment stays exactly the tested one.  A fresh venv would reinstall every other dependency
# (minutes); this takes a few seconds and cannot see open_spiel through --system-site-packages or a cache.
WITHOUT_THE_EXTRA = "import sys\nsys.modules['pyspiel'] = sys.modules['open_spiel'] = None\n"


def test_without_the_extra_everything_else_works_and_bots_lacks_mcts(tmp_path):
    strategy = tmp_path / "my.py"
    strategy.write_text("def strategy(position, roll, rng):\n    return next(position.legal_turns(roll))\n")
    script = WITHOUT_THE_EXTRA + textwrap.dedent(f"""
        import importlib, io, pkgutil
        import amoeboid_edu
        for module in pkgutil.iter_modules(amoeboid_edu.__path__):
            if module.name not in ("openspiel", "__main__"):
                importlib.import_module("amoeboid_edu." + module.name)
        from amoeboid_edu.players.registry import BOTS
        assert sorted(BOTS) == ["expectimax", "greedy", "paper", "random"], sorted(BOTS)
        try:
            import amoeboid_edu.players.openspiel
        except ImportError as error:
            assert "pip install 'amoeboid-edu[openspiel]'" in str(error), error
        else:
            raise AssertionError("amoeboid_edu.players.openspiel imported without pyspiel")
        from amoeboid_edu.cli import main
        out = io.StringIO()
        assert main(["score", {str(strategy)!r} + ":strategy", "--opponents", "greedy", "--games", "2", "-q"],
                    out) == 0, "scoring without the extra"
        assert "greedy" in out.getvalue()
        assert main(["score", {str(strategy)!r} + ":strategy", "--opponents", "mcts", "--games", "2", "-q"]) == 2
        import pytest
        sys.exit(pytest.main(["-q", "-p", "no:cacheprovider", "--no-header", "-o", "addopts=",
                              "tests/players/test_bots.py", "-k", "legal_turn_and_is_reproducible and (greedy or paper)"]))
    """)
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=ROOT, timeout=600)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    assert "2 passed" in done.stdout, done.stdout[-2000:]
    assert "error: opponents are bot names from" in done.stderr and "mcts" in done.stderr
