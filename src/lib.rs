//! dagaz: an engine for abstract board games whose rules are written in ZRF, the rules language of Zillions of
//! Games, plus this project's extensions. Its main job is a headless tournament runner.
//!
//! The pipeline: [`lang`] reads a `.zrf` file into expanded sections per game, [`compile`] turns one of them
//! into an immutable [`Game`], and [`load`] ties the two together:
//!
//! ```
//! use dagaz::load::{load_game, VariantSel};
//! let game = load_game(std::path::Path::new("games/breakthrough.zrf"), &VariantSel::First);
//! # let _ = game;
//! ```

pub mod bot;
pub mod check;
pub mod cli;
pub mod compile;
pub mod engine;
pub mod evaluate;
pub mod extension;
pub mod lang;
pub mod load;
pub mod session;

/// The unit tests' scratch folders, removed when the test ends: the integration tests' helper.
#[cfg(test)]
#[path = "../tests/common/scratch.rs"]
pub(crate) mod test_scratch;

pub use bot::{Bot, BotSpec};
pub use compile::Game;
pub use engine::{Move, State};
pub mod tournament;
