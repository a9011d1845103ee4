//! `alak`: the rules of Alak (A. K. Dewdney's one-dimensional Go, from Douglas Hofstadter's column) that the
//! corpus's `go/zrf/alak.zrf` leaves to Dagaz scripts (`alak-extension`, `alak-ko`,
//! `alak-variant-extension`). On a row of cells (directions `e` and `w`):
//!
//! * a stone put down (or, in the "Alak Checkers" variant, moved) takes every run of enemy stones next to it
//!   that is closed on its far side by a stone of the mover or by the end of the row: a run with no empty
//!   cell beside it has no liberty, as in Go (`alak-extension`). In the moving variant the cell the stone
//!   left counts as empty (`alak-variant-extension`);
//! * with drops, a stone may not be put on a cell where a stone was taken by the move just made (`alak-ko`).
//!   The module keeps those cells in a game variable it declares (`alak-ko`, a bit per cell), set by every
//!   drop as an action of the move, so that the state says which drops the rule forbids;
//! * with drops, the game ends when the player to move has no move; each player counts its stones and the
//!   empty cells whose nearest stones on both sides (or on the one side there is) are its own, and the
//!   larger count wins (`alak-extension`);
//! * in the moving variant, a player left with fewer than two stones loses (`alak-variant-extension`).
//!
//! Which rules apply is read from the move: a drop (no `from`) or a move along the row.

use crate::compile::Module;
use crate::compile::{Dir, Game, Player, Pos, Variable};
use crate::engine::Hooks;
use crate::engine::{Action, EngineError, Move, Outcome, State};

/// The module (registered in `super::MODULES`).
pub struct Alak;

const KO_VAR: &str = "alak-ko";

fn dirs(game: &Game) -> Option<[Dir; 2]> {
    Some([game.board.direction("e")?, game.board.direction("w")?])
}

fn ko_slot(game: &Game) -> Option<usize> {
    game.variables
        .iter()
        .find(|v| v.name == KO_VAR)
        .map(|v| v.slot)
}

fn step(game: &Game, pos: Pos, d: Dir) -> Option<Pos> {
    let b = &game.board;
    let t = b.links[pos.idx() * b.directions.len() + d.idx()];
    (t != crate::compile::NO_POS).then_some(Pos(t))
}

/// The enemy stones a stone of `mover` arriving on `to` takes (`from`, the cell it left, counts as empty).
fn taken(game: &Game, state: &State, mover: Player, to: Pos, from: Option<Pos>) -> Vec<Pos> {
    let mut out = vec![];
    for d in dirs(game).into_iter().flatten() {
        let start = out.len();
        let mut p = step(game, to, d);
        let closed = loop {
            match p {
                None => break true, // the end of the row closes the run
                Some(q) if Some(q) == from => break false,
                Some(q) => match state.get(q) {
                    None => break false,
                    Some(x) if x.owner == mover => break true,
                    Some(_) => {
                        out.push(q);
                        p = step(game, q, d);
                    }
                },
            }
        };
        if !closed {
            out.truncate(start);
        }
    }
    out
}

/// Who holds a cell at the end: its stone's owner, or the owner of the nearest stones on both sides when
/// they agree (one side alone when the other has none).
fn holder(game: &Game, state: &State, pos: Pos) -> Option<Player> {
    if let Some(x) = state.get(pos) {
        return Some(x.owner);
    }
    let [e, w] = dirs(game)?;
    let nearest = |d: Dir| {
        let mut p = step(game, pos, d);
        while let Some(q) = p {
            if let Some(x) = state.get(q) {
                return Some(x.owner);
            }
            p = step(game, q, d);
        }
        None
    };
    match (nearest(e), nearest(w)) {
        (Some(a), Some(b)) if a != b => None,
        (a, b) => a.or(b),
    }
}

fn result(results: Vec<i8>, end: &str) -> Option<Outcome> {
    Some(Outcome {
        results,
        end_type: end.into(),
        name: end.into(),
        priority: 0,
    })
}

impl Module for Alak {
    fn name(&self) -> &'static str {
        "alak"
    }

    fn description(&self) -> &'static str {
        "Alak: runs of enemy stones closed by the mover or the edge are taken; no drop where a stone was \
         just taken; the larger territory wins (drops), fewer than two stones loses (moves)"
    }

    fn prepare(&self, game: &mut Game) -> Result<(), String> {
        if ko_slot(game).is_some() || !game.pieces.iter().any(|p| !p.drops.is_empty()) {
            return Ok(());
        }
        let n = game.players.len();
        let slot = game
            .variables
            .iter()
            .map(|v| v.slot + if v.per_player { n } else { 1 })
            .max()
            .unwrap_or(0);
        game.variables.push(Variable {
            name: KO_VAR.into(),
            per_player: false,
            init: 0,
            per_ply: false,
            per_turn: false,
            slot,
        });
        Ok(())
    }

    fn check(&self, game: &Game) -> Result<(), String> {
        if dirs(game).is_none() {
            return Err("Alak's row needs the directions `e` and `w`".into());
        }
        if game.players.len() != 2 {
            return Err("Alak has two players".into());
        }
        if game.board.positions.len() > 31 {
            return Err(
                "the ko cells are kept in one 31-bit variable: a row of at most 31 cells".into(),
            );
        }
        Ok(())
    }

    fn covers(&self) -> &[&str] {
        &[
            "no-end-condition",
            "alak-extension",
            "alak-ko",
            "alak-variant-extension",
        ]
    }
}

impl Hooks for Alak {
    fn moves(&self, game: &Game, state: &State, moves: &mut Vec<Move>) -> Result<(), EngineError> {
        let mover = game.turn_order.entries[state.turn()].moves_as;
        let ko = ko_slot(game);
        let forbidden = ko.map_or(0, |s| state.vars()[s] as u32);
        moves.retain_mut(|m| {
            let [part] = &mut m.parts[..] else {
                return true;
            };
            let Some(to) = part.to else { return true };
            let drop = part.from.is_none();
            if drop && forbidden >> to.idx() & 1 == 1 {
                return false;
            }
            let caps = taken(game, state, mover, to, part.from);
            let mut actions: Vec<Action> = caps.iter().map(|&at| Action::Capture { at }).collect();
            if drop {
                if let Some(slot) = ko {
                    let mask = caps.iter().fold(0u32, |m, p| m | 1 << p.idx());
                    part.actions.push(Action::SetVar {
                        slot: slot as u16,
                        value: mask as i32,
                    });
                }
            }
            if !actions.is_empty() {
                actions.append(&mut part.actions);
                part.actions = actions;
            }
            true
        });
        Ok(())
    }

    fn outcome(
        &self,
        game: &Game,
        state: &State,
        moves: &[Move],
        _history: &[u64],
    ) -> Option<Outcome> {
        let drops = game.pieces.iter().any(|p| !p.drops.is_empty());
        if !drops {
            let count = |p: u8| {
                state
                    .cells()
                    .iter()
                    .flatten()
                    .filter(|x| x.owner == Player(p))
                    .count()
            };
            let (a, b) = (count(0), count(1));
            return match (a < 2, b < 2) {
                (false, true) => result(vec![1, -1], "fewer-than-two"),
                (true, false) => result(vec![-1, 1], "fewer-than-two"),
                (true, true) => result(vec![0, 0], "fewer-than-two"),
                _ => None,
            };
        }
        if !moves.is_empty() {
            return None;
        }
        let mut score = [0i32; 2];
        for i in 0..state.cells().len() {
            if let Some(p) = holder(game, state, Pos(i as u16)) {
                score[p.idx().min(1)] += 1;
            }
        }
        let r = match score[0].cmp(&score[1]) {
            std::cmp::Ordering::Greater => vec![1, -1],
            std::cmp::Ordering::Less => vec![-1, 1],
            std::cmp::Ordering::Equal => vec![0, 0],
        };
        result(r, "territory")
    }
}
