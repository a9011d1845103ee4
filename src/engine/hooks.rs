//! The engine's half of an extension module: the hooks [`Engine`](super::Engine) calls while playing. The
//! modules implement it in `crate::extension`; the engine imports none of them. A [`Game`] names its modules
//! (`Game::extensions`), and whoever builds the engine resolves the names to hooks (`Engine::new`, in
//! `crate::load`, through the registry of `crate::extension`; or [`Engine::with_hooks`](super::Engine::with_hooks)
//! with any resolver).
//!
//! The contract (`docs/extensions.md`): a module's effects are actions in the moves it returns, never hidden
//! changes of the state, so that `apply` stays pure, a move carries its whole net effect, and notation,
//! deduplication, hashing and perft stay exact; a module is deterministic (the same state gives the same
//! moves and outcome). Every hook has a default that does nothing, so a module writes only what it changes.
//! A game with no module pays one test of an empty slice per call.

use super::{EngineError, Move, Outcome, State};
use crate::compile::{Game, Player};

/// What the engine calls of an extension module: in [`Engine::initial`](super::Engine::initial) (`setup`),
/// [`Engine::legal_moves`](super::Engine::legal_moves) (`moves`, after the rules' own generation),
/// [`Engine::outcome`](super::Engine::outcome) (`outcome`, before the file's own end conditions), and the
/// bots' evaluation (`evaluate`).
pub trait Hooks: Send + Sync {
    /// Changes the start position (`Engine::initial`). The state's hash is recomputed after every module's
    /// setup, so a module may write cells, reserves and variables directly here.
    fn setup(&self, _game: &Game, _state: &mut State) {}

    /// Generates, rewrites or filters the complete legal moves of `state`, after the rules' own generation
    /// (and after the earlier modules). Every effect is an action in a move.
    fn moves(
        &self,
        _game: &Game,
        _state: &State,
        _moves: &mut Vec<Move>,
    ) -> Result<(), EngineError> {
        Ok(())
    }

    /// An end of the game the module decides, tested before the file's own end conditions: `moves` are the
    /// legal moves of `state` (after every module), `history` the keys of the earlier positions.
    fn outcome(
        &self,
        _game: &Game,
        _state: &State,
        _moves: &[Move],
        _history: &[u64],
    ) -> Option<Outcome> {
        None
    }

    /// Whether the moves of `state` are chance: a throw that the player to move makes but does not choose
    /// (Dagaz's race files, whose dice are drops of the player to move: the missing rule `mover-dice`). The
    /// callers then treat the state as a random (`?`) player's ([`Engine::is_chance`](super::Engine::is_chance)):
    /// a tournament picks one of the legal moves uniformly from the game's seeded stream instead of asking the
    /// bot, and the bots search the state as a chance node. A module that answers it lists the throws as the
    /// state's moves, one per outcome of equal chance (as `backgammon` lists 36 ordered pairs).
    fn chance(&self, _game: &Game, _state: &State) -> bool {
        false
    }

    /// A hint for bots: the value of `state` for `player` (positive is good), or `None` to let the bot use
    /// its own evaluation.
    fn evaluate(&self, _game: &Game, _state: &State, _player: Player) -> Option<f64> {
        None
    }

    /// Where the drops this module's [`Hooks::moves`] keeps may land in `state`: sets those positions' bits in
    /// `sites` (one bit a position, all clear on entry) and returns true; false (the default) restricts
    /// nothing. A position left clear must be one where `moves` would remove every drop landing there. Asked by
    /// the generation only where every drop program of the game lands where it starts (`gen::still_drop`) and
    /// the general path is not forced: the drops are then run from the set positions only (Connect Four's
    /// gravity: one position a column, not every empty one).
    fn drop_sites(&self, _game: &Game, _state: &State, _sites: &mut [u64]) -> bool {
        false
    }

    /// Whether this module's game may be listed into a move buffer with the module's rules kept: its
    /// [`Hooks::moves`] removes exactly the drops that land off the positions [`Hooks::drop_sites`] sets (and
    /// keeps every other move, in order), its [`Hooks::outcome`] reads of the moves only how many there are
    /// ([`Hooks::outcome_counted`] gives the same answer), and it answers no [`Hooks::chance`]. Where every
    /// module of a game says so, every drop lands where it starts and the game has no other rule over whole
    /// moves, the engine lists the moves into its buffer (the drops run from the sites only) and asks
    /// `outcome_counted` instead of `moves` and `outcome` (never on the general path).
    fn listed(&self) -> bool {
        false
    }

    /// [`Hooks::outcome`] given only how many legal moves `state` has (after every module): asked only of
    /// modules whose [`Hooks::listed`] holds.
    fn outcome_counted(
        &self,
        _game: &Game,
        _state: &State,
        _moves: usize,
        _history: &[u64],
    ) -> Option<Outcome> {
        None
    }
}

/// Finds the hooks of an extension module by its name (`Game::extensions`).
pub type Resolver<'a> = &'a dyn Fn(&str) -> Option<&'static dyn Hooks>;
