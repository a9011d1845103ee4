"""A ZRF game as a PettingZoo AEC environment (turn-based, one agent acting at a time).

    >>> from dagaz.pettingzoo import env
    >>> e = env("games/breakthrough.zrf")
    >>> e.reset(seed=1)
    >>> obs, reward, terminated, truncated, info = e.last()
    >>> e.step(int(obs["action_mask"].nonzero()[0][0]))

How the game maps onto PettingZoo:

* Agents: the game's non-random players, by name. A random (``?``) player's moves (dice) are drawn by the
  environment itself, uniformly among its legal moves with the generator ``reset(seed=...)`` seeds, so no
  agent ever acts for it.
* Actions: ``Discrete(Game.num_distinct_actions)`` with the game's stable action ids (``actions="id"``), or,
  for games whose legal moves can share an id (backgammon's turns of several checker moves), the index of
  the move in ``State.legal_moves()`` with ``Discrete(max_moves)`` (``actions="index"``). The observation's
  ``action_mask`` marks the legal ones; ``info["legal_moves"]`` gives their notation.
* Observations: ``{"observation": the State.observation() planes, "action_mask": int8}``; every agent sees the
  whole board.
* Rewards: the game's result per agent (1 win, 0 draw, -1 loss) when it ends, 0 before. A game reaching
  ``max_plies`` plies is truncated (no result), as ``dagaz playout --max-plies`` stops it.
"""

from __future__ import annotations

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

import dagaz


def env(path, variant=None, *, actions="id", max_moves=None, max_plies=1000, render_mode=None, extensions=()):
    """The AEC environment of game ``variant`` of the ZRF file at ``path`` (see the module's docstring)."""
    return DagazAECEnv(path, variant, actions=actions, max_moves=max_moves, max_plies=max_plies,
                       render_mode=render_mode, extensions=extensions)


class DagazAECEnv(AECEnv):
    """A ZRF game as a PettingZoo ``AECEnv``; see :mod:`dagaz.pettingzoo`."""

    metadata = {"render_modes": ["human", "ansi"], "name": "dagaz_v0", "is_parallelizable": False}

    def __init__(self, path, variant=None, *, actions="id", max_moves=None, max_plies=1000, render_mode=None,
                 extensions=()):
        super().__init__()
        if actions not in ("id", "index"):
            raise ValueError(f"actions must be 'id' or 'index', not {actions!r}")
        if actions == "index" and not max_moves:
            raise ValueError("actions='index' needs max_moves (the most legal moves a state may have)")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}, not {render_mode!r}")
        self.game = dagaz.load(path, variant, extensions)
        self.metadata = dict(self.metadata, name=f"dagaz_{self.game.title}_v0")
        self.render_mode = render_mode
        self._mode = actions
        self._max_plies = max_plies
        random_players = set(self.game.random_players)
        self._player_ids = [i for i in range(self.game.num_players) if i not in random_players]
        self.possible_agents = [self.game.players[i] for i in self._player_ids]
        self._agent_of = {i: a for i, a in zip(self._player_ids, self.possible_agents)}
        n = self.game.num_distinct_actions if actions == "id" else max_moves
        self._n_actions = n
        shape = self.game.observation_shape
        self.observation_spaces = {
            a: spaces.Dict(
                {
                    "observation": spaces.Box(0.0, 1.0, shape, np.float32),
                    "action_mask": spaces.Box(0, 1, (n,), np.int8),
                }
            )
            for a in self.possible_agents
        }
        self.action_spaces = {a: spaces.Discrete(n) for a in self.possible_agents}
        self.state = None

    def observation_space(self, agent):
        """The observation space of ``agent``: the board planes and the action mask."""
        return self.observation_spaces[agent]

    def action_space(self, agent):
        """The action space of ``agent``: ``Discrete`` over the action ids (or move indices)."""
        return self.action_spaces[agent]

    def _legal(self):
        if self._mode == "id":
            return self.state.legal_actions()
        k = len(self.state.legal_moves())
        if k > self._n_actions:
            raise dagaz.DagazError(f"{k} legal moves, more than max_moves={self._n_actions}")
        return list(range(k))

    def _move(self, action):
        return int(action) if self._mode == "id" else self.state.legal_moves()[int(action)]

    def _roll_dice(self):
        # The random players' moves: uniform among their legal moves, from the environment's generator.
        while not self.state.is_terminal() and self.state.ply() < self._max_plies and self.state.is_chance_node():
            moves = self.state.legal_moves()
            self.state.play(moves[int(self.np_random.integers(len(moves)))])

    def observe(self, agent):
        """The whole board as planes, and the mask of the legal actions (all 0 for an agent not to move)."""
        obs = np.array(self.state.observation(), dtype=np.float32)
        mask = np.zeros(self._n_actions, np.int8)
        if agent == self.agent_selection and not (self.terminations[agent] or self.truncations[agent]):
            mask[self._legal()] = 1
        return {"observation": obs, "action_mask": mask}

    def reset(self, seed=None, options=None):
        """Starts a new game; ``seed`` seeds the dice of games with random players."""
        if seed is not None or not hasattr(self, "np_random"):
            self.np_random = np.random.default_rng(seed)
        self.state = self.game.new_initial_state()
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self._roll_dice()
        self._after_move()

    def _after_move(self):
        self.agent_selection = self._agent_of.get(self.state.current_player(), self.agents[0])
        if self.state.is_terminal():
            for agent, r in zip(self.possible_agents, [self.state.returns()[i] for i in self._player_ids]):
                self.rewards[agent] = float(r)
                self.terminations[agent] = True
        elif self.state.ply() >= self._max_plies:
            for agent in self.agents:
                self.truncations[agent] = True
        else:
            self.infos[self.agent_selection] = {"legal_moves": self.state.legal_moves()}

    def step(self, action):
        """Plays ``action`` for the agent to move (``None`` for an agent whose game is over)."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None or int(action) not in set(self._legal()):
            raise dagaz.IllegalMoveError(f"{agent}: action {action} is not legal here")
        self._cumulative_rewards[agent] = 0.0
        self.state.play(self._move(action))
        self._roll_dice()
        self._clear_rewards()
        self._after_move()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self):
        """The position as text (``ansi``: returned; ``human``: printed)."""
        if self.render_mode is None:
            return None
        text = str(self.state)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self):
        """Nothing to release."""
