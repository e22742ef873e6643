"""The examples in docstrings run as written, in every module of the package (python-chess's way)."""

import doctest
import importlib
import importlib.util
import pkgutil

import pytest

import amoeboid_edu

OPTIONAL = {"amoeboid_edu.players.openspiel": "pyspiel", "amoeboid_edu.theory._tails_numba": "numba"}  # optional extras
MODULES = sorted(info.name for info in pkgutil.walk_packages(amoeboid_edu.__path__, "amoeboid_edu."))


@pytest.mark.parametrize("name", ["amoeboid_edu", *MODULES])
def test_docstring_examples(name):
    if name == "amoeboid_edu.__main__":
        pytest.skip("running it would start the command line")
    needs = OPTIONAL.get(name)
    if needs and importlib.util.find_spec(needs) is None:
        pytest.skip(f"needs the optional {needs}")
    module = importlib.import_module(name)
    failures, _attempted = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert failures == 0


def test_every_module_is_found():
    assert {"amoeboid_edu.engine.rules", "amoeboid_edu.lab.scoring", "amoeboid_edu.ui.widget"} <= set(MODULES)
