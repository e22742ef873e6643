"""The test session's shared results: each heavy verdict or search computed once, read by every other process."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from amoeboid_edu.theory import paper, shared_results
from amoeboid_edu.theory.paper import case_IV
from amoeboid_edu.theory.shared_results import ENVIRONMENT, shared

READ_IN_ANOTHER_PROCESS = """
import sys
from amoeboid_edu.theory.shared_results import shared
def compute():
    raise SystemExit("computed instead of read")
print(shared(sys.argv[1], compute))
"""


def test_the_test_session_shares_results_in_a_folder_its_processes_inherit():
    assert Path(os.environ[ENVIRONMENT]).is_dir()


def test_a_result_is_computed_once_and_read_by_another_process(tmp_path, monkeypatch):
    monkeypatch.setenv(ENVIRONMENT, str(tmp_path / "shared"))
    calls = []
    name = "a result/with: any name"
    assert shared(name, lambda: calls.append(1) or {"answer": 42}) == {"answer": 42}
    assert shared(name, lambda: calls.append(1) or {"answer": 0}) == {"answer": 42} and calls == [1]
    read = subprocess.run([sys.executable, "-c", READ_IN_ANOTHER_PROCESS, name], capture_output=True, text=True,
                          env={**os.environ}, check=False)  # fmt: skip
    assert read.returncode == 0, read.stderr
    assert read.stdout == "{'answer': 42}\n"


def test_without_the_variable_every_call_computes(monkeypatch):
    monkeypatch.delenv(ENVIRONMENT, raising=False)
    calls = []
    shared("computed", lambda: calls.append(1))
    shared("computed", lambda: calls.append(1))
    assert calls == [1, 1]


def test_a_computation_that_raises_stores_nothing(tmp_path, monkeypatch):
    monkeypatch.setenv(ENVIRONMENT, str(tmp_path))

    def fails() -> int:
        raise ValueError("no result")

    with pytest.raises(ValueError, match="no result"):
        shared("fails", fails)
    assert shared("fails", lambda: 7) == 7


def test_an_edited_package_does_not_read_the_old_packages_results(tmp_path, monkeypatch):
    monkeypatch.setenv(ENVIRONMENT, str(tmp_path))
    assert shared("edited", lambda: "old") == "old"
    monkeypatch.setattr(shared_results, "source_digest", lambda: "another-source")
    assert shared("edited", lambda: "new") == "new"


def test_paper_verdicts_and_case_IV_searches_are_shared(tmp_path, monkeypatch):
    monkeypatch.setenv(ENVIRONMENT, str(tmp_path))
    monkeypatch.setattr(paper, "_COMPUTED", {})
    computed = paper.verdict("case-II-tie", seed="shared-results-test")
    search = case_IV.halving_forced_win.__wrapped__(45, budget=50)  # the budget runs out at once: a cheap search

    def not_again(*args: object, **kwargs: object) -> None:
        raise AssertionError("computed again instead of read")

    monkeypatch.setattr(paper, "_COMPUTED", {})
    monkeypatch.setattr(paper, "_compute_now", not_again)
    monkeypatch.setattr(case_IV, "ForcedWinSearch", not_again)
    read = paper.verdict("case-II-tie", seed="shared-results-test")
    assert read is not computed and read.counter_line == computed.counter_line and read.summary == computed.summary
    assert case_IV.halving_forced_win.__wrapped__(45, budget=50) == search
