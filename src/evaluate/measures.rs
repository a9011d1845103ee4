//! The measures of one rule set with their 95% intervals, from the records of its games: pure functions of
//! the games, so that the same games give the same numbers whoever played them and in whatever order they
//! are given (they are sorted by game id first).
//!
//! The definitions (and their sources) are in README.md, "dagaz evaluate: the measures"; each is checked
//! below against a small example worked by hand.

use crate::tournament::record::{GameRecord, BOT_ERROR, MOVE_LIMIT};
use crate::tournament::stats::{erfc, EndKind, RuleSetMeasures, RuleSetTally, Z95};

/// A value with its 95% interval `[lo, hi]` (infinite where one game is too few to say).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Est {
    pub value: f64,
    pub lo: f64,
    pub hi: f64,
}

impl Est {
    /// The interval's width, `hi - lo`: what `--precision` asks to be small.
    pub fn width(&self) -> f64 {
        self.hi - self.lo
    }
}

/// Wilson's score interval for a share: `x` successes of `n` (x may be fractional: a score with draws as
/// halves, for which the interval is conservative). `None` without games.
pub fn wilson(x: f64, n: f64) -> Option<Est> {
    if n <= 0.0 {
        return None;
    }
    let p = x / n;
    let z2 = Z95 * Z95;
    let centre = (p + z2 / (2.0 * n)) / (1.0 + z2 / n);
    let half = Z95 / (1.0 + z2 / n) * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
    Some(Est {
        value: p,
        lo: (centre - half).max(0.0),
        hi: (centre + half).min(1.0),
    })
}

/// The mean with the normal interval `mean ± 1.96·sd/√n` (sd with divisor n − 1); with one value the interval
/// is unbounded. `None` without values.
pub fn mean_interval(values: &[f64]) -> Option<Est> {
    let n = values.len();
    if n == 0 {
        return None;
    }
    let mean = values.iter().sum::<f64>() / n as f64;
    if n == 1 {
        return Some(Est {
            value: mean,
            lo: f64::NEG_INFINITY,
            hi: f64::INFINITY,
        });
    }
    let var = values.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / (n - 1) as f64;
    let half = Z95 * (var / n as f64).sqrt();
    Some(Est {
        value: mean,
        lo: mean - half,
        hi: mean + half,
    })
}

/// The q-quantile of sorted values (linear between order statistics at position (n − 1)·q, as report.md's
/// quartiles), with the distribution-free interval between the order statistics of ranks
/// ⌊nq − 1.96·√(nq(1 − q))⌋ and ⌈nq + 1.96·√(nq(1 − q))⌉ + 1 (1-based, clamped to 1..n; Conover, "Practical
/// Nonparametric Statistics", the normal approximation to the binomial ranks).
pub fn quantile_interval(sorted: &[f64], q: f64) -> Option<Est> {
    let n = sorted.len();
    if n == 0 {
        return None;
    }
    let h = (n - 1) as f64 * q;
    let i = h.floor() as usize;
    let value = if i + 1 >= n {
        sorted[n - 1]
    } else {
        sorted[i] + (h - i as f64) * (sorted[i + 1] - sorted[i])
    };
    let nf = n as f64;
    let spread = Z95 * (nf * q * (1.0 - q)).sqrt();
    let lo_rank = ((nf * q - spread).floor() as i64).clamp(1, n as i64) as usize;
    let hi_rank = ((nf * q + spread).ceil() as i64 + 1).clamp(1, n as i64) as usize;
    Some(Est {
        value,
        lo: sorted[lo_rank - 1],
        hi: sorted[hi_rank - 1],
    })
}

/// The ratio of two sums Σy/Σx over games with the ratio estimator's interval:
/// SE = √(Σ(y − R·x)² / (n(n − 1))) / mean x.
pub fn ratio_interval(pairs: &[(f64, f64)]) -> Option<Est> {
    let n = pairs.len();
    let sx: f64 = pairs.iter().map(|p| p.0).sum();
    let sy: f64 = pairs.iter().map(|p| p.1).sum();
    if n == 0 || sx <= 0.0 {
        return None;
    }
    let r = sy / sx;
    if n == 1 {
        return Some(Est {
            value: r,
            lo: f64::NEG_INFINITY,
            hi: f64::INFINITY,
        });
    }
    let ss: f64 = pairs.iter().map(|&(x, y)| (y - r * x).powi(2)).sum();
    let se = (ss / (n as f64 * (n - 1) as f64)).sqrt() / (sx / n as f64);
    Some(Est {
        value: r,
        lo: r - Z95 * se,
        hi: r + Z95 * se,
    })
}

/// P(X ≤ k) for X ~ Binomial(n, ½), summed in logs (no overflow for any n).
fn binomial_half_cdf(k: u64, n: u64) -> f64 {
    let ln_half_n = n as f64 * std::f64::consts::LN_2;
    let mut ln_c = 0.0; // ln C(n, 0)
    let mut total = 0.0;
    for i in 0..=k.min(n) {
        if i > 0 {
            ln_c += ((n - i + 1) as f64).ln() - (i as f64).ln();
        }
        total += (ln_c - ln_half_n).exp();
    }
    total.min(1.0)
}

/// The exact two-sided binomial (sign) test of `a` successes against `b` at p = ½:
/// min(1, 2·P(X ≤ min(a, b))) for X ~ Binomial(a + b, ½). 1 with no trials.
pub fn sign_test_p(a: u64, b: u64) -> f64 {
    let n = a + b;
    if n == 0 {
        return 1.0;
    }
    (2.0 * binomial_half_cdf(a.min(b), n)).min(1.0)
}

/// P(χ² ≥ x) with `df` degrees of freedom (closed forms for whole df: a finite Poisson sum for even df,
/// erfc and the half-integer terms for odd df).
pub fn chi_square_sf(x: f64, df: usize) -> f64 {
    if df == 0 || x <= 0.0 {
        return 1.0;
    }
    let h = x / 2.0;
    if df.is_multiple_of(2) {
        let mut term = 1.0;
        let mut sum = 1.0;
        for i in 1..df / 2 {
            term *= h / i as f64;
            sum += term;
        }
        return ((-h).exp() * sum).min(1.0);
    }
    // df = 1: erfc(√(x/2)); each step to df + 2 adds h^(df/2)·e^(−h)/Γ(df/2 + 1).
    let mut q = erfc(h.sqrt());
    let mut term = h.sqrt() * (-h).exp() / (std::f64::consts::PI.sqrt() / 2.0); // h^½ e^−h / Γ(3/2)
    let mut d = 1;
    while d < df {
        q += term;
        d += 2;
        term *= h / (d as f64 / 2.0);
    }
    q.clamp(0.0, 1.0)
}

/// The test behind the verdict "unbalanced": which test, its statistic and its p-value.
#[derive(Clone, Debug, PartialEq)]
pub struct BalanceTest {
    pub test: &'static str,
    pub p: f64,
}

/// Two seats: the exact sign test on the games each seat won (draws left out). More seats: the χ² test
/// of the wins per seat against equal shares, df = seats − 1.
pub fn balance_test(wins: &[u64]) -> BalanceTest {
    if wins.len() == 2 {
        return BalanceTest {
            test: "exact binomial sign test: wins of seat 1 vs seat 2, draws left out",
            p: sign_test_p(wins[0], wins[1]),
        };
    }
    let total: u64 = wins.iter().sum();
    let k = wins.len();
    let p = if total == 0 || k < 2 {
        1.0
    } else {
        let e = total as f64 / k as f64;
        let x: f64 = wins.iter().map(|&w| (w as f64 - e).powi(2) / e).sum();
        chi_square_sf(x, k - 1)
    };
    BalanceTest {
        test: "chi-square goodness of fit: wins per seat vs equal shares",
        p,
    }
}

/// Every measure of a rule set.
#[derive(Clone, Debug, PartialEq)]
pub struct Measures {
    /// Self-play games measured (engine errors left out).
    pub games: usize,
    pub seats: usize,
    /// Mean score s = (u + 1)/2 of each seat (draws ½), Wilson interval; seat 1 is the first player.
    pub seat_scores: Vec<Est>,
    /// 1 − the largest gap between two seats' mean scores.
    pub balance: Est,
    pub completion: Est,
    pub drawishness: Est,
    pub timeouts: Est,
    pub length: Est,
    pub length_q1: Est,
    pub length_median: Est,
    pub length_q3: Est,
    pub branching: Option<Est>,
    pub decisiveness: Option<Est>,
    pub drama: Option<Est>,
    pub lead_change: Option<Est>,
    pub uniformity: Est,
    /// The stronger bot's mean score in its games against the weaker one (draws ½), and how many.
    pub skill: Option<Est>,
    pub skill_games: usize,
    /// Per end (the condition's name, or `move-limit`, `bot-error`, ...): games and share, most first.
    pub ends: Vec<(String, u64, Est)>,
    pub balance_test: BalanceTest,
    /// The tournament's own tally of the same self-play games (for comparing two rule sets).
    pub tally: RuleSetTally,
}

impl Measures {
    /// The first player's advantage: seat 1's mean score.
    pub fn first_player(&self) -> Est {
        self.seat_scores[0]
    }

    /// The measures the tournament computes for the same self-play games.
    pub fn rule_set(&self) -> Option<RuleSetMeasures> {
        self.tally.measures()
    }

    /// The interval of a measure by its `--precision` name.
    pub fn by_name(&self, name: &str) -> Option<Est> {
        Some(match name {
            "first-player" => self.first_player(),
            "balance" => self.balance,
            "completion" => self.completion,
            "drawishness" => self.drawishness,
            "timeouts" => self.timeouts,
            "length" => self.length,
            "uniformity" => self.uniformity,
            "branching" => self.branching?,
            "decisiveness" => self.decisiveness?,
            "drama" => self.drama?,
            "lead-change" => self.lead_change?,
            "skill" => self.skill?,
            _ => return None,
        })
    }
}

/// The names `--precision` takes.
pub const PRECISION_NAMES: [&str; 12] = [
    "first-player",
    "balance",
    "completion",
    "drawishness",
    "timeouts",
    "length",
    "uniformity",
    "branching",
    "decisiveness",
    "drama",
    "lead-change",
    "skill",
];

fn end_kind(g: &GameRecord) -> EndKind {
    match g.end_type.as_str() {
        MOVE_LIMIT => EndKind::LengthCap,
        BOT_ERROR
        | crate::tournament::adjudicate::ADJUDICATED_DRAW
        | crate::tournament::adjudicate::ADJUDICATED_RESIGN => EndKind::Adjudicated,
        _ => EndKind::Natural,
    }
}

/// The measures of a rule set: `self_play` are the games between copies of the stronger bot, `skill` the
/// games of the stronger bot (any name but `weak`) against the weaker one, named `weak`. Every seat is a
/// side of its own (see [`measure_sides`] for games of partners). `None` without a rated self-play game.
pub fn measure(self_play: &[GameRecord], skill: &[GameRecord], weak: &str) -> Option<Measures> {
    measure_sides(self_play, skill, weak, &[])
}

/// The sides of a game's seats: per seat (in seat order), the index of its side, numbered from 0 in the order
/// of their first seat; seats on one team (`(allies ...)`, [`crate::compile::Game::same_team`]) share a side.
pub fn sides_of(game: &crate::compile::Game, seats: &[usize]) -> Vec<usize> {
    let mut firsts: Vec<usize> = vec![];
    seats
        .iter()
        .map(|&p| {
            let me = crate::compile::Player(p as u8);
            match firsts
                .iter()
                .position(|&q| game.same_team(crate::compile::Player(q as u8), me))
            {
                Some(i) => i,
                None => {
                    firsts.push(p);
                    firsts.len() - 1
                }
            }
        })
        .collect()
}

/// A game's result per side: the mean of its seats' results u ∈ {−1, 0, 1} (partners share one result, so
/// this is that result). `sides` as [`sides_of`]; empty: every seat a side of its own.
fn side_results(g: &GameRecord, sides: &[usize]) -> Vec<f64> {
    if sides.is_empty() {
        return g.results.iter().map(|&r| r.signum() as f64).collect();
    }
    let n = sides.iter().max().map_or(0, |m| m + 1);
    let mut sum = vec![0.0; n];
    let mut count = vec![0.0; n];
    for (seat, &side) in sides.iter().enumerate() {
        sum[side] += g.results[seat].signum() as f64;
        count[side] += 1.0;
    }
    sum.iter().zip(&count).map(|(s, c)| s / c).collect()
}

/// [`measure`] for a game whose seats play in sides (`sides`, as [`sides_of`]; empty: a side per seat).
/// Every measure counts sides, not seats: the first-player advantage is the first player's side's score, the
/// balance and its test compare sides, and a win of two partners is one win of their side (counted per seat,
/// one game won by a team of two is two wins, and the test sees twice the evidence there is).
/// Skill dependence stays the score of the seats other than the weaker bot's in the games it plays.
pub fn measure_sides(
    self_play: &[GameRecord],
    skill: &[GameRecord],
    weak: &str,
    sides: &[usize],
) -> Option<Measures> {
    let mut games: Vec<&GameRecord> = self_play.iter().filter(|g| g.is_rated()).collect();
    games.sort_by_key(|g| g.game_id);
    let first = games.first()?;
    let seats = first.results.len();
    if seats == 0
        || games.iter().any(|g| g.results.len() != seats)
        || (!sides.is_empty() && sides.len() != seats)
    {
        return None;
    }
    // Per game, each side's result in [−1, 1].
    let us: Vec<Vec<f64>> = games.iter().map(|g| side_results(g, sides)).collect();
    let k = us[0].len();
    let n = games.len() as f64;
    let s = |i: usize, p: usize| (us[i][p] + 1.0) / 2.0;
    let seat_scores: Vec<Est> = (0..k)
        .map(|p| wilson((0..games.len()).map(|i| s(i, p)).sum(), n))
        .collect::<Option<_>>()?;
    // Balance: the pair of seats with the largest gap d = s_a − s_b; the Wilson interval of (d + 1)/2 (for
    // two seats with zero-sum results, seat 1's score itself), mapped back and folded at 0.
    let mut balance = Est {
        value: 1.0,
        lo: 1.0,
        hi: 1.0,
    };
    let mut worst = -1.0;
    for a in 0..k {
        for b in a + 1..k {
            let t: f64 = (0..games.len())
                .map(|i| (s(i, a) - s(i, b) + 1.0) / 2.0)
                .sum();
            let e = wilson(t, n)?;
            let (d, dlo, dhi) = (2.0 * e.value - 1.0, 2.0 * e.lo - 1.0, 2.0 * e.hi - 1.0);
            if d.abs() > worst {
                worst = d.abs();
                let far = dlo.abs().max(dhi.abs());
                let near = if dlo <= 0.0 && dhi >= 0.0 {
                    0.0
                } else {
                    dlo.abs().min(dhi.abs())
                };
                balance = Est {
                    value: 1.0 - d.abs(),
                    lo: (1.0 - far).max(0.0),
                    hi: 1.0 - near,
                };
            }
        }
    }
    let count = |f: &dyn Fn(usize) -> bool| (0..games.len()).filter(|&i| f(i)).count() as f64;
    let decided = |i: usize| us[i].iter().any(|&r| r != us[i][0]);
    let completion = wilson(count(&decided), n)?;
    let drawishness = wilson(
        count(&|i| end_kind(games[i]) == EndKind::Natural && !decided(i)),
        n,
    )?;
    let timeouts = wilson(count(&|i| end_kind(games[i]) == EndKind::LengthCap), n)?;
    let plies: Vec<f64> = games.iter().map(|g| g.plies as f64).collect();
    let mut sorted = plies.clone();
    sorted.sort_by(f64::total_cmp);
    let length = mean_interval(&plies)?;
    let branching = ratio_interval(
        &games
            .iter()
            .filter(|g| g.plies > 0)
            .map(|g| (g.plies as f64, g.legal_moves as f64))
            .collect::<Vec<_>>(),
    );
    let eval = |i: usize| {
        let v: Vec<f64> = games.iter().filter_map(|g| g.eval(i)).collect();
        mean_interval(&v)
    };
    // Uniformity: 1 − mean over seats of the variance of u; per game, its share of that variance.
    let mean_u: Vec<f64> = (0..k)
        .map(|p| us.iter().map(|u| u[p]).sum::<f64>() / n)
        .collect();
    let per_game: Vec<f64> = us
        .iter()
        .map(|u| 1.0 - (0..k).map(|p| (u[p] - mean_u[p]).powi(2)).sum::<f64>() / k as f64)
        .collect();
    let u = mean_interval(&per_game)?;
    // Its value is in [0, 1] (a variance of values in [−1, 1] is at most 1).
    let uniformity = Est {
        lo: u.lo.clamp(0.0, 1.0),
        hi: u.hi.clamp(0.0, 1.0),
        ..u
    };
    // Skill: the stronger side's score against the weaker bot.
    let skill_games: Vec<&GameRecord> = skill.iter().filter(|g| g.is_rated()).collect();
    let strong_score: f64 = skill_games
        .iter()
        .map(|g| {
            let w = g.bots.iter().position(|b| b == weak).unwrap_or(0);
            1.0 - (g.results[w].signum() as f64 + 1.0) / 2.0
        })
        .sum();
    let skill_est = wilson(strong_score, skill_games.len() as f64);
    let mut ends: std::collections::BTreeMap<String, u64> = Default::default();
    for g in &games {
        let label = if end_kind(g) == EndKind::Natural {
            g.end_name.clone()
        } else {
            g.end_type.clone()
        };
        *ends.entry(label).or_default() += 1;
    }
    let mut ends: Vec<(String, u64, Est)> = ends
        .into_iter()
        .filter_map(|(l, c)| Some((l, c, wilson(c as f64, n)?)))
        .collect();
    ends.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    let wins: Vec<u64> = (0..k)
        .map(|p| count(&|i| us[i][p] > 0.0 && decided(i)) as u64)
        .collect();
    let mut tally = RuleSetTally::default();
    for (g, u) in games.iter().zip(&us) {
        tally.add(u, g.plies, end_kind(g));
    }
    Some(Measures {
        games: games.len(),
        seats: k,
        seat_scores,
        balance,
        completion,
        drawishness,
        timeouts,
        length,
        length_q1: quantile_interval(&sorted, 0.25)?,
        length_median: quantile_interval(&sorted, 0.5)?,
        length_q3: quantile_interval(&sorted, 0.75)?,
        branching,
        decisiveness: eval(4),
        drama: eval(1),
        lead_change: eval(0),
        uniformity,
        skill: skill_est,
        skill_games: skill_games.len(),
        ends,
        balance_test: balance_test(&wins),
        tally,
    })
}

#[cfg(test)]
mod tests {
    //! Every expected value is worked by hand from the formulas in README.md (the arithmetic is in the
    //! comments), never taken from this code's output.
    use super::*;

    fn close(a: f64, b: f64, tol: f64) {
        assert!((a - b).abs() <= tol, "got {a}, expected {b}");
    }

    fn game(id: u64, results: &[i8], end: &str, plies: u32, legal: u64) -> GameRecord {
        GameRecord {
            game_id: id,
            pair_id: id / 2,
            bots: (0..results.len()).map(|i| format!("b{i}")).collect(),
            results: results.to_vec(),
            end_type: end.into(),
            end_name: if end == MOVE_LIMIT {
                end.into()
            } else {
                "win".into()
            },
            plies,
            legal_moves: legal,
            ..Default::default()
        }
    }

    #[test]
    fn wilson_interval_worked_by_hand() {
        // 8 of 10, z = 1.96: z² = 3.8416; centre = (0.8 + 0.19208)/1.38416 = 0.716738;
        // half = 1.96/1.38416 · √(0.016 + 0.009604) = 1.416021 · 0.160012 = 0.226581.
        let e = wilson(8.0, 10.0).unwrap();
        close(e.value, 0.8, 1e-12);
        close(e.lo, 0.490157, 1e-5);
        close(e.hi, 0.943319, 1e-5);
        // All of 20: lo = 20/(20 + 3.8416) = 0.838870, hi = 1.
        let e = wilson(20.0, 20.0).unwrap();
        close(e.lo, 0.838870, 1e-5);
        close(e.hi, 1.0, 1e-12);
        assert!(wilson(0.0, 0.0).is_none());
    }

    #[test]
    fn mean_and_ratio_intervals_worked_by_hand() {
        // 2, 4, 6, 8: mean 5, s² = (9 + 1 + 1 + 9)/3 = 6.6667, SE = √(6.6667/4) = 1.290994, ±2.530349.
        let e = mean_interval(&[2.0, 4.0, 6.0, 8.0]).unwrap();
        close(e.value, 5.0, 1e-12);
        close(e.lo, 2.469651, 1e-5);
        close(e.hi, 7.530349, 1e-5);
        // (plies, legal) = (10, 30), (20, 50): R = 80/30 = 2.666667; residuals 30 − 26.6667 = 3.3333,
        // 50 − 53.3333 = −3.3333; SE = √(22.2222/2)/15 = 0.222222; ±0.435556.
        let e = ratio_interval(&[(10.0, 30.0), (20.0, 50.0)]).unwrap();
        close(e.value, 2.666667, 1e-5);
        close(e.lo, 2.231111, 1e-5);
        close(e.hi, 3.102222, 1e-5);
    }

    #[test]
    fn quartile_interval_worked_by_hand() {
        // 1..=20, median: position 19·0.5 = 9.5 → (10 + 11)/2 = 10.5; nq = 10, spread = 1.96·√5 = 4.382710:
        // ranks ⌊5.617⌋ = 5 and ⌈14.383⌉ + 1 = 16 → [5, 16].
        let v: Vec<f64> = (1..=20).map(f64::from).collect();
        let e = quantile_interval(&v, 0.5).unwrap();
        assert_eq!((e.value, e.lo, e.hi), (10.5, 5.0, 16.0));
        // Q1: position 4.75 → 5.75; nq = 5, spread = 1.96·√3.75 = 3.795523: ranks 1 and 10.
        let e = quantile_interval(&v, 0.25).unwrap();
        assert_eq!((e.value, e.lo, e.hi), (5.75, 1.0, 10.0));
    }

    #[test]
    fn tests_p_values_worked_by_hand() {
        // 9 wins against 1: 2·(1 + 10)/1024 = 0.021484.
        close(sign_test_p(9, 1), 22.0 / 1024.0, 1e-12);
        close(sign_test_p(5, 5), 1.0, 1e-12);
        // 10 against 0: 2/1024.
        close(sign_test_p(0, 10), 2.0 / 1024.0, 1e-12);
        // χ² table values: 3.841 (df 1), 5.991 (df 2), 7.815 (df 3), 9.488 (df 4) at 0.05.
        close(chi_square_sf(3.841459, 1), 0.05, 1e-5);
        close(chi_square_sf(5.991465, 2), 0.05, 1e-5);
        close(chi_square_sf(7.814728, 3), 0.05, 1e-5);
        close(chi_square_sf(9.487729, 4), 0.05, 1e-5);
        close(chi_square_sf(11.070498, 5), 0.05, 1e-5);
        // Three seats with 10, 10, 10 wins: χ² = 0, p = 1; 20, 5, 5: e = 10, χ² = (100 + 25 + 25)/10 = 15,
        // df 2: e^−7.5 = 0.000553.
        close(balance_test(&[10, 10, 10]).p, 1.0, 1e-12);
        close(balance_test(&[20, 5, 5]).p, (-7.5f64).exp(), 1e-12);
    }

    #[test]
    fn measures_of_five_games_worked_by_hand() {
        // Seat 1 wins 3, loses 1; one game hits the ply cap (a draw).
        let games = vec![
            game(0, &[1, -1], "absolute-config", 10, 30),
            game(1, &[1, -1], "absolute-config", 20, 50),
            game(2, &[-1, 1], "absolute-config", 30, 60),
            game(3, &[1, -1], "absolute-config", 40, 100),
            game(4, &[0, 0], MOVE_LIMIT, 50, 100),
        ];
        let skill = vec![
            GameRecord {
                bots: vec!["strong".into(), "weak".into()],
                results: vec![1, -1],
                end_type: "x".into(),
                ..Default::default()
            },
            GameRecord {
                bots: vec!["weak".into(), "strong".into()],
                results: vec![0, 0],
                end_type: "x".into(),
                ..Default::default()
            },
        ];
        let m = measure(&games, &skill, "weak").unwrap();
        assert_eq!((m.games, m.seats), (5, 2));
        // s₁ = (1 + 1 + 0 + 1 + ½)/5 = 0.7; s₂ = 0.3.
        close(m.first_player().value, 0.7, 1e-12);
        close(m.seat_scores[1].value, 0.3, 1e-12);
        // Balance: d = s₁ − s₂ per game = 1, 1, −1, 1, 0, so (d + 1)/2 = 1, 1, 0, 1, ½: 3.5 of 5, Wilson
        // z²/n = 0.76832: centre = (0.7 + 0.38416)/1.76832 = 0.613102, half = 1.96/1.76832 ·
        // √(0.042 + 0.038416) = 0.314316, so (d + 1)/2 in [0.298786, 0.927418], d in [−0.402429, 0.854835]:
        // it holds 0, so balance 1 − 0.4 = 0.6 in [1 − 0.854835, 1] = [0.145165, 1].
        close(m.balance.value, 0.6, 1e-12);
        close(m.balance.lo, 0.145165, 1e-5);
        close(m.balance.hi, 1.0, 1e-12);
        close(m.completion.value, 0.8, 1e-12);
        close(m.drawishness.value, 0.0, 1e-12);
        close(m.timeouts.value, 0.2, 1e-12);
        // Length 10..50: mean 30, s² = 250, SE = √50 = 7.0711, ±13.859.
        close(m.length.value, 30.0, 1e-12);
        close(m.length.hi, 43.859292, 1e-5);
        close(m.length_median.value, 30.0, 1e-12);
        close(m.length_q1.value, 20.0, 1e-12);
        // Branching = 340/150 = 2.266667.
        close(m.branching.unwrap().value, 340.0 / 150.0, 1e-12);
        // Uniformity: mean u₁ = 0.4, u₂ = −0.4; var u₁ = (0.36·3 + 1.96 + 0.16)/5 = 0.64, same for u₂:
        // 1 − 0.64 = 0.36.
        close(m.uniformity.value, 0.36, 1e-12);
        // Skill: the strong bot won one and drew one: 1.5 of 2.
        close(m.skill.unwrap().value, 0.75, 1e-12);
        assert_eq!(m.skill_games, 2);
        // Ends: `win` 4 of 5, `move-limit` 1.
        assert_eq!(m.ends[0].0, "win");
        assert_eq!(m.ends[0].1, 4);
        assert_eq!(m.ends[1].0, MOVE_LIMIT);
        // Sign test on 3 wins against 1: 2·(1 + 4)/16 = 0.625.
        close(m.balance_test.p, 0.625, 1e-12);
        // No evaluations recorded: no decisiveness.
        assert!(m.decisiveness.is_none());
        // The tournament's own measures of the same games agree.
        let r = m.rule_set().unwrap();
        close(r.first_player_advantage.value, 0.7, 1e-12);
        close(r.balance, 0.6, 1e-12);
        close(r.outcome_uniformity, 0.36, 1e-12);
    }
}
