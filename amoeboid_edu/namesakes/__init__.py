"""Two other games called *Amoeba*: Nakajima's stacking game and Oosterwal's placement game.

They share a name with Amoeboid and nothing else: this subpackage imports none
of Amoeboid's rules.  Each game is a module of pure rules (frozen positions,
``apply``, ``legal_moves``, text notation), :mod:`.drawing` draws both as SVG,
:mod:`.bots` plays them and :mod:`.widget` lets students click.
"""

from . import nakajima, oosterwal

__all__ = ["nakajima", "oosterwal"]
