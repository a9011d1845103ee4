//! The rules of one variant, built once per run and shared by every game, thread and writer of it.
//!
//! [`Engine::new`] derives the engine's tables (count, sample and draughts plans, royal pieces, ...) from a
//! compiled [`Game`]. A tournament used to derive them again for every game; now [`Rules`] owns the game and
//! the engine built from it, and the run hands out `Arc<Rules>`: a game thread that outlives the run's wait
//! for it (an abandoned game) keeps them alive by its own reference.

use crate::compile::Game;
use crate::engine::Engine;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

/// Rules objects built so far in this process ([`builds`]).
static BUILDS: AtomicU64 = AtomicU64::new(0);

/// A compiled game and the engine derived from it.
pub struct Rules {
    // Declared before `game`, so dropped before it: the engine borrows the game.
    engine: Engine<'static>,
    game: Arc<Game>,
}

impl Rules {
    /// Derives the engine of `game` (the one place a run does so).
    pub fn new(game: Arc<Game>) -> Rules {
        BUILDS.fetch_add(1, Ordering::Relaxed);
        // SAFETY: the game lives on the heap behind an `Arc` that this object owns and never hands out
        // mutably, so it stays at this address, unchanged, for as long as `engine` exists (the field order
        // drops `engine` first). The `'static` never escapes: [`Rules::engine`] lends the engine for the
        // borrow of `self` only.
        let game_ref: &'static Game = unsafe { &*Arc::as_ptr(&game) };
        Rules {
            engine: Engine::new(game_ref),
            game,
        }
    }

    /// The engine, borrowed for as long as these rules are.
    pub fn engine(&self) -> &Engine<'_> {
        &self.engine
    }

    pub fn game(&self) -> &Game {
        &self.game
    }

    /// The shared game (for callers that keep a [`Game`] of their own).
    pub fn game_arc(&self) -> &Arc<Game> {
        &self.game
    }
}

/// The number of [`Rules`] built in this process so far: a tournament builds one per variant, whatever its
/// number of games, threads and output files (`tests/rules_once.rs`).
pub fn builds() -> u64 {
    BUILDS.load(Ordering::Relaxed)
}

// The games of a run are played on many threads at once.
const _: fn() = || {
    fn shared<T: Send + Sync>() {}
    shared::<Rules>();
};
