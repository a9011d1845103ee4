//! `games/connect-four.zrf` and its disc, for the Connect Four tests that build boards by hand
//! (`tests/connect_four_lines.rs`, `tests/connect_four_sites.rs`).
#![allow(dead_code)]

use dagaz::compile::{Game, PieceType, Player};
use dagaz::engine::state::Piece;

/// The game, its first variant.
pub fn connect_four() -> Game {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("games/connect-four.zrf");
    dagaz::load::load_game(&path, &dagaz::load::VariantSel::First).expect("Connect Four")
}

/// A disc of player `owner` (0 or 1).
pub fn disc(owner: usize) -> Piece {
    Piece {
        kind: PieceType(0),
        owner: Player(owner as u8),
        attrs: Default::default(),
        dead: false,
    }
}
