"""A ZRF game as an OpenSpiel Python game (``pyspiel``), so OpenSpiel's algorithms run on it unchanged.

    >>> import dagaz.openspiel
    >>> game = dagaz.openspiel.load("games/breakthrough.zrf")     # registered as "dagaz_breakthrough"
    >>> from open_spiel.python.algorithms import mcts
    >>> bot = mcts.MCTSBot(game, 1.4, 100, mcts.RandomRolloutEvaluator(1))

How the game maps onto OpenSpiel:

* Players: the game's non-random players in order are OpenSpiel's players 0, 1, ...; a random (``?``) player's
  turn is OpenSpiel's chance node, with the uniform outcomes of :meth:`dagaz.State.chance_outcomes`.
* Actions: the action ids of :attr:`dagaz.Game.num_distinct_actions` (``actions="id"``, the default), stable
  across states. Games whose legal moves can share an id (a backgammon turn of several checker moves) need
  ``actions="index"``: action *i* is then the *i*-th legal move, and ``num_distinct_actions`` is
  ``max_moves``; a state with more legal moves raises :class:`dagaz.DagazError`.
* Length: a game reaching ``max_plies`` plies (the engine's ply count, random players' moves included) ends as
  a draw, as ``dagaz playout --max-plies`` does; that bound is OpenSpiel's ``max_game_length``.
* Utility: zero-sum for two players with results in {-1, 0, 1}; general-sum otherwise (a partnership game's
  teams share results).
* Observation: the tensor of :meth:`dagaz.State.observation`, flattened; the string is the position text.
"""

from __future__ import annotations

import re

import numpy as np
import pyspiel

import dagaz

_registered: dict[str, tuple] = {}


def _slug(title: str) -> str:
    return re.sub(r"[^a-z0-9]+", "_", title.lower()).strip("_") or "game"


class _Observer:
    """The observation of every player: the whole board (ZRF games have perfect information)."""

    def __init__(self, dgame: dagaz.Game, params):
        if params:
            raise ValueError(f"dagaz observers take no parameters, got {params}")
        self.tensor = np.zeros(int(np.prod(dgame.observation_shape)), np.float32)
        self.dict = {"observation": self.tensor.reshape(dgame.observation_shape)}

    def set_from(self, state, player):
        self.tensor[:] = state._dagaz.observation().ravel()

    def string_from(self, state, player):
        return str(state._dagaz)


def load(path, variant=None, *, short_name=None, actions="id", max_moves=None, max_plies=1000, extensions=()):
    """Loads a ZRF game, registers it with ``pyspiel`` (under ``short_name``, by default ``dagaz_`` and its
    title in lower case) and returns the ``pyspiel.Game``. ``pyspiel.load_game(short_name)`` then returns the
    same game. See the module's docstring for ``actions``, ``max_moves`` and ``max_plies``.
    """
    if actions not in ("id", "index"):
        raise ValueError(f"actions must be 'id' or 'index', not {actions!r}")
    if actions == "index" and not max_moves:
        raise ValueError("actions='index' needs max_moves (the most legal moves a state may have)")
    dgame = dagaz.load(path, variant, extensions)
    name = short_name or "dagaz_" + _slug(dgame.title)
    if name in _registered:
        prev = _registered[name]
        if prev[0] != (str(path), variant, actions, max_moves, max_plies, tuple(extensions)):
            raise ValueError(f"{name} is already registered for another game or settings: {prev[0]}")
        return pyspiel.load_game(name)
    random_players = set(dgame.random_players)
    players = [i for i in range(dgame.num_players) if i not in random_players]
    n = len(players)
    two_zero_sum = n == 2
    game_type = pyspiel.GameType(
        short_name=name,
        long_name=f"{dgame.title} (dagaz, {dgame.path})",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=(
            pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
            if random_players
            else pyspiel.GameType.ChanceMode.DETERMINISTIC
        ),
        information=pyspiel.GameType.Information.PERFECT_INFORMATION,
        utility=(pyspiel.GameType.Utility.ZERO_SUM if two_zero_sum else pyspiel.GameType.Utility.GENERAL_SUM),
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=n,
        min_num_players=n,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={},
    )
    size = dgame.num_distinct_actions if actions == "id" else max_moves
    info_args = dict(
        num_distinct_actions=size,
        max_chance_outcomes=size if random_players else 0,
        num_players=n,
        min_utility=-1.0,
        max_utility=1.0,
        max_game_length=max_plies,
    )
    if two_zero_sum:
        info_args["utility_sum"] = 0.0
    game_info = pyspiel.GameInfo(**info_args)

    class DagazSpielState(pyspiel.State):
        """A dagaz state behind OpenSpiel's ``State`` interface."""

        def __init__(self, game, dstate=None):
            super().__init__(game)
            self._dagaz = dstate if dstate is not None else dgame.new_initial_state()

        def _over(self):
            return self._dagaz.is_terminal() or self._dagaz.ply() >= max_plies

        def current_player(self):
            if self._over():
                return pyspiel.PlayerId.TERMINAL
            if self._dagaz.is_chance_node():
                return pyspiel.PlayerId.CHANCE
            return players.index(self._dagaz.current_player())

        def _actions(self):
            if actions == "id":
                return self._dagaz.legal_actions()
            k = len(self._dagaz.legal_moves())
            if k > max_moves:
                raise dagaz.DagazError(f"{k} legal moves, more than max_moves={max_moves}")
            return list(range(k))

        def _legal_actions(self, player):
            return sorted(self._actions()) if not self._over() else []

        def chance_outcomes(self):
            acts = self._actions()
            return sorted((a, 1.0 / len(acts)) for a in acts)

        def _move(self, action):
            if actions == "id":
                return action
            return self._dagaz.legal_moves()[action]

        def _apply_action(self, action):
            self._dagaz.play(self._move(action))

        def _action_to_string(self, player, action):
            try:
                return self._dagaz.action_to_notation(self._move(action))
            except (dagaz.IllegalMoveError, IndexError):
                return dgame.action_to_string(action) if actions == "id" else f"move #{action}"

        def is_terminal(self):
            return self._over()

        def returns(self):
            r = self._dagaz.returns()
            return [r[p] for p in players]

        def __str__(self):
            return str(self._dagaz)

        def __deepcopy__(self, memo):
            return DagazSpielState(self.get_game(), self._dagaz.clone())

        def clone(self):
            return DagazSpielState(self.get_game(), self._dagaz.clone())

    class DagazSpielGame(pyspiel.Game):
        """A ZRF game behind OpenSpiel's ``Game`` interface."""

        def __init__(self, params=None):
            super().__init__(game_type, game_info, params or dict())
            self.dagaz_game = dgame

        def new_initial_state(self):
            return DagazSpielState(self)

        def make_py_observer(self, iig_obs_type=None, params=None):
            return _Observer(dgame, params)

    pyspiel.register_game(game_type, DagazSpielGame)
    _registered[name] = ((str(path), variant, actions, max_moves, max_plies, tuple(extensions)), DagazSpielGame)
    return pyspiel.load_game(name)
