"""Reads a dagaz games.pgn with python-chess and prints one JSON line per game, for tests/engines.rs:
its White and Black tags, its Result tag, the number of moves python-chess replayed, the %clk comments it
read (seconds, per move; null where a move has none), the errors python-chess met (an illegal or ambiguous
move), and the end python-chess sees at the last position (checkmate, stalemate, ...)."""
import json
import sys

import chess
import chess.pgn

with open(sys.argv[1]) as f:
    while True:
        game = chess.pgn.read_game(f)
        if game is None:
            break
        board = game.board()
        clocks = []
        for node in game.mainline():
            board.push(node.move)
            clocks.append(node.clock())
        if board.is_checkmate():
            end = "checkmate"
        elif board.is_stalemate():
            end = "stalemate"
        elif board.is_insufficient_material():
            end = "insufficient-material"
        elif board.can_claim_fifty_moves():
            end = "fifty-moves"
        elif board.can_claim_threefold_repetition():
            end = "threefold-repetition"
        else:
            end = "none"
        print(json.dumps({
            "white": game.headers.get("White"),
            "black": game.headers.get("Black"),
            "result": game.headers.get("Result"),
            "plies": len(clocks),
            "clocks": clocks,
            "errors": [str(e) for e in game.errors],
            "end": end,
        }))
