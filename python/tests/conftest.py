"""Shared fixtures: the repository's games directory, whatever directory pytest runs from."""

import pathlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
GAMES = ROOT / "games"


@pytest.fixture
def games():
    return GAMES


def game_path(name):
    return GAMES / name
