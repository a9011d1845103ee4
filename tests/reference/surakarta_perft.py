#!/usr/bin/env python3
"""Surakarta perft written independently of dagaz, from the rules at the top of games/surakarta.zrf: used to
cross-check the hand-worked positions of tests/surakarta.rs and to give perft figures (no published Surakarta
perft was found). Run: python3 tests/reference/surakarta_perft.py 4 (`--positions` prints the moves of the
test positions instead).

Unlike the ZRF file, which walks with a heading and turns at the loops, this walks each circuit as one cyclic
list of 24 points (a point where two lines of a circuit cross is on the list twice), a loop lying between two
consecutive entries that belong to different lines.
Conventions: a move is a step or a capture; moves with the same start, end and captured point are one move;
a player with no move or no piece has lost (a leaf of no count)."""
import sys

FILES = "abcdef"


def name(p):
    return f"{FILES[p[0]]}{p[1] + 1}"


def parse(s):
    return (FILES.index(s[0]), int(s[1]) - 1)


def line(points):
    return [parse(p) for p in points.split()]


# Each circuit: its four lines in travel order, each walked in the order given; a loop joins the end of one
# line to the start of the next (and the last to the first).
INNER = [line("b1 b2 b3 b4 b5 b6"), line("a5 b5 c5 d5 e5 f5"), line("e6 e5 e4 e3 e2 e1"),
         line("f2 e2 d2 c2 b2 a2")]
OUTER = [line("c1 c2 c3 c4 c5 c6"), line("a4 b4 c4 d4 e4 f4"), line("d6 d5 d4 d3 d2 d1"),
         line("f3 e3 d3 c3 b3 a3")]


def cycle(lines):
    """The circuit as (point, line number) in travel order."""
    return [(p, i) for i, l in enumerate(lines) for p in l]


CIRCUITS = [cycle(INNER), cycle(OUTER)]


def captures(board, at, me):
    """The enemy points a piece of `me` on `at` can capture."""
    out = set()
    for circ in CIRCUITS:
        n = len(circ)
        for start in [i for i, (p, _) in enumerate(circ) if p == at]:
            for step in (1, -1):
                loops, i = 0, start
                for _ in range(n):
                    j = (i + step) % n
                    if circ[j][1] != circ[i][1]:
                        loops += 1
                    i = j
                    p = circ[i][0]
                    if p == at:
                        continue  # its own start counts as empty
                    if p in board:
                        if board[p] != me and loops > 0:
                            out.add(p)
                        break
    return out


def moves(board, me):
    out = []
    for at, who in board.items():
        if who != me:
            continue
        for dx in (-1, 0, 1):
            for dy in (-1, 0, 1):
                q = (at[0] + dx, at[1] + dy)
                if (dx or dy) and 0 <= q[0] < 6 and 0 <= q[1] < 6 and q not in board:
                    out.append((at, q))
        for q in captures(board, at, me):
            out.append((at, q))
    return out


def play(board, m):
    b = dict(board)
    who = b.pop(m[0])
    b[m[1]] = who
    return b


def perft(board, me, depth):
    if depth == 0:
        return 1
    if me not in board.values():
        return 0
    ms = moves(board, me)
    if depth == 1:
        return len(ms)
    return sum(perft(play(board, m), 1 - me, depth - 1) for m in ms)


def start():
    b = {}
    for f in range(6):
        for r in (0, 1):
            b[(f, r)] = 0
        for r in (4, 5):
            b[(f, r)] = 1
    return b


def position(white, black):
    b = {parse(p): 0 for p in white.split()}
    b.update({parse(p): 1 for p in black.split()})
    return b


TEST_POSITIONS = [
    ("c4", "d6"),
    ("c4 e4 d5", "d6"),
    ("b3 a2", "b5"),
    ("b3", "b5"),
    ("c4 d2", "e4"),
]

if __name__ == "__main__":
    if "--positions" in sys.argv:
        for w, b in TEST_POSITIONS:
            board = position(w, b)
            ms = sorted(f"{name(f)}-{name(t)}" + ("x" if t in board else "") for f, t in moves(board, 0))
            print(f"White {w}, Black {b}: {len(ms)} moves: {' '.join(ms)}")
    else:
        depth = int(sys.argv[1]) if len(sys.argv) > 1 else 3
        for d in range(1, depth + 1):
            print(d, perft(start(), 0, d))
