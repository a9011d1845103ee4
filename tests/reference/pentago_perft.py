#!/usr/bin/env python3
"""Pentago perft written independently of dagaz, from the rules at the top of games/pentago.zrf (English
Wikipedia's rules; both players five after a turn is a draw): gives the perft figures of tests/pentago.rs (no
published Pentago perft was found) and prints the successor boards of its hand-worked positions.
Run: python3 tests/reference/pentago_perft.py 3   (`--positions` prints the test positions' moves instead).

Conventions (those of games/pentago.zrf): a move is a marble put down and a quadrant turned; a placement that
already makes five in a row for the mover ends the game and turns nothing; moves with the same placement
point and the same resulting board are one move; a finished game (a row of five, or a full board) has no move.
Quarter turns are computed here from coordinates (column, row from the top) inside a quadrant:
clockwise takes (c, t) to (2 - t, c) -- not from the cycles the .zrf file lists."""
import sys

FILES = "abcdef"
N = 6


def idx(name):
    """Index of a point: x + 6 * y, x the file (a = 0), y the row from the top (rank 6 = 0)."""
    return FILES.index(name[0]) + N * (N - int(name[1]))


def name(i):
    return f"{FILES[i % N]}{N - i // N}"


def turn(board, quadrant, clockwise):
    """The board with one quadrant (0 upper-left, 1 upper-right, 2 lower-left, 3 lower-right) turned."""
    ox, oy = 3 * (quadrant % 2), 3 * (quadrant // 2)
    out = list(board)
    for c in range(3):
        for t in range(3):
            src = (ox + c) + N * (oy + t)
            if clockwise:
                c2, t2 = 2 - t, c
            else:
                c2, t2 = t, 2 - c
            out[(ox + c2) + N * (oy + t2)] = board[src]
    return tuple(out)


LINES = []
for y in range(N):
    for x in range(N):
        for dx, dy in ((1, 0), (0, 1), (1, 1), (1, -1)):
            cells = [(x + k * dx, y + k * dy) for k in range(5)]
            if all(0 <= a < N and 0 <= b < N for a, b in cells):
                LINES.append([a + N * b for a, b in cells])


def five(board, who):
    return any(all(board[i] == who for i in line) for line in LINES)


def over(board):
    return five(board, "W") or five(board, "B") or all(c != "." for c in board)


def moves(board, who):
    """The distinct (placement point, resulting board) pairs."""
    if over(board):
        return []
    out = set()
    for i in range(N * N):
        if board[i] != ".":
            continue
        placed = board[:i] + (who,) + board[i + 1:]
        if five(placed, who):
            out.add((i, placed))
            continue
        for q in range(4):
            for cw in (True, False):
                out.add((i, turn(placed, q, cw)))
    return sorted(out)


def other(who):
    return "B" if who == "W" else "W"


def perft(board, who, depth):
    if depth == 0:
        return 1
    ms = moves(board, who)
    if depth == 1:
        return len(ms)
    return sum(perft(b, other(who), depth - 1) for _, b in ms)


def position(white, black):
    board = ["."] * (N * N)
    for p in white.split():
        board[idx(p)] = "W"
    for p in black.split():
        board[idx(p)] = "B"
    return tuple(board)


def show(board):
    w = " ".join(sorted(name(i) for i in range(N * N) if board[i] == "W"))
    b = " ".join(sorted(name(i) for i in range(N * N) if board[i] == "B"))
    return f"W[{w}] B[{b}]"


def outcome(board, mover):
    """The result after `mover`'s move: 'draw', 'W', 'B' or None."""
    fw, fb = five(board, "W"), five(board, "B")
    if fw and fb:
        return "draw"
    if fw or fb:
        return "W" if fw else "B"
    if all(c != "." for c in board):
        return "draw"
    return None


# The positions of tests/pentago.rs: (title, White's marbles, Black's, the mover, the placement point shown).
POSITIONS = [
    ("opening", "", "", "W", "a6"),
    ("a quadrant turns its marbles", "a6 b6", "c4", "W", "e2"),
    ("five before the turn", "a1 b1 c1 d1", "a6 b6 c6 d6", "W", "e1"),
    ("five for both after the turn", "a1 a2 a3 d3 e3", "c1 c2 c3 d1 e1", "W", "b6"),
    ("five for the opponent alone", "a1 a2 a3 d6 f5", "c1 c2 c3 d1 e1", "W", "f6"),
    ("five for the mover after its turn", "a1 a2 a3 d3 e3", "b6 d6 e1 f2 f5", "W", "f6"),
]


def main():
    if "--positions" in sys.argv:
        for title, w, b, who, at in POSITIONS:
            board = position(w, b)
            ms = moves(board, who)
            print(f"{title}: {len(ms)} moves; placed on {at}:")
            for i, after in ms:
                if name(i) == at:
                    print(f"  {show(after)}  -> {outcome(after, who)}")
        return
    depth = int(sys.argv[1]) if len(sys.argv) > 1 else 3
    start = tuple(["."] * (N * N))
    for d in range(1, depth + 1):
        print(f"perft({d}) = {perft(start, 'W', d)}")


if __name__ == "__main__":
    main()
