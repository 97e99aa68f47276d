"""Research interfaces: PettingZoo, Gymnasium and OpenSpiel views of every Tablier game.

Install the extra first (``pip install 'tablier[rl]'``).  The adapters never
ask which game they handle: each game's class declares its action encoding
(``Game.actions()``; for Volo the module ``tablier.games.volo.actions``) with
the fixed action-id encoding and the observation planes, read by
:func:`actions_for`; :class:`Stepper`
turns a game's moves into steps of one discrete action space.  See
``docs/research.md``.

- :mod:`tablier.adapters.pettingzoo`: ``env(game_name, **options)``, ``raw_env``;
- :mod:`tablier.adapters.gymnasium`: ``SingleAgentEnv`` against a Tablier player;
- :mod:`tablier.adapters.openspiel`: ``tablier_<name>`` games for ``pyspiel``.
"""

from __future__ import annotations

from .stepper import Stepper, actions_for

__all__ = ["Stepper", "actions_for"]
