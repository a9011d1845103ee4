//! The compiler: the expanded sections of one game or variant to an immutable [`Game`].

pub mod board;
pub mod game;

pub use game::*;
