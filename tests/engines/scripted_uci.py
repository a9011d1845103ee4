#!/usr/bin/env python3
"""A fake UCI engine for the adjudication tests: it plays a fixed line of pawn moves for whichever side it is
given (its side is the parity of the moves in `position startpos moves ...`) and reports, with its k-th move
of the game, the k-th score of the list given as its first argument (`cp N`, or `mate N` when written `mN`)."""
import sys

WHITE = "a2a3 b2b3 c2c3 d2d3 e2e3 f2f3 g2g3 h2h3 a3a4 b3b4 c3c4 d3d4 e3e4 g3g4 h3h4".split()
BLACK = "a7a6 b7b6 c7c6 d7d6 e7e6 f7f6 g7g6 h7h6 a6a5 b6b5 c6c5 d6d5 e6e5 g6g5 h6h5".split()
scores = sys.argv[1].split(",")
played = []
for line in sys.stdin:
    w = line.split()
    if not w:
        continue
    if w[0] == "uci":
        print("id name scripted", flush=True)
        print("uciok", flush=True)
    elif w[0] == "isready":
        print("readyok", flush=True)
    elif w[0] == "position":
        played = w[w.index("moves") + 1:] if "moves" in w else []
    elif w[0] == "go":
        mine = len(played) // 2
        line_ = WHITE if len(played) % 2 == 0 else BLACK
        s = scores[mine]
        score = f"mate {s[1:]}" if s.startswith("m") else f"cp {s}"
        print(f"info depth 1 score {score} nodes 1", flush=True)
        print(f"bestmove {line_[mine]}", flush=True)
    elif w[0] == "quit":
        break
