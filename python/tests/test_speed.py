"""Random playouts through the Python API against `dagaz session` (one JSON round trip per request) and against
`dagaz playout` (the loop in Rust), in CPU time on this process and its children. Figures go to BENCHMARKS.md
("dagaz from Python"); run with -s to see them:

    target/pyvenv/bin/python -m pytest -s python/tests/test_speed.py

It needs the release binary (`cargo build --release`); DAGAZ_BIN names another one.
"""

import json
import os
import random
import resource
import subprocess
import time

import pytest

import dagaz
from conftest import GAMES, ROOT

GAME = GAMES / "breakthrough.zrf"


def _binary():
    b = os.environ.get("DAGAZ_BIN", str(ROOT / "target" / "release" / "dagaz"))
    if not os.path.exists(b):
        pytest.fail(f"{b} is missing: run `cargo build --release` first (or set DAGAZ_BIN)")
    return b


def _children_cpu():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def _session_games(n, seed):
    """n random games through `dagaz session`: per ply a `result`, a `moves` and a `play` request. CPU time of
    this process and of the session process; the plies played."""
    rng = random.Random(seed)
    cpu0, child0 = time.process_time(), _children_cpu()
    p = subprocess.Popen([_binary(), "session", str(GAME)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                         bufsize=1)

    def ask(req):
        p.stdin.write(json.dumps(req) + "\n")
        p.stdin.flush()
        return json.loads(p.stdout.readline())

    start = ask({"cmd": "position"})["position"]
    plies = 0
    for _ in range(n):
        ask({"cmd": "load", "position": start})
        while not ask({"cmd": "result"})["over"]:
            moves = ask({"cmd": "moves"})["moves"]
            r = ask({"cmd": "play", "id": rng.randrange(len(moves))})
            assert r.get("ok"), r
            plies += 1
    p.stdin.write('{"cmd": "quit"}\n')
    p.stdin.close()
    p.wait()
    return time.process_time() - cpu0 + _children_cpu() - child0, plies


def _api_games(n, seed):
    """n random games through the Python API, the loop in Python: per ply `is_terminal`, `legal_actions`,
    `play`. CPU time of this process; the plies played."""
    g = dagaz.load(GAME)
    rng = random.Random(seed)
    cpu0 = time.process_time()
    plies = 0
    for _ in range(n):
        s = g.new_initial_state()
        while not s.is_terminal():
            s.play(rng.choice(s.legal_actions()))
            plies += 1
    return time.process_time() - cpu0, plies


def test_python_api_is_10x_faster_than_the_session():
    n = 40
    session_cpu, session_plies = _session_games(n, 1)
    api_cpu, api_plies = _api_games(n, 1)
    per_ply_session = session_cpu / session_plies
    per_ply_api = api_cpu / api_plies
    print(f"\nsession: {n} games, {session_plies} plies, {session_cpu:.3f} CPU-s, {per_ply_session * 1e6:.1f} us/ply;"
          f" Python API loop: {n} games, {api_plies} plies, {api_cpu:.3f} CPU-s, {per_ply_api * 1e6:.1f} us/ply;"
          f" ratio {per_ply_session / per_ply_api:.1f}x")
    assert per_ply_session >= 10 * per_ply_api


def test_rust_loop_is_within_3x_of_dagaz_playout():
    n, seed = 20000, 7
    g = dagaz.load(GAME)
    g.random_playouts(50, seed=seed)  # warm up
    cpu0 = time.process_time()
    stats = g.random_playouts(n, seed=seed)
    api_cpu = time.process_time() - cpu0
    out = subprocess.run([_binary(), "playout", str(GAME), "--games", str(n), "--seed", str(seed), "--json"],
                         capture_output=True, text=True, check=True)
    cli = json.loads(out.stdout)
    # The same games: the same streams, the same loops.
    assert stats["end_types"] == cli["end_types"]
    assert stats["wins"] == [cli["wins"][p] for p in g.players]
    print(f"\nGame.random_playouts: {n} games, {stats['plies']} plies, {api_cpu:.3f} CPU-s "
          f"({n / api_cpu:.0f} games/CPU-s); dagaz playout: {cli['cpu_seconds']:.3f} CPU-s "
          f"({n / cli['cpu_seconds']:.0f} games/CPU-s); ratio {api_cpu / cli['cpu_seconds']:.2f}")
    assert api_cpu <= 3 * cli["cpu_seconds"]
