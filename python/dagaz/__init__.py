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

import csv
import os
import shlex

from dagaz._dagaz import DagazError, Game, IllegalMoveError, State, run_tournament

__all__ = ["DagazError", "Game", "IllegalMoveError", "State", "Tournament", "load", "observation", "tournament"]


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


def _read_csv(path, as_frame):
    if as_frame:
        import pandas

        return pandas.read_csv(path)
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


class Tournament:
    """A finished tournament: its folder (``out``), the standings as text, and its tables read back from the
    run's files (``standings.csv``, ``games.csv``), as pandas DataFrames when pandas is installed (and
    ``as_frames``), else lists of dicts (every value a string, as in the files)."""

    def __init__(self, out, text, as_frames=True):
        self.out = out
        self.text = text
        try:
            import pandas  # noqa: F401

            self._frames = as_frames
        except ImportError:
            self._frames = False

    def table(self, name):
        """The run's ``NAME.csv`` (``standings``, ``games``, ``timings``, ...), read back."""
        return _read_csv(os.path.join(self.out, name + ".csv"), self._frames)

    @property
    def standings(self):
        """One row per bot (per variant): games, wins, draws, losses, score, Elo, ... (``standings.csv``)."""
        return self.table("standings")

    @property
    def games(self):
        """One row per game: bots by seat, result, plies, end condition (``end_type``), ... (``games.csv``)."""
        return self.table("games")

    @property
    def end_conditions(self):
        """Per bot, variant, seat and end condition: wins, draws, losses (``end_conditions.csv``)."""
        return self.table("end_conditions")

    def __repr__(self):
        return f"<dagaz.Tournament in {self.out}>"


def tournament(args, bots=None, as_frames=True) -> Tournament:
    """Runs a tournament with the settings of ``dagaz tournament ARGS`` (``args``: the same words as a string or
    a list, e.g. ``"games/breakthrough.zrf --bots random mcts-1k --games 10 --out results/x"``) and returns it.

    ``bots`` maps names to Python callables played in-process after the command line's bots (without
    ``--bots``, only they play): each is called with a :class:`State` and returns the move to play, as an
    action id or a notation. A bot that raises or answers an illegal move loses that game (``bot-error`` in
    ``games.csv``). The run's files are those of the command line, in ``--out`` (default
    ``results/<game>-py-<time>``).
    """
    if isinstance(args, str):
        args = shlex.split(args)
    out, text = run_tournament([str(a) for a in args], list((bots or {}).items()))
    return Tournament(out, text, as_frames)
