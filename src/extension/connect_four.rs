//! `connect-four`: the rules of Connect Four (Captain's Mistress) that a ZRF file with a plain drop
//! (`(verify empty?) add`) leaves out, from the published rules (Wikipedia, "Connect Four"): a disc falls
//! to the lowest empty cell of its column, and the first player with four of their discs in a line
//! (across, up and down, or diagonally) wins; a full board with no line is a draw.
//!
//! "Down" is the board's direction `s` (as in the corpus's `connect-four.zrf`, whose rank 1 is the bottom
//! row). Lines run along every direction that has a reverse. Gravity only removes moves, and the end is read
//! from the position, so moves, hashing and perft stay those of the file.

use crate::compile::Module;
use crate::compile::{Dir, Game, Player, Pos, NO_POS};
use crate::engine::Hooks;
use crate::engine::{EngineError, Move, Outcome, State};

/// The module (registered in `super::MODULES`).
pub struct ConnectFour;

/// The length of a winning line.
const LINE: usize = 4;

fn down(game: &Game) -> Option<Dir> {
    game.board.direction("s")
}

fn neighbour(game: &Game, pos: Pos, dir: Dir) -> Option<Pos> {
    let b = &game.board;
    let t = b.links[pos.idx() * b.directions.len() + dir.idx()];
    (t != NO_POS).then_some(Pos(t))
}

/// One direction of each pair of reverse directions: the lines are read along these.
fn line_dirs(game: &Game) -> impl Iterator<Item = Dir> + '_ {
    game.board
        .opposite
        .iter()
        .enumerate()
        .filter_map(|(d, o)| o.filter(|o| o.idx() > d).map(|_| Dir(d as u16)))
}

/// The owner of a line of [`LINE`] pieces on the board, if any.
fn line_owner(game: &Game, state: &State) -> Option<Player> {
    // The directions, listed once rather than once a cell (boards have a handful).
    let mut dirs = [0usize; 16];
    let mut nd = 0;
    for d in line_dirs(game) {
        if nd == dirs.len() {
            return line_owner_any(game, state);
        }
        dirs[nd] = d.idx();
        nd += 1;
    }
    let b = &game.board;
    let stride = b.directions.len();
    let cells = state.cells();
    for (i, cell) in cells.iter().enumerate() {
        let Some(p) = cell else { continue };
        for &d in &dirs[..nd] {
            let mut at = i;
            let mut n = 1;
            while n < LINE {
                let t = b.links[at * stride + d];
                match cells.get(t as usize) {
                    Some(Some(q)) if t != NO_POS && q.owner == p.owner => {
                        at = t as usize;
                        n += 1;
                    }
                    _ => break,
                }
            }
            if n == LINE {
                return Some(p.owner);
            }
        }
    }
    None
}

/// [`line_owner`] for boards with more directions than its table holds.
fn line_owner_any(game: &Game, state: &State) -> Option<Player> {
    for (i, cell) in state.cells().iter().enumerate() {
        let Some(p) = cell else { continue };
        for d in line_dirs(game) {
            let mut at = Pos(i as u16);
            let mut n = 1;
            while n < LINE {
                match neighbour(game, at, d) {
                    Some(next) if state.get(next).is_some_and(|q| q.owner == p.owner) => {
                        at = next;
                        n += 1;
                    }
                    _ => break,
                }
            }
            if n == LINE {
                return Some(p.owner);
            }
        }
    }
    None
}

impl Module for ConnectFour {
    fn name(&self) -> &'static str {
        "connect-four"
    }

    fn description(&self) -> &'static str {
        "discs fall to the lowest empty cell (direction s); four in a line wins; a full board draws"
    }

    fn check(&self, game: &Game) -> Result<(), String> {
        if down(game).is_none() {
            return Err("the board needs a direction `s` (down, towards the bottom row)".into());
        }
        if game.players.len() != 2 {
            return Err("Connect Four has two players".into());
        }
        Ok(())
    }

    fn covers(&self) -> &[&str] {
        &["no-end-condition"]
    }
}

impl Hooks for ConnectFour {
    fn moves(&self, game: &Game, state: &State, moves: &mut Vec<Move>) -> Result<(), EngineError> {
        let Some(s) = down(game) else { return Ok(()) };
        // A drop must rest on a disc or on the bottom row.
        let rests = |to: Pos| neighbour(game, to, s).is_none_or(|below| state.get(below).is_some());
        moves.retain(|m| {
            m.parts
                .iter()
                .all(|p| p.from.is_some() || p.to.is_none_or(rests))
        });
        Ok(())
    }

    /// The positions a drop that `moves` keeps lands on: those that rest on a disc or on the bottom row (the
    /// same test), so that the generation runs the drop from one cell a column instead of from every one.
    fn drop_sites(&self, game: &Game, state: &State, sites: &mut [u64]) -> bool {
        let Some(s) = down(game) else { return false };
        let b = &game.board;
        let stride = b.directions.len();
        let cells = state.cells();
        for i in 0..cells.len().min(sites.len() * 64) {
            let below = b.links[i * stride + s.idx()];
            if below == NO_POS || cells.get(below as usize).is_some_and(|c| c.is_some()) {
                sites[i >> 6] |= 1 << (i & 63);
            }
        }
        true
    }

    fn outcome(
        &self,
        game: &Game,
        state: &State,
        moves: &[Move],
        _history: &[u64],
    ) -> Option<Outcome> {
        let n = game.players.len();
        if let Some(w) = line_owner(game, state) {
            let results = (0..n).map(|q| if q == w.idx() { 1 } else { -1 }).collect();
            return Some(Outcome {
                results,
                end_type: "four-in-a-row".into(),
                name: "four in a row".into(),
                priority: 0,
            });
        }
        if moves.is_empty() {
            return Some(Outcome {
                results: vec![0; n],
                end_type: "full-board".into(),
                name: "full board".into(),
                priority: 0,
            });
        }
        None
    }
}
