"""The game API, checked against the published rules of the games (never against dagaz's own output)."""

import random

import numpy as np
import pytest

import dagaz
from conftest import GAMES


@pytest.fixture(scope="module")
def breakthrough():
    return dagaz.load(GAMES / "breakthrough.zrf")


def test_breakthrough_start(breakthrough):
    # Breakthrough (Troyka): 8x8, two rows of pawns each. At the start only the front row (rank 2) moves: a
    # pawn steps straight or diagonally forward onto an empty square, so the two edge pawns have 2 moves and
    # the six others 3: 3 * 8 - 2 = 22.
    s = breakthrough.new_initial_state()
    assert breakthrough.players == ["White", "Black"]
    assert s.current_player() == 0
    assert not s.is_chance_node()
    moves = s.legal_moves()
    assert len(moves) == 3 * 8 - 2
    assert sorted(m.split("-")[0] for m in moves) == sorted(["a2", "h2"] * 2 + [f"{c}2" for c in "bcdefg"] * 3)
    assert "a2-a3" in moves and "a2-b3" in moves and "b2-a3" in moves
    assert "a1-a2" not in moves  # blocked by its own pawn
    assert not s.is_terminal()
    assert s.returns() == [0.0, 0.0]
    assert s.chance_outcomes() == []


def test_breakthrough_capture_is_diagonal_only():
    # White e4 faces Black e5 (no straight capture) and d5 (a diagonal capture).
    g = dagaz.load(GAMES / "breakthrough.zrf")
    s = g.new_initial_state()
    for m in ["e2-e3", "e7-e6", "e3-e4", "e6-e5", "d2-d3", "d7-d6", "d3-d4", "d6-d5"]:
        s.play(m)
    moves = s.legal_moves()
    assert "e4-e5" not in moves
    assert "e4-d5" in moves and "d4-e5" in moves
    assert "d4-d5" not in moves
    n_black = sum(1 for _ in range(1))  # noqa: F841 (kept simple)
    obs_before = s.observation()
    s.play("e4-d5")
    obs_after = s.observation()
    # One black pawn fewer on the board.
    assert obs_after[1].sum() == obs_before[1].sum() - 1
    assert obs_after[0].sum() == obs_before[0].sum() == 16


def test_reaching_the_far_row_wins():
    g = dagaz.load(GAMES / "breakthrough.zrf")
    s = g.new_initial_state()
    rng = random.Random(7)
    while not s.is_terminal():
        s.play(rng.choice(s.legal_moves()))
    r = s.returns()
    assert sorted(r) == [-1.0, 1.0]
    winner = r.index(1.0)
    # The winner has a pawn on its goal row, or the loser has no pawn left.
    obs = s.observation()
    names = g.positions
    goal = "8" if winner == 0 else "1"
    on_goal = any(obs[winner, i] for i, n in enumerate(names) if n.endswith(goal))
    assert on_goal or obs[1 - winner].sum() == 0
    assert s.legal_moves() == [] and s.legal_actions() == []
    o = s.outcome()
    assert o["results"][g.players[winner]] == 1
    with pytest.raises(dagaz.IllegalMoveError):
        s.play(0)


def test_illegal_moves_raise_and_change_nothing(breakthrough):
    s = breakthrough.new_initial_state()
    before = str(s)
    for bad in ["a2-a4", "a1-a2", "e7-e6", "nonsense"]:
        with pytest.raises(dagaz.IllegalMoveError):
            s.play(bad)
    with pytest.raises(dagaz.IllegalMoveError):
        s.play(breakthrough.num_distinct_actions + 5)
    with pytest.raises(TypeError):
        s.play(1.5)
    assert str(s) == before
    assert len(s.legal_moves()) == 22
    with pytest.raises(IndexError):
        s.undo()


def test_undo_restores(breakthrough):
    s = breakthrough.new_initial_state()
    rng = random.Random(3)
    seen = []
    for _ in range(30):
        if s.is_terminal():
            break
        seen.append((str(s), s.to_json(), s.legal_moves(), s.current_player(), s.observation().copy()))
        s.play(rng.choice(s.legal_moves()))
    for text, js, moves, player, obs in reversed(seen):
        s.undo()
        assert str(s) == text
        assert s.to_json() == js
        assert s.legal_moves() == moves
        assert s.current_player() == player
        assert np.array_equal(s.observation(), obs)
    assert s.history() == []


def test_clone_is_independent(breakthrough):
    s = breakthrough.new_initial_state()
    s.play("a2-a3")
    c = s.clone()
    c.play("a7-a6")
    assert s.history() == ["a2-a3"]
    assert c.history() == ["a2-a3", "a7-a6"]
    assert s.current_player() == 1 and c.current_player() == 0


def test_observation_shape_and_contents(breakthrough):
    s = breakthrough.new_initial_state()
    obs = s.observation()
    # One piece type (Pawn), two players, 64 squares.
    assert breakthrough.piece_types == ["Pawn"]
    assert obs.shape == (2, 64) == breakthrough.observation_shape
    assert obs.dtype == np.float32
    names = breakthrough.positions
    white = {names[i] for i in np.flatnonzero(obs[0])}
    black = {names[i] for i in np.flatnonzero(obs[1])}
    assert white == {f"{c}{r}" for c in "abcdefgh" for r in "12"}
    assert black == {f"{c}{r}" for c in "abcdefgh" for r in "78"}


def test_action_ids_round_trip(breakthrough):
    s = breakthrough.new_initial_state()
    rng = random.Random(11)
    n = breakthrough.num_distinct_actions
    for _ in range(60):
        if s.is_terminal():
            break
        ids = s.legal_actions()
        names = s.legal_moves()
        assert len(set(ids)) == len(ids) == len(names)
        for a, m in zip(ids, names):
            assert 0 <= a < n
            assert s.action_to_notation(a) == m
            assert s.notation_to_action(m) == a
            # The id names the move, not the state: its readable form names the two squares of the move.
            frm, to = m.split("-")
            assert breakthrough.action_to_string(a) == f"Pawn {frm}-{to}"
        s.play(rng.choice(ids))


def test_action_ids_are_the_same_in_any_state(breakthrough):
    a = breakthrough.new_initial_state()
    b = breakthrough.new_initial_state()
    b.play("h2-h3")
    b.play("a7-a6")
    assert a.notation_to_action("a2-a3") == b.notation_to_action("a2-a3")


def test_random_playout_in_rust_leaves_the_state(breakthrough):
    s = breakthrough.new_initial_state()
    text = str(s)
    returns, plies, end = s.random_playout(seed=5)
    assert str(s) == text
    assert sorted(returns) == [-1.0, 1.0]
    assert plies > 0
    # Breakthrough cannot be drawn: the game ends by a pawn reaching the far row, or one side having no move.
    assert end != "move-limit"
    stats = breakthrough.random_playouts(20, seed=1)
    assert stats["games"] == 20
    assert sum(stats["wins"]) == 20


def test_load_errors_name_the_place(tmp_path):
    with pytest.raises(dagaz.DagazError, match="no-such"):
        dagaz.load(tmp_path / "no-such.zrf")
    bad = tmp_path / "bad.zrf"
    bad.write_text("(game (title \"x\")\n  (players A B)\n  (turn-order A B)\n  (board (grid (dimensions \"a\" \"1\"))\n")
    with pytest.raises(dagaz.DagazError, match=r"bad\.zrf:\d+"):
        dagaz.load(bad)


def test_variant_selection_and_chance():
    g = dagaz.load(GAMES / "backgammon.zrf", variant=1)
    assert g.title == "Backgammon"
    assert g.random_players == [2]
    s = g.new_initial_state()
    # Backgammon (turn order ?Dice White ?Dice Black): the game starts with a throw of two dice. The file
    # rules out an opening double (its header), so the first throw has 30 equally likely ordered outcomes.
    assert s.is_chance_node()
    assert s.current_player() == 2
    moves = s.legal_moves()
    probs = [p for _, p in enumerate(moves)]
    assert len(probs) == 30
    with pytest.raises(dagaz.DagazError, match="no-such-title"):
        dagaz.load(GAMES / "backgammon.zrf", variant="no-such-title")
