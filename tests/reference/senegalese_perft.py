#!/usr/bin/env python3
"""Senegalese draughts perft written independently of dagaz, from the rules at the top of
games/senegalese-draughts.zrf: used to cross-check tests/senegalese.rs (no published perft was found).
Run: python3 tests/reference/senegalese_perft.py DEPTH [--no-removal]

Conventions: a move is a step, or a chain of jumps that goes on while a jump exists (forward or sideways);
captures are compulsory; a man whose move ends on its far rank leaves the board (with --no-removal it stays:
the count of a file that misses the rule); moves with the same result are one move; a position where either
player has no man, or the player to move has no move, ends the game (a leaf of no count). Repetition is not
met at these depths."""
import sys

W, H = 6, 5
FORWARD = {0: 1, 1: -1}  # White moves up the ranks (y 0 is rank 1), Black down
FAR = {0: H - 1, 1: 0}


def start():
    board = {}
    for x in range(W):
        for y in (0, 1):
            board[(x, y)] = 0
            board[(W - 1 - x, H - 1 - y)] = 1
    for x, y in ((4, 2), (5, 2)):
        board[(x, y)] = 0
        board[(W - 1 - x, H - 1 - y)] = 1
    return board


def dirs(me):
    return ((0, FORWARD[me]), (1, 0), (-1, 0))


def on(p):
    return 0 <= p[0] < W and 0 <= p[1] < H


def finish(board, p, me, removal):
    b = dict(board)
    if removal and p[1] == FAR[me]:
        del b[p]
    return frozenset(b.items())


def moves(board, me, removal):
    captures, steps = set(), set()
    for p, who in board.items():
        if who != me:
            continue
        for dx, dy in dirs(me):
            over, land = (p[0] + dx, p[1] + dy), (p[0] + 2 * dx, p[1] + 2 * dy)
            if on(land) and land not in board and board.get(over) == 1 - me:
                b = dict(board)
                del b[p]
                del b[over]
                b[land] = me
                ends = set()
                walk(b, land, me, ends)
                captures |= {finish(dict(e), q, me, removal) for e, q in ends}
            q = (p[0] + dx, p[1] + dy)
            if on(q) and q not in board:
                b = dict(board)
                del b[p]
                b[q] = me
                steps.add(finish(b, q, me, removal))
    return captures if captures else steps


def walk(board, p, me, ends):
    """The (board, square) where each chain from p ends, the man on p having just jumped."""
    went_on = False
    for dx, dy in dirs(me):
        over, land = (p[0] + dx, p[1] + dy), (p[0] + 2 * dx, p[1] + 2 * dy)
        if on(land) and land not in board and board.get(over) == 1 - me:
            went_on = True
            b = dict(board)
            del b[p]
            del b[over]
            b[land] = me
            walk(b, land, me, ends)
    if not went_on:
        ends.add((frozenset(board.items()), p))


def perft(board, me, depth, removal):
    if depth == 0:
        return 1
    if 0 not in board.values() or 1 not in board.values():
        return 0
    return sum(perft(dict(b), 1 - me, depth - 1, removal) for b in moves(board, me, removal))


if __name__ == "__main__":
    depth = int(sys.argv[1]) if len(sys.argv) > 1 else 6
    removal = "--no-removal" not in sys.argv
    for d in range(1, depth + 1):
        print(d, perft(start(), 0, d, removal))
