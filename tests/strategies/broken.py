def broken(position, roll, rng)
    return None
