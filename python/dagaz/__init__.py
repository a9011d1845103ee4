"""dagaz from Python: games written in ZRF (the Zillions of Games rules language), played by the dagaz engine.

    >>> import dagaz
    >>> game = dagaz.load("games/breakthrough.zrf")
    >>> state = game.new_initial_state()
    >>> len(state.legal_moves())
    22
    >>> state.play("a2-a3")

The classes come from the compiled module ``dagaz._dagaz`` (the crate under ``python/``): ``Game`` (a loaded
game) and ``State`` (a game in progress). This module adds :func:`load` and :func:`observation`, which views a
state's observation as a numpy array.
"""

from __future__ import annotations

import numpy as np

from dagaz._dagaz import DagazError, Game, IllegalMoveError, State

__all__ = ["DagazError", "Game", "IllegalMoveError", "State", "load", "observation"]


def load(path, variant=None, extensions=(), allow_missing_rules=False) -> Game:
    """Loads game ``variant`` of the ZRF file at ``path``.

    ``variant`` is ``None`` (the file's first game), a 1-based number or a title. ``extensions`` lists extension
    modules to attach (as ``dagaz --extension``). A game using rules dagaz does not apply raises
    :class:`DagazError` naming them, unless ``allow_missing_rules``. A file that does not load raises
    :class:`DagazError` with the file, line and column of each error.
    """
    return Game(str(path), variant, list(extensions), allow_missing_rules)


def observation(state: State) -> np.ndarray:
    """The state as a float32 numpy array: the same as ``state.observation()``."""
    return state.observation()
