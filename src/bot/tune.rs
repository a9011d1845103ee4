//! `dagaz tune`: the evaluation's piece values and mobility weight fitted to the outcomes of self-play games
//! (Texel's method).
//!
//! Alpha-beta plays the game against itself from openings of a few random plies; every position past the
//! opening is kept with the game's result for the first player. A position's features are, per piece type,
//! the first player's pieces less the second's (on the board and in reserve) and its legal moves less the
//! second's. The evaluation is their weighted sum (the piece values and the mobility weight); the predicted
//! score is `1 / (1 + exp(-K * eval))`. `K` is fitted first with the game's own values (its declared
//! `(value N)` or the estimate from mobility), then the weights by gradient descent on the mean squared error
//! between the predicted score and the result (1 win, 1/2 draw, 0 loss). Two-player games without random
//! players only.

use super::alphabeta::{AlphaBetaBot, AlphaBetaConfig};
use super::eval::{Evaluator, Weights};
use super::Bot;
use crate::engine::playout::{below, game_rng};
use crate::engine::{Engine, EngineError};

/// How to tune.
#[derive(Clone, Debug)]
pub struct TuneOptions {
    pub games: u32,
    /// The self-play bots' depth.
    pub depth: u32,
    pub seed: u64,
    /// Random plies at the start of each game (so that the games differ).
    pub opening_plies: u32,
    /// Games longer than this count as draws.
    pub max_plies: u32,
    /// Gradient-descent steps.
    pub steps: u32,
}

impl Default for TuneOptions {
    fn default() -> Self {
        TuneOptions {
            games: 200,
            depth: 2,
            seed: 1,
            opening_plies: 4,
            max_plies: 300,
            steps: 2000,
        }
    }
}

/// One position's features (piece-count differences per type, then the mobility difference) and the result
/// of its game for the first player.
#[derive(Clone, Debug)]
pub struct Sample {
    pub features: Vec<f64>,
    pub result: f64,
}

/// What tuning found.
#[derive(Clone, Debug)]
pub struct Tuned {
    /// Per piece type.
    pub values: Vec<f64>,
    pub mobility: f64,
    /// The scale of the logistic.
    pub k: f64,
    pub positions: usize,
    /// Mean squared error with the starting weights and with the fitted ones.
    pub error_before: f64,
    pub error_after: f64,
}

/// The self-play games' positions with their results.
pub fn self_play(engine: &Engine, o: &TuneOptions) -> Result<Vec<Sample>, EngineError> {
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
    let eval = Evaluator::new(engine, Weights::default());
    let config = AlphaBetaConfig {
        depth: o.depth,
        quiescence: 2,
        nodes: Some(20_000),
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
        for ply in 0..o.max_plies {
            let moves = engine.legal_moves(&s)?;
            if let Some(out) = engine.outcome(&s, &moves, &history)? {
                result = (out.results[0] as f64 + 1.0) / 2.0;
                break;
            }
            let i = if ply < o.opening_plies || engine.is_chance(&s) {
                below(&mut rng, moves.len())
            } else {
                features.push(position_features(engine, &eval, &s, moves.len())?);
                let p = engine.to_move(&s).idx();
                bots[p]
                    .choose(engine, &s, &moves, &history, &mut rng)
                    .map_err(|e| EngineError(format!("tune: self-play: {e}")))?
            };
            history.push(s.key());
            s = engine.apply(&s, &moves[i]);
        }
        samples.extend(
            features
                .into_iter()
                .map(|features| Sample { features, result }),
        );
    }
    Ok(samples)
}

/// The first player's pieces less the second's per type, then its legal moves less the second's.
fn position_features(
    engine: &Engine,
    eval: &Evaluator,
    s: &crate::engine::State,
    moves: usize,
) -> Result<Vec<f64>, EngineError> {
    let n = engine.game.pieces.len();
    let mut f = vec![0.0; n + 1];
    // Material with a value of 1 for one type at a time counts that type's pieces.
    let mut unit = Evaluator {
        values: vec![0.0; n],
        weights: Weights::default(),
    };
    for (t, x) in f.iter_mut().take(n).enumerate() {
        unit.values.fill(0.0);
        unit.values[t] = 1.0;
        let m = unit.material(engine.game, s);
        *x = m[0] - m[1];
    }
    let mob = eval.mobility_counted(engine, s, moves)?;
    f[n] = mob[0] - mob[1];
    Ok(f)
}

fn predict(w: &[f64], x: &[f64], k: f64) -> f64 {
    let e: f64 = w.iter().zip(x).map(|(a, b)| a * b).sum();
    1.0 / (1.0 + (-k * e).exp())
}

fn error(w: &[f64], samples: &[Sample], k: f64) -> f64 {
    let sum: f64 = samples
        .iter()
        .map(|s| (predict(w, &s.features, k) - s.result).powi(2))
        .sum();
    sum / samples.len().max(1) as f64
}

/// Fits the weights (piece values, then the mobility weight) to the samples, starting from `start`.
pub fn fit(samples: &[Sample], start: &[f64], steps: u32) -> Tuned {
    let n = start.len();
    // K: the best of a log-spaced grid for the starting weights.
    let mut k = 1.0;
    let mut best = f64::INFINITY;
    for i in -40..=20 {
        let c = 10f64.powf(i as f64 / 10.0);
        let e = error(start, samples, c);
        if e < best {
            best = e;
            k = c;
        }
    }
    let error_before = error(start, samples, k);
    // Gradient descent with Adam's step sizes; the scale of each weight's steps follows the starting values.
    let mut w = start.to_vec();
    let scale: Vec<f64> = start.iter().map(|v| v.abs().max(0.05)).collect();
    let (mut m, mut v) = (vec![0.0; n], vec![0.0; n]);
    let (b1, b2, lr) = (0.9f64, 0.999f64, 0.01);
    let mut best_w = w.clone();
    let mut best_e = error_before;
    for step in 1..=steps {
        let mut g = vec![0.0; n];
        for s in samples {
            let p = predict(&w, &s.features, k);
            let d = 2.0 * (p - s.result) * p * (1.0 - p) * k;
            for (gi, x) in g.iter_mut().zip(&s.features) {
                *gi += d * x;
            }
        }
        for j in 0..n {
            let gj = g[j] / samples.len().max(1) as f64;
            m[j] = b1 * m[j] + (1.0 - b1) * gj;
            v[j] = b2 * v[j] + (1.0 - b2) * gj * gj;
            let mh = m[j] / (1.0 - b1.powi(step as i32));
            let vh = v[j] / (1.0 - b2.powi(step as i32));
            w[j] -= lr * scale[j] * mh / (vh.sqrt() + 1e-12);
        }
        let e = error(&w, samples, k);
        if e < best_e {
            best_e = e;
            best_w.clone_from(&w);
        }
    }
    Tuned {
        values: best_w[..n - 1].to_vec(),
        mobility: best_w[n - 1],
        k,
        positions: samples.len(),
        error_before,
        error_after: best_e,
    }
}

/// Self-play, then the fit, from the game's own values and the default mobility weight.
pub fn tune(engine: &Engine, o: &TuneOptions) -> Result<Tuned, EngineError> {
    let samples = self_play(engine, o)?;
    if samples.is_empty() {
        return Err(EngineError(
            "tune: the self-play games gave no position".into(),
        ));
    }
    let eval = Evaluator::new(engine, Weights::default());
    let mut start = eval.values.clone();
    start.push(Weights::default().mobility);
    Ok(fit(&samples, &start, o.steps))
}

/// The preset `dagaz tune` writes: an `alphabeta` bot with the fitted values and mobility weight.
pub fn preset(engine: &Engine, t: &Tuned, o: &TuneOptions, name: &str) -> String {
    let names: Vec<&str> = engine.game.pieces.iter().map(|p| p.name.as_str()).collect();
    let values: Vec<String> = t.values.iter().map(|v| format!("{v:.4}")).collect();
    format!(
        "# dagaz tune: {} self-play games of {} at depth {}, seed {}; {} positions; mean squared error {:.5} -> {:.5} (K {:.4})\n\
         # values, per piece type: {}\n\
         kind = \"alphabeta\"\n\
         name = \"{name}\"\n\
         values = [{}]\n\
         mobility = {:.5}\n",
        o.games,
        engine.game.title,
        o.depth,
        o.seed,
        t.positions,
        t.error_before,
        t.error_after,
        t.k,
        names.join(", "),
        values.join(", "),
        t.mobility
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bot::testgames::*;

    /// On outcomes drawn from a known logistic model (2 per piece of the first type, 1 of the second), the
    /// fit recovers the ratio of the values and lowers the error.
    #[test]
    fn the_fit_recovers_known_weights() {
        let mut rng = game_rng(7, 0);
        let mut samples = vec![];
        for _ in 0..4000 {
            let a = below(&mut rng, 5) as f64 - 2.0;
            let b = below(&mut rng, 5) as f64 - 2.0;
            let p = 1.0 / (1.0 + (-(2.0 * a + 1.0 * b)).exp());
            let r = (below(&mut rng, 1_000_000) as f64) < p * 1e6;
            samples.push(Sample {
                features: vec![a, b, 0.0],
                result: r as u8 as f64,
            });
        }
        let t = fit(&samples, &[1.0, 1.0, 0.05], 3000);
        assert!(t.error_after < t.error_before, "{t:?}");
        let ratio = t.values[0] / t.values[1];
        assert!((ratio - 2.0).abs() < 0.3, "{t:?}");
    }

    /// Self-play on a small Breakthrough gives positions with results, and a preset the bots read.
    #[test]
    fn tune_writes_a_preset_the_bots_read() {
        let game = breakthrough(5);
        let engine = Engine::new(&game);
        let o = TuneOptions {
            games: 6,
            depth: 1,
            steps: 200,
            ..Default::default()
        };
        let t = tune(&engine, &o).unwrap();
        assert!(t.positions > 20, "{t:?}");
        assert!(
            t.values.iter().chain([&t.mobility]).all(|v| v.is_finite()),
            "{t:?}"
        );
        assert_eq!(t.values.len(), game.pieces.len());
        let text = preset(&engine, &t, &o, "tuned");
        let spec = crate::bot::BotSpec::from_toml(&text, "x").unwrap();
        let mut bot = spec.build().unwrap();
        let s = engine.initial();
        let moves = engine.legal_moves(&s).unwrap();
        bot.choose(&engine, &s, &moves, &[], &mut game_rng(1, 0))
            .unwrap();
        // Values for another number of piece types are refused with an error, not a panic.
        let wrong = AlphaBetaConfig {
            values: vec![1.0; game.pieces.len() + 1],
            ..Default::default()
        };
        let e = AlphaBetaBot::new("w", wrong).choose(&engine, &s, &moves, &[], &mut game_rng(1, 0));
        assert!(e.is_err());
    }
}
