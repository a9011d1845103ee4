#!/usr/bin/env python3
"""Reference values for the unit tests of src/tournament/stats.rs.

Written from the formulas of /work/shared/spec/tournament.md, independently of the Rust code
(Python 3 standard library only; math.erf/erfc and statistics are the references for the
normal distribution). Where the Rust code solves an equation one way, this script solves it
another way (see the GSPRT and Bradley-Terry sections), so that an error in one method does not
hide in both. Run: python3 tests/reference/stats_reference.py
"""

import math
import statistics

LN10 = math.log(10.0)


def elo(s):
    return -400.0 * math.log10(1.0 / s - 1.0)


def phi(x):
    return 0.5 * math.erfc(-x / math.sqrt(2.0))


def interval(s, se):
    return (elo(s + 1.96 * se) - elo(s - 1.96 * se)) / 2.0


def trinomial(w, d, l):
    n = w + d + l
    s = (w + d / 2) / n
    var = (w * (1 - s) ** 2 + d * (0.5 - s) ** 2 + l * s**2) / n
    se = math.sqrt(var / n)
    nelo = (s - 0.5) / math.sqrt(var) * 800 / LN10
    return dict(s=s, var=var, se=se, elo=elo(s), e95=interval(s, se), los=phi((s - 0.5) / se), nelo=nelo)


def pentanomial(c):
    xs = [0, 0.25, 0.5, 0.75, 1]
    n = sum(c)
    s = sum(ci * x for ci, x in zip(c, xs)) / n
    var = sum(ci * (x - s) ** 2 for ci, x in zip(c, xs)) / n
    se = math.sqrt(var / n)
    nelo = (s - 0.5) / (math.sqrt(2) * math.sqrt(var)) * 800 / LN10
    return dict(s=s, var=var, se=se, elo=elo(s), e95=interval(s, se), los=phi((s - 0.5) / se), nelo=nelo)


# --- GSPRT -------------------------------------------------------------------------------------
# The Rust code finds theta as the root of sum p_i a_i / (1 + theta a_i) = 0. Here we use the dual
# form instead: that root maximises the concave g(theta) = sum p_i ln(1 + theta a_i), and
# sum p_i ln(phat_i / p_j,i) = g(theta_j). So LLR = N (g0(theta0) - g1(theta1)), each maximum found
# by golden-section search on the open interval where every 1 + theta a_i > 0.


def max_g(p, a):
    lo = -1.0 / max(a)
    hi = -1.0 / min(a)
    # shrink slightly inside the domain
    w = hi - lo
    lo += w * 1e-12
    hi -= w * 1e-12

    def g(t):
        return sum(pi * math.log(1 + t * ai) for pi, ai in zip(p, a))

    gr = (math.sqrt(5) - 1) / 2
    x1 = hi - gr * (hi - lo)
    x2 = lo + gr * (hi - lo)
    f1, f2 = g(x1), g(x2)
    for _ in range(300):
        if f1 < f2:
            lo = x1
            x1, f1 = x2, f2
            x2 = lo + gr * (hi - lo)
            f2 = g(x2)
        else:
            hi = x2
            x2, f2 = x1, f1
            x1 = hi - gr * (hi - lo)
            f1 = g(x1)
    return g((lo + hi) / 2)


def gsprt(counts, xs, elo0, elo1):
    c = [max(1e-3, float(ci)) for ci in counts]
    n = sum(c)
    p = [ci / n for ci in c]
    out = []
    for e in (elo0, elo1):
        s = 1 / (1 + 10 ** (-e / 400))
        out.append(max_g(p, [x - s for x in xs]))
    return n * (out[0] - out[1])


# --- Bradley-Terry -----------------------------------------------------------------------------
# The Rust code iterates Hunter's MM update. Here: Newton's method on the log-likelihood in
# r_i = ln gamma_i (with r_0 pinned, then re-centred), which converges quadratically to the same
# maximum when it exists.


def bt_newton(n_players, games):
    # games: list of (i, j, score_i, n_ij)
    r = [0.0] * n_players
    for _ in range(100):
        grad = [0.0] * n_players
        hess = [[0.0] * n_players for _ in range(n_players)]
        for i, j, si, nij in games:
            pij = 1 / (1 + math.exp(r[j] - r[i]))
            grad[i] += si - nij * pij
            grad[j] += (nij - si) - nij * (1 - pij)
            h = nij * pij * (1 - pij)
            hess[i][i] -= h
            hess[j][j] -= h
            hess[i][j] += h
            hess[j][i] += h
        # pin r_0: solve the reduced system for the others
        m = n_players - 1
        A = [[-hess[i + 1][j + 1] for j in range(m)] for i in range(m)]
        b = [grad[i + 1] for i in range(m)]
        # Gaussian elimination
        for k in range(m):
            piv = max(range(k, m), key=lambda q: abs(A[q][k]))
            A[k], A[piv] = A[piv], A[k]
            b[k], b[piv] = b[piv], b[k]
            for q in range(k + 1, m):
                f = A[q][k] / A[k][k]
                for t in range(k, m):
                    A[q][t] -= f * A[k][t]
                b[q] -= f * b[k]
        x = [0.0] * m
        for k in reversed(range(m)):
            x[k] = (b[k] - sum(A[k][t] * x[t] for t in range(k + 1, m))) / A[k][k]
        for k in range(m):
            r[k + 1] += x[k]
    ratings = [400 * ri / LN10 for ri in r]
    mean = sum(ratings) / n_players
    return [x - mean for x in ratings]


def main():
    print("# Elo of a score")
    for s in (0.75, 0.7, 0.6, 0.25):
        print(f"elo({s}) = {elo(s)!r}")
    print("# Phi / erf")
    for x in (0.0, 0.5, 1.0, 1.96, -1.96, 2.5, -3.0, 4.0, -6.0, -10.0):
        print(f"phi({x}) = {phi(x)!r}")
    for x in (0.1, 0.5, 0.9, 1.0, 2.0, 3.0, 5.0):
        print(f"erf({x}) = {math.erf(x)!r}  erfc({x}) = {math.erfc(x)!r}")
    for p in (0.975, 0.5, 0.001, 1e-10, 0.9):
        print(f"quantile({p}) = {statistics.NormalDist().inv_cdf(p)!r}")
    print("# trinomial")
    for wdl in ((30, 40, 30), (60, 20, 20), (4307, 8620, 4063), (10, 0, 5)):
        print(wdl, trinomial(*wdl))
    print("# pentanomial")
    for c in ([13, 37, 50, 25, 3], [5, 20, 50, 30, 10]):
        print(c, pentanomial(c))
    print("# SPRT")
    print("bounds(0.05, 0.05) =", math.log(0.05 / 0.95), math.log(0.95 / 0.05))
    print("bounds(0.05, 0.1) =", math.log(0.1 / 0.95), math.log(0.9 / 0.05))
    penta_x = [0, 0.25, 0.5, 0.75, 1]
    tri_x = [0, 0.5, 1]
    print("penta [13,37,50,25,3] (0, 2.716):", gsprt([13, 37, 50, 25, 3], penta_x, 0, 2.716))
    print("penta [100,500,1000,600,120] (0, 5):", gsprt([100, 500, 1000, 600, 120], penta_x, 0, 5))
    print("penta [0,3,10,4,0] (0, 5):", gsprt([0, 3, 10, 4, 0], penta_x, 0, 5))
    print("penta [5,20,50,30,10] (-2, 3):", gsprt([5, 20, 50, 30, 10], penta_x, -2, 3))
    # trinomial counts are ordered by score: losses, draws, wins
    print("tri L4063 D8620 W4307 (0, 3):", gsprt([4063, 8620, 4307], tri_x, 0, 3))
    print("tri L20 D20 W60 (0, 5):", gsprt([20, 20, 60], tri_x, 0, 5))
    print("tri L0 D0 W0 (0, 5):", gsprt([0, 0, 0], tri_x, 0, 5))
    print("# Bradley-Terry")
    # 4 players, (i, j, points of i, games)
    games = [(0, 1, 6.5, 10), (0, 2, 7.0, 10), (0, 3, 9.0, 10), (1, 2, 5.5, 10), (1, 3, 6.0, 10), (2, 3, 4.0, 10)]
    print("bt4:", bt_newton(4, games))
    # 3 players, consistent with gamma = 4 : 2 : 1
    games3 = [(0, 1, 2.0, 3), (1, 2, 2.0, 3), (0, 2, 4.0, 5)]
    print("bt3:", bt_newton(3, games3), 400 * math.log10(2))
    print("bt all-wins, 1 vs 2 3:1 ->", 200 * math.log10(3))
    print("bt prior two players:", bt_prior_two())
    print("# rule-set measures")
    g2 = [([1, -1], 10, "natural"), ([-1, 1], 20, "natural"), ([0, 0], 30, "natural"), ([0, 0], 100, "cap"),
          ([1, -1], 40, "natural")]
    print("two players:", rule_set(g2))
    g3 = [([1, -1, -1], 12, "natural"), ([0, 0, 0], 50, "cap"), ([-1, 1, 0], 31, "natural"),
          ([0, 0, -1], 7, "adjudicated"), ([1, -1, 0], 18, "natural"), ([-1, -1, 1], 25, "natural")]
    print("three players:", rule_set(g3))


def bt_prior_two():
    # Two players, A beat B once, one virtual draw each against a fixed gamma = 1 player.
    # By symmetry gamma_B = 1/gamma_A = 1/g and A's equation is 1.5 = g^2/(g^2+1) + g/(g+1);
    # its right side increases with g, so bisect.
    lo, hi = 1.0, 100.0
    for _ in range(200):
        g = (lo + hi) / 2
        if g * g / (g * g + 1) + g / (g + 1) < 1.5:
            lo = g
        else:
            hi = g
    return 400 * math.log10(g)


def rule_set(games):
    # games: list of (u per seat, plies, end) with end in {"natural", "cap", "adjudicated"}
    n = len(games)
    k = len(games[0][0])
    s = [[(g[0][p] + 1) / 2 for g in games] for p in range(k)]
    mean_s = [sum(sp) / n for sp in s]
    var1 = sum((x - mean_s[0]) ** 2 for x in s[0]) / n
    adv = (mean_s[0], 1.96 * math.sqrt(var1 / n))
    balance = 1 - max([abs(a - b) for i, a in enumerate(mean_s) for b in mean_s[i + 1 :]], default=0.0)
    completion = sum(1 for g in games if max(g[0]) > min(g[0])) / n
    drawish = sum(1 for g in games if max(g[0]) == min(g[0]) and g[2] == "natural") / n
    timeouts = sum(1 for g in games if g[2] == "cap") / n
    us = [[g[0][p] for g in games] for p in range(k)]
    uniform = 1 - sum(statistics.pvariance(u) for u in us) / k
    plies = [g[1] for g in games]
    q = statistics.quantiles(plies, n=4, method="inclusive") if n > 1 else [plies[0]] * 3
    return dict(adv=adv, balance=balance, completion=completion, drawish=drawish, timeouts=timeouts,
                uniformity=uniform, mean=statistics.fmean(plies), q=q, min=min(plies), max=max(plies))


if __name__ == "__main__":
    main()
