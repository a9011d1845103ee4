"""The OpenSpiel adapter: OpenSpiel's own MCTSBot plays ZRF games through it, and dagaz's breakthrough agrees
with OpenSpiel's (written independently, in C++) on the legal move counts along random games."""

import random

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")
from open_spiel.python.algorithms import mcts  # noqa: E402

import dagaz  # noqa: E402
import dagaz.openspiel  # noqa: E402
from conftest import GAMES  # noqa: E402


def _mirror(square):
    # OpenSpiel's breakthrough puts the first player (black) on rows 7-8 moving down; dagaz's file puts the
    # first player (White) on rows 1-2 moving up. The same game with the ranks mirrored.
    return square[0] + str(9 - int(square[1:]))


def _spiel_move(text):
    # OpenSpiel's notation: "a7a6", with "*" after a capture.
    text = text.rstrip("*")
    return _mirror(text[:2]) + "-" + _mirror(text[2:4])


def test_breakthrough_agrees_with_openspiel_on_legal_move_counts():
    ours = dagaz.openspiel.load(GAMES / "breakthrough.zrf")
    theirs = pyspiel.load_game("breakthrough")
    rng = random.Random(2024)
    plies = 0
    for _ in range(100):
        a = ours.new_initial_state()
        b = theirs.new_initial_state()
        while True:
            assert a.is_terminal() == b.is_terminal()
            if a.is_terminal():
                assert a.returns() == b.returns()
                break
            assert a.current_player() == b.current_player()
            names = {_spiel_move(b.action_to_string(x)): x for x in b.legal_actions()}
            mine = [a.action_to_string(x) for x in a.legal_actions()]
            assert len(mine) == len(b.legal_actions())
            assert sorted(mine) == sorted(names)
            action = rng.choice(a.legal_actions())
            b.apply_action(names[a.action_to_string(action)])
            a.apply_action(action)
            plies += 1
    assert plies > 100 * 20  # the games were played, not cut short


def _mcts(game, sims, seed):
    rs = np.random.RandomState(seed)
    return mcts.MCTSBot(game, 1.4, sims, mcts.RandomRolloutEvaluator(1, rs), random_state=rs, solve=True)


def _play(game, bots, max_plies):
    s = game.new_initial_state()
    while not s.is_terminal():
        if s.is_chance_node():
            acts, probs = zip(*s.chance_outcomes())
            s.apply_action(int(np.random.choice(acts, p=probs)))
            continue
        s.apply_action(bots[s.current_player()].step(s))
    return s


def test_mcts_plays_breakthrough_and_takes_a_win_in_one():
    game = dagaz.openspiel.load(GAMES / "breakthrough.zrf")
    # A White pawn on b7 with b8 empty: stepping to the far row wins (the rules). MCTS must see it.
    s = game.new_initial_state()
    text = "\n".join(
        ["turn White", "ply 40", "piece White Pawn b7", "piece White Pawn a2", "piece Black Pawn g8",
         "piece Black Pawn h7", "piece Black Pawn a4"]
    )
    s._dagaz = s._dagaz.load_position(text)
    assert not s.is_terminal()
    a = _mcts(game, 200, 1).step(s)
    assert s.action_to_string(a) in {"b7-a8", "b7-b8", "b7-c8"}
    s.apply_action(a)
    assert s.is_terminal() and s.returns() == [1.0, -1.0]
    # And a whole game, MCTS against MCTS, ends with a winner.
    end = _play(game, [_mcts(game, 20, 2), _mcts(game, 20, 3)], 1000)
    assert sorted(end.returns()) == [-1.0, 1.0]


# A Lasca position (found in a random game) where a Black officer on e3 can capture round a loop either way.
_LASCA_TWO_PATHS = """turn Black
ply 59
piece Black Soldier a7
piece Black Soldier a7
piece Black Soldier a7
piece Black Soldier a7
piece White Officer a7
piece Black Officer d6
piece Black Soldier d6
piece White Soldier d6
piece Black Soldier f6
piece Black Soldier f6
piece Black Soldier f6
piece White Officer f6
piece White Soldier d4
piece White Soldier d4
piece White Soldier d4
piece White Soldier d4
piece White Soldier f4
piece White Soldier e3
piece White Soldier e3
piece White Soldier e3
piece Black Officer e3
piece Black Soldier d2
"""


def test_mcts_plays_lasca():
    # Lasca is not among OpenSpiel's games. Two capture chains may start and end on the same squares
    # (e5-g3xf4-e1 and e5-c3xd4-e1), which the stable action ids do not tell apart: index actions.
    with pytest.raises(dagaz.DagazError, match="share action id"):
        s = dagaz.load(GAMES / "lasca.zrf").new_initial_state().load_position(_LASCA_TWO_PATHS)
        s.legal_actions()
    game = dagaz.openspiel.load(GAMES / "lasca.zrf", actions="index", max_moves=256)
    assert "lasca" not in {g.short_name for g in pyspiel.registered_games() if not g.short_name.startswith("dagaz")}
    end = _play(game, [_mcts(game, 20, 4), _mcts(game, 20, 5)], 400)
    r = end.returns()
    assert sum(r) == 0 and set(r) <= {-1.0, 0.0, 1.0}


def test_chance_nodes_and_index_actions():
    game = dagaz.openspiel.load(GAMES / "backgammon.zrf", actions="index", max_moves=4000, max_plies=60)
    assert game.get_type().chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert game.num_players() == 2
    s = game.new_initial_state()
    assert s.is_chance_node()
    s.apply_action(0)
    s.apply_action(s.legal_actions()[0])
    # The second throw: two dice, 36 equally likely ordered outcomes (doubles included).
    assert s.is_chance_node()
    outcomes = s.chance_outcomes()
    assert len(outcomes) == 36
    assert all(abs(p - 1 / 36) < 1e-12 for _, p in outcomes)
    end = _play(game, [_mcts(game, 5, 6), _mcts(game, 5, 7)], 60)
    assert end.is_terminal()


def test_observation_tensor_and_clone():
    game = dagaz.openspiel.load(GAMES / "breakthrough.zrf")
    s = game.new_initial_state()
    t = np.asarray(s.observation_tensor(0))
    assert t.shape == (2 * 64,)
    assert t.sum() == 32
    c = s.clone()
    c.apply_action(c.legal_actions()[0])
    assert s.history() == [] and len(c.history()) == 1
    with pytest.raises(Exception):
        s.apply_action(game.num_distinct_actions() - 1)
