//! `hex`: the rules of Hex that the corpus's `arrange/zrf/hex.zrf` leaves to Dagaz scripts (`hex-goal`,
//! `hex-pie`), from the published rules of Hex (Piet Hein, John Nash; the swap rule as the Hex community
//! plays it):
//!
//! * a player whose stones join its two edges by a chain of neighbouring cells wins (`hex-goal`). The edges
//!   are the first two zones the file declares for the player (the corpus names them `start-zone` and
//!   `stop-zone`), read for each player; the chain is a group under all the board's directions
//!   (`engine::groups::connects`, the language's `(connects ...)`);
//! * the swap (pie) rule (`hex-pie`): on the second move of the game, with one stone on the board, the
//!   second player may instead take that stone over, reflected across the board's long diagonal (the stone on
//!   `c5` becomes the second player's on `e3`), so that it serves the second player's edges. The swap is a
//!   move of its own, written as a capture of the first stone and a drop (one drop when the stone stands on
//!   the diagonal).
//!
//! The reflection needs a square board whose positions are named by a column letter and a row number
//! (`a1` ... `k11`), as the corpus file's are; `check` refuses another board. `hex-setup` and `hex-hints`
//! are screen aids, not rules.

use crate::compile::Module;
use crate::compile::{Game, Player, Pos, ZoneId};
use crate::engine::groups;
use crate::engine::Hooks;
use crate::engine::{Action, EngineError, Move, Outcome, Part, Piece, State};

/// The module (registered in `super::MODULES`).
pub struct Hex;

/// The first two zones declared for `player`: its two edges.
fn edges(game: &Game, player: Player) -> Vec<ZoneId> {
    game.board
        .zones
        .iter()
        .enumerate()
        .filter(|(_, z)| {
            z.members
                .get(player.idx())
                .is_some_and(|m| m.iter().any(|&x| x))
        })
        .map(|(i, _)| ZoneId(i as u16))
        .take(2)
        .collect()
}

/// A position name split into its column (0 for `a`) and row number.
fn column_row(name: &str) -> Option<(usize, usize)> {
    let (col, row) = name.split_at(name.find(|c: char| c.is_ascii_digit())?);
    let [c] = col.as_bytes() else { return None };
    let c = c.to_ascii_lowercase().checked_sub(b'a')? as usize;
    Some((c, row.parse().ok()?))
}

/// The cell across the long diagonal: column and row exchanged.
fn reflect(game: &Game, pos: Pos) -> Option<Pos> {
    let (c, r) = column_row(game.board.pos_name(pos))?;
    let name = format!("{}{}", (b'a' + (r - 1) as u8) as char, c + 1);
    game.board.position(&name)
}

impl Module for Hex {
    fn name(&self) -> &'static str {
        "hex"
    }

    fn description(&self) -> &'static str {
        "Hex: a chain joining one's two edges (the first two zones) wins; the second player may swap"
    }

    fn check(&self, game: &Game) -> Result<(), String> {
        if game.players.len() != 2 {
            return Err("Hex has two players".into());
        }
        for p in 0..2 {
            if edges(game, Player(p)).len() < 2 {
                return Err(format!(
                    "player {} needs two zones, its two edges",
                    game.players[p as usize].name
                ));
            }
        }
        let b = &game.board;
        let on_board = (0..b.positions.len()).filter(|&i| !b.positions[i].dummy);
        for i in on_board {
            if reflect(game, Pos(i as u16)).is_none() {
                return Err(format!(
                    "the swap reflects a cell across the diagonal: `{}` has no mirror cell (a square \
                     board named a1, b1, ... is needed)",
                    b.pos_name(Pos(i as u16))
                ));
            }
        }
        Ok(())
    }

    fn covers(&self) -> &[&str] {
        &["no-end-condition", "hex-goal", "hex-pie"]
    }
}

impl Hooks for Hex {
    fn moves(&self, game: &Game, state: &State, moves: &mut Vec<Move>) -> Result<(), EngineError> {
        if state.ply() != 1 {
            return Ok(());
        }
        let mut stones = state
            .cells()
            .iter()
            .enumerate()
            .filter_map(|(i, c)| c.map(|x| (Pos(i as u16), x)));
        let (Some((at, first)), None) = (stones.next(), stones.next()) else {
            return Ok(());
        };
        let Some(to) = reflect(game, at) else {
            return Ok(());
        };
        let mover = game.turn_order.entries[state.turn()].moves_as;
        let mut actions = vec![Action::Capture { at }];
        actions.push(Action::Place {
            at: to,
            piece: Piece {
                owner: mover,
                ..first
            },
            reserve: false,
        });
        moves.push(Move {
            parts: vec![Part {
                actions,
                from: None,
                to: Some(to),
                piece: first.kind,
                move_type: None,
            }],
        });
        Ok(())
    }

    fn outcome(
        &self,
        game: &Game,
        state: &State,
        _moves: &[Move],
        _history: &[u64],
    ) -> Option<Outcome> {
        for p in 0..2u8 {
            let player = Player(p);
            if groups::connects(game, state, player, &edges(game, player), &[]) {
                let results = (0..2).map(|q| if q == p { 1 } else { -1 }).collect();
                return Some(Outcome {
                    results,
                    end_type: "connection".into(),
                    name: "connection".into(),
                    priority: 0,
                });
            }
        }
        None
    }
}
