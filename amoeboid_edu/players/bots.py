"""The baseline bots: four strategies a student's strategy is measured against.

Each bot is a plain strategy ``bot(position, roll, rng) -> Turn``, exactly
like a student's, and ``BOTS`` maps their names to them::

    >>> from amoeboid_edu import Position, seeded_rng
    >>> from amoeboid_edu.players.registry import BOTS
    >>> BOTS["greedy"](Position.parse(". . . / . (4,0) (0,3) / . . . A"), 2, seeded_rng(0))
    Turn.parse('2 b2 b2-c2 6,0')

- ``random``: the engine's random player (:func:`~amoeboid_edu.engine.game.random_turn`).
- ``greedy``: one ply, the turn with the best Delta afterwards (:func:`greedy`).
- ``paper``: everything the paper prescribes, each branch citing its sentence (:func:`paper`).
- ``expectimax``: a two-ply search with the opponent's roll as a chance node (:func:`expectimax`).

They only choose among :func:`~amoeboid_edu.players.strategy.candidate_turns`, so they
stay fast on large amoebae.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Callable, Iterable, Iterator, NamedTuple, Sequence, cast

from ..engine.game import TURN_CAP
from ..engine.match import register_bot
from ..engine.game import random_turn
from ..engine.rules import Amoeba, Position, Turn, apply, cells_after_legal, legal_turns, other
from .strategy import candidate_turns, smallest_capture, smallest_neutralisation

WIN_SCORE = 10_000
"""What a won game is worth to the bots' evaluations: more than any Delta they will meet."""


# --------------------------------------------------------------------------- shared evaluation


Assessment = tuple[int, float, float, int, int]
"""``(Delta, exposure of A, exposure of B, amoebae A owns, amoebae B owns)``: what the bots' evaluations read."""

OutcomeKey = tuple[bool, int, int, float]
"""Greedy's key of a turn (:func:`outcome_after`): the larger, the better."""


def _assess_board(owner: Sequence[int], size: Sequence[int], neighbours: Sequence[Sequence[int]],
                  sides: int) -> Assessment:
    """:data:`Assessment` of the board whose cell ``i`` holds an amoeba of ``size[i]`` owned by ``owner[i]``.

    ``owner[i]`` is 1 for A, -1 for B and 0 for a neutral amoeba or an empty cell.  One pass over flat lists:
    the bots assess every candidate turn, and the lists change in two cells from one candidate to the next, so
    no :class:`Amoeba` is built per cell.  The exposures are summed in board order, term by term, so that a
    position gives the same floats however it is assessed.
    """
    delta = owned_a = owned_b = 0
    exposed_a = exposed_b = 0.0
    i = -1
    for side in owner:
        i += 1
        if not side:
            continue
        mine = size[i]
        biggest = 0
        enemy = -side
        for j in neighbours[i]:
            if owner[j] == enemy and size[j] > biggest:
                biggest = size[j]
        if side > 0:
            delta += mine
            owned_a += 1
        else:
            delta -= mine
            owned_b += 1
        if biggest:
            need = mine - biggest  # the roll the enemy needs to eat this amoeba
            lost = mine if need <= 1 else mine * (sides - need + 1) / sides if need <= sides else 0.0
            if side > 0:
                exposed_a += lost
            else:
                exposed_b += lost
    return delta, exposed_a, exposed_b, owned_a, owned_b


def _assess(cells: Sequence[Amoeba | None], neighbours: Sequence[Sequence[int]], sides: int) -> Assessment:
    """:data:`Assessment` of ``cells`` (amoebae or None)."""
    owner = [0 if cell is None else (cell.a > cell.b) - (cell.b > cell.a) for cell in cells]
    size = [0 if cell is None else cell.a + cell.b for cell in cells]
    return _assess_board(owner, size, neighbours, sides)


def _key(assessment: Assessment, mover_is_a: bool) -> OutcomeKey:
    """Greedy's key from an assessment of the board after the mover's turn: see :func:`outcome_after`."""
    delta, exposed_a, exposed_b, owned_a, owned_b = assessment
    if mover_is_a:
        return not owned_b, delta, -owned_a, exposed_b - exposed_a
    return not owned_a, -delta, -owned_b, exposed_a - exposed_b


def outcome_after(position: Position, turn: Turn) -> OutcomeKey:
    """``(wins, Delta, -pieces, threat balance)`` after a legal ``turn``, from the mover's side.

    ``pieces`` is how many amoebae the mover owns; the threat balance is the
    opponent's :func:`exposure` minus the mover's: what the mover stands to
    eat next minus what it stands to lose.  The larger the tuple, the better: greedy's key.
    """
    assessment = _assess(cells_after_legal(position, turn), position.board.neighbours, position.rules.die_sides)
    return _key(assessment, position.to_move == "A")


Move = tuple[str, "str | None", "str | None", "int | None", "int | None"]
"""A candidate turn's fields after its roll, ``(grow, src, dst, a, b)``: a :class:`Turn` is built only for the
candidates a bot keeps."""


def assessed_candidates(position: Position, roll: int) -> list[tuple[Assessment, Turn]]:
    """Every turn of :func:`~amoeboid_edu.players.strategy.candidate_turns`, in its order, with the
    :data:`Assessment` of the board after it.

    The bots' one pass over their candidates: the same turns as ``candidate_turns`` (``tests/players`` checks
    it on thousands of positions), generated on flat lists of counts and assessed after changing the two cells
    a move changes, with no :class:`Position` or :class:`Amoeba` built per candidate (greedy's key of each
    turn was most of the greedy and paper bots' time).
    """
    unchecked = Turn.unchecked
    return [(assessment, unchecked(roll, *move)) for assessment, move in _assessed_moves(position, roll)]


def _assessed_moves(position: Position, roll: int) -> list[tuple[Assessment, Move]]:
    """:func:`assessed_candidates` with each turn as its :data:`Move`."""
    found, _, _ = _walk(position, roll, lazy=False)
    return cast("list[tuple[Assessment, Move]]", found)


Prefix = tuple[bool, int, int]
"""The whole-number fields of :data:`OutcomeKey` (wins, Delta, -pieces): kept up to date per candidate at the cost of
a few additions, while the threat balance needs a pass over the board and its neighbours."""

Pending = tuple[int, int, int, int, int, int, int]
"""How to make a candidate's board again from the position's: ``(grow, src, dst, owner of src, size of src, owner
of dst, size of dst)``, cell indices and the two changed cells' new values (``src`` and ``dst`` are -1 for a pass)."""


def _prefixed_moves(position: Position, roll: int) -> tuple[list[tuple[Prefix, Move, Pending]], list[int], list[int]]:
    """Every candidate with the :data:`Prefix` of its key and its :data:`Pending` board, and the position's owner and
    size lists that :func:`_full_key` completes a key on."""
    found, owner, size = _walk(position, roll, lazy=True)
    return cast("list[tuple[Prefix, Move, Pending]]", found), owner, size


def _full_key(position: Position, roll: int, owner: list[int], size: list[int], pending: Pending) -> OutcomeKey:
    """Greedy's key (:func:`outcome_after`) of a pending candidate: its board made again in ``owner`` and ``size``
    (the position's, left as they were) and assessed as :func:`_assessed_moves` assesses it, so the floats are the
    same."""
    grow, src, dst, src_owner, src_size, dst_owner, dst_size = pending
    neighbours, sides = position.board.neighbours, position.rules.die_sides
    size[grow] += roll
    if src < 0:
        assessment = _assess_board(owner, size, neighbours, sides)
    else:
        kept = owner[src], size[src], owner[dst], size[dst]
        owner[src], size[src], owner[dst], size[dst] = src_owner, src_size, dst_owner, dst_size
        assessment = _assess_board(owner, size, neighbours, sides)
        owner[src], size[src], owner[dst], size[dst] = kept
    size[grow] -= roll
    return _key(assessment, position.to_move == "A")


def _walk(position: Position, roll: int, lazy: bool) -> tuple[list[tuple[Any, Move]] | list[tuple[Any, Move, Pending]],
                                                            list[int], list[int]]:  # fmt: skip
    """The candidates of :func:`assessed_candidates`, in its order: each with its :data:`Assessment` or (``lazy``)
    with its :data:`Prefix` and :data:`Pending` board; and the position's owner and size lists."""
    if position.is_over:
        return [], [], []
    board, cells = position.board, position.cells
    names, neighbours, sides = board.names, board.neighbours, position.rules.die_sides
    mover_is_a = position.to_move == "A"
    a = [0 if cell is None else cell.a for cell in cells]
    b = [0 if cell is None else cell.b for cell in cells]
    owner = [(x > y) - (y > x) for x, y in zip(a, b)]
    size = [x + y for x, y in zip(a, b)]
    owned = [i for i, side in enumerate(owner) if side == (1 if mover_is_a else -1)]
    owned_a, owned_b = owner.count(1), owner.count(-1)  # growing changes neither; a move changes two cells
    grown_delta = sum(side * units for side, units in zip(owner, size)) + (roll if mover_is_a else -roll)
    found: list[Any] = []
    for grow in owned:  # growing the mover's amoeba leaves it the mover's: only its size changes
        grow_name = names[grow]
        if mover_is_a:
            a[grow] += roll
        else:
            b[grow] += roll
        size[grow] += roll
        any_move = False
        for src in owned:
            sa, sb = a[src], b[src]
            whole = sa + sb
            src_name = names[src]
            src_side = (sa > sb) - (sb > sa)
            for dst in neighbours[src]:
                ta, tb = a[dst], b[dst]
                target = ta + tb
                if target > whole:
                    continue
                any_move = True
                half = (sa // 2, sb // 2)
                options = [(sa, sb)] if half[0] + half[1] < 1 else [(sa, sb), half]
                if target:  # the smallest eat, the smallest capture, the exact neutralisation (strategy.py's helpers)
                    if mover_is_a:
                        x = sa if sa < target else target
                        options.append((x, target - x))
                        mine, theirs, own = ta, tb, sa
                    else:
                        y = sb if sb < target else target
                        options.append((target - y, y))
                        mine, theirs, own = tb, ta, sb
                    capture = max(target, theirs - mine + 1)
                    if capture <= own:
                        options.append((capture, 0) if mover_is_a else (0, capture))
                    if tb <= sa and ta <= sb:
                        options.append((tb, ta))
                dst_side = (ta > tb) - (tb > ta)
                if lazy:  # Delta and the pieces without these two cells
                    rest_delta = grown_delta - src_side * whole - dst_side * target
                    rest_a = owned_a - (src_side > 0) - (dst_side > 0)
                    rest_b = owned_b - (src_side < 0) - (dst_side < 0)
                seen = set()
                for option in options:
                    if option in seen:
                        continue
                    seen.add(option)
                    x, y = option
                    if x + y < target:
                        continue
                    ra, rb, da, db = sa - x, sb - y, ta + x, tb + y  # the source's rest, the destination after
                    move: Move = (grow_name, src_name, names[dst], x, y)
                    if lazy:
                        src_owner, dst_owner = (ra > rb) - (rb > ra), (da > db) - (db > da)
                        delta = rest_delta + src_owner * (ra + rb) + dst_owner * (da + db)
                        pieces_a = rest_a + (src_owner > 0) + (dst_owner > 0)
                        pieces_b = rest_b + (src_owner < 0) + (dst_owner < 0)
                        prefix = ((not pieces_b, delta, -pieces_a) if mover_is_a else
                                  (not pieces_a, -delta, -pieces_b))  # fmt: skip
                        found.append((prefix, move, (grow, src, dst, src_owner, ra + rb, dst_owner, da + db)))
                        continue
                    owner[src], size[src] = (ra > rb) - (rb > ra), ra + rb
                    owner[dst], size[dst] = (da > db) - (db > da), da + db
                    found.append((_assess_board(owner, size, neighbours, sides), move))
                    owner[dst], size[dst] = dst_side, target
                owner[src], size[src] = src_side, whole
        if not any_move:
            move = (grow_name, None, None, None, None)
            if lazy:
                prefix = (not owned_b, grown_delta, -owned_a) if mover_is_a else (not owned_a, -grown_delta, -owned_b)
                found.append((prefix, move, (grow, -1, -1, 0, 0, 0, 0)))
            else:
                found.append((_assess_board(owner, size, neighbours, sides), move))
        if mover_is_a:
            a[grow] -= roll
        else:
            b[grow] -= roll
        size[grow] -= roll
    return found, owner, size


def keyed_candidates(position: Position, roll: int) -> list[tuple[OutcomeKey, Turn]]:
    """:func:`assessed_candidates` with greedy's key (:func:`outcome_after`) in place of the assessment."""
    mover_is_a = position.to_move == "A"
    return [(_key(assessment, mover_is_a), turn) for assessment, turn in assessed_candidates(position, roll)]


def exposure(position: Position, player: str | None = None) -> float:
    """The expected size ``player`` (default: the side to move) can lose to the opponent's next roll.

    For each of the player's amoebae: its size times the chance that the
    largest adjacent opponent amoeba reaches its size with one roll (paper,
    "Advantage 2": being eaten is what loses games).  A position term of the
    bots' evaluations and of greedy's tie-break.
    """
    player = position.to_move if player is None else player
    _, exposed_a, exposed_b, _, _ = _assess(list(position.cells), position.board.neighbours, position.rules.die_sides)
    return exposed_a if player == "A" else exposed_b


def _best(turns: Iterable[Turn], key: Callable[[Turn], Any]) -> list[Turn]:
    """The turns with the largest key (ties kept, in candidate order)."""
    best: list[Turn] = []
    best_key: Any = None
    for turn in turns:
        value = key(turn)
        if best_key is None or value > best_key:
            best, best_key = [turn], value
        elif value == best_key:
            best.append(turn)
    return best


# --------------------------------------------------------------------------- greedy


def greedy(position: Position, roll: int, rng: random.Random) -> Turn:
    """One ply: the candidate turn after which the mover's Delta (Advantage 2) is largest.

    Tie-breaks, in order: a turn that wins the game comes first (before any
    Delta); then the largest Delta; then the fewest amoebae of the mover's
    (split only when it pays); then the best threat balance (the
    opponent's :func:`exposure` minus the mover's: eat soon, be eaten late);
    then a uniform choice with the bot's own ``rng`` among the turns still tied.
    """
    best = greedy_choices(position, roll)
    return best[0] if len(best) == 1 else rng.choice(best)


def greedy_choices(position: Position, roll: int) -> list[Turn]:
    """The turns :func:`greedy` chooses among (ties kept, in candidate order): the coach caches them.

    Greedy's key is compared field by field, so the threat balance (a pass over the board, the dear part) is
    computed only for the candidates whose whole-number fields (:data:`Prefix`) are the best, and for none when
    one candidate alone has them.
    """
    found, owner, size = _prefixed_moves(position, roll)
    if not found:
        return []
    best_prefix = max(prefix for prefix, _, _ in found)
    leaders = [(move, pending) for prefix, move, pending in found if prefix == best_prefix]
    if len(leaders) == 1:
        return [Turn.unchecked(roll, *leaders[0][0])]
    best: list[Move] = []
    best_key = None
    for move, pending in leaders:  # _best, inlined
        key = _full_key(position, roll, owner, size, pending)
        if best_key is None or key > best_key:
            best, best_key = [move], key
        elif key == best_key:
            best.append(move)
    return [Turn.unchecked(roll, *move) for move in best]


# --------------------------------------------------------------------------- the paper's play, every branch cited

ADVANCED_SIZE = 30
"""Case II, delta = 5: the paper moves to the centre only when "the game is advanced (the two
amoebae have a significant size)"; we read that as the opponent's amoeba having at least this size."""

CASE_IV_DELTA = 44
"""Case IV's threshold, the paper's figure for the 3x3 board."""

PLANS = ("paper", "case IV")
"""How the paper bot reads the plan after the centre move: ``"paper"`` (Case III's rules by Delta, with Case IV's
step 2 and 4 inside them: what the bot plays) or ``"case IV"`` (Case IV's steps 2-5 alone, the paper's line for
delta > 44)."""


@dataclass(frozen=True)
class PaperRule:
    """One branch of the paper bot: the sentence of the paper it follows, or the default it uses where the text is silent."""

    key: str
    where: str  # "Case III", ... or "paper silent"
    text: str  # the paper's words (quoted), or the default stated in full

    @property
    def is_default(self) -> bool:
        return self.where == "paper silent"

    def __str__(self) -> str:
        return f"paper silent: default {self.text}" if self.is_default else f'{self.where}: "{self.text}"'


PAPER_RULES: dict[str, PaperRule] = {rule.key: rule for rule in (
    PaperRule("I-stall", "Case I", "the best strategy here is to stall the game ... by moving your amoeba to one of "
              "the two adjacent squares not adjacent to the enemy amoeba repeatedly"),
    PaperRule("II-4", "Case II, delta = 4", "So the best choice is to play as in case 1."),
    PaperRule("II-5-stall", "Case II, delta = 5", "The decision of moving to the center will depend on how advanced "
              f"the game is (read: stall while the opponent's amoeba is smaller than {ADVANCED_SIZE})"),
    PaperRule("II-5-centre", "Case II, delta = 5", "might be very advantageous if the game is advanced ... so A should "
              f"move to the middle (read: the opponent's amoeba has size >= {ADVANCED_SIZE})"),
    PaperRule("II-6", "Case II, delta = 6", "A is never going to lose by moving to the center"),
    PaperRule("III-centre", "Case III", "We claim that the optimal strategy here is to move your amoeba to the center."),
    PaperRule("IV-centre", "Case IV step 1", "A moves to the center were he is adjacent to the other amoeba."),
    PaperRule("IV-win", "Case IV step 5", "A has an amoeba of bigger size and can eat him winning control of the new "
              "amoeba, therefore winning the game."),
    PaperRule("IV-bigger", "Case IV step 2 (and Case III while Delta > 6: 'make one of the opponent's amoeba "
              "neutral')", "A eats the bigger of the two amoebae with an amoeba just as big."),
    PaperRule("III-neutralise", "Case III", "If the new Advantage 2 is greater than 6, the optimal play is to split "
              "your amoeba enough to make one of the opponent's amoeba neutral while keeping control of the center. "
              "(Read: a piece smaller than the biggest, only when the biggest cannot be taken keeping the centre.)"),
    PaperRule("IV-capture", "Case IV step 4", "When only one square is empty A will eat B's amoeba with a number 1 "
              "higher (gaining control of the amoeba). (Read: the fewest of A's units that gain control, one more "
              "than the piece's B units over its A units, and never fewer than the piece's size, which a move onto an "
              "amoeba needs.)"),
    PaperRule("III-eat", "Case III", "When your Advantage 2 is no longer greater than 6 ..., the optimal play is to "
              "eat one of the opponent's split amoebae. (How many units: paper silent; default the smallest capture that "
              "keeps the centre, as the example game 'splits and eats', else the whole amoeba.)"),
    PaperRule("III-reset", "Case III", "From here, the Delta may continue to decrease from your advantage in which "
              "case the optimal move is to move to an opposite square from your opponent. (Read: after the eat, "
              "with Delta <= 6, move the whole amoeba to a neighbouring empty cell next to no enemy amoeba.)"),
    PaperRule("default", "paper silent", "greedy (of its candidate turns, the one with the largest Delta "
              "afterwards: for each grow and each move, the whole amoeba, half of it, and onto an amoeba the smallest "
              "eat, the smallest capture and the exact neutralisation; other splits are not candidates); never a "
              "candidate that hands the opponent a move that ends the game at once when another candidate avoids it; "
              "when none does, the candidate that leaves the opponent the fewest rolls that end the game; only when "
              "every candidate loses or ties the game on the bot's own move, every legal turn judged the same way"),
)}  # fmt: skip
"""Every branch of :func:`paper`: the sentence it follows (kept as data so counter-lines can be annotated)."""

SAFETY_DEFAULT = ("paper silent: default — of the turns this sentence allows, one after which the opponent cannot "
                  "win or tie at once")  # fmt: skip


class PaperChoice(NamedTuple):
    """The paper bot's turn and why: the rule (sentence) it follows and any default it added."""

    turn: Turn
    rule: PaperRule
    safety: bool = False  # True when the safety default chose among the sentence's turns

    @property
    def annotation(self) -> str:
        return str(self.rule) + (f"; {SAFETY_DEFAULT}" if self.safety else "")


def _amoeba(cells: Sequence[Amoeba | None], index: int) -> Amoeba:
    """The amoeba on cell ``index``, which the caller knows is not empty."""
    cell = cells[index]
    assert cell is not None, "an amoeba was expected on this cell"
    return cell


def can_end_at_once(position: Position, roll: int | None = None, ties: bool = True) -> bool:
    """Whether the side to move can end the game on this turn: exact, without enumerating turns.

    With ``roll=None`` for its best roll (the largest: more of the mover's units
    only widen the choice); ``ties=False`` asks for a win only.  Only a move onto
    the opponent's *last* amoeba can end a game.  For each neighbouring source,
    grown by the roll, some split (x of the mover's units, y of the other's) must
    leave neither the target nor the source's remainder owned by the opponent.
    """
    mover, victim = position.to_move, other(position.to_move)
    victims = position.owned_indices(victim)
    if len(victims) != 1:
        return False
    target_index = victims[0]
    target = _amoeba(position.cells, target_index)
    mine_t, theirs_t = (target.a, target.b) if mover == "A" else (target.b, target.a)
    roll = position.rules.die_sides if roll is None else roll
    movers = position.owned_indices(mover)
    either = ties or len(movers) > 1  # a tie ends it too, or the mover keeps another amoeba whatever happens here
    for src in movers:
        if target_index not in position.board.neighbours[src]:
            continue
        cell = _amoeba(position.cells, src)
        mine_s, theirs_s = (cell.a, cell.b) if mover == "A" else (cell.b, cell.a)
        if _ends_from(mine_s + roll, theirs_s, target.size, mine_t, theirs_t, either):
            return True
    return False


def _ends_from(mine_s: int, theirs_s: int, size_t: int, mine_t: int, theirs_t: int, either: bool) -> bool:
    """Whether a source holding ``mine_s`` of the mover's units (grown) and ``theirs_s`` of the opponent's can move
    onto the opponent's last amoeba (``size_t`` units, ``mine_t`` of them the mover's) leaving neither it nor the
    source's remainder the opponent's (``either``), or one of them the mover's (not ``either``).

    Moving ``x`` of the mover's units and ``y`` of the opponent's, every condition is a linear bound on ``y`` once
    ``x`` is taken as small as it may be (``low``) or as large (``high``): so the answer is whether a few whole-number
    intervals of ``y`` are empty, not a walk over every ``y`` (what made the paper bot's safety check slow once
    amoebae hold hundreds of units).  ``tests/players/test_bots.py`` checks it against that walk.
    """
    # For y in 0..theirs_s: low = max(0, size_t - y, theirs_t + y - mine_t), high = min(mine_s, mine_s - theirs_s + y),
    # and a split exists iff low <= high and low + y >= 1 (which low >= size_t - y gives for size_t >= 1).
    if mine_s < 0:
        return False
    gap = theirs_t - mine_t  # the target stays the opponent's unless x >= gap + y
    room = mine_s - theirs_s  # the remainder stays the opponent's unless x <= room + y
    lowest = max(0 if size_t >= 1 else 1, -room, size_t - mine_s, -((room - size_t) // 2))  # ceil((size_t - room) / 2)
    highest = min(theirs_s, mine_s - gap)
    if gap > room or lowest > highest:
        return False
    if either:
        return True
    # the target ends up the mover's (x >= gap + y + 1), or the remainder does (x <= room + y - 1)
    if gap + 1 <= room and lowest <= min(highest, mine_s - gap - 1):
        return True
    return gap <= room - 1 and max(lowest, 1 - room, -((room - 1 - size_t) // 2)) <= highest


def _opening(position: Position) -> tuple[int, int] | None:
    """``(mine, theirs)`` cell indices while the paper's opening lasts, else None.

    The opening ("no amoebae has been eaten or split"): exactly two amoebae,
    one per player, each holding only its owner's units, and not adjacent.
    """
    present = [(i, cell) for i, cell in enumerate(position.cells) if cell is not None]
    if len(present) != 2 or any(cell.a and cell.b for _, cell in present):
        return None
    mover = position.to_move
    mine = [i for i, cell in present if cell.owner == mover]
    theirs = [i for i, cell in present if cell.owner == other(mover)]
    if len(mine) != 1 or len(theirs) != 1 or theirs[0] in position.board.neighbours[mine[0]]:
        return None
    return mine[0], theirs[0]


def _opening_delta(position: Position, cells: tuple[int, int], roll: int) -> int:
    mine, theirs = cells
    return _amoeba(position.cells, mine).size + roll - _amoeba(position.cells, theirs).size


def paper_case(position: Position, roll: int = 0) -> str | None:
    """Which opening Case of the paper applies to the side to move: ``"I"``..``"IV"``, or None after the opening.

    delta is the paper's "difference of size of initial amoebae" from the
    mover's side, counted *after* the mover's grow by ``roll`` (the paper's
    Case II arithmetic, "if B rolls 4 he will choose to tie", needs this);
    ``roll=0`` classifies the position before the roll.
    Case I: delta < 3.5; Case II: delta = 4, 5, 6; Case III: delta > 6;
    Case IV: delta > 44.  None when the amoebae are adjacent or the opening is over.
    """
    cells = _opening(position)
    if cells is None:
        return None
    delta = _opening_delta(position, cells, roll)
    if delta > CASE_IV_DELTA:
        return "IV"
    if delta > 6:
        return "III"
    if delta >= 4:
        return "II"
    return "I"


def _whole_move(position: Position, roll: int, src: int, dst: int) -> Turn:
    """Grow ``src`` and move all of it to ``dst``, counts written out as records print them."""
    names, cell = position.board.names, _amoeba(position.cells, src)
    a, b = (cell.a + roll, cell.b) if position.to_move == "A" else (cell.a, cell.b + roll)
    return Turn(roll, names[src], names[src], names[dst], a, b)


def _away_cells(position: Position, home: int) -> list[int]:
    """Empty neighbours of ``home`` next to no enemy amoeba ("not adjacent to the enemy", "an opposite square")."""
    neighbours, enemy = position.board.neighbours, other(position.to_move)
    enemies = set(position.owned_indices(enemy))
    return [j for j in neighbours[home] if position.cells[j] is None and not enemies & set(neighbours[j])]


def _centre_cells(position: Position, mine: int, theirs: int) -> list[int]:
    """Paper, Cases II-IV: "the center".  On 3x3 the cell b2; elsewhere the empty neighbours next to the enemy.

    Ordered by how many neighbours they have (the most central first), then board order.
    """
    neighbours = position.board.neighbours
    cells = [j for j in neighbours[mine] if position.cells[j] is None and theirs in neighbours[j]]
    return sorted(cells, key=lambda j: (-len(neighbours[j]), j))


Stages = Iterator[tuple[str, list[Turn]]]
"""The paper bot's sentences in order, each ``(rule key, the turns it allows)``."""


def _opening_stages(position: Position, roll: int, rng: random.Random | None) -> Stages:
    """The opening's sentence and its turns (Case I's two stall squares shuffled with ``rng``)."""
    opening = _opening(position)
    assert opening is not None, "only asked while the opening lasts"
    mine, theirs = opening
    delta = _opening_delta(position, opening, roll)
    if delta <= 3:
        key = "I-stall"
    elif delta == 4:
        key = "II-4"
    elif delta == 5:
        key = "II-5-stall" if _amoeba(position.cells, theirs).size < ADVANCED_SIZE else "II-5-centre"
    elif delta == 6:
        key = "II-6"
    else:
        key = "IV-centre" if delta > CASE_IV_DELTA else "III-centre"
    stall = key in ("I-stall", "II-4", "II-5-stall")
    cells = _away_cells(position, mine) if stall else _centre_cells(position, mine, theirs)
    if stall and rng is not None:
        rng.shuffle(cells)  # the paper's two stall squares are equally good
    yield key, [_whole_move(position, roll, mine, j) for j in cells]


def _judged(position: Position, turns: list[Turn], checked: bool = True) -> Iterator[tuple[Turn, bool]]:
    """Yield ``(turn, safe)`` for each turn that does not end the game in a loss or a tie, in order.

    ``safe``: the opponent cannot end the game at once afterwards (the safety
    default).  One ``apply`` per turn (``checked=False``: the turns come from the candidate generator, known
    legal, and are played without the referee's checks); lazy, so the bot can stop at its first
    safe turn while a search asks for all of them.
    """
    for turn, _, safe in _judged_after(position, turns, checked):
        yield turn, safe


def _judged_after(position: Position, turns: list[Turn], checked: bool = True) -> Iterator[tuple[Turn, Position, bool]]:
    """:func:`_judged`, with the position after each turn."""
    board, rules, mover = position.board, position.rules, position.to_move
    for turn in turns:
        if checked:
            after = apply(position, turn)
        else:
            after = Position.unchecked(board, tuple(cells_after_legal(position, turn)), other(mover), rules)
        if after.result in ("ongoing", mover):
            yield turn, after, after.is_over or not can_end_at_once(after)


def _ending_rolls(position: Position) -> int:
    """How many of the side to move's rolls let it end the game at once (win or tie): the fallback's measure.

    A larger roll only widens the mover's choice (each split a smaller roll allows is still allowed, its remainder
    holding one more of the mover's units), so the rolls that end the game are the largest ones, from the
    smallest that does: found by bisection, in three calls of :func:`can_end_at_once` for a six-sided die.
    """
    sides = position.rules.die_sides
    if not can_end_at_once(position, sides):
        return 0
    low, high = 1, sides  # the smallest roll that ends the game lies in low..high
    while low < high:
        middle = (low + high) // 2
        if can_end_at_once(position, middle):
            high = middle
        else:
            low = middle + 1
    return sides - low + 1


def _plan_stages(position: Position, roll: int, plan: str = "paper") -> Stages:
    """After the opening: Case III's neutralise / eat / reset and Case IV's steps 2-5, in the paper's order.

    Yields ``(rule key, turns the sentence allows)``; the first stage with a turn left decides.  ``plan="case IV"``
    follows Case IV's steps alone, whatever Delta (the paper's line for delta > 44: capture with one unit more when
    one square is empty, else the bigger piece with an amoeba just as big; no Case III eat or reset).
    """
    mover, board = position.to_move, position.board
    owned = position.owned_indices(mover)
    if can_end_at_once(position, roll, ties=False):  # exact and cheap; only then look for the winning turn
        yield "IV-win", [turn for turn in candidate_turns(position, roll) if apply(position, turn).result == mover]
    home = max(owned, key=lambda i: (_amoeba(position.cells, i).size, -i))  # "the center": the mover's main amoeba
    cells = list(position.cells)
    cell = _amoeba(cells, home)
    me = cells[home] = Amoeba(cell.a + roll, cell.b) if mover == "A" else Amoeba(cell.a, cell.b + roll)
    names, enemy = board.names, other(mover)
    near = {j: c for j in board.neighbours[home] if (c := cells[j]) is not None and c.owner == enemy}  # by cell
    targets = sorted(near, key=lambda j: (-near[j].size, j))
    advantage = position.Delta if mover == "A" else -position.Delta  # "the new Advantage 2", before the roll
    empty = sum(1 for c in cells if c is None)

    def keeps_centre(counts: tuple[int, int]) -> bool:
        rest = Amoeba(me.a - counts[0], me.b - counts[1])
        return rest.owner == mover

    def onto(j: int, counts: tuple[int, int]) -> Turn:
        return Turn(roll, names[home], names[home], names[j], *counts)

    if plan not in PLANS:
        raise ValueError(f"plan must be one of {PLANS}, not {plan!r}")
    if (plan == "case IV" or advantage > position.rules.die_sides) and targets:
        if empty <= 1:
            captures = [(j, smallest_capture(me, near[j], mover)) for j in targets]
            yield "IV-capture", [onto(j, c) for j, c in captures if c and keeps_centre(c)]
        biggest = near[targets[0]].size  # Case IV step 2: "the bigger of the two amoebae" first
        bigger = []
        for j in (j for j in targets if near[j].size == biggest):
            neutral = smallest_neutralisation(me, near[j])
            just_as_big = (biggest, 0) if mover == "A" else (0, biggest)  # "with an amoeba just as big"
            for counts in (neutral, just_as_big if (me.a if mover == "A" else me.b) >= biggest else None):
                if counts and keeps_centre(counts) and onto(j, counts) not in bigger:
                    bigger.append(onto(j, counts))
        yield "IV-bigger", bigger
        if plan == "case IV":
            return
        # Case III's "one of the opponent's amoeba": a smaller piece, only when the biggest cannot be taken.  (A
        # turn on the biggest never lets the opponent end the game at once here: with Delta > 6 and the centre A's
        # only amoeba, what the centre keeps exceeds every other piece plus any roll; with more, B cannot end it.)
        splits = [(j, smallest_neutralisation(me, near[j])) for j in targets if near[j].size < biggest]
        yield "III-neutralise", [onto(j, c) for j, c in splits if c and keeps_centre(c)]
        return
    if advantage <= position.rules.die_sides:
        if not (me.b if mover == "A" else me.a):  # nothing eaten yet: "eat one of the opponent's split amoebae"
            eats = []  # how many units eat: the paper is silent; its example game "splits and eats", so the
            for j in targets:  # smallest capture (keeping the centre) first, then the whole amoeba
                capture = smallest_capture(me, near[j], mover)
                if capture is not None and keeps_centre(capture):
                    eats.append(onto(j, capture))
                mine, theirs = (me.a + near[j].a, me.b + near[j].b)
                if near[j].size <= me.size and (mine > theirs if mover == "A" else theirs > mine):
                    eats.append(_whole_move(position, roll, home, j))  # "gaining control" of what it eats
            yield "III-eat", eats
        yield "III-reset", [_whole_move(position, roll, home, j) for j in _away_cells(position, home)]


def _stages(position: Position, roll: int, rng: random.Random | None, plan: str = "paper") -> Stages:
    if _opening(position) is not None:
        return _opening_stages(position, roll, rng)
    return _plan_stages(position, roll, plan)


def _default_choice(position: Position, roll: int, rng: random.Random | None) -> Turn:
    """Where no sentence applies: the default of :func:`_default_choices`, its ties broken with ``rng``."""
    best = _default_choices(position, roll)
    return best[0] if len(best) == 1 or rng is None else rng.choice(best)


def _options(position: Position, roll: int, rng: random.Random | None, every: bool,
             plan: str = "paper") -> tuple[str, list[Turn], bool] | None:  # fmt: skip
    """``(rule key, turns, safety)`` of the first stage with a turn left: every safe turn (``every``) or the first,
    else every turn it allows (none safe).  None when no sentence applies (the default decides)."""
    for key, turns in _stages(position, roll, rng, plan):
        allowed, safe = [], []
        for turn, is_safe in _judged(position, turns):
            allowed.append(turn)
            if is_safe:
                safe.append(turn)
                if not every:
                    break
        if safe:
            return key, safe, safe[0] != allowed[0]
        if allowed:  # every turn unsafe (all of them were judged)
            return key, allowed, False
    return None


def paper_options(position: Position, roll: int, rng: random.Random | None = None,
                  plan: str = "paper") -> tuple[PaperRule, list[Turn], bool]:  # fmt: skip
    """The sentence that applies and *every* turn it allows: ``(rule, turns, safety)``.

    A turn that ends the game at once in a loss or a tie is no reading of any
    sentence (the paper eats "gaining control"), so it is dropped; a sentence
    with no turn left does not apply and the next one is tried.  Among the
    rest, those after which the opponent cannot end the game at once, if any
    (``safety`` is True when that default removed the sentence's first turn).
    Case IV step 2 ("the bigger of the two amoebae") comes before Case III's
    "one of the opponent's amoeba": a smaller piece is offered only when no
    turn on the biggest is allowed (with ``plan="case IV"`` never: Case IV's
    text names the bigger).  Where no
    sentence applies: the default, greedy among the turns that leave no
    immediate end.  A forced-win search gives A all of these turns, so a
    counterexample does not depend on how the bot breaks ties between them.
    ``plan="case IV"``: Case IV's steps alone after the centre move (see :func:`_plan_stages`).
    """
    found = _options(position, roll, rng, every=True, plan=plan)
    if found is None:
        return PAPER_RULES["default"], [_default_choice(position, roll, rng)], False
    key, turns, safety = found
    return PAPER_RULES[key], turns, safety


def paper_choice(position: Position, roll: int, rng: random.Random) -> PaperChoice:
    """The paper bot's turn with the sentence it follows (:data:`PAPER_RULES`): the first of
    :func:`paper_options`' turns, found without judging the turns after it."""
    found = _options(position, roll, rng, every=False)
    if found is None:
        return PaperChoice(_default_choice(position, roll, rng), PAPER_RULES["default"], False)
    key, turns, safety = found
    return PaperChoice(turns[0], PAPER_RULES[key], safety)


def paper_annotation_of(position: Position, turn: Turn | str, plan: str = "paper") -> str:
    """The sentence (or named default) that allows ``turn`` here, with what the turn does; ValueError if none does.

    For counter-lines: the note says why *this* turn follows the paper (which piece it takes and why that one),
    so a line in which A plays something the text does not allow cannot be annotated at all.
    """
    turn = Turn.parse(turn) if isinstance(turn, str) else turn
    rule, turns, safety = paper_options(position, turn.roll, plan=plan)
    if rule.key == "default":
        turns = _default_choices(position, turn.roll)
    result = apply(position, turn).cells  # the same turn written with or without its counts
    if all(apply(position, allowed).cells != result for allowed in turns):
        raise ValueError(f"{turn} is not a turn the paper's text allows in {position} ({rule})")
    note = str(rule)
    if rule.key in ("IV-bigger", "III-neutralise", "IV-capture", "III-eat") and turn.src and turn.dst:
        src, dst = turn.src, turn.dst
        target, after = position[dst], apply(position, turn)[dst]
        sizes = sorted((position.amoebae()[j].size for j in position.owned(other(position.to_move))
                        if position.board.are_adjacent(src, j)), reverse=True)  # fmt: skip
        if target is not None and after is not None:
            kind = "neutralises" if after.is_neutral else "eats and owns"
            rank = ("the only one of the opponent's next to it" if len(sizes) == 1 else
                    "the biggest of the opponent's next to it" if target.size == sizes[0] else
                    f"smaller than the biggest of the opponent's next to it ({sizes[0]})")  # fmt: skip
            note += f" [here: {kind} {turn.dst} ({target.a},{target.b}), size {target.size}, {rank}]"
    if safety:
        note += f"; {SAFETY_DEFAULT}"
    return note


def _default_choices(position: Position, roll: int) -> list[Turn]:
    """Every turn the default may play: greedy's ties among the turns that leave the opponent no immediate end.

    Greedy's turns are its candidates (:func:`~amoeboid_edu.players.strategy.candidate_turns`).  Where none of them
    is safe (the paper is silent here too), the project's default: among the candidates that do not end the game at
    once in the mover's loss or a tie, those that leave the opponent the fewest rolls with which it can end the game
    at once (:func:`_ending_rolls`), greedy's ties among them.  When every candidate ends the game at once, every
    legal turn is judged by the same rule (safe ones first, else the fewest ending rolls; greedy's ties); only when
    every legal turn ends the game at once, greedy's ties among the candidates.  (Greedy's key ranks a turn that
    gives up the mover's last amoeba above one that keeps a piece, so without this the bot could lose on its own
    turn.)

    Lazily, best first: the turns are ranked by greedy's key, and safety (an ``apply`` and a look at the
    opponent's replies, the dear part) is judged one key group at a time from the top; the first group with a
    safe turn holds exactly the safe turns of the best key, in candidate order.  The key's threat balance is
    computed one :data:`Prefix` (its whole-number fields) at a time too, from the best: a group of a worse prefix is
    never above one of a better.  ``tests/players/test_bots.py`` checks it against judging every turn first.
    """
    found, owner, size = _prefixed_moves(position, roll)
    by_prefix: dict[Prefix, list[tuple[Move, Pending]]] = {}
    for prefix, move, pending in found:
        by_prefix.setdefault(prefix, []).append((move, pending))
    top: list[Turn] | None = None  # greedy's ties among every turn, if every turn ends the game at once
    unsafe: list[list[tuple[Turn, Position]]] = []  # per key group, best first: the turns the opponent may answer
    for prefix in sorted(by_prefix, reverse=True):
        members = by_prefix[prefix]
        if len(members) == 1:
            ranked = [[members[0][0]]]
        else:
            groups: dict[OutcomeKey, list[Move]] = {}
            for move, pending in members:
                groups.setdefault(_full_key(position, roll, owner, size, pending), []).append(move)
            ranked = [groups[key] for key in sorted(groups, reverse=True)]
        for group in ranked:
            turns = [Turn.unchecked(roll, *move) for move in group]
            if top is None:
                top = turns
            judged = list(_judged_after(position, turns, checked=False))
            safe = [turn for turn, _, is_safe in judged if is_safe]
            if safe:
                return safe
            if judged:
                unsafe.append([(turn, after) for turn, after, _ in judged])
    if unsafe:
        counted = [[(_ending_rolls(after), turn) for turn, after in group] for group in unsafe]
        fewest = min(rolls for group in counted for rolls, _ in group)
        return next(kept for group in counted if (kept := [turn for rolls, turn in group if rolls == fewest]))
    # Every candidate ends the game at once in a loss or a tie: greedy's candidates are a few turns per move, and a
    # split they leave out may keep a piece (A's (4,2) next to B's (0,4) keeps c3 by sending 2,2 or 3,2, never 4,0).
    # Rare, so every legal turn is judged here, by the same rule: safe first, else the fewest ending rolls.
    judged = list(_judged_after(position, list(legal_turns(position, roll)), checked=False))
    if not judged:
        return top or []
    safe = [turn for turn, _, is_safe in judged if is_safe]
    if not safe:
        rolls = {turn: _ending_rolls(after) for turn, after, _ in judged}
        fewest = min(rolls.values())
        safe = [turn for turn in rolls if rolls[turn] == fewest]
    return _best(safe, lambda turn: outcome_after(position, turn))


def paper(position: Position, roll: int, rng: random.Random) -> Turn:
    """Everything the paper prescribes (Cases I-IV, Case III's eat and reset), each branch citing its sentence.

    - The opening (two pure amoebae, not adjacent), delta counted after the roll:
      Case I and Case II with delta = 4 stall to a square not adjacent to the
      enemy (uniformly, with ``rng``); delta = 5 stalls unless the game is
      advanced (the enemy has size >= ``ADVANCED_SIZE``); delta = 6, Cases III
      and IV move to the centre.
    - Afterwards, from the mover's biggest amoeba ("the center"): win at once
      if possible (Case IV step 5); while Delta > 6, take the biggest adjacent
      enemy amoeba, neutralised or eaten "with an amoeba just as big", keeping
      the centre (Case IV step 2, Case III), capturing with one unit more when
      one square is empty (Case IV step 4); a smaller amoeba only when the
      biggest cannot be taken (Case III's "one of the opponent's amoeba"); once
      Delta <= 6, eat an adjacent enemy amoeba (Case III), and after that eat
      move to a square next to no enemy (Case III's "reset").
      ``paper_options(..., plan="case IV")`` gives Case IV's steps alone
      (the paper's line for delta > 44, whatever Delta).
    - Among the turns a sentence allows, one after which the opponent cannot
      end the game at once (a default: the paper is silent on it).
    - Where the paper is silent, the project's default: greedy among the turns
      that leave the opponent no immediate end; if there are none, among the
      turns that do not lose or tie at once, those that leave the opponent the
      fewest rolls that end the game (then greedy); only if every turn ends
      the game at once, greedy.  :func:`paper_choice` says which rule chose the turn.
    """
    return paper_choice(position, roll, rng).turn


# --------------------------------------------------------------------------- expectimax

EXPECTIMAX_NODE_BUDGET = 3000
"""Leaf evaluations per turn: on 3x3 games about 15 ms a turn on average, under 0.1 s at worst
(``bench/scoring.py`` prints the figures)."""


def _leaf_value(delta: int, exposed_a: float, exposed_b: float, owns_a: int, owns_b: int, player: str,
                to_move: str) -> float:
    if not (owns_a and owns_b):
        winner = "A" if owns_a else "B" if owns_b else None
        return 0.0 if winner is None else (WIN_SCORE if winner == player else -WIN_SCORE)
    mine, theirs = (exposed_a, exposed_b) if player == "A" else (exposed_b, exposed_a)
    # exposure(P) is what P may lose to the other side's next roll: imminent when the other side moves next.
    mine_weight = 0.5 if to_move == player else 1.0
    return (delta if player == "A" else -delta) - mine_weight * mine + (1.5 - mine_weight) * theirs


def evaluate(position: Position, player: str) -> float:
    """The expectimax evaluation from ``player``'s side: Delta plus position terms.

    A finished game is worth ``WIN_SCORE`` (won), ``-WIN_SCORE`` (lost) or 0
    (tie).  Otherwise: Delta (Advantage 2, the paper's predictor of the winner)
    minus the :func:`exposure` of the player's amoebae plus that of the
    opponent's, each weighted by 1 when the side that could eat it moves next
    and by 1/2 when that side's threat is a turn further away.
    """
    summary = _assess(list(position.cells), position.board.neighbours, position.rules.die_sides)
    return _leaf_value(*summary, player, position.to_move)


def _ranked(position: Position, roll: int, limit: int) -> list[Turn]:
    """The ``limit`` most promising candidates in greedy's order (win, Delta, threat balance), best first."""
    return [turn for _, turn in _ranked_assessed(position, roll, limit)]


def _ranked_assessed(position: Position, roll: int, limit: int) -> list[tuple[Assessment, Turn]]:
    """:func:`_ranked`'s turns with the :data:`Assessment` after each (what expectimax's leaves are worth)."""
    mover_is_a = position.to_move == "A"
    scored = [(_key(assessment, mover_is_a), -i, assessment, move)
              for i, (assessment, move) in enumerate(_assessed_moves(position, roll))]
    scored.sort(key=lambda item: item[:2], reverse=True)
    return [(assessment, Turn.unchecked(roll, *move)) for _, _, assessment, move in scored[: max(1, limit)]]


def expectimax(position: Position, roll: int, rng: random.Random, node_budget: int = EXPECTIMAX_NODE_BUDGET) -> Turn:
    """Two plies with the opponent's roll as a chance node, within ``node_budget`` leaf evaluations.

    For each of the mover's candidate turns: the average over the opponent's
    rolls (``dice_outcomes``) of the opponent's best reply, the reply that
    minimises :func:`evaluate` from the mover's side.  When the full tree is
    larger than the budget, both sides keep only their most promising
    candidates in greedy's order: about sqrt(budget / sides) each.
    Ties between equally good turns are broken uniformly with ``rng``.
    """
    mover, sides = position.to_move, position.rules.die_sides
    mine = _ranked(position, roll, node_budget)
    per_side = max(2, int((node_budget / sides) ** 0.5))
    if len(mine) > per_side:  # too many of ours: both sides keep their best per_side
        mine, replies_limit = mine[:per_side], per_side
    else:  # ours all fit: the opponent gets the rest of the budget
        replies_limit = max(2, node_budget // (sides * len(mine)))

    def value(turn: Turn) -> float:
        after = Position.unchecked(position.board, tuple(cells_after_legal(position, turn)), other(mover),
                                   position.rules)  # a candidate: legal
        if after.is_over:
            return evaluate(after, mover)
        total = 0.0
        for enemy_roll, probability in after.dice_outcomes():
            total += float(probability) * min(
                _leaf_value(*assessment, mover, mover)
                for assessment, _ in _ranked_assessed(after, enemy_roll, replies_limit)
            )
        return total

    best = _best(mine, value)
    return best[0] if len(best) == 1 else rng.choice(best)


def accepts_draw(position: Position, seat: str, turns_played: int) -> bool:
    """Whether a bot (or any strategy) sitting at ``seat`` accepts a draw offered after ``turns_played`` turns.

    The rule every board applies, so a student can predict it: a bot accepts when it is not ahead in size
    (its Δ, Σ of its seat minus the other's, is at most 0), or once half the turn cap has been played
    (:data:`~amoeboid_edu.engine.game.TURN_CAP`), when a long chase is better ended than capped.
    """
    ahead = position.Delta if seat == "A" else -position.Delta
    return ahead <= 0 or turns_played >= TURN_CAP // 2


BASELINE_BOTS: dict[str, Callable[[Position, int, random.Random], Turn]] = {
    "random": random_turn,
    "greedy": greedy,
    "paper": paper,
    "expectimax": expectimax,
}
"""The baseline bots by name: every one a strategy ``(position, roll, rng) -> Turn``.

:data:`amoeboid_edu.players.registry.BOTS` adds the optional extras (``mcts``).
"""

for _name, _bot in BASELINE_BOTS.items():
    register_bot(_name, _bot)

__all__ = [
    "BASELINE_BOTS", "PAPER_RULES", "accepts_draw", "PaperChoice", "PaperRule", "can_end_at_once", "paper_options", "evaluate", "expectimax",
    "exposure", "greedy", "greedy_choices", "outcome_after", "paper", "paper_annotation_of", "paper_case",
    "paper_choice",
]  # fmt: skip
