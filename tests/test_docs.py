"""The examples in docstrings run as written."""

import doctest

import pytest

import amoeboid_edu
from amoeboid_edu import game, notation, rules, strategy


@pytest.mark.parametrize("module", [amoeboid_edu, rules, notation, game, strategy], ids=lambda m: m.__name__)
def test_docstring_examples(module):
    failures, attempted = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert failures == 0
