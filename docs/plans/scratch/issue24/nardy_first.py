# own check of the Long Nardy first-turn counts (White to move from the start), rules as in the plan section 5
import itertools
def turns(d1, d2, exc):
    dice = [d1]*4 if d1 == d2 else [d1, d2]
    start = {24: 15}; black = {12}
    maxhead = 2 if (d1 == d2 and d1 in exc) else 1
    results = {}  # final position -> dice used
    best = 0
    def rec(pos, left, used, head):
        nonlocal best
        moved = False
        for i, d in enumerate(left):
            for p in [q for q, n in pos.items() if n > 0]:
                if p == 24 and head >= maxhead: continue
                t = p - d
                if t < 1 or t in black: continue   # no bearing off at the start; enemy head blocks
                np = dict(pos); np[p] -= 1; np[t] = np.get(t, 0) + 1
                rec(np, left[:i] + left[i+1:], used + 1, head + (p == 24))
                moved = True
        if not moved:
            key = tuple(sorted((q, n) for q, n in pos.items() if n))
            results[key] = max(results.get(key, 0), used)
            best = max(best, used)
    rec(start, dice, 0, 0)
    return len({k for k, u in results.items() if u == best})
for exc, name in (((6, 4, 3), "geonardi"), ((6, 4), "wikipedia-narrow")):
    total = sum(turns(a, b, exc) for a in range(1, 7) for b in range(1, 7))
    print(name, total, {f"{a}-{a}": turns(a, a, exc) for a in range(1, 7)})
