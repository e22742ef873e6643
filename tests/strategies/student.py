"""A student's strategy file, loaded by the worker from its path (``amoeboid score FILE.py:FUNCTION``)."""

from amoeboid_edu import legal_move_pairs


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
