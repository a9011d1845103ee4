#!/usr/bin/env python3
"""Yote perft written independently of dagaz, from the rules at the top of games/yote.zrf: used to cross-check
tests/yote.rs (no published Yote perft was found). Run: python3 tests/reference/yote_perft.py 4

Conventions: a move is a drop, a step, or a jump with its second removal (one move per enemy piece left on the
board after the jump; the jump alone when none is left); moves with the same result are one move; a player
with no piece on the board or in hand, or with no move, ends the game (a leaf of no count)."""
import sys

W, H = 6, 5


def moves(board, hands, me):
    """Resulting (board, hands) pairs, one per distinct move."""
    out = set()
    you = 1 - me
    empties = [(x, y) for x in range(W) for y in range(H) if (x, y) not in board]
    if hands[me] > 0:
        for p in empties:
            b = dict(board)
            b[p] = me
            h = list(hands)
            h[me] -= 1
            out.add((frozenset(b.items()), tuple(h)))
    for (x, y), who in board.items():
        if who != me:
            continue
        for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            a = (x + dx, y + dy)
            if not (0 <= a[0] < W and 0 <= a[1] < H):
                continue
            if a not in board:
                b = dict(board)
                del b[(x, y)]
                b[a] = me
                out.add((frozenset(b.items()), hands))
            elif board[a] == you:
                c = (x + 2 * dx, y + 2 * dy)
                if 0 <= c[0] < W and 0 <= c[1] < H and c not in board:
                    b = dict(board)
                    del b[(x, y)]
                    del b[a]
                    b[c] = me
                    others = [p for p, w in b.items() if w == you]
                    if not others:
                        out.add((frozenset(b.items()), hands))
                    for o in others:
                        b2 = dict(b)
                        del b2[o]
                        out.add((frozenset(b2.items()), hands))
    return out


def over(board, hands, me):
    return hands[me] == 0 and me not in board.values()


def perft(board, hands, me, depth):
    if depth == 0:
        return 1
    if over(board, hands, me) or over(board, hands, 1 - me):
        return 0
    ms = moves(board, hands, me)
    if depth == 1:
        return len(ms)
    return sum(perft(dict(b), h, 1 - me, depth - 1) for b, h in ms)


if __name__ == "__main__":
    depth = int(sys.argv[1]) if len(sys.argv) > 1 else 3
    for d in range(1, depth + 1):
        print(d, perft({}, (12, 12), 0, d))
