"""The lab's key tests again, through the portable start that Windows gets (forced here, on Linux).

Windows has no descriptor passing (``socket.send_fds``) and CPython refuses ``Popen(pass_fds=...)`` there, so a
worker is started through a loopback connection and a token (``amoeboid_edu.sandbox.worker``).  Here the test process
loses ``send_fds``/``recv_fds`` and any ``pass_fds`` fails as on Windows; ``AMOEBOID_PORTABLE_SANDBOX=1`` makes the
harness processes this one starts (``workers=2``, the CLI) take the same path.  The walls are Linux's and stay up.
"""

from __future__ import annotations

import socket
import subprocess
import sys
import warnings

import pytest

import hostile
from amoeboid_edu.sandbox import harness as _harness
from amoeboid_edu.sandbox import protocol as _protocol
from amoeboid_edu.sandbox import walls as _walls
from amoeboid_edu.lab import read_seed_file, score
from amoeboid_edu.engine.rules import Position
import test_lab
from test_lab import (  # noqa: F401 - collected here again, through the portable start
    test_cli_imports_module_targets_in_the_worker,
    test_printed_lines_are_kept_short_and_shown_with_the_forfeit,
    test_same_seed_same_card_serial_or_parallel,
    test_score_pairs_every_dice_seed_with_seats_swapped,
    test_strategy_from_a_notebook_cell_travels_by_value,
    test_tournament_ranks_with_intervals_and_matches_serial_in_parallel,
    test_what_a_strategy_does_to_its_copy_or_to_random_changes_nothing,
)

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="simulates Windows's limits on Linux")

PORTABLE_HOSTILE = [case for case in test_lab.HOSTILE
                    if case[0] in (hostile.loops_forever, hostile.exits, hostile.snoops_for_dice)]
"""The hostile strategies whose forfeit goes through what a portable start does differently: a move interrupted in
the one plain process, which is kept (``loops_forever``); a worker that dies and is started again, with a new token
(``exits``); and what is in reach in the process that also read the load request (``snoops_for_dice``).  The other
forfeits (an answer that is not a turn, an exception, the memory limit) are read the same way whatever started the
worker: ``test_lab.py`` checks them."""


@pytest.mark.parametrize("strategy, reason, value", PORTABLE_HOSTILE, ids=[s.__name__ for s, _, _ in PORTABLE_HOSTILE])
def test_hostile_strategy_forfeits_with_the_right_reason(strategy, reason, value, capfd):
    test_lab.test_hostile_strategy_forfeits_with_the_right_reason(strategy, reason, value, capfd)


class WindowsPopen(subprocess.Popen):
    """``Popen`` as CPython has it on Windows: no ``pass_fds``."""

    def __init__(self, *args, **kwargs):
        assert not kwargs.get("pass_fds"), "pass_fds is POSIX only (Windows's Popen asserts it away)"
        super().__init__(*args, **kwargs)


@pytest.fixture(autouse=True)
def like_windows(monkeypatch):
    monkeypatch.setenv(_harness.PORTABLE_ENV, "1")
    monkeypatch.delattr(socket, "send_fds")
    monkeypatch.delattr(socket, "recv_fds")
    monkeypatch.setattr(subprocess, "Popen", WindowsPopen)


def test_the_portable_start_plays_and_a_move_that_will_not_stop_restarts_the_worker():
    position = Position.start(3)
    honest = _harness.Sandbox({"load": "import", "module": "student", "name": "wander"}, b"", position.rules)
    stubborn = _harness.Sandbox({"load": "import", "module": "hostile", "name": "catches_the_interrupt"}, b"",
                                position.rules)
    try:
        assert honest.portable and not honest.fork_server
        assert isinstance(honest.ask([(1, 3, position)], 5.0)[0], dict), honest.broken
        assert honest.worker.isolation.startswith("process")
        timeout = stubborn.ask([(1, 3, position)], 0.3)[0]
        assert isinstance(timeout, _harness.Forfeit) and timeout.reason == "timeout" and stubborn.worker.process is None
        assert isinstance(stubborn.ask([(1, 3, position)], 0.3)[0], _harness.Forfeit)  # a fresh worker, same fate
        assert stubborn.imports == 2
    finally:
        honest.close()
        stubborn.close()


def test_a_connection_without_the_token_is_dropped(monkeypatch):
    """Another local process that reaches the harness's port first does not become the worker's channel."""
    original = socket.create_server

    def server_with_an_imposter(address, *args, **kwargs):
        listener = original(address, *args, **kwargs)
        imposter = socket.create_connection(listener.getsockname())
        imposter.sendall(b"x" * (_protocol.TOKEN_BYTES + 1))
        imposters.append(imposter)
        return listener

    imposters: list[socket.socket] = []
    monkeypatch.setattr(socket, "create_server", server_with_an_imposter)
    position = Position.start(3)
    honest = _harness.Sandbox({"load": "import", "module": "student", "name": "wander"}, b"", position.rules)
    try:
        assert isinstance(honest.ask([(1, 3, position)], 5.0)[0], dict), honest.broken
        assert imposters and imposters[0].recv(1) == b""  # the harness closed it
    finally:
        honest.close()
        for imposter in imposters:
            imposter.close()


def test_a_platform_without_walls_says_so_and_warns_about_a_contest_seed(monkeypatch, tmp_path):
    monkeypatch.setattr(sys, "platform", "win32")
    assert _walls.process_only_label() == "process only (Windows: no walls)"
    seed = tmp_path / "contest.seed"
    seed.write_text("0123456789abcdef0123\n")
    monkeypatch.setattr(_walls, "WALLS_PLATFORM", False)
    with pytest.warns(UserWarning, match="can read the seed file and kill the scorer; run a contest on Linux"):
        read_seed_file(seed)
    monkeypatch.setattr(_walls, "WALLS_PLATFORM", True)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert read_seed_file(seed) == "0123456789abcdef0123"


def test_the_card_of_a_portable_run_plays_every_game():
    card = score(hostile.plays_fair, games=4, seed=3, opponents=["random"], progress=False, per_move_limit=5.0)
    assert card.forfeits().empty and len(card.to_frame()) == 4
