//! The groups of one frozen board, found once and read by every group test of a move generation.
//!
//! A move generation runs the drop program of Go (`(verify (not suicide?)) (capture-groups) add`) once per
//! empty point, and each run asked [`groups::suicide`] and [`groups::captured_by_placing`], each a flood fill
//! of the groups next to the point: on 9x9 that was 43% of a random game's instructions. The interpreter reads
//! a frozen board (the state at the start of the part), so the groups are the same for every run of one
//! generation: [`Table`] labels each stone with its group and counts each group's liberties, once, and the
//! tests then look at the four neighbours only.
//!
//! The answers are those of the flood fills for a point that is empty on the frozen board (the callers check
//! it and use the flood fills otherwise): a group next to an empty point `at` has `at` among its liberties, so
//! it is left without a liberty by a piece on `at` exactly when `at` is its only liberty, and it keeps one
//! other than `at` exactly when it has two or more. The stones a capture removes are listed by the same flood
//! fill as before, in the same order, so that the moves are identical (captures are rare).
//!
//! The general-path switch (`DAGAZ_GENERAL_PATH=1`) turns the table off; `tests/chains.rs` checks the moves,
//! outcomes and hashes of the two against each other on random games.

use super::groups::{self, Owner};
use super::state::Piece;
use crate::compile::*;

/// No group: an empty position (or one off the groups' board).
const NONE: u32 = u32::MAX;

/// The groups of a board: for each position, the index of the group of the live piece on it, and for each
/// group the number of its liberties (each empty neighbour once).
#[derive(Debug)]
pub struct Table {
    group: Vec<u32>,
    liberties: Vec<u32>,
}

/// The owner of the live piece on a cell (what the group forms read).
#[inline]
fn owner_of(c: Option<Piece>) -> Option<Player> {
    c.filter(|x| !x.dead).map(|x| x.owner)
}

impl Table {
    /// Labels the groups of `cells` on `game`'s board (positions marked `dummy` are not on it).
    pub fn new(game: &Game, cells: &[Option<Piece>]) -> Table {
        let b = &game.board;
        let n = cells.len().min(b.positions.len());
        let mut group = vec![NONE; cells.len()];
        let mut liberties = vec![];
        // `stamp[q] == g + 1`: the empty position `q` is already counted as a liberty of group `g`.
        let mut stamp = vec![0u32; cells.len()];
        let mut members: Vec<usize> = vec![];
        for start in 0..n {
            if group[start] != NONE || b.positions[start].dummy {
                continue;
            }
            let Some(player) = owner_of(cells[start]) else {
                continue;
            };
            let g = liberties.len() as u32;
            let mut libs = 0u32;
            members.clear();
            members.push(start);
            group[start] = g;
            let mut k = 0;
            while k < members.len() {
                let p = members[k];
                k += 1;
                for q in groups::neighbours(b, p) {
                    match owner_of(cells[q]) {
                        None => {
                            if stamp[q] != g + 1 {
                                stamp[q] = g + 1;
                                libs += 1;
                            }
                        }
                        Some(o) if o == player && group[q] == NONE => {
                            group[q] = g;
                            members.push(q);
                        }
                        Some(_) => {}
                    }
                }
            }
            liberties.push(libs);
        }
        Table { group, liberties }
    }

    /// The liberties of the group of the piece on `q` (0 for an empty position).
    #[inline]
    fn libs(&self, q: usize) -> u32 {
        match self.group.get(q) {
            Some(&g) if g != NONE => self.liberties[g as usize],
            _ => 0,
        }
    }

    /// [`groups::suicide`] for a position `at` that is empty on the table's board.
    pub fn suicide(&self, game: &Game, owner: Owner, at: Pos, mover: Player) -> bool {
        let b = &game.board;
        let a = at.idx();
        let mut own_free = false;
        for q in groups::neighbours(b, a) {
            match owner(q) {
                // An empty neighbour is a liberty of the new piece.
                None => return false,
                // A capture frees a neighbour of `at`.
                Some(o) if !game.same_team(o, mover) => {
                    if self.libs(q) == 1 {
                        return false;
                    }
                }
                // A group of the mover with a liberty other than `at`.
                Some(o) if o == mover => own_free |= self.libs(q) >= 2,
                Some(_) => {}
            }
        }
        !own_free
    }

    /// [`groups::captured_by_placing`] for a position `at` that is empty on the table's board: the same
    /// positions in the same order.
    pub fn captured_by_placing(
        &self,
        game: &Game,
        owner: Owner,
        at: Pos,
        mover: Player,
    ) -> Vec<usize> {
        let b = &game.board;
        let a = at.idx();
        // Quick test: no enemy group next to `at` whose only liberty is `at`.
        let taken =
            |q: usize| owner(q).is_some_and(|o| !game.same_team(o, mover)) && self.libs(q) == 1;
        if !groups::neighbours(b, a).any(taken) {
            return vec![];
        }
        groups::captured_by_placing(game, owner, at, mover)
    }
}
