#!/usr/bin/env python3
"""Dablot Prejjesne perft written independently of dagaz, from the rules at the top of
games/dablot-prejjesne.zrf: used to cross-check tests/dablot.rs (no published Dablot perft was found).
Run: python3 tests/reference/dablot_perft.py DEPTH [walker|kings-only|keyland]

The board in doubled coordinates: corners (2x, 2y) for x 0-5, y 0-6 (a1 is (0, 0), f7 (10, 12)), square
centres (2x+1, 2y+1). Lines: between corners along the grid (steps of 2), and diagonally through the centres
(steps of 1 in both coordinates). Conventions: a move is a step or a chain of jumps that may stop after any
jump; moves with the same result are one move; a position where the player to move has no move, or where only
the two kings are left, ends the game (a leaf of no count)."""
import sys

MAN, PRINCE, KING = 0, 1, 2
POINTS = {(2 * x, 2 * y) for x in range(6) for y in range(7)} | {
    (2 * x + 1, 2 * y + 1) for x in range(5) for y in range(6)
}
ORTHO = ((2, 0), (-2, 0), (0, 2), (0, -2))
DIAG = ((1, 1), (1, -1), (-1, 1), (-1, -1))


def directions(p):
    """The line directions out of a point: a corner has all eight, a centre the four diagonals."""
    corner = p[0] % 2 == 0
    return (ORTHO + DIAG) if corner else DIAG


def start():
    board = {}
    for y in range(3):
        for x in range(6):
            board[(2 * x, 2 * y)] = (0, MAN)
            board[(10 - 2 * x, 12 - 2 * y)] = (1, MAN)
    for y in range(2):
        for x in range(5):
            board[(2 * x + 1, 2 * y + 1)] = (0, MAN)
            board[(9 - 2 * x, 11 - 2 * y)] = (1, MAN)
    board[(9, 5)] = (0, PRINCE)  # E3
    board[(10, 6)] = (0, KING)  # f4
    board[(1, 7)] = (1, PRINCE)  # A4
    board[(0, 6)] = (1, KING)  # a4
    return board


def chains(board, p, me, rank, out):
    """Every board after one or more jumps of the piece on p (it may stop after any)."""
    for dx, dy in directions(p):
        over = (p[0] + dx, p[1] + dy)
        land = (p[0] + 2 * dx, p[1] + 2 * dy)
        if over not in POINTS or land not in POINTS or land in board:
            continue
        victim = board.get(over)
        if victim is None or victim[0] == me or victim[1] > rank:
            continue
        b = dict(board)
        piece = b.pop(p)
        del b[over]
        b[land] = piece
        out.add(frozenset(b.items()))
        chains(b, land, me, rank, out)


def moves(board, me, free):
    """The resulting boards, one per distinct legal move; `free` are the ranks not bound to capture."""
    captures, bound_can, steps = set(), False, set()
    for p, (who, rank) in board.items():
        if who != me:
            continue
        mine = set()
        chains(board, p, me, rank, mine)
        if mine and rank not in free:
            bound_can = True
        captures |= mine
        for dx, dy in directions(p):
            q = (p[0] + dx, p[1] + dy)
            if q in POINTS and q not in board:
                b = dict(board)
                b[q] = b.pop(p)
                steps.add(frozenset(b.items()))
    return captures if bound_can else captures | steps


def over(board):
    return len(board) == 2 and all(r == KING for _, r in board.values())


def perft(board, me, depth, free):
    if depth == 0:
        return 1
    if over(board):
        return 0
    total = 0
    for b in moves(board, me, free):
        total += perft(dict(b), 1 - me, depth - 1, free)
    return total


if __name__ == "__main__":
    depth = int(sys.argv[1]) if len(sys.argv) > 1 else 3
    rules = sys.argv[2] if len(sys.argv) > 2 else "walker"
    free = {"walker": {PRINCE, KING}, "kings-only": {KING}, "keyland": {MAN, PRINCE, KING}}[rules]
    for d in range(1, depth + 1):
        print(d, perft(start(), 0, d, free))
