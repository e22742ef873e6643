"""A student's text shown to the class: every character that does not show as itself is written out, so two names
that look alike on a leaderboard are told apart (issue 23, item 5; docs/threat-model.md)."""

from __future__ import annotations

import sys
import unicodedata

import pytest

from amoeboid_edu.sandbox.text import printable, shown, visible

INVISIBLE = {
    "\ufe0f": "\\ufe0f",  # variation selector-16
    "\ufe00": "\\ufe00",  # variation selector-1
    "\U000e0100": "\\U000e0100",  # variation selector-17
    "\u180b": "\\u180b",  # Mongolian free variation selector one
    "\u3164": "\\u3164",  # Hangul filler
    "\u115f": "\\u115f",  # Hangul choseong filler
    "\uffa0": "\\uffa0",  # halfwidth Hangul filler
    "\u034f": "\\u034f",  # combining grapheme joiner
    "\u2800": "\\u2800",  # Braille pattern blank
    "\u200b": "\\u200b",  # zero-width space (Cf)
    "\u200d": "\\u200d",  # zero-width joiner (Cf)
    "\u2066": "\\u2066",  # left-to-right isolate (Cf, bidi)
    "\u202e": "\\u202e",  # right-to-left override (Cf, bidi)
    "\U000e0041": "\\U000e0041",  # tag Latin capital A (Cf)
    "\u3000": "\\u3000",  # ideographic space (Zs)
}


@pytest.mark.parametrize("char", sorted(INVISIBLE))
def test_an_invisible_character_is_written_out(char):
    assert printable(f"alice{char}") == f"alice{INVISIBLE[char]}"
    assert shown(f"alice{char}") != shown("alice")


def test_two_names_that_look_alike_are_shown_apart():
    names = ["alice", "alice\ufe0f", "alice\u3164", "al\u200bice", "alice\U000e0100"]
    assert len({shown(name) for name in names}) == len(names)
    assert all(shown(name).isascii() for name in names)


def test_what_shows_as_itself_is_kept():
    for text in ["José", "Jose\u0301", "नमस्ते", "ไทย", "한글", "Łódź", "😀", "a b", "=1+1"]:
        assert printable(text) == text, text


def test_every_character_of_the_invisible_categories_is_written_out():
    """Whole categories, not a list: every format (Cf), control (Cc), separator (Zl, Zp, Zs but the space),
    private-use and unassigned character of this Python's Unicode, and every variation selector."""
    for code in range(sys.maxunicode + 1):
        char = chr(code)
        category = unicodedata.category(char)
        hidden = category in ("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp") or (category == "Zs" and char != " ")
        if hidden or "VARIATION SELECTOR" in unicodedata.name(char, ""):
            assert not visible(char), f"U+{code:04X} {category}"
