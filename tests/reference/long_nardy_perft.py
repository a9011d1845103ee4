#!/usr/bin/env python3
"""Long Nardy perft written apart from dagaz, from the rules at the top of games/long-nardy.zrf (the Georgian
federation's rules): used to cross-check tests/long_nardy.rs, as no peer publishes a Long Nardy perft.
Run: python3 tests/reference/long_nardy_perft.py 6 [--narrow]

Conventions, as in dagaz's game file: a throw of the two dice is a ply of its own (36 ordered throws, doubles
from the first throw on); a player's turn is one ply, one move per distinct position reached after using as
many dice as can be used (a pass when none can); the larger die when only one of two can be used.

Each side's checkers are counted along its own path: step k (0..23) of the path is the k-th point from its
head, so that moving n is going from step k to step k+n, and steps 18..23 are its home. White's step k is
the board's point 24-k; Black's is point 12-k, wrapping after point 1 to point 24."""
import sys

HEAD_DOUBLES = {6, 4, 3}


def point(side, k):
    """The board point (1..24) of `side`'s step k."""
    return 24 - k if side == 0 else (12 - k - 1) % 24 + 1


def step_of(side, p):
    """The inverse of point()."""
    return 24 - p if side == 0 else (12 - p) % 24


def forbidden_block(mine, theirs, me):
    """Whether `me` holds six or more points in a row along the opponent's path with opponent checkers on the
    board and none of them further along that path than the run."""
    other = 1 - me
    if not theirs:
        return False
    held = [point(other, k) in mine for k in range(24)]
    furthest = max(step_of(other, p) for p in theirs)
    k = 0
    while k < 24:
        if held[k]:
            j = k
            while j + 1 < 24 and held[j + 1]:
                j += 1
            if j - k + 1 >= 6 and furthest < j:
                return True
            k = j + 1
        else:
            k += 1
    return False


def turns(pos, me, dice, heads):
    """Distinct positions after `me` plays the throw `dice` from `pos` = (white {point: n}, black {point: n},
    off (w, b))."""
    a, b = dice
    left = [a] * 4 if a == b else [a, b]
    head = point(me, 0)
    first = pos[me].get(head, 0) == 15
    head_max = 2 if (first and a == b and a in heads) else 1
    results = {}  # position -> the dice sequences that reach it, each a tuple of the dice used in order
    store = {}

    def key(p):
        return (tuple(sorted(p[0].items())), tuple(sorted(p[1].items())), p[2])

    def rec(p, left, path, head_used):
        moved = False
        mine, theirs = p[me], p[1 - me]
        steps = {step_of(me, q): q for q in mine}
        home = all(k >= 18 for k in steps)
        for i, d in enumerate(left):
            if d in left[:i]:
                continue
            for k, q in sorted(steps.items()):
                if q == head and head_used >= head_max:
                    continue
                t = k + d
                nm = dict(mine)
                nm[q] -= 1
                if nm[q] == 0:
                    del nm[q]
                off = list(p[2])
                if t < 24:
                    dest = point(me, t)
                    if dest in theirs:
                        continue
                    nm[dest] = nm.get(dest, 0) + 1
                    if forbidden_block(nm, theirs, me):
                        continue
                else:
                    if not home:
                        continue
                    # exact (t == 24), or a higher number from the furthest-back checker (smallest step)
                    if t > 24 and k != min(steps):
                        continue
                    off[me] += 1
                np = [None, None, tuple(off)]
                np[me] = nm
                np[1 - me] = theirs
                moved = True
                rec(np, left[:i] + left[i + 1:], path + (d,), head_used + (q == head))
        if not moved:
            kk = key(p)
            results.setdefault(kk, set()).add(path)
            store[kk] = p

    rec(pos, left, (), 0)
    most = max(len(x) for paths in results.values() for x in paths)
    keep = [k for k, paths in results.items() if any(len(x) == most for x in paths)]
    if most == 1 and a != b:
        larger = [k for k in keep if (max(a, b),) in results[k]]
        if larger:
            keep = larger
    return [store[k] for k in keep]


def perft(pos, me, depth, heads, throw=None):
    """Leaves at `depth` plies; `throw` None: the dice are to be thrown, else `me` plays it."""
    if depth == 0:
        return 1
    if throw is None:
        return sum(perft(pos, me, depth - 1, heads, (a, b)) for a in range(1, 7) for b in range(1, 7))
    nexts = turns(pos, me, throw, heads)
    if depth == 1:
        return len(nexts)
    return sum(perft(p, 1 - me, depth - 1, heads) for p in nexts)


def main():
    depth = int(sys.argv[1]) if len(sys.argv) > 1 else 4
    heads = {6, 4} if "--narrow" in sys.argv else HEAD_DOUBLES
    start = ({24: 15}, {12: 15}, (0, 0))
    for d in range(1, depth + 1):
        print(d, perft(start, 0, d, heads))


if __name__ == "__main__":
    main()
