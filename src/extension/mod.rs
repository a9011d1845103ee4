//! Rust extension modules: rules a game file cannot say in the language (Go's group captures, mancala
//! sowing, the dice of backgammon), written as code beside the rules and named by the game, with
//! `(extension NAME)` in the file or `--extension NAME` on the command line.
//!
//! A module is a value implementing [`Extension`], registered by name in [`lookup`]. Every hook has a
//! default that does nothing, so a module writes only what it changes. The contract (`docs/extensions.md`):
//! a module's effects are actions in the moves it returns, never hidden changes of the state, so that
//! `apply` stays pure, a move carries its whole net effect, and notation, deduplication, hashing and perft
//! stay exact; a module is deterministic (the same state gives the same moves and outcome).
//!
//! The engine calls the hooks in [`Engine::initial`](crate::engine::Engine::initial) (`setup`),
//! [`Engine::legal_moves`](crate::engine::Engine::legal_moves) (`moves`, after the rules' own generation)
//! and [`Engine::outcome`](crate::engine::Engine::outcome) (`outcome`, before the file's own end
//! conditions). A game with no module pays one test of an empty slice per call.

pub mod adiuh_checkers;
pub mod alak;
pub mod backgammon;
mod columns;
pub mod connect_four;
pub mod go;
pub mod hex;
pub mod mancala;
pub mod stapeldammen;

use crate::compile::Game;
use crate::engine::{EngineError, Move, Outcome, State};

/// A named module of rules in Rust. Implementations are unit structs kept in statics (see [`lookup`]).
pub trait Extension: Send + Sync {
    /// The name a file or the command line uses (`connect-four`).
    fn name(&self) -> &'static str;

    /// One line on what the module plays, for `dagaz check` and the list of known modules.
    fn description(&self) -> &'static str {
        ""
    }

    /// Asked while the file is compiled, before its `board-setup` is resolved, for each position the setup
    /// names and the board lacks: `Some(why)` when the module accounts for that name (the piece is not
    /// placed, and a warning gives `why`); `None` leaves it an error. The modules asked are the file's own
    /// and the command line's (`--extension`).
    fn setup_position(&self, _name: &str) -> Option<&'static str> {
        None
    }

    /// Called once when the module is attached to a game, before `check`, with the game still open to
    /// change: declares what the module's moves need and the file lacks (the mancala modules add the
    /// integer attribute that counts a pit's seeds; `go` turns on `forbid-repetition simple-ko`, so that the
    /// state keeps the history ko needs; `alak` declares the variable of its ko cells). An `Err` is a load
    /// error naming the module.
    fn prepare(&self, _game: &mut Game) -> Result<(), String> {
        Ok(())
    }

    /// Called once when the module is attached to a game: whether the game has what the module needs (a
    /// direction, a piece type, a player count). An `Err` is a load error naming the module.
    fn check(&self, _game: &Game) -> Result<(), String> {
        Ok(())
    }

    /// Whether the module's game keeps columns of pieces (as if the file declared `(stacks)`): the state then
    /// has the column table from the start, and position texts may stack pieces (`crate::engine::stack`).
    fn stacks(&self) -> bool {
        false
    }

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

    /// The missing rules this module supplies, so that `Game::missing_rules` no longer lists them: an option
    /// or section name as the file writes it (`"ko"`, `"go-captures"`; matched regardless of case, dashes and
    /// underscores as spaces), or `"no-end-condition"` when the module decides the end of the game, `"stacked-setup"` when it reads a
    /// position the setup lists several times (backgammon's checker counts).
    fn covers(&self) -> &[&str] {
        &[]
    }

    /// A hint for bots: the value of `state` for `player` (positive is good), or `None` to let the bot use
    /// its own evaluation.
    fn evaluate(
        &self,
        _game: &Game,
        _state: &State,
        _player: crate::compile::Player,
    ) -> Option<f64> {
        None
    }
}

impl std::fmt::Debug for dyn Extension {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "extension {}", self.name())
    }
}

/// Every module, one line each. Add a module here (and a `pub mod` above) to register it.
static MODULES: &[&dyn Extension] = &[
    &backgammon::Backgammon,
    &connect_four::ConnectFour,
    &mancala::OWARE,
    &mancala::ALEMUNGULA,
    &mancala::Kalah,
    &mancala::MiniMancala,
    &mancala::Bakuk,
    &mancala::DAKON,
    &mancala::OHVALHU,
    &stapeldammen::Stapeldammen,
    &adiuh_checkers::AdiuhCheckers,
    &go::Go,
    &go::AtariGo,
    &hex::Hex,
    &alak::Alak,
];

/// The module registered under `name` (case-insensitive).
pub fn lookup(name: &str) -> Option<&'static dyn Extension> {
    MODULES
        .iter()
        .copied()
        .find(|m| m.name().eq_ignore_ascii_case(name.trim()))
}

/// The names of every registered module, for error messages.
pub fn known() -> Vec<&'static str> {
    MODULES.iter().map(|m| m.name()).collect()
}

/// The error for an unknown module name: one line listing the known ones.
pub fn unknown(name: &str) -> String {
    format!(
        "unknown extension module `{name}`; the known modules are: {}",
        known().join(", ")
    )
}

/// Attaches a module to a compiled game (the command line's `--extension`): runs its `check`, then drops
/// the missing rules it covers. A module the game already has is not added twice.
pub fn attach(game: &mut Game, name: &str) -> Result<(), String> {
    let m = lookup(name).ok_or_else(|| unknown(name))?;
    if game.extensions.iter().any(|e| e.name() == m.name()) {
        return Ok(());
    }
    m.prepare(game)
        .and_then(|()| m.check(game))
        .map_err(|e| format!("extension module `{}`: {e}", m.name()))?;
    game.extensions.push(m);
    drop_covered(game);
    Ok(())
}

/// Whether a missing rule is supplied by one of the game's modules.
pub fn is_covered(game: &Game, rule: &crate::compile::MissingRule) -> bool {
    let key = |s: &str| s.trim().to_ascii_lowercase().replace(['-', '_'], " ");
    let name = key(&rule.name);
    let kind = key(rule.kind.as_str());
    game.extensions.iter().any(|m| {
        m.covers().iter().any(|c| {
            let c = key(c);
            // A kind of rule that names no option (a game without an end condition, a setup of several
            // pieces on one position) is covered by the kind's name.
            (!name.is_empty() && c == name)
                || (matches!(
                    rule.kind,
                    crate::compile::MissingKind::NoEndCondition
                        | crate::compile::MissingKind::StackedSetup
                ) && c == kind)
        })
    })
}

/// Removes from `Game::missing_rules` what the game's modules supply.
pub fn drop_covered(game: &mut Game) {
    if game.extensions.is_empty() {
        return;
    }
    let rules = std::mem::take(&mut game.missing_rules);
    game.missing_rules = rules.into_iter().filter(|r| !is_covered(game, r)).collect();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_module_is_found_by_its_name_and_names_are_unique() {
        let names = known();
        for n in &names {
            assert_eq!(lookup(n).unwrap().name(), *n);
            assert_eq!(lookup(&n.to_uppercase()).unwrap().name(), *n);
        }
        let mut sorted = names.clone();
        sorted.sort();
        sorted.dedup();
        assert_eq!(sorted.len(), names.len());
        assert!(lookup("no-such-module").is_none());
        assert!(unknown("x").contains("connect-four"));
    }
}
