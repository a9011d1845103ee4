"""A fake UCI engine for the clock tests (tests/clocks.rs): it plays the moves of a fixed game (Morphy against
the Duke of Brunswick and Count Isouard, Paris 1858: 33 plies, White mates), answering at each position the
move of that game that comes next, and writes every `go` line it is sent, with the number of moves played before
it, to a log. Usage: clock_uci.py LOG MODE, MODE `fast` (answers at once) or `spend` (sleeps through its whole
clock and three seconds more before answering)."""
import sys, time

GAME = ("e2e4 e7e5 g1f3 d7d6 d2d4 c8g4 d4e5 g4f3 d1f3 d6e5 f1c4 g8f6 f3b3 d8e7 b1c3 c7c6 c1g5 b7b5 "
        "c3b5 c6b5 c4b5 b8d7 e1c1 a8d8 d1d7 d8d7 h1d1 e7e6 b5d7 f6d7 b3b8 d7b8 d1d8").split()

log = open(sys.argv[1], "a")
mode = sys.argv[2]
played = 0
for line in sys.stdin:
    w = line.split()
    if not w:
        continue
    if w[0] == "uci":
        print("id name fake-clock-" + mode)
        print("uciok", flush=True)
    elif w[0] == "isready":
        print("readyok", flush=True)
    elif w[0] == "position":
        played = len(w) - w.index("moves") - 1 if "moves" in w else 0
    elif w[0] == "go":
        log.write("%d %s\n" % (played, line.strip()))
        log.flush()
        if mode == "spend":
            me = "wtime" if played % 2 == 0 else "btime"
            left = int(w[w.index(me) + 1]) if me in w else 0
            time.sleep(left / 1000 + 3)
        print("info depth 1 score cp 0 nodes 1")
        print("bestmove " + GAME[played], flush=True)
    elif w[0] == "quit":
        break
