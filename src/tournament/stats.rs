//! Tournament statistics: Elo from trinomial and pentanomial counts, the GSPRT, Bradley-Terry ratings
//! and the measures of a rule set.
//!
//! Everything here is a pure function of counts; nothing depends on the rest of the crate. The formulas
//! are those of the tournament spec (`shared/spec/tournament.md`, section "Formulas" and "Measures of a
//! rule set"); each item's documentation restates the one it implements.
//!
//! Conventions:
//! * A *score* is a fraction of the points available: win 1, draw ½, loss 0, always from the view of
//!   the first bot named (bot A).
//! * Elo differences use the logistic model: score s ↔ Elo −400·log10(1/s − 1).
//! * Degenerate inputs never panic. No games gives `None`; a score of exactly 0 or 1 gives an infinite
//!   Elo (documented on each item). Note that `serde_json` writes infinite floats as `null`.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::f64::consts::{FRAC_1_SQRT_2, FRAC_2_SQRT_PI, LN_10};

/// The normal quantile used for every 95% interval, as in the spec (Φ(1.96) ≈ 0.9750).
pub const Z95: f64 = 1.96;

/// The count that replaces an empty bucket before the GSPRT takes logarithms (as in fishtest).
pub const SPRT_EMPTY_BUCKET: f64 = 1e-3;

// ---------------------------------------------------------------------------------------------------
// The normal distribution
// ---------------------------------------------------------------------------------------------------

/// `exp(-a²)` without the rounding error of forming `a²`: `a` is split into a head `hi` of 21
/// significant bits (so `hi²` is exact) and a tail, and `a² = hi² + (a − hi)(a + hi)`.
fn exp_neg_sq(a: f64) -> f64 {
    let hi = f64::from_bits(a.to_bits() & 0xFFFF_FFFF_0000_0000);
    let lo = a - hi;
    (-hi * hi).exp() * (-lo * (a + hi)).exp()
}

/// erf(a) for 0 ≤ a < 1 by the series erf(a) = 2/√π · e^(−a²) · Σₙ 2ⁿ a^(2n+1) / (1·3·…·(2n+1)),
/// whose terms are all positive (no cancellation).
fn erf_series(a: f64) -> f64 {
    let a2 = a * a;
    let mut term = a;
    let mut sum = a;
    let mut n = 0.0;
    for _ in 0..200 {
        n += 1.0;
        term *= 2.0 * a2 / (2.0 * n + 1.0);
        sum += term;
        if term <= sum * (0.5 * f64::EPSILON) {
            break;
        }
    }
    FRAC_2_SQRT_PI * exp_neg_sq(a) * sum
}

/// erfc(a) for a ≥ 1 by the continued fraction
/// erfc(a) = e^(−a²)/√π · 1/(a + (1/2)/(a + 1/(a + (3/2)/(a + 2/(a + …))))),
/// evaluated with the modified Lentz method (at most ~280 terms at a = 1, fewer beyond).
fn erfc_continued_fraction(a: f64) -> f64 {
    if a >= 27.3 {
        // e^(−a²) underflows below the smallest subnormal.
        return 0.0;
    }
    let mut f = a;
    let mut c = a;
    let mut d = 0.0;
    for k in 1..2000 {
        let ak = 0.5 * k as f64;
        d = 1.0 / (a + ak * d);
        c = a + ak / c;
        let delta = c * d;
        f *= delta;
        if (delta - 1.0).abs() <= f64::EPSILON {
            break;
        }
    }
    exp_neg_sq(a) * (0.5 * FRAC_2_SQRT_PI) / f
}

/// The error function erf(x) = 2/√π ∫₀ˣ e^(−t²) dt.
///
/// Method: a positive-term power series for |x| < 1, and 1 − erfc(|x|) by a continued fraction beyond
/// (see [`erfc`]). Accuracy, measured against Python's `math.erf` on a grid of step 0.001 over
/// [−30, 26.5]: absolute error below 5·10⁻¹⁶. NaN gives NaN; erf(±∞) = ±1.
pub fn erf(x: f64) -> f64 {
    if x.is_nan() {
        return f64::NAN;
    }
    let a = x.abs();
    let r = if a < 1.0 {
        erf_series(a)
    } else {
        1.0 - erfc_continued_fraction(a)
    };
    r.copysign(x)
}

/// The complementary error function erfc(x) = 1 − erf(x), accurate in the far tail.
///
/// Method: 1 − (power series) for |x| < 1, where erfc(|x|) > 0.15 so the subtraction loses nothing,
/// and a continued fraction (modified Lentz) for |x| ≥ 1, with e^(−x²) computed from an exact split of
/// x²; erfc(−x) = 2 − erfc(x). Accuracy, measured against Python's `math.erfc` on a grid of step 0.001
/// over [0, 26.5] (where erfc is still a normal float): relative error below 4·10⁻¹⁵. erfc(x) is 0 for
/// x ≥ 27.3 (it underflows), 2 at −∞; NaN gives NaN.
pub fn erfc(x: f64) -> f64 {
    if x.is_nan() {
        return f64::NAN;
    }
    let a = x.abs();
    let upper = if a < 1.0 {
        1.0 - erf_series(a)
    } else {
        erfc_continued_fraction(a)
    };
    if x >= 0.0 {
        upper
    } else {
        2.0 - upper
    }
}

/// Φ(x), the cumulative distribution function of the standard normal distribution: Φ(x) = ½·erfc(−x/√2).
///
/// Inherits [`erfc`]'s accuracy. Measured against Python's `0.5 * math.erfc(-x / math.sqrt(2))` on a
/// grid of step 0.001 over [−30, 26.5]: absolute error below 3·10⁻¹⁶; relative error in the lower tail
/// below 3·10⁻¹⁴ for x > −10, growing like x²·10⁻¹⁶ further out (the rounding of x/√2 is amplified
/// by the slope of erfc). Φ(−∞) = 0, Φ(+∞) = 1.
pub fn normal_cdf(x: f64) -> f64 {
    0.5 * erfc(-x * FRAC_1_SQRT_2)
}

/// Φ⁻¹(p), the quantile function of the standard normal distribution (e.g. Φ⁻¹(0.975) ≈ 1.959964).
///
/// Method: the starting value of Abramowitz & Stegun 26.2.23 (error < 4.5·10⁻⁴), then Halley steps on
/// Φ(x) = p (cubic convergence) until the step is below 10⁻¹⁵·max(1, |x|). Measured against Python's
/// `statistics.NormalDist().inv_cdf` for p = k/2000 and p = 10⁻ᵏ (k < 300): error below
/// 2·10⁻¹⁵·max(1, |x|). The upper half is computed by symmetry from
/// 1 − p (exact for p ≥ ½). p ≤ 0 gives −∞, p ≥ 1 gives +∞, NaN gives NaN.
pub fn normal_quantile(p: f64) -> f64 {
    if p.is_nan() {
        return f64::NAN;
    }
    if p <= 0.0 {
        return f64::NEG_INFINITY;
    }
    if p >= 1.0 {
        return f64::INFINITY;
    }
    if p > 0.5 {
        return -lower_normal_quantile(1.0 - p);
    }
    lower_normal_quantile(p)
}

/// Φ⁻¹(p) for 0 < p ≤ ½.
fn lower_normal_quantile(p: f64) -> f64 {
    if p == 0.5 {
        return 0.0;
    }
    let t = (-2.0 * p.ln()).sqrt();
    let mut x = -(t
        - (2.515517 + 0.802853 * t + 0.010328 * t * t)
            / (1.0 + 1.432788 * t + 0.189269 * t * t + 0.001308 * t * t * t));
    let sqrt_2pi = (2.0 * std::f64::consts::PI).sqrt();
    for _ in 0..8 {
        let err = normal_cdf(x) - p;
        // u = (Φ(x) − p)/φ(x); computed as a product so that the tails do not overflow.
        let u = err * sqrt_2pi * (0.5 * x * x).exp();
        let step = u / (1.0 + 0.5 * x * u);
        x -= step;
        if !step.is_finite() || step.abs() <= 1e-15 * x.abs().max(1.0) {
            break;
        }
    }
    x
}

// ---------------------------------------------------------------------------------------------------
// Scores and Elo
// ---------------------------------------------------------------------------------------------------

/// The Elo difference that corresponds to a score s under the logistic model: −400·log10(1/s − 1).
///
/// Gives −∞ at s = 0, +∞ at s = 1, exactly 0 at s = ½, and NaN for s outside [0, 1] or NaN.
pub fn elo_from_score(s: f64) -> f64 {
    // `+ 0.0` turns the −0 of s = ½ into +0.
    -400.0 * (1.0 / s - 1.0).log10() + 0.0
}

/// The expected score of a bot that is `elo` points stronger: 1/(1 + 10^(−elo/400)); the inverse of
/// [`elo_from_score`].
pub fn score_from_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// An Elo difference with its 95% interval and likelihood of superiority.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct EloEstimate {
    /// Elo(s), the Elo difference of the observed score; ±∞ when every game (pair) was won or lost.
    pub elo: f64,
    /// Half-width of the 95% interval, [Elo(s + 1.96·SE) − Elo(s − 1.96·SE)]/2. Infinite when
    /// s ± 1.96·SE leaves (0, 1) (the interval is unbounded on that side) and when `elo` is infinite;
    /// 0 when every game was drawn.
    pub error95: f64,
    /// Likelihood of superiority Φ((s − ½)/SE), in [0, 1]. When SE = 0 (every game had the same
    /// result): 1 if s > ½, 0 if s < ½, ½ if s = ½.
    pub los: f64,
}

/// The Elo estimate for score `s` with standard error `se` (shared by the trinomial and pentanomial
/// models).
fn elo_estimate(s: f64, se: f64) -> EloEstimate {
    let elo = elo_from_score(s);
    if se <= 0.0 {
        let los = if s > 0.5 {
            1.0
        } else if s < 0.5 {
            0.0
        } else {
            0.5
        };
        let error95 = if elo.is_finite() { 0.0 } else { f64::INFINITY };
        return EloEstimate { elo, error95, los };
    }
    let high = elo_from_score((s + Z95 * se).min(1.0));
    let low = elo_from_score((s - Z95 * se).max(0.0));
    EloEstimate {
        elo,
        error95: (high - low) / 2.0,
        los: normal_cdf((s - 0.5) / se),
    }
}

/// Normalized Elo (s − ½)/σ · 800/ln 10 for a per-game standard deviation σ.
fn normalized_elo(s: f64, sigma_per_game: f64) -> f64 {
    if sigma_per_game <= 0.0 {
        // Every game had the same result.
        return if s > 0.5 {
            f64::INFINITY
        } else if s < 0.5 {
            f64::NEG_INFINITY
        } else {
            0.0
        };
    }
    (s - 0.5) / sigma_per_game * 800.0 / LN_10
}

/// The result of one game from bot A's view.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Outcome {
    /// Bot A won (score 1).
    Win,
    /// A draw (score ½).
    Draw,
    /// Bot A lost (score 0).
    Loss,
}

impl Outcome {
    /// The score of the game: 1, ½ or 0.
    pub fn score(self) -> f64 {
        match self {
            Outcome::Win => 1.0,
            Outcome::Draw => 0.5,
            Outcome::Loss => 0.0,
        }
    }

    /// Twice the score (2, 1 or 0), to index pentanomial buckets.
    fn half_points(self) -> usize {
        match self {
            Outcome::Win => 2,
            Outcome::Draw => 1,
            Outcome::Loss => 0,
        }
    }
}

/// Trinomial counts: bot A's wins, draws and losses against bot B.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Wdl {
    /// Games bot A won.
    pub wins: u64,
    /// Games drawn.
    pub draws: u64,
    /// Games bot A lost.
    pub losses: u64,
}

impl Wdl {
    /// Counts from wins, draws and losses.
    pub fn new(wins: u64, draws: u64, losses: u64) -> Self {
        Wdl {
            wins,
            draws,
            losses,
        }
    }

    /// Adds one game.
    pub fn add(&mut self, outcome: Outcome) {
        match outcome {
            Outcome::Win => self.wins += 1,
            Outcome::Draw => self.draws += 1,
            Outcome::Loss => self.losses += 1,
        }
    }

    /// The same games from bot B's view.
    pub fn reversed(self) -> Self {
        Wdl {
            wins: self.losses,
            draws: self.draws,
            losses: self.wins,
        }
    }

    /// N = W + D + L.
    pub fn games(&self) -> u64 {
        self.wins + self.draws + self.losses
    }

    /// Bot A's points, W + D/2.
    pub fn points(&self) -> f64 {
        self.wins as f64 + 0.5 * self.draws as f64
    }

    /// s = (W + D/2)/N; `None` when N = 0.
    pub fn score(&self) -> Option<f64> {
        let n = self.games();
        (n > 0).then(|| self.points() / n as f64)
    }

    /// The per-game variance σ² = [W(1−s)² + D(½−s)² + L·s²]/N; `None` when N = 0.
    pub fn variance(&self) -> Option<f64> {
        let s = self.score()?;
        let n = self.games() as f64;
        let (w, d, l) = (self.wins as f64, self.draws as f64, self.losses as f64);
        Some((w * (1.0 - s).powi(2) + d * (0.5 - s).powi(2) + l * s * s) / n)
    }

    /// Elo difference, 95% interval and LOS with SE = σ/√N (see [`EloEstimate`] for the degenerate
    /// cases); `None` when N = 0.
    pub fn elo(&self) -> Option<EloEstimate> {
        let s = self.score()?;
        let se = (self.variance()? / self.games() as f64).sqrt();
        Some(elo_estimate(s, se))
    }

    /// Normalized Elo (s − ½)/σ · 800/ln 10 with the per-game σ; `None` when N = 0. When σ = 0 (every
    /// game had the same result) it is ±∞, or 0 if every game was drawn.
    pub fn normalized_elo(&self) -> Option<f64> {
        Some(normalized_elo(self.score()?, self.variance()?.sqrt()))
    }

    /// The GSPRT log-likelihood ratio of H1 (Elo = `elo1`) against H0 (Elo = `elo0`) from these counts,
    /// i.e. [`sprt_llr`] on the buckets (L, D, W) at scores (0, ½, 1). 0 when N = 0; `None` if an Elo
    /// bound is not finite.
    pub fn llr(&self, elo0: f64, elo1: f64) -> Option<f64> {
        sprt_llr(
            &[self.losses, self.draws, self.wins],
            &[0.0, 0.5, 1.0],
            elo0,
            elo1,
        )
    }
}

/// Pentanomial counts: how many game pairs (two games on the same opening with seats swapped) gave
/// bot A a pair score of 0, ¼, ½, ¾ and 1, the pair score being the mean of A's two game scores.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Penta(pub [u64; 5]);

impl Penta {
    /// The pair score of each bucket.
    pub const SCORES: [f64; 5] = [0.0, 0.25, 0.5, 0.75, 1.0];

    /// Adds one pair from the outcomes of its two games (order does not matter).
    pub fn add_pair(&mut self, first: Outcome, second: Outcome) {
        self.0[first.half_points() + second.half_points()] += 1;
    }

    /// The number of pairs.
    pub fn pairs(&self) -> u64 {
        self.0.iter().sum()
    }

    /// The mean pair score, which is also bot A's score over the games; `None` with no pairs.
    pub fn score(&self) -> Option<f64> {
        let n = self.pairs();
        let total: f64 = self
            .0
            .iter()
            .zip(Self::SCORES)
            .map(|(&c, x)| c as f64 * x)
            .sum();
        (n > 0).then(|| total / n as f64)
    }

    /// The variance of the pair score over pairs, σ²_pair = Σ nᵢ(xᵢ − s)²/pairs; `None` with no pairs.
    pub fn variance(&self) -> Option<f64> {
        let s = self.score()?;
        let total: f64 = self
            .0
            .iter()
            .zip(Self::SCORES)
            .map(|(&c, x)| c as f64 * (x - s).powi(2))
            .sum();
        Some(total / self.pairs() as f64)
    }

    /// Elo difference, 95% interval and LOS with SE = σ_pair/√pairs (see [`EloEstimate`] for the
    /// degenerate cases); `None` with no pairs.
    pub fn elo(&self) -> Option<EloEstimate> {
        let s = self.score()?;
        let se = (self.variance()? / self.pairs() as f64).sqrt();
        Some(elo_estimate(s, se))
    }

    /// Normalized Elo (s − ½)/(√2·σ_pair) · 800/ln 10 (√2·σ_pair stands for the per-game σ); `None` with
    /// no pairs. When σ_pair = 0 it is ±∞, or 0 if s = ½.
    pub fn normalized_elo(&self) -> Option<f64> {
        Some(normalized_elo(
            self.score()?,
            std::f64::consts::SQRT_2 * self.variance()?.sqrt(),
        ))
    }

    /// The GSPRT log-likelihood ratio of H1 (Elo = `elo1`) against H0 (Elo = `elo0`) from these
    /// counts, i.e. [`sprt_llr`] on the five buckets at [`Penta::SCORES`]. 0 with no pairs; `None` if
    /// an Elo bound is not finite.
    pub fn llr(&self, elo0: f64, elo1: f64) -> Option<f64> {
        sprt_llr(&self.0, &Self::SCORES, elo0, elo1)
    }
}

// ---------------------------------------------------------------------------------------------------
// SPRT
// ---------------------------------------------------------------------------------------------------

/// The generalized SPRT log-likelihood ratio (fishtest, fastchess) of H1: Elo = `elo1` against H0:
/// Elo = `elo0` under the logistic model.
///
/// `counts[i]` outcomes were observed at score `scores[i]` (trinomial: scores 0, ½, 1; pentanomial:
/// 0, ¼, ½, ¾, 1). Empty buckets count [`SPRT_EMPTY_BUCKET`] (10⁻³); N is the sum of the counts so
/// regularized and p̂ᵢ = countᵢ/N. For j = 0, 1, s_j = 1/(1 + 10^(−elo_j/400)) and θ_j solves
/// Σ p̂ᵢ(xᵢ − s_j)/(1 + θ_j(xᵢ − s_j)) = 0; then p_j,i = p̂ᵢ/(1 + θ_j(xᵢ − s_j)) is the distribution
/// closest to p̂ with mean s_j, and LLR = N·Σ p̂ᵢ ln(p1ᵢ/p0ᵢ).
///
/// θ_j is found by bisection, which cannot fail: the left side decreases strictly in θ on the interval
/// where every 1 + θ(xᵢ − s_j) > 0, from +∞ to −∞. The LLR is then evaluated as
/// N·Σ p̂ᵢ[ln(1 + θ₀(xᵢ − s₀)) − ln(1 + θ₁(xᵢ − s₁))], which is stationary in θ, so the tiny residual of
/// the root does not show.
///
/// Returns 0 when every count is 0 (no evidence yet; fishtest's regularization would give a value of
/// order 10⁻⁶). Returns `None` if the slices differ in length or have fewer than two buckets, if a
/// score or bound is not finite, or if some s_j is not strictly between the smallest and the largest
/// score (then no distribution on these scores has mean s_j).
pub fn sprt_llr(counts: &[u64], scores: &[f64], elo0: f64, elo1: f64) -> Option<f64> {
    if counts.len() != scores.len()
        || counts.len() < 2
        || !elo0.is_finite()
        || !elo1.is_finite()
        || scores.iter().any(|x| !x.is_finite())
    {
        return None;
    }
    let regularized: Vec<f64> = counts
        .iter()
        .map(|&c| if c == 0 { SPRT_EMPTY_BUCKET } else { c as f64 })
        .collect();
    let kl0 = divergence_to_mean(&regularized, scores, score_from_elo(elo0))?;
    let kl1 = divergence_to_mean(&regularized, scores, score_from_elo(elo1))?;
    if counts.iter().all(|&c| c == 0) {
        return Some(0.0);
    }
    let n: f64 = regularized.iter().sum();
    Some(n * (kl0 - kl1))
}

/// Σ p̂ᵢ ln(p̂ᵢ/pᵢ) where p is the maximum-likelihood distribution with mean `s` (see [`sprt_llr`]);
/// `weights` are the (regularized, positive) counts.
fn divergence_to_mean(weights: &[f64], scores: &[f64], s: f64) -> Option<f64> {
    let total: f64 = weights.iter().sum();
    let p: Vec<f64> = weights.iter().map(|w| w / total).collect();
    let a: Vec<f64> = scores.iter().map(|x| x - s).collect();
    let a_min = a.iter().copied().fold(f64::INFINITY, f64::min);
    let a_max = a.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    if !(a_min < 0.0 && a_max > 0.0) {
        return None;
    }
    // f(θ) = Σ pᵢ aᵢ/(1 + θ aᵢ) decreases from +∞ at −1/a_max to −∞ at −1/a_min.
    let f = |theta: f64| -> f64 {
        let mut sum = 0.0;
        for (&pi, &ai) in p.iter().zip(&a) {
            let den = 1.0 + theta * ai;
            if den <= 0.0 {
                // Outside the domain (by rounding, at its very edge): the side tells the sign.
                return if ai > 0.0 {
                    f64::INFINITY
                } else {
                    f64::NEG_INFINITY
                };
            }
            sum += pi * ai / den;
        }
        sum
    };
    let mut lo = -1.0 / a_max;
    let mut hi = -1.0 / a_min;
    for _ in 0..300 {
        let mid = 0.5 * (lo + hi);
        if mid <= lo || mid >= hi {
            break;
        }
        let v = f(mid);
        if v > 0.0 {
            lo = mid;
        } else if v < 0.0 {
            hi = mid;
        } else {
            lo = mid;
            hi = mid;
        }
    }
    let theta = 0.5 * (lo + hi);
    let kl = p
        .iter()
        .zip(&a)
        .map(|(&pi, &ai)| pi * (theta * ai).ln_1p())
        .sum();
    Some(kl)
}

/// The SPRT stopping bounds on the LLR.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct SprtBounds {
    /// ln(β/(1−α)): accept H0 at or below it.
    pub lower: f64,
    /// ln((1−β)/α): accept H1 at or above it.
    pub upper: f64,
}

/// The SPRT bounds for error rates α (false acceptance of H1) and β (false acceptance of H0):
/// lower = ln(β/(1−α)), upper = ln((1−β)/α); ±2.944 at 0.05/0.05. `None` unless 0 < α, 0 < β and
/// α + β < 1 (otherwise lower ≥ upper).
pub fn sprt_bounds(alpha: f64, beta: f64) -> Option<SprtBounds> {
    if !(alpha > 0.0 && beta > 0.0 && alpha + beta < 1.0) {
        return None;
    }
    Some(SprtBounds {
        lower: (beta / (1.0 - alpha)).ln(),
        upper: ((1.0 - beta) / alpha).ln(),
    })
}

/// What an SPRT concludes from the current LLR.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum SprtDecision {
    /// LLR ≤ lower bound: stop, H0 (Elo = elo0) accepted.
    AcceptH0,
    /// LLR ≥ upper bound: stop, H1 (Elo = elo1) accepted.
    AcceptH1,
    /// Keep playing.
    Continue,
}

impl SprtBounds {
    /// The decision for `llr`; a NaN LLR gives `Continue`.
    pub fn decide(&self, llr: f64) -> SprtDecision {
        if llr >= self.upper {
            SprtDecision::AcceptH1
        } else if llr <= self.lower {
            SprtDecision::AcceptH0
        } else {
            SprtDecision::Continue
        }
    }
}

// ---------------------------------------------------------------------------------------------------
// Bradley-Terry
// ---------------------------------------------------------------------------------------------------

/// Which rating is set to 0.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Anchor {
    /// The mean of the finite ratings.
    Mean,
    /// This player's rating; if it is not finite (or the index is out of range), the mean is used.
    Player(usize),
}

/// Options of [`bradley_terry`].
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct BtOptions {
    /// Stop when no rating moved by more than this many Elo points in one sweep (default 10⁻⁷).
    pub tolerance: f64,
    /// Stop after this many sweeps even if not converged (default 100 000).
    pub max_iterations: usize,
    /// Virtual draws each player gets against a fixed reference player of rating 0 (default 0: none).
    /// With a positive prior every rating is finite, at the cost of a pull towards 0 (BayesElo's
    /// approach); with none, the ratings are the exact maximum-likelihood estimate.
    pub prior_draws: f64,
    /// Which rating is 0 (default the mean).
    pub anchor: Anchor,
}

impl Default for BtOptions {
    fn default() -> Self {
        BtOptions {
            tolerance: 1e-7,
            max_iterations: 100_000,
            prior_draws: 0.0,
            anchor: Anchor::Mean,
        }
    }
}

/// The outcome of [`bradley_terry`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BtResult {
    /// Rating of each player, 400·log10 γ, shifted by the anchor. `+∞`: the player scored every point
    /// available (against the players still rated, see [`bradley_terry`]); `−∞`: it scored none;
    /// `None`: no game bears on it (it played none, or only against players rated ±∞).
    pub ratings: Vec<Option<f64>>,
    /// Sweeps performed.
    pub iterations: usize,
    /// Whether the tolerance was reached before the iteration cap.
    pub converged: bool,
}

#[derive(Clone, Copy, PartialEq)]
enum BtStatus {
    Active,
    Top,
    Bottom,
    Unrated,
}

/// Bradley-Terry ratings of `players` players by minorization-maximization (Hunter 2004).
///
/// `results` lists encounters `(i, j, wdl)`, `wdl` counted from player i's view; several entries for the
/// same pair add up. A draw counts as half a win for each side. With Wᵢ player i's points and nᵢⱼ the
/// games between i and j, each sweep updates, player by player,
/// γᵢ ← Wᵢ / Σⱼ nᵢⱼ/(γᵢ + γⱼ), then rescales γ to geometric mean 1 (the likelihood is scale-free);
/// a positive `prior_draws` d adds d/2 to Wᵢ and d/(γᵢ + 1) to the sum and removes the rescaling.
/// Ratings are 400·log10 γᵢ, shifted so that the anchor is 0.
///
/// Players that scored every point or none have no finite maximum-likelihood rating. Without a prior,
/// such players are set aside first (rating +∞ or −∞), repeatedly, since setting some aside can leave
/// others with a perfect or zero score among the rest; the others are rated on their games among
/// themselves, which is the limit of the likelihood as the set-aside ratings go to ±∞. No NaN is
/// produced. One case remains without finite ratings and is not detected: a group of players that won
/// every game against another group while no single player has a perfect score; then the iteration
/// drifts until the cap and `converged` is false. A positive `prior_draws` removes all such cases.
/// Players in separate groups that never met are each rated, but their offset is arbitrary.
///
/// Returns `None` if an encounter names a player ≥ `players` or a player against itself, or if
/// `prior_draws` is negative, infinite or NaN.
pub fn bradley_terry(
    players: usize,
    results: &[(usize, usize, Wdl)],
    options: &BtOptions,
) -> Option<BtResult> {
    let prior = options.prior_draws;
    if prior.is_nan() || prior < 0.0 || prior.is_infinite() {
        return None;
    }
    // games[i][j] = nᵢⱼ, points[i][j] = points of i against j.
    let mut games = vec![vec![0.0f64; players]; players];
    let mut points = vec![vec![0.0f64; players]; players];
    for &(i, j, wdl) in results {
        if i >= players || j >= players || i == j {
            return None;
        }
        let n = wdl.games() as f64;
        games[i][j] += n;
        games[j][i] += n;
        points[i][j] += wdl.points();
        points[j][i] += wdl.reversed().points();
    }

    let mut status = vec![BtStatus::Active; players];
    if prior == 0.0 {
        loop {
            let mut next = status.clone();
            for i in 0..players {
                if status[i] != BtStatus::Active {
                    continue;
                }
                let (mut n, mut w) = (0.0, 0.0);
                for j in 0..players {
                    if status[j] == BtStatus::Active {
                        n += games[i][j];
                        w += points[i][j];
                    }
                }
                next[i] = if n == 0.0 {
                    BtStatus::Unrated
                } else if w == 0.0 {
                    BtStatus::Bottom
                } else if w == n {
                    BtStatus::Top
                } else {
                    BtStatus::Active
                };
            }
            if next == status {
                break;
            }
            status = next;
        }
    }

    let active: Vec<usize> = (0..players)
        .filter(|&i| status[i] == BtStatus::Active)
        .collect();
    let wins: Vec<f64> = (0..players)
        .map(|i| active.iter().map(|&j| points[i][j]).sum::<f64>() + 0.5 * prior)
        .collect();
    let mut gamma = vec![1.0f64; players];
    let mut iterations = 0;
    let mut converged = active.is_empty();
    let elo_per_ln = 400.0 / LN_10;
    while !converged && iterations < options.max_iterations {
        iterations += 1;
        let old: Vec<f64> = active.iter().map(|&i| gamma[i]).collect();
        for &i in &active {
            let mut denominator = if prior > 0.0 {
                prior / (gamma[i] + 1.0)
            } else {
                0.0
            };
            for &j in &active {
                if games[i][j] > 0.0 {
                    denominator += games[i][j] / (gamma[i] + gamma[j]);
                }
            }
            gamma[i] = wins[i] / denominator;
        }
        if prior == 0.0 {
            let mean_ln = active.iter().map(|&i| gamma[i].ln()).sum::<f64>() / active.len() as f64;
            let scale = mean_ln.exp();
            for &i in &active {
                gamma[i] /= scale;
            }
        }
        let change = active
            .iter()
            .zip(&old)
            .map(|(&i, &g)| (gamma[i] / g).ln().abs() * elo_per_ln)
            .fold(0.0, f64::max);
        converged = change < options.tolerance;
    }

    let mut ratings: Vec<Option<f64>> = (0..players)
        .map(|i| match status[i] {
            BtStatus::Active => Some(elo_per_ln * gamma[i].ln()),
            BtStatus::Top => Some(f64::INFINITY),
            BtStatus::Bottom => Some(f64::NEG_INFINITY),
            BtStatus::Unrated => None,
        })
        .collect();
    let finite: Vec<f64> = ratings
        .iter()
        .flatten()
        .copied()
        .filter(|r| r.is_finite())
        .collect();
    let mean = if finite.is_empty() {
        0.0
    } else {
        finite.iter().sum::<f64>() / finite.len() as f64
    };
    let offset = match options.anchor {
        Anchor::Player(k) => match ratings.get(k).copied().flatten() {
            Some(r) if r.is_finite() => r,
            _ => mean,
        },
        Anchor::Mean => mean,
    };
    for r in ratings.iter_mut().flatten() {
        if r.is_finite() {
            *r -= offset;
        }
    }
    Some(BtResult {
        ratings,
        iterations,
        converged,
    })
}

// ---------------------------------------------------------------------------------------------------
// Measures of a rule set
// ---------------------------------------------------------------------------------------------------

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum EndKind {
    /// By the rules of the game (a win, loss or draw condition).
    Natural,
    /// By the runner's length cap (maximum plies).
    LengthCap,
    /// By the runner for another reason: adjudication, forfeit of a crashed or stalled bot.
    Adjudicated,
}

/// One game's outcome, by seat, for the measures of a rule set.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameOutcome {
    /// uₚ ∈ [−1, 1] for each seat p in turn order (index 0 moved first): 1 a win, −1 a loss, 0 a draw,
    /// anything between for rankings in games of more players.
    pub results: Vec<f64>,
    /// Plies played.
    pub plies: u32,
    /// How the game ended.
    pub end: EndKind,
}

/// A mean with the half-width of its 95% interval.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Estimate {
    /// The mean.
    pub value: f64,
    /// 1.96·SE with SE = σ/√N, σ² the variance over games (divided by N, as in the spec's formulas).
    pub error95: f64,
}

/// Plies per game.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct DurationStats {
    /// Mean.
    pub mean: f64,
    /// Shortest game.
    pub min: f64,
    /// First quartile.
    pub q1: f64,
    /// Median.
    pub median: f64,
    /// Third quartile.
    pub q3: f64,
    /// Longest game.
    pub max: f64,
    /// Standard deviation (divided by N).
    pub sd: f64,
}

/// The measures of a rule set over a set of games (Ludii's, after Browne).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RuleSetMeasures {
    /// Games measured.
    pub games: usize,
    /// Seats per game.
    pub players: usize,
    /// Mean of s₁ = (u₁ + 1)/2 for the seat that moves first (½ is fair), with its 95% interval.
    pub first_player_advantage: Estimate,
    /// 1 − max over pairs of seats of |mean sₐ − mean s_b|; draws count ½ (they are not dropped).
    /// 1 with a single seat.
    pub balance: f64,
    /// Share of games with a winner: the seats' results are not all equal (whatever ended the game).
    pub completion: f64,
    /// Share of games that ended by the rules ([`EndKind::Natural`]) with all results equal.
    pub drawishness: f64,
    /// Share of games ended by the length cap ([`EndKind::LengthCap`]).
    pub timeouts: f64,
    /// 1 − mean over seats of the variance of uₚ (variance divided by N).
    pub outcome_uniformity: f64,
    /// Plies per game; quartiles interpolate linearly between order statistics (the "inclusive"
    /// method: position (N − 1)·q in the sorted list).
    pub duration: DurationStats,
}

/// The measures of a rule set, gathered one game at a time in any order: counts only (results by value
/// per seat, plies by length), so that memory does not grow with the games and the order they come in
/// changes nothing. [`RuleSetTally::measures`] gives what [`rule_set_measures`] gives for the same games.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RuleSetTally {
    /// Seats per game, from the first game.
    seats: Option<usize>,
    /// A game had another number of seats, no seat, or a result outside [−1, 1].
    invalid: bool,
    games: u64,
    /// Per seat: each distinct result and how many games had it.
    results: Vec<Vec<(f64, u64)>>,
    decided: u64,
    natural_draws: u64,
    capped: u64,
    /// Games by plies (plies are integers: the quartiles come out exact).
    plies: BTreeMap<u32, u64>,
    plies_sum: u64,
}

impl RuleSetTally {
    pub fn add(&mut self, results: &[f64], plies: u32, end: EndKind) {
        let k = *self.seats.get_or_insert(results.len());
        if k == 0 || results.len() != k || results.iter().any(|u| !(-1.0..=1.0).contains(u)) {
            self.invalid = true;
            return;
        }
        if self.results.len() < k {
            self.results.resize(k, vec![]);
        }
        for (seat, &u) in results.iter().enumerate() {
            let h = &mut self.results[seat];
            match h.iter_mut().find(|(v, _)| v.to_bits() == u.to_bits()) {
                Some((_, c)) => *c += 1,
                None => h.push((u, 1)),
            }
        }
        self.games += 1;
        let all_equal = results.iter().all(|&u| u == results[0]);
        if !all_equal {
            self.decided += 1;
        }
        if end == EndKind::Natural && all_equal {
            self.natural_draws += 1;
        }
        if end == EndKind::LengthCap {
            self.capped += 1;
        }
        *self.plies.entry(plies).or_default() += 1;
        self.plies_sum += plies as u64;
    }

    /// The plies of the game at `index` in the sorted order.
    fn plies_at(&self, index: u64) -> f64 {
        let mut seen = 0;
        for (&p, &c) in &self.plies {
            seen += c;
            if index < seen {
                return p as f64;
            }
        }
        self.plies.keys().next_back().map_or(0.0, |&p| p as f64)
    }

    /// Linear interpolation between order statistics at position (N − 1)·q (the "inclusive" method).
    fn plies_quantile(&self, q: f64) -> f64 {
        let n = self.games;
        let h = (n - 1) as f64 * q;
        let i = h.floor() as u64;
        if i + 1 >= n {
            return self.plies_at(n - 1);
        }
        let (a, b) = (self.plies_at(i), self.plies_at(i + 1));
        a + (h - i as f64) * (b - a)
    }

    /// The measures (see [`RuleSetMeasures`]); `None` without games or after a game [`rule_set_measures`]
    /// would refuse.
    pub fn measures(&self) -> Option<RuleSetMeasures> {
        if self.invalid || self.games == 0 {
            return None;
        }
        let k = self.seats?;
        let n = self.games as f64;
        let stats: Vec<(f64, f64)> = self.results.iter().map(|h| mean_variance(h, n)).collect();
        let (mean_u1, var_u1) = stats[0];
        // s = (u + 1)/2, so mean s = (mean u + 1)/2 and var s = var u / 4.
        let first_player_advantage = Estimate {
            value: (mean_u1 + 1.0) / 2.0,
            error95: Z95 * (var_u1 / 4.0 / n).sqrt(),
        };
        let mean_s: Vec<f64> = stats.iter().map(|&(m, _)| (m + 1.0) / 2.0).collect();
        let mut worst_gap: f64 = 0.0;
        for a in 0..k {
            for b in a + 1..k {
                worst_gap = worst_gap.max((mean_s[a] - mean_s[b]).abs());
            }
        }
        let outcome_uniformity = 1.0 - stats.iter().map(|&(_, v)| v).sum::<f64>() / k as f64;
        let duration = DurationStats {
            mean: self.plies_sum as f64 / n,
            min: self.plies_at(0),
            q1: self.plies_quantile(0.25),
            median: self.plies_quantile(0.5),
            q3: self.plies_quantile(0.75),
            max: self.plies_at(self.games - 1),
            sd: {
                let mean = self.plies_sum as f64 / n;
                let ss: f64 = self
                    .plies
                    .iter()
                    .map(|(&p, &c)| (p as f64 - mean).powi(2) * c as f64)
                    .sum();
                (ss / n).sqrt()
            },
        };
        Some(RuleSetMeasures {
            games: self.games as usize,
            players: k,
            first_player_advantage,
            balance: 1.0 - worst_gap,
            completion: self.decided as f64 / n,
            drawishness: self.natural_draws as f64 / n,
            timeouts: self.capped as f64 / n,
            outcome_uniformity,
            duration,
        })
    }
}

/// Mean and variance (divided by N) of N values given as (value, count), summed in value order.
fn mean_variance(histogram: &[(f64, u64)], n: f64) -> (f64, f64) {
    let mut h = histogram.to_vec();
    h.sort_by(|a, b| a.0.total_cmp(&b.0));
    let mean = h.iter().map(|&(v, c)| v * c as f64).sum::<f64>() / n;
    let var = h
        .iter()
        .map(|&(v, c)| (v - mean).powi(2) * c as f64)
        .sum::<f64>()
        / n;
    (mean, var)
}

/// The measures of a rule set (see [`RuleSetMeasures`]) over `games`.
///
/// Returns `None` if there are no games, if a game has no seats or a different number of seats than
/// the first one, or if a result is outside [−1, 1] (or NaN).
pub fn rule_set_measures(games: &[GameOutcome]) -> Option<RuleSetMeasures> {
    let mut t = RuleSetTally::default();
    for g in games {
        t.add(&g.results, g.plies, g.end);
    }
    t.measures()
}

/// Ludii's measures from per-move evaluations, for one game (`--record-evals`). `evals[t][p]` is seat p's
/// evaluation in [−1, 1] of the position after t plies (t = 0 is the start).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct GameEvalMeasures {
    /// Share of consecutive positions at which the leader (the one seat with the highest evaluation; none on a
    /// tie) changes.
    pub lead_change: f64,
    /// Games with a winner only: over the positions where the winner is not the leader, the mean of how far the
    /// winner's evaluation is below the highest (0 if the winner always led), and how many such positions.
    pub drama: Option<(f64, u64)>,
    /// Games with a winner only: the highest evaluation any other seat reached.
    pub decisiveness_threshold: Option<f64>,
    /// Games with a winner only: the share of the plies played after the winner's evaluation first rose above
    /// the threshold (0 if it never did).
    pub decisiveness_moves: Option<f64>,
}

fn leader(e: &[f64]) -> Option<usize> {
    let best = e.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let mut at = e.iter().enumerate().filter(|(_, &v)| v == best);
    match (at.next(), at.next()) {
        (Some((i, _)), None) => Some(i),
        _ => None,
    }
}

/// The measures of one game from its evaluations (see [`GameEvalMeasures`]); `winner` is the winning seat.
pub fn game_eval_measures(evals: &[Vec<f64>], winner: Option<usize>) -> GameEvalMeasures {
    let mut m = GameEvalMeasures::default();
    let leaders: Vec<Option<usize>> = evals.iter().map(|e| leader(e)).collect();
    if leaders.len() > 1 {
        let changes = leaders.windows(2).filter(|w| w[0] != w[1]).count();
        m.lead_change = changes as f64 / (leaders.len() - 1) as f64;
    }
    let Some(w) = winner else {
        return m;
    };
    let (mut gap, mut behind) = (0.0, 0u64);
    for (e, l) in evals.iter().zip(&leaders) {
        if *l != Some(w) {
            let best = e.iter().copied().fold(f64::NEG_INFINITY, f64::max);
            gap += best - e[w];
            behind += 1;
        }
    }
    m.drama = Some((if behind > 0 { gap / behind as f64 } else { 0.0 }, behind));
    let threshold = evals
        .iter()
        .flat_map(|e| {
            e.iter()
                .enumerate()
                .filter(|&(p, _)| p != w)
                .map(|(_, &v)| v)
        })
        .fold(f64::NEG_INFINITY, f64::max);
    if threshold.is_finite() {
        m.decisiveness_threshold = Some(threshold);
        let plies = evals.len().saturating_sub(1);
        let first = evals.iter().position(|e| e[w] > threshold);
        m.decisiveness_moves = Some(match first {
            Some(t) if plies > 0 => (plies - t) as f64 / plies as f64,
            _ => 0.0,
        });
    }
    m
}

/// One measure of two rule sets side by side, with the two-sided p-value of the hypothesis that they are
/// equal.
#[derive(Clone, Debug, PartialEq)]
pub struct MeasureComparison {
    pub measure: &'static str,
    pub a: f64,
    pub b: f64,
    pub p: f64,
}

/// The two-sided p-value of a standard normal statistic: P(|Z| ≥ |z|) = erfc(|z|/√2).
pub fn two_sided_p(z: f64) -> f64 {
    if z.is_nan() {
        return 1.0;
    }
    erfc(z.abs() / std::f64::consts::SQRT_2)
}

/// Whether two means differ: Welch's statistic z = (m_a − m_b)/√(se_a² + se_b²) with the standard errors of
/// the two means, read against the normal distribution (the samples here are hundreds of games). Equal means
/// with no spread give 1; different ones with no spread, 0.
pub fn mean_difference_p(ma: f64, se_a: f64, mb: f64, se_b: f64) -> f64 {
    let se = (se_a * se_a + se_b * se_b).sqrt();
    if se == 0.0 {
        return if ma == mb { 1.0 } else { 0.0 };
    }
    two_sided_p((ma - mb) / se)
}

/// Whether two proportions differ: the pooled two-proportion z-test, x_a of n_a against x_b of n_b.
pub fn proportion_difference_p(xa: f64, na: f64, xb: f64, nb: f64) -> f64 {
    if na == 0.0 || nb == 0.0 {
        return 1.0;
    }
    let p = (xa + xb) / (na + nb);
    let se = (p * (1.0 - p) * (1.0 / na + 1.0 / nb)).sqrt();
    if se == 0.0 {
        return 1.0; // both all or both none: no difference
    }
    two_sided_p((xa / na - xb / nb) / se)
}

/// Two rule sets compared on first-player advantage (mean s₁), draw rate (natural draws), decisiveness (games
/// with a winner) and length (mean plies), each with its p-value.
pub fn compare_rule_sets(a: &RuleSetMeasures, b: &RuleSetMeasures) -> Vec<MeasureComparison> {
    let (na, nb) = (a.games as f64, b.games as f64);
    let se_len = |m: &RuleSetMeasures| m.duration.sd / (m.games as f64).sqrt();
    vec![
        MeasureComparison {
            measure: "first-player advantage",
            a: a.first_player_advantage.value,
            b: b.first_player_advantage.value,
            p: mean_difference_p(
                a.first_player_advantage.value,
                a.first_player_advantage.error95 / Z95,
                b.first_player_advantage.value,
                b.first_player_advantage.error95 / Z95,
            ),
        },
        MeasureComparison {
            measure: "draw rate",
            a: a.drawishness,
            b: b.drawishness,
            p: proportion_difference_p(
                (a.drawishness * na).round(),
                na,
                (b.drawishness * nb).round(),
                nb,
            ),
        },
        MeasureComparison {
            measure: "decisiveness",
            a: a.completion,
            b: b.completion,
            p: proportion_difference_p(
                (a.completion * na).round(),
                na,
                (b.completion * nb).round(),
                nb,
            ),
        },
        MeasureComparison {
            measure: "length",
            a: a.duration.mean,
            b: b.duration.mean,
            p: mean_difference_p(a.duration.mean, se_len(a), b.duration.mean, se_len(b)),
        },
    ]
}

#[cfg(test)]
mod tests {
    //! Expected values are literals worked out independently of this code: by hand where the arithmetic
    //! is short (shown in the comments), otherwise by `tests/reference/stats_reference.py` (Python 3 standard
    //! library, written from the spec's formulas; it solves the GSPRT and Bradley-Terry equations by
    //! other methods than this module), or taken from published output of fishtest and of a GSPRT
    //! calculator as noted.

    use super::*;

    fn close(actual: f64, expected: f64, tolerance: f64) {
        assert!(
            (actual - expected).abs() <= tolerance,
            "got {actual:?}, expected {expected:?} (tolerance {tolerance:e})"
        );
    }

    // --- normal distribution ---------------------------------------------------------------------

    #[test]
    fn the_tests_between_two_variants_give_the_textbook_p_values() {
        // Python: 2*(1 - statistics.NormalDist().cdf(1.96)).
        close(two_sided_p(1.96), 0.049995790296440745, 1e-12);
        close(two_sided_p(-1.96), 0.049995790296440745, 1e-12);
        // 30 of 100 against 45 of 100: pooled p = 0.375, z = −2.1908902300206647, p-value
        // 0.02845973691631043 (Python, the same formulas by hand).
        close(
            proportion_difference_p(30.0, 100.0, 45.0, 100.0),
            0.02845973691631043,
            1e-12,
        );
        // Means 0.6 and 0.5 with standard errors 0.03 and 0.04: SE 0.05, z = 2, p 0.04550026389635842.
        close(
            mean_difference_p(0.6, 0.03, 0.5, 0.04),
            0.04550026389635842,
            1e-12,
        );
        // No spread: equal is no difference, unequal is certain.
        assert_eq!(mean_difference_p(1.0, 0.0, 1.0, 0.0), 1.0);
        assert_eq!(mean_difference_p(1.0, 0.0, 0.0, 0.0), 0.0);
        assert_eq!(proportion_difference_p(0.0, 10.0, 0.0, 20.0), 1.0);
    }

    /// A game worked by hand. Seats A and B, five positions (four plies); B wins.
    ///   t:   0      1      2      3      4
    ///   A:  0.0    0.3    0.2   -0.1   -0.6
    ///   B:  0.0    0.1    0.4    0.5    0.9
    /// Leaders: none (tie), A, B, B, B: changes at 0→1 and 1→2, so 2 of 4 = 0.5.
    /// Drama: B is not the leader at t = 0 (tie: gap 0) and t = 1 (gap 0.3 − 0.1 = 0.2): mean 0.1 over 2.
    /// Threshold: A's highest, 0.3. B first rises above 0.3 at t = 2: plies after it 4 − 2 = 2 of 4 = 0.5.
    #[test]
    fn ludii_measures_of_a_game_worked_by_hand() {
        let evals = vec![
            vec![0.0, 0.0],
            vec![0.3, 0.1],
            vec![0.2, 0.4],
            vec![-0.1, 0.5],
            vec![-0.6, 0.9],
        ];
        let m = game_eval_measures(&evals, Some(1));
        close(m.lead_change, 0.5, 1e-12);
        let (drama, behind) = m.drama.unwrap();
        close(drama, 0.1, 1e-12);
        assert_eq!(behind, 2);
        close(m.decisiveness_threshold.unwrap(), 0.3, 1e-12);
        close(m.decisiveness_moves.unwrap(), 0.5, 1e-12);
        // A draw: lead change only.
        let d = game_eval_measures(&evals, None);
        close(d.lead_change, 0.5, 1e-12);
        assert_eq!(
            (d.drama, d.decisiveness_threshold, d.decisiveness_moves),
            (None, None, None)
        );
        // A winner that never rises above the others' best: decisiveness moves 0.
        let flat = vec![vec![0.5, 0.0], vec![0.5, 0.5]];
        let f = game_eval_measures(&flat, Some(1));
        assert_eq!(f.decisiveness_moves, Some(0.0));
    }

    #[test]
    fn erf_and_erfc_match_python_math() {
        // Python: math.erf / math.erfc.
        close(erf(0.1), 0.1124629160182849, 5e-16);
        close(erf(0.5), 0.5204998778130465, 5e-16);
        close(erf(0.9), 0.7969082124228322, 5e-16);
        close(erf(1.0), 0.8427007929497149, 5e-16);
        close(erf(2.0), 0.9953222650189527, 5e-16);
        close(erf(-2.0), -0.9953222650189527, 5e-16);
        close(erfc(0.5), 0.4795001221869535, 5e-16);
        close(
            erfc(2.0),
            0.004677734981047265,
            0.004677734981047265 * 1e-14,
        );
        close(
            erfc(3.0),
            2.2090496998585438e-05,
            2.2090496998585438e-05 * 1e-14,
        );
        close(
            erfc(5.0),
            1.5374597944280351e-12,
            1.5374597944280351e-12 * 1e-14,
        );
        close(erfc(-1.0), 2.0 - 0.15729920705028513, 1e-15);
        assert_eq!(erf(0.0), 0.0);
        assert_eq!(erf(f64::INFINITY), 1.0);
        assert_eq!(erf(f64::NEG_INFINITY), -1.0);
        assert_eq!(erfc(f64::INFINITY), 0.0);
        assert_eq!(erfc(f64::NEG_INFINITY), 2.0);
        assert!(erf(f64::NAN).is_nan() && erfc(f64::NAN).is_nan());
    }

    #[test]
    fn normal_cdf_matches_python() {
        // Python: 0.5 * math.erfc(-x / math.sqrt(2)).
        assert_eq!(normal_cdf(0.0), 0.5);
        close(normal_cdf(0.5), 0.6914624612740131, 1e-15);
        close(normal_cdf(1.0), 0.8413447460685429, 1e-15);
        close(normal_cdf(1.96), 0.9750021048517795, 1e-15);
        close(normal_cdf(-1.96), 0.024997895148220435, 1e-16);
        close(normal_cdf(2.5), 0.9937903346742238, 1e-15);
        close(normal_cdf(-3.0), 0.0013498980316300957, 1e-17);
        close(normal_cdf(4.0), 0.9999683287581669, 1e-15);
        close(
            normal_cdf(-6.0),
            9.865876450377012e-10,
            9.865876450377012e-10 * 1e-13,
        );
        close(
            normal_cdf(-10.0),
            7.619853024160593e-24,
            7.619853024160593e-24 * 1e-13,
        );
        assert_eq!(normal_cdf(f64::INFINITY), 1.0);
        assert_eq!(normal_cdf(f64::NEG_INFINITY), 0.0);
    }

    #[test]
    fn normal_quantile_matches_python() {
        // Python: statistics.NormalDist().inv_cdf(p).
        close(normal_quantile(0.975), 1.9599639845400536, 1e-14);
        assert_eq!(normal_quantile(0.5), 0.0);
        close(normal_quantile(0.001), -3.090232306167813, 1e-14);
        close(normal_quantile(1e-10), -6.361340902404056, 1e-13);
        close(normal_quantile(0.9), 1.2815515655446008, 1e-14);
        assert_eq!(normal_quantile(0.0), f64::NEG_INFINITY);
        assert_eq!(normal_quantile(1.0), f64::INFINITY);
        assert!(normal_quantile(f64::NAN).is_nan());
    }

    // --- Elo -------------------------------------------------------------------------------------

    #[test]
    fn elo_of_a_score() {
        // By hand: -400·log10(1/0.75 - 1) = 400·log10(3) = 190.8485...; Python elo(0.75) gives
        // 190.848501887865.
        close(elo_from_score(0.75), 190.848501887865, 1e-10);
        close(elo_from_score(0.25), -190.848501887865, 1e-10);
        // 400·log10(7/3) = 147.19071411783776 (Python).
        close(elo_from_score(0.7), 147.19071411783776, 1e-10);
        assert_eq!(elo_from_score(0.5), 0.0);
        assert!(elo_from_score(0.5).is_sign_positive());
        assert_eq!(elo_from_score(1.0), f64::INFINITY);
        assert_eq!(elo_from_score(0.0), f64::NEG_INFINITY);
        assert!(elo_from_score(1.5).is_nan() && elo_from_score(-0.5).is_nan());
        close(score_from_elo(190.848501887865), 0.75, 1e-14);
        close(score_from_elo(0.0), 0.5, 0.0);
    }

    #[test]
    fn trinomial_even_counts() {
        // 30/40/30: s = 0.5 so Elo 0 and LOS ½. σ² = (30·¼ + 0 + 30·¼)/100 = 0.15, SE = √(0.15/100);
        // error95 = [Elo(½ + 1.96·SE) − Elo(½ − 1.96·SE)]/2 = 53.15897190457869 (Python).
        let wdl = Wdl::new(30, 40, 30);
        assert_eq!(wdl.games(), 100);
        assert_eq!(wdl.score(), Some(0.5));
        close(wdl.variance().unwrap(), 0.15, 1e-15);
        let e = wdl.elo().unwrap();
        assert_eq!(e.elo, 0.0);
        close(e.error95, 53.15897190457869, 1e-9);
        assert_eq!(e.los, 0.5);
        assert_eq!(wdl.normalized_elo(), Some(0.0));
    }

    #[test]
    fn trinomial_sixty_twenty_twenty() {
        // 60 wins, 20 draws, 20 losses, by hand: s = 0.7; σ² = (60·0.09 + 20·0.04 + 20·0.49)/100 = 0.16;
        // SE = 0.4/10 = 0.04; LOS = Φ(0.2/0.04) = Φ(5) = 0.9999997133484281 (Python erfc).
        // Elo = 400·log10(7/3); interval Elo(0.7784) − Elo(0.6216) halved = 66.01463862816014 and
        // nElo = 0.2/0.4 · 800/ln 10 = 173.71779276130067 (Python).
        let wdl = Wdl::new(60, 20, 20);
        close(wdl.score().unwrap(), 0.7, 1e-15);
        close(wdl.variance().unwrap(), 0.16, 1e-15);
        let e = wdl.elo().unwrap();
        close(e.elo, 147.19071411783776, 1e-10);
        close(e.error95, 66.01463862816014, 1e-9);
        close(e.los, 0.9999997133484281, 1e-14);
        close(wdl.normalized_elo().unwrap(), 173.71779276130067, 1e-9);
        // From B's side everything flips.
        let r = wdl.reversed().elo().unwrap();
        close(r.elo, -147.19071411783776, 1e-10);
        close(r.los, 1.0 - 0.9999997133484281, 1e-14);
    }

    #[test]
    fn trinomial_without_draws() {
        // 10 wins, 5 losses: s = 2/3, Elo = 400·log10 2 = 120.41199826559247; σ² = (10/9 + 20/9)/15 = 2/9;
        // error95 221.17177118055235, LOS 0.9145482398846012 (Python).
        let e = Wdl::new(10, 0, 5).elo().unwrap();
        close(e.elo, 120.41199826559247, 1e-10);
        close(e.error95, 221.17177118055235, 1e-9);
        close(e.los, 0.9145482398846012, 1e-14);
    }

    #[test]
    fn trinomial_degenerate_cases() {
        assert_eq!(Wdl::default().score(), None);
        assert_eq!(Wdl::default().elo(), None);
        assert_eq!(Wdl::default().normalized_elo(), None);
        // All wins: s = 1, SE = 0.
        let e = Wdl::new(7, 0, 0).elo().unwrap();
        assert_eq!(
            (e.elo, e.error95, e.los),
            (f64::INFINITY, f64::INFINITY, 1.0)
        );
        let e = Wdl::new(0, 0, 7).elo().unwrap();
        assert_eq!(
            (e.elo, e.error95, e.los),
            (f64::NEG_INFINITY, f64::INFINITY, 0.0)
        );
        assert_eq!(Wdl::new(7, 0, 0).normalized_elo(), Some(f64::INFINITY));
        // All draws: s = ½, SE = 0.
        let e = Wdl::new(0, 9, 0).elo().unwrap();
        assert_eq!((e.elo, e.error95, e.los), (0.0, 0.0, 0.5));
        // 9 wins 1 loss: s = 0.9, SE = 0.3/√10 ≈ 0.0949, s + 1.96·SE > 1: unbounded above.
        let e = Wdl::new(9, 0, 1).elo().unwrap();
        assert!(e.elo.is_finite());
        assert_eq!(e.error95, f64::INFINITY);
    }

    #[test]
    fn outcomes_accumulate() {
        let mut wdl = Wdl::default();
        for o in [Outcome::Win, Outcome::Win, Outcome::Draw, Outcome::Loss] {
            wdl.add(o);
        }
        assert_eq!(wdl, Wdl::new(2, 1, 1));
        let mut penta = Penta::default();
        penta.add_pair(Outcome::Win, Outcome::Win);
        penta.add_pair(Outcome::Win, Outcome::Loss);
        penta.add_pair(Outcome::Draw, Outcome::Draw);
        penta.add_pair(Outcome::Loss, Outcome::Draw);
        penta.add_pair(Outcome::Draw, Outcome::Win);
        assert_eq!(penta, Penta([0, 1, 2, 1, 1]));
    }

    // --- pentanomial -----------------------------------------------------------------------------

    #[test]
    fn pentanomial_matches_fishtest() {
        // Counts [13, 37, 50, 25, 3] from a published fishtest (montytest) statistics page, which gives
        // score 0.43750, pair variance 0.05762, Elo -43.6578 and normalized Elo -63.97.
        // By hand: s = (37/4 + 25 + 75/4 + 3)/128 = 56/128 = 0.4375.
        // Python: variance 0.0576171875, error95 29.42770797301501, LOS = Φ(-0.0625/SE) =
        // 0.0016104011454166475 (fishtest reports a different LOS, 0.00114, computed otherwise; the spec's
        // formula is the reference here), Elo -43.6577877700272, nElo -63.96807627734982.
        let p = Penta([13, 37, 50, 25, 3]);
        assert_eq!(p.pairs(), 128);
        assert_eq!(p.score(), Some(0.4375));
        close(p.variance().unwrap(), 0.0576171875, 1e-15);
        let e = p.elo().unwrap();
        close(e.elo, -43.6577877700272, 1e-10);
        close(e.elo, -43.6578, 5e-5);
        close(e.error95, 29.42770797301501, 1e-9);
        close(e.los, 0.0016104011454166475, 1e-15);
        close(p.normalized_elo().unwrap(), -63.96807627734982, 1e-9);
        close(p.normalized_elo().unwrap(), -63.97, 5e-3);
    }

    #[test]
    fn pentanomial_second_example() {
        // Python pentanomial([5, 20, 50, 30, 10]).
        let p = Penta([5, 20, 50, 30, 10]);
        close(p.score().unwrap(), 0.5434782608695652, 1e-15);
        close(p.variance().unwrap(), 0.057892249527410206, 1e-15);
        let e = p.elo().unwrap();
        close(e.elo, 30.288285575247322, 1e-10);
        close(e.error95, 30.873439980892005, 1e-9);
        close(e.los, 0.9736767088816152, 1e-14);
        close(p.normalized_elo().unwrap(), 44.393690687484465, 1e-9);
    }

    #[test]
    fn pentanomial_degenerate_cases() {
        assert_eq!(Penta::default().elo(), None);
        let e = Penta([0, 0, 4, 0, 0]).elo().unwrap();
        assert_eq!((e.elo, e.error95, e.los), (0.0, 0.0, 0.5));
        let e = Penta([0, 0, 0, 0, 4]).elo().unwrap();
        assert_eq!(
            (e.elo, e.error95, e.los),
            (f64::INFINITY, f64::INFINITY, 1.0)
        );
        // Constant pair score ¾: finite Elo, zero variance.
        let e = Penta([0, 0, 0, 4, 0]).elo().unwrap();
        close(e.elo, 190.848501887865, 1e-10);
        assert_eq!((e.error95, e.los), (0.0, 1.0));
        assert_eq!(Penta([0, 0, 0, 4, 0]).normalized_elo(), Some(f64::INFINITY));
    }

    // --- SPRT ------------------------------------------------------------------------------------

    #[test]
    fn sprt_bounds_values() {
        // ln(0.05/0.95) = -2.9444389791664403; ln(0.1/0.95), ln(0.9/0.05) (Python math.log).
        let b = sprt_bounds(0.05, 0.05).unwrap();
        close(b.lower, -2.9444389791664403, 1e-15);
        close(b.upper, 2.9444389791664403, 1e-15);
        let b = sprt_bounds(0.05, 0.1).unwrap();
        close(b.lower, -2.251291798606495, 1e-15);
        close(b.upper, 2.8903717578961645, 1e-15);
        assert_eq!(sprt_bounds(0.0, 0.05), None);
        assert_eq!(sprt_bounds(0.5, 0.5), None);
        assert_eq!(b.decide(3.0), SprtDecision::AcceptH1);
        assert_eq!(b.decide(-2.3), SprtDecision::AcceptH0);
        assert_eq!(b.decide(0.0), SprtDecision::Continue);
        assert_eq!(b.decide(f64::NAN), SprtDecision::Continue);
    }

    #[test]
    fn gsprt_pentanomial_matches_fishtest() {
        // The same fishtest page: SPRT with logistic bounds [0, 2.716] (printed to 3 decimals) reports
        // "Logistic (exact)" LLR -0.53772. Python gsprt (dual maximization) with elo1 = 2.716 gives
        // -0.5377667784615312.
        let llr = Penta([13, 37, 50, 25, 3]).llr(0.0, 2.716).unwrap();
        close(llr, -0.5377667784615312, 1e-9);
        close(llr, -0.53772, 2e-4);
    }

    #[test]
    fn gsprt_pentanomial_zero_five() {
        // Python gsprt(counts, [0, .25, .5, .75, 1], 0, 5).
        close(
            Penta([100, 500, 1000, 600, 120]).llr(0.0, 5.0).unwrap(),
            3.59349876367604,
            1e-9,
        );
        // Empty buckets are replaced by 1e-3 (Python does the same before its own solve).
        close(
            Penta([0, 3, 10, 4, 0]).llr(0.0, 5.0).unwrap(),
            0.05286389590860379,
            1e-9,
        );
        close(
            Penta([5, 20, 50, 30, 10]).llr(-2.0, 3.0).unwrap(),
            0.5894693812649358,
            1e-9,
        );
        assert_eq!(Penta::default().llr(0.0, 5.0), Some(0.0));
    }

    #[test]
    fn gsprt_trinomial() {
        // W 4307, L 4063, D 8620, elo0 0, elo1 3: the published output of jw1912/SPRT's `sprt.py --gsprt`
        // is "LLR: 2.99"; Python gsprt([L, D, W], [0, .5, 1], 0, 3) gives 2.9912888083076528.
        let llr = Wdl::new(4307, 8620, 4063).llr(0.0, 3.0).unwrap();
        close(llr, 2.9912888083076528, 1e-9);
        close(llr, 2.99, 5e-3);
        close(
            Wdl::new(60, 20, 20).llr(0.0, 5.0).unwrap(),
            0.7072473475900592,
            1e-9,
        );
        // Symmetry: swapping the sides and negating the hypotheses negates the LLR.
        let flipped = Wdl::new(4063, 8620, 4307).llr(-3.0, 0.0).unwrap();
        close(flipped, -2.9912888083076528, 1e-9);
        // If the observed score equals s1, H1's distribution is the empirical one and the LLR is the
        // (positive) divergence to H0's.
        assert!(Wdl::new(30, 40, 30).llr(5.0, 0.0).unwrap() > 0.0);
    }

    #[test]
    fn gsprt_rejects_bad_input() {
        assert_eq!(sprt_llr(&[1, 2], &[0.0, 0.5, 1.0], 0.0, 5.0), None);
        assert_eq!(sprt_llr(&[1], &[0.5], 0.0, 5.0), None);
        assert_eq!(
            sprt_llr(&[1, 2, 3], &[0.0, 0.5, 1.0], 0.0, f64::INFINITY),
            None
        );
        // Scores that cannot have mean s1 > ½.
        assert_eq!(sprt_llr(&[1, 2], &[0.0, 0.5], 0.0, 5.0), None);
    }

    // --- Bradley-Terry ---------------------------------------------------------------------------

    fn precise() -> BtOptions {
        BtOptions {
            tolerance: 1e-10,
            ..BtOptions::default()
        }
    }

    #[test]
    fn bradley_terry_consistent_results() {
        // Results that match γ = 4 : 2 : 1 exactly (A scores 2 of 3 against B, B 2 of 3 against C, A 4 of
        // 5 against C), so the likelihood equations hold at that γ and it is the unique maximum. Ratings
        // 400·log10(γ) centred: ±400·log10 2 = ±120.41199826559247, and 0. Draws count as half wins
        // (A–B is 1 win and 2 draws).
        let results = [
            (0, 1, Wdl::new(1, 2, 0)),
            (1, 2, Wdl::new(2, 0, 1)),
            (2, 0, Wdl::new(1, 0, 4)),
        ];
        let r = bradley_terry(3, &results, &precise()).unwrap();
        assert!(r.converged);
        let ratings: Vec<f64> = r.ratings.iter().map(|x| x.unwrap()).collect();
        close(ratings[0], 120.41199826559247, 1e-6);
        close(ratings[1], 0.0, 1e-6);
        close(ratings[2], -120.41199826559247, 1e-6);
        // Anchored on C instead.
        let options = BtOptions {
            anchor: Anchor::Player(2),
            ..precise()
        };
        let r = bradley_terry(3, &results, &options).unwrap();
        close(r.ratings[2].unwrap(), 0.0, 0.0);
        close(r.ratings[0].unwrap(), 240.82399653118494, 1e-6);
    }

    #[test]
    fn bradley_terry_four_players() {
        // Ten games per pair, points of the first named: A–B 6.5, A–C 7, A–D 9, B–C 5.5, B–D 6, C–D 4.
        // Python bt_newton (Newton's method on the log-likelihood) gives the reference ratings.
        let results = [
            (0, 1, Wdl::new(5, 3, 2)),
            (0, 2, Wdl::new(6, 2, 2)),
            (0, 3, Wdl::new(9, 0, 1)),
            (1, 2, Wdl::new(4, 3, 3)),
            (1, 3, Wdl::new(5, 2, 3)),
            (2, 3, Wdl::new(3, 2, 5)),
        ];
        let r = bradley_terry(4, &results, &precise()).unwrap();
        assert!(r.converged);
        let expected = [
            144.30955100451615,
            -1.5311500008857593,
            -66.63723222409357,
            -76.14116877953677,
        ];
        for (got, want) in r.ratings.iter().zip(expected) {
            close(got.unwrap(), want, 1e-6);
        }
    }

    #[test]
    fn bradley_terry_perfect_and_zero_scores() {
        // Player 0 won all its games, player 3 lost all its games, player 4 played none. Players 1 and 2
        // are then rated on their own games: 1 scored 3 of 4 against 2, so γ1/γ2 = 3 and the centred
        // ratings are ±200·log10 3 = ±95.42425094393249.
        let results = [
            (0, 1, Wdl::new(2, 0, 0)),
            (2, 0, Wdl::new(0, 0, 3)),
            (1, 2, Wdl::new(2, 2, 0)),
            (3, 1, Wdl::new(0, 0, 1)),
            (0, 3, Wdl::new(1, 0, 0)),
        ];
        let r = bradley_terry(5, &results, &precise()).unwrap();
        assert!(r.converged);
        assert_eq!(r.ratings[0], Some(f64::INFINITY));
        assert_eq!(r.ratings[3], Some(f64::NEG_INFINITY));
        assert_eq!(r.ratings[4], None);
        close(r.ratings[1].unwrap(), 95.42425094393249, 1e-6);
        close(r.ratings[2].unwrap(), -95.42425094393249, 1e-6);
        // A chain: 0 beat 1, 1 beat 2. Peeling 0 and 2 leaves 1 without games.
        let r = bradley_terry(
            3,
            &[(0, 1, Wdl::new(1, 0, 0)), (1, 2, Wdl::new(1, 0, 0))],
            &precise(),
        )
        .unwrap();
        assert_eq!(
            r.ratings,
            vec![Some(f64::INFINITY), None, Some(f64::NEG_INFINITY)]
        );
        // Nobody played.
        let r = bradley_terry(2, &[], &precise()).unwrap();
        assert_eq!(r.ratings, vec![None, None]);
    }

    #[test]
    fn bradley_terry_with_prior() {
        // A beat B once; each has one virtual draw against a fixed γ = 1 player. By symmetry
        // γB = 1/γA = 1/g with 1.5 = g²/(g² + 1) + g/(g + 1); Python bt_prior_two (bisection on g):
        // 400·log10 g = 131.38408911221424. A third player with no games sits at the reference, 0,
        // which is also the mean, so the mean anchor changes nothing.
        let options = BtOptions {
            prior_draws: 1.0,
            ..precise()
        };
        let r = bradley_terry(3, &[(0, 1, Wdl::new(1, 0, 0))], &options).unwrap();
        assert!(r.converged);
        close(r.ratings[0].unwrap(), 131.38408911221424, 1e-6);
        close(r.ratings[1].unwrap(), -131.38408911221424, 1e-6);
        close(r.ratings[2].unwrap(), 0.0, 1e-6);
    }

    #[test]
    fn bradley_terry_rejects_bad_input() {
        assert_eq!(
            bradley_terry(2, &[(0, 2, Wdl::new(1, 0, 0))], &BtOptions::default()),
            None
        );
        assert_eq!(
            bradley_terry(2, &[(1, 1, Wdl::new(1, 0, 0))], &BtOptions::default()),
            None
        );
        let options = BtOptions {
            prior_draws: -1.0,
            ..BtOptions::default()
        };
        assert_eq!(bradley_terry(2, &[], &options), None);
    }

    // --- rule-set measures -----------------------------------------------------------------------

    fn game(results: &[f64], plies: u32, end: EndKind) -> GameOutcome {
        GameOutcome {
            results: results.to_vec(),
            plies,
            end,
        }
    }

    #[test]
    fn rule_set_two_players() {
        // By hand. s₁ = 1, 0, ½, ½, 1: mean 0.6, variance (0.16 + 0.36 + 0.01 + 0.01 + 0.16)/5 = 0.14,
        // error95 = 1.96·√(0.14/5) = 0.32797073040135766 (Python). Seat 2 averages 0.4: balance 0.8.
        // Winners in 3 of 5 games, one natural draw, one capped game. u₁ = 1, −1, 0, 0, 1 has mean 0.2
        // and variance (0.64 + 1.44 + 0.04 + 0.04 + 0.64)/5 = 0.56, as has u₂ = −u₁: uniformity 0.44.
        // Plies sorted 10, 20, 30, 40, 100: mean 40, quartiles at positions 1, 2, 3: 20, 30, 40.
        let games = [
            game(&[1.0, -1.0], 10, EndKind::Natural),
            game(&[-1.0, 1.0], 20, EndKind::Natural),
            game(&[0.0, 0.0], 30, EndKind::Natural),
            game(&[0.0, 0.0], 100, EndKind::LengthCap),
            game(&[1.0, -1.0], 40, EndKind::Natural),
        ];
        let m = rule_set_measures(&games).unwrap();
        assert_eq!((m.games, m.players), (5, 2));
        close(m.first_player_advantage.value, 0.6, 1e-15);
        close(m.first_player_advantage.error95, 0.32797073040135766, 1e-15);
        close(m.balance, 0.8, 1e-15);
        close(m.completion, 0.6, 1e-15);
        close(m.drawishness, 0.2, 1e-15);
        close(m.timeouts, 0.2, 1e-15);
        close(m.outcome_uniformity, 0.44, 1e-15);
        let d = m.duration;
        assert_eq!(
            (d.mean, d.min, d.q1, d.median, d.q3, d.max),
            (40.0, 10.0, 20.0, 30.0, 40.0, 100.0)
        );
    }

    #[test]
    fn rule_set_three_players() {
        // Python rule_set(g3) (statistics.pvariance, statistics.quantiles(method="inclusive")).
        // By hand for balance: mean u per seat 0/6, −2/6, −1/6, so mean s is ½, 1/3, 5/12 and the widest
        // gap is 1/6: balance 5/6.
        let games = [
            game(&[1.0, -1.0, -1.0], 12, EndKind::Natural),
            game(&[0.0, 0.0, 0.0], 50, EndKind::LengthCap),
            game(&[-1.0, 1.0, 0.0], 31, EndKind::Natural),
            game(&[0.0, 0.0, -1.0], 7, EndKind::Adjudicated),
            game(&[1.0, -1.0, 0.0], 18, EndKind::Natural),
            game(&[-1.0, -1.0, 1.0], 25, EndKind::Natural),
        ];
        let m = rule_set_measures(&games).unwrap();
        close(m.first_player_advantage.value, 0.5, 1e-15);
        close(m.first_player_advantage.error95, 0.32666666666666666, 1e-15);
        close(m.balance, 0.8333333333333333, 1e-15);
        close(m.completion, 0.8333333333333334, 1e-15);
        close(m.drawishness, 0.0, 0.0);
        close(m.timeouts, 0.16666666666666666, 1e-15);
        close(m.outcome_uniformity, 0.4351851851851851, 1e-15);
        close(m.duration.mean, 23.833333333333332, 1e-12);
        assert_eq!(
            (m.duration.q1, m.duration.median, m.duration.q3),
            (13.5, 21.5, 29.5)
        );
        assert_eq!((m.duration.min, m.duration.max), (7.0, 50.0));
    }

    #[test]
    fn rule_set_rejects_bad_input() {
        assert_eq!(rule_set_measures(&[]), None);
        assert_eq!(rule_set_measures(&[game(&[], 3, EndKind::Natural)]), None);
        let mixed = [
            game(&[1.0, -1.0], 3, EndKind::Natural),
            game(&[1.0, -1.0, 0.0], 3, EndKind::Natural),
        ];
        assert_eq!(rule_set_measures(&mixed), None);
        assert_eq!(
            rule_set_measures(&[game(&[2.0, -1.0], 3, EndKind::Natural)]),
            None
        );
        assert_eq!(
            rule_set_measures(&[game(&[f64::NAN, -1.0], 3, EndKind::Natural)]),
            None
        );
        // One game, one seat: everything defined.
        let m = rule_set_measures(&[game(&[1.0], 9, EndKind::Natural)]).unwrap();
        assert_eq!(
            (m.balance, m.completion, m.first_player_advantage.error95),
            (1.0, 0.0, 0.0)
        );
        assert_eq!(m.duration.median, 9.0);
    }
}
