//! `dagaz tune`: the evaluation's piece values, mobility weight and piece-square terms fitted to the outcomes
//! of self-play games (Texel's method).
//!
//! Alpha-beta plays the game against itself from openings of a few random plies. A position past the opening
//! is kept, with the game's result for the first player, when it is *quiet*: the side to move is not in check,
//! the move that led to it took nothing and the move played from it takes nothing (so no exchange is pending
//! and, where captures are compulsory, none is on offer). Its features are, per piece type, the first player's
//! pieces less the second's (on the board and in reserve), its legal moves less the second's, and per piece type
//! and board position (in the first player's frame, `bot::squares`) the first player's pieces there less the
//! second's. The evaluation is their weighted sum; the predicted score is `1 / (1 + exp(-K * eval))`.
//!
//! `K` is fitted first, with the game's own values (its declared `(value N)` or the estimate from mobility),
//! the default mobility weight and no piece-square terms. Then the weights are fitted by Newton's method on the
//! cross-entropy between the predicted score and the result (1 win, 1/2 draw, 0 loss) plus an L2 penalty that
//! pulls them towards those starting values (the piece-square terms towards 0). The penalty's strength is
//! chosen from a grid by the error on held-out games (every fifth game), then the weights are fitted again on
//! all the games with it. Everything is deterministic for a seed. Two-player games without random players only.

use super::alphabeta::{AlphaBetaBot, AlphaBetaConfig};
use super::eval::{Evaluator, Weights};
use super::squares::frames;
use super::Bot;
use crate::engine::playout::{below, game_rng};
use crate::engine::{Engine, EngineError, State};

/// How to tune.
#[derive(Clone, Debug)]
pub struct TuneOptions {
    pub games: u32,
    /// The self-play bots' depth.
    pub depth: u32,
    /// The self-play bots' node budget per move.
    pub nodes: u64,
    pub seed: u64,
    /// Random plies at the start of each game (so that the games differ).
    pub opening_plies: u32,
    /// Games longer than this count as draws.
    pub max_plies: u32,
    /// Fit piece-square terms too.
    pub squares: bool,
}

impl Default for TuneOptions {
    fn default() -> Self {
        TuneOptions {
            games: 2000,
            depth: 4,
            nodes: 20_000,
            seed: 1,
            opening_plies: 4,
            max_plies: 300,
            squares: true,
        }
    }
}

/// One position's features as (index, value) pairs, the result of its game for the first player, and the
/// game's number.
#[derive(Clone, Debug)]
pub struct Sample {
    pub features: Vec<(u32, f64)>,
    pub result: f64,
    pub game: u32,
}

/// What tuning found.
#[derive(Clone, Debug)]
pub struct Tuned {
    /// Per piece type.
    pub values: Vec<f64>,
    pub mobility: f64,
    /// One row per piece type, one value per board position (empty when not fitted).
    pub squares: Vec<Vec<f64>>,
    /// The scale of the logistic.
    pub k: f64,
    /// The penalty's strength chosen on the held-out games.
    pub lambda: f64,
    pub positions: usize,
    /// Mean squared error with the starting weights and with the fitted ones, on all positions.
    pub error_before: f64,
    pub error_after: f64,
    /// The same on the held-out games' positions, fitted without them.
    pub held_out_before: f64,
    pub held_out_after: f64,
    /// The self-play games (those that gave a position) the first player won, drew and lost.
    pub results: [u32; 3],
}

/// The layout of the weights: the piece values, the mobility weight, then the piece-square terms.
#[derive(Clone, Copy, Debug)]
pub struct Layout {
    pub kinds: usize,
    pub positions: usize,
    pub squares: bool,
}

impl Layout {
    pub fn of(engine: &Engine, squares: bool) -> Layout {
        Layout {
            kinds: engine.game.pieces.len(),
            positions: engine.game.board.positions.len(),
            squares,
        }
    }

    pub fn len(&self) -> usize {
        self.kinds
            + 1
            + if self.squares {
                self.kinds * self.positions
            } else {
                0
            }
    }

    pub fn is_empty(&self) -> bool {
        false
    }

    fn mobility(&self) -> usize {
        self.kinds
    }

    fn square(&self, kind: usize, frame_pos: usize) -> usize {
        self.kinds + 1 + kind * self.positions + frame_pos
    }
}

fn check_players(engine: &Engine) -> Result<(), EngineError> {
    let game = engine.game;
    if game.players.len() != 2 || game.players.iter().any(|p| p.random) {
        return Err(EngineError(format!(
            "tune: two players without random players only ({} has {} players{})",
            game.title,
            game.players.len(),
            if game.players.iter().any(|p| p.random) {
                ", one random"
            } else {
                ""
            }
        )));
    }
    Ok(())
}

/// The self-play games' quiet positions with their results.
pub fn self_play(engine: &Engine, o: &TuneOptions) -> Result<Vec<Sample>, EngineError> {
    check_players(engine)?;
    let layout = Layout::of(engine, o.squares);
    let frame = frames(engine.game);
    let eval = Evaluator::new(engine, Weights::default());
    let config = AlphaBetaConfig {
        depth: o.depth,
        nodes: Some(o.nodes),
        ..Default::default()
    };
    let mut bots = [
        AlphaBetaBot::new("a", config.clone()),
        AlphaBetaBot::new("b", config),
    ];
    let mut samples = vec![];
    for g in 0..o.games {
        let mut rng = game_rng(o.seed, g as u64);
        for b in &mut bots {
            b.reset();
        }
        let mut s = engine.initial();
        let mut history = vec![];
        let mut features = vec![];
        let mut result = 0.5;
        let mut last_took = false;
        for ply in 0..o.max_plies {
            let moves = engine.legal_moves(&s)?;
            if let Some(out) = engine.outcome(&s, &moves, &history)? {
                result = (out.results[0] as f64 + 1.0) / 2.0;
                break;
            }
            let i = if ply < o.opening_plies || engine.is_chance(&s) {
                below(&mut rng, moves.len())
            } else {
                let p = engine.to_move(&s).idx();
                let i = bots[p]
                    .choose(engine, &s, &moves, &history, &mut rng)
                    .map_err(|e| EngineError(format!("tune: self-play: {e}")))?;
                if !last_took && moves[i].captures() == 0 && !engine.in_check(&s)? {
                    features.push(position_features(
                        engine,
                        &eval,
                        &layout,
                        &frame,
                        &s,
                        moves.len(),
                    )?);
                }
                i
            };
            last_took = moves[i].captures() > 0;
            history.push(s.key());
            s = engine.apply(&s, &moves[i]);
        }
        samples.extend(features.into_iter().map(|features| Sample {
            features,
            result,
            game: g,
        }));
    }
    Ok(samples)
}

/// A position's features: per piece type the first player's pieces less the second's, the legal moves' difference,
/// and per piece type and position in the first player's frame the pieces' difference there.
fn position_features(
    engine: &Engine,
    eval: &Evaluator,
    layout: &Layout,
    frame: &[Vec<u16>],
    s: &State,
    moves: usize,
) -> Result<Vec<(u32, f64)>, EngineError> {
    let game = engine.game;
    let n = layout.kinds;
    let mut dense = vec![0.0; n + 1];
    let mut squares: Vec<(u32, f64)> = vec![];
    for (i, c) in s.cells().iter().enumerate() {
        if let Some(p) = c {
            if p.dead {
                continue;
            }
            let sign = if p.owner.idx() == 0 { 1.0 } else { -1.0 };
            dense[p.kind.idx()] += sign;
            if layout.squares {
                let f = frame[p.owner.idx()][i] as usize;
                squares.push((layout.square(p.kind.idx(), f) as u32, sign));
            }
        }
    }
    let np = game.pieces.len().max(1);
    for (slot, &k) in s.reserves().iter().enumerate() {
        if k > 0 && slot % np < n {
            dense[slot % np] += if slot / np == 0 { 1.0 } else { -1.0 } * k as f64;
        }
    }
    let mob = eval.mobility_counted(engine, s, moves)?;
    dense[layout.mobility()] = mob[0] - mob[1];
    // Merge the squares' entries (two pieces of one type on mirrored squares cancel).
    squares.sort_by_key(|e| e.0);
    let mut f: Vec<(u32, f64)> = dense
        .into_iter()
        .enumerate()
        .filter(|e| e.1 != 0.0)
        .map(|(i, v)| (i as u32, v))
        .collect();
    for (j, v) in squares {
        match f.last_mut() {
            Some(last) if last.0 == j => last.1 += v,
            _ => f.push((j, v)),
        }
    }
    f.retain(|e| e.1 != 0.0);
    Ok(f)
}

fn dot(w: &[f64], x: &[(u32, f64)]) -> f64 {
    x.iter().map(|&(j, v)| w[j as usize] * v).sum()
}

fn sigmoid(z: f64) -> f64 {
    1.0 / (1.0 + (-z).exp())
}

/// Mean squared error between the predicted scores and the results.
pub fn mean_squared_error<'a>(w: &[f64], samples: impl Iterator<Item = &'a Sample>, k: f64) -> f64 {
    let (mut sum, mut n) = (0.0, 0usize);
    for s in samples {
        sum += (sigmoid(k * dot(w, &s.features)) - s.result).powi(2);
        n += 1;
    }
    sum / n.max(1) as f64
}

/// Mean cross-entropy of the results given the predicted scores.
fn cross_entropy(w: &[f64], samples: &[&Sample], k: f64) -> f64 {
    let mut sum = 0.0;
    for s in samples {
        let z = k * dot(w, &s.features);
        // -[r ln p + (1 - r) ln(1 - p)] with p = sigmoid(z), computed stably.
        sum += softplus(z) - s.result * z;
    }
    sum / samples.len().max(1) as f64
}

fn softplus(z: f64) -> f64 {
    if z > 0.0 {
        z + (-z).exp().ln_1p()
    } else {
        z.exp().ln_1p()
    }
}

/// The logistic's scale for the weights `w`: the best of a log-spaced grid, refined by golden-section search.
pub fn fit_k(w: &[f64], samples: &[&Sample]) -> f64 {
    let e = |lk: f64| cross_entropy(w, samples, 10f64.powf(lk));
    let mut best = (f64::INFINITY, 0.0);
    for i in -40..=20 {
        let lk = i as f64 / 10.0;
        let v = e(lk);
        if v < best.0 {
            best = (v, lk);
        }
    }
    let (mut a, mut b) = (best.1 - 0.1, best.1 + 0.1);
    let g = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..30 {
        let c = b - g * (b - a);
        let d = a + g * (b - a);
        if e(c) < e(d) {
            b = d;
        } else {
            a = c;
        }
    }
    10f64.powf((a + b) / 2.0)
}

/// The penalised objective: mean cross-entropy plus `lambda` times the squared distance from `start`, each
/// weight's in units of its `scale`.
fn objective(
    w: &[f64],
    samples: &[&Sample],
    k: f64,
    start: &[f64],
    scale: &[f64],
    lambda: f64,
) -> f64 {
    let pen: f64 = w
        .iter()
        .zip(start)
        .zip(scale)
        .map(|((a, b), s)| ((a - b) / s).powi(2))
        .sum();
    cross_entropy(w, samples, k) + lambda * pen
}

/// Newton's method on the penalised objective (`objective`) from `w`; returns the minimiser. The Hessian of the cross-entropy is
/// positive semi-definite and the penalty's positive definite, so every step solves a positive-definite system.
pub fn newton(
    mut w: Vec<f64>,
    samples: &[&Sample],
    k: f64,
    start: &[f64],
    scale: &[f64],
    lambda: f64,
    iterations: u32,
) -> Vec<f64> {
    let p = w.len();
    let n = samples.len().max(1) as f64;
    let mut f = objective(&w, samples, k, start, scale, lambda);
    for _ in 0..iterations {
        let mut g = vec![0.0; p];
        let mut h = vec![0.0; p * p];
        for s in samples {
            let q = sigmoid(k * dot(&w, &s.features));
            let d = (q - s.result) * k / n;
            let c = q * (1.0 - q) * k * k / n;
            for &(i, vi) in &s.features {
                g[i as usize] += d * vi;
                let row = i as usize * p;
                for &(j, vj) in &s.features {
                    h[row + j as usize] += c * vi * vj;
                }
            }
        }
        for j in 0..p {
            let s2 = scale[j] * scale[j];
            g[j] += 2.0 * lambda * (w[j] - start[j]) / s2;
            h[j * p + j] += 2.0 * lambda / s2;
        }
        let Some(step) = solve_spd(h, g, p) else {
            break;
        };
        // Halve the step until the objective goes down.
        let mut t = 1.0;
        let mut improved = false;
        for _ in 0..20 {
            let cand: Vec<f64> = w.iter().zip(&step).map(|(a, d)| a - t * d).collect();
            let fc = objective(&cand, samples, k, start, scale, lambda);
            if fc < f {
                let gain = f - fc;
                w = cand;
                f = fc;
                improved = gain > 1e-12;
                break;
            }
            t /= 2.0;
        }
        if !improved {
            break;
        }
    }
    w
}

/// Solves `a x = b` for a symmetric positive-definite `a` (row-major, `p` by `p`) by Cholesky's method.
fn solve_spd(mut a: Vec<f64>, mut b: Vec<f64>, p: usize) -> Option<Vec<f64>> {
    for j in 0..p {
        let mut d = a[j * p + j];
        for k in 0..j {
            d -= a[j * p + k] * a[j * p + k];
        }
        if d <= 0.0 || !d.is_finite() {
            return None;
        }
        let d = d.sqrt();
        a[j * p + j] = d;
        for i in j + 1..p {
            let mut v = a[i * p + j];
            for k in 0..j {
                v -= a[i * p + k] * a[j * p + k];
            }
            a[i * p + j] = v / d;
        }
    }
    for i in 0..p {
        let mut v = b[i];
        for k in 0..i {
            v -= a[i * p + k] * b[k];
        }
        b[i] = v / a[i * p + i];
    }
    for i in (0..p).rev() {
        let mut v = b[i];
        for k in i + 1..p {
            v -= a[k * p + i] * b[k];
        }
        b[i] = v / a[i * p + i];
    }
    Some(b)
}

/// The penalty strengths tried, strongest first.
pub const LAMBDAS: [f64; 6] = [1e-2, 3e-3, 1e-3, 3e-4, 1e-4, 3e-5];

/// Fits the weights to the samples from `start` (the layout's order), each pulled towards its start in units
/// of its `scale`; `K` is fitted for `start`. Every fifth game is held out to choose the penalty's strength.
pub fn fit(samples: &[Sample], start: &[f64], scale: &[f64], layout: &Layout) -> Tuned {
    let all: Vec<&Sample> = samples.iter().collect();
    let train: Vec<&Sample> = samples.iter().filter(|s| s.game % 5 != 4).collect();
    let held: Vec<&Sample> = samples.iter().filter(|s| s.game % 5 == 4).collect();
    let k = fit_k(start, &all);
    let mse = |w: &[f64], set: &[&Sample]| mean_squared_error(w, set.iter().copied(), k);
    // Strongest penalty first, each fit starting from the last one's weights.
    let mut w = start.to_vec();
    let mut best: Option<(f64, f64)> = None;
    if !held.is_empty() && !train.is_empty() {
        for &lambda in &LAMBDAS {
            w = newton(w, &train, k, start, scale, lambda, 12);
            let e = mse(&w, &held);
            if best.is_none_or(|b| e < b.0) {
                best = Some((e, lambda));
            }
        }
    }
    let (held_out_after, lambda) = best.unwrap_or((mse(start, &held), LAMBDAS[2]));
    let w = newton(start.to_vec(), &all, k, start, scale, lambda, 20);
    let n = layout.kinds;
    let squares = if layout.squares {
        (0..n)
            .map(|t| {
                (0..layout.positions)
                    .map(|f| w[layout.square(t, f)])
                    .collect()
            })
            .collect()
    } else {
        vec![]
    };
    Tuned {
        values: w[..n].to_vec(),
        mobility: w[layout.mobility()],
        squares,
        k,
        lambda,
        positions: samples.len(),
        error_before: mse(start, &all),
        error_after: mse(&w, &all),
        held_out_before: mse(start, &held),
        held_out_after,
        results: results(samples),
    }
}

/// The games of the samples won, drawn and lost by the first player.
fn results(samples: &[Sample]) -> [u32; 3] {
    let mut r = [0; 3];
    let mut last = None;
    for s in samples {
        if last != Some(s.game) {
            last = Some(s.game);
            r[if s.result > 0.75 {
                0
            } else if s.result > 0.25 {
                1
            } else {
                2
            }] += 1;
        }
    }
    r
}

/// The starting weights (the game's own values, the default mobility weight, no piece-square terms) and the
/// scale of each weight's penalty: the cheapest piece for values and squares, a tenth of it for mobility.
pub fn start_and_scale(engine: &Engine, layout: &Layout) -> (Vec<f64>, Vec<f64>) {
    let eval = Evaluator::new(engine, Weights::default());
    let unit = eval
        .values
        .iter()
        .copied()
        .filter(|&v| v > 0.0)
        .fold(f64::INFINITY, f64::min);
    let unit = if unit.is_finite() { unit } else { 1.0 };
    let mut start = vec![0.0; layout.len()];
    start[..layout.kinds].copy_from_slice(&eval.values);
    start[layout.mobility()] = Weights::default().mobility;
    let mut scale = vec![unit; layout.len()];
    scale[layout.mobility()] = unit / 10.0;
    (start, scale)
}

/// Self-play, then the fit.
pub fn tune(engine: &Engine, o: &TuneOptions) -> Result<Tuned, EngineError> {
    let samples = self_play(engine, o)?;
    if samples.is_empty() {
        return Err(EngineError(
            "tune: the self-play games gave no quiet position".into(),
        ));
    }
    let layout = Layout::of(engine, o.squares);
    let (start, scale) = start_and_scale(engine, &layout);
    Ok(fit(&samples, &start, &scale, &layout))
}

/// The preset `dagaz tune` writes: an `alphabeta` bot with the fitted values, mobility weight and piece-square
/// terms.
pub fn preset(engine: &Engine, t: &Tuned, o: &TuneOptions, name: &str) -> String {
    let game = engine.game;
    let names: Vec<&str> = game.pieces.iter().map(|p| p.name.as_str()).collect();
    let values: Vec<String> = t.values.iter().map(|v| format!("{v:.4}")).collect();
    let mut text = format!(
        "# dagaz tune: {} self-play games of {} at depth {} ({} nodes a move), seed {}, {} random plies; the first player won {}, drew {}, lost {}; {} quiet positions\n\
         # mean squared error {:.5} -> {:.5}; on the held-out games {:.5} -> {:.5} (K {:.4}, penalty {})\n\
         # values, per piece type: {}\n\
         kind = \"alphabeta\"\n\
         name = \"{name}\"\n\
         values = [{}]\n\
         mobility = {:.5}\n",
        o.games,
        game.title,
        o.depth,
        o.nodes,
        o.seed,
        o.opening_plies,
        t.results[0],
        t.results[1],
        t.results[2],
        t.positions,
        t.error_before,
        t.error_after,
        t.held_out_before,
        t.held_out_after,
        t.k,
        t.lambda,
        names.join(", "),
        values.join(", "),
        t.mobility
    );
    if !t.squares.is_empty() {
        let order: Vec<&str> = game
            .board
            .positions
            .iter()
            .map(|p| p.name.as_str())
            .collect();
        text.push_str(&format!(
            "# squares: one row per piece type (as values), one value per position as the first player sees the board:\n# {}\nsquares = [\n",
            order.join(" ")
        ));
        for (row, name) in t.squares.iter().zip(&names) {
            let cells: Vec<String> = row.iter().map(|v| format!("{v:.3}")).collect();
            text.push_str(&format!("  [{}], # {name}\n", cells.join(", ")));
        }
        text.push_str("]\n");
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bot::testgames::*;

    /// Outcomes drawn from a known logistic model: `K * eval` with K = 1 and weights 2 and 1 for two counts and
    /// 0.5 for a square-like 0/1 feature, the start's weights 1, 1, 0.
    fn synthetic(n: usize, seed: u64) -> Vec<Sample> {
        let mut rng = game_rng(seed, 0);
        (0..n)
            .map(|i| {
                let a = below(&mut rng, 5) as f64 - 2.0;
                let b = below(&mut rng, 5) as f64 - 2.0;
                let c = below(&mut rng, 3) as f64 - 1.0;
                let p = sigmoid(2.0 * a + 1.0 * b + 0.5 * c);
                let r = (below(&mut rng, 1_000_000) as f64) < p * 1e6;
                Sample {
                    features: vec![(0, a), (1, b), (2, 0.0), (3, c)]
                        .into_iter()
                        .filter(|e| e.1 != 0.0)
                        .collect(),
                    result: r as u8 as f64,
                    game: i as u32,
                }
            })
            .collect()
    }

    /// The fit recovers the known weights (times the fitted K: the scale is the start's), and lowers the
    /// error on held-out games.
    #[test]
    fn the_fit_recovers_known_weights() {
        let samples = synthetic(20_000, 7);
        let layout = Layout {
            kinds: 2,
            positions: 1,
            squares: true,
        };
        // Values of 2 types, mobility, then one square per type (the features' index 3 is the first type's).
        let start = [1.0, 1.0, 0.0, 0.0, 0.0];
        let scale = [1.0, 1.0, 0.1, 1.0, 1.0];
        let t = fit(&samples, &start, &scale, &layout);
        assert!(t.error_after < t.error_before, "{t:?}");
        assert!(t.held_out_after < t.held_out_before, "{t:?}");
        let got = [t.k * t.values[0], t.k * t.values[1], t.k * t.squares[0][0]];
        for (g, want) in got.iter().zip([2.0, 1.0, 0.5]) {
            assert!((g - want).abs() < 0.12, "{got:?} {t:?}");
        }
        // The mobility feature and the second type's square never occur: their weights stay at their start.
        assert_eq!(t.mobility, 0.0, "{t:?}");
        assert_eq!(t.squares[1][0], 0.0, "{t:?}");
        // Deterministic.
        let again = fit(&samples, &start, &scale, &layout);
        assert_eq!(format!("{t:?}"), format!("{again:?}"));
    }

    /// A strong penalty keeps the weights at the start; none lets the data decide.
    #[test]
    fn the_penalty_pulls_towards_the_start() {
        let samples = synthetic(5000, 3);
        let refs: Vec<&Sample> = samples.iter().collect();
        let start = [1.0, 1.0, 0.0, 0.0];
        let scale = [1.0; 4];
        let strong = newton(start.to_vec(), &refs, 1.0, &start, &scale, 100.0, 20);
        for (a, b) in strong.iter().zip(&start) {
            assert!((a - b).abs() < 0.01, "{strong:?}");
        }
        let weak = newton(start.to_vec(), &refs, 1.0, &start, &scale, 1e-9, 20);
        assert!((weak[0] - 2.0).abs() < 0.2, "{weak:?}");
    }

    #[test]
    fn cholesky_solves_a_known_system() {
        // [[4, 2], [2, 3]] x = [2, 5] has x = [-0.5, 2].
        let x = solve_spd(vec![4.0, 2.0, 2.0, 3.0], vec![2.0, 5.0], 2).unwrap();
        assert!(
            (x[0] + 0.5).abs() < 1e-12 && (x[1] - 2.0).abs() < 1e-12,
            "{x:?}"
        );
        assert!(solve_spd(vec![1.0, 2.0, 2.0, 1.0], vec![1.0, 1.0], 2).is_none());
    }

    /// Self-play on a small Breakthrough gives quiet positions with results, and a preset the bots read back
    /// with the same numbers.
    #[test]
    fn tune_writes_a_preset_the_bots_read() {
        let game = breakthrough(5);
        let engine = Engine::new(&game);
        let o = TuneOptions {
            games: 10,
            depth: 1,
            ..Default::default()
        };
        let t = tune(&engine, &o).unwrap();
        assert!(t.positions > 20, "{t:?}");
        assert_eq!(t.values.len(), game.pieces.len());
        assert_eq!(t.squares.len(), game.pieces.len());
        assert!(t
            .squares
            .iter()
            .all(|r| r.len() == game.board.positions.len()));
        let text = preset(&engine, &t, &o, "tuned");
        let spec = crate::bot::BotSpec::from_toml(&text, "x").unwrap();
        let crate::bot::BotSpec::Alphabeta(c) = &spec else {
            panic!("{spec:?}")
        };
        for (a, b) in c.values.iter().zip(&t.values) {
            assert!((a - b).abs() < 1e-4, "{a} {b}");
        }
        assert!((c.mobility - t.mobility).abs() < 1e-5);
        for (ra, rb) in c.squares.iter().zip(&t.squares) {
            for (a, b) in ra.iter().zip(rb) {
                assert!((a - b).abs() < 1e-3, "{a} {b}");
            }
        }
        let mut bot = spec.build().unwrap();
        let s = engine.initial();
        let moves = engine.legal_moves(&s).unwrap();
        bot.choose(&engine, &s, &moves, &[], &mut game_rng(1, 0))
            .unwrap();
        // Values for another number of piece types, or a row of squares of another length, are refused with an
        // error naming the key, not a panic.
        let wrong = AlphaBetaConfig {
            values: vec![1.0; game.pieces.len() + 1],
            ..Default::default()
        };
        let e = AlphaBetaBot::new("w", wrong).choose(&engine, &s, &moves, &[], &mut game_rng(1, 0));
        assert!(e.is_err());
        let mut rows = t.squares.clone();
        rows[0].pop();
        let wrong = AlphaBetaConfig {
            squares: rows,
            ..Default::default()
        };
        let e = AlphaBetaBot::new("w", wrong)
            .choose(&engine, &s, &moves, &[], &mut game_rng(1, 0))
            .unwrap_err()
            .to_string();
        assert!(e.contains("`squares` row 1"), "{e}");
    }

    /// A preset file with a bad `squares` entry is refused with the file, line and column.
    #[test]
    fn a_bad_preset_file_names_its_place() {
        let dir = crate::test_scratch::Scratch::new("tune");
        let path = dir.join("bad.toml");
        std::fs::write(
            &path,
            "kind = \"alphabeta\"\nvalues = [1.0, 2.0]\nsquares = [\n  [0.1, 0.2],\n  [0.3, \"x\"],\n]\n",
        )
        .unwrap();
        let e = crate::bot::BotSpec::load(&path).unwrap_err();
        assert!(e.contains("bad.toml"), "{e}");
        assert!(e.contains("line 5"), "{e}");
        std::fs::remove_dir_all(&dir).ok();
    }

    /// The same seed gives the same positions and results.
    #[test]
    fn self_play_is_deterministic() {
        let game = breakthrough(5);
        let engine = Engine::new(&game);
        let o = TuneOptions {
            games: 4,
            depth: 2,
            ..Default::default()
        };
        let a = self_play(&engine, &o).unwrap();
        let b = self_play(&engine, &o).unwrap();
        assert_eq!(format!("{a:?}"), format!("{b:?}"));
        assert!(!a.is_empty());
    }
}
