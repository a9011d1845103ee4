//! Uniform random playouts: the building block of the `playout` command, MCTS and throughput benchmarks.

use super::{Engine, EngineError, Outcome};
use rand_chacha::ChaCha8Rng;
use rand_core::{RngCore, SeedableRng};

/// A uniform integer below `n` (n > 0), without modulo bias.
pub fn below(rng: &mut impl RngCore, n: usize) -> usize {
    let n = n as u64;
    let zone = u64::MAX - u64::MAX % n;
    loop {
        let x = rng.next_u64();
        if x < zone {
            return (x % n) as usize;
        }
    }
}

/// The seeded random stream of one game: derived from a run seed and a game index, never from a thread.
pub fn game_rng(seed: u64, game: u64) -> ChaCha8Rng {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    rng.set_stream(game);
    rng
}

/// How a random game went.
#[derive(Clone, Debug)]
pub struct PlayoutResult {
    pub plies: u32,
    /// `None` when the ply cap was reached (a draw of type `move-limit`).
    pub outcome: Option<Outcome>,
    /// Legal moves summed over the positions where a move was chosen (for the branching factor).
    pub moves_seen: u64,
}

/// Plays uniformly random moves from the start until the game ends or `max_plies` are played.
pub fn random_game(
    engine: &Engine,
    rng: &mut impl RngCore,
    max_plies: u32,
) -> Result<PlayoutResult, EngineError> {
    if engine.flat() {
        return random_game_listed(engine, rng, max_plies);
    }
    let mut s = engine.initial();
    let mut history = Vec::with_capacity(max_plies as usize + 1);
    let mut moves_seen = 0;
    loop {
        let moves = engine.legal_moves(&s)?;
        if let Some(o) = engine.outcome(&s, &moves, &history)? {
            return Ok(PlayoutResult {
                plies: s.ply,
                outcome: Some(o),
                moves_seen,
            });
        }
        if s.ply >= max_plies {
            return Ok(PlayoutResult {
                plies: s.ply,
                outcome: None,
                moves_seen,
            });
        }
        moves_seen += moves.len() as u64;
        history.push(s.key());
        let m = &moves[below(rng, moves.len())];
        engine.play(&mut s, m);
    }
}

/// [`random_game`] on a move buffer reused from ply to ply (games where `Engine::flat` holds): the same moves
/// in the same order, so the same games, with nothing allocated per ply.
fn random_game_listed(
    engine: &Engine,
    rng: &mut impl RngCore,
    max_plies: u32,
) -> Result<PlayoutResult, EngineError> {
    let mut s = engine.initial();
    let mut history = Vec::with_capacity(max_plies as usize + 1);
    let mut moves_seen = 0;
    let mut moves = super::MoveList::new();
    // Composite moves stay handles until one is chosen.
    moves.lazy = true;
    loop {
        engine.legal_into(&s, &mut moves)?;
        if let Some(o) = engine.outcome_of_list(&s, &moves, &history)? {
            return Ok(PlayoutResult {
                plies: s.ply,
                outcome: Some(o),
                moves_seen,
            });
        }
        if s.ply >= max_plies {
            return Ok(PlayoutResult {
                plies: s.ply,
                outcome: None,
                moves_seen,
            });
        }
        moves_seen += moves.len() as u64;
        history.push(s.key());
        let i = below(rng, moves.len());
        let i = engine.resolve(&s, &mut moves, i)?;
        engine.play_listed(&mut s, &moves, i);
    }
}
