//! Rust extension modules: rules a game file cannot say in the language (Go's group captures, mancala
//! sowing, the dice of backgammon and Long Nardy), written as code beside the rules and named by the game, with
//! `(extension NAME)` in the file or `--extension NAME` on the command line.
//!
//! A module is a value implementing both halves of [`Extension`]: [`Module`], what the compiler needs to
//! know of it (defined in `crate::compile`, which imports no module), and [`Hooks`], what the engine calls
//! while playing (defined in `crate::engine`, which imports no module either). Modules are registered by
//! name in `MODULES`; a compiled game names its modules, and [`crate::load`] resolves the names: the
//! compiler is handed [`modules`], the engine [`hooks`]. So the imports go one way: extension -> engine ->
//! compile. The contract (`docs/extensions.md`): a module's effects are actions in the moves it returns,
//! never hidden changes of the state, so that `apply` stays pure, a move carries its whole net effect, and
//! notation, deduplication, hashing and perft stay exact; a module is deterministic (the same state gives the
//! same moves and outcome). Every hook has a default that does nothing, so a module writes only what it
//! changes.

pub mod adiuh_checkers;
pub mod alak;
pub mod backgammon;
mod columns;
pub mod connect_four;
pub mod go;
pub mod hex;
pub mod long_nardy;
pub mod mancala;
pub mod stapeldammen;
pub mod tables;
pub mod tchuka_ruma;

use crate::compile::{Game, Module};
use crate::engine::Hooks;

/// A whole module: its compile-time half and its hooks. Implemented for every type with both.
pub trait Extension: Module + Hooks {}

impl<T: Module + Hooks> Extension for T {}

/// Every module, one line each. Add a module here (and a `pub mod` above) to register it.
static MODULES: &[&dyn Extension] = &[
    &backgammon::BACKGAMMON,
    &long_nardy::LONG_NARDY,
    &long_nardy::LONG_NARDY_NARROW_HEAD,
    &connect_four::ConnectFour,
    &mancala::OWARE,
    &mancala::ALEMUNGULA,
    &mancala::Kalah,
    &mancala::MiniMancala,
    &mancala::Bakuk,
    &mancala::DAKON,
    &mancala::OHVALHU,
    &tchuka_ruma::TchukaRuma,
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

/// Every registered module's compile-time half, for the compiler (`compile::compile_with`).
pub fn modules() -> Vec<&'static dyn Module> {
    MODULES.iter().map(|&m| m as &dyn Module).collect()
}

/// The hooks of the module registered under `name`, for the engine (`Engine::with_hooks`).
pub fn hooks(name: &str) -> Option<&'static dyn Hooks> {
    lookup(name).map(|m| m as &dyn Hooks)
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
    crate::compile::extension::attach(game, m)
}

/// Whether a missing rule is supplied by one of the game's modules.
pub fn is_covered(game: &Game, rule: &crate::compile::MissingRule) -> bool {
    crate::compile::extension::is_covered(game, rule)
}

/// Removes from `Game::missing_rules` what the game's modules supply.
pub fn drop_covered(game: &mut Game) {
    crate::compile::extension::drop_covered(game)
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
