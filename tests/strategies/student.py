"""A student's strategy file, loaded by the worker from its path (``amoeboid score FILE.py:FUNCTION``)."""

from amoeboid_edu import legal_move_pairs, legal_turns


def wander(position, roll, rng):
    grow = rng.choice(position.owned())
    pairs = legal_move_pairs(position, roll, grow)
    if not pairs:
        return f"{roll} {grow} -"
    src, dst = rng.choice(pairs)
    return f"{roll} {grow} {src}-{dst}"


def shout(position, roll, rng):
    print("thinking about", position)
    raise ValueError(f"no idea what to do with a {roll}")


def first_eater(position, roll, rng):
    """Issue 25's walker of the documented API: the first legal turn that moves, half the time, else the first; it
    exercises ``legal_turns`` and the referee (tests/players/record_bot_games.py, bench/scoring.py)."""
    first = None
    for turn in legal_turns(position, roll):
        first = first or turn
        if " " in str(turn) and "-" in str(turn) and rng.random() < 0.5:
            return turn
    return first
