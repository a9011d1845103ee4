//! `stapeldammen`: Stapeldammen (column draughts on 10x10) as the Dagaz scripts `stapeldammen-extension`
//! and `stapeldammen-restrictions` play the corpus's `checkers/zrf/stapeldammen.zrf`, whose ZRF alone plays
//! plain checkers with single jumps. What the scripts add, as we read them:
//!
//! * a capture takes only the top piece of the jumped column and puts it at the bottom of the capturing
//!   column; the rest of the jumped column stays, commanded by its new top;
//! * after a capture, the same column captures again while it can, in any direction but straight back the
//!   way it came (the scripts give the player another turn restricted to that column); the same column may
//!   be jumped again later in the chain (its new top, if it is an enemy's): the loops of Stapeldammen;
//! * of one column's captures, those after which it can capture on are preferred to those that end there;
//! * a player who cannot move loses (the Dagaz default the file relies on: it has no end condition).
//!
//! A whole turn is one move (`super::columns`).

use super::columns::{expand, LegRules};
use crate::compile::Module;
use crate::compile::*;
use crate::engine::Hooks;
use crate::engine::{EngineError, Move, Outcome, State};

pub struct Stapeldammen;

impl Module for Stapeldammen {
    fn name(&self) -> &'static str {
        "stapeldammen"
    }

    fn description(&self) -> &'static str {
        "column draughts: a capture takes the top of a column under the capturer; a column captures on \
         while it can (not straight back), loops allowed; no move loses"
    }

    fn check(&self, game: &Game) -> Result<(), String> {
        if game.players.len() != 2 {
            return Err("Stapeldammen has two players".into());
        }
        Ok(())
    }

    fn stacks(&self) -> bool {
        true
    }

    fn covers(&self) -> &[&str] {
        &["no-end-condition"]
    }
}

impl Hooks for Stapeldammen {
    fn moves(&self, game: &Game, state: &State, moves: &mut Vec<Move>) -> Result<(), EngineError> {
        let rules = LegRules {
            flying: vec![],
            prefer_continuing: None,
            demote: None,
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
        let loser = game.turn_order.entries[state.turn()].player;
        Some(Outcome {
            results: (0..game.players.len())
                .map(|p| if p == loser.idx() { -1 } else { 1 })
                .collect(),
            end_type: "stalemated".into(),
            name: "no moves".into(),
            priority: 0,
        })
    }
}
