#!/usr/bin/env python3
"""Fanorona perft written independently of dagaz, from the rules at the top of games/fanorona.zrf (English
Wikipedia's rules): used to cross-check the hand-worked move lists of tests/fanorona.rs and to give perft
figures (no published Fanorona perft was found). Run: python3 tests/reference/fanorona_perft.py 3
(`--positions` prints the moves of the test positions instead).
Conventions: a turn (a paika step, or a chain of captures stopped after any capture) is one move; moves with
the same start point and resulting position are one move; a position with no move is a leaf of no count."""
import sys

W, H = 9, 5
FILES = "abcdefghi"


def name(p):
    return f"{FILES[p[0]]}{p[1] + 1}"


def parse(s):
    return (FILES.index(s[0]), int(s[1]) - 1)


def on(p):
    return 0 <= p[0] < W and 0 <= p[1] < H


ORTHO = [(0, 1), (1, 0), (0, -1), (-1, 0)]
DIAG = [(1, 1), (-1, 1), (1, -1), (-1, -1)]


def dirs(p):
    """The lines out of a point: orthogonal everywhere, diagonal on the strong points (x + y even)."""
    return ORTHO + (DIAG if (p[0] + p[1]) % 2 == 0 else [])


def step(p, d):
    q = (p[0] + d[0], p[1] + d[1])
    return q if on(q) and d in dirs(p) else None


def start():
    b = {}
    for x in range(W):
        for y in (0, 1):
            b[(x, y)] = "W"
        for y in (3, 4):
            b[(x, y)] = "B"
    for f in "bdgi":
        b[parse(f + "3")] = "W"
    for f in "acfh":
        b[parse(f + "3")] = "B"
    return b


def line(board, p, d, enemy):
    """The enemy stones from p on along d, up to the first empty point or friendly stone."""
    out = []
    while p is not None and board.get(p) == enemy:
        out.append(p)
        p = step(p, d)
    return out


def captures(board, pos, me, enemy, visited, last):
    """Single captures of the stone on pos: (dest, direction, taken points)."""
    out = []
    for d in dirs(pos):
        if d == last:
            continue
        dest = step(pos, d)
        if dest is None or dest in board or dest in visited:
            continue
        ahead = step(dest, d)
        if ahead is not None and board.get(ahead) == enemy:
            out.append((dest, d, line(board, ahead, d, enemy)))
        back = (-d[0], -d[1])
        behind = step(pos, back)
        if behind is not None and board.get(behind) == enemy:
            out.append((dest, d, line(board, behind, back, enemy)))
    return out


def moves(board, me):
    enemy = "B" if me == "W" else "W"
    found = {}

    def chain(b, start_pos, pos, visited, last):
        for dest, d, taken in captures(b, pos, me, enemy, visited, last):
            nb = dict(b)
            for t in taken:
                del nb[t]
            del nb[pos]
            nb[dest] = me
            key = (start_pos, frozenset(nb.items()))
            found.setdefault(key, nb)
            chain(nb, start_pos, dest, visited | {dest}, d)

    for p, c in list(board.items()):
        if c == me:
            chain(board, p, p, frozenset([p]), None)
    if found:
        return list(found.values())
    out = []
    for p, c in list(board.items()):
        if c != me:
            continue
        for d in dirs(p):
            q = step(p, d)
            if q is not None and q not in board:
                nb = dict(board)
                del nb[p]
                nb[q] = me
                out.append(nb)
    return out


def perft(board, me, depth):
    ms = moves(board, me)
    if depth == 1:
        return len(ms)
    other = "B" if me == "W" else "W"
    return sum(perft(m, other, depth - 1) for m in ms)


def describe(before, after, me):
    enemy = "B" if me == "W" else "W"
    mine0 = {p for p, c in before.items() if c == me}
    mine1 = {p for p, c in after.items() if c == me}
    frm = sorted(name(p) for p in mine0 - mine1)
    to = sorted(name(p) for p in mine1 - mine0)
    taken = sorted(name(p) for p, c in before.items() if c == enemy and p not in after)
    s = f"{','.join(frm)}>{','.join(to)}"
    return s + (" x " + " ".join(taken) if taken else "")


POSITIONS = {
    "opening": None,
    "direction": ("W", {"c2": "W", "c1": "B", "c5": "B", "a3": "B", "e3": "B"}),
    "revisit": ("W", {"c2": "W", "c1": "B", "c4": "B", "c5": "B", "a3": "B", "e3": "B"}),
    "paika": ("W", {"e3": "W", "a5": "B"}),
    "compulsory": ("W", {"e3": "W", "a1": "W", "a3": "B"}),
}

if __name__ == "__main__":
    if sys.argv[1:2] == ["--positions"]:
        for key, spec in POSITIONS.items():
            if spec is None:
                me, b = "W", start()
            else:
                me, b = spec[0], {parse(k): v for k, v in spec[1].items()}
            print(key, sorted(describe(b, m, me) for m in moves(b, me)))
    else:
        n = int(sys.argv[1]) if len(sys.argv) > 1 else 3
        for d in range(1, n + 1):
            print(d, perft(start(), "W", d))
