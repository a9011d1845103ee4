#!/usr/bin/env python3
"""Checks that python-chess ends every game of games/chess.zrf where dagaz does, and for the same reason.

dagaz plays N random games (a tournament of two random bots, no random opening, a ply cap far past what
the fifty-move rule allows); the script reads them back from games.pgn with python-chess and replays
each. At every position before the last, python-chess must see no end; at the last, the end dagaz
recorded (the PGN's Termination) must be the first that holds in python-chess, in the order of the
file's end conditions:

    checkmate              board.is_checkmate()
    stalemate              board.is_stalemate()
    insufficient material  board.is_insufficient_material()
    threefold repetition   board.is_repetition(3)
    fifty moves            board.halfmove_clock >= 100

(draws applied as the game's end, without a claim). The result tag must agree as well.

Needs python-chess (`pip install chess`). Usage:

    python3 scripts/chess_ends.py [--games 200] [--seed 1] [--bin target/release/dagaz] [--game FILE] [--keep DIR]

Exit code 0 when every game agrees, 1 otherwise (each disagreement printed).
"""

import argparse
import collections
import os
import subprocess
import sys
import tempfile

try:
    import chess
    import chess.pgn
except ImportError:
    sys.exit("error: python-chess is missing (pip install chess)")

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def expected_end(board):
    """The end python-chess sees in this position, in the order of games/chess.zrf's conditions."""
    if board.is_checkmate():
        return "checkmate"
    if board.is_stalemate():
        return "stalemate"
    if board.is_insufficient_material():
        return "insufficient material"
    if board.is_repetition(3):
        return "threefold repetition"
    if board.halfmove_clock >= 100:
        return "fifty moves"
    return None


def check_game(game):
    """Replays one PGN game; returns (termination, a list of disagreements)."""
    problems = []
    term = game.headers.get("Termination", "")
    board = game.board()
    moves = list(game.mainline_moves())
    for i, move in enumerate(moves):
        early = expected_end(board)
        if early is not None:
            problems.append(f"python-chess ends the game at ply {i} ({early}); dagaz played on")
            return term, problems
        if move not in board.legal_moves:
            problems.append(f"ply {i + 1}: {move.uci()} is not legal for python-chess")
            return term, problems
        board.push(move)
    end = expected_end(board)
    if end != term:
        problems.append(
            f"after {len(moves)} plies dagaz ends with {term!r}, python-chess with {end!r} ({board.fen()})"
        )
    result = game.headers.get("Result", "*")
    want = {"checkmate": "0-1" if board.turn == chess.WHITE else "1-0"}.get(end, "1/2-1/2")
    if end is not None and result != want:
        problems.append(f"result {result}, python-chess {want}")
    return term, problems


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--bin", default=os.path.join(ROOT, "target", "release", "dagaz"))
    ap.add_argument("--game", default=os.path.join(ROOT, "games", "chess.zrf"),
                    help="the rules to check (default games/chess.zrf)")
    ap.add_argument("--keep", help="write the tournament into this folder and keep it")
    args = ap.parse_args()

    with tempfile.TemporaryDirectory() as tmp:
        out = args.keep or os.path.join(tmp, "run")
        cmd = [
            args.bin, "tournament", args.game,
            "--bots", "random", "random:name=random-2",
            "--games", str(args.games), "--seed", str(args.seed),
            "--opening-plies", "0", "--max-plies", "20000", "--jobs", "1",
            "--out", out, "--quiet",
        ]
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
        ends = collections.Counter()
        bad = 0
        n = 0
        with open(os.path.join(out, "games.pgn")) as f:
            while True:
                game = chess.pgn.read_game(f)
                if game is None:
                    break
                n += 1
                term, problems = check_game(game)
                ends[term] += 1
                if problems:
                    bad += 1
                    gid = game.headers.get("GameId", "?")
                    for p in problems:
                        print(f"game {gid}: {p}")
    summary = ", ".join(f"{k} {v}" for k, v in sorted(ends.items(), key=lambda kv: -kv[1]))
    print(f"{n} games, {n - bad} agree, {bad} disagree; ends: {summary}")
    if n != args.games:
        print(f"error: {args.games} games asked, {n} in games.pgn")
        return 1
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
