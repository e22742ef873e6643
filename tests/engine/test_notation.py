"""Reading untrusted text: positions, turns and records, in linear time, with one-line capped errors."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import amoeboid_edu.engine.rules as rules_module
from amoeboid_edu import Game, InvalidPositionError, InvalidRecordError, InvalidTurnError, Position, Turn
from amoeboid_edu.engine.notation import parse_record, read_record, replay_turns
from amoeboid_edu.engine.rules import ECHO_LIMIT, NotationError, Splits, abbreviate, legal_turns, whole_number

RULES_FILE = str(Path(rules_module.__file__).resolve())


def work(call) -> int:
    """Lines of amoeboid_edu/rules.py executed by ``call()``: the operation count of the complexity tests.

    Every loop of the parser is Python code in rules.py; what it hands to C
    (``str.split``, ``translate``, ``int`` on at most 4300 digits) is linear by
    construction, so a line count that doubles with the input is linear work.
    """
    count = 0

    def local(frame, event, arg):
        nonlocal count
        if event == "line":
            count += 1
        return local

    def calls(frame, event, arg):
        return local if frame.f_code.co_filename == RULES_FILE else None

    previous = sys.gettrace()
    sys.settrace(calls)
    try:
        call()
    except (NotationError, ValueError):
        pass
    finally:
        sys.settrace(previous)
    return count


def parse_work(text: str) -> int:
    return work(lambda: Position.parse(text))


def assert_linear(make, sizes=(200, 400, 800, 1600)) -> None:
    """Doubling the input at most about doubles the work (2.2x, with 50 lines of slack for fixed costs)."""
    counts = [parse_work(make(n)) for n in sizes]
    for small, large in zip(counts, counts[1:]):
        assert large <= 2.2 * small + 50, counts


# --------------------------------------------------------------------------- positions: linear, whatever the text


@pytest.mark.parametrize(
    "make",
    [
        lambda n: "(1," * n,  # the regex's catastrophe: 9.7 s at n = 1000, cubic
        lambda n: "(1," * n + " A",
        lambda n: "( " * n + " A",
        lambda n: "(1,0) " * n + "A",
        lambda n: ". " * n + "/ . A",
        lambda n: " / ".join(["."] * n) + " A",
        lambda n: "(" + "1" * n + ",0) . / . (0,1) A",
        lambda n: "( 1 " + " " * n + ", 0 ) . / . (0,1) A",
        lambda n: "\t" * n + "A",
        lambda n: "(1,0)" * n + " A",
        lambda n: "(1,0) . / . (0,1) " + "A" * n,
    ],
)
def test_position_parsing_is_linear(make):
    assert_linear(make)


@settings(max_examples=150, deadline=None)
@given(st.text(alphabet="()/,.01289 \tAB-x\u0661\u00a0\ufeff", min_size=1, max_size=40))
def test_position_parsing_fuzz_is_linear_and_fails_cleanly(text):
    try:
        position = Position.parse(text)
    except InvalidPositionError as error:
        message = str(error)
        assert "\n" not in message and len(message) < 3 * ECHO_LIMIT
    else:
        assert Position.parse(str(position)) == position
    small, large = parse_work(text * 16), parse_work(text * 32)
    assert large <= 2.2 * small + 50, (small, large)


@settings(max_examples=100, deadline=None)
@given(st.text(alphabet="0123456789 \t-,abcz_\u0661", min_size=1, max_size=30))
def test_turn_parsing_fuzz(text):
    try:
        turn = Turn.parse(text)
    except InvalidTurnError as error:
        assert "\n" not in str(error) and len(str(error)) < 3 * ECHO_LIMIT
    else:
        assert Turn.parse(str(turn)) == turn
    small, large = work(lambda: Turn.parse(text * 50)), work(lambda: Turn.parse(text * 100))
    assert large <= 2.2 * small + 50


# The C functions the readers may call: each is linear in its input (int reads at most 4300 digits, where
# CPython's own limit stops its quadratic case).  A regular expression would show up here as Pattern.*.
LINEAR_BUILTINS = frozenset(
    "isinstance len list.append set.pop str.endswith str.isalnum str.isascii str.isdigit str.join str.partition "
    "str.removeprefix str.replace str.rfind str.split str.splitlines str.startswith str.strip str.translate "
    "tuple.__new__ dict.get dict.__contains__ setprofile".split()
)


def builtins_called(call) -> set[str]:
    called: set[str] = set()

    def profile(frame, event, arg):
        if event == "c_call":
            called.add(getattr(arg, "__qualname__", repr(arg)))

    previous = sys.getprofile()
    sys.setprofile(profile)
    try:
        call()
    except (NotationError, ValueError):
        pass
    finally:
        sys.setprofile(previous)
    return called


@pytest.mark.parametrize(
    "text",
    [
        "(1,0) . . / . . . / . . ( 0 , 1 ) A",
        "(1," * 50 + " A",
        "(1,0) x / . . A",
        "(\u0661,0) . / . (0,1) A",
        "3 a1 a1-b1 4,0",
        "3 a1 a1-b1 1,x",
        "board 3x3\nstart (1,0) . / . (0,1) A\n3 a1 a1-b1\n",
    ],
)
def test_the_readers_call_only_linear_builtins(text):
    if "MUTANT_UNDER_TEST" in os.environ:  # set (to "" for its clean run) by scripts/mutation.sh's mutmut
        pytest.skip("mutmut's trampolines call builtins of their own")
    for read in (Position.parse, Turn.parse, parse_record):
        builtins_called(lambda: read(text))  # warm the caches (Board.grid sorts its neighbour lists once)
        called = builtins_called(lambda: read(text))
        assert called <= LINEAR_BUILTINS, sorted(called - LINEAR_BUILTINS)


def test_the_catastrophic_input_is_refused():
    with pytest.raises(InvalidPositionError, match="ends with the side to move"):
        Position.parse("(1," * 1000)
    with pytest.raises(InvalidPositionError, match=r"neither '\.' nor an amoeba") as caught:
        Position.parse("(1," * 100_000 + " A")
    assert "… (" in str(caught.value) and len(str(caught.value)) < 3 * ECHO_LIMIT


def test_blanks_tabs_and_bom_in_positions():
    expected = Position.start()
    for text in (
        "(1,0)\t.\t. / . . . / . . (0,1)\tA",
        "\ufeff(1,0) . . / . . . / . . (0,1) A",
        "  ( 1 ,\t0 ) . . /. . ./ . . (0,1) A \n",
    ):
        assert Position.parse(text) == expected


@pytest.mark.parametrize(
    "text, fragment",
    [
        ("(\u0661,0) . / . (0,1) A", "digits 0-9"),  # an Arabic-Indic one
        ("(\uff11,0) . / . (0,1) A", "digits 0-9"),  # a full-width one
        ("(1,0)\u00a0. / . (0,1) A", "neither"),  # a no-break space is not a blank
        ("(1,0) . / . (0,1) \u0410", "side to move"),  # a Cyrillic A
        ("(+1,0) . / . (0,1) A", "digits 0-9"),
        ("(1_0,0) . / . (0,1) A", "digits 0-9"),
        ("(" + "1" * 5000 + ",0) . / . (0,1) A", "has 5000 digits"),
    ],
)
def test_only_ascii_digits_and_blanks(text, fragment):
    with pytest.raises(InvalidPositionError) as caught:
        Position.parse(text)
    assert fragment in str(caught.value) and len(str(caught.value)) < 3 * ECHO_LIMIT


def test_huge_numbers_within_the_digit_limit_are_positions():
    p = Position.parse("(99999999999999999999,0) . / . (0,1) A")
    assert p["a1"].a == 99999999999999999999 and str(p) == "(99999999999999999999,0) . / . (0,1) A"


def test_rows_of_different_lengths_are_capped():
    with pytest.raises(InvalidPositionError, match="rows have different lengths") as caught:
        Position.parse(" / ".join(["."] * 5000) + " . A")
    assert len(str(caught.value)) < 3 * ECHO_LIMIT


# --------------------------------------------------------------------------- turns


@pytest.mark.parametrize(
    "text, fragment",
    [
        ("\u0663 a1 a1-b1", "digits 0-9"),
        ("3 a1 a1-b1 \u0661,0", "are not A,B"),
        ("3 a1 a1-b1 1,", "are not A,B"),
        ("3 a1 a1-b1 -1,0", "are not A,B"),
        ("3 a1 a1-b1 1.0,0", "are not A,B"),
        ("3 a1 a1-", "is not SRC-DST"),
        ("3 a1 -b1", "is not SRC-DST"),
        ("3 a1 a1-b1-c1", "is not SRC-DST"),
        ("3 \u00e41 a1-b1", "is not a cell name"),
        ("9" * 5000 + " a1 a1-b1", "has 5000 digits"),
    ],
)
def test_turn_numbers_and_names_are_ascii(text, fragment):
    with pytest.raises(InvalidTurnError) as caught:
        Turn.parse(text)
    assert fragment in str(caught.value) and len(str(caught.value)) < 3 * ECHO_LIMIT


def test_turns_accept_tabs_and_a_bom():
    assert Turn.parse("3\ta1\t\ta1-b1  4,0") == Turn.parse("\ufeff3 a1 a1-b1 4,0") == Turn(3, "a1", "a1", "b1", 4, 0)


def test_huge_tokens_give_capped_errors_everywhere():
    token = "a" * 1_000_000
    with pytest.raises(InvalidTurnError) as caught:
        Turn.parse(f"3 {token}! a1-b1")
    assert len(str(caught.value)) < 3 * ECHO_LIMIT and "more)" in str(caught.value)
    with pytest.raises(ValueError) as illegal:
        Position.start().apply(f"3 {token} a1-b1")
    assert len(str(illegal.value)) < 4 * ECHO_LIMIT and "more)" in str(illegal.value)
    with pytest.raises(InvalidRecordError) as record:
        parse_record(f"board {token}\n")
    assert len(str(record.value)) < 3 * ECHO_LIMIT


def test_abbreviate():
    assert abbreviate("short") == "short"
    assert abbreviate("x" * ECHO_LIMIT) == "x" * ECHO_LIMIT
    assert abbreviate("x" * (ECHO_LIMIT + 5)) == "x" * ECHO_LIMIT + "… (5 more)"
    assert abbreviate("abcdef", 2) == "ab… (4 more)"


def test_whole_number():
    assert whole_number("0", "n") == 0 and whole_number("0042", "n") == 42
    for bad in ("", "-1", "+1", " 1", "1 ", "1_0", "\u0661", "\u00b2", "1.0"):
        with pytest.raises(NotationError, match="n must be a whole number"):
            whole_number(bad, "n")


# --------------------------------------------------------------------------- records


@pytest.mark.parametrize(
    "text, message",
    [
        ("board 3x3\nboard 3x3\n", "line 2: a second 'board' header (the first is on line 1)"),
        ("board 3x3\n# c\nstart (1,0) . / . (0,1) A\n", "line 3: the start position is 2x2 but the header says board 3x3"),
        ("start (1,0) . / . (0,1) A\n\nboard 3x3\n", "line 3: the start position is 2x2 but the header says board 3x3"),
        ("start (1,0) . / . (0,1) A\nstart (1,0) . / . (0,1) B\n", "line 2: a second 'start' header"),
        ("board 3x3\n3 a1 a1-b1\nstart (1,0) . / . (0,1) A\n", "line 3: 'start' must come before the first turn"),
        ("board \u0663x3\n", "line 1: expected 'board RxC' (rows x columns, digits 0-9)"),
        ("board 3x3 4x4\n", "line 1: expected 'board RxC'"),
        ("board\n", "line 1: expected 'board RxC'"),
        ("\n\nboard 0x3\n", "line 3: a grid board is 1..26 x 1..26"),
        ("board 3x3\nstart . x / . . A\n", "line 2: start position: row 1, column 2"),
        ("3 a1 a1-b1\n\n# comment\n2 c3 c3-a1\n", "turn 2: illegal turn '2 c3 c3-a1'"),
        ("3 a1 a1-b1\n2 c3 c3-b3 \u0661,0\n", "turn 2: turn '2 c3 c3-b3"),
    ],
)
def test_header_and_turn_errors_name_their_line(text, message):
    with pytest.raises(InvalidRecordError) as caught:
        Game.parse(text)
    assert message in str(caught.value)


def test_record_errors_carry_their_line_and_turn():
    with pytest.raises(InvalidRecordError) as caught:
        Game.parse("3 a1 a1-b1\n\n2 c3 c3-a1\n")
    assert (caught.value.line, caught.value.turn_number) == (3, 2)
    with pytest.raises(InvalidRecordError) as header:
        Game.parse("board 3x3\nboard 2x2\n")
    assert (header.value.line, header.value.turn_number) == (2, None)


def test_records_with_tabs_bom_and_crlf():
    plain = Game.parse("board 3x3\n3 a1 a1-b1 4,0\n2 c3 c3-b3\n")
    for text in (
        "\ufeffboard 3x3\n3 a1 a1-b1 4,0\n2 c3 c3-b3\n",
        "board\t3x3\n3\ta1\ta1-b1\t4,0\n\t2 c3   c3-b3   # a comment\n",
        "board 3x3\r\n3 a1 a1-b1 4,0\r\n2 c3 c3-b3\r\n",
        "start\t(1,0) . . / . . . / . . (0,1) A\nboard 3x3\n3 a1 a1-b1 4,0\n2 c3 c3-b3\n",
    ):
        game = Game.parse(text)
        assert game.turns == plain.turns and game.position == plain.position


def test_read_record_is_lazy_and_replay_keeps_one_position():
    def lines():
        yield "board 3x3"
        for _ in range(1000):
            yield "1 a1 a1-b1"
            yield "1 c3 c3-b3"
            yield "1 b1 b1-a1"
            yield "1 b3 b3-c3"
        raise AssertionError("read past what was asked")

    start, turns = read_record(lines())
    replayed = replay_turns(start, turns)
    for _ in range(6):
        turn, position = next(replayed)
    assert str(turn) == "1 c3 c3-b3 0,4" and str(position) == ". (4,0) . / . . . / . (0,4) . A"
    assert parse_record("board 2x3\n").turns == () and parse_record("1 a1 a1-b1\n").lines == (1,)


# --------------------------------------------------------------------------- legal_turns: O(1) per turn for any amoeba


def first_turns_work(size: int, count: int = 300) -> int:
    position = Position.parse(f"({size},0) . / . (0,1) A")

    def take() -> None:
        turns = legal_turns(position, 1)
        for _ in range(count):
            next(turns)

    return work(take)


def test_legal_turns_cost_does_not_grow_with_the_amoeba():
    counts = [first_turns_work(size) for size in (1000, 10**6, 10**20)]
    assert max(counts) <= 1.2 * min(counts), counts


def test_legal_turns_work_per_turn_is_constant():
    per_turn = []
    for size in (10, 40, 160):
        position = Position.parse(f"({size},{size // 2}) . / . (0,1) A")
        total = sum(1 for _ in legal_turns(position, 1))
        per_turn.append(work(lambda: sum(1 for _ in legal_turns(position, 1))) / total)
    assert max(per_turn) <= 1.3 * min(per_turn), per_turn


def test_splits_indexing_cost_does_not_grow_with_the_amoeba():
    counts = []
    for size in (10, 10**6, 10**30):
        splits = Splits(size, size, size // 3)
        counts.append(work(lambda: [splits[i] for i in (0, len(splits) // 2 if size < 10**18 else 10**20, -1)]))
    assert max(counts) <= 1.2 * min(counts), counts


# --------------------------------------------------------------------------- edges that mutation testing found untested
# (scripts/mutation.sh; each test below kills mutants of rules.py or notation.py that every other test let live)


def test_numbers_of_exactly_the_digit_limit_are_read():
    assert whole_number("9" * 4300, "n") == 10**4300 - 1  # MAX_DIGITS digits: the most int() reads
    with pytest.raises(NotationError, match="has 4301 digits"):
        whole_number("9" * 4301, "n")


def test_cell_names_may_hold_underscores_but_not_unicode_spaces():
    assert Turn.parse("2 left_arm left_arm-hub") == Turn(2, "left_arm", "left_arm", "hub")
    # A no-break space (pasted from a slide) is not a blank: it stays inside its field, so the turn is refused.
    for text in ("3\u00a0a1 a1-b1", "3 a1 a1-b1\u00a04,0"):
        with pytest.raises(InvalidTurnError):
            Turn.parse(text)


@pytest.mark.parametrize("token", ["[3,0]", "03,00", "(3,0]", "[3,0)", "(3,0"])
def test_an_amoeba_is_written_in_round_brackets(token):
    with pytest.raises(InvalidPositionError, match="neither '.' nor an amoeba"):
        Position.parse(f"{token} / (0,1) A")


@pytest.mark.parametrize("text", ["(1,0) . / . (0,1) A\u00a0", "(1,0) . / . (0,1) AX", "(1,0) . / . (0,1) XA"])
def test_the_side_to_move_is_exactly_a_or_b(text):
    with pytest.raises(InvalidPositionError, match="side to move"):
        Position.parse(text)


def test_record_rules_reach_the_board_and_the_start():
    from amoeboid_edu import Rules

    rook = Rules(adjacency="rook", die_sides=4)
    no_headers = parse_record("1 a1 a1-b1\n", rook)
    assert no_headers.start == Position.start(rules=rook) and no_headers.start.board.adjacency == "rook"
    assert parse_record("board 2x3\n", rook).start == Position.start(2, 3, rook)
    with_start = parse_record("start (1,0) . / . (0,1) A\n", rook)
    assert with_start.start.rules == rook and not with_start.start.board.are_adjacent("a1", "b2")
    # Without headers a record is the paper's game on the 3x3 board.
    plain = parse_record("3 a1 a1-b1\n2 c3 c3-b3\n")
    assert plain.start == Position.start() and plain.lines == (1, 2)
    assert plain.turns == (Turn(3, "a1", "a1", "b1"), Turn(2, "c3", "c3", "b3"))


def test_a_bom_before_the_start_header_is_ignored():
    record = parse_record("\ufeffstart (1,0) . / . (0,1) B\n")
    assert record.start == Position.parse("(1,0) . / . (0,1) B")


@pytest.mark.parametrize("line", ["board 3x3\u00a0", "board 3x3X", "3 a1 a1-b1 4,0\u00a0"])
def test_a_trailing_no_break_space_or_stray_letter_stays_in_its_field(line):
    with pytest.raises(InvalidRecordError) as caught:
        parse_record(line + "\n")
    assert caught.value.line == 1


def test_a_malformed_turn_names_its_line_and_number():
    with pytest.raises(InvalidRecordError) as caught:
        parse_record("board 3x3\n3 a1 a1-b1\n\n2 c3 c3:b3\n")
    assert (caught.value.line, caught.value.turn_number) == (4, 2)
