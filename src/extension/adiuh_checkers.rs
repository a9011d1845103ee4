//! `adiuh-checkers`: Adiuh checkers as the Dagaz scripts `columns-checkers-extension`,
//! `adiuh-checkers-extension`, `adiuh-checkers-restriction` and `adiuh-checkers-goal` play the corpus's
//! `checkers/zrf/adiuh-checkers.zrf` (its three boards), whose ZRF alone plays single jumps that remove
//! pieces and has no end. What the scripts add, as we read them:
//!
//! * columns: a capture takes only the top piece of the jumped column and puts it at the bottom of the
//!   capturing column (at once); a promoted top keeps the pieces under it;
//! * after a capture, if the column could capture again (a king, or a man that has just reached the far row
//!   and is crowned, flies to its victim) in any direction but straight back, the same player moves the same
//!   column again, with any of its moves (the file has no move priorities: a man may then also step), never
//!   straight back toward where the capture came from;
//! * of a king's captures, those after which it can capture on are preferred to those that end there;
//! * a king is a king only while it captures: when its capture ends off the far row, it becomes a man again
//!   (the file gives the king no quiet move);
//! * the game ends when the player to move has no move; then the pieces (every piece of every column) on
//!   each half of the board are counted: more on the half where Black starts wins for White, more on White's
//!   half wins for Black, equal is a draw.
//!
//! A whole turn is one move (`super::columns`).

use super::columns::{expand, LegRules};
use crate::compile::Module;
use crate::compile::*;
use crate::engine::Hooks;
use crate::engine::{EngineError, Move, Outcome, State};

pub struct AdiuhCheckers;

fn types(game: &Game) -> Option<(PieceType, PieceType, ZoneId)> {
    Some((
        game.piece_type("King")?,
        game.piece_type("Man")?,
        game.board.zone("promotion")?,
    ))
}

/// Whether a position lies on the upper half of the board as drawn (where Black starts): by its screen
/// rectangle where the file gives one, else by its place in the file's order (the upper rows first).
fn upper_half(game: &Game, pos: Pos) -> bool {
    let ys: Vec<i32> = game
        .board
        .positions
        .iter()
        .filter(|p| !p.dummy)
        .filter_map(|p| p.rect.map(|r| r[1] + r[3]))
        .collect();
    match (
        game.board.positions[pos.idx()].rect,
        ys.iter().min(),
        ys.iter().max(),
    ) {
        (Some(r), Some(lo), Some(hi)) => (r[1] + r[3]) * 2 < lo + hi,
        _ => pos.idx() * 2 < game.board.positions.len(),
    }
}

impl Module for AdiuhCheckers {
    fn name(&self) -> &'static str {
        "adiuh-checkers"
    }

    fn description(&self) -> &'static str {
        "column checkers: a capture takes the top of a column under the capturer; a column that can capture \
         on moves again (not straight back); kings only while capturing; no move ends the game, counted by halves"
    }

    fn check(&self, game: &Game) -> Result<(), String> {
        if game.players.len() != 2 {
            return Err("Adiuh checkers has two players".into());
        }
        types(game)
            .map(|_| ())
            .ok_or_else(|| "the game needs piece types Man and King and a zone `promotion`".into())
    }

    fn stacks(&self) -> bool {
        true
    }

    fn covers(&self) -> &[&str] {
        &["no-end-condition"]
    }
}

impl Hooks for AdiuhCheckers {
    fn moves(&self, game: &Game, state: &State, moves: &mut Vec<Move>) -> Result<(), EngineError> {
        let Some((king, man, zone)) = types(game) else {
            return Ok(());
        };
        let rules = LegRules {
            flying: vec![king],
            prefer_continuing: Some(vec![king]),
            demote: Some((king, man, zone)),
        };
        expand(game, state, &rules, moves)
    }

    fn outcome(
        &self,
        game: &Game,
        state: &State,
        moves: &[Move],
        _history: &[u64],
    ) -> Option<Outcome> {
        if !moves.is_empty() {
            return None;
        }
        let (mut upper, mut lower) = (0, 0);
        for (i, c) in state.cells().iter().enumerate() {
            if c.is_some() {
                let p = Pos(i as u16);
                let n = state.height(p);
                if upper_half(game, p) {
                    upper += n;
                } else {
                    lower += n;
                }
            }
        }
        // The first player (White) gains by pieces on the upper half, Black's side.
        let first = match upper.cmp(&lower) {
            std::cmp::Ordering::Greater => 1,
            std::cmp::Ordering::Less => -1,
            std::cmp::Ordering::Equal => 0,
        };
        Some(Outcome {
            results: (0..game.players.len())
                .map(|p| if p == 0 { first } else { -first })
                .collect(),
            end_type: "stalemated".into(),
            name: "no moves, pieces by halves".into(),
            priority: 0,
        })
    }
}
