"""Tournaments from Python: the command line's settings, a Python callable as a bot, the results read back."""

import random

import pytest

import dagaz
from conftest import GAMES


def test_a_python_bot_plays_and_its_results_are_in_the_standings(tmp_path):
    rng = random.Random(1)
    calls = []

    def by_notation(state):
        calls.append(state.ply())
        return rng.choice(state.legal_moves())

    def by_action_id(state):
        return rng.choice(state.legal_actions())

    out = tmp_path / "run"
    t = dagaz.tournament(
        ["--games", "4", "--seed", "3", "--out", str(out), str(GAMES / "breakthrough.zrf")],
        bots={"py-notation": by_notation, "py-ids": by_action_id},
    )
    assert t.out == str(out)
    st = t.standings
    assert set(st["bot"]) == {"py-notation", "py-ids"}
    assert list(st["games"]) == [4, 4]
    # Breakthrough has no draw: every game has a winner, and no game ended in a bot error.
    assert st["wins"].sum() == 4 and st["draws"].sum() == 0
    games = t.games
    assert len(games) == 4
    assert "bot-error" not in set(games["end_type"])
    assert calls  # the callable was called, in-process
    assert "py-notation" in t.text


def test_a_python_bot_against_a_built_in_bot(tmp_path):
    t = dagaz.tournament(
        f"{GAMES / 'breakthrough.zrf'} --bots random --games 2 --seed 1 --out {tmp_path / 'r'}",
        bots={"first-move": lambda s: s.legal_moves()[0]},
    )
    assert set(t.standings["bot"]) == {"random", "first-move"}
    rows = t.table("standings")
    assert len(rows) == 2


def test_a_failing_python_bot_loses_with_a_bot_error(tmp_path):
    def broken(state):
        raise RuntimeError("no idea")

    def illegal(state):
        return "z9-z10"

    t = dagaz.tournament(
        [str(GAMES / "breakthrough.zrf"), "--games", "2", "--out", str(tmp_path / "e")],
        bots={"broken": broken, "illegal": illegal},
        as_frames=False,
    )
    games = t.games
    assert len(games) == 2
    assert {g["end_type"] for g in games} == {"bot-error"}
    # Plain lists of dicts without frames.
    assert isinstance(t.standings, list)


def test_bad_arguments_raise():
    with pytest.raises(ValueError):
        dagaz.tournament(["--no-such-flag"])
    with pytest.raises(dagaz.DagazError):
        dagaz.tournament([str(GAMES / "no-such.zrf"), "--bots", "random", "random"])
