"""The engine: the rules, the text notation, a game with seeded dice, the one match loop and the one seeding scheme.

Nothing here imports another layer of the package (drawing a position in a notebook is the one lazy exception,
python-chess's way: :meth:`Position._repr_svg_` imports :mod:`amoeboid_edu.ui.render` when called).
"""
