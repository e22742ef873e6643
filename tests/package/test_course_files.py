"""An optional extra installed on demand by a lesson's first cell (lesson 12's OpenSpiel on Binder)."""

from __future__ import annotations

import subprocess

import pytest

from amoeboid_edu.ui import course_files


def test_an_installed_module_installs_nothing(capsys, monkeypatch):
    monkeypatch.setattr(subprocess, "run", lambda *args, **kwargs: pytest.fail("pip ran"))
    course_files.ensure_installed("json-is-here==1", "json")
    assert capsys.readouterr().out == ""


def test_a_missing_module_is_installed_with_a_message_first(capsys, monkeypatch):
    calls = []

    def pip(command, **kwargs):
        calls.append(command)
        print("(pip runs)")
        return subprocess.CompletedProcess(command, 0, "", "")

    monkeypatch.setattr(subprocess, "run", pip)
    course_files.ensure_installed("no-such-module-here==1.0", "no_such_module_here")
    # (--no-compile: pip would compile all of a large package such as SciPy first; imports compile what they use)
    assert calls and calls[0][1:] == ["-m", "pip", "install", "--quiet", "--no-compile", "no-such-module-here==1.0"]
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("Installing no-such-module-here==1.0 for this lesson") and out[-1].startswith("Installed")


def test_a_failed_install_says_what_to_do_in_one_line(monkeypatch):
    monkeypatch.setattr(subprocess, "run", lambda command, **kwargs: subprocess.CompletedProcess(
        command, 1, "", "ERROR: No matching distribution found for no-such-module-here==1.0\n"))
    monkeypatch.setattr(course_files, "find_spec", lambda module: None)  # as on Binder, where OpenSpiel is missing
    with pytest.raises(RuntimeError, match=r"could not install .*No matching distribution.*pip install \"amoeboid-edu\[openspiel\]\""):
        course_files.ensure_installed("no-such-module-here==1.0", "pyspiel")


def test_a_failed_install_of_the_chart_drawer_names_the_charts_extra(monkeypatch):
    monkeypatch.setattr(subprocess, "run", lambda command, **kwargs: subprocess.CompletedProcess(command, 1, "", "ERROR: offline\n"))
    monkeypatch.setattr(course_files, "find_spec", lambda module: None)
    with pytest.raises(RuntimeError, match=r"pip install \"amoeboid-edu\[charts\]\""):
        course_files.ensure_installed(course_files.VL_CONVERT, "vl_convert")
