"""The PettingZoo adapter passes PettingZoo's own api_test for a two-player game, a game with chance
(backgammon's dice) and a game of more than two players (partnership chess, four)."""

import numpy as np
import pytest

pytest.importorskip("pettingzoo")
from pettingzoo.test import api_test  # noqa: E402

import dagaz  # noqa: E402
from dagaz.pettingzoo import env  # noqa: E402
from conftest import GAMES  # noqa: E402


def test_api_test_breakthrough():
    api_test(env(GAMES / "breakthrough.zrf"), num_cycles=200)


def test_api_test_backgammon_with_dice():
    e = env(GAMES / "backgammon.zrf", actions="index", max_moves=4096, max_plies=400)
    # The dice are no agent: only the two players act.
    assert e.possible_agents == ["White", "Black"]
    api_test(e, num_cycles=200)


def test_api_test_partnership_chess_four_players():
    e = env(GAMES / "partnership-chess.zrf", max_plies=200)
    assert e.possible_agents == ["Red", "Blue", "Yellow", "Green"]
    api_test(e, num_cycles=100)


def test_a_whole_game_and_its_rewards():
    e = env(GAMES / "breakthrough.zrf")
    e.reset(seed=3)
    rng = np.random.default_rng(3)
    total = {a: 0.0 for a in e.possible_agents}
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, info = e.last()
        total[agent] += reward
        if terminated or truncated:
            e.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        assert len(legal) == len(info["legal_moves"])
        e.step(int(rng.choice(legal)))
    # Breakthrough has no draw: one agent won, the other lost.
    assert sorted(total.values()) == [-1.0, 1.0]


def test_an_illegal_action_raises():
    e = env(GAMES / "breakthrough.zrf")
    e.reset(seed=1)
    obs, *_ = e.last()
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    with pytest.raises(dagaz.IllegalMoveError):
        e.step(illegal)
